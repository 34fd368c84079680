"""``DesignDocument``: the design being edited, its undo stack, and the only API that changes it.

Every edit goes through an undo command (``studio.models.editor_commands``) whose ``redo``/``undo`` call
one of the mutation methods below; widgets never call them directly (Orange's ``document/commands.py``)::

    document = DesignDocument(catalogue, design)
    document.undo_stack().push(AddEntry(document, "input", 0, ChainEntry(type="RegexFilter")))
    document.undo_stack().undo()

Mutations, and the signals they emit (facts, past tense; an ``*_about_to_be_*`` signal comes first wherever an
item model has to call ``begin*Rows`` before the data changes):

=====================================  ======================================================================
``insert_entry(lane, index, entry)``   ``entry_about_to_be_inserted(lane, index)``, ``entry_inserted(lane, index)``
``remove_entry(uid)``                  ``entry_about_to_be_removed(lane, index)``, ``entry_removed(lane, index)``
``move_entry(uid, lane, index)``       ``entry_about_to_be_moved(from_lane, from_index, to_lane, to_index)``,
                                       ``entry_moved(...)`` — ``index`` is the entry's final position
``set_enabled(uid, enabled)``          ``entry_changed(uid)``
``set_options(uid, options)``          ``entry_changed(uid)``
``set_setting(name, value)``           ``settings_changed(name)`` — ``name`` is a field of ``AgentDesign`` or
                                       ``model.<field>`` of its ``ModelConfig``
``replace_design(design)``             ``design_about_to_be_replaced()``, ``design_replaced()``
=====================================  ======================================================================

``modified_changed(bool)`` follows the undo stack's clean state. The catalogue answers what fits where:
``can_place(type_name, lane)`` is ``None`` when the type may go in the lane, else the reason, ready to show.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError, to_jsonable_python
from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QUndoStack

from processors.builtin.base import BuiltinProcessor, InvalidOptionsError
from processors.builtin.plugin_options import (
    check_declared_options,
    check_undeclared_options,
    declared_defaults,
    takes_undeclared_options,
    undeclared_problem,
)
from processors.pipeline.processor import LANE_HOOKS
from studio.design.agent_design import LANES, AgentDesign, ChainEntry, Lane, ModelConfig, explain_option_error
from studio.error_texts import error_text, option_problem_text, problem_text, validation_text
from studio.i18n import translate
from studio.i18n.processor_texts import name_of
from studio.texts.problems import shown_problem
from studio.texts.translator import QT_TRANSLATE_NOOP

__all__ = [
    "SETTINGS",
    "CatalogueLike",
    "CatalogueRecord",
    "DesignDocument",
    "not_in_catalogue",
    "option_place",
    "place_words",
]

#: The agent-level settings ``set_setting`` accepts (chains change through the entry methods).
SETTINGS: tuple[str, ...] = (
    "name",
    "instructions",
    "tools",
    "mcp_servers",
    "max_processor_retries",
    "max_steps",
    *(f"model.{field}" for field in ModelConfig.model_fields),
)


class CatalogueRecord(Protocol):
    """What the editor reads from one catalogue record (``processors.builtin.registry.ProcessorType``)."""

    type_name: str
    name: str
    description: str
    hooks: Sequence[str]
    lanes: Sequence[str]
    needs_model: bool
    options_schema: Mapping[str, Any]
    cls: type[Any]


class CatalogueLike(Protocol):
    """What the editor needs from a catalogue (``processors.builtin.registry.Catalogue``): its records by type."""

    @property
    def types(self) -> Mapping[str, Any]: ...


class DesignDocument(QObject):
    """The ``AgentDesign`` being edited, its ``QUndoStack``, and the catalogue it is checked against.

    ``design()`` and ``chain(lane)`` return the live objects for reading: never change them outside this
    class's mutation methods (which are called by undo commands only).
    """

    #: An entry is about to appear at ``index`` of ``lane``.
    entry_about_to_be_inserted = Signal(str, int)
    #: An entry appeared at ``index`` of ``lane``.
    entry_inserted = Signal(str, int)
    #: The entry at ``index`` of ``lane`` is about to go.
    entry_about_to_be_removed = Signal(str, int)
    #: The entry that was at ``index`` of ``lane`` is gone.
    entry_removed = Signal(str, int)
    #: An entry is about to move from (lane, index) to (lane, final index).
    entry_about_to_be_moved = Signal(str, int, str, int)
    #: An entry moved from (lane, index) to (lane, final index).
    entry_moved = Signal(str, int, str, int)
    #: An entry's options or enabled flag changed (by uid).
    entry_changed = Signal(str)
    #: An agent-level setting changed (``"name"``, ``"model.temperature"``, ...).
    settings_changed = Signal(str)
    #: The whole design is about to be swapped for another.
    design_about_to_be_replaced = Signal()
    #: The whole design was swapped for another.
    design_replaced = Signal()
    #: The catalogue was swapped (a processors folder was reloaded): names, lanes and schemas may differ.
    catalogue_changed = Signal()
    #: The design differs (True) or no longer differs (False) from the last saved state.
    modified_changed = Signal(bool)

    def __init__(
        self, catalogue: CatalogueLike, design: AgentDesign | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._catalogue = catalogue
        self._design = design.model_copy(deep=True) if design is not None else AgentDesign()
        self._undo_stack = QUndoStack(self)
        self._undo_stack.cleanChanged.connect(self._on_undo_stack_clean_changed)

    # ------------------------------------------------------------------------------------------ reading
    def design(self) -> AgentDesign:
        """The live design (read it; change it only through undo commands)."""
        return self._design

    def snapshot(self) -> AgentDesign:
        """A deep copy of the design, safe to keep or save while editing goes on."""
        return self._design.model_copy(deep=True)

    def chain(self, lane: str) -> list[ChainEntry]:
        """The live list of entries of ``lane`` (read-only by convention)."""
        return self._design.chain(_lane(lane))

    def entry(self, uid: str) -> ChainEntry | None:
        found = self._design.find(uid)
        return found[2] if found else None

    def locate(self, uid: str) -> tuple[Lane, int] | None:
        """Where the entry ``uid`` is: ``(lane, index)``, or None."""
        found = self._design.find(uid)
        return (found[0], found[1]) if found else None

    def setting(self, name: str) -> Any:
        owner, field = self._setting_owner(name)
        return copy.deepcopy(getattr(owner, field))

    def undo_stack(self) -> QUndoStack:
        return self._undo_stack

    def is_modified(self) -> bool:
        return not self._undo_stack.isClean()

    def mark_saved(self) -> None:
        """The current state is what is on disk: clears ``is_modified()``."""
        self._undo_stack.setClean()

    def open_design(self, design: AgentDesign) -> None:
        """Start editing another design: replaced, undo history cleared, not modified. (Not an edit.)"""
        self.replace_design(design)
        self._undo_stack.clear()
        self._undo_stack.setClean()

    # ---------------------------------------------------------------------------------------- catalogue
    def catalogue(self) -> CatalogueLike:
        return self._catalogue

    def record(self, type_name: str) -> Any:
        """The catalogue record of ``type_name``, or None when the catalogue does not have it."""
        return self._catalogue.types.get(type_name)

    def display_name(self, type_name: str) -> str:
        """The type's name as the palette shows it, in the studio's language (a built-in's is translated)."""
        record = self.record(type_name)
        if record is None:
            return type_name
        return name_of(record)

    def fitting_lanes(self, type_name: str) -> tuple[Lane, ...]:
        record = self.record(type_name)
        if record is None:
            return ()
        return tuple(lane for lane in LANES if lane in record.lanes)

    def can_place(self, type_name: str, lane: str) -> str | None:
        """None when ``type_name`` may go in ``lane``; otherwise the reason, as a sentence for the user."""
        if lane not in LANES:
            return translate("ChainEditor", "There is no {lane!r} lane: the lanes are {lanes}").format(
                lane=lane, lanes=", ".join(LANES)
            )
        record = self.record(type_name)
        if record is None:
            return not_in_catalogue(type_name)
        if lane in record.lanes:
            return None
        runs = _or_list(LANE_HOOKS[lane])
        hooks = list(record.hooks)
        word = lane_word(lane)
        if not hooks:
            return translate(
                "ChainEditor", "{type} cannot go in the {lane} lane: it implements no processor hook"
            ).format(type=type_name, lane=word)
        return translate(
            "ChainEditor",
            "{type} cannot go in the {lane} lane: it implements {hooks}; the {lane} lane runs {runs}",
        ).format(type=type_name, lane=word, hooks=", ".join(hooks), runs=runs)

    def option_errors(self, type_name: str, options: Mapping[str, Any]) -> dict[str, str]:
        """Validate ``options`` with the type's ``Options`` model (or what a plain processor declares): field path →
        message in the studio's language, translated by the problem's code ({} when valid)."""
        record = self.record(type_name)
        if record is None:
            return {"options": not_in_catalogue(type_name)}
        try:
            _check_options(record, options)
        except InvalidOptionsError as error:
            return {
                path: _shown_option_error(options, path, message, error.codes.get(path), self._catalogue.types.values())
                for path, message in error.errors.items()
            }
        return {}

    def undeclared_options(self, type_name: str) -> str:
        """What to declare, in the studio's language, when the type is a plug-in that takes options without saying
        what they are (the form has no field for them); "" otherwise. The build refuses options its constructor
        cannot take in the same words."""
        record = self.record(type_name)
        if record is None or _options_class(record) is not None:
            return ""
        if not takes_undeclared_options(getattr(record, "cls", None)):
            return ""
        return shown_problem(undeclared_problem(type_name))

    def option_defaults(self, type_name: str) -> dict[str, Any]:
        """The JSON form of each optional field's default (``default_factory`` ones included)."""
        record = self.record(type_name)
        if record is None:
            return {}
        processor_class = _options_class(record)
        if processor_class is None:  # a plain processor: the defaults its declared options have, if any
            return declared_defaults(getattr(record, "cls", None))
        defaults: dict[str, Any] = {}
        for name, info in processor_class.Options.model_fields.items():
            if info.is_required():
                continue
            try:
                defaults[name] = to_jsonable_python(info.get_default(call_default_factory=True, validated_data={}))
            except PydanticSerializationError:  # a default with no JSON form (an object) is not shown
                continue
        return defaults

    # ----------------------------------------------------------------------------------------- mutation
    def insert_entry(self, lane: str, index: int, entry: ChainEntry) -> None:
        chain = self.chain(lane)
        if self._design.find(entry.uid) is not None:
            raise ValueError(f"an entry with uid {entry.uid!r} is already in the design")
        if not 0 <= index <= len(chain):
            raise IndexError(f"cannot insert at {index} of the {lane} lane ({len(chain)} entries)")
        self.entry_about_to_be_inserted.emit(lane, index)
        chain.insert(index, entry.model_copy(deep=True))
        self.entry_inserted.emit(lane, index)

    def remove_entry(self, uid: str) -> ChainEntry:
        """Remove the entry ``uid``; returns (a copy of) what was removed."""
        lane, index, entry = self._find(uid)
        self.entry_about_to_be_removed.emit(lane, index)
        del self.chain(lane)[index]
        self.entry_removed.emit(lane, index)
        return entry.model_copy(deep=True)

    def move_entry(self, uid: str, lane: str, index: int) -> None:
        """Move the entry ``uid`` so that it ends at position ``index`` of ``lane``."""
        from_lane, from_index, entry = self._find(uid)
        target = self.chain(lane)
        limit = len(target) - (1 if lane == from_lane else 0)
        if not 0 <= index <= limit:
            raise IndexError(f"cannot move to {index} of the {lane} lane (0..{limit})")
        if (lane, index) == (from_lane, from_index):
            return
        self.entry_about_to_be_moved.emit(from_lane, from_index, lane, index)
        del self.chain(from_lane)[from_index]
        target.insert(index, entry)
        self.entry_moved.emit(from_lane, from_index, lane, index)

    def set_enabled(self, uid: str, enabled: bool) -> None:
        entry = self._find(uid)[2]
        if entry.enabled == enabled:
            return
        entry.enabled = bool(enabled)
        self.entry_changed.emit(uid)

    def set_options(self, uid: str, options: Mapping[str, Any]) -> None:
        entry = self._find(uid)[2]
        entry.options = copy.deepcopy(dict(options))
        self.entry_changed.emit(uid)

    def setting_error(self, name: str, value: Any) -> str | None:
        """None when ``value`` is valid for the setting ``name``; else the message to show next to the field."""
        try:
            owner, field = self._setting_owner(name)
            _validated(owner, field, value)
        except (KeyError, ValueError) as error:
            return _message(error)
        return None

    def set_setting(self, name: str, value: Any) -> None:
        """Set an agent-level setting (validated by the design's pydantic model; ``ValueError`` if invalid)."""
        owner, field = self._setting_owner(name)
        validated = _validated(owner, field, value)
        if getattr(owner, field) == validated:
            return
        setattr(owner, field, validated)
        self.settings_changed.emit(name)

    def replace_design(self, design: AgentDesign) -> None:
        self.design_about_to_be_replaced.emit()
        self._design = design.model_copy(deep=True)
        self.design_replaced.emit()

    # ---------------------------------------------------------------------------------------- internals
    def _find(self, uid: str) -> tuple[Lane, int, ChainEntry]:
        found = self._design.find(uid)
        if found is None:
            raise KeyError(f"no entry with uid {uid!r} in the design")
        return found

    def _setting_owner(self, name: str) -> tuple[BaseModel, str]:
        if name not in SETTINGS:
            raise KeyError(f"{name!r} is not an agent setting (one of: {', '.join(SETTINGS)})")
        if name.startswith("model."):
            return self._design.model, name.removeprefix("model.")
        return self._design, name

    @Slot(bool)
    def _on_undo_stack_clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)


def _lane(lane: str) -> Lane:
    if lane not in LANES:
        raise ValueError(f"unknown lane {lane!r}: the lanes are {', '.join(LANES)}")
    return lane


def _validated(owner: BaseModel, field: str, value: Any) -> Any:
    """``value`` as the owner's pydantic model would store it in ``field``; ``ValueError`` if it is invalid."""
    data = owner.model_dump()
    data[field] = copy.deepcopy(value)
    try:
        validated = type(owner).model_validate(data)
    except ValidationError as error:
        messages = [item["msg"].removeprefix("Value error, ") for item in error.errors()]
        raise SettingRefused("; ".join(messages), error) from None
    call_settings = getattr(validated, "call_settings", None)
    if callable(call_settings):
        call_settings()  # ModelConfig refuses secrets and reserved names in ``extra`` (a ValueError)
    return getattr(validated, field)


class SettingRefused(ValueError):
    """A setting's value the design's pydantic model refused (``validation``: pydantic's error, by type and code)."""

    def __init__(self, message: str, validation: ValidationError) -> None:
        super().__init__(message)
        self.validation = validation


def _message(error: Exception) -> str:
    """What the settings show beside a refused field, in the studio's language (by codes, not by English)."""
    if isinstance(error, SettingRefused):
        return validation_text(error.validation)
    return error_text(error) if isinstance(error, ValueError) else (str(error.args[0]) if error.args else str(error))


_LANE_WORDS = {
    "input": QT_TRANSLATE_NOOP("LaneWords", "input"),
    "output": QT_TRANSLATE_NOOP("LaneWords", "output"),
    "error": QT_TRANSLATE_NOOP("LaneWords", "error"),
}


def not_in_catalogue(type_name: str) -> str:
    """The one sentence, in the studio's language, for an entry whose type the catalogue does not have (the lane
    check, the options' check, the form and the chain's tooltip all say it)."""
    return translate(
        "ChainEditor", "{type} is not in the catalogue (is the plug-in or file that provides it installed?)"
    ).format(type=type_name)


def option_place(path: str) -> str:
    """Where in an option a problem is, in front of it (the form, under the field's own label): ``"0.pattern"`` →
    ``"item 1, pattern: "``; ``""`` → ``""``. The separators are the reader's (Chinese has its own comma and
    colon)."""
    if not path:
        return ""
    return translate("OptionsForm", ", ").join(place_words(path)) + translate("OptionsForm", ": ")


def place_words(path: str) -> list[str]:
    """The parts of a place inside an option as the form names them: ``"0.pattern"`` → ``["item 1", "pattern"]``."""
    return [
        translate("OptionsForm", "item {number}").format(number=int(part) + 1) if part.isdigit() else part
        for part in path.split(".")
        if part
    ]


def lane_word(lane: str) -> str:
    """A lane as a sentence names it ("the error lane"), in the studio's language."""
    return translate("LaneWords", _LANE_WORDS[lane]) if lane in _LANE_WORDS else lane


def _or_list(items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    return translate("ChainEditor", "{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _check_options(record: Any, options: Mapping[str, Any]) -> None:
    """Raise ``InvalidOptionsError`` when the record's type refuses ``options``: a built-in's ``Options`` model, or
    what a plain processor (a plug-in, a user file) declares — when it declares nothing, whether its constructor
    can take them."""
    processor_class = _options_class(record)
    if processor_class is not None:
        processor_class.parse_options(dict(options))
        return
    cls = getattr(record, "cls", None)
    if cls is not None:
        type_name = str(getattr(record, "type_name", "") or cls.__name__)
        check_declared_options(type_name, cls, options)
        check_undeclared_options(type_name, cls, options)


def _options_class(record: Any) -> type[BuiltinProcessor] | None:
    """The record's processor class when it validates options (a ``BuiltinProcessor``), else None."""
    cls = getattr(record, "cls", None)
    return cls if isinstance(cls, type) and issubclass(cls, BuiltinProcessor) else None


def _shown_option_error(
    options: Mapping[str, Any],
    path: str,
    message: str,
    code: tuple[str, dict[str, Any]] | None,
    catalogue: Iterable[Any],
) -> str:
    """An option's problem as the form and the chain show it: translated by its code."""
    explained = explain_option_error(options, path, message)
    if explained != message:  # a JSON field kept as typed: the studio's own sentence about it
        return problem_text(explained)
    kind, params = code if code is not None else (None, None)
    return option_problem_text(message, kind, params, catalogue)
