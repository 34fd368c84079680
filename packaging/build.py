"""Build Processor Studio's installers for this platform, in one command.

    python packaging/build.py                 # bundle + installers for this OS, into dist/
    python packaging/build.py --bundle-only   # just the PyInstaller one-folder bundle (dist/processor-studio/)
    python packaging/build.py --skip-bundle   # re-package an existing bundle (e.g. after editing deb.py)

Steps (each prints what it did and how long it took):

1. write the licence list of the installed packages (``packaging/licences.py``) and render the icons from
   ``resources/icons/processor-studio.svg`` with Qt (``packaging/icons.py``);
2. PyInstaller with ``packaging/processor_studio.spec`` (one-folder bundle; unused Qt and litellm parts left out;
   debug symbols stripped on Linux) into ``dist/processor-studio/`` (macOS: also ``dist/Processor Studio.app``);
3. ``processor-studio --bundle-check`` on the fresh bundle (offline): the catalogue has the 16 built-ins,
   migrations, price map, tokenizers, language model, Qt plug-ins, litellm providers… (``--no-check`` skips it);
4. the installers: Linux ``.deb`` + ``.tar.gz`` (``packaging/deb.py``), Windows Inno Setup ``…-setup.exe``
   (``packaging/windows/build_installer.py``), macOS ``.dmg`` (``packaging/macos/build_dmg.sh``);
5. a report (``dist/build-report.json``): sizes and times.

Needs the project installed in the running Python with PyInstaller
(``pip install -e '.[dev]'``, which pins ``pyinstaller==6.22.3``). Intermediate files go to ``build/``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build_info import APP_ID, APP_NAME, ROOT, version  # noqa: E402

DIST = ROOT / "dist"
BUILD = ROOT / "build"
BUNDLE = DIST / APP_ID
SPEC = HERE / "processor_studio.spec"
PYINSTALLER_VERSION = "6.22.3"


def say(message: str) -> None:
    print(f"build: {message}", flush=True)


def folder_size(path: Path) -> int:
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() or p.is_symlink())


def mb(size: int) -> str:
    return f"{size / 1e6:.0f} MB"


def executable(bundle: Path) -> Path:
    if sys.platform == "win32":
        return bundle / f"{APP_ID}.exe"
    return bundle / APP_ID


def check_environment() -> None:
    if importlib.util.find_spec("PyInstaller") is None:
        raise SystemExit(
            f"build: PyInstaller is missing: pip install 'pyinstaller=={PYINSTALLER_VERSION}' "
            "(or pip install -e '.[dev]')"
        )
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        installed("processor-studio")
    except PackageNotFoundError:
        raise SystemExit("build: install the project into this Python first: pip install -e '.[dev]'") from None
    found = installed("pyinstaller")
    if found != PYINSTALLER_VERSION:
        say(f"warning: PyInstaller {found} (the build was tuned and measured with {PYINSTALLER_VERSION})")


def write_licences() -> None:
    """The licence list and notices for exactly the packages installed here (``packaging/licences.py``): the pins in
    pyproject.toml fix the direct dependencies, but theirs are resolved at install time, so the shipped list is
    regenerated for each build; a change shows in ``git status``."""
    subprocess.run([sys.executable, str(HERE / "licences.py")], check=True)


def render_icons() -> None:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, str(HERE / "icons.py"), "--out", str(BUILD / "icons")],
        check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    say(f"icons rendered ({time.perf_counter() - started:.1f} s)")


def run_pyinstaller() -> float:
    for stale in (BUNDLE, DIST / f"{APP_NAME}.app"):
        if stale.exists():
            shutil.rmtree(stale)
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(DIST),
            "--workpath",
            str(BUILD / "pyinstaller"),
            str(SPEC),
        ],
        check=True,
        cwd=ROOT,
    )
    seconds = time.perf_counter() - started
    say(f"PyInstaller bundle {BUNDLE} in {seconds:.0f} s: {mb(folder_size(BUNDLE))}")
    return seconds


def bundle_check() -> None:
    exe = executable(BUNDLE)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PROCESSOR_STUDIO_DATA", None)
    started = time.perf_counter()
    # Output through a pipe: a windowed Windows executable only gets a stdout when it is handed one.
    result = subprocess.run(
        [str(exe), "--bundle-check"],
        env=env,
        cwd=BUILD,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    print(result.stdout, end="", flush=True)
    if result.returncode != 0:
        raise SystemExit(f"build: the bundle check failed (exit {result.returncode}); see above")
    say(f"bundle check passed ({time.perf_counter() - started:.0f} s)")


def package() -> list[Path]:
    """The installers for this platform; returns their paths."""
    started = time.time()
    if sys.platform.startswith("linux"):
        subprocess.run([sys.executable, str(HERE / "deb.py"), "--bundle", str(BUNDLE), "--out", str(DIST)], check=True)
    elif sys.platform == "win32":
        subprocess.run([sys.executable, str(HERE / "windows" / "build_installer.py")], check=True)
    elif sys.platform == "darwin":
        subprocess.run(
            ["bash", str(HERE / "macos" / "build_dmg.sh")], check=True, env={**os.environ, "PYTHON": sys.executable}
        )
    else:
        say(f"no installer format for {sys.platform}; the bundle is in {BUNDLE}")
    return sorted(
        path
        for path in DIST.glob("*")
        if path.is_file() and path.stat().st_mtime >= started - 1 and path.name != "build-report.json"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build Processor Studio's bundle and installers for this OS.")
    parser.add_argument("--bundle-only", action="store_true", help="stop after the PyInstaller bundle")
    parser.add_argument("--skip-bundle", action="store_true", help="reuse dist/processor-studio")
    parser.add_argument("--no-check", action="store_true", help="skip the bundle check")
    args = parser.parse_args(argv)

    check_environment()
    say(f"{APP_NAME} {version()} on {platform.system()} {platform.machine()}, Python {platform.python_version()}")
    DIST.mkdir(exist_ok=True)
    BUILD.mkdir(exist_ok=True)
    report: dict[str, object] = {"version": version(), "platform": sys.platform, "machine": platform.machine()}
    started = time.perf_counter()
    if not args.skip_bundle:
        write_licences()
        render_icons()
        report["pyinstaller_seconds"] = round(run_pyinstaller(), 1)
    elif not executable(BUNDLE).exists():
        raise SystemExit(f"build: --skip-bundle, but there is no bundle in {BUNDLE}")
    report["bundle_bytes"] = folder_size(BUNDLE)
    if not args.no_check:
        bundle_check()
    if not args.bundle_only:
        artifacts = package()
        report["artifacts"] = {path.name: path.stat().st_size for path in artifacts}
        for path in artifacts:
            say(f"artifact {path} ({mb(path.stat().st_size)})")
    report["total_seconds"] = round(time.perf_counter() - started, 1)
    (DIST / "build-report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    say(f"done in {report['total_seconds']} s; report in {DIST / 'build-report.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
