"""``OptionsForm``: the options of the selected chain entry, as a form generated from its type's schema.

The fields and their editors come from :mod:`studio.views.option_fields` (check boxes, combo boxes, line edits,
one-per-line lists, JSON text areas). The form is validated as you type: the type's ``Options`` model validates
the whole form's values and each field's message shows in a red label right under it
(``options.<field>.error``). What the user typed becomes one :class:`~studio.models.editor_commands.EditOptions`
command per field (debounced, :data:`COMMIT_DELAY_MS`; consecutive edits of one field merge into one undo step),
valid or not: an invalid value is kept in the design as typed (a line edit's text that is no number as its text),
so the chain marks the entry invalid and the studio refuses to run it until it is fixed, rather than running
silently with the previous value. Only a JSON area's text that is no JSON at all stays in the form. Only values
that differ from the defaults are stored in the design.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontDatabase, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.i18n.processor_texts import description_of, option_help, option_label
from studio.keys.endpoints import endpoint_host
from studio.models.design_document import DesignDocument, not_in_catalogue, option_place
from studio.models.editor_commands import EditOptions
from studio.views.option_fields import FieldEditor, InvalidText, ServiceEndpointEditor, field_specs, make_editor

__all__ = ["COMMIT_DELAY_MS", "OptionsForm"]

#: How long typing must pause before a valid value is committed.
COMMIT_DELAY_MS = 300

_ERROR_STYLE = "QLabel { color: #c0392b; }"
_HINT_STYLE = "QLabel { color: palette(placeholder-text); }"


# ---------------------------------------------------------------------------------------------- form
class OptionsForm(QScrollArea):
    """The selected entry's options; follows the document (undo, redo, removal) and never edits it directly."""

    #: A guard service's API key the user entered with its endpoint's "Key…" button: (service, endpoint, key).
    #: The window hands it to the workspace, which keeps it in the keyring for that endpoint only.
    service_key_entered = Signal(str, str, str)
    #: ``(service, endpoint) -> masked key or ""``: what a service's endpoint shows under its "Key…" button (the
    #: window sets the workspace's key gate here; unset, nothing is shown).
    key_shown: Callable[[str, str], str] | None = None

    def __init__(self, document: DesignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("options_form")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._document = document
        self._uid = ""
        self._type = ""
        self._editors: dict[str, FieldEditor] = {}
        self._errors: dict[str, QLabel] = {}
        self._values: dict[str, Any] = {}
        self._parse_errors: dict[str, str] = {}  # text that is not a value at all (not a number, not JSON)
        self._loading = False
        self._pending_field: str | None = None
        self._commit_timer = QTimer(self)
        self._commit_timer.setSingleShot(True)
        self._commit_timer.setInterval(COMMIT_DELAY_MS)
        self._commit_timer.timeout.connect(self._on_commit_timer_timeout)
        document.entry_changed.connect(self._on_document_entry_changed)
        document.entry_removed.connect(self._on_document_entry_removed)
        document.design_replaced.connect(self._on_document_design_replaced)
        document.catalogue_changed.connect(self._on_document_catalogue_changed)
        self._rebuild()

    # ------------------------------------------------------------------------------------------- public
    def uid(self) -> str:
        """The entry shown, or "" when none is."""
        return self._uid

    @Slot(str)
    def show_entry(self, uid: str) -> None:
        """Show the options of the entry ``uid`` ("" shows nothing). A pending valid edit is committed first."""
        self.flush()
        self._uid = uid if uid and self._document.entry(uid) is not None else ""
        self._rebuild()

    def editor(self, name: str) -> QWidget:
        """The widget of the option ``name`` (object name ``options.<name>``)."""
        return self._editors[name].widget

    def error_text(self, name: str) -> str:
        """The message shown under the option ``name`` ("" when it is valid); ``"options"`` for the whole form."""
        label = self._errors.get(name)
        return label.text() if label is not None and not label.isHidden() else ""

    def has_errors(self) -> bool:
        return any(not label.isHidden() for label in self._errors.values())

    def flush(self) -> None:
        """Commit a valid edit still waiting for typing to pause."""
        if self._commit_timer.isActive():
            self._commit_timer.stop()
            self._commit()

    # -------------------------------------------------------------------------------------------- build
    def _rebuild(self) -> None:
        self._commit_timer.stop()
        self._pending_field = None
        self._editors.clear()
        self._errors.clear()
        page = QWidget()
        page.setObjectName("options_form.page")
        layout = QVBoxLayout(page)
        layout.setSpacing(6)
        entry = self._document.entry(self._uid) if self._uid else None
        if entry is None:
            self._uid = self._type = ""
            layout.addWidget(_hint(translate("OptionsForm", "Select a processor in a chain to edit its options.")))
        else:
            self._type = entry.type
            self._build_fields(layout)
        layout.addStretch(1)
        self.setWidget(page)

    def _build_fields(self, layout: QVBoxLayout) -> None:
        record = self._document.record(self._type)
        # At 200 % text size on a laptop the title in one line ("Prompt injection detector  PromptInjectionDetector")
        # was wider than the pane, which scrolled sideways: the name wraps, the type's name is elided in the middle.
        title = QLabel(f"<b>{_escape(self._document.display_name(self._type))}</b>")
        title.setObjectName("options.title")
        title.setWordWrap(True)
        type_name = TypeNameLabel(self._type)
        type_name.setObjectName("options.type")
        heading = QHBoxLayout()
        heading.setSpacing(12)
        heading.addWidget(title, 0, Qt.AlignmentFlag.AlignTop)
        heading.addWidget(type_name, 1, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(heading)
        if record is None:
            layout.addWidget(_hint(not_in_catalogue(self._type)))
            return
        description = description_of(record)
        if description:
            layout.addWidget(_hint(description))
        if getattr(record, "needs_model", False):
            layout.addWidget(_hint(translate("OptionsForm", "Needs a model to judge with (set its model option).")))
        general = _error_label("options", translate("OptionsForm", "Options"))
        self._errors["options"] = general
        layout.addWidget(general)
        specs = [
            dataclasses.replace(
                spec,
                title=option_label(record, spec.name, spec.title),
                description=option_help(record, spec.name, spec.description),
            )
            for spec in field_specs(record.options_schema, self._document.option_defaults(self._type))
        ]
        undeclared = self._document.undeclared_options(self._type)
        if undeclared:  # a plug-in's options the form cannot know: what to declare (the error, when they are refused)
            entry = self._document.entry(self._uid)
            if entry is None or not self._document.option_errors(self._type, entry.options):
                hint = _hint(undeclared)
                hint.setObjectName("options.undeclared")
                layout.addWidget(hint)
        elif not specs:
            layout.addWidget(_hint(translate("OptionsForm", "This processor has no options.")))
        for spec in specs:
            editor = make_editor(spec, self._on_editor_changed)
            if isinstance(editor, ServiceEndpointEditor):
                editor.on_key_requested = self._ask_service_key
                editor.key_shown = self.key_shown
            self._editors[spec.name] = editor
            block = QVBoxLayout()
            block.setSpacing(2)
            if spec.kind != "bool":
                label = QLabel(spec.title)
                label.setBuddy(editor.widget)
                block.addWidget(label)
            block.addWidget(editor.widget)
            if spec.description:
                block.addWidget(_hint(spec.description, small=True))
            error = _error_label(spec.name, spec.title)
            self._errors[spec.name] = error
            block.addWidget(error)
            layout.addLayout(block)
        self._load()

    def _ask_service_key(self, service: str, endpoint: str) -> None:
        """Ask for the API key of ``service`` at ``endpoint`` (a masked line; the dialog says where it will go)."""
        dialog = QInputDialog(self)
        dialog.setObjectName("options.service_key_dialog")
        dialog.setWindowTitle(translate("OptionsForm", "API key"))
        dialog.setLabelText(
            translate(
                "OptionsForm",
                "The API key to send to {host} (saved in the system keyring for this endpoint only; empty removes it):",
            ).format(host=endpoint_host(endpoint))
        )
        dialog.setTextEchoMode(QLineEdit.EchoMode.Password)
        dialog.textValueSelected.connect(lambda key: self._key_entered(service, endpoint, key.strip()))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _key_entered(self, service: str, endpoint: str, key: str) -> None:
        self.service_key_entered.emit(service, endpoint, key)
        for editor in self._editors.values():
            if isinstance(editor, ServiceEndpointEditor):
                editor.refresh_key()

    def _load(self) -> None:
        """Fill the editors from the entry (defaults where it sets nothing) and show any stored problem."""
        entry = self._document.entry(self._uid)
        if entry is None:
            return
        self._values = dict(entry.options)
        self._parse_errors.clear()
        defaults = self._document.option_defaults(self._type)
        self._loading = True
        try:
            for name, editor in self._editors.items():
                editor.set_value(self._values.get(name, defaults.get(name)))
            self._update_choices()
        finally:
            self._loading = False
        self._show_errors(self._document.option_errors(self._type, self._values))

    # ------------------------------------------------------------------------------------- validation
    def _on_editor_changed(self, name: str) -> None:
        if self._loading or not self._uid:
            return
        editor = self._editors[name]
        self._parse_errors.pop(name, None)
        try:
            value = editor.value()
        except InvalidText as invalid:
            self._parse_errors[name] = str(invalid)
            raw = editor.raw_text()
            if raw is not None:  # kept as typed, so the design says what the form says
                self._values[name] = raw
        else:
            if editor.spec.has_default and value == editor.spec.default:
                self._values.pop(name, None)  # back to the default: store nothing
            else:
                self._values[name] = value
            self._update_choices(name)
        errors = {
            path: message
            for path, message in self._document.option_errors(self._type, self._values).items()
            if path.partition(".")[0] not in self._parse_errors  # a field whose text is no value says only that
        }
        errors.update(self._parse_errors)
        self._show_errors(errors)
        if name in self._parse_errors and editor.raw_text() is None:
            self._commit_timer.stop()  # text that is no JSON at all has no value to keep: it stays in the form
            self._pending_field = None
            return
        if self._pending_field not in (None, name):
            self._commit()  # another field's edit is waiting: it is its own undo step
        self._pending_field = name
        if editor.immediate:
            self._commit()
        else:
            self._commit_timer.start()

    def _update_choices(self, changed: str | None = None) -> None:
        """Editors whose choices come from another option (a model's labels from its folder) follow its value."""
        defaults = self._document.option_defaults(self._type)
        for editor in self._editors.values():
            source = editor.depends_on
            if source and (changed is None or changed == source):
                loading, self._loading = self._loading, True
                try:
                    editor.update_choices(self._values.get(source, defaults.get(source)))
                finally:
                    self._loading = loading

    def _show_errors(self, errors: Mapping[str, str]) -> None:
        by_field: dict[str, list[str]] = {}
        for path, message in errors.items():
            name, _, rest = path.partition(".")
            if name not in self._editors:
                name, rest = "options", path if path != "options" else ""
            by_field.setdefault(name, []).append(f"{option_place(rest)}{message}")
        for name, label in self._errors.items():
            messages = by_field.get(name)
            label.setText("\n".join(messages) if messages else "")
            label.setVisible(bool(messages))

    def _commit(self) -> None:
        field_name, self._pending_field = self._pending_field, None
        entry = self._document.entry(self._uid) if self._uid else None
        if entry is None or entry.options == self._values:
            return
        if any(self._editors[name].raw_text() is None for name in self._parse_errors):
            return
        self._document.undo_stack().push(EditOptions(self._document, self._uid, self._values, field=field_name))

    # ------------------------------------------------------------------------------- document signals
    @Slot()
    def _on_commit_timer_timeout(self) -> None:
        self._commit()

    @Slot(str)
    def _on_document_entry_changed(self, uid: str) -> None:
        entry = self._document.entry(uid)
        if uid != self._uid or entry is None or entry.options == self._values:
            return
        self._commit_timer.stop()  # undo/redo (or another view) changed the options: show them
        self._pending_field = None
        self._load()

    @Slot(str, int)
    def _on_document_entry_removed(self, lane: str, index: int) -> None:
        if self._uid and self._document.entry(self._uid) is None:
            self._uid = ""
            self._rebuild()

    @Slot()
    def _on_document_design_replaced(self) -> None:
        self._uid = self._uid if self._uid and self._document.entry(self._uid) is not None else ""
        self._rebuild()

    @Slot()
    def _on_document_catalogue_changed(self) -> None:
        self._rebuild()


def _hint(text: str, *, small: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet(_HINT_STYLE)
    if small:
        font = label.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        label.setFont(font)
    return label


def _error_label(name: str, title: str) -> QLabel:
    label = QLabel()
    label.setObjectName(f"options.{name}.error")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet(_ERROR_STYLE)
    label.setAccessibleName(translate("OptionsForm", "{name} error").format(name=title))
    label.hide()
    return label


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class TypeNameLabel(QLabel):
    """A processor type's name in code letters, elided in the middle where the pane is narrower ("Prompt…Detector");
    the whole name in its tooltip and in :meth:`text`."""

    def __init__(self, type_name: str, parent: QWidget | None = None) -> None:
        super().__init__(type_name, parent)
        code = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        code.setPointSizeF(self.font().pointSizeF())  # the text size the user chose, in code letters
        self.setFont(code)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setToolTip(type_name)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(self.fontMetrics().horizontalAdvance("Ab…yz"), hint.height())

    def shown_text(self) -> str:
        """The text as drawn at the label's width."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, self.contentsRect().width())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(
            self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), self.shown_text()
        )
        painter.end()
