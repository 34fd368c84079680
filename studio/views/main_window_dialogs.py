"""The main window's dialogs: settings and language, the approvals a design asks for, help and about, restart.

None of them blocks the qasync loop (``open()``, never ``exec()``); a restart keeps the chat box's unsent text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QDialog, QMessageBox

from studio import i18n
from studio.controllers.connection import check_connection
from studio.paths import data_dir
from studio.restart import keep_draft, take_draft
from studio.views.about_dialog import AboutDialog
from studio.views.endpoint_approval import EndpointApproval
from studio.views.mcp_approval import McpApproval
from studio.views.settings_dialog import SettingsDialog

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from studio.controllers.workspace import Workspace
    from studio.views.chat_view import ChatView

    _Window = QMainWindow
else:
    _Window = object

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
                "<b>Lab</b>: Ctrl+L open · Ctrl+Enter run · Esc cancel · Ctrl+Shift+R resume · Ctrl+I import a corpus "
                "· Ctrl+F search · Enter opens a case as a thread · Ctrl+D compare two lab runs · Ctrl+Shift+P "
                "re-run a model run from its recorded replies",
            ),
            translate(
                "MainWindow",
                "<b>Every window</b> (the Lab's too): Ctrl+Q quit · Ctrl+, API keys and connection · F1 this list",
            ),
        )
    )


class DialogActions(_Window):
    """Mixed into :class:`~studio.views.main_window.MainWindow` (its Settings and Help menus, the approvals)."""

    workspace: Workspace
    chat: ChatView
    restart_requested: bool

    @Slot(object)
    def _on_workspace_endpoint_approval_requested(self, grant: Any) -> None:
        """Ask (without blocking) whether the key may go to the host the design names; one question at a time."""
        asking = self.findChild(EndpointApproval, "endpoint_approval")
        if asking is not None and asking.isVisible():
            return
        dialog = EndpointApproval(grant, self)
        dialog.answered.connect(self.workspace.answer_endpoint_approval)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    @Slot(object)
    def _on_workspace_mcp_approval_requested(self, config: Any) -> None:
        """Ask (without blocking) whether a design's stdio MCP server may run its program; one at a time."""
        asking = self.findChild(McpApproval, "mcp_approval")
        if asking is not None and asking.isVisible():
            return
        dialog = McpApproval(config, self)
        dialog.answered.connect(self.workspace.answer_mcp_approval)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    @Slot()
    def _on_settings(self) -> SettingsDialog:
        design = self.workspace.document.design()
        model_id = design.model.model if not design.model.is_demo else "openai/gpt-4o-mini"
        dialog = SettingsDialog(
            self.workspace.secrets,
            check_connection,
            model_id=model_id,
            api_base=design.model.api_base,
            document=self.workspace.document,
            parent=self,
        )
        dialog.restart_requested.connect(self.restart)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    @Slot()
    def _on_language(self) -> None:
        dialog = self._on_settings()
        dialog.language.combo.setFocus()

    @Slot()
    def restart(self) -> None:
        """Close to start again (the picked language shows then); the chat box's unsent text is kept for it."""
        keep_draft(self.chat.input.toPlainText(), self.workspace.thread_id)
        self.restart_requested = True
        for dialog in self.findChildren(QDialog):
            dialog.close()
        self.close()

    def restore_draft(self) -> None:
        """Put back the chat box's text kept by a restart (nothing when there is none, or the box has text)."""
        text, _thread = take_draft()
        if text and not self.chat.input.toPlainText():
            self.chat.input.setPlainText(text)

    @Slot()
    def _on_shortcuts(self) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Information,
            translate("MainWindow", "Keyboard shortcuts"),
            shortcuts_text(),
            QMessageBox.StandardButton.Ok,
            self,
        )
        box.finished.connect(box.deleteLater)
        box.open()

    @Slot()
    def _on_about(self) -> None:
        dialog = AboutDialog(data_dir(), self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
