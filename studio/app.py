"""Processor Studio's entry point: ``python -m studio`` (or the ``processor-studio`` command).

One asyncio loop runs on the Qt thread through qasync; model calls, processor runs and database work are tasks
on it (the database itself works on a worker thread), so painting never waits. ``--self-test PATH`` opens the
window (offscreen when there is no display), chats with the sample agent offline until a guardrail trips, saves
a screenshot to PATH and exits 0 only if everything went as expected.

SIGTERM, SIGINT and SIGHUP quit as closing the window does (:class:`TerminationSignals`): pending saves are
written, and the exit status is 128 + the signal's number.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

_STARTED = time.perf_counter()


def process_age() -> float:
    """Seconds since this process started (from the OS when it says; else since this module was imported)."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        with open("/proc/self/stat", encoding="ascii") as stat:
            start_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as uptime:
            return float(uptime.read().split()[0]) - start_ticks / ticks
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - _STARTED


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="processor-studio", description="Design LLM agents and test guardrails.")
    parser.add_argument(
        "--self-test",
        metavar="PNG",
        type=Path,
        help="chat offline with the sample agent through a tripwire, save a screenshot, exit 0 if all is well",
    )
    parser.add_argument("--data-dir", type=Path, help="keep threads and designs here instead of the user data folder")
    parser.add_argument(
        "--print-startup-time", action="store_true", help="print the seconds from launch to the window being shown"
    )
    parser.add_argument(
        "--lang",
        metavar="LANG",
        type=_language,
        help="the studio's language for this start: zh_CN, zh_TW or en (default: the one picked in "
        "Settings, else the system's)",
    )
    return parser.parse_args(argv)


def _language(value: str) -> str:
    """``--lang``'s value: a shipped language (``zh-CN`` and ``zh_cn`` are accepted too)."""
    from studio.i18n import LANGUAGES

    for name in LANGUAGES:
        if value.replace("-", "_").casefold() == name.casefold():
            return name
    raise argparse.ArgumentTypeError(f"unknown language {value!r}; choose one of {', '.join(LANGUAGES)}")


def platform_defaults(args: argparse.Namespace, environ: MutableMapping[str, str]) -> None:
    """``--self-test`` without a display runs offscreen (``studio.qt_platform`` checks the same choice)."""
    if args.self_test is not None and not environ.get("DISPLAY") and not environ.get("WAYLAND_DISPLAY"):
        environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(argv: list[str] | None = None) -> int:
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen build's lab worker process runs here and exits (lab.process_run)
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["lab"]:  # the headless guardrail lab: no Qt
        from studio.lab.cli import main as lab_main

        return lab_main(arguments[1:])
    args = parse_args(argv)
    scratch: Path | None = None
    platform_defaults(args, os.environ)
    if args.self_test is not None and args.data_dir is None:  # never touch the user's own threads
        args.data_dir = scratch = Path(tempfile.mkdtemp(prefix="processor-studio-self-test-"))
    if args.data_dir is not None:
        os.environ["PROCESSOR_STUDIO_DATA"] = str(args.data_dir)
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

    from studio.system import display

    problem = display.display_problem(os.environ, hold=True)
    if problem is not None:  # said before Qt tries, whose own message would blame a library
        print(f"Processor Studio cannot start: {problem}", file=sys.stderr)
        return 1

    app = make_application()
    display.release()  # Qt has its own connection now
    from studio import i18n

    i18n.install(app, i18n.choose_language(args.lang))
    _apply_icon(app)
    _apply_style(app)
    # Closing the last window would make Qt leave its event loop at once, under the running coroutine (qasync then
    # raises "Event loop stopped before Future completed" with a reply half-saved and the store open): _run ends
    # the loop instead, after shutting the workspace down.
    app.setQuitOnLastWindowClosed(False)
    from studio.event_loop import StudioEventLoop

    loop = StudioEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        with loop:
            code = int(loop.run_until_complete(_run(app, args)))
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if code == RESTART:
        from studio.restart import relaunch

        return relaunch()
    return code


#: What ``_run`` returns when the window asked for a restart (a new language): the process starts itself again.
RESTART = -1


#: The application's id: X11's WM_CLASS (instance and class), the desktop entry's name and its StartupWMClass.
APP_ID = "processor-studio"


def make_application() -> Any:
    """The QApplication (the existing one if any), named so desktops match its windows to the desktop entry,
    with the studio's application-wide wheel guard (:mod:`studio.views.wheel_guard`).

    On X11 the WM_CLASS instance comes from ``argv[0]`` (``__main__.py`` under ``python -m studio``) and the class
    from the application name, so both are set to :data:`APP_ID`; the title bar shows the display name.
    """
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        with _platform_failure_explained():
            app = QApplication([APP_ID])
    app.setApplicationName(APP_ID)
    app.setApplicationDisplayName("Processor Studio")
    app.setOrganizationName("ProcessorStudio")
    app.setDesktopFileName(APP_ID)  # Wayland matches the window to the desktop entry and its icon
    from studio.views.wheel_guard import install_wheel_guard

    install_wheel_guard(app)  # scrolling a form never edits a field it passes over
    return app


@contextlib.contextmanager
def _platform_failure_explained() -> Iterator[None]:
    """While Qt loads its platform plugin: if it fails (Qt then aborts the process), say why before it does.

    Qt's own message blames a missing ``xcb-cursor0`` whatever the cause; the display may have stopped answering
    since :func:`studio.system.display.display_problem` asked, or a library may be missing.
    """
    from PySide6.QtCore import QtMsgType, qFormatLogMessage, qInstallMessageHandler

    def on_message(kind: QtMsgType, context: Any, message: str) -> None:
        print(qFormatLogMessage(kind, context, message), file=sys.stderr, flush=True)
        if kind == QtMsgType.QtFatalMsg and "platform plugin" in message:
            from studio.system.display import platform_failure

            print(f"Processor Studio cannot start: {platform_failure(os.environ)}", file=sys.stderr, flush=True)

    previous = qInstallMessageHandler(on_message)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


def _apply_icon(app: Any) -> None:
    from PySide6.QtGui import QIcon

    from studio.system.resources import resources_dir

    icon = resources_dir() / "icons" / "processor-studio.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))


def _apply_style(app: Any) -> None:
    from studio.system.resources import read_text

    style = read_text("styles/studio.qss")
    if style:
        app.setStyleSheet(style)


async def _run(app: Any, args: argparse.Namespace) -> int:
    from studio.controllers.workspace import Workspace
    from studio.design.catalog import studio_catalogue
    from studio.keys.secrets import SecretStore
    from studio.quit_filter import QuitEventFilter
    from studio.store.database import Store
    from studio.views.main_window import MainWindow

    workspace = Workspace(store=Store(), catalogue=studio_catalogue(), secrets=SecretStore())
    window = MainWindow(workspace)
    quit_requested = asyncio.Event()  # the window closed (Ctrl+Q, File → Quit, its close button) or the OS asks
    app.lastWindowClosed.connect(quit_requested.set)
    quit_filter = QuitEventFilter(quit_requested.set)
    app.installEventFilter(quit_filter)
    # SIGTERM, SIGINT and SIGHUP quit as closing the window does (a self-test keeps their default: they end it)
    signals = TerminationSignals(asyncio.get_running_loop(), quit_requested.set)
    if args.self_test is None:
        signals.install()
    try:
        code = await _serve(app, args, window, workspace, quit_requested, signals)
    finally:
        signals.uninstall()
    return signals.exit_code or code


async def _serve(
    app: Any,
    args: argparse.Namespace,
    window: Any,
    workspace: Any,
    quit_requested: asyncio.Event,
    signals: Any,
) -> int:
    """Show the window, open the workspace, then run the self-test or wait for the quit; shut down; the exit code."""
    from studio import gc_policy, i18n

    window.show()
    if args.print_startup_time:
        # the CPU time too: on a busy machine the wall clock mostly measures waiting for a core
        print(f"startup: window shown {process_age():.3f} s after launch (CPU {time.process_time():.3f} s)", flush=True)
    gc_policy.install(app)
    for error in getattr(workspace.catalogue, "errors", []):
        window.statusBar().showMessage(
            i18n.translate("App", "A processor plug-in was skipped: {error}").format(error=error), 10000
        )
    try:
        await workspace.start()
    except Exception as error:  # e.g. a database written by a newer version: say so, change nothing
        if args.self_test is not None:  # headless: nobody would close a dialog, so fail fast and say why
            print(f"self-test: failed: Processor Studio cannot open its data: {error}", file=sys.stderr, flush=True)
            window.close()
            return 2
        from studio.views.fatal import show_fatal

        signals.uninstall()  # nothing to save: a signal ends the studio at once rather than wait for the dialog
        await show_fatal(window, i18n.translate("App", "Processor Studio cannot open its data"), str(error))
        return 2
    window.restore_draft()
    from studio.system.warm_up import start_warm_up, warmed

    # kept referenced until the end; a quit meanwhile waits at most for this fraction of a second (a failed warm-up
    # is logged there, not raised: it must not turn a quit into a traceback)
    warming = start_warm_up()
    if args.self_test is not None:
        from studio.self_test import run_self_test

        await warmed(warming)  # as a user's first message would find it: they take longer than this to type
        ok = await run_self_test(window, workspace, args.self_test)
        await workspace.shutdown()
        window.close()
        return 0 if ok else 1
    await quit_requested.wait()
    window.commit_pending_edits()  # before anything awaits: a value still waiting to be committed joins the save
    await warmed(warming)
    await workspace.shutdown()  # stops a streaming reply (saving what it showed), flushes the design, closes the store
    window.close()  # still open when the quit came from the OS (the macOS Dock's Quit) rather than the window
    return RESTART if window.restart_requested else 0


#: The signals that ask the studio to quit (those the platform has).
SIGNAL_NAMES = ("SIGTERM", "SIGINT", "SIGHUP")


class TerminationSignals:
    """While installed, SIGTERM, SIGINT and SIGHUP end the studio through its normal quit path.

    A desktop logout, ``kill``, systemd or a package upgrade sends SIGTERM; by default it ends Python at once,
    without the quit path, and an edit the design's autosave has not written yet is lost. Here the loop's own signal
    handling (``loop.add_signal_handler``: a self-pipe the qasync loop watches with a QSocketNotifier, so Qt's event
    loop wakes) calls ``request_quit`` instead, and :attr:`exit_code` is then 128 + the signal's number. Once a
    signal came the three go back to their default action, so a second one ends the process at once even if the quit
    hangs. Where the loop cannot handle signals (Windows) nothing changes.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, request_quit: Callable[[], None]) -> None:
        self._loop = loop
        self._request_quit = request_quit
        #: signal number → the handler before ours, restored by :meth:`uninstall`
        self._previous: dict[int, Any] = {}
        #: The first termination signal received, if any.
        self.received: int | None = None

    @property
    def exit_code(self) -> int | None:
        """The conventional exit status once a signal ended the studio (128 + its number), else None."""
        return None if self.received is None else 128 + self.received

    def install(self) -> None:
        for name in SIGNAL_NAMES:
            number = getattr(signal, name, None)
            if number is None:
                continue
            previous = signal.getsignal(number)
            try:
                self._loop.add_signal_handler(number, self._on_signal, int(number))
            except (NotImplementedError, RuntimeError, ValueError):  # Windows; not the main thread
                continue
            self._previous[number] = previous

    def uninstall(self) -> None:
        """Give the signals back their handlers from before :meth:`install`."""
        for number, previous in self._previous.items():
            self._stop_listening(number)
            with contextlib.suppress(TypeError, ValueError):  # a handler installed from C cannot be restored
                signal.signal(number, previous)
        self._previous.clear()

    def _stop_listening(self, number: int) -> None:
        with contextlib.suppress(RuntimeError, ValueError):  # the loop is closed (it removed its handlers)
            self._loop.remove_signal_handler(number)

    def _on_signal(self, number: int) -> None:
        if self.received is not None:  # a second signal that came before the first had been handled
            signal.signal(number, signal.SIG_DFL)
            signal.raise_signal(number)
            return
        self.received = number
        for listened in self._previous:  # a second signal now ends the process at once, quit or no quit
            self._stop_listening(listened)
            signal.signal(listened, signal.SIG_DFL)
        self._request_quit()


@contextlib.contextmanager
def quit_on_signals(loop: asyncio.AbstractEventLoop, request_quit: Callable[[], None]) -> Iterator[TerminationSignals]:
    """Call ``request_quit`` on the first termination signal while the block runs (see :class:`TerminationSignals`)."""
    signals = TerminationSignals(loop, request_quit)
    signals.install()
    try:
        yield signals
    finally:
        signals.uninstall()


if __name__ == "__main__":
    raise SystemExit(main())
