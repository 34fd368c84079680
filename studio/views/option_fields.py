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
====================================  ================================================================
"""

from __future__ import annotations

import inspect
import json
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QGridLayout, QLineEdit, QPlainTextEdit, QWidget

from studio.i18n import translate
from studio.texts import QT_TRANSLATE_NOOP

__all__ = ["OPTION_VALUES", "FieldEditor", "FieldSpec", "InvalidText", "field_specs", "make_editor", "value_label"]

_MULTILINE_NAMES = ("instructions", "prompt", "template", "message")
#: Untyped options whose values are usually JSON documents: a text area rather than a line.
_STRUCTURED_NAMES = ("schema", "value", "data")


#: The built-ins' option values a reader sees in a combo box or beside a check box, marked for translation (context
#: ``OptionValue``). The wire value stays what the design saves; a value not listed here (a judge preset, a
#: format, a plug-in's value) is shown as it is.
OPTION_VALUES = (
    # strategies: what a guard does when it finds something
    QT_TRANSLATE_NOOP("OptionValue", "block"),
    QT_TRANSLATE_NOOP("OptionValue", "warn"),
    QT_TRANSLATE_NOOP("OptionValue", "filter"),
    QT_TRANSLATE_NOOP("OptionValue", "redact"),
    QT_TRANSLATE_NOOP("OptionValue", "rewrite"),
    QT_TRANSLATE_NOOP("OptionValue", "detect"),
    QT_TRANSLATE_NOOP("OptionValue", "translate"),
    QT_TRANSLATE_NOOP("OptionValue", "truncate"),
    QT_TRANSLATE_NOOP("OptionValue", "abort"),
    QT_TRANSLATE_NOOP("OptionValue", "retry"),
    QT_TRANSLATE_NOOP("OptionValue", "fallback"),
    QT_TRANSLATE_NOOP("OptionValue", "fail-open"),
    QT_TRANSLATE_NOOP("OptionValue", "fail-closed"),
    # redaction methods
    QT_TRANSLATE_NOOP("OptionValue", "mask"),
    QT_TRANSLATE_NOOP("OptionValue", "hash"),
    QT_TRANSLATE_NOOP("OptionValue", "remove"),
    QT_TRANSLATE_NOOP("OptionValue", "placeholder"),
    # scopes, phases, modes
    QT_TRANSLATE_NOOP("OptionValue", "run"),
    QT_TRANSLATE_NOOP("OptionValue", "thread"),
    QT_TRANSLATE_NOOP("OptionValue", "resource"),
    QT_TRANSLATE_NOOP("OptionValue", "global"),
    QT_TRANSLATE_NOOP("OptionValue", "all"),
    QT_TRANSLATE_NOOP("OptionValue", "input"),
    QT_TRANSLATE_NOOP("OptionValue", "output"),
    QT_TRANSLATE_NOOP("OptionValue", "always"),
    QT_TRANSLATE_NOOP("OptionValue", "hybrid"),
    QT_TRANSLATE_NOOP("OptionValue", "cumulative"),
    QT_TRANSLATE_NOOP("OptionValue", "part"),
    QT_TRANSLATE_NOOP("OptionValue", "best-fit"),
    QT_TRANSLATE_NOOP("OptionValue", "contiguous"),
    QT_TRANSLATE_NOOP("OptionValue", "memory-only"),
    # message roles
    QT_TRANSLATE_NOOP("OptionValue", "user"),
    QT_TRANSLATE_NOOP("OptionValue", "assistant"),
    QT_TRANSLATE_NOOP("OptionValue", "system"),
    QT_TRANSLATE_NOOP("OptionValue", "tool"),
    # regex filter presets
    QT_TRANSLATE_NOOP("OptionValue", "pii"),
    QT_TRANSLATE_NOOP("OptionValue", "secrets"),
    QT_TRANSLATE_NOOP("OptionValue", "urls"),
    # PII types
    QT_TRANSLATE_NOOP("OptionValue", "email"),
    QT_TRANSLATE_NOOP("OptionValue", "phone"),
    QT_TRANSLATE_NOOP("OptionValue", "credit-card"),
    QT_TRANSLATE_NOOP("OptionValue", "ssn"),
    QT_TRANSLATE_NOOP("OptionValue", "api-key"),
    QT_TRANSLATE_NOOP("OptionValue", "ip-address"),
    QT_TRANSLATE_NOOP("OptionValue", "url"),
    QT_TRANSLATE_NOOP("OptionValue", "uuid"),
    QT_TRANSLATE_NOOP("OptionValue", "crypto-wallet"),
    QT_TRANSLATE_NOOP("OptionValue", "iban"),
    QT_TRANSLATE_NOOP("OptionValue", "cn-resident-id"),
    QT_TRANSLATE_NOOP("OptionValue", "tw-national-id"),
    QT_TRANSLATE_NOOP("OptionValue", "hk-id"),
    QT_TRANSLATE_NOOP("OptionValue", "name"),
    QT_TRANSLATE_NOOP("OptionValue", "address"),
    QT_TRANSLATE_NOOP("OptionValue", "date-of-birth"),
    # prompt injection types
    QT_TRANSLATE_NOOP("OptionValue", "injection"),
    QT_TRANSLATE_NOOP("OptionValue", "jailbreak"),
    QT_TRANSLATE_NOOP("OptionValue", "role-manipulation"),
    QT_TRANSLATE_NOOP("OptionValue", "system-override"),
    QT_TRANSLATE_NOOP("OptionValue", "data-exfiltration"),
    QT_TRANSLATE_NOOP("OptionValue", "tool-exfiltration"),
    # moderation categories
    QT_TRANSLATE_NOOP("OptionValue", "hate"),
    QT_TRANSLATE_NOOP("OptionValue", "hate/threatening"),
    QT_TRANSLATE_NOOP("OptionValue", "harassment"),
    QT_TRANSLATE_NOOP("OptionValue", "harassment/threatening"),
    QT_TRANSLATE_NOOP("OptionValue", "self-harm"),
    QT_TRANSLATE_NOOP("OptionValue", "self-harm/intent"),
    QT_TRANSLATE_NOOP("OptionValue", "self-harm/instructions"),
    QT_TRANSLATE_NOOP("OptionValue", "sexual"),
    QT_TRANSLATE_NOOP("OptionValue", "sexual/minors"),
    QT_TRANSLATE_NOOP("OptionValue", "violence"),
    QT_TRANSLATE_NOOP("OptionValue", "violence/graphic"),
)


def value_label(value: Any) -> str:
    """An option value as the form shows it: translated when it is one of :data:`OPTION_VALUES`, else as it is."""
    return translate("OptionValue", value) if isinstance(value, str) else str(value)


# ------------------------------------------------------------------------------------------ field specs
@dataclass(frozen=True)
class FieldSpec:
    """What the form needs to know about one option, read from the JSON schema."""

    name: str
    title: str
    kind: str  # bool, enum, int, number, text, multiline, enum_list, string_list, json, any
    description: str = ""
    nullable: bool = False
    required: bool = False
    has_default: bool = False
    default: Any = None
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def field_specs(schema: Mapping[str, Any], defaults: Mapping[str, Any] | None = None) -> list[FieldSpec]:
    """The fields of an ``Options`` JSON schema, in declaration order. ``defaults`` adds factory defaults."""
    defaults = dict(defaults or {})
    definitions = schema.get("$defs", {})
    required = set(schema.get("required", ()))
    specs = []
    for name, raw in schema.get("properties", {}).items():
        prop, nullable = _resolve(raw, definitions)
        has_default = "default" in raw or name in defaults
        default = raw.get("default", defaults.get(name))
        specs.append(
            FieldSpec(
                name=name,
                title=raw.get("title") or prop.get("title") or name.replace("_", " ").capitalize(),
                kind=_kind(name, prop),
                description=raw.get("description") or prop.get("description") or "",
                nullable=nullable,
                required=name in required,
                has_default=has_default,
                default=default,
                choices=tuple(_choices(prop.get("items", {}) if prop.get("type") == "array" else prop)),
                minimum=prop.get("minimum", prop.get("exclusiveMinimum")),
                maximum=prop.get("maximum", prop.get("exclusiveMaximum")),
            )
        )
    return specs


def _resolve(prop: Mapping[str, Any], definitions: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """Follow ``$ref``/``allOf``; unwrap ``anyOf [X, null]``. Returns the schema and whether null is allowed."""
    prop = dict(prop)
    nullable = False
    if "$ref" in prop:
        prop = {
            **definitions.get(prop["$ref"].rsplit("/", 1)[-1], {}),
            **{k: v for k, v in prop.items() if k != "$ref"},
        }
    if "allOf" in prop and len(prop["allOf"]) == 1:
        inner, inner_nullable = _resolve(prop["allOf"][0], definitions)
        prop = {**inner, **{k: v for k, v in prop.items() if k != "allOf"}}
        nullable |= inner_nullable
    if "anyOf" in prop:
        options = [option for option in prop["anyOf"] if option.get("type") != "null"]
        nullable = len(options) < len(prop["anyOf"])
        if len(options) == 1:
            inner, _ = _resolve(options[0], definitions)
            prop = {**inner, **{k: v for k, v in prop.items() if k != "anyOf"}}
        else:
            prop = {k: v for k, v in prop.items() if k != "anyOf"} | {"type": "json"}
    return prop, nullable


def _choices(prop: Mapping[str, Any]) -> list[Any]:
    if "enum" in prop:
        return list(prop["enum"])
    if "const" in prop:
        return [prop["const"]]
    return []


def _kind(name: str, prop: Mapping[str, Any]) -> str:
    kind = prop.get("type")
    if _choices(prop) and kind != "array":
        return "enum"
    if kind == "boolean":
        return "bool"
    if kind == "integer":
        return "int"
    if kind == "number":
        return "number"
    if kind == "string":
        long_text = any(word in name for word in _MULTILINE_NAMES) or prop.get("maxLength", 0) > 1000
        return "multiline" if long_text else "text"
    if kind == "array":
        items = prop.get("items", {})
        if items.get("type") == "string" and _choices(items):
            return "enum_list"
        if items.get("type") == "string" and "$ref" not in items:
            return "string_list"
        return "json"
    if kind is None and not prop.get("properties"):
        return "any_text" if any(word in name for word in _STRUCTURED_NAMES) else "any"
    return "json"


# ------------------------------------------------------------------------------------------- editors
class InvalidText(Exception):
    """A widget's text cannot be turned into a value (not a number, not JSON): the message to show."""


class FieldEditor:
    """One field's widget: reads and writes JSON values, reports changes through ``on_change``."""

    immediate = False  # commit at once (check boxes, combo boxes) rather than after typing pauses

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

    @property
    def line_edit(self) -> QLineEdit:
        return self._edit


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
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(2)
        columns = 2 if len(self.spec.choices) > 4 else 1
        self._boxes: dict[Any, QCheckBox] = {}
        for position, choice in enumerate(self.spec.choices):
            check = QCheckBox(value_label(choice))
            check.setObjectName(f"options.{self.spec.name}.{choice}")
            if check.text() != str(choice):
                check.setToolTip(str(choice))
            check.toggled.connect(self.changed)
            grid.addWidget(check, position // columns, position % columns)
            self._boxes[choice] = check
        return box

    def value(self) -> Any:
        return [choice for choice, check in self._boxes.items() if check.isChecked()]

    def set_value(self, value: Any) -> None:
        chosen = set(value or [])
        for choice, check in self._boxes.items():
            check.setChecked(choice in chosen)


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
    return value if isinstance(value, str) else json.dumps(value)


def _json_example(spec: FieldSpec) -> str:
    return '[{"name": "...", "pattern": "..."}]' if spec.name == "rules" else "{} or []"
