"""``AgentSettingsView``: the agent-level settings of a design (object name ``agent_settings``).

Name, instructions, model (provider/model id, API base for local servers, temperature, max tokens, top p, other
settings as JSON), tools (built-in demo tools and user tool files: the window passes the names in with
:meth:`AgentSettingsView.set_available_tools`), ``max_processor_retries`` and ``max_steps``.

Every change is an :class:`~studio.models.editor_commands.EditSetting` command (consecutive edits of one
setting merge into one undo step). A value the design refuses is not committed; its message shows under the
field (``settings.<name>.error``). The view follows the document, so undo and redo show up here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QLabel,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from processors.models.providers import provider_for, providers
from studio.i18n import translate
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import EditSetting
from studio.views.mcp_servers_view import McpServersView

__all__ = ["AgentSettingsView", "model_suggestions"]

_W = TypeVar("_W", bound=QWidget)


def model_suggestions() -> list[str]:
    """What the model box offers: each registered provider's suggested ids, in the registry's order (any
    "provider/model" id can be typed)."""
    return [model for provider in providers() for model in provider.suggested_models]


_ERROR_STYLE = "QLabel { color: #c0392b; }"


class AgentSettingsView(QWidget):
    """A form over the design's agent-level settings; each change is pushed as an undo command."""

    def __init__(self, document: DesignDocument, tools: Iterable[str] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agent_settings")
        self._document = document
        self._loading = False
        self._errors: dict[str, QLabel] = {}
        self._available_tools: list[str] = list(tools)
        #: True while a tick in the tools list is being committed (from inside the ticked item's setData).
        self._ticking = False
        # Rebuilds the tools list once the event loop is back after a tick (see _on_document_settings_changed); a
        # child, so it dies with the view and keeps nothing alive.
        self._tools_reload = QTimer(self)
        self._tools_reload.setSingleShot(True)
        self._tools_reload.setInterval(0)

        self.name = _named(QLineEdit(), "settings.name")
        self.instructions = _named(QPlainTextEdit(), "settings.instructions")
        self.instructions.setPlaceholderText(translate("AgentSettings", "What the agent is for, how it should answer…"))
        self.instructions.setTabChangesFocus(True)
        self.instructions.setMinimumHeight(80)
        self.model = _named(QComboBox(), "settings.model")
        self.model.setEditable(True)
        self.model.addItems(model_suggestions())
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model.setToolTip(
            translate(
                "AgentSettings", "A litellm model id, provider/model (e.g. openai/gpt-4o-mini), or demo (offline)"
            )
        )
        self.api_base = _named(QLineEdit(), "settings.api_base")
        self.api_base.setClearButtonEnabled(True)
        self.temperature = _optional_double(0.0, 2.0, 0.1, "settings.temperature")
        self.top_p = _optional_double(0.0, 1.0, 0.05, "settings.top_p")
        self.max_tokens = _named(QSpinBox(), "settings.max_tokens")
        self.max_tokens.setRange(0, 1_000_000)  # 0 shows "provider default"
        self.max_tokens.setSpecialValueText(translate("AgentSettings", "provider default"))
        self.extra = _named(QPlainTextEdit(), "settings.extra")
        self.extra.setPlaceholderText(translate("AgentSettings", 'Other model settings as JSON, e.g. {"seed": 7}'))
        self.extra.setTabChangesFocus(True)
        self.extra.setFixedHeight(56)
        self.tools_model = QStandardItemModel(self)
        self.tools = _named(QListView(), "settings.tools")
        self.tools.setModel(self.tools_model)
        self.tools.setMaximumHeight(110)
        self.tools.setMinimumHeight(4 * self.tools.fontMetrics().lineSpacing() + 8)  # four tools, never one row
        #: The design's MCP servers and their tools (its own undoable edits).
        self.mcp_servers = McpServersView(document)
        self.max_processor_retries = _named(QSpinBox(), "settings.max_processor_retries")
        self.max_processor_retries.setRange(-1, 50)  # -1 shows "not set" (the runtime's default applies)
        self.max_processor_retries.setSpecialValueText(translate("AgentSettings", "not set"))
        self.max_steps = _named(QSpinBox(), "settings.max_steps")
        self.max_steps.setRange(1, 100)

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._add_row(form, translate("AgentSettings", "&Name"), self.name, "name")
        self._add_row(form, translate("AgentSettings", "&Instructions"), self.instructions, "instructions")
        self._add_row(form, translate("AgentSettings", "&Model"), self.model, "model.model")
        self._add_row(form, translate("AgentSettings", "API &base"), self.api_base, "model.api_base")
        self._add_row(form, translate("AgentSettings", "&Temperature"), self.temperature, "model.temperature")
        self._add_row(form, translate("AgentSettings", "Max to&kens"), self.max_tokens, "model.max_tokens")
        self._add_row(form, translate("AgentSettings", "Top &p"), self.top_p, "model.top_p")
        self._add_row(form, translate("AgentSettings", "Other model settings"), self.extra, "model.extra")
        self._add_row(form, translate("AgentSettings", "Too&ls"), self.tools, "tools")
        self._add_row(form, translate("AgentSettings", "MCP ser&vers"), self.mcp_servers, "mcp_servers")
        self._add_row(
            form, translate("AgentSettings", "Processor &retries"), self.max_processor_retries, "max_processor_retries"
        )
        self._add_row(form, translate("AgentSettings", "Max &steps"), self.max_steps, "max_steps")
        # The form scrolls rather than squeezing its fields on a short screen (1280x720: the MCP buttons were
        # slivers and the tool lists one row tall).
        content = QWidget()
        content.setObjectName("agent_settings.content")
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 4, 0)
        content_layout.addLayout(form)
        content_layout.addStretch(1)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("agent_settings.scroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll_area)

        self.name.textEdited.connect(self._on_name_text_edited)
        self.instructions.textChanged.connect(self._on_instructions_text_changed)
        self.model.currentTextChanged.connect(self._on_model_current_text_changed)
        self.api_base.textChanged.connect(self._on_api_base_text_changed)
        self.temperature.valueChanged.connect(self._on_temperature_value_changed)
        self.top_p.valueChanged.connect(self._on_top_p_value_changed)
        self.max_tokens.valueChanged.connect(self._on_max_tokens_value_changed)
        self.extra.textChanged.connect(self._on_extra_text_changed)
        self.tools_model.itemChanged.connect(self._on_tools_model_item_changed)
        self._tools_reload.timeout.connect(self._on_tools_reload_timeout)
        self.max_processor_retries.valueChanged.connect(self._on_max_processor_retries_value_changed)
        self.max_steps.valueChanged.connect(self._on_max_steps_value_changed)
        document.settings_changed.connect(self._on_document_settings_changed)
        document.design_replaced.connect(self._on_document_design_replaced)
        self._load()

    # ------------------------------------------------------------------------------------------- public
    def set_available_tools(self, names: Iterable[str]) -> None:
        """The tools the user can pick: demo tool names and ``file.py:function`` names of user tool files."""
        self._available_tools = list(names)
        self._load_tools()

    def error_text(self, name: str) -> str:
        """The message under the setting ``name`` ("" when none shows)."""
        label = self._errors.get(name)
        return label.text() if label is not None and not label.isHidden() else ""

    # ---------------------------------------------------------------------------------------- internals
    def _add_row(self, form: QFormLayout, label: str, widget: QWidget, name: str) -> None:
        error = _named(QLabel(), f"settings.{name}.error")
        error.setWordWrap(True)
        error.setStyleSheet(_ERROR_STYLE)
        error.hide()
        self._errors[name] = error
        field = QWidget()
        column = QVBoxLayout(field)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(widget)
        column.addWidget(error)
        caption = QLabel(label)
        caption.setBuddy(widget)
        form.addRow(caption, field)

    def _edit(self, name: str, value: Any, *, merge: bool = True) -> None:
        """Push ``value`` for the setting ``name`` if the design accepts it; else show why under the field."""
        if self._loading:
            return
        message = self._document.setting_error(name, value)
        self._show_error(name, message)
        if message is None and self._document.setting(name) != value:
            self._document.undo_stack().push(EditSetting(self._document, name, value, merge=merge))

    def _show_error(self, name: str, message: str | None) -> None:
        label = self._errors[name]
        label.setText(message or "")  # setting_error's text is in the studio's language already
        label.setVisible(bool(message))

    def _load(self, name: str | None = None) -> None:
        """Show the document's value of ``name`` (all settings when None), leaving fields that agree alone."""
        self._loading = True
        try:
            for setting, show in self._loaders().items():
                if name is None or name == setting:
                    show(self._document.setting(setting))
                    self._show_error(setting, None)
        finally:
            self._loading = False
        self._update_api_base_hint()

    def _loaders(self) -> dict[str, Callable[[Any], None]]:
        return {
            "name": lambda v: _set_text(self.name, v),
            "instructions": lambda v: _set_plain(self.instructions, v),
            "model.model": lambda v: _set_combo_text(self.model, v),
            "model.api_base": lambda v: _set_text(self.api_base, v or ""),
            "model.temperature": lambda v: self.temperature.setValue(self.temperature.minimum() if v is None else v),
            "model.top_p": lambda v: self.top_p.setValue(self.top_p.minimum() if v is None else v),
            "model.max_tokens": lambda v: self.max_tokens.setValue(v or 0),
            "model.extra": lambda v: _set_extra(self.extra, v),
            "tools": lambda v: self._load_tools(),
            "max_processor_retries": lambda v: self.max_processor_retries.setValue(-1 if v is None else v),
            "max_steps": lambda v: self.max_steps.setValue(v),
        }

    def _load_tools(self) -> None:
        chosen = list(self._document.setting("tools"))
        names = self._available_tools + [name for name in chosen if name not in self._available_tools]
        loading, self._loading = self._loading, True
        try:
            self.tools_model.clear()
            for name in names:
                item = QStandardItem(name if name in self._available_tools else f"{name} (not found)")
                item.setData(name, Qt.ItemDataRole.UserRole)
                item.setCheckable(True)
                item.setEditable(False)
                item.setCheckState(Qt.CheckState.Checked if name in chosen else Qt.CheckState.Unchecked)
                self.tools_model.appendRow(item)
        finally:
            self._loading = loading

    def _checked_tools(self) -> list[str]:
        return [
            self.tools_model.item(row).data(Qt.ItemDataRole.UserRole)
            for row in range(self.tools_model.rowCount())
            if self.tools_model.item(row).checkState() == Qt.CheckState.Checked
        ]

    def _update_api_base_hint(self) -> None:
        hint = provider_for(self.model.currentText()).api_base_hint
        self.api_base.setPlaceholderText(
            translate("AgentSettings", "{url} for a local server").format(url=hint)
            if hint
            else translate("AgentSettings", "Local or self-hosted servers only")  # whole in the form at 1280x720
        )
        self.api_base.setToolTip(
            translate("AgentSettings", "Only for local or self-hosted servers (Ollama, LM Studio)")
        )

    # ------------------------------------------------------------------------------------- widget slots
    @Slot(str)
    def _on_name_text_edited(self, text: str) -> None:
        self._edit("name", text)

    @Slot()
    def _on_instructions_text_changed(self) -> None:
        self._edit("instructions", self.instructions.toPlainText())

    @Slot(str)
    def _on_model_current_text_changed(self, text: str) -> None:
        self._update_api_base_hint()
        self._edit("model.model", text.strip())

    @Slot(str)
    def _on_api_base_text_changed(self, text: str) -> None:
        self._edit("model.api_base", text.strip() or None)

    @Slot(float)
    def _on_temperature_value_changed(self, value: float) -> None:
        self._edit("model.temperature", None if value < 0 else round(value, 2))

    @Slot(float)
    def _on_top_p_value_changed(self, value: float) -> None:
        self._edit("model.top_p", None if value < 0 else round(value, 2))

    @Slot(int)
    def _on_max_tokens_value_changed(self, value: int) -> None:
        self._edit("model.max_tokens", value or None)

    @Slot()
    def _on_extra_text_changed(self) -> None:
        if self._loading:
            return
        text = self.extra.toPlainText().strip()
        try:
            value = json.loads(text) if text else {}
        except ValueError as error:
            self._show_error("model.extra", translate("AgentSettings", "Not valid JSON: {error}").format(error=error))
            return
        if not isinstance(value, dict):
            self._show_error("model.extra", translate("AgentSettings", 'Expected a JSON object, e.g. {"seed": 7}'))
            return
        self._edit("model.extra", value)

    @Slot(QStandardItem)
    def _on_tools_model_item_changed(self, item: QStandardItem) -> None:
        self._ticking = True
        try:
            self._edit("tools", self._checked_tools(), merge=False)
        finally:
            self._ticking = False

    @Slot()
    def _on_tools_reload_timeout(self) -> None:
        self._load("tools")

    @Slot(int)
    def _on_max_processor_retries_value_changed(self, value: int) -> None:
        self._edit("max_processor_retries", None if value < 0 else value)

    @Slot(int)
    def _on_max_steps_value_changed(self, value: int) -> None:
        self._edit("max_steps", value)

    # ----------------------------------------------------------------------------------- document slots
    @Slot(str)
    def _on_document_settings_changed(self, name: str) -> None:
        if name == "tools" and self._ticking:
            # A tick is committed from inside the ticked item's own setData (itemChanged): rebuilding the list now
            # would delete that item under Qt's feet (a crash, as in the MCP tree). Rebuild once the loop is back.
            self._tools_reload.start()
        else:
            self._load(name)

    @Slot()
    def _on_document_design_replaced(self) -> None:
        self._load()


def _named(widget: _W, name: str) -> _W:
    widget.setObjectName(name)
    return widget


def _optional_double(low: float, high: float, step: float, name: str) -> QDoubleSpinBox:
    """A spin box whose value just below ``low`` means "not set" (shown as "provider default")."""
    box = _named(QDoubleSpinBox(), name)
    box.setDecimals(2)
    box.setSingleStep(step)
    box.setRange(low - step, high)
    box.setSpecialValueText(translate("AgentSettings", "provider default"))
    return box


def _set_text(edit: QLineEdit, value: str) -> None:
    if edit.text() != value:
        edit.setText(value)


def _set_combo_text(combo: QComboBox, value: str) -> None:
    if combo.currentText() != value:
        combo.setCurrentText(value)


def _set_plain(edit: QPlainTextEdit, value: str) -> None:
    if edit.toPlainText() != value:
        edit.setPlainText(value)


def _set_extra(edit: QPlainTextEdit, value: dict[str, Any]) -> None:
    try:
        current = json.loads(edit.toPlainText() or "{}")
    except ValueError:
        current = None
    if current != value:
        edit.setPlainText(json.dumps(value) if value else "")
