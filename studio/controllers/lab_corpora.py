"""The corpora a lab run may run: the bundled starters (in the studio's language), the files the user imports,
and the cases of the checked ones, checked for an id used twice.

One collaborator of :class:`studio.controllers.lab_controller.LabController`; its list model is the Lab window's
list of corpora.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject

from lab.corpus import Case, CorpusError, bundled_corpora, load_corpus
from processors.problems import Problem
from studio.controllers.lab_events import LabEvents
from studio.error_texts import error_text
from studio.i18n import current_language, translate
from studio.models.lab_lists import CorpusListModel, CorpusSource
from studio.models.lab_starters import starter_sources

logger = logging.getLogger(__name__)


def read_bundled() -> list[CorpusSource]:
    """The bundled starter corpora (a broken one is logged and left out)."""
    sources = []
    for path in bundled_corpora():
        try:
            sources.append(CorpusSource(path, load_corpus(path).cases, bundled=True))
        except CorpusError:
            logger.exception("a bundled corpus could not be read")
    return sources


class LabCorpora:
    """The Lab's corpora (:attr:`model`) and the cases chosen from them."""

    def __init__(self, events: LabEvents, parent: QObject | None = None) -> None:
        self._events = events
        self.model = CorpusListModel(parent)

    async def load_bundled(self) -> None:
        """Add the bundled corpora (read off the UI thread), once."""
        if not self.model.sources():
            sources = starter_sources(await asyncio.to_thread(read_bundled), current_language())
            self.model.add_sources(sources)

    async def import_file(self, path: Path, *, label: str | None = None, skip_bad: bool = False) -> bool:
        """Read a corpus file (JSONL, CSV, text, promptfoo YAML) and add it, checked. A bad line is said (file
        and line) and nothing is added, unless ``skip_bad``: then the bad lines are listed and left out."""
        try:
            corpus = await asyncio.to_thread(load_corpus, path, label=label, category=None, skip_bad=skip_bad)
        except CorpusError as error:
            self._events.failed.emit(error_text(error))
            return False
        if not corpus.cases:
            self._events.failed.emit(translate("LabController", "{path}: no cases in this file").format(path=path))
            return False
        skipped = [str(problem) for problem in corpus.skipped]
        self.model.add_sources([CorpusSource(path, corpus.cases, checked=True, skipped=skipped)])
        imported, bad = len(corpus.cases), len(skipped)  # lupdate finds a plural text only with a plain name for n
        message = translate("LabController", "Imported %n case(s) from {name}", None, imported).format(name=path.name)
        if skipped:
            message += translate("LabController", "; %n bad line(s) skipped: {first}", None, bad).format(
                first=skipped[0]
            )
        self._events.status_message.emit(message)
        return True

    def chosen_cases(self) -> list[Case]:
        """The cases of the checked corpora, in order. Raises :class:`CorpusError` for an id used twice."""
        cases: list[Case] = []
        where: dict[str, str] = {}
        for source in self.model.checked():
            for case in source.cases:
                if case.id in where:
                    line = int(case.source.rsplit(":", 1)[1]) if ":" in case.source else None
                    used = Problem(
                        "corpus:id_used_in", "id {id!r} is already used in {place}", id=case.id, place=where[case.id]
                    )
                    raise CorpusError(used, path=source.path, line=line)
                where[case.id] = case.source or source.name
                cases.append(case)
        return cases

    def chosen_or_said(self) -> list[Case] | None:
        """The chosen cases, or None with the reason said (none chosen, an id used twice)."""
        try:
            cases = self.chosen_cases()
        except CorpusError as error:
            self._events.failed.emit(error_text(error))
            return None
        if not cases:
            self._events.failed.emit(translate("LabController", "Choose at least one corpus to run."))
            return None
        return cases

    def described(self) -> list[dict[str, Any]]:
        """The checked corpora as a lab run keeps them in the store (name, path, number of cases)."""
        return [{"name": s.name, "path": str(s.path), "cases": len(s.cases)} for s in self.model.checked()]


__all__ = ["LabCorpora", "read_bundled"]
