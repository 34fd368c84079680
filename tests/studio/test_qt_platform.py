"""The Qt platform check: missing libraries are named with their Debian packages before Qt can abort.

The command-line tests run ``python -m studio.qt_platform`` in a subprocess; where a missing library must be
simulated, a stand-in ``ldd`` on ``PATH`` prints what the real one prints on a machine without the packages.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from studio.qt_platform import debian_package, expected_platform, missing_libraries, plugin_file, studio_environment

ROOT = Path(__file__).resolve().parents[2]

#: What ``ldd libqxcb.so`` printed on a fresh Debian 12 without libxcb-icccm4 and libxcb-keysyms1 (abridged).
LDD_WITHOUT_ICCCM_AND_KEYSYMS = """\
\tlinux-vdso.so.1 (0x00007ffd5b5f2000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f0e6c400000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f0e6c3f0000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f0e6c8a1000)
"""


def test_ldd_output_gives_the_missing_libraries_in_order_once_each() -> None:
    assert missing_libraries(LDD_WITHOUT_ICCCM_AND_KEYSYMS) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert missing_libraries("\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x1)\n") == []


def test_the_xcb_plugins_libraries_map_to_their_debian_packages() -> None:
    sonames = [
        "libxcb-cursor.so.0",
        "libxcb-icccm.so.4",
        "libxcb-image.so.0",
        "libxcb-keysyms.so.1",
        "libxcb-render-util.so.0",
        "libxcb-shape.so.0",
        "libxkbcommon-x11.so.0",
    ]
    assert [debian_package(soname) for soname in sonames] == [
        "libxcb-cursor0",
        "libxcb-icccm4",
        "libxcb-image0",
        "libxcb-keysyms1",
        "libxcb-render-util0",
        "libxcb-shape0",
        "libxkbcommon-x11-0",
    ]
    # The offscreen set, including the ones whose package name does not follow the soname.
    assert debian_package("libEGL.so.1") == "libegl1"
    assert debian_package("libfontconfig.so.1.12.0") == "libfontconfig1"
    assert debian_package("libdbus-1.so.3") == "libdbus-1-3"
    assert debian_package("libglib-2.0.so.0") == "libglib2.0-0"
    assert debian_package("libX11-xcb.so.1") == "libx11-xcb1"


def test_the_platform_is_the_one_the_studio_will_use() -> None:
    assert expected_platform({"QT_QPA_PLATFORM": "minimal:enable_fonts"}) == "minimal"
    assert expected_platform({"DISPLAY": ":0"}) == "xcb"
    assert expected_platform({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}) == "wayland"
    # --self-test without a display runs offscreen (studio.app does the same); with a display it uses it.
    assert studio_environment(["--self-test", "x.png"], {}) == {"QT_QPA_PLATFORM": "offscreen"}
    assert studio_environment(["--self-test", "x.png"], {"DISPLAY": ":0"}) == {"DISPLAY": ":0"}
    assert studio_environment(["--no-such-flag"], {}) is None  # no window: the studio will explain the usage error


def test_pyside6_ships_the_plugins_that_are_checked() -> None:
    for platform in ("xcb", "offscreen"):
        plugin = plugin_file(platform)
        assert plugin is not None and plugin.name == f"libq{platform}.so"


def _stand_in_ldd(directory: Path, output: str) -> dict[str, str]:
    """An environment whose ``ldd`` prints ``output``; the other tools are the real ones."""
    directory.mkdir()
    ldd = directory / "ldd"
    ldd.write_text(f"#!/bin/sh\ncat <<'LDD'\n{output}LDD\n")
    ldd.chmod(ldd.stat().st_mode | stat.S_IXUSR)
    environ = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environ.pop("QT_QPA_PLATFORM", None)
    return {**environ, "PATH": f"{directory}{os.pathsep}{environ['PATH']}", "PYTHONPATH": str(ROOT)}


def _check(*arguments: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studio.qt_platform", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
        env=env,
    )


def test_a_missing_xcb_library_is_named_with_its_package_before_qt_can_abort(tmp_path: Path) -> None:
    env = {**_stand_in_ldd(tmp_path / "bin", LDD_WITHOUT_ICCCM_AND_KEYSYMS), "DISPLAY": ":65000"}  # no server there
    checked = _check(env=env)
    assert checked.returncode == 1
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1 are missing" in checked.stderr
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in checked.stderr
    assert "xcb-cursor0" not in checked.stderr  # not Qt's misleading message
    listed = _check("--missing-packages", env=env)
    assert (listed.returncode, listed.stdout.split()) == (0, ["libxcb-icccm4", "libxcb-keysyms1"])


def test_no_display_is_explained_with_what_to_do(tmp_path: Path) -> None:
    env = _stand_in_ldd(tmp_path / "bin", "\tlinux-vdso.so.1 (0x1)\n")
    checked = _check(env=env)
    assert checked.returncode == 1
    assert "no display" in checked.stderr
    assert "xvfb-run -a ./scripts/run" in checked.stderr
    assert _check("--self-test", str(tmp_path / "x.png"), env=env).returncode == 0  # it runs offscreen
    assert _check("--help", env=env).returncode == 0  # no window to open: the studio prints its help


def test_the_offscreen_platform_really_loads_here() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    checked = _check(env=env)
    assert (checked.returncode, checked.stderr) == (0, "")


# --------------------------------------------------------------------------------------------- scripts/bootstrap
def _fake_tool(directory: Path, name: str, script: str) -> None:
    tool = directory / name
    tool.write_text(f"#!/bin/sh\n{script}\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ((), "libxcb-icccm4 libxcb-keysyms1"),
        (("--test",), "libxcb-icccm4 libxcb-keysyms1 xvfb postgresql"),
    ],
)
def test_bootstrap_without_root_or_sudo_names_the_missing_packages_and_the_command(
    tmp_path: Path, arguments: tuple[str, ...], expected: str
) -> None:
    """A copy of the script in an empty checkout, with a PATH holding only stand-ins: it must stop at the first step."""
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "bootstrap", checkout / "scripts" / "bootstrap")
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "dirname").symlink_to(shutil.which("dirname") or "/usr/bin/dirname")
    _fake_tool(tools, "id", "echo 1000")  # not root, and there is no sudo on PATH
    # dpkg-query: everything is installed except the two xcb libraries and the tests' tools.
    _fake_tool(
        tools,
        "dpkg-query",
        "case \"$3\" in libxcb-icccm4|libxcb-keysyms1|xvfb|postgresql) exit 1;; *) printf 'ii ';; esac",
    )
    completed = subprocess.run(
        ["/bin/bash", str(checkout / "scripts" / "bootstrap"), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": str(tools)},
    )
    assert completed.returncode == 1, completed.stderr
    assert f"missing Debian packages: {expected}\n" in completed.stderr
    assert f"apt-get update && apt-get install -y -q --no-install-recommends {expected}\n" in completed.stderr
    assert not (checkout / ".venv").exists()  # it stopped before doing anything else
