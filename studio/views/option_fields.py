"""Option fields generated from an ``Options`` JSON schema: what each field is, and the widget that edits it.

:func:`field_specs` reads ``Options.model_json_schema()`` (``$ref``/``$defs``, ``anyOf [X, null]``, enums,
ranges) into :class:`FieldSpec` objects; :func:`make_editor` builds the editor for one, which reads and writes
JSON values and raises :class:`InvalidText` for text that is no value at all (not a number, not JSON):

====================================  ================================================================
schema                                editor
====================================  ================================================================
boolean                               check box
enum / Literal                        combo box (a nullable one has a "(none)" item)
integer, number                       line edit (empty = the default), so any typed value can be judged
string                                line edit; a text area for instructions, prompts, templates
array of enum strings                 a check box per value
array of strings                      a text area, one item per line
anything else (objects, rules, ...)   a JSON text area
no type (``Any``)                     line edit (a text area for schemas and values): JSON when the text
                                      starts with { or [, else the text; empty = none
string with ``x-folder``              line edit and a "Choose…" button opening a folder dialog
string with ``x-model-labels: NAME``  editable combo box listing the labels of the model in the folder
string with ``x-service-key: NAME``   line edit (the service's endpoint) and a "Key…" button: the form asks for the
                                      service's API key, saved for that endpoint only
                                      that option NAME names (read from its config.json)
====================================  ================================================================

An editor whose choices depend on another option has ``depends_on`` (that option's name); the form calls its
``update_choices(value)`` with that option's value whenever it changes.
"""

from __future__ import annotations

import inspect
import json
import math
import weakref
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from processors.builtin.classifier_folder import ClassifierModelError, read_labels
from studio.error_texts import error_text
from studio.i18n import translate
from studio.views.option_specs import FieldSpec, field_specs
from studio.views.option_values import value_label

__all__ = [
    "FieldEditor",
    "FieldSpec",
    "InvalidText",
    "ServiceEndpointEditor",
    "field_specs",
    "make_editor",
    "value_label",
]


# ------------------------------------------------------------------------------------------- editors
class InvalidText(Exception):
    """A widget's text cannot be turned into a value (not a number, not JSON): the message to show."""


class FieldEditor:
    """One field's widget: reads and writes JSON values, reports changes through ``on_change``."""

    immediate = False  # commit at once (check boxes, combo boxes) rather than after typing pauses
    depends_on = ""  # the option whose value gives this editor its choices (see update_choices)

    def __init__(self, spec: FieldSpec, on_change: Callable[[str], None]) -> None:
        self.spec = spec
        # Weakly: the form holds its editors, so a strong reference back would be a cycle keeping the form (and
        # the document it edits) for the garbage collector to break in any order.
        self._on_change = weakref.WeakMethod(on_change) if inspect.ismethod(on_change) else lambda: on_change
        self.widget = self._build()
        self.widget.setObjectName(f"options.{spec.name}")
        self.widget.setAccessibleName(spec.title)
        self.widget.setToolTip(spec.description)

    def _build(self) -> QWidget:
        raise NotImplementedError

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def raw_text(self) -> str | None:
        """The text to keep when :meth:`value` raises :class:`InvalidText` (None: there is nothing to keep)."""
        return None

    def update_choices(self, value: Any) -> None:
        """The option named by ``depends_on`` now has ``value``: offer the choices it gives."""

    def changed(self, *_args: Any) -> None:
        callback = self._on_change()
        if callback is not None:
            callback(self.spec.name)

    def _empty_value(self) -> Any:
        if self.spec.nullable or self.spec.kind in ("any", "any_text"):
            return None
        if self.spec.has_default:
            return self.spec.default
        raise InvalidText(translate("OptionsForm", "Required"))


class _BoolEditor(FieldEditor):
    immediate = True

    def _build(self) -> QWidget:
        self._box = QCheckBox(self.spec.title)
        self._box.toggled.connect(self.changed)
        return self._box

    def value(self) -> Any:
        return self._box.isChecked()

    def set_value(self, value: Any) -> None:
        self._box.setChecked(bool(value))


class _EnumEditor(FieldEditor):
    immediate = True

    def _build(self) -> QWidget:
        self._combo = QComboBox()
        if self.spec.nullable:
            self._combo.addItem(translate("OptionsForm", "(none)"), None)
        for choice in self.spec.choices:
            label = value_label(choice)
            self._combo.addItem(label, choice)
            if label != str(choice):  # the value the design saves, for a reader of its JSON or the docs
                self._combo.setItemData(self._combo.count() - 1, str(choice), Qt.ItemDataRole.ToolTipRole)
        self._combo.currentIndexChanged.connect(self.changed)
        return self._combo

    def value(self) -> Any:
        return self._combo.currentData()

    def set_value(self, value: Any) -> None:
        index = self._combo.findData(value)
        if index < 0:  # a stored value the schema does not list: show it, so validation can say why
            self._combo.addItem(str(value), value)
            index = self._combo.count() - 1
        self._combo.setCurrentIndex(index)


class _LineEditor(FieldEditor):
    """Text, numbers and untyped values in a line edit."""

    def _build(self) -> QWidget:
        self._edit = QLineEdit()
        hint = _range_hint(self.spec)
        if self.spec.has_default and self.spec.default not in (None, ""):
            shown = translate("OptionsForm", "default: {value}").format(value=_show(self.spec.default))
            hint = shown + (f" ({hint})" if hint else "")
        self._edit.setPlaceholderText(hint)
        self._edit.textEdited.connect(self.changed)
        return self._edit

    def value(self) -> Any:
        text = self._edit.text()
        if self.spec.kind in ("int", "number", "any") and not text.strip():
            return self._empty_value()
        if self.spec.kind == "any":
            return _parse_any(text)
        if self.spec.kind == "int":
            try:
                return int(text.strip())
            except ValueError:
                raise InvalidText(translate("OptionsForm", "Enter a whole number")) from None
        if self.spec.kind == "number":
            try:
                return float(text.strip())
            except ValueError:
                raise InvalidText(translate("OptionsForm", "Enter a number")) from None
        if not text and self.spec.nullable:
            return None
        return text

    def set_value(self, value: Any) -> None:
        self._edit.setText("" if value is None else value if isinstance(value, str) else _show(value))

    def raw_text(self) -> str | None:
        return self._edit.text()  # shown back as it is by set_value, so validation can say why


class _TextAreaEditor(FieldEditor):
    """Multi-line text, one-per-line lists and JSON."""

    def _build(self) -> QWidget:
        self._text = QPlainTextEdit()
        self._text.setTabChangesFocus(True)
        self._text.setFixedHeight(96 if self.spec.kind in ("json", "any_text") else 72)
        if self.spec.kind == "string_list":
            self._text.setPlaceholderText(translate("OptionsForm", "One item per line"))
        elif self.spec.kind == "json":
            self._text.setPlaceholderText("JSON, e.g. " + _json_example(self.spec))
        self._text.textChanged.connect(self.changed)
        return self._text

    def value(self) -> Any:
        text = self._text.toPlainText()
        if self.spec.kind == "string_list":
            return [line.strip() for line in text.splitlines() if line.strip()]
        if self.spec.kind == "any_text":
            return _parse_any(text) if text.strip() else self._empty_value()
        if self.spec.kind == "json":
            if not text.strip():
                return self._empty_value()
            try:
                return json.loads(text)
            except ValueError as error:
                raise InvalidText(translate("OptionsForm", "Not valid JSON: {error}").format(error=error)) from None
        if not text and self.spec.nullable:
            return None
        return text

    def raw_text(self) -> str | None:
        """A JSON field's text that is no JSON is kept as typed (a string where an object or a list belongs), so
        the entry is marked invalid and runs are refused until it is fixed, and nothing typed is lost. An untyped
        field keeps nothing: any string is a valid value there."""
        return self._text.toPlainText() if self.spec.kind == "json" else None

    def set_value(self, value: Any) -> None:
        if self.spec.kind == "string_list":
            text = "\n".join(str(item) for item in value or [])
        elif self.spec.kind == "json" and isinstance(value, str):
            text = value  # text kept as typed because it was no JSON: shown back as it is
        elif self.spec.kind == "json" or (self.spec.kind == "any_text" and not isinstance(value, str)):
            text = "" if value is None or value == [] else json.dumps(value, indent=2, ensure_ascii=False)
        else:
            text = value or ""
        self._text.setPlainText(text)


class _ChoicesEditor(FieldEditor):
    """An array of enum strings: one check box per allowed value."""

    immediate = True

    def _build(self) -> QWidget:
        self._boxes: dict[Any, QCheckBox] = {}
        for choice in self.spec.choices:
            check = QCheckBox(value_label(choice))
            check.setObjectName(f"options.{self.spec.name}.{choice}")
            if check.text() != str(choice):
                check.setToolTip(str(choice))
            check.toggled.connect(self.changed)
            self._boxes[choice] = check
        return _ChoiceBoxes(list(self._boxes.values()), 2 if len(self.spec.choices) > 4 else 1)

    def value(self) -> Any:
        return [choice for choice, check in self._boxes.items() if check.isChecked()]

    def set_value(self, value: Any) -> None:
        chosen = set(value or [])
        for choice, check in self._boxes.items():
            check.setChecked(choice in chosen)


class _ChoiceBoxes(QWidget):
    """Check boxes in ``columns`` columns where they fit side by side, else in one: at 200 % text size on a laptop
    the prompt-injection detector's two columns of detection types were wider than the options pane, which then
    scrolled sideways and cut its description at the edge."""

    def __init__(self, boxes: list[QCheckBox], columns: int) -> None:
        super().__init__()
        self._boxes = boxes
        self._most = columns
        self._columns = 0
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(12)
        self._grid.setVerticalSpacing(2)
        self._arrange(columns)

    def columns(self) -> int:
        return self._columns

    def minimumSizeHint(self) -> QSize:
        """As narrow as one column: the boxes go under each other rather than widen the form."""
        hint = super().minimumSizeHint()
        return QSize(max((box.minimumSizeHint().width() for box in self._boxes), default=0), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(self._most if event.size().width() >= self._width_for(self._most) else 1)

    def _width_for(self, columns: int) -> int:
        widths = [box.sizeHint().width() for box in self._boxes]
        per_column = [max(widths[column::columns], default=0) for column in range(columns)]
        return sum(per_column) + self._grid.horizontalSpacing() * (columns - 1)

    def _arrange(self, columns: int) -> None:
        if columns == self._columns:
            return
        self._columns = columns
        for box in self._boxes:
            self._grid.removeWidget(box)
        for position, box in enumerate(self._boxes):
            self._grid.addWidget(box, position // columns, position % columns)


class _FolderEditor(_LineEditor):
    """A folder: typed, pasted, or chosen with the folder dialog."""

    def _build(self) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(super()._build(), 1)
        self._edit.setObjectName(f"options.{self.spec.name}.path")
        self._edit.setPlaceholderText(translate("OptionsForm", "A folder on this computer"))
        self._choose = QPushButton(translate("OptionsForm", "Choose…"))
        self._choose.setObjectName(f"options.{self.spec.name}.choose")
        self._choose.setAccessibleName(translate("OptionsForm", "Choose the folder"))
        self._choose.clicked.connect(self._on_choose_clicked)
        row.addWidget(self._choose)
        return box

    def _on_choose_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.widget, self.spec.title, self._edit.text())
        if folder:
            self._edit.setText(folder)
            self.changed()


class ServiceEndpointEditor(_LineEditor):
    """A guard service's endpoint, a "Key…" button asking for the key to save for it, and which key (masked) the
    endpoint has. The editor only says the button was pressed (``on_key_requested(service, endpoint)``) and asks
    ``key_shown(service, endpoint)`` what to show: the form asks for the key, the workspace keeps it."""

    on_key_requested: Callable[[str, str], None] | None = None
    key_shown: Callable[[str, str], str] | None = None

    def _build(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        row = QHBoxLayout()
        row.addWidget(super()._build(), 1)
        self._edit.setObjectName(f"options.{self.spec.name}.url")
        self._key = QPushButton(translate("OptionsForm", "Key…"))
        self._key.setObjectName(f"options.{self.spec.name}.key")
        self._key.setAccessibleName(translate("OptionsForm", "Save the API key for this endpoint"))
        self._key.setToolTip(
            translate(
                "OptionsForm",
                "Save this service's API key in the system keyring. It is sent to this endpoint only, never "
                "stored in the design.",
            )
        )
        self._key.clicked.connect(self._on_key_clicked)
        row.addWidget(self._key)
        column.addLayout(row)
        self._key_state = QLabel()
        self._key_state.setObjectName(f"options.{self.spec.name}.key_state")
        column.addWidget(self._key_state)
        self._edit.editingFinished.connect(self.refresh_key)  # not at each keystroke: the keyring is asked
        return box

    def set_value(self, value: Any) -> None:
        super().set_value(value)
        self.refresh_key()

    @property
    def service(self) -> str:
        """The name the key is saved under (``x-service-key``)."""
        return str(self.spec.extra.get("x-service-key", ""))

    def endpoint(self) -> str:
        """The endpoint typed, else the option's default."""
        return self._edit.text().strip() or str(self.spec.default or "")

    def refresh_key(self, *_args: Any) -> None:
        """Say which key the endpoint shown has (nothing when the form was not told how to ask)."""
        shown = self.key_shown(self.service, self.endpoint()) if self.key_shown is not None else None
        self._key_state.setVisible(shown is not None)
        if shown is not None:
            self._key_state.setText(
                translate("OptionsForm", "Key for this endpoint: {key}").format(key=shown)
                if shown
                else translate("OptionsForm", "No key saved for this endpoint")
            )

    def _on_key_clicked(self) -> None:
        if self.on_key_requested is not None:
            self.on_key_requested(self.service, self.endpoint())


class _ModelLabelEditor(FieldEditor):
    """One of the labels of a model folder's ``config.json`` (typing any other text is allowed: validation and the
    run say whether the model has it). Reading the config is one small file (at most 1 MB), not the model."""

    immediate = True

    def _build(self) -> QWidget:
        self.depends_on = str(self.spec.extra.get("x-model-labels", ""))
        self._combo = QComboBox()
        self._combo.setEditable(True)
        self._combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self._combo.currentTextChanged.connect(self.changed)
        self._problem = ""
        return self._combo

    def labels(self) -> list[str]:
        return [self._combo.itemText(index) for index in range(self._combo.count())]

    def problem(self) -> str:
        """Why the folder gave no labels ("" when it did)."""
        return self._problem

    def update_choices(self, value: Any) -> None:
        try:
            labels: tuple[str, ...] = read_labels(value) if isinstance(value, str) and value.strip() else ()
            self._problem = ""
        except ClassifierModelError as error:
            labels, self._problem = (), error_text(error)
        text = self._combo.currentText()
        blocked = self._combo.blockSignals(True)
        try:
            self._combo.clear()
            self._combo.addItems(list(labels))
            self._combo.setEditText(text)
        finally:
            self._combo.blockSignals(blocked)
        tip = translate("OptionsForm", "The model's labels: {labels}").format(labels=", ".join(labels))
        self._combo.setToolTip("\n".join(filter(None, (self.spec.description, tip if labels else self._problem))))
        line = self._combo.lineEdit()
        if line is not None:  # what the folder lacks, where the labels would be
            line.setPlaceholderText(self._problem)

    def value(self) -> Any:
        return self._combo.currentText().strip()

    def set_value(self, value: Any) -> None:
        self._combo.setEditText("" if value is None else str(value))


_EDITORS: dict[str, type[FieldEditor]] = {
    "bool": _BoolEditor,
    "enum": _EnumEditor,
    "int": _LineEditor,
    "number": _LineEditor,
    "text": _LineEditor,
    "any": _LineEditor,
    "any_text": _TextAreaEditor,
    "multiline": _TextAreaEditor,
    "string_list": _TextAreaEditor,
    "json": _TextAreaEditor,
    "enum_list": _ChoicesEditor,
    "folder": _FolderEditor,
    "model_label": _ModelLabelEditor,
    "service_endpoint": ServiceEndpointEditor,
}


def make_editor(spec: FieldSpec, on_change: Callable[[str], None]) -> FieldEditor:
    """The editor of ``spec``; ``on_change(name)`` is called whenever the user changes its value."""
    return _EDITORS[spec.kind](spec, on_change)


# ------------------------------------------------------------------------------------------- helpers
def _parse_any(text: str) -> Any:
    """An untyped option: JSON when it looks like an object or a list, else the text itself."""
    if text.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(text)
        except ValueError as error:
            raise InvalidText(translate("OptionsForm", "Not valid JSON: {error}").format(error=error)) from None
    return text.strip()


def _range_hint(spec: FieldSpec) -> str:
    if spec.kind not in ("int", "number"):
        return ""
    low, high = spec.minimum, spec.maximum
    if low is not None and high is not None:
        return translate("OptionsForm", "{low} to {high}").format(low=_show(low), high=_show(high))
    if low is not None:
        return translate("OptionsForm", "at least {low}").format(low=_show(low))
    if high is not None:
        return translate("OptionsForm", "at most {high}").format(high=_show(high))
    return ""


def _show(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    if isinstance(value, float) and math.isfinite(value):  # 0.00002, not JSON's 2e-05 (a tiny budget, a rate)
        return format(Decimal(repr(value)), "f")
    return value if isinstance(value, str) else json.dumps(value)


def _json_example(spec: FieldSpec) -> str:
    return '[{"name": "...", "pattern": "..."}]' if spec.name == "rules" else "{} or []"
