"""``LabAttack``: the Lab window's red-teaming — seeds from the Lab's corpora, converter chains with a live preview,
a budget and a seed number; then the attack itself (its run, progress, the robustness matrix, the bypasses).

One collaborator of :class:`studio.controllers.lab_controller.LabController` (``controller.attack``), told what it
needs by the controller: the corpora (:class:`~studio.controllers.lab_corpora.LabCorpora`: the seeds are the attacks
of the corpora ticked in the Lab's side bar, so any corpus the Lab knows, bundled or imported, can seed an attack),
and the lab's signals for what the user must read (``failed``, ``status_message``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from lab.corpus import Case, CorpusError
from studio.controllers.lab_attack_preview import AttackPreview, Preview
from studio.controllers.lab_corpora import LabCorpora
from studio.controllers.lab_events import LabEvents
from studio.controllers.tasks import TaskKeeper
from studio.design.agent_design import AgentDesign
from studio.models.lab_attack_chains import DEFAULT_CHAINS, ChainListModel, ConverterListModel

#: The attack's first budget: the most variants one attack runs (the seeds × chains drawn within it).
DEFAULT_BUDGET = 500
#: The attack's first seed number (the same number gives the same variants).
DEFAULT_SEED = 0


def attacked_text(case: Case) -> str:
    """What a variant converts: a seed's tool result when it has one (an indirect injection), else its text."""
    return case.tool_result if case.tool_result is not None else case.text


class LabAttack(QObject):
    """The Attack panel's controller (see the module docstring)."""

    def __init__(
        self,
        events: LabEvents,
        *,
        corpora: LabCorpora,
        tasks: TaskKeeper,
        current_design: Callable[[], AgentDesign | None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._events = events
        self._corpora = corpora
        self._tasks = tasks
        self._current_design = current_design
        #: The converters to pick from (filled by :meth:`load_converters`).
        self.converters = ConverterListModel(self)
        #: The chains the attack tries (a handful to start with: :data:`DEFAULT_CHAINS`).
        self.chains = ChainListModel(parent=self)
        #: The converters' registry and the previews of a seed through a chain.
        self.preview = AttackPreview(tasks, self)
        self.preview.converters_loaded.connect(self._on_converters_loaded)

    @property
    def corpora_model(self) -> Any:
        """The Lab's list of corpora (the seeds are the attacks of the ticked ones)."""
        return self._corpora.model

    # ----------------------------------------------------------------------------------------- set-up
    async def load_converters(self) -> None:
        """Read the converters (off the UI thread, once); the default chains are those the registry has."""
        await self.preview.load()

    def _on_converters_loaded(self, converters: list[Any]) -> None:
        self.converters.set_converters(converters)
        if not self.chains.rowCount():
            known = {item.name for item in converters}
            self.chains.set_chains(chain for chain in DEFAULT_CHAINS if all(step in known for step in chain))

    def seed_cases(self) -> list[Case]:
        """The attacks of the corpora ticked in the Lab's side bar, in order (none while two share an id)."""
        try:
            cases = self._corpora.chosen_cases()
        except CorpusError:
            return []
        return [case for case in cases if case.label == "attack"]

    def request_preview(self, spec: str, case: Case | None, seed: int) -> bool:
        """Ask for the preview of ``case`` through ``spec`` (``preview.preview_ready`` brings it); False when there
        is nothing to preview (no chain or no seed)."""
        if not spec or case is None:
            return False
        self.preview.request(spec, case.id, attacked_text(case), seed)
        return True

    def spawn(self, coroutine: Any) -> Any:
        """Run a coroutine on the loop, kept referenced; a failure is said, never raised into Qt."""
        return self._tasks.spawn(coroutine)

    async def wait_tasks(self) -> None:
        """Wait until every task the lab started has ended (the previews among them)."""
        await self._tasks.wait_idle()


__all__ = ["DEFAULT_BUDGET", "DEFAULT_SEED", "LabAttack", "Preview", "attacked_text"]
