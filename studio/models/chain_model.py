"""``ChainModel``: one lane's processor chain of a :class:`DesignDocument`, as a Qt list model.

Rows are the lane's entries: display = the processor's name and, on a second line, a short summary of the
options it sets; check state = enabled; tooltip = the type's description; a warning icon, red text, "Invalid: …"
on the second line (and the reasons in the tooltip) when the entry cannot run as it is (unknown type, options its
type refuses; the second line names a refused option by its label in the options form, "Rules, item 1, pattern",
the tooltip by its path in the design file, "rules.0.pattern"). The studio refuses to run a design with such an
entry, naming it. The model caches nothing: it reads the document on every call and follows the document's
signals.

Drag and drop speaks :data:`MIME_TYPE`, a JSON object ``{"source": "palette"|"chain", "type", "uid", "lane",
"options"}``. A drop *inserts* at the drop row (a drop "on" a row goes before it), as one undo command: a palette
type is added, a chain entry is moved (or copied with ``CopyAction``, e.g. Ctrl held). A drop into a lane the
type does not fit is refused: ``canDropMimeData`` says no (the view shows a "no drop" cursor) and
``dropMimeData`` emits :attr:`ChainModel.drop_refused` with the reason and returns False.

Moves are done by ``dropMimeData`` through the undo stack, never by Qt removing the source rows: the model
does not implement ``removeRows``/``moveRows``, so the source view's post-drag clean-up is a no-op.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap

from studio.design.agent_design import ChainEntry
from studio.i18n import translate
from studio.i18n.processor_texts import description_of, option_label
from studio.models.design_document import DesignDocument, not_in_catalogue, place_words
from studio.models.editor_commands import AddEntry, MoveEntry, ToggleEntry

__all__ = ["INVALID_ROLE", "MIME_TYPE", "TYPE_ROLE", "UID_ROLE", "ChainModel", "decode_payload", "encode_payload"]

#: The drag-and-drop format shared by the palette and the chains.
MIME_TYPE = "application/x-processor-studio-entry"

#: The entry's uid (str).
UID_ROLE = Qt.ItemDataRole.UserRole + 1
#: The entry's catalogue type name (str).
TYPE_ROLE = Qt.ItemDataRole.UserRole + 2
#: Why the entry cannot run as it is ("" when it can): its problems, joined.
INVALID_ROLE = Qt.ItemDataRole.UserRole + 3
#: The text colour of an entry that cannot run as it is.
INVALID_COLOR = "#c0392b"

_Index = QModelIndex | QPersistentModelIndex
_SUMMARY_LIMIT = 60


def encode_payload(
    source: str, type_name: str, uid: str | None = None, lane: str | None = None, options: Any = None
) -> QMimeData:
    """A ``QMimeData`` carrying one entry (or palette type) in :data:`MIME_TYPE`."""
    payload = {"source": source, "type": type_name, "uid": uid, "lane": lane}
    if options is not None:
        payload["options"] = options
    mime = QMimeData()
    mime.setData(MIME_TYPE, QByteArray(json.dumps(payload).encode()))
    return mime


def decode_payload(mime: QMimeData | None) -> dict[str, Any] | None:
    """The JSON payload of ``mime`` (``source``, ``type``, ``uid``, ``lane``, ``options``), or None when it
    carries no well-formed :data:`MIME_TYPE` data."""
    if mime is None or not mime.hasFormat(MIME_TYPE):
        return None
    raw = mime.data(MIME_TYPE)  # keep the QByteArray alive while reading it
    try:
        payload = json.loads(bytes(raw.data()).decode())
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(payload, dict) or payload.get("source") not in ("palette", "chain"):
        return None
    if not isinstance(payload.get("type"), str) or not payload["type"]:
        return None
    return payload


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def options_summary(options: dict[str, Any], limit: int = _SUMMARY_LIMIT) -> str:
    """``"strategy=redact, presets=pii+secrets"`` — the options set on an entry, shortened to ``limit``."""
    parts = []
    for key, value in options.items():
        if isinstance(value, list) and all(isinstance(item, str | int | float) for item in value):
            shown = "+".join(str(item) for item in value)
        elif isinstance(value, list):
            shown = f"{len(value)} item" + ("" if len(value) == 1 else "s")
        elif isinstance(value, dict):
            shown = "{…}"
        elif isinstance(value, str):
            shown = " ".join(value.split())
        else:
            shown = json.dumps(value)
        parts.append(f"{key}={shown}")
    text = ", ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ChainModel(QAbstractListModel):
    """The entries of one lane of a :class:`DesignDocument`; edits become undo commands."""

    #: A drop was refused; the argument is the reason, ready to show.
    drop_refused = Signal(str)

    def __init__(self, document: DesignDocument, lane: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._lane = lane
        document.entry_about_to_be_inserted.connect(self._on_document_entry_about_to_be_inserted)
        document.entry_inserted.connect(self._on_document_entry_inserted)
        document.entry_about_to_be_removed.connect(self._on_document_entry_about_to_be_removed)
        document.entry_removed.connect(self._on_document_entry_removed)
        document.entry_about_to_be_moved.connect(self._on_document_entry_about_to_be_moved)
        document.entry_moved.connect(self._on_document_entry_moved)
        document.entry_changed.connect(self._on_document_entry_changed)
        document.design_about_to_be_replaced.connect(self._on_document_design_about_to_be_replaced)
        document.design_replaced.connect(self._on_document_design_replaced)
        document.catalogue_changed.connect(self._on_document_catalogue_changed)
        self._pending_move: str | None = None  # "move", "remove" or "insert" between about-to and done

    # ------------------------------------------------------------------------------------------ reading
    def lane(self) -> str:
        return self._lane

    def document(self) -> DesignDocument:
        return self._document

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt default argument
        return 0 if parent.isValid() else len(self._document.chain(self._lane))

    def entry_at(self, row: int) -> ChainEntry | None:
        chain = self._document.chain(self._lane)
        return chain[row] if 0 <= row < len(chain) else None

    def row_of(self, uid: str) -> int:
        """The row of the entry ``uid`` in this lane, or -1."""
        found = self._document.locate(uid)
        return found[1] if found is not None and found[0] == self._lane else -1

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        entry = self.entry_at(index.row()) if index.isValid() else None
        if entry is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            name = self._document.display_name(entry.type)
            if self._document.record(entry.type) is None:
                return f"{name}\n" + translate("ChainEditor", "Not installed: cannot run")
            problems = self._problems(entry, labelled=True)
            if problems:  # the second line says why it cannot run, instead of the options summary
                return f"{name}\n" + translate("ChainEditor", "Invalid: {problem}").format(
                    problem=_shorten(problems[0], _SUMMARY_LIMIT)
                )
            summary = options_summary(self._in_form_order(entry))
            return f"{name}\n{summary}" if summary else name
        if role == Qt.ItemDataRole.DecorationRole:
            return _warning_icon() if self._problems(entry) else None
        if role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if entry.enabled else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(entry)
        if role == Qt.ItemDataRole.ForegroundRole and (not entry.enabled or self._document.record(entry.type) is None):
            return QPalette().brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        if role == Qt.ItemDataRole.ForegroundRole and self._problems(entry):
            return QColor(INVALID_COLOR)
        if role == INVALID_ROLE:
            return "; ".join(self._problems(entry))
        if role == UID_ROLE:
            return entry.uid
        if role == TYPE_ROLE:
            return entry.type
        if role == Qt.ItemDataRole.AccessibleTextRole:
            state = translate("ChainEditor", "enabled") if entry.enabled else translate("ChainEditor", "disabled")
            invalid = translate("ChainEditor", ", invalid") if self._problems(entry) else ""
            return f"{self._document.display_name(entry.type)}, {state}{invalid}"
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsUserCheckable
            | Qt.ItemFlag.ItemIsDragEnabled
            | Qt.ItemFlag.ItemNeverHasChildren
        )

    # ------------------------------------------------------------------------------------------ editing
    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        entry = self.entry_at(index.row()) if index.isValid() else None
        if entry is None or role != Qt.ItemDataRole.CheckStateRole:
            return False
        enabled = _check_state(value) == Qt.CheckState.Checked
        if enabled != entry.enabled:
            self._document.undo_stack().push(ToggleEntry(self._document, entry.uid, enabled))
        return True

    # ------------------------------------------------------------------------------------ drag and drop
    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData | None:  # type: ignore[override]  # Qt: null = no drag
        entries = [self.entry_at(index.row()) for index in indexes if index.isValid()]
        entry = next((e for e in entries if e is not None), None)
        if entry is None:
            return None
        return encode_payload("chain", entry.type, entry.uid, self._lane, entry.options)

    def refusal(self, mime: QMimeData | None) -> str | None:
        """Why ``mime`` cannot be dropped into this lane, or None when it can."""
        payload = decode_payload(mime)
        if payload is None:
            return translate("ChainEditor", "Only processors from the palette or from a chain can be dropped here")
        return self._document.can_place(payload["type"], self._lane)

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index) -> bool:
        if action not in (Qt.DropAction.MoveAction, Qt.DropAction.CopyAction) or column > 0:
            return False
        return self.refusal(data) is None

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index) -> bool:
        if action == Qt.DropAction.IgnoreAction:
            return True
        if action not in (Qt.DropAction.MoveAction, Qt.DropAction.CopyAction):
            return False
        reason = self.refusal(data)
        if reason is not None:
            self.drop_refused.emit(reason)
            return False
        payload = decode_payload(data)
        assert payload is not None
        count = self.rowCount()
        # Insert, never overwrite: a drop "on" a row goes before it; nowhere in particular means the end.
        if parent.isValid():
            row = parent.row()
        if not 0 <= row <= count:
            row = count
        stack = self._document.undo_stack()
        uid = payload.get("uid")
        found = self._document.locate(uid) if payload["source"] == "chain" and isinstance(uid, str) else None
        if found is not None and isinstance(uid, str) and action == Qt.DropAction.MoveAction:
            from_lane, from_index = found
            if from_lane == self._lane and from_index < row:
                row -= 1  # the drop row counts the entry itself, which leaves its place first
            if (from_lane, from_index) != (self._lane, row):
                stack.push(MoveEntry(self._document, uid, self._lane, row))
            return True
        options = payload.get("options") if payload["source"] == "chain" else None
        entry = ChainEntry(type=payload["type"], options=options if isinstance(options, dict) else {})
        stack.push(AddEntry(self._document, self._lane, row, entry))
        return True

    # ------------------------------------------------------------------------------- document signals
    @Slot(str, int)
    def _on_document_entry_about_to_be_inserted(self, lane: str, index: int) -> None:
        if lane == self._lane:
            self.beginInsertRows(QModelIndex(), index, index)

    @Slot(str, int)
    def _on_document_entry_inserted(self, lane: str, index: int) -> None:
        if lane == self._lane:
            self.endInsertRows()

    @Slot(str, int)
    def _on_document_entry_about_to_be_removed(self, lane: str, index: int) -> None:
        if lane == self._lane:
            self.beginRemoveRows(QModelIndex(), index, index)

    @Slot(str, int)
    def _on_document_entry_removed(self, lane: str, index: int) -> None:
        if lane == self._lane:
            self.endRemoveRows()

    @Slot(str, int, str, int)
    def _on_document_entry_about_to_be_moved(
        self, from_lane: str, from_index: int, to_lane: str, to_index: int
    ) -> None:
        if from_lane == self._lane and to_lane == self._lane:
            # Qt counts the destination before the move: moving down lands one past the final index.
            destination = to_index + 1 if to_index > from_index else to_index
            self.beginMoveRows(QModelIndex(), from_index, from_index, QModelIndex(), destination)
            self._pending_move = "move"
        elif from_lane == self._lane:
            self.beginRemoveRows(QModelIndex(), from_index, from_index)
            self._pending_move = "remove"
        elif to_lane == self._lane:
            self.beginInsertRows(QModelIndex(), to_index, to_index)
            self._pending_move = "insert"

    @Slot(str, int, str, int)
    def _on_document_entry_moved(self, from_lane: str, from_index: int, to_lane: str, to_index: int) -> None:
        pending, self._pending_move = self._pending_move, None
        if pending == "move":
            self.endMoveRows()
        elif pending == "remove":
            self.endRemoveRows()
        elif pending == "insert":
            self.endInsertRows()

    @Slot(str)
    def _on_document_entry_changed(self, uid: str) -> None:
        row = self.row_of(uid)
        if row >= 0:
            index = self.index(row, 0)
            self.dataChanged.emit(index, index)

    @Slot()
    def _on_document_design_about_to_be_replaced(self) -> None:
        self.beginResetModel()

    @Slot()
    def _on_document_design_replaced(self) -> None:
        self.endResetModel()

    @Slot()
    def _on_document_catalogue_changed(self) -> None:
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, 0))

    # ---------------------------------------------------------------------------------------- internals
    def _in_form_order(self, entry: ChainEntry) -> dict[str, Any]:
        """The entry's options in the order its form lists them (then by name), the same before and after a
        restart (a saved design sorts them by name; the editor adds them in the order they are set)."""
        record = self._document.record(entry.type)
        schema = getattr(record, "options_schema", None) or {}
        fields = list(schema.get("properties", {})) if isinstance(schema, Mapping) else []
        rank = {name: position for position, name in enumerate(fields)}
        ordered = sorted(entry.options, key=lambda name: (rank.get(name, len(rank)), name))
        return {name: entry.options[name] for name in ordered}

    def _problems(self, entry: ChainEntry, *, labelled: bool = False) -> list[str]:
        """Why this entry cannot run as it is: an unknown type, or options its type refuses — each after its field's
        path as the design file (and the build's refusal) has it, or with ``labelled`` (the row's short text) after
        the field's label as the options form names it."""
        if self._document.record(entry.type) is None:
            return [not_in_catalogue(entry.type)]
        errors = self._document.option_errors(entry.type, entry.options)
        colon = translate("OptionsForm", ": ")  # the reader's colon
        problems = []
        for path, message in errors.items():
            where = self._field_place(entry.type, path) if labelled else path
            problems.append(f"{where}{colon}{message}" if where else message)
        return problems

    def _field_place(self, type_name: str, path: str) -> str:
        """Where a refused option is, named as the options form names it: the field's label, then the place inside
        it (``"rules.0.pattern"`` → ``"Rules, item 1, pattern"``), in the studio's language; "" for the options as a
        whole. A name the type does not have (a typo in a design file) stays as written."""
        if path in ("", "options"):
            return ""
        record = self._document.record(type_name)
        schema = getattr(record, "options_schema", None) or {}
        properties = schema.get("properties") if isinstance(schema, Mapping) else None
        name, _, rest = path.partition(".")
        if not isinstance(properties, Mapping) or not isinstance(properties.get(name), Mapping):
            return translate("OptionsForm", ", ").join(place_words(path))
        label = option_label(record, name, _field_title(schema, name))
        return translate("OptionsForm", ", ").join([label, *place_words(rest)])

    def _tooltip(self, entry: ChainEntry) -> str:
        record = self._document.record(entry.type)
        lines = [description_of(record) if record is not None else ""]
        if not entry.enabled:
            lines.append(translate("ChainEditor", "(disabled: skipped when the agent runs)"))
        lines.extend(self._problems(entry))
        return "\n".join(line for line in lines if line) or entry.type


def _field_title(schema: Mapping[str, Any], name: str) -> str:
    """Option ``name``'s English title as the options form has it (``studio.views.option_specs.field_specs``): the
    schema's, the title of the model it refers to, else its name."""
    raw = schema["properties"][name]
    title = raw.get("title")
    reference = raw.get("$ref")
    if not title and isinstance(reference, str):
        definition = (schema.get("$defs") or {}).get(reference.rsplit("/", 1)[-1])
        title = definition.get("title") if isinstance(definition, Mapping) else None
    return str(title) if title else name.replace("_", " ").capitalize()


_WARNING_ICON: QIcon | None = None


def _warning_icon() -> QIcon:
    """A small amber disc with an exclamation mark (drawn once; needs a QGuiApplication)."""
    global _WARNING_ICON
    if _WARNING_ICON is None:
        pixmap = QPixmap(16, 16)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#e67e22"))
        painter.drawEllipse(1, 1, 14, 14)
        painter.setPen(QColor("white"))
        font = painter.font()
        font.setBold(True)
        font.setPixelSize(12)
        painter.setFont(font)
        painter.drawText(pixmap.rect(), Qt.AlignmentFlag.AlignCenter, "!")
        painter.end()
        _WARNING_ICON = QIcon(pixmap)
    return _WARNING_ICON


def _check_state(value: Any) -> Qt.CheckState:
    if isinstance(value, Qt.CheckState):
        return value
    try:
        return Qt.CheckState(int(value))
    except (TypeError, ValueError):
        return Qt.CheckState.Unchecked
