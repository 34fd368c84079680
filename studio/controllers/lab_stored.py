"""The lab controller's stored lab runs: show one, delete one, compare two (A/B), export a report or the last
comparison, and open one of a run's cases as an ordinary thread.

Clicking a case runs that case once more as an ordinary run on a new thread (``Lab: <case>``), with the design
as the lab run had it and the same answer (``guardrails`` mode's fixed reply, or the model's recorded reply of a
``model`` or ``replay`` run): the thread and the inspector then show exactly what the lab's verdict came from; a
conversation case runs its turns one after the other on the thread, up to the one the lab stopped at. A design's
MCP servers start for that run (once allowed, as for a lab run) and stop after it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject

from lab.case_run import case_messages, prepare_agent
from lab.conversation_run import played_turns
from lab.corpus import Case
from lab.metrics import compare, confusion, unmatched
from lab.reports import diff_report, html_report, json_report, junit_report, write_atomically
from processors.tools.mcp import McpServerError
from studio.controllers.lab_agents import LabAgentMaker
from studio.controllers.lab_events import LabEvents, OnShow
from studio.controllers.lab_records import Comparison, case_of, design_info_of, results_of
from studio.controllers.lab_running import LabRunning
from studio.controllers.run_controller import RunController
from studio.design.agent_design import AgentDesign, DesignError
from studio.design.build import build_agent
from studio.error_texts import error_text
from studio.i18n import current_language, translate
from studio.lab.design import needs_mcp_servers
from studio.mcp.servers import McpSessions


class LabStoredRuns:
    """The lab runs in the store, for the Lab window (see the module docstring). One collaborator of
    :class:`studio.controllers.lab_controller.LabController`; it asks the live run (:class:`LabRunning`) before it
    replaces what is on show or deletes a run."""

    def __init__(
        self,
        events: LabEvents,
        *,
        store: Any,
        show: OnShow,
        live: LabRunning,
        agents: LabAgentMaker,
        parent: QObject | None = None,
    ) -> None:
        self._events = events
        self._store = store
        self._show = show
        self._live = live
        self._agents = agents
        self._parent = parent
        #: The comparison last shown (what "Export A/B…" writes), None before any.
        self.last_comparison: Comparison | None = None

    async def show_run(self, lab_run_id: str) -> None:
        """Show a stored lab run's results and figures (the live run keeps running and keeps being saved)."""
        if self._live.is_running and lab_run_id != self._live.live_id:
            self._events.failed.emit(
                translate(
                    "LabController", "A lab run is running: its results stay on show until it ends or is cancelled."
                )
            )
            return
        if lab_run_id == self._live.live_id:
            return
        loaded = await self._store.lab_runs.load_lab_run(lab_run_id)
        if loaded is None:
            self._events.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return
        record, rows = loaded
        self._show.record = record
        self._show.results = results_of(rows)
        self._events.run_shown.emit(record)
        self._events.results_reset.emit(list(self._show.results))
        self._events.progress_changed.emit(record.done, record.total, -1.0)

    async def delete_run(self, lab_run_id: str) -> None:
        if lab_run_id == self._live.live_id:
            self._events.failed.emit(translate("LabController", "Cancel the running lab run before deleting it."))
            return
        await self._store.lab_runs.delete_lab_run(lab_run_id)
        if self._show.record is not None and self._show.record.id == lab_run_id:
            self._show.record = None
            self._show.results = []
            self._events.run_shown.emit(None)
            self._events.results_reset.emit([])
        await self._live.refresh_runs()
        self._events.status_message.emit(translate("LabController", "Lab run deleted."))

    async def compare_runs(self, a_id: str, b_id: str) -> Comparison | None:
        """A/B: lab run ``a`` before, ``b`` after; the cases (by id, in both) whose verdict changed."""
        first, second = await self._store.lab_runs.load_lab_run(a_id), await self._store.lab_runs.load_lab_run(b_id)
        if first is None or second is None:
            self._events.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return None
        before, after = results_of(first[1]), results_of(second[1])
        comparison = Comparison(
            first[0], second[0], confusion(before), confusion(after), compare(before, after), *unmatched(before, after)
        )
        self.last_comparison = comparison
        self._events.compared.emit(comparison)
        return comparison

    async def export_comparison(self, path: Path) -> bool:
        """Write the last comparison as ``processor-studio lab diff --json`` writes it (plus which designs ran as A
        and B), read again from the store, off the UI thread, whole or not at all."""
        comparison = self.last_comparison
        if comparison is None:
            self._events.failed.emit(translate("LabController", "There is no A/B comparison to export yet."))
            return False
        first, second = (
            await self._store.lab_runs.load_lab_run(comparison.a.id),
            await self._store.lab_runs.load_lab_run(comparison.b.id),
        )
        if first is None or second is None:
            self._events.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return False

        def write() -> None:
            report = diff_report(
                results_of(first[1]),
                results_of(second[1]),
                a={"lab_run": first[0].id, "name": first[0].name, "design": design_info_of(first[0])},
                b={"lab_run": second[0].id, "name": second[0].name, "design": design_info_of(second[0])},
            )
            write_atomically(path, json.dumps(report, ensure_ascii=False, indent=1))

        return await self._write_report(path, write)

    async def export(self, kind: str, path: Path) -> bool:
        """Write the shown lab run's report (``json``, ``junit`` or ``html``), off the UI thread, whole or not."""
        if self._show.record is None or not self._show.results:
            self._events.failed.emit(translate("LabController", "There are no results to export yet."))
            return False
        record = self._show.record
        loaded = await self._store.lab_runs.load_lab_run(record.id)
        positions = [row.case_id for row in loaded[1]] if loaded is not None else []
        order = {case_id: index for index, case_id in enumerate(positions)}
        results = sorted(self._show.results, key=lambda result: order.get(result.id, len(order)))
        info = design_info_of(record)

        def write() -> None:
            if kind == "json":
                text = json.dumps(json_report(results, design=info, mode=record.mode), ensure_ascii=False, indent=1)
            elif kind == "junit":
                text = junit_report(results, name=f"guardrail lab: {info.get('name', '')}")
            elif kind == "html":
                text = html_report(results, design=info, mode=record.mode, language=current_language())
            else:
                raise ValueError(f"unknown report kind {kind!r}")
            write_atomically(path, text)

        return await self._write_report(path, write)

    async def _write_report(self, path: Path, write: Callable[[], None]) -> bool:
        """``write`` off the UI thread; whether it wrote ``path`` (said in the status bar) or failed (said)."""
        try:
            await asyncio.to_thread(write)
        except (OSError, UnicodeError, ValueError) as error:
            self._events.failed.emit(
                translate("LabController", "The report was not written: {error}").format(error=error)
            )
            return False
        self._events.status_message.emit(translate("LabController", "Wrote {name}").format(name=path.name))
        return True

    async def open_case(self, case_id: str) -> str | None:
        """Open one case of the shown lab run as a thread (run again, as the lab ran it); returns the thread id."""
        record = self._show.record
        if record is None:
            return None
        loaded = await self._store.lab_runs.load_lab_run(record.id)
        if loaded is None:
            self._events.failed.emit(translate("LabController", "That lab run is no longer in the store."))
            return None
        row = next((item for item in loaded[1] if item.case_id == case_id), None)
        if row is None:
            return None
        if row.thread_id is not None and await self._store.memory.get_thread(row.thread_id) is not None:
            self._events.case_thread_ready.emit(row.thread_id)
            return str(row.thread_id)
        try:
            case = case_of(row)
        except ValueError as error:
            self._cannot_open(error)
            return None
        recording = (row.result or {}).get("recording")
        thread_id = await self.run_as_thread(record.design_json, case, record.mode, recording, row.result)
        if thread_id is None:
            return None
        await self._store.lab_runs.set_lab_case_thread(record.id, case_id, thread_id)
        self._events.case_thread_ready.emit(thread_id)
        return thread_id

    async def run_as_thread(
        self,
        design_json: str,
        case: Case,
        lab_mode: str,
        recording: str | None = None,
        result: dict[str, Any] | None = None,
    ) -> str | None:
        """Run ``case`` once more as an ordinary run on a new thread (``Lab: <case>``), with ``design_json`` and the
        answer the lab had (``guardrails`` mode's fixed reply, or ``recording``: a model's recorded reply); returns
        the thread id (None, said, when it cannot). A conversation case plays its turns as far as the lab's
        ``result`` says it did (all of them without one). The Attack tab opens a found bypass this way too."""
        try:
            design = AgentDesign.from_json(design_json)
        except (DesignError, ValueError) as error:
            self._cannot_open(error)
            return None
        mode = "replay" if recording else ("model" if lab_mode == "model" else "guardrails")
        if not self._agents.mcp_allowed(design, mode):
            return None
        # The case's run gets the design's MCP tools as the lab's did (servers of its own, stopped after it).
        sessions = McpSessions() if needs_mcp_servers(design, mode) else None
        try:
            tools = (
                await sessions.tools_for(design, self._agents.mcp_credentials(design)) if sessions is not None else []
            )
            runs = RunController(self._store, parent=self._parent)
            allowed, api_key = self._agents.api_key(design, mode)
            if not allowed:
                return None
            agent = build_agent(
                design,
                catalogue=self._agents.catalogue,
                api_key=api_key,
                memory=self._store.memory,
                on_violation=runs.record_violation,
                extra_tools=tools,
            )
            title = translate("LabController", "Lab: {case}").format(case=case.id)
            thread = await self._store.memory.create_thread(title=title[:60])
            model, own_tools = agent.model, agent.tools
            ended: list[Any] = []
            runs.run_finished.connect(lambda _run_id, finished: ended.append(finished))
            # A conversation case runs again turn by turn on the thread, as far as the lab played it (and never past
            # a turn that is stopped now).
            for turn, turn_recording in played_turns(case, result, recording):
                if ended and getattr(ended[-1], "tripwire", None) is not None:
                    break
                agent.model, agent.tools = model, own_tools
                prepare_agent(agent, turn, mode, turn_recording)  # type: ignore[arg-type]
                runs.start(
                    agent,
                    case_messages(turn),
                    thread_id=thread.id,
                    design_id=design.id,
                    design_json=design_json,
                )
                await runs.wait_finished()
            runs.deleteLater()
        except (DesignError, ValueError, McpServerError) as error:
            self._cannot_open(error)
            return None
        finally:
            if sessions is not None:
                await sessions.aclose()
        return str(thread.id)

    def _cannot_open(self, error: Exception) -> None:
        shown = error_text(error)
        self._events.failed.emit(translate("LabController", "The case cannot be opened: {error}").format(error=shown))


__all__ = ["LabStoredRuns"]
