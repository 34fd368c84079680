"""Can Qt's platform plugin load here? Checked before the studio starts, so that a missing system library is named.

Qt's xcb plugin (a desktop's X display, or Xvfb) needs libraries that a fresh Debian lacks. When one is missing
Qt prints a misleading "xcb-cursor0 or libxcb-cursor0 is needed" and aborts the process; ``ldd`` on the plugin
shows the real cause. ``scripts/bootstrap`` asks this module which Debian packages the plugins lack and installs
them; ``scripts/run`` asks it whether the platform the studio is about to use loads, and stops with a sentence
naming what is missing instead of Qt's abort::

    python -m studio.qt_platform [APP ARGUMENTS]   exit 0 if the studio's Qt platform loads; else say why, exit 1
    python -m studio.qt_platform --missing-packages   the Debian packages the xcb and offscreen plugins lack

No Qt is imported in this process: the plugin is inspected with ``ldd`` and loaded in a child process, since a
plugin that cannot load aborts the process that tries.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from studio.system.display import expected_platform

__all__ = ["diagnose", "expected_platform", "main", "missing_packages", "studio_environment"]

#: The plugins the studio uses on Linux: ``xcb`` on a desktop or Xvfb, ``offscreen`` for tests and headless checks.
CHECKED_PLUGINS = ("xcb", "offscreen")

#: Sonames whose Debian package does not follow the policy rule (see :func:`debian_package`).
_PACKAGE_EXCEPTIONS = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libgio-2.0.so.0": "libglib2.0-0",
    "libfreetype.so.6": "libfreetype6",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libxcb-util.so.1": "libxcb-util1",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$", re.MULTILINE)

#: Run in a child process: create the application (which loads the platform plugin) and name the platform.
_LOAD_PROBE = "from PySide6.QtGui import QGuiApplication; print(QGuiApplication(['qt-platform-probe']).platformName())"


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` reported as "not found", in order, each once."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def debian_package(soname: str) -> str:
    """The Debian package that ships ``soname``.

    Debian's library packaging policy names the package after the soname: ``libxcb-icccm.so.4`` is in
    ``libxcb-icccm4``, and a name that ends in a digit gets a hyphen (``libxkbcommon-x11.so.0`` is in
    ``libxkbcommon-x11-0``); package names are lower case (``libEGL.so.1`` is in ``libegl1``). The few that
    differ are listed in ``_PACKAGE_EXCEPTIONS``.
    """
    if soname in _PACKAGE_EXCEPTIONS:
        return _PACKAGE_EXCEPTIONS[soname]
    name, separator, version = soname.partition(".so.")
    if not separator:
        return soname.removesuffix(".so").lower()
    version = version.split(".")[0]
    hyphen = "-" if name[-1:].isdigit() else ""
    return f"{name}{hyphen}{version}".lower()


def debian_packages(sonames: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(debian_package(soname) for soname in sonames))


def plugin_file(platform: str) -> Path | None:
    """PySide6's shared library for ``platform`` (``libqxcb.so``), or None where there is none (not Linux)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "Qt" / "plugins" / "platforms" / f"libq{platform}.so"
        if candidate.is_file():
            return candidate
    return None


def unloadable_libraries(platform: str) -> list[str]:
    """The libraries ``platform``'s plugin needs that the system lacks (empty without ``ldd`` or the plugin)."""
    plugin = plugin_file(platform)
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None:
        return []
    completed = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, check=False)
    return missing_libraries(completed.stdout)


def missing_packages(platforms: Iterable[str] = CHECKED_PLUGINS) -> list[str]:
    """The Debian packages the plugins of ``platforms`` lack, each once."""
    return debian_packages(soname for platform in platforms for soname in unloadable_libraries(platform))


def studio_environment(app_arguments: list[str], environ: Mapping[str, str]) -> dict[str, str] | None:
    """The environment the studio will run with for these arguments (``--self-test`` goes offscreen without display).

    None for ``--help`` or a wrong argument: the studio will not open a window, only say so.
    """
    from studio.app import parse_args, platform_defaults

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            arguments = parse_args(app_arguments)
        except SystemExit:
            return None
    environment = dict(environ)
    platform_defaults(arguments, environment)
    return environment


def diagnose(environ: Mapping[str, str]) -> str | None:
    """None when Qt's platform plugin loads with ``environ``; else what is wrong and what to do.

    Loading it in a child process is the test (Qt may fall back from one plugin to another); ``ldd`` then explains
    a failure by the libraries that are missing, named with their Debian packages.
    """
    platform = expected_platform(environ)
    no_display = platform == "xcb" and not environ.get("DISPLAY")  # Qt would abort: no need to try
    probe = None
    if not no_display:
        probe = subprocess.run(
            [sys.executable, "-c", _LOAD_PROBE],
            capture_output=True,
            text=True,
            check=False,
            env=dict(environ),
            timeout=120,
        )
        if probe.returncode == 0:
            return None
    missing = unloadable_libraries(platform)
    if missing:
        packages = debian_packages(missing)
        return (
            f"Qt's {platform!r} platform plugin cannot load: {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing.\n"
            f"  On Debian or Ubuntu install {'it' if len(packages) == 1 else 'them'}:  "
            f"sudo apt-get install {' '.join(packages)}\n"
            f"  (./scripts/bootstrap does this when it runs as root or can use sudo.)"
        )
    if probe is None:
        return (
            "There is no display to open the studio's window on (DISPLAY is not set).\n"
            "  Run it on a desktop, or on a virtual display:  xvfb-run -a ./scripts/run\n"
            "  To check it headless instead:  ./scripts/run --self-test studio.png"
        )
    said = "\n".join(f"    {line}" for line in probe.stderr.strip().splitlines()[-8:])
    return f"Qt's {platform!r} platform plugin did not start (exit code {probe.returncode}). Qt said:\n{said}"


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--missing-packages"]:
        for package in missing_packages():
            print(package)
        return 0
    environment = studio_environment(arguments, os.environ)
    problem = None if environment is None else diagnose(environment)
    if problem is None:
        return 0
    print(f"Processor Studio cannot start: {problem}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
