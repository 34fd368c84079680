"""The palette: every processor type of the catalogue, grouped by lane, and a search filter over it.

``PaletteModel`` is a two-level tree: one header row per lane (Input, Output, Error) and under it every type
that fits that lane — a type with hooks in two lanes appears under both (build it from
``studio.design.catalog.palette_groups(catalogue)``). Type rows drag as
:data:`~studio.models.chain_model.MIME_TYPE` payloads ``{"source": "palette", "type", "uid": null, "lane"}``.

``PaletteFilterModel`` keeps the type rows whose name, id, type name or description contain every word of the
search text (case-insensitive), and the headers of lanes that still have a type showing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Slot,
)
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel

from studio.design.agent_design import LANES
from studio.i18n import translate
from studio.i18n.processor_texts import description_of, name_of
from studio.models.chain_model import MIME_TYPE, encode_payload
from studio.texts.translator import QT_TRANSLATE_NOOP

__all__ = [
    "DESCRIPTION_ROLE",
    "KIND_ROLE",
    "LANE_ROLE",
    "LANE_TITLES",
    "SEARCH_ROLE",
    "TYPE_ROLE",
    "PaletteFilterModel",
    "PaletteModel",
]

#: "lane" for a header row, "type" for a processor type row.
KIND_ROLE = Qt.ItemDataRole.UserRole + 1
#: The lane of a header, or of the group a type row sits in.
LANE_ROLE = Qt.ItemDataRole.UserRole + 2
#: The type name of a type row (``"RegexFilter"``).
TYPE_ROLE = Qt.ItemDataRole.UserRole + 3
#: The type's description.
DESCRIPTION_ROLE = Qt.ItemDataRole.UserRole + 4
#: The lower-cased text the search filter matches (name, id, type name, description).
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 5

#: The lanes' titles in English (:func:`lane_title` gives them in the studio's language).
LANE_TITLES = {
    "input": QT_TRANSLATE_NOOP("Lanes", "Input"),
    "output": QT_TRANSLATE_NOOP("Lanes", "Output"),
    "error": QT_TRANSLATE_NOOP("Lanes", "Error"),
}
_LANE_HINTS = {
    "input": QT_TRANSLATE_NOOP("Lanes", "Runs on the user's message before the model sees it"),
    "output": QT_TRANSLATE_NOOP("Lanes", "Runs on the model's answer, while it streams and when it is complete"),
    "error": QT_TRANSLATE_NOOP("Lanes", "Runs when the model's API call fails"),
}


def lane_title(lane: str) -> str:
    """A lane's title in the studio's language ("Input", "输入")."""
    return QCoreApplication.translate("Lanes", LANE_TITLES[lane]) if lane in LANE_TITLES else lane


_Index = QModelIndex | QPersistentModelIndex


class PaletteModel(QStandardItemModel):
    """Lane headers with the catalogue's types under each lane they fit; type rows are draggable."""

    def __init__(self, groups: Mapping[str, Sequence[Any]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.set_groups(groups)

    def set_groups(self, groups: Mapping[str, Sequence[Any]]) -> None:
        """Rebuild from ``groups``: lane → catalogue records in display order
        (``studio.design.catalog.palette_groups``)."""
        self.clear()
        header_font = QFont()
        header_font.setBold(True)
        for lane in LANES:
            header = QStandardItem(lane_title(lane))
            header.setFlags(Qt.ItemFlag.ItemIsEnabled)
            header.setFont(header_font)
            header.setData("lane", KIND_ROLE)
            header.setData(lane, LANE_ROLE)
            header.setToolTip(QCoreApplication.translate("Lanes", _LANE_HINTS[lane]))
            header.setAccessibleText(translate("Lanes", "{lane} lane").format(lane=lane_title(lane)))
            for record in groups.get(lane, ()):
                header.appendRow(_type_item(record, lane))
            self.appendRow(header)

    def header_index(self, lane: str) -> QModelIndex:
        return self.index(LANES.index(lane), 0)

    def type_names(self, lane: str) -> list[str]:
        header = self.item(LANES.index(lane))
        return [header.child(row).data(TYPE_ROLE) for row in range(header.rowCount())]

    # ------------------------------------------------------------------------------------ drag and drop
    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.IgnoreAction

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData | None:  # type: ignore[override]  # Qt: null = no drag
        for index in indexes:
            if index.isValid() and index.data(KIND_ROLE) == "type":
                return encode_payload("palette", index.data(TYPE_ROLE), None, index.data(LANE_ROLE))
        return None


class PaletteFilterModel(QSortFilterProxyModel):
    """Shows the types matching every word of the search text; a lane header stays while a child shows."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self._words: tuple[str, ...] = ()

    @Slot(str)
    def set_search_text(self, text: str) -> None:
        words = tuple(text.lower().split())
        if words == self._words:
            return
        self.beginFilterChange()
        self._words = words
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def visible_type_count(self) -> int:
        return sum(self.rowCount(self.index(row, 0)) for row in range(self.rowCount()))

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        index = self.sourceModel().index(source_row, 0, source_parent)
        if index.data(KIND_ROLE) != "type":
            return not self._words  # a header shows on its own only when nothing is searched
        haystack = index.data(SEARCH_ROLE) or ""
        return all(word in haystack for word in self._words)


def _type_item(record: Any, lane: str) -> QStandardItem:
    processor_id = getattr(record, "id", "") or ""
    english_name = getattr(record, "name", None) or record.type_name
    english_description = getattr(record, "description", "") or ""
    name = name_of(record)
    description = description_of(record)
    item = QStandardItem(name)
    item.setFlags(
        Qt.ItemFlag.ItemIsEnabled
        | Qt.ItemFlag.ItemIsSelectable
        | Qt.ItemFlag.ItemIsDragEnabled
        | Qt.ItemFlag.ItemNeverHasChildren
    )
    item.setData("type", KIND_ROLE)
    item.setData(lane, LANE_ROLE)
    item.setData(record.type_name, TYPE_ROLE)
    item.setData(description, DESCRIPTION_ROLE)
    # Searchable in the studio's language and in English (the names in the docs and in design files).
    searched = (name, english_name, processor_id, record.type_name, description, english_description)
    item.setData(" ".join(searched).lower(), SEARCH_ROLE)
    hooks = ", ".join(getattr(record, "hooks", ()) or ())
    lines = [f"<b>{_escape(name)}</b> <code>{_escape(record.type_name)}</code>"]
    if description:
        lines.append(_escape(description))
    if hooks:
        lines.append(translate("Palette", "Hooks: {hooks}").format(hooks=_escape(hooks)))
    if getattr(record, "needs_model", False):
        lines.append(translate("Palette", "Needs a model to judge with."))
    item.setToolTip("<br>".join(lines))
    item.setAccessibleDescription(description)
    return item


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
