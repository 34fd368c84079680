"""What the bundled ``processor-studio`` executable runs (PyInstaller's entry script).

``processor-studio [--self-test PNG] [--data-dir DIR] [--print-startup-time]`` is the studio itself
(:func:`studio.app.main`). ``processor-studio --bundle-check`` is a packaging diagnostic that lives only in
the bundle: it checks what PyInstaller may silently leave out (data files, lazily imported modules, entry-point
metadata) and exits 0 only if every check passed; see ``packaging/bundle_check.py``.
"""

from __future__ import annotations

import sys

#: Flags whose output matters: on Windows the app is a GUI program without a console, so Python has no stdout
#: when it is started from a terminal (``sys.stdout is None``); these attach to that terminal instead.
_CONSOLE_FLAGS = ("--bundle-check", "--self-test", "--print-startup-time", "--help", "-h")


def _attach_parent_console() -> None:
    """Windows GUI builds: print to the terminal that started us, if any (no-op elsewhere or from Explorer)."""
    if sys.platform != "win32" or sys.stdout is not None or not any(a in _CONSOLE_FLAGS for a in sys.argv[1:]):
        return
    import ctypes

    if ctypes.windll.kernel32.AttachConsole(-1):  # ATTACH_PARENT_PROCESS
        sys.stdout = open("CONOUT$", "w", encoding="utf-8", buffering=1)  # noqa: SIM115 - for the process's life
        sys.stderr = sys.stdout


#: Flags of unattended checks (the release workflow, check_deb.sh): a crash there must end the process with an exit
#: code and a traceback on stderr, never in PyInstaller's modal "Unhandled exception" dialog of windowed builds,
#: which would hold a CI job until its timeout.
_CHECK_FLAGS = ("--bundle-check", "--self-test")

#: Exit code of a check that crashed (EX_SOFTWARE in sysexits.h).
CRASHED = 70


def _run() -> int:
    if sys.argv[1:2] == ["--bundle-check"]:
        import bundle_check  # packaging/bundle_check.py, bundled as a top-level module

        return bundle_check.main(sys.argv[2:])
    from studio.app import main as studio_main

    return studio_main(sys.argv[1:])


def main() -> int:
    # Before anything else: in the bundle, a lab worker process (multiprocessing's spawn) starts this executable
    # again; freeze_support() runs the worker there and exits, so the worker never opens a window nor imports Qt.
    import multiprocessing

    multiprocessing.freeze_support()
    _attach_parent_console()
    if not any(flag in sys.argv[1:] for flag in _CHECK_FLAGS):
        return _run()  # a user's run: an unexpected crash may show PyInstaller's dialog, which is what they need
    try:
        return _run()
    except SystemExit:
        raise
    except BaseException:
        import traceback

        stream = sys.stderr or sys.stdout
        if stream is not None:
            traceback.print_exc(file=stream)
            stream.flush()
        return CRASHED


if __name__ == "__main__":
    raise SystemExit(main())
