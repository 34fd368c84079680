"""``Workspace``: the studio's use cases — open a design, chat on a thread, persist everything, import/export.

It owns the collaborators (store, catalogue, secrets, the design document, the run and threads controllers and
the chat model) and wires them; the main window is a thin view over it. Each job with a seam of its own lives in its
own module: opening and autosaving the design (:mod:`.design_session`), which key a run may carry
(:mod:`.key_gate`), starting the design's MCP servers (:mod:`.mcp_launcher`), reading a thread back
(:mod:`.thread_history`), writing files (:mod:`.file_exports`), replays (:mod:`.replay_controller`).
Every store call runs as a task on the qasync loop (the store does its disk work on a worker thread), so the UI
never waits on I/O.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal, Slot

from processors.models.base import LanguageModel
from processors.models.recording import Recording
from processors.result import GenerateResult
from processors.tools import Tool
from processors.tools.mcp import McpServerError
from studio.controllers.debug_controller import DebugController
from studio.controllers.design_session import DesignSession
from studio.controllers.file_exports import FileExports
from studio.controllers.import_controller import ThreadImportController
from studio.controllers.key_gate import KeyGate
from studio.controllers.mcp_launcher import McpLauncher
from studio.controllers.replay_controller import ReplayController
from studio.controllers.run_controller import RunController
from studio.controllers.tasks import TaskKeeper
from studio.controllers.thread_history import load_thread
from studio.controllers.threads_controller import ThreadsController
from studio.design.agent_design import AgentDesign, DesignError
from studio.design.build import build_agent
from studio.error_texts import error_text, tripwire_text
from studio.i18n import translate
from studio.keys.endpoints import EndpointError
from studio.keys.secrets import KeyGrant, SecretStore
from studio.mcp.approvals import CommandApprovals
from studio.mcp.servers import servers_to_start
from studio.models.chat_list_model import ChatListModel
from studio.models.chat_model import ChatModel
from studio.models.design_document import DesignDocument
from studio.models.threads_model import ThreadListModel
from studio.regression_exports import exported_path

if TYPE_CHECKING:
    from studio.controllers.lab_controller import LabController

logger = logging.getLogger(__name__)


class Workspace(QObject):
    #: A line for the status bar.
    status_message = Signal(str)
    #: A thread was opened (its id and title); the window selects it and loads the inspector.
    thread_opened = Signal(str)
    #: History for the inspector of the opened thread.
    history_loaded = Signal(list)
    #: The design document now holds another design (opened from a file or the store).
    design_opened = Signal(str)
    #: Everything asked for at start-up is loaded (the self-test waits for it).
    ready = Signal()
    #: Saving or exporting a file failed (a title and what happened); the window shows it without blocking.
    file_failed = Signal(str, str)
    #: A run's key was withheld from an endpoint it was not saved for (a :class:`KeyGrant`); the window asks the
    #: user, showing the host, and answers with :meth:`answer_endpoint_approval`.
    endpoint_approval_requested = Signal(object)
    #: A design's stdio MCP server (a :class:`~studio.design.agent_design.McpServerConfig`) would run a program the user
    #: has not allowed; the window asks, showing the exact command, and answers with :meth:`answer_mcp_approval`.
    mcp_approval_requested = Signal(object)
    #: A run's regression test was made (run_id, script, the kinds of masked values it holds unmasked, the file to
    #: write it over or ""): the window asks before writing unmasked values, and where it goes when no file is given
    #: (:meth:`make_regression_test` or :meth:`rewrite_regression_test`, then :meth:`save_regression_test`).
    regression_test_ready = Signal(str, str, list, str)
    #: A run's regression test file was written, or writing it ended (run_id): a replay view shows the export again.
    regression_test_written = Signal(str)

    def __init__(
        self,
        *,
        store: Any,
        catalogue: Any,
        secrets: SecretStore,
        mcp_approvals: CommandApprovals | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.catalogue = catalogue
        self.secrets = secrets
        self.document = DesignDocument(catalogue, parent=self)
        self.chat = ChatModel()
        self.chat_list = ChatListModel(self.chat, parent=self)
        self.runs = RunController(store, parent=self)
        self.threads_model = ThreadListModel(self)
        self.threads = ThreadsController(store, self.threads_model, parent=self)
        #: Which key each run may carry, and the user's approvals of endpoints.
        self.keys = KeyGate(secrets, parent=self)
        #: Breakpoints for the runs (live and replayed), and the run paused at one (the debugger panel shows it).
        self.debug = DebugController(self)
        #: Replays of past runs and whole threads through the current chain, chunk-boundary fuzzing.
        self.replays = ReplayController(
            store, catalogue, current_design=self.document.snapshot, live_model=self.keys.live_model,
            debugger_for_run=self.debug.debugger_for_run, parent=self,
        )  # fmt: skip
        self.replays.work_ended.connect(self.debug.run_ended)
        #: Thread imports, off the UI thread with progress (the window shows it).
        self.imports = ThreadImportController(store, parent=self)
        #: The design's MCP servers (kept running between runs) and the user's answers about launching them.
        self.mcp_launcher = McpLauncher(mcp_approvals, parent=self)
        #: The guardrail lab, made on first use (:attr:`lab`): the studio's window is shown without loading it.
        self._lab: LabController | None = None
        self.thread_id: str | None = None
        #: Processor instances kept between runs while their chain entry is unchanged (caches, ledgers).
        self._processors: dict[tuple[str, ...], Any] = {}
        self._tasks = TaskKeeper("workspace", self.status_message.emit)
        #: The running servers; stopped when they leave the design or at shutdown.
        self.mcp = self.mcp_launcher.sessions
        #: The stdio launches the user allowed (typed in the agent settings, or allowed when asked).
        self.mcp_approvals = self.mcp_launcher.approvals
        self._server_start: asyncio.Task[Any] | None = None
        #: The design, its script, threads and regression tests written to files.
        self.files = FileExports(
            store=store, catalogue=catalogue, document=self.document, replays=self.replays, parent=self
        )
        #: The design being edited: opened, and saved to the store after each burst of edits.
        self.designs = DesignSession(store, self.document, spawn=self.spawn, parent=self)
        self.designs.design_opened.connect(self._on_designs_design_opened)
        self.designs.status_message.connect(self.status_message)

        self.runs.chunk_received.connect(self._on_runs_chunk_received)
        self.runs.trace_event_received.connect(self._on_runs_trace_event_received)
        self.runs.run_finished.connect(self._on_runs_run_finished)
        self.runs.run_failed.connect(self._on_runs_run_failed)
        self.threads.thread_created.connect(self._on_threads_thread_created)
        self.threads.thread_deleted.connect(self._on_threads_thread_deleted)
        self.threads.thread_restored.connect(self._on_threads_thread_restored)
        self.threads.failed.connect(self.status_message)
        self.imports.import_failed.connect(self.status_message)
        self.imports.import_stopped.connect(self._on_imports_import_stopped)
        self.keys.approval_requested.connect(self.endpoint_approval_requested)
        self.keys.status_message.connect(self.status_message)
        self.mcp_launcher.approval_requested.connect(self.mcp_approval_requested)
        self.mcp_launcher.status_message.connect(self.status_message)
        self.files.status_message.connect(self.status_message)
        self.files.file_failed.connect(self.file_failed)
        for signal in (
            self.document.entry_inserted,
            self.document.entry_removed,
            self.document.entry_moved,
            self.document.entry_changed,
            self.document.settings_changed,
        ):
            signal.connect(self._on_document_edited)

    # ----------------------------------------------------------------------------------------- tasks
    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a coroutine on the loop, keeping a reference; failures go to the status bar, never a dialog."""
        return self._tasks.spawn(coroutine)

    async def wait_idle(self) -> None:
        """Wait until every pending task (and the threads controller's) has finished."""
        await self._tasks.wait_idle()
        await self.threads.wait_idle()

    # ----------------------------------------------------------------------------------------- start-up
    async def start(self) -> None:
        """Open the store; the first start saves and opens the sample agent and a first thread."""
        await self.store.open()
        await self.designs.open_latest()
        await self.threads.reload()
        await self.threads.open_trash()
        records = self.threads_model.records()
        if records:
            await self.open_thread(records[0].id)
        else:
            record = await self.store.memory.create_thread(title=translate("Workspace", "Welcome"))
            await self.threads.reload()
            await self.open_thread(record.id)
        self.ready.emit()

    @Slot(str)
    def _on_designs_design_opened(self, name: str) -> None:
        self.mcp_launcher.design_opened()  # a design opened again asks again
        self._retain_servers()
        self.design_opened.emit(name)

    def _retain_servers(self) -> None:
        """Stop the MCP servers the design no longer needs (between runs; a run in flight keeps its servers)."""
        if self.mcp.running and not self.runs.is_running and not self.mcp_launcher.starting:
            self.spawn(self.mcp_launcher.retain(self.document.snapshot()))

    # ----------------------------------------------------------------------------------------- threads
    async def open_thread(self, thread_id: str) -> None:
        """Show a thread's messages in the chat and its runs in the inspector."""
        if self.runs.is_running:
            self.status_message.emit(translate("Workspace", "Stop the running reply before switching threads."))
            return
        loaded = await load_thread(self.store, thread_id)
        self.thread_id = thread_id
        self.chat.history.load_thread(loaded.messages, loaded.runs)
        self.chat.live.note_recorded_tool_calls(loaded.recorded_tool_calls)
        self.chat.history.note_judge_failures((history.run_id, history.events) for history in loaded.histories)
        if loaded.damage:
            self.chat.add_error(loaded.damage)
            self.status_message.emit(loaded.damage)
        self.history_loaded.emit(loaded.histories)
        self.thread_opened.emit(thread_id)

    @property
    def lab(self) -> LabController:
        """The guardrail lab (its window is opened from the Lab menu); its runs ask the same launch approvals.

        Made on first use: the lab's controllers, engine and reports are a third of the studio's imports, and the
        first window does not need them (launch to window is the figure users feel)."""
        if self._lab is None:
            from studio.controllers.lab_controller import LabController

            self._lab = LabController(
                store=self.store, catalogue=self.catalogue, secrets=self.secrets, design=self.document.snapshot,
                mcp_launcher=self.mcp_launcher, document=self.document, parent=self,
            )  # fmt: skip
            self._lab.case_thread_ready.connect(self._on_lab_case_thread_ready)
        return self._lab

    @Slot(str)
    def _on_lab_case_thread_ready(self, thread_id: str) -> None:
        """A lab case was opened as a thread: list it and show it with its inspector trace."""

        async def show() -> None:
            await self.threads.reload()
            await self.open_thread(thread_id)

        self.spawn(show())

    @Slot(object)
    def _on_threads_thread_created(self, record: Any) -> None:
        self.spawn(self.open_thread(record.id))

    @Slot(str)
    def _on_threads_thread_restored(self, thread_id: str) -> None:
        self.spawn(self.open_thread(thread_id))

    @Slot(str)
    def _on_threads_thread_deleted(self, thread_id: str) -> None:
        if thread_id == self.thread_id:
            self.thread_id = None
            self.chat.clear()
            self.history_loaded.emit([])

    # ----------------------------------------------------------------------------------------- chatting
    def send(self, text: str) -> str | None:
        """Start a run of the current design on the current thread; returns the run id, None if it could not."""
        text = text.strip()
        if not text:
            return None
        if self.runs.is_running or self.mcp_launcher.starting:
            self.status_message.emit(translate("Workspace", "A reply is still running: stop it first (Esc)."))
            return None
        if self.thread_id is None:
            self.spawn(self._send_on_new_thread(text))
            return None
        design = self.document.snapshot()
        try:
            grant = self.keys.grant(design)
        except EndpointError as error:
            self._refuse(text, f"model.api_base: {error}")
            return None
        missing = self.keys.missing_key(design, grant)
        if missing:
            self._refuse(text, missing)
            return None
        if servers_to_start(design):
            unapproved = self.mcp_launcher.unapproved_launch(design)
            if unapproved is not None:
                self._refuse(text, unapproved)
                return None
            self.mcp_launcher.starting = True
            self._server_start = self.spawn(self._send_with_mcp_tools(text, design, grant))
            return None
        return self._start_run(text, design, grant)

    def _start_run(
        self, text: str, design: AgentDesign, grant: KeyGrant | None, tools: list[Tool] | None = None
    ) -> str | None:
        """Build the design's agent (with its MCP servers' ``tools``, already started) and start the run."""
        assert self.thread_id is not None
        recording = Recording()  # every run keeps what the model and tools said, to be replayed later
        try:
            agent = build_agent(
                design,
                catalogue=self.catalogue,
                api_key=self.keys.api_key(design, grant),
                memory=self.store.memory,
                on_violation=self.runs.record_violation,
                reuse=self._processors,
                recording=recording,
                extra_tools=tools or (),
            )
        except DesignError as error:
            self._refuse(
                text,
                translate("Workspace", "The agent could not be built: {error}").format(error=error_text(error)),
                status=error_text(error),
            )
            return None
        run_id = self.runs.start(
            agent, text, thread_id=self.thread_id, design_id=design.id, design_json=design.to_json(),
            recording=recording, debugger=self.debug.debugger_for_run(),
        )  # fmt: skip
        self.chat.add_user_message(text, run_id=run_id)
        if grant is not None and grant.withheld and not self.keys.was_declined(grant):
            self.chat.add_error(self.keys.withheld_notice(grant, running=True), run_id=run_id)
            self.keys.ask_approval(grant)
        self.chat.live.begin_run(run_id, model=design.model.model)  # the reply's placeholder, at once
        return run_id

    def live_model(self, design: AgentDesign) -> LanguageModel:
        """The design's real model with the key it may carry: a replay that diverged continues with it."""
        return self.keys.live_model(design)

    def _refuse(self, text: str, message: str, *, status: str | None = None) -> None:
        """A message that cannot be sent: it stays in the chat with the reason under it."""
        self.chat.add_user_message(text)
        self.chat.add_error(message)
        self.status_message.emit(status or message)

    async def _send_with_mcp_tools(self, text: str, design: AgentDesign, grant: KeyGrant | None) -> None:
        """Start (or reuse) the design's MCP servers off the UI's way, then run. A server that cannot start is
        said in the chat under the message, naming the server; nothing is sent to the model."""
        thread_id = self.thread_id
        names = ", ".join(config.name for config in servers_to_start(design))
        self.status_message.emit(translate("Workspace", "Starting MCP servers: {names}…").format(names=names))
        try:
            tools = await self.mcp_launcher.start_tools(design, self.secrets)
        except McpServerError as error:
            shown = error_text(error)
            self._refuse(text, translate("Workspace", "Nothing was sent: {error}").format(error=shown), status=shown)
            return
        except asyncio.CancelledError:
            self._refuse(text, translate("Workspace", "Stopped while the MCP servers were starting; nothing was sent."))
            raise
        finally:
            self.mcp_launcher.starting = False
        if self.thread_id != thread_id or self.thread_id is None:  # the user moved on while the servers started
            return
        self._start_run(text, design, grant, tools)

    def answer_mcp_approval(self, config: Any, approved: bool) -> None:
        """The user's answer to :attr:`mcp_approval_requested` (:meth:`McpLauncher.answer_approval`)."""
        self.mcp_launcher.answer_approval(config, approved)

    async def _send_on_new_thread(self, text: str) -> None:
        record = await self.store.memory.create_thread(title=text[:60])
        await self.threads.reload()
        await self.open_thread(record.id)
        self.send(text)

    def stop(self) -> None:
        if self._server_start is not None and not self._server_start.done():
            self._server_start.cancel()  # still starting the design's MCP servers
        if self.debug.pause is not None and not self.runs.is_running and self.replays.is_busy:
            self.replays.cancel()  # the paused run is a replay: Stop ends it too
        self.runs.stop()

    def answer_endpoint_approval(self, grant: KeyGrant, approved: bool) -> None:
        """The user's answer to :attr:`endpoint_approval_requested` (:meth:`KeyGate.answer_approval`)."""
        self.keys.answer_approval(grant, approved)

    @Slot(str, object)
    def _on_runs_chunk_received(self, run_id: str, chunk: Any) -> None:
        self.chat.live.apply_chunk(run_id, chunk)

    @Slot(str, object)
    def _on_runs_trace_event_received(self, run_id: str, event: Any) -> None:
        self.chat.live.apply_trace_event(run_id, event)  # tool cards: what the tool returned; retried steps' feedback

    @Slot(str, object)
    def _on_runs_run_finished(self, run_id: str, result: GenerateResult) -> None:
        self.debug.run_ended()
        self.chat.live.finish_run(run_id, result)
        if result.tripwire is not None:
            self.status_message.emit(
                translate("Workspace", "Tripwire: {reason} ({processor})").format(
                    reason=tripwire_text(result.tripwire), processor=result.tripwire.processor_id
                )
            )
        for warning in result.warnings:
            self.status_message.emit(warning)
        if self.thread_id is not None:
            self.threads.refresh()  # titles and order change as threads are used

    @Slot(str, str)
    def _on_runs_run_failed(self, run_id: str, message: str) -> None:
        self.debug.run_ended()
        self.chat.live.fail_run(run_id, message)
        self.status_message.emit(message)

    # ----------------------------------------------------------------------------------------- designs
    @Slot()
    def _on_document_edited(self, *_args: Any) -> None:
        self._retain_servers()

    def open_design_file(self, path: Path) -> bool:
        """Open a design file (:meth:`DesignSession.open_file`); False, and said, when it cannot be read."""
        return self.designs.open_file(path)

    def save_design_file(self, path: Path) -> bool:
        """Save the design to ``path`` (:meth:`FileExports.save_design_file`); False, and said, on failure."""
        return self.files.save_design_file(path)

    def export_script(self, path: Path) -> bool:
        """Write the design as a Python script (:meth:`FileExports.export_script`); False on failure."""
        return self.files.export_script(path)

    def new_design(self) -> None:
        self.designs.new()

    def open_sample(self) -> None:
        self.designs.open_sample()

    # ----------------------------------------------------------------------------------------- the views' requests
    # A view asks and returns: each of these starts the work as a task of the workspace (a failure goes to the status
    # bar) and says how it ended through a signal, so no view keeps a coroutine of its own.
    def select_thread(self, thread_id: str) -> None:
        """The user picked a thread in the list: open it, unless it is the open one."""
        if thread_id != self.thread_id:
            self.spawn(self.open_thread(thread_id))

    def import_thread_file(self, path: Path) -> None:
        """File → Import thread: :meth:`import_thread` as a task."""
        self.spawn(self.import_thread(path))

    def export_thread_file(self, path: Path) -> None:
        """File → Export thread: :meth:`export_thread` (the open thread) as a task."""
        self.spawn(self.export_thread(path))

    def make_regression_test(self, run_id: str, path: Path | None = None) -> None:
        """Make ``run_id``'s regression test, to be written to ``path`` (or a file the window asks for);
        :attr:`regression_test_ready` brings it (a test that cannot be made is said, before any file is picked)."""

        async def make() -> None:
            made = await self.files.regression_test_script(run_id)
            if made is not None:
                self.regression_test_ready.emit(run_id, made[0], made[1], str(path) if path is not None else "")
            elif path is not None:
                self.regression_test_written.emit(run_id)  # (writing it again ended: said why)

        self.spawn(make())

    def save_regression_test(self, script: str, path: Path, run_id: str) -> None:
        """Write a test made by :meth:`make_regression_test` to ``path``; :attr:`regression_test_written` after."""

        async def save() -> None:
            await self.files.write_regression_test(script, path, run_id=run_id)
            self.regression_test_written.emit(run_id)

        self.spawn(save())

    def rewrite_regression_test(self, run_id: str) -> None:
        """Make ``run_id``'s test again, to be written over its last file: :attr:`regression_test_ready` brings it with
        that file (the window asks first when it holds masked values unmasked); said when it was never exported
        (:meth:`reexport_regression_test`), and :attr:`regression_test_written` then."""
        path = exported_path(run_id)
        if path is not None:
            self.make_regression_test(run_id, path)
            return

        async def refuse() -> None:
            await self.reexport_regression_test(run_id)
            self.regression_test_written.emit(run_id)

        self.spawn(refuse())

    def open_lab(self) -> None:
        """The Lab window opened for the first time: load its runs and warm its worker processes."""
        self.spawn(self.lab.load())
        self.lab.warm_workers()  # its worker processes warm up in the background

    # ----------------------------------------------------------------------------------------- thread files
    async def export_thread(self, path: Path) -> None:
        await self.files.export_thread(self.thread_id, path)

    async def export_regression_test(self, run_id: str, path: Path) -> bool:
        """Write ``run_id``'s last replay as a pytest file (:meth:`FileExports.export_regression_test`)."""
        return await self.files.export_regression_test(run_id, path)

    async def reexport_regression_test(self, run_id: str) -> bool:
        """Export ``run_id``'s test again over its last file (:meth:`FileExports.reexport_regression_test`)."""
        return await self.files.reexport_regression_test(run_id)

    async def import_thread(self, path: Path) -> None:
        """Import a thread file (off the UI thread, with progress: :attr:`imports`), then open the thread."""
        thread_id = await self.imports.import_file(path)
        if thread_id is None:
            return  # refused, failed or stopped: the controller said so
        await self.threads.reload()
        await self.open_thread(thread_id)
        self.status_message.emit(translate("Workspace", "Imported {file}").format(file=path.name))

    @Slot()
    def _on_imports_import_stopped(self) -> None:
        self.status_message.emit(translate("Workspace", "Import stopped; nothing was written."))

    async def shutdown(self) -> None:
        """Stop a running reply, any replay or fuzzing and the design's MCP servers, flush the design, close the
        store."""
        if self._server_start is not None:
            self._server_start.cancel()  # a message waiting for its MCP servers: not sent
        await self.runs.aclose()
        if self._lab is not None:
            await self._lab.aclose()
        self.replays.cancel()
        await self.replays.wait_idle()
        await self.wait_idle()
        await self.mcp_launcher.aclose()
        await self.designs.flush()
        await self.wait_idle()
        await self.store.close()
