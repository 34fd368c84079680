"""``KeyGate``: which API key a design's model calls may carry, and the user's approvals of new endpoints.

    gate = KeyGate(secrets)
    gate.approval_requested.connect(window.ask_endpoint_approval)   # a KeyGrant: shows the host
    grant = gate.grant(design)                                      # raises EndpointError for a bad API base
    why_not = gate.missing_key(design, grant)                       # None when the run may go
    model = gate.live_model(design)                                 # a replay that diverged continues with it

A key is bound to the endpoint it was saved for (:class:`~studio.keys.secrets.SecretStore`): a design that sends its
requests elsewhere gets no key until the user allows that host, asked once per session; a refusal is remembered for
the session so the question is not asked at every message.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from processors.builtin.guard_services.keys import use_key_source
from processors.models.base import LanguageModel
from processors.models.providers import provider_for
from studio.design.agent_design import AgentDesign
from studio.design.build import build_model
from studio.i18n import translate
from studio.keys.endpoints import EndpointError, endpoint_host
from studio.keys.secrets import NO_KEY, KeyGrant, SecretStore, mask
from studio.keys.service_keys import keyring_source


class KeyGate(QObject):
    """The keys of the workspace's runs (see the module docstring)."""

    #: A run's key was withheld from an endpoint it was not saved for (a :class:`KeyGrant`); the window asks the
    #: user, showing the host, and answers with :meth:`answer_approval`.
    approval_requested = Signal(object)
    #: A line for the status bar.
    status_message = Signal(str)

    def __init__(self, secrets: SecretStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.secrets = secrets
        #: (provider, endpoint) pairs the user declined to approve in this session: not asked again.
        self._declined: set[tuple[str, str]] = set()
        # The guard services' calls in this process take their keys from this store, bound to their endpoints.
        use_key_source(keyring_source(secrets))

    def grant(self, design: AgentDesign) -> KeyGrant | None:
        """Which key this design's calls may carry (``None`` for an offline model such as the demo's). Raises
        ``EndpointError``."""
        provider = provider_for(design.model.model)
        if provider.offline:
            return None
        return self.secrets.key_for(provider.name, design.model.api_base)

    def live_model(self, design: AgentDesign) -> LanguageModel:
        """The design's real model with the key it may carry: a replay that diverged continues with it."""
        return build_model(design.model, api_key=self.api_key(design, self.grant(design)))

    def missing_key(self, design: AgentDesign, grant: KeyGrant | None) -> str | None:
        """Say so before calling a hosted model without a key (a local server, or any API base, needs none)."""
        if grant is None or grant.key or design.model.api_base or not provider_for(design.model.model).needs_key:
            return None
        if grant.withheld:
            self.ask_approval(grant)
            return self.withheld_notice(grant, running=False)
        return translate(
            "Workspace",
            "No API key is set for {provider}. Add one in Settings → API keys (Ctrl+,), set "
            "the provider's environment variable, or pick the offline 'demo' model in the "
            "Agent tab.",
        ).format(provider=grant.provider)

    @staticmethod
    def api_key(design: AgentDesign, grant: KeyGrant | None) -> str | None:
        """The granted key; else a placeholder, so litellm does not send the environment's key on its own."""
        if grant is None:
            return None
        return grant.key or NO_KEY

    @staticmethod
    def withheld_notice(grant: KeyGrant, *, running: bool) -> str:
        where = (
            translate("Workspace", "This message was sent there without a key.")
            if running
            else translate("Workspace", "Nothing was sent.")
        )
        return translate(
            "Workspace",
            "Your {provider} API key was not sent to {host}: it was saved for {saved_for}, and this design's model "
            "sends requests to {host}. {what_happened} If you trust {host}, allow your key there when asked (or in "
            "Settings → API keys and connection, Ctrl+,) and send again.",
        ).format(provider=grant.provider, host=grant.host, saved_for=grant.saved_for_host, what_happened=where)

    def was_declined(self, grant: KeyGrant) -> bool:
        """The user said no to this key at this endpoint in this session: neither asked nor told again."""
        return (grant.provider, grant.endpoint) in self._declined

    def ask_approval(self, grant: KeyGrant) -> None:
        if grant.endpoint is not None and not self.was_declined(grant):
            self.approval_requested.emit(grant)

    def answer_approval(self, grant: KeyGrant, approved: bool) -> None:
        """The user's answer to :attr:`approval_requested`: remember it (approvals across sessions, refusals for
        this session, so the question is not asked at every message)."""
        if grant.endpoint is None:
            return
        if not approved:
            self._declined.add((grant.provider, grant.endpoint))
            self.status_message.emit(
                translate("Workspace", "Your {provider} key stays away from {host}.").format(
                    provider=grant.provider, host=grant.host
                )
            )
            return
        self.secrets.approve(grant.provider, grant.endpoint)
        self._declined.discard((grant.provider, grant.endpoint))
        self.status_message.emit(
            translate("Workspace", "Your {provider} key may now be sent to {host}; send again to use it.").format(
                provider=grant.provider, host=grant.host
            )
        )

    def service_key_shown(self, service: str, endpoint: str) -> str:
        """The key saved (or approved) for a guard service's ``endpoint``, masked; "" when it has none."""
        try:
            key = self.secrets.key_for(service, endpoint).key
        except EndpointError:
            return ""
        return mask(key) if key else ""

    def save_service_key(self, service: str, endpoint: str, key: str) -> None:
        """Keep a guard service's key (entered in its options form) for ``endpoint`` only, and say where it went."""
        try:
            where = self.secrets.set_key(service, key, endpoint=endpoint)
        except EndpointError:
            self.status_message.emit(
                translate("Workspace", "The key was not saved: '{endpoint}' is not an http or https address.").format(
                    endpoint=endpoint
                )
            )
            return
        host = endpoint_host(endpoint)
        message = {
            "keyring": translate("Workspace", "The key was saved in the system keyring, for {host} only."),
            "session": translate("Workspace", "The key is kept for this session only (no system keyring), for {host}."),
            "deleted": translate("Workspace", "The key for {host} was removed."),
        }[where]
        self.status_message.emit(message.format(host=host))


__all__ = ["KeyGate"]
