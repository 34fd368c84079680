"""The Attack panel's converters and its live preview: the registry read off the UI thread, and a chosen seed
through a chain computed off it too, the latest request winning.

A preview is exactly the variant the attack runs for that seed case, chain and seed number
(:meth:`lab.converters.Chain.variant` is a pure function of the three), so what the user reads is what the design
will be sent. A converter is a plug-in's code: it may be slow or fail, so it never runs on the paint path, and its
failure is said in the preview (by code: :func:`converter_error_text`), never raised.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from lab.converters import ConverterError, ConverterRegistry, load_converters
from lab.converters.errors import ChainSyntaxError, ConverterFailedError, UnknownConverterError
from studio.controllers.tasks import TaskKeeper, event_loop_set
from studio.i18n import translate
from studio.models.lab_attack_chains import ConverterInfo, converter_description

logger = logging.getLogger(__name__)

#: Previews longer than this are cut (the whole variant is what runs; the preview is for reading).
PREVIEW_LIMIT = 4000


@dataclass(frozen=True, slots=True)
class Preview:
    """One preview: what it was asked for and the turns the design would be sent (or why there are none)."""

    spec: str
    case_id: str
    seed: int
    turns: tuple[str, ...] = ()
    problem: str = ""

    @property
    def text(self) -> str:
        """The turns for reading: a multi-turn variant numbers its turns."""
        if len(self.turns) == 1:
            return _cut(self.turns[0])
        return "\n\n".join(
            translate("LabAttack", "[turn {number}]").format(number=number) + "\n" + _cut(turn)
            for number, turn in enumerate(self.turns, start=1)
        )


def _cut(text: str) -> str:
    return text if len(text) <= PREVIEW_LIMIT else text[:PREVIEW_LIMIT] + "…"


def converter_error_text(error: ConverterError) -> str:
    """A converter error in the studio's language, by its code and values."""
    if isinstance(error, UnknownConverterError):
        return translate("LabAttack", "No converter is called {name}.").format(name=error.name)
    if isinstance(error, ChainSyntaxError):
        return translate("LabAttack", "The chain {spec} cannot be read: {problem}").format(
            spec=error.spec, problem=error.problem
        )
    if isinstance(error, ConverterFailedError):
        return translate("LabAttack", "The converter {name} failed: {problem}").format(
            name=error.name, problem=error.problem
        )
    return str(error)


class AttackPreview(QObject):
    """The converters (:meth:`load`) and previews of a seed through a chain (:meth:`request`)."""

    #: The converters were read (a list of :class:`ConverterInfo`, built-ins first).
    converters_loaded = Signal(list)
    #: A preview is ready (a :class:`Preview`); only the latest request's is told.
    preview_ready = Signal(object)

    def __init__(self, tasks: TaskKeeper, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self.registry: ConverterRegistry | None = None
        self._loading: asyncio.Task[Any] | None = None
        self._asked = 0

    async def load(self) -> ConverterRegistry:
        """Read the converters' registry once (importing a plug-in may take its time: off the UI thread)."""
        if self.registry is None:
            registry = await asyncio.to_thread(load_converters)
            if self.registry is None:
                self.registry = registry
                for problem in registry.errors:
                    logger.warning("converter %s skipped: %s", problem.entry_point, problem.message)
                self.converters_loaded.emit(
                    [
                        ConverterInfo(
                            name,
                            converter_description(name, converter.description, registry.sources.get(name, "")),
                            registry.sources.get(name, "builtin"),
                            bool(converter.reversible),
                        )
                        for name, converter in registry.items()
                    ]
                )
        return self.registry

    def request(self, spec: str, case_id: str, text: str, seed: int) -> None:
        """Compute the preview of ``text`` (case ``case_id``) through ``spec`` for ``seed``, off the UI thread;
        :attr:`preview_ready` brings it unless a later request came first."""
        if not event_loop_set():  # a debounced request firing after the studio closed: nothing left to show it
            return
        self._asked += 1
        self._tasks.spawn(self._preview(self._asked, spec, case_id, text, seed))

    async def _preview(self, asked: int, spec: str, case_id: str, text: str, seed: int) -> None:
        registry = await self.load()
        if asked != self._asked:
            return
        try:
            chain = registry.chain(spec)
            variant = await asyncio.to_thread(chain.variant, case_id, text, seed)
            preview = Preview(spec, case_id, seed, variant.turns)
        except ConverterError as error:
            preview = Preview(spec, case_id, seed, problem=converter_error_text(error))
        if asked == self._asked:
            self.preview_ready.emit(preview)


__all__ = ["PREVIEW_LIMIT", "AttackPreview", "Preview", "converter_error_text"]
