"""Studio test fixtures: a qasync event loop on the Qt thread, driven from synchronous tests.

Per TOOLCHAIN.md: never call ``qtbot.wait``/``waitSignal`` inside an ``async def`` test on a qasync loop. Tests
here are synchronous and run coroutines with ``qloop.run_until_complete(...)``; while it runs, Qt events are
processed too, so widgets repaint and signals fire as in the app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import qasync
import shiboken6
from PySide6.QtWidgets import QApplication

from processors.builtin.registry import Catalogue, load_catalogue
from studio.event_loop import StudioEventLoop

if TYPE_CHECKING:
    from tests.support.otlp_receiver import OtlpReceiver


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No studio test reads or writes the real user data folder (window state, databases, user processors)."""
    monkeypatch.setenv("PROCESSOR_STUDIO_DATA", str(tmp_path_factory.mktemp("studio-data")))
    # No warm lab workers (each imports litellm) behind every test that opens the Lab: the tests of the pool ask.
    monkeypatch.setenv("PROCESSOR_STUDIO_LAB_WORKERS", "0")


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """A fresh qasync loop for one test, set as the current asyncio loop and closed afterwards."""
    loop = StudioEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        close_qloop(loop)


def close_qloop(loop: qasync.QEventLoop) -> None:
    """Cancel the loop's tasks, close it, and destroy its Qt objects here, on the Qt thread.

    qasync leaves a closed loop in a reference cycle (loop → its ``_SimpleTimer`` QObject → the cancelled timer
    handles → loop) with Qt timers still registered, e.g. the one of every finished ``asyncio.wait_for``. Only the
    cyclic garbage collector frees it, on whichever thread triggers a collection; a later test that runs threads
    (the LiteLLM tests' HTTP server) then destroys the QObject off the Qt thread: "QObject::~QObject: Timers
    cannot be stopped from another thread", or a crash.
    """
    pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()
    asyncio.set_event_loop(None)
    for qobject in (loop._timer, getattr(loop, "_QEventLoop__call_soon_signaller", None)):
        if qobject is not None and shiboken6.isValid(qobject):
            shiboken6.delete(qobject)


@pytest.fixture
def loop(qloop: qasync.QEventLoop) -> qasync.QEventLoop:
    """The same loop under the name some modules use."""
    return qloop


def settle(loop: qasync.QEventLoop, seconds: float = 0.05) -> None:
    """Let the loop run for a moment (timers, queued signals, pending tasks)."""
    loop.run_until_complete(asyncio.sleep(seconds))


def run(loop: qasync.QEventLoop, awaitable: Any) -> Any:
    return loop.run_until_complete(awaitable)


def open_studio(qtbot: Any, qloop: qasync.QEventLoop, database: Any, *, size: tuple[int, int] | None = None) -> Any:
    """The real main window over a real store in ``database`` (a SQLite file), started: ``(workspace, window)``."""
    from studio.controllers.workspace import Workspace
    from studio.design.catalog import studio_catalogue
    from studio.keys.secrets import SecretStore
    from studio.store.database import Store
    from studio.views.main_window import MainWindow

    workspace = Workspace(store=Store(f"sqlite:///{database}"), catalogue=studio_catalogue(), secrets=SecretStore())
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    if size is not None:
        window.resize(*size)
    window.show()
    run(qloop, workspace.start())
    return workspace, window


@pytest.fixture
def in_language(qapp: QApplication) -> Iterator[Any]:
    """``in_language(code)`` installs a language ("zh_CN", "zh_TW", "en") for this test; English comes back after."""
    from studio import i18n

    def install(language: str) -> None:
        assert i18n.install(qapp, language), f"the {language} catalogue did not load"

    yield install
    i18n.install(qapp, "en")


@pytest.fixture
def text_size(qapp: QApplication) -> Iterator[Any]:
    """``text_size(2.0)`` sets the application's text at 200 %; the font comes back after the test."""
    original = qapp.font()

    def scale(factor: float) -> None:
        font = qapp.font()
        font.setPointSizeF(original.pointSizeF() * factor)
        qapp.setFont(font)

    yield scale
    qapp.setFont(original)


# ------------------------------------------------------------------------------------- designs' user files
#: A user processor file (tests/studio/design/test_build.py, test_export.py): ``ShoutBlocker`` refuses capitals.
PROCESSOR_FILE = '''
from processors import Processor


class ShoutBlocker(Processor):
    """Refuses messages written in capitals; remembers every violation it was told about."""

    id = "shout-blocker"
    seen: list = []

    def process_input(self, args):
        if args.messages[-1].text.isupper():
            args.abort("no shouting", metadata={"rule": "caps"})
        return args.messages

    def on_violation(self, violation):
        ShoutBlocker.seen.append(violation.message)
'''

#: A user tool file: ``shout`` (a ``@tool``), ``reverse`` (a plain function) and a constant.
TOOL_FILE = '''
from processors import tool


@tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


def reverse(text: str) -> str:
    """Reverse a text."""
    return text[::-1]


NOT_A_FUNCTION = 3
'''


@pytest.fixture
def user_catalogue(tmp_path: Path) -> Catalogue:
    """The built-in catalogue plus a processors folder holding :data:`PROCESSOR_FILE`."""
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "shouting.py").write_text(PROCESSOR_FILE, encoding="utf-8")
    loaded = load_catalogue(folder)
    assert "ShoutBlocker" in loaded, loaded.errors
    return loaded


@pytest.fixture
def tool_folder(tmp_path: Path) -> Path:
    """A user tools folder: :data:`TOOL_FILE` as ``text_tools.py``, and ``broken.py`` (a syntax error)."""
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "text_tools.py").write_text(TOOL_FILE, encoding="utf-8")
    (folder / "broken.py").write_text("def oops(:\n", encoding="utf-8")
    return folder


# ------------------------------------------------------------------------------------- telemetry
@pytest.fixture
def no_otel_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``OTEL_*`` variable of the machine (nor the GenAI capture switch) reaches the test's telemetry, and the
    batch span processor sends every 50 ms. A module whose every test wants it says
    ``pytestmark = pytest.mark.usefixtures("no_otel_environment")``."""
    from processors.tracing.otel import CAPTURE_VARIABLE

    for name in (
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_COMPRESSION",
        "OTEL_SDK_DISABLED",
        CAPTURE_VARIABLE,
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "50")


@pytest.fixture
def otlp_receiver() -> Iterator[OtlpReceiver]:
    """A real OTLP/HTTP trace receiver on a free local port (``tests/support/otlp_receiver.py``), stopped after."""
    from tests.support.otlp_receiver import OtlpReceiver

    with OtlpReceiver() as started:
        yield started
