"""The Lab view's two lists: the corpora to choose from (bundled and imported, each checkable) and the lab runs
kept in the store (newest first, with their status and figures)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from lab.corpus import Case
from studio.i18n import translate

Index = QModelIndex | QPersistentModelIndex
#: A :class:`studio.store.database.LabRunRecord` (models sit beside the store in the layering, so it is not imported).
LabRunRecord = Any

#: The lab run's id (list of runs).
LabRunIdRole = Qt.ItemDataRole.UserRole + 1


@dataclass
class CorpusSource:
    """A corpus file the user may run: its cases (loaded once, off the UI thread) and whether it is chosen."""

    path: Path
    cases: list[Case] = field(default_factory=list)
    bundled: bool = False
    checked: bool = False
    #: Lines left out on import (only when the user asked to skip bad lines).
    skipped: list[str] = field(default_factory=list)
    #: Which part of the file's cases this source holds ("简体中文", a bundled corpus split by language); "" whole.
    part: str = ""

    @property
    def name(self) -> str:
        return f"{self.path.name} · {self.part}" if self.part else self.path.name


class CorpusListModel(QAbstractListModel):
    """Corpora with a check box each; checking one chooses it for the next run."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._sources: list[CorpusSource] = []

    def add_sources(self, sources: list[CorpusSource]) -> None:
        """Add (or replace, by path: a file imported again is read again) sources."""
        for source in sources:
            row = next((i for i, s in enumerate(self._sources) if (s.path, s.part) == (source.path, source.part)), -1)
            if row >= 0:
                self._sources[row] = source
                index = self.index(row)
                self.dataChanged.emit(index, index)
            else:
                self.beginInsertRows(QModelIndex(), len(self._sources), len(self._sources))
                self._sources.append(source)
                self.endInsertRows()

    def sources(self) -> list[CorpusSource]:
        return list(self._sources)

    def checked(self) -> list[CorpusSource]:
        return [source for source in self._sources if source.checked]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._sources)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return super().flags(index) | Qt.ItemFlag.ItemIsUserCheckable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._sources):
            return None
        source = self._sources[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return _source_text(source)
        if role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if source.checked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            where = translate("LabLists", "bundled with the studio") if source.bundled else str(source.path)
            skipped = len(source.skipped)  # a plain name: lupdate finds a plural text only so
            note = translate("LabLists", "\n%n bad line(s) skipped", None, skipped) if source.skipped else ""
            return f"{_source_text(source)}\n{where}{note}"  # the name whole, even where the list elides it
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid() or index.row() >= len(self._sources):
            return False
        checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2)
        self._sources[index.row()].checked = checked
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        return True


def _source_text(source: CorpusSource) -> str:
    cases = len(source.cases)  # a plain name: lupdate finds a plural text only so
    return translate("LabLists", "{name} (%n case(s))", None, cases).format(name=source.name)


def status_text(record: LabRunRecord, *, live: bool) -> str:
    """``finished``, ``cancelled``, ``running`` (this session's run) or ``interrupted`` (a run left running)."""
    if record.status == "running" and not live:
        return translate("LabLists", "interrupted")
    status = str(record.status)
    return {
        "running": translate("LabLists", "running"),
        "finished": translate("LabLists", "finished"),
        "cancelled": translate("LabLists", "cancelled"),
    }.get(status, status)


def can_resume(record: LabRunRecord, *, live: bool) -> bool:
    return record.done < record.total and not (record.status == "running" and live)


def can_replay(record: LabRunRecord, *, live: bool) -> bool:
    """A run whose results keep the model's replies (``model`` mode, or a replay of one) and that is not live."""
    return record.mode in ("model", "replay") and record.done > 0 and not live


class LabRunsModel(QAbstractListModel):
    """The stored lab runs, newest first; the one running in this session is marked live."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._records: list[LabRunRecord] = []
        self._live: str | None = None

    def set_records(self, records: list[LabRunRecord], live: str | None = None) -> None:
        self.beginResetModel()
        self._records = list(records)
        self._live = live
        self.endResetModel()

    def records(self) -> list[LabRunRecord]:
        return list(self._records)

    def record(self, row: int) -> LabRunRecord | None:
        return self._records[row] if 0 <= row < len(self._records) else None

    def row_of(self, lab_run_id: str) -> int:
        return next((row for row, record in enumerate(self._records) if record.id == lab_run_id), -1)

    def is_live(self, lab_run_id: str) -> bool:
        return lab_run_id == self._live

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._records)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        record = self.record(index.row()) if index.isValid() else None
        if record is None:
            return None
        live = record.id == self._live
        if role == Qt.ItemDataRole.DisplayRole:
            summary = record.summary or {}
            figures = ""
            if summary.get("recall") is not None or summary.get("fpr") is not None:
                figures = translate("LabLists", " · recall {recall}, FPR {fpr}").format(
                    recall=_pct(summary.get("recall")), fpr=_pct(summary.get("fpr"))
                )
            when = record.created_at.astimezone()
            return translate("LabLists", "{when} {name} — {status} {done}/{total}{figures}").format(
                when=f"{when:%m-%d %H:%M}",
                name=record.name,
                status=status_text(record, live=live),
                done=record.done,
                total=record.total,
                figures=figures,
            )
        if role == Qt.ItemDataRole.ToolTipRole:
            corpora = ", ".join(str(item.get("name")) for item in record.corpus)
            resumed = translate("LabLists", "; resumed {count}×").format(count=record.resumes) if record.resumes else ""
            modes = {
                "guardrails": translate("LabLists", "guardrails"),
                "model": translate("LabLists", "model"),
                "replay": translate("LabLists", "replay"),
            }
            return translate("LabLists", "Mode {mode}, corpora: {corpora}{resumed}").format(
                mode=modes.get(record.mode, record.mode), corpora=corpora, resumed=resumed
            )
        if role == LabRunIdRole:
            return record.id
        return None


def _pct(value: Any) -> str:
    return "-" if value is None else f"{float(value):.1%}"


__all__ = ["CorpusListModel", "CorpusSource", "LabRunIdRole", "LabRunsModel", "can_replay", "can_resume", "status_text"]
