"""The question asked before an API key may go to an endpoint it was not saved for: it names the host.

A shared design can point a provider at any server; the key goes there only if the user says so here. Opened with
``open()`` (never ``exec()`` on the qasync loop); the answer comes back through :attr:`EndpointApproval.answered`.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from studio.i18n import translate
from studio.secrets import KeyGrant


class EndpointApproval(QMessageBox):
    """Asks "Send your <provider> key to <host>?"; translate(
    "EndpointApproval", "Don't send it") is the default button."""

    #: The user answered: the grant asked about, and whether the key may go to its endpoint.
    answered = Signal(object, bool)

    def __init__(self, grant: KeyGrant, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("endpoint_approval")
        self.grant = grant
        self.setIcon(QMessageBox.Icon.Warning)
        self.setWindowTitle(translate("EndpointApproval", "Send your API key to another server?"))
        host = escape(grant.host)
        self.setText(
            translate("EndpointApproval", "Send your <b>{provider}</b> API key to <b>{host}</b>?").format(
                provider=escape(grant.provider), host=host
            )
        )
        self.setInformativeText(
            translate(
                "EndpointApproval",
                "Your key was saved for {saved_for}. The design you are using sends its {provider} requests to:<br>"
                "<code>{endpoint}</code><br><br>A design from someone else can name any server. Allow it only if you "
                "trust this server with your key; your answer is remembered for this key.",
            ).format(
                saved_for=escape(grant.saved_for_host),
                provider=escape(grant.provider),
                endpoint=escape(grant.endpoint or ""),
            )
        )
        self.allow: QPushButton = self.addButton(
            translate("EndpointApproval", "Allow my key for this server"), QMessageBox.ButtonRole.AcceptRole
        )
        self.allow.setObjectName("endpoint_approval.allow")
        self.refuse: QPushButton = self.addButton(
            translate("EndpointApproval", "Don't send it"), QMessageBox.ButtonRole.RejectRole
        )
        self.refuse.setObjectName("endpoint_approval.refuse")
        self.setDefaultButton(self.refuse)
        self.setEscapeButton(self.refuse)
        self.buttonClicked.connect(self._on_button_clicked)

    @Slot(object)
    def _on_button_clicked(self, button: object) -> None:
        self.answered.emit(self.grant, button is self.allow)
