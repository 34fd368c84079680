"""The main window's dialogs: settings and language, the approvals a design asks for, help and about.

None of them blocks the qasync loop (``open()``, never ``exec()``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QMessageBox, QWidget

from processors.models.providers import default_hosted_model
from studio import i18n
from studio.controllers.connection import check_connection
from studio.system.paths import data_dir
from studio.views.about_dialog import AboutDialog
from studio.views.endpoint_approval import EndpointApproval
from studio.views.mcp_approval import McpApproval
from studio.views.settings_dialog import SettingsDialog

if TYPE_CHECKING:
    from studio.controllers.workspace import Workspace

translate = i18n.translate


def shortcuts_text() -> str:
    """The Help → Keyboard shortcuts text, in the studio's language."""
    return "<br>".join(
        (
            translate("MainWindow", "<b>Chat</b>: Enter sends · Shift+Enter new line · Esc stops the reply"),
            translate(
                "MainWindow",
                "<b>Replay</b>: Ctrl+R replays the selected run through the current chain · Ctrl+Alt+R the whole "
                "thread",
            ),
            translate("MainWindow", "<b>Threads</b>: Ctrl+N new · F2 rename · Del delete"),
            translate(
                "MainWindow",
                "<b>Chains</b>: Space enable/disable · Del remove · Ctrl+↑/↓ reorder · Ctrl+←/→ "
                "move to the previous/next lane · Enter in the palette adds the type",
            ),
            translate("MainWindow", "<b>Edit</b>: Ctrl+Z undo · Ctrl+Shift+Z redo"),
            translate("MainWindow", "<b>File</b>: Ctrl+O open design · Ctrl+S save design · Ctrl+E export as Python"),
            translate(
                "MainWindow",
                "<b>Lab</b>: Ctrl+L open · Ctrl+W close · Ctrl+Enter run · Esc cancel · Ctrl+Shift+R resume · Ctrl+I "
                "import a corpus · Ctrl+F search · Enter opens a case as a thread · Ctrl+D compare two lab runs · "
                "Ctrl+Shift+P re-run a model run from its recorded replies",
            ),
            translate(
                "MainWindow",
                "<b>Every window</b> (the Lab's too): Ctrl+Q quit · Ctrl+, API keys and connection · F1 this list",
            ),
        )
    )


class DialogActions(QObject):
    """The main window's Settings and Help menus and the approvals a design asks for (``window.dialogs``);
    ``restart`` closes the window to start the studio again (a settings dialog's "Restart now")."""

    def __init__(self, window: QWidget, workspace: Workspace, restart: Callable[[], None]) -> None:
        super().__init__(window)
        self._window = window
        self.workspace = workspace
        self._restart = restart

    @Slot(object)
    def ask_endpoint_approval(self, grant: Any) -> None:
        """Ask (without blocking) whether the key may go to the host the design names; one question at a time."""
        asking = self._window.findChild(EndpointApproval, "endpoint_approval")
        if asking is not None and asking.isVisible():
            return
        dialog = EndpointApproval(grant, self._window)
        dialog.answered.connect(self.workspace.answer_endpoint_approval)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    @Slot(object)
    def ask_mcp_approval(self, config: Any) -> None:
        """Ask (without blocking) whether a design's stdio MCP server may run its program; one at a time."""
        asking = self._window.findChild(McpApproval, "mcp_approval")
        if asking is not None and asking.isVisible():
            return
        dialog = McpApproval(config, self._window)
        dialog.answered.connect(self.workspace.answer_mcp_approval)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    @Slot()
    def open_settings(self) -> SettingsDialog:
        design = self.workspace.document.design()
        model_id = design.model.model if not design.model.is_demo else default_hosted_model()
        dialog = SettingsDialog(
            self.workspace.secrets,
            check_connection,
            model_id=model_id,
            api_base=design.model.api_base,
            document=self.workspace.document,
            parent=self._window,
        )
        dialog.restart_requested.connect(self._restart)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    @Slot()
    def open_language(self) -> None:
        dialog = self.open_settings()
        dialog.language.combo.setFocus()

    @Slot()
    def show_shortcuts(self) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Information,
            translate("MainWindow", "Keyboard shortcuts"),
            shortcuts_text(),
            QMessageBox.StandardButton.Ok,
            self._window,
        )
        box.finished.connect(box.deleteLater)
        box.open()

    @Slot()
    def show_about(self) -> None:
        dialog = AboutDialog(data_dir(), self._window)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
