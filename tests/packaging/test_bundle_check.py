"""The bundle check (``processor-studio --bundle-check``) passes against the source tree, in its real order and in
the reverse one, so a check that depends on what an earlier one left behind (a Qt application of the wrong kind, an
imported module) breaks this test instead of the installer build.

Each run is a subprocess: the checks create a Qt application and import litellm, which must not leak into the
test process (nor it into them).
"""

import os
import subprocess
import sys
from pathlib import Path

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"

#: Runs ``bundle_check.main()`` as ``python packaging/bundle_check.py`` does, with CHECKS optionally reversed.
RUN_CHECKS = """
import sys
sys.path.insert(0, {packaging!r})
sys.path.insert(0, {root!r})
import bundle_check
if {reverse!r}:
    bundle_check.CHECKS = tuple(reversed(bundle_check.CHECKS))
raise SystemExit(bundle_check.main(["-v"]))
"""


def run_checks(*, reverse: bool) -> subprocess.CompletedProcess[str]:
    script = RUN_CHECKS.format(packaging=str(PACKAGING), root=str(PACKAGING.parent), reverse=reverse)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PROCESSOR_STUDIO_DATA", None)
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=PACKAGING.parent,
        env=env,
    )


def check_names() -> list[str]:
    """The checks' names in the order main() runs them."""
    sys.path.insert(0, str(PACKAGING))
    import bundle_check

    return [name for name, _ in bundle_check.in_running_order(bundle_check.CHECKS)]


def test_every_bundle_check_passes_from_the_source_tree_in_its_real_order() -> None:
    result = run_checks(reverse=False)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    names = check_names()
    passed = [line.split("(")[0].removeprefix("bundle-check: ok").strip() for line in result.stdout.splitlines()]
    assert [name for name in passed if name in names] == names, output
    assert f"bundle-check: passed ({len(names)}/{len(names)})" in result.stdout


def test_the_order_of_the_checks_does_not_matter() -> None:
    """The Qt checks share one QGuiApplication whichever comes first, and the checks that prove start-up does not
    load litellm run before the ones that load it, whatever the order of CHECKS."""
    result = run_checks(reverse=True)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "QGuiApplication required" not in output
    names = check_names()
    assert f"bundle-check: passed ({len(names)}/{len(names)})" in result.stdout
