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

from studio.design import DEMO_MODEL, AgentDesign, ChainEntry
from studio.models.design_document import DesignDocument
from studio.sample import OFFLINE_DEMO_SUFFIX

__all__ = ["AddEntry", "EditOptions", "EditSetting", "MoveEntry", "RemoveEntry", "ReplaceDesign", "ToggleEntry"]

# Merge ids (QUndoCommand.id): commands with the same id may merge; -1 means "never merges".
_EDIT_OPTIONS_ID = 5001
_EDIT_SETTING_ID = 5002

_SETTING_LABELS = {
    "name": "agent name",
    "instructions": "instructions",
    "tools": "tools",
    "max_processor_retries": "processor retries",
    "max_steps": "maximum steps",
    "model.model": "model",
    "model.api_base": "API base",
    "model.temperature": "temperature",
    "model.max_tokens": "maximum tokens",
    "model.top_p": "top p",
    "model.extra": "model settings",
}


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
        super().__init__(f"Add {document.display_name(entry.type)} to {lane}", parent)
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
        super().__init__(f"Remove {document.display_name(entry.type)} from {self._lane}", parent)
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
        text = f"Move {name}" if lane == self._from_lane else f"Move {name} to {lane}"
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
        verb = "Enable" if enabled else "Disable"
        super().__init__(f"{verb} {document.display_name(entry.type)}", parent)
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
        super().__init__(f"Change {field} of {name}" if field else f"Change options of {name}", parent)
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
        super().__init__(f"Change {_SETTING_LABELS.get(name, name)}", parent)
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
        if self._old_agent_name.endswith(OFFLINE_DEMO_SUFFIX):
            demo = str(self._new).strip() == DEMO_MODEL
            self._document.set_setting(
                "name", self._old_agent_name if demo else self._old_agent_name.removesuffix(OFFLINE_DEMO_SUFFIX)
            )

    def undo(self) -> None:
        self._document.set_setting(self._name, self._old)
        if self._old_agent_name.endswith(OFFLINE_DEMO_SUFFIX):
            self._document.set_setting("name", self._old_agent_name)


class ReplaceDesign(_DocumentCommand):
    """Swap the whole design for another (e.g. "reset to a template"), undoably."""

    def __init__(
        self,
        document: DesignDocument,
        design: AgentDesign,
        text: str = "Replace design",
        parent: QUndoCommand | None = None,
    ) -> None:
        super().__init__(text, parent)
        self._set_document(document)
        self._old = document.snapshot()
        self._new = design.model_copy(deep=True)

    def redo(self) -> None:
        self._document.replace_design(self._new)

    def undo(self) -> None:
        self._document.replace_design(self._old)
