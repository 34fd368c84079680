"""The settings dialog: API keys per provider (kept in the OS keyring), each saved for one endpoint, and a "Test
connection" button.

A key goes only to the endpoint it was saved for (the provider's own, or the base URL typed next to it) and to
endpoints the user allowed for it; the dialog shows both, and the connection test follows the same rule.

"Find local servers" asks localhost for Ollama, LM Studio, llama.cpp server and vLLM (off the UI thread) and lists
their models; "Use" sets the design's model and API base in one undoable step. A local server gets no stored key:
keys stay bound to the endpoint they were saved for."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from processors.models.local_servers import LocalServerScan, find_local_servers
from processors.models.providers import (
    DEFAULT_PROVIDER,
    default_hosted_model,
    provider_name,
    provider_named,
    providers,
)
from studio import i18n
from studio.controllers.connection_check import ConnectionCheck, ConnectionTester, ConnectionVerdict
from studio.controllers.local_server_search import LocalServerFinder, LocalServerSearch
from studio.i18n.processor_texts import provider_label
from studio.keys.endpoints import EndpointError, default_endpoint, endpoint_host
from studio.keys.secrets import SecretStore, mask
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import ReplaceDesign
from studio.texts.problems import shown_problem as local_server_line
from studio.views.language_picker import LanguagePicker
from studio.views.questions import DestructiveQuestion
from studio.views.screen_fit import ScreenFitScroll, open_at_content_size
from studio.views.traces_settings import TracesSettings

translate = i18n.translate


def fit_text(field: QLineEdit, text: str) -> None:
    """Make ``field`` at least as wide as ``text`` (its hint or its value) and its margins: the dialog grows to it,
    so a laptop's first look shows the whole endpoint rather than "…or the base U"."""
    field.setMinimumWidth(field.fontMetrics().horizontalAdvance(text) + 24)


class SettingsDialog(QDialog):
    """Opened with ``open()`` (never ``exec()`` on the qasync loop). Keys are saved as soon as "Save" is pressed."""

    #: A connection test finished, with its one-line verdict.
    connection_tested = Signal(str)
    #: A search for local model servers finished, with its one-line summary.
    local_servers_found = Signal(str)
    #: A language was picked (and kept for the next start): its Qt locale name.
    language_chosen = Signal(str)
    #: The user asked to restart now, to show the picked language.
    restart_requested = Signal()

    def __init__(
        self,
        secrets: SecretStore,
        tester: ConnectionTester,
        *,
        model_id: str | None = None,
        api_base: str | None = None,
        document: DesignDocument | None = None,
        find_servers: LocalServerFinder = find_local_servers,
        running_language: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._opened = False  # sized to its content on the first show only: later the user's size stays
        model_id = model_id or default_hosted_model()
        self.setObjectName("settings")
        self.setWindowTitle(translate("SettingsDialog", "Settings"))
        self._secrets = secrets
        #: "Test connection": the key, the call and the verdict (the dialog shows what it is given).
        self._connection = ConnectionCheck(secrets, tester, parent=self)
        self._connection.finished.connect(self._on_connection_finished)
        self._document = document
        #: "Find local servers": the search, off the dialog (the dialog shows what it finds).
        self._search = LocalServerSearch(find_servers, parent=self)
        self._search.finished.connect(self._on_search_finished)

        self.provider = QComboBox()
        self.provider.setObjectName("settings.provider")
        # The providers whose key the studio keeps, by the name keys are stored under (the registry says which).
        self.provider.addItems([known.name for known in providers() if known.offers_key])
        #: The chosen provider as people call it (its registered label, in the studio's language).
        self.provider_label = QLabel()
        self.provider_label.setObjectName("settings.provider_label")
        for index in range(self.provider.count()):
            label = provider_label(provider_named(self.provider.itemText(index)))
            self.provider.setItemData(index, label, Qt.ItemDataRole.ToolTipRole)
        self.key = QLineEdit()
        self.key.setObjectName("settings.key")
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText(translate("SettingsDialog", "Paste the API key"))
        self.key_endpoint = QLineEdit()
        self.key_endpoint.setObjectName("settings.key_endpoint")
        self.approved = QLabel()
        self.approved.setObjectName("settings.approved")
        self.approved.setWordWrap(True)
        self.forget = QPushButton(translate("SettingsDialog", "&Forget allowed servers"))
        self.forget.setObjectName("settings.forget")
        self.allow = QPushButton()
        self.allow.setObjectName("settings.allow")
        self.allow.hide()
        self.stored = QLabel()
        self.stored.setObjectName("settings.stored")
        self.save = QPushButton(translate("SettingsDialog", "&Save key"))
        self.save.setObjectName("settings.save")
        self.remove = QPushButton(translate("SettingsDialog", "&Remove"))
        self.remove.setObjectName("settings.remove")
        self.model = QLineEdit(model_id)
        self.model.setObjectName("settings.model")
        self.api_base = QLineEdit(api_base or "")
        self.api_base.setObjectName("settings.api_base")
        self.api_base.setPlaceholderText(
            translate("SettingsDialog", "e.g. http://localhost:11434 for Ollama (optional)")
        )
        self.test = QPushButton(translate("SettingsDialog", "&Test connection"))
        self.test.setObjectName("settings.test")
        self.verdict = QLabel()
        self.verdict.setObjectName("settings.verdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict.setMinimumHeight(2 * self.verdict.fontMetrics().lineSpacing())  # room for a two-line result
        self.find_local = QPushButton(translate("SettingsDialog", "Find &local servers"))
        self.find_local.setObjectName("settings.find_local")
        self.local_models = QComboBox()
        self.local_models.setObjectName("settings.local_models")
        # A long "server — model (host)" must not widen the dialog past a laptop's screen: the list shows it whole.
        self.local_models.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.local_models.setMinimumContentsLength(24)
        self.use_local = QPushButton(translate("SettingsDialog", "&Use"))
        self.use_local.setObjectName("settings.use_local")
        self.use_local.setToolTip(
            translate("SettingsDialog", "Set the design's model and API base to this local server's model")
        )
        self.local_status = QLabel()
        self.local_status.setObjectName("settings.local_status")
        self.local_status.setWordWrap(True)
        self.local_models.hide()
        self.use_local.hide()
        where = (
            translate("SettingsDialog", "Keys are stored in your system keyring.")
            if secrets.keyring_available
            else translate(
                "SettingsDialog",
                "No system keyring was found: keys are kept for this session only "
                "(never written to disk). You can also set the provider's environment variable, e.g. "
                "OPENAI_API_KEY.",
            )
        )
        self.keyring_note = QLabel(where)
        self.keyring_note.setObjectName("settings.keyring_note")
        self.keyring_note.setWordWrap(True)
        self.language = LanguagePicker(running_language or i18n.current_language())
        self.language.chosen.connect(self.language_chosen)
        self.language.restart_requested.connect(self.restart_requested)
        self.traces = TracesSettings()
        fit_text(self.traces.endpoint, self.traces.endpoint.text() or self.traces.endpoint.placeholderText())

        keys = QFormLayout()
        provider_row = QHBoxLayout()
        provider_row.addWidget(self.provider)
        provider_row.addWidget(self.provider_label, 1)
        keys.addRow(translate("SettingsDialog", "Provider"), provider_row)
        row = QHBoxLayout()
        row.addWidget(self.key, 1)
        row.addWidget(self.save)
        row.addWidget(self.remove)
        keys.addRow(translate("SettingsDialog", "API key"), row)
        keys.addRow(translate("SettingsDialog", "For endpoint"), self.key_endpoint)
        keys.addRow("", self.stored)
        allowed = QHBoxLayout()
        allowed.addWidget(self.approved, 1)
        allowed.addWidget(self.forget)
        keys.addRow("", allowed)
        connection = QFormLayout()
        connection.addRow(translate("SettingsDialog", "Model"), self.model)
        connection.addRow(translate("SettingsDialog", "API base"), self.api_base)
        local = QHBoxLayout()
        local.addWidget(self.find_local)
        local.addWidget(self.local_models, 1)
        local.addWidget(self.use_local)
        connection.addRow(translate("SettingsDialog", "Local servers"), local)
        connection.addRow("", self.local_status)
        connection.addRow("", self.test)
        connection.addRow("", self.verdict)
        connection.addRow("", self.allow)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        for button in (
            *buttons.buttons(),
            self.save,
            self.remove,
            self.test,
            self.forget,
            self.allow,
            self.find_local,
            self.use_local,
        ):
            if isinstance(button, QPushButton):
                button.setAutoDefault(False)  # Enter in the key field saves the key; it must not close the dialog
        content = QWidget()
        content.setObjectName("settings_content")
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)  # the dialog's layout keeps its margins, around the scroll area
        layout.addWidget(self.language)
        layout.addSpacing(12)
        layout.addWidget(self.keyring_note)
        layout.addLayout(keys)
        layout.addSpacing(12)
        layout.addLayout(connection)
        layout.addSpacing(12)
        layout.addWidget(self.traces)
        # never taller or wider than the screen (200 % text size on a 1366x768 laptop): past it the fields scroll,
        # Close stays in sight
        outer = QVBoxLayout(self)
        outer.addWidget(ScreenFitScroll(content))
        outer.addWidget(buttons)

        self.provider.currentTextChanged.connect(self._on_provider_changed)
        self.save.clicked.connect(self._on_save_clicked)
        self.remove.clicked.connect(self._on_remove_clicked)
        self.test.clicked.connect(self._on_test_clicked)
        self.forget.clicked.connect(self._on_forget_clicked)
        self.allow.clicked.connect(self._on_allow_clicked)
        self.key.returnPressed.connect(self._on_save_clicked)
        self.find_local.clicked.connect(self._on_find_local_clicked)
        self.use_local.clicked.connect(self._on_use_local_clicked)
        named = provider_name(model_id)
        self.provider.setCurrentText(named if self.provider.findText(named) >= 0 else DEFAULT_PROVIDER)
        self._on_provider_changed(self.provider.currentText())

    def showEvent(self, event: QShowEvent) -> None:
        """Open at the size the fields ask (Qt would cap it at two thirds of the screen: scroll bars on a laptop)."""
        if not self._opened:
            self._opened = True
            open_at_content_size(self)
        super().showEvent(event)

    def _set_verdict(self, text: str) -> None:
        """Show a result; the dialog grows when it wraps to more lines than fit (a shown window does not)."""
        self.verdict.setText(text)
        self._grow_to_fit()

    def _grow_to_fit(self) -> None:
        """Grow the dialog to what its texts need now (a connection verdict, the local servers' lines): a shown
        window keeps its size, and its labels were cut instead."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        needed = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() else -1
        needed = max(needed, layout.totalSizeHint().height())
        if needed > self.height():
            self.resize(self.width(), needed)

    def _show_stored(self) -> None:
        provider = self.provider.currentText()
        default = default_endpoint(provider)
        self.key_endpoint.setPlaceholderText(
            translate("SettingsDialog", "{host} (the provider's own); or the base URL this key is for").format(
                host=endpoint_host(default)
            )
            if default
            else translate("SettingsDialog", "The base URL this key is for")
        )
        fit_text(self.key_endpoint, self.key_endpoint.placeholderText())
        key = self._secrets.get_key(provider)
        saved_for = self._secrets.saved_for(provider)
        where = (
            endpoint_host(saved_for)
            if saved_for
            else (endpoint_host(default) if default else translate("SettingsDialog", "its default"))
        )
        self.stored.setText(
            translate("SettingsDialog", "Stored: {key} — sent only to {host}").format(key=mask(key), host=where)
            if key
            else translate("SettingsDialog", "No key stored for this provider.")
        )
        approved = self._secrets.approved_endpoints(provider) if key else []
        self.approved.setText(
            translate("SettingsDialog", "Also allowed: {hosts}").format(
                hosts=", ".join(endpoint_host(url) for url in approved)
            )
            if approved
            else ""
        )
        self.forget.setVisible(bool(approved))

    @Slot(str)
    def _on_provider_changed(self, provider: str) -> None:
        self.provider_label.setText(provider_label(provider_named(provider)) if provider else "")
        self.key.clear()
        self.key_endpoint.setText(self._secrets.saved_for(provider) or "")  # a replaced key keeps its endpoint
        self._show_stored()

    @Slot()
    def _on_save_clicked(self) -> None:
        try:
            where = self._secrets.set_key(
                self.provider.currentText(), self.key.text(), endpoint=self.key_endpoint.text()
            )
        except EndpointError as error:
            self.verdict.setText(translate("SettingsDialog", "Not saved — the endpoint: {error}").format(error=error))
            return
        self.key.clear()
        self._show_stored()
        self._set_verdict(
            {
                "keyring": translate("SettingsDialog", "Saved in the system keyring."),
                "session": translate("SettingsDialog", "Saved for this session only."),
                "deleted": translate("SettingsDialog", "Key removed."),
            }[where]
        )

    @Slot()
    def _on_remove_clicked(self) -> None:
        """Ask first (Cancel is the default): a removed key has to be pasted again."""
        provider = self.provider.currentText()
        box = DestructiveQuestion(
            translate("SettingsDialog", "Remove the API key"),
            translate(
                "SettingsDialog", "Remove your {provider} API key from this computer? You would have to paste it again."
            ).format(provider=provider),
            self,
            on_yes=lambda: self._remove_key(provider),
        )
        box.setObjectName("settings.confirm_remove")
        box.open()  # never exec() on the qasync loop

    def _remove_key(self, provider: str) -> None:
        self._secrets.delete_key(provider)
        self._show_stored()
        self._set_verdict(translate("SettingsDialog", "Key removed."))

    @Slot()
    def _on_forget_clicked(self) -> None:
        self._secrets.revoke_approvals(self.provider.currentText())
        self._show_stored()

    @Slot()
    def _on_allow_clicked(self) -> None:
        model_id = self.model.text().strip()
        api_base = self.api_base.text().strip()
        self._secrets.approve(provider_name(model_id), api_base)
        self.allow.hide()
        self._show_stored()
        self.verdict.setText(
            translate("SettingsDialog", "Your {provider} key may now be sent to {host}.").format(
                provider=provider_name(model_id), host=endpoint_host(api_base)
            )
        )

    @Slot()
    def _on_test_clicked(self) -> None:
        if self._connection.running:
            return
        self.test.setEnabled(False)
        self.allow.hide()
        self._set_verdict(translate("SettingsDialog", "Testing…"))
        self._connection.start(self.model.text().strip(), self.api_base.text().strip() or None)

    @Slot(object)
    def _on_connection_finished(self, verdict: ConnectionVerdict) -> None:
        grant = verdict.withheld
        if grant is not None:  # the key was held back from this host: offer to allow it
            self.allow.setText(
                translate("SettingsDialog", "&Allow my {provider} key for {host}").format(
                    provider=grant.provider, host=grant.host
                )
            )
            self.allow.show()
        self._show_verdict(verdict.text)

    def _show_verdict(self, verdict: str) -> None:
        if not self.isVisible() and self.parent() is None:
            return
        self._set_verdict(verdict)
        self.test.setEnabled(True)
        self.connection_tested.emit(verdict)

    # ------------------------------------------------------------------------------------- local servers
    @Slot()
    def _on_find_local_clicked(self) -> None:
        if self._search.running:
            return
        self.find_local.setEnabled(False)
        self.local_status.setText(translate("SettingsDialog", "Looking for local servers…"))
        self._search.start()

    @Slot(object)
    def _on_search_finished(self, scan: LocalServerScan) -> None:
        if not self.isVisible() and self.parent() is None:
            return
        self.local_models.clear()
        for server in scan.found:
            for model in server.models:
                self.local_models.addItem(
                    f"{server.label} — {model} ({endpoint_host(server.base_url)})",
                    (server.model_id(model), server.base_url),
                )
        empty = [
            translate("SettingsDialog", "{server} ({host}): running, no model loaded").format(
                server=server.label, host=endpoint_host(server.base_url)
            )
            for server in scan.found
            if not server.models
        ]
        found = self.local_models.count()
        summary = (
            translate("SettingsDialog", "Found %n model(s) on local servers.", None, found)
            if found
            else translate("SettingsDialog", "No local model server answered.")
        )
        self.local_status.setText("\n".join([summary, *empty, *(local_server_line(line) for line in scan.absent)]))
        self.local_models.setVisible(found > 0)
        self.use_local.setVisible(found > 0)
        self._grow_to_fit()
        self.find_local.setEnabled(True)
        self.local_servers_found.emit(summary)

    @Slot()
    def _on_use_local_clicked(self) -> None:
        choice = self.local_models.currentData()
        if not choice:
            return
        model_id, api_base = choice
        document = self._document
        problem = document and (
            document.setting_error("model.model", model_id) or document.setting_error("model.api_base", api_base)
        )
        if problem:
            self.verdict.setText(translate("SettingsDialog", "Not used — {problem}").format(problem=problem))
            return
        self.model.setText(model_id)
        self.api_base.setText(api_base)
        self.allow.hide()
        if document is not None and (document.setting("model.model"), document.setting("model.api_base")) != (
            model_id,
            api_base,
        ):
            # One undo step for both settings (a macro of two commands made PySide delete a command twice)
            design = document.snapshot()
            design.model = design.model.model_copy(update={"model": model_id, "api_base": api_base})
            document.undo_stack().push(
                ReplaceDesign(
                    document, design, translate("SettingsDialog", "Use local model {model}").format(model=model_id)
                )
            )
        self.verdict.setText(
            translate(
                "SettingsDialog",
                "The design now uses {model} at {host} (no API key is sent there unless you allow one).",
            ).format(model=model_id, host=endpoint_host(api_base))
        )
