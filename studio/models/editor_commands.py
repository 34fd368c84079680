"""Undo commands for every edit of an agent design (Orange's ``document/commands.py`` style).

Each command captures what it needs to undo when it is built, and its ``redo``/``undo`` call the
:class:`~studio.models.design_document.DesignDocument`'s public mutation API — nothing else changes a design::

    stack = document.undo_stack()
    stack.push(AddEntry(document, "input", 0, ChainEntry(type="RegexFilter")))
    stack.push(EditOptions(document, uid, {"strategy": "redact"}, field="strategy"))
    stack.undo()

``EditOptions`` and ``EditSetting`` merge with the next command editing the same field of the same target, so
typing a word is one undo step; a merged edit that ends where it started drops out of the stack.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Mapping
from typing import Any

from PySide6.QtGui import QUndoCommand

from studio.design.agent_design import DEMO_MODEL, AgentDesign, ChainEntry
from studio.design.sample import OFFLINE_DEMO_SUFFIXES
from studio.i18n import translate
from studio.models.design_document import DesignDocument
from studio.texts.translator import QT_TRANSLATE_NOOP

__all__ = ["AddEntry", "EditOptions", "EditSetting", "MoveEntry", "RemoveEntry", "ReplaceDesign", "ToggleEntry"]

# Merge ids (QUndoCommand.id): commands with the same id may merge; -1 means "never merges".
_EDIT_OPTIONS_ID = 5001
_EDIT_SETTING_ID = 5002

_SETTING_LABELS = {
    "name": QT_TRANSLATE_NOOP("UndoCommands", "agent name"),
    "instructions": QT_TRANSLATE_NOOP("UndoCommands", "instructions"),
    "tools": QT_TRANSLATE_NOOP("UndoCommands", "tools"),
    "mcp_servers": QT_TRANSLATE_NOOP("UndoCommands", "MCP servers"),
    "max_processor_retries": QT_TRANSLATE_NOOP("UndoCommands", "processor retries"),
    "max_steps": QT_TRANSLATE_NOOP("UndoCommands", "maximum steps"),
    "model.model": QT_TRANSLATE_NOOP("UndoCommands", "model"),
    "model.api_base": QT_TRANSLATE_NOOP("UndoCommands", "API base"),
    "model.temperature": QT_TRANSLATE_NOOP("UndoCommands", "temperature"),
    "model.max_tokens": QT_TRANSLATE_NOOP("UndoCommands", "maximum tokens"),
    "model.top_p": QT_TRANSLATE_NOOP("UndoCommands", "top p"),
    "model.extra": QT_TRANSLATE_NOOP("UndoCommands", "model settings"),
}


def lane_name(lane: str) -> str:
    """A lane as undo texts name it ("input"), in the studio's language."""
    names = {
        "input": QT_TRANSLATE_NOOP("UndoCommands", "input"),
        "output": QT_TRANSLATE_NOOP("UndoCommands", "output"),
        "error": QT_TRANSLATE_NOOP("UndoCommands", "error"),
    }
    return translate("UndoCommands", names[lane]) if lane in names else lane


class _DocumentCommand(QUndoCommand):
    """Holds its document weakly: the document's undo stack owns the command, so a strong reference back would
    make a cycle that Python's garbage collector may break in an order that makes Qt delete a command twice."""

    _document_ref: weakref.ReferenceType[DesignDocument]

    def _set_document(self, document: DesignDocument) -> None:
        self._document_ref = weakref.ref(document)

    @property
    def _document(self) -> DesignDocument:
        document = self._document_ref()
        if document is None:  # pragma: no cover - the stack (and so this command) dies with its document
            raise RuntimeError("the design document of this command is gone")
        return document


class AddEntry(_DocumentCommand):
    """Put a new entry at ``index`` of ``lane``."""

    def __init__(
        self, document: DesignDocument, lane: str, index: int, entry: ChainEntry, parent: QUndoCommand | None = None
    ) -> None:
        super().__init__(
            translate("UndoCommands", "Add {processor} to {lane}").format(
                processor=document.display_name(entry.type), lane=lane_name(lane)
            ),
            parent,
        )
        self._set_document(document)
        self._lane = lane
        self._index = index
        self._entry = entry.model_copy(deep=True)

    @property
    def uid(self) -> str:
        return self._entry.uid

    def redo(self) -> None:
        self._document.insert_entry(self._lane, self._index, self._entry)

    def undo(self) -> None:
        self._document.remove_entry(self._entry.uid)


class RemoveEntry(_DocumentCommand):
    """Take the entry ``uid`` out of its chain (undo puts it back where it was, options and all)."""

    def __init__(self, document: DesignDocument, uid: str, parent: QUndoCommand | None = None) -> None:
        found = document.design().find(uid)
        if found is None:
            raise KeyError(f"no entry with uid {uid!r} in the design")
        self._lane, self._index, entry = found
        super().__init__(
            translate("UndoCommands", "Remove {processor} from {lane}").format(
                processor=document.display_name(entry.type), lane=lane_name(self._lane)
            ),
            parent,
        )
        self._set_document(document)
        self._entry = entry.model_copy(deep=True)

    def redo(self) -> None:
        self._document.remove_entry(self._entry.uid)

    def undo(self) -> None:
        self._document.insert_entry(self._lane, self._index, self._entry)


class MoveEntry(_DocumentCommand):
    """Move the entry ``uid`` so that it ends at position ``index`` of ``lane`` (same lane or another)."""

    def __init__(
        self, document: DesignDocument, uid: str, lane: str, index: int, parent: QUndoCommand | None = None
    ) -> None:
        found = document.design().find(uid)
        if found is None:
            raise KeyError(f"no entry with uid {uid!r} in the design")
        self._from_lane, self._from_index, entry = found
        name = document.display_name(entry.type)
        text = (
            translate("UndoCommands", "Move {processor}").format(processor=name)
            if lane == self._from_lane
            else translate("UndoCommands", "Move {processor} to {lane}").format(processor=name, lane=lane_name(lane))
        )
        super().__init__(text, parent)
        self._set_document(document)
        self._uid = uid
        self._lane = lane
        self._index = index

    def redo(self) -> None:
        self._document.move_entry(self._uid, self._lane, self._index)

    def undo(self) -> None:
        self._document.move_entry(self._uid, self._from_lane, self._from_index)


class ToggleEntry(_DocumentCommand):
    """Enable or disable the entry ``uid``."""

    def __init__(self, document: DesignDocument, uid: str, enabled: bool, parent: QUndoCommand | None = None) -> None:
        entry = document.entry(uid)
        if entry is None:
            raise KeyError(f"no entry with uid {uid!r} in the design")
        text = (
            translate("UndoCommands", "Enable {processor}")
            if enabled
            else translate("UndoCommands", "Disable {processor}")
        )
        super().__init__(text.format(processor=document.display_name(entry.type)), parent)
        self._set_document(document)
        self._uid = uid
        self._enabled = bool(enabled)
        self._was_enabled = entry.enabled

    def redo(self) -> None:
        self._document.set_enabled(self._uid, self._enabled)

    def undo(self) -> None:
        self._document.set_enabled(self._uid, self._was_enabled)


class EditOptions(_DocumentCommand):
    """Replace the options of the entry ``uid``.

    ``field`` names the option that changed; consecutive edits of the same field of the same entry merge into
    one undo step (``field=None`` never merges).
    """

    def __init__(
        self,
        document: DesignDocument,
        uid: str,
        options: Mapping[str, Any],
        field: str | None = None,
        parent: QUndoCommand | None = None,
    ) -> None:
        entry = document.entry(uid)
        if entry is None:
            raise KeyError(f"no entry with uid {uid!r} in the design")
        name = document.display_name(entry.type)
        text = (
            translate("UndoCommands", "Change {field} of {processor}").format(field=field, processor=name)
            if field
            else translate("UndoCommands", "Change options of {processor}").format(processor=name)
        )
        super().__init__(text, parent)
        self._set_document(document)
        self._uid = uid
        self._field = field
        self._old = copy.deepcopy(entry.options)
        self._new = copy.deepcopy(dict(options))

    @property
    def uid(self) -> str:
        return self._uid

    @property
    def field(self) -> str | None:
        return self._field

    def id(self) -> int:
        return _EDIT_OPTIONS_ID if self._field else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditOptions) or (other.uid, other.field) != (self._uid, self._field):
            return False
        self._new = copy.deepcopy(other._new)
        self.setObsolete(self._new == self._old)
        return True

    def redo(self) -> None:
        self._document.set_options(self._uid, self._new)

    def undo(self) -> None:
        self._document.set_options(self._uid, self._old)


class EditSetting(_DocumentCommand):
    """Change an agent-level setting (``"name"``, ``"model.temperature"``, ...).

    Consecutive edits of one setting merge (typing a name is one undo step) unless ``merge`` is False (a
    discrete choice such as ticking a tool is a step of its own).
    """

    def __init__(
        self,
        document: DesignDocument,
        name: str,
        value: Any,
        merge: bool = True,
        parent: QUndoCommand | None = None,
    ) -> None:
        label = _SETTING_LABELS.get(name)
        super().__init__(
            translate("UndoCommands", "Change {setting}").format(
                setting=translate("UndoCommands", label) if label else name
            ),
            parent,
        )
        self._set_document(document)
        self._merge = merge
        self._name = name
        self._old = document.setting(name)
        self._new = copy.deepcopy(value)
        #: Changing the model away from the offline demo also drops " (offline demo)" from the agent's name.
        self._old_agent_name: str = document.setting("name") if name == "model.model" else ""

    @property
    def name(self) -> str:
        return self._name

    def id(self) -> int:
        return _EDIT_SETTING_ID if self._merge else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditSetting) or other.name != self._name or not other._merge:
            return False
        self._new = copy.deepcopy(other._new)
        self.setObsolete(self._new == self._old)
        return True

    def redo(self) -> None:
        self._document.set_setting(self._name, self._new)
        suffix = _demo_suffix(self._old_agent_name)
        if suffix:
            demo = str(self._new).strip() == DEMO_MODEL
            self._document.set_setting(
                "name", self._old_agent_name if demo else self._old_agent_name.removesuffix(suffix)
            )

    def undo(self) -> None:
        self._document.set_setting(self._name, self._old)
        if _demo_suffix(self._old_agent_name):
            self._document.set_setting("name", self._old_agent_name)


def _demo_suffix(name: str) -> str:
    """The offline-demo suffix (in any of the sample's languages) that ``name`` ends with, or ""."""
    return next((suffix for suffix in OFFLINE_DEMO_SUFFIXES if name.endswith(suffix)), "")


class ReplaceDesign(_DocumentCommand):
    """Swap the whole design for another (e.g. "reset to a template"), undoably."""

    def __init__(
        self,
        document: DesignDocument,
        design: AgentDesign,
        text: str | None = None,
        parent: QUndoCommand | None = None,
    ) -> None:
        super().__init__(translate("UndoCommands", "Replace design") if text is None else text, parent)
        self._set_document(document)
        self._old = document.snapshot()
        self._new = design.model_copy(deep=True)

    def redo(self) -> None:
        self._document.replace_design(self._new)

    def undo(self) -> None:
        self._document.replace_design(self._old)
