"""The Attack panel's converters and chains as item models: the converters to pick from (name, description in the
studio's language), the chains the attack will try (each a list of converter names, applied left to right), and the
steps of the chain being edited, which take converters dropped from the first list and reorder by drag.

The chains are plain lists of names (:class:`ChainListModel`); the steps model is a window on one of them, so every
edit there is an edit of the chain. A chain is said as the CLI says it: ``"base64 | leetspeak"``
(:func:`lab.converters.parse_chain` reads it back).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QMimeData, QModelIndex, QPersistentModelIndex, Qt

from lab.converters.chain import SEPARATOR
from studio.i18n import translate

Index = QModelIndex | QPersistentModelIndex

#: A converter's name (the converters list, a step of a chain).
NameRole = Qt.ItemDataRole.UserRole + 1
#: The drag of converters from the list of converters (their names, one a line).
CONVERTER_MIME = "application/x-processor-studio-converters"
#: The drag of a chain's steps inside the steps list (their rows, one a line).
STEP_MIME = "application/x-processor-studio-chain-steps"

#: The chains an attack starts with: a handful that reach different blind spots (encodings, look-alike characters,
#: invisible characters, framing, hiding in a document, a payload split over turns, Chinese homophones and 拆字).
DEFAULT_CHAINS: tuple[tuple[str, ...], ...] = (
    ("base64",),
    ("leetspeak",),
    ("homoglyph",),
    ("zero-width",),
    ("role-play",),
    ("document",),
    ("split-turns",),
    ("zh-homophone",),
    ("chaizi",),
    ("leetspeak", "story"),
)


@dataclass(frozen=True, slots=True)
class ConverterInfo:
    """What the panel shows of a converter: its name, its one-line description (translated) and whether it is a
    plug-in's."""

    name: str
    description: str
    source: str = "builtin"
    reversible: bool = False


def converter_description(name: str, english: str, source: str = "builtin") -> str:
    """A converter's description in the studio's language: a built-in's under ``converter:<name>`` with the key
    ``<name>.description`` (``scripts/translations`` extracts them from the registry); a plug-in's own English."""
    if source != "builtin" or not english:
        return english
    return translate(f"converter:{name}", english, f"{name}.description")


def chain_spec(steps: Sequence[str]) -> str:
    """The chain string the engine and the CLI read (``"base64|leetspeak"``)."""
    return SEPARATOR.join(steps)


def chain_text(steps: Sequence[str]) -> str:
    """A chain as the panel writes it (``"base64 | leetspeak"``; an empty chain says so)."""
    return f" {SEPARATOR} ".join(steps) if steps else translate("LabAttack", "(empty: add converters)")


class ConverterListModel(QAbstractListModel):
    """The converters to pick from; dragging rows carries their names (:data:`CONVERTER_MIME`)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._converters: list[ConverterInfo] = []

    def set_converters(self, converters: Iterable[ConverterInfo]) -> None:
        self.beginResetModel()
        self._converters = sorted(converters, key=lambda item: (item.source != "builtin", item.name))
        self.endResetModel()

    def converters(self) -> list[ConverterInfo]:
        return list(self._converters)

    def info(self, name: str) -> ConverterInfo | None:
        return next((item for item in self._converters if item.name == name), None)

    def row_of(self, name: str) -> int:
        return next((row for row, item in enumerate(self._converters) if item.name == name), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._converters)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return super().flags(index) | Qt.ItemFlag.ItemIsDragEnabled

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._converters):
            return None
        item = self._converters[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return item.name
        if role == Qt.ItemDataRole.ToolTipRole:
            return item.description
        if role == NameRole:
            return item.name
        return None

    def mimeTypes(self) -> list[str]:
        return [CONVERTER_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        names = [str(index.data(NameRole)) for index in indexes if index.isValid()]
        data = QMimeData()
        data.setData(CONVERTER_MIME, QByteArray("\n".join(names).encode()))
        return data

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction


class ChainListModel(QAbstractListModel):
    """The chains the attack will try, each a list of converter names; a chain may be empty while it is edited
    (:meth:`specs` leaves empty ones out)."""

    def __init__(self, chains: Iterable[Sequence[str]] = (), parent: Any = None) -> None:
        super().__init__(parent)
        self._chains: list[list[str]] = [list(chain) for chain in chains]

    def chains(self) -> list[list[str]]:
        return [list(chain) for chain in self._chains]

    def specs(self) -> list[str]:
        """The chain strings of the non-empty chains, each once, in order."""
        seen: dict[str, None] = {}
        for chain in self._chains:
            if chain:
                seen.setdefault(chain_spec(chain), None)
        return list(seen)

    def steps(self, row: int) -> list[str]:
        return list(self._chains[row]) if 0 <= row < len(self._chains) else []

    def set_chains(self, chains: Iterable[Sequence[str]]) -> None:
        self.beginResetModel()
        self._chains = [list(chain) for chain in chains]
        self.endResetModel()

    def add_chain(self, steps: Sequence[str] = ()) -> int:
        """Append a chain; returns its row."""
        row = len(self._chains)
        self.beginInsertRows(QModelIndex(), row, row)
        self._chains.append(list(steps))
        self.endInsertRows()
        return row

    def remove_chain(self, row: int) -> None:
        if 0 <= row < len(self._chains):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._chains[row]
            self.endRemoveRows()

    def set_steps(self, row: int, steps: Sequence[str]) -> None:
        if 0 <= row < len(self._chains):
            self._chains[row] = list(steps)
            index = self.index(row)
            self.dataChanged.emit(index, index)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._chains)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._chains):
            return None
        chain = self._chains[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return chain_text(chain)
        if role == NameRole:
            return chain_spec(chain)
        return None


class ChainStepsModel(QAbstractListModel):
    """The steps of one chain of a :class:`ChainListModel` (:meth:`show_chain`): converters dropped on it are
    inserted where they fall, its own rows move by drag, and every change is written to the chain."""

    def __init__(self, chains: ChainListModel, parent: Any = None) -> None:
        super().__init__(parent)
        self._chains = chains
        self._row = -1
        self._steps: list[str] = []
        chains.modelReset.connect(lambda: self.show_chain(self._row if self._row < chains.rowCount() else -1))
        chains.rowsRemoved.connect(self._on_chains_removed)

    @property
    def chain_row(self) -> int:
        """The row of the chain on show (-1: none)."""
        return self._row

    def show_chain(self, row: int) -> None:
        self.beginResetModel()
        self._row = row if 0 <= row < self._chains.rowCount() else -1
        self._steps = self._chains.steps(self._row)
        self.endResetModel()

    def _on_chains_removed(self, _parent: Any, first: int, last: int) -> None:
        if first <= self._row <= last:
            self.show_chain(-1)
        elif self._row > last:
            self._row -= last - first + 1

    def steps(self) -> list[str]:
        return list(self._steps)

    def _write(self) -> None:
        self._chains.set_steps(self._row, self._steps)

    def insert(self, names: Sequence[str], at: int = -1) -> bool:
        """Insert converters at ``at`` (-1: at the end); False when no chain is on show."""
        if self._row < 0 or not names:
            return False
        at = len(self._steps) if at < 0 or at > len(self._steps) else at
        self.beginInsertRows(QModelIndex(), at, at + len(names) - 1)
        self._steps[at:at] = list(names)
        self.endInsertRows()
        self._write()
        return True

    def remove(self, row: int) -> None:
        if 0 <= row < len(self._steps):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._steps[row]
            self.endRemoveRows()
            self._write()

    def move(self, row: int, to: int) -> bool:
        """Move step ``row`` so it ends at position ``to`` (clamped); False when nothing moved."""
        to = max(0, min(to, len(self._steps) - 1))
        if not 0 <= row < len(self._steps) or to == row:
            return False
        # Qt's destination is the row the moved one goes before, counted before the move.
        if not self.beginMoveRows(QModelIndex(), row, row, QModelIndex(), to + 1 if to > row else to):
            return False
        self._steps.insert(to, self._steps.pop(row))
        self.endMoveRows()
        self._write()
        return True

    # ----------------------------------------------------------------------------------------- Qt
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt override
        return 0 if parent.isValid() else len(self._steps)

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if not index.isValid():
            return base | Qt.ItemFlag.ItemIsDropEnabled if self._row >= 0 else base
        return base | Qt.ItemFlag.ItemIsDragEnabled

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._steps):
            return None
        name = self._steps[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{index.row() + 1}. {name}"
        if role == NameRole:
            return name
        return None

    def mimeTypes(self) -> list[str]:
        return [CONVERTER_MIME, STEP_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        rows = sorted({index.row() for index in indexes if index.isValid()})
        data = QMimeData()
        data.setData(STEP_MIME, QByteArray("\n".join(map(str, rows)).encode()))
        return data

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index) -> bool:
        return self._row >= 0 and (data.hasFormat(CONVERTER_MIME) or data.hasFormat(STEP_MIME))

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index) -> bool:
        """Converters dropped are inserted before ``row`` (on a step: before it; below the last: at the end); a
        step dragged inside the list moves there. The move is done here, so the view must not remove the source
        row afterwards (the steps view drags with ``CopyAction``)."""
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        at = row if row >= 0 else (parent.row() if parent.isValid() else len(self._steps))
        if data.hasFormat(CONVERTER_MIME):
            names = [name for name in _lines(data.data(CONVERTER_MIME)) if name]
            return self.insert(names, at)
        rows = [int(text) for text in _lines(data.data(STEP_MIME)) if text.isdigit()]
        if len(rows) != 1:
            return False
        source = rows[0]
        return self.move(source, at - 1 if at > source else at)


def _lines(payload: QByteArray) -> list[str]:
    return bytes(payload.data()).decode(errors="replace").split("\n")


__all__ = [
    "CONVERTER_MIME",
    "DEFAULT_CHAINS",
    "STEP_MIME",
    "ChainListModel",
    "ChainStepsModel",
    "ConverterInfo",
    "ConverterListModel",
    "NameRole",
    "chain_spec",
    "chain_text",
    "converter_description",
]
