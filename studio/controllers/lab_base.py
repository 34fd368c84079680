"""The lab controller's foundation: its signals, its state (the lab run on show, the live run), its tasks, the
corpora to choose from, and how a design becomes an agent factory (with the key its endpoint may have).

:class:`studio.controllers.lab_controller.LabController` is built in layers, each its own module: this base, the
stored lab runs (:mod:`lab_stored`: show, delete, compare, export, open a case), the running of a lab run
(:mod:`lab_running`: start, cancel, resume, save as results arrive) and, on top, A/B of two designs and replays.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from lab.corpus import Case, CorpusError, load_corpus
from lab.recipe import AgentRecipe, LabAgentsError
from lab.runner import CaseResult, LabRun
from studio.controllers.lab_records import read_bundled
from studio.controllers.mcp_launcher import McpLauncher
from studio.controllers.tasks import TaskKeeper
from studio.design import AgentDesign
from studio.error_texts import error_text
from studio.i18n import current_language, translate
from studio.i18n.runtime_texts import runtime_text
from studio.lab_design import agent_factory, agent_recipe, check_mcp_agents, needs_mcp_servers
from studio.mcp_servers import servers_to_start
from studio.models.lab_lists import CorpusListModel, CorpusSource, LabRunsModel
from studio.models.lab_starters import starter_sources
from studio.secrets import NO_KEY, SecretStore, provider_of
from studio.store import LabRunRecord


class LabControllerBase(QObject):
    #: A line for the status bar (and the view's message line).
    status_message = Signal(str)
    #: Something the user asked for could not be done: one readable line (a corpus error names file and line).
    failed = Signal(str)
    #: Another lab run is on show (its record): the view resets its cases and figures.
    run_shown = Signal(object)
    #: The results on show were replaced (a list of :class:`CaseResult`).
    results_reset = Signal(list)
    #: More cases finished in the run on show (a list of :class:`CaseResult`).
    results_added = Signal(list)
    #: Progress of the live run: (done, total, seconds left or -1 when not known yet).
    progress_changed = Signal(int, int, float)
    #: A lab run started or resumed (its id).
    run_started = Signal(str)
    #: A lab run ended: (its id, ``finished`` or ``cancelled``).
    run_ended = Signal(str, str)
    #: A case was opened as a thread: (thread id); the workspace shows it.
    case_thread_ready = Signal(str)
    #: A comparison of two lab runs is ready (a :class:`studio.controllers.lab_records.Comparison`).
    compared = Signal(object)
    #: A run would start a design's stdio MCP server (a :class:`~studio.design.McpServerConfig`) whose program the
    #: user has not allowed; the Lab window asks, showing the exact command, and answers with
    #: :meth:`answer_mcp_approval`.
    mcp_approval_requested = Signal(object)

    def __init__(
        self,
        *,
        store: Any,
        catalogue: Any,
        secrets: SecretStore | None = None,
        design: Any = None,
        mcp_launcher: McpLauncher | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.catalogue = catalogue
        self.secrets = secrets
        #: The user's answers about launching MCP servers: the chat's (the workspace's launcher), so a launch allowed
        #: or refused in one is so in the other.
        self.mcp_launcher = mcp_launcher if mcp_launcher is not None else McpLauncher(parent=self)
        #: A callable returning the design to run (the studio's current one: ``document.snapshot``).
        self.design = design
        self.corpora = CorpusListModel(self)
        self.runs = LabRunsModel(self)
        #: The lab run on show (None before any) and its results so far.
        self.shown: LabRunRecord | None = None
        self.results: list[CaseResult] = []
        self._live: LabRun | None = None
        self._live_id: str | None = None
        self._cancel_requested = False
        self._task: asyncio.Task[Any] | None = None
        self._running = False
        self._tasks = TaskKeeper("lab", self.failed.emit)

    # ----------------------------------------------------------------------------------------- state
    @property
    def is_running(self) -> bool:
        """A lab run is starting, running or saving its end (False from ``run_ended`` on)."""
        return self._running

    @property
    def live_id(self) -> str | None:
        return self._live_id

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run a coroutine on the loop, keeping it referenced; a failure is said, never raised into Qt."""
        return self._tasks.spawn(coroutine)

    async def wait_idle(self) -> None:
        while self._tasks.tasks or (self._task is not None and not self._task.done()):
            pending = [*self._tasks.tasks, *([self._task] if self._task is not None else [])]
            await asyncio.gather(*pending, return_exceptions=True)
            if self._task is not None and self._task.done():
                self._task = None

    # ----------------------------------------------------------------------------------------- corpora
    async def load(self) -> None:
        """Read the bundled corpora (off the UI thread) and the stored lab runs."""
        if not self.corpora.sources():
            sources = starter_sources(await asyncio.to_thread(read_bundled), current_language())
            self.corpora.add_sources(sources)
        await self.refresh_runs()

    async def refresh_runs(self) -> None:
        self.runs.set_records(await self.store.lab_runs.list_lab_runs(), live=self._live_id)

    async def import_corpus(self, path: Path, *, label: str | None = None, skip_bad: bool = False) -> bool:
        """Read a corpus file (JSONL, CSV, text, promptfoo YAML) and add it, checked. A bad line is said (file
        and line) and nothing is added, unless ``skip_bad``: then the bad lines are listed and left out."""
        try:
            corpus = await asyncio.to_thread(load_corpus, path, label=label, category=None, skip_bad=skip_bad)
        except CorpusError as error:
            self.failed.emit(error_text(error))
            return False
        if not corpus.cases:
            self.failed.emit(translate("LabController", "{path}: no cases in this file").format(path=path))
            return False
        skipped = [str(problem) for problem in corpus.skipped]
        self.corpora.add_sources([CorpusSource(path, corpus.cases, checked=True, skipped=skipped)])
        imported, bad = len(corpus.cases), len(skipped)  # lupdate finds a plural text only with a plain name for n
        message = translate("LabController", "Imported %n case(s) from {name}", None, imported).format(name=path.name)
        if skipped:
            message += translate("LabController", "; %n bad line(s) skipped: {first}", None, bad).format(
                first=skipped[0]
            )
        self.status_message.emit(message)
        return True

    def chosen_cases(self) -> list[Case]:
        """The cases of the checked corpora, in order. Raises :class:`CorpusError` for an id used twice."""
        cases: list[Case] = []
        where: dict[str, str] = {}
        for source in self.corpora.checked():
            for case in source.cases:
                if case.id in where:
                    line = int(case.source.rsplit(":", 1)[1]) if ":" in case.source else None
                    raise CorpusError(
                        f"id {case.id!r} is already used in {where[case.id]}", path=source.path, line=line
                    )
                where[case.id] = case.source or source.name
                cases.append(case)
        return cases

    # ----------------------------------------------------------------------------------------- agents
    def _api_key(self, design: AgentDesign, mode: str) -> tuple[bool, str | None]:
        """(may run, the key to send): as a chat run, a key goes only to the endpoint it was saved for."""
        if mode != "model" or design.model.is_demo or self.secrets is None:
            return True, None
        grant = self.secrets.key_for(provider_of(design.model.model), design.model.api_base)
        if grant.withheld:
            self.failed.emit(
                translate(
                    "LabController",
                    "Your {provider} key is not approved for {host}: allow it in Settings → API keys first.",
                ).format(provider=grant.provider, host=grant.host)
            )
            return False, None
        return True, grant.key or NO_KEY

    def _factory(self, design: AgentDesign, mode: str) -> AgentRecipe | None:
        """The recipe of ``design``'s agents for the lab's worker processes (None, said, when its key may not be
        sent or it would start an MCP server the user has not allowed). Builds one agent here first, so a design
        that cannot be built raises :class:`studio.design.DesignError` now, not in every worker. In the modes that
        may call a tool, the recipe starts the design's MCP servers in each worker (:mod:`studio.lab_design`);
        :meth:`_servers_start` checks first, here, that they do."""
        if not self._mcp_allowed(design, mode):
            return None
        allowed, api_key = self._api_key(design, mode)
        if not allowed:
            return None
        agent_factory(design, catalogue=self.catalogue, api_key=api_key)
        credentials = self._mcp_credentials(design) if needs_mcp_servers(design, mode) else None
        return agent_recipe(design, catalogue=self.catalogue, api_key=api_key, mcp_credentials=credentials)

    def _mcp_credentials(self, design: AgentDesign) -> dict[str, str]:
        return McpLauncher.credentials(design, self.secrets) if self.secrets is not None else {}

    def _mcp_allowed(self, design: AgentDesign, mode: str) -> bool:
        """Whether a run of ``design`` in ``mode`` may start: it starts no stdio MCP server whose program the user
        has not allowed (the chat's rule). Otherwise the user is asked (:attr:`mcp_approval_requested`, once per
        session per launch) and nothing runs, said with :attr:`failed`."""
        if not needs_mcp_servers(design, mode):
            return True
        found = self.mcp_launcher.unapproved(design)
        if found is None:
            return True
        config, declined = found
        if not declined:
            self.mcp_approval_requested.emit(config)
            self.failed.emit(
                translate(
                    "LabController",
                    "Nothing was run: this design's MCP server '{name}' runs a program on this computer "
                    "({command}). Allow it when asked, then run again.",
                ).format(name=config.name, command=config.command_line())
            )
        else:
            self.failed.emit(
                translate(
                    "LabController",
                    "Nothing was run: you did not allow this design's MCP server '{name}' to run ({command}). "
                    "Disable its tools in the Agent tab, open the design again to be asked again, or run in "
                    "guardrails mode (it starts no MCP server).",
                ).format(name=config.name, command=config.command_line())
            )
        return False

    def answer_mcp_approval(self, config: Any, approved: bool) -> None:
        """The user's answer to :attr:`mcp_approval_requested` (remembered as the chat's answers are)."""
        self.mcp_launcher.answer_approval(config, approved)

    async def _servers_start(self, design: AgentDesign, mode: str) -> bool:
        """Before a run that starts MCP servers in its workers: start them here once, build an agent with their
        tools, stop them. False, said naming the server, when one cannot start or lacks an enabled tool: the run
        is not created, rather than stop in every worker."""
        if not needs_mcp_servers(design, mode):
            return True
        _, api_key = self._api_key(design, mode)
        names = ", ".join(config.name for config in servers_to_start(design))
        self.status_message.emit(translate("LabController", "Starting MCP servers: {names}…").format(names=names))
        try:
            await check_mcp_agents(
                design, catalogue=self.catalogue, api_key=api_key, credentials=self._mcp_credentials(design)
            )
        except LabAgentsError as error:
            self._running = False  # the view's buttons follow at once
            self.failed.emit(
                translate("LabController", "Nothing was run: {error}").format(error=runtime_text(str(error)))
            )
            return False
        return True


__all__ = ["LabControllerBase"]
