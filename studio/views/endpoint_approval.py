"""The question asked before an API key may go to an endpoint it was not saved for: it names the host.

A host with letters outside ASCII is named with its ASCII (punycode) form beside it, and one whose name mixes
alphabets (``api.\u03bfpenai.com`` with a Greek \u03bf) gets a warning above the question: that is how a look-alike
of the provider's own server reads.

A shared design can point a provider at any server; the key goes there only if the user says so here. Opened with
``open()`` (never ``exec()`` on the qasync loop); the answer comes back through :attr:`EndpointApproval.answered`.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from studio.i18n import translate
from studio.keys.endpoints import ascii_host, mixed_script_labels
from studio.keys.secrets import KeyGrant


def host_ascii(endpoint: str) -> str:
    """The endpoint's host as DNS is asked for it (punycode), or a note that it is no valid name."""
    from urllib.parse import urlsplit

    host = urlsplit(endpoint).hostname or ""
    return ascii_host(host) or translate("EndpointApproval", "not a valid domain name")


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
        informative = translate(
            "EndpointApproval",
            "Your key was saved for {saved_for}. The design you are using sends its {provider} requests to:<br>"
            "<code>{endpoint}</code><br><br>A design from someone else can name any server. Allow it only if you "
            "trust this server with your key; your answer is remembered for this key.",
        ).format(
            saved_for=escape(grant.saved_for_host),
            provider=escape(grant.provider),
            endpoint=escape(grant.endpoint or ""),
        )
        #: Labels of the host that mix alphabets (``\u03bfpenai``, a Greek \u03bf): the look-alike of another server.
        self.mixed_labels = mixed_script_labels(grant.endpoint) if grant.endpoint else []
        if self.mixed_labels:
            warning = translate(
                "EndpointApproval",
                "<b>Warning:</b> {labels} mixes letters of different alphabets, as names that imitate another "
                "server's do. Its real name is {ascii}.",
            ).format(labels=escape(", ".join(self.mixed_labels)), ascii=escape(host_ascii(grant.endpoint or "")))
            informative = f"{warning}<br><br>{informative}"
        self.setInformativeText(informative)
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
