"""The question asked before a design's stdio MCP server may start: it runs a program on this computer.

A design from someone else can name any program; it runs only if the user says so here, having seen the exact
command line and the environment variables it sets. Opened with ``open()`` (never ``exec()`` on the qasync loop);
the answer comes back through :attr:`McpApproval.answered`.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from studio.design.agent_design import McpServerConfig
from studio.i18n import translate


class McpApproval(QMessageBox):
    """Asks "Run the program of MCP server <name>?"; "Don't run it" is the default button."""

    #: The user answered: the server entry asked about, and whether its program may run.
    answered = Signal(object, bool)

    def __init__(self, config: McpServerConfig, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcp_approval")
        self.config = config
        self.setIcon(QMessageBox.Icon.Warning)
        self.setWindowTitle(translate("McpApproval", "Run a program from this design?"))
        self.setText(
            translate("McpApproval", "Start the MCP server <b>{name}</b>? It runs this program:").format(
                name=escape(config.name)
            )
        )
        variables = (
            "<br>".join(f"<code>{escape(name)}={escape(value)}</code>" for name, value in sorted(config.env.items()))
            if config.env
            else escape(translate("McpApproval", "(none besides your own)"))
        )
        self.setInformativeText(
            f"<code>{escape(config.command_line())}</code><br><br>"
            + translate("McpApproval", "Environment variables it sets:")
            + f"<br>{variables}<br><br>"
            + translate(
                "McpApproval",
                "The program runs with your rights: it can read your files and use the network. A design from "
                "someone else can name any program. Allow it only if you trust this command; your answer is "
                "remembered for this exact command and environment.",
            )
        )
        self.allow: QPushButton = self.addButton(
            translate("McpApproval", "Run this program"), QMessageBox.ButtonRole.AcceptRole
        )
        self.allow.setObjectName("mcp_approval.allow")
        self.refuse: QPushButton = self.addButton(
            translate("McpApproval", "Don't run it"), QMessageBox.ButtonRole.RejectRole
        )
        self.refuse.setObjectName("mcp_approval.refuse")
        self.setDefaultButton(self.refuse)
        self.setEscapeButton(self.refuse)
        self.buttonClicked.connect(self._on_button_clicked)

    @Slot(object)
    def _on_button_clicked(self, button: object) -> None:
        self.answered.emit(self.config, button is self.allow)
