""" "Test connection" for the settings dialog: which key the call may carry, the call, and the verdict to show.

    check = ConnectionCheck(secrets, check_connection)
    check.finished.connect(dialog.show_verdict)      # a ConnectionVerdict
    check.start("openai/gpt-4o-mini", api_base=None)   # False while one runs

The call itself is :func:`studio.controllers.connection.check_connection` (or any function of its shape); this
controller picks the key the way a run does (:meth:`SecretStore.key_for`: a key goes only to the endpoint it was saved
for), runs the call off the dialog, and says why a key was held back, so the dialog only shows what it is given.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal

from processors.models.providers import provider_name
from studio.i18n import translate
from studio.keys.endpoints import EndpointError
from studio.keys.secrets import NO_KEY, KeyGrant, SecretStore

#: ``await tester(model_id, api_key=..., api_base=...)`` → a one-line verdict (``check_connection``'s shape).
ConnectionTester = Callable[..., Coroutine[Any, Any, str]]


@dataclass(frozen=True, slots=True)
class ConnectionVerdict:
    """What a connection test found: the line to show, and the grant whose key was held back (the dialog then
    offers to allow that key for the host), if one was."""

    text: str
    withheld: KeyGrant | None = None


class ConnectionCheck(QObject):
    """One connection test at a time; :attr:`finished` brings its :class:`ConnectionVerdict`."""

    #: A test ended: its :class:`ConnectionVerdict`.
    finished = Signal(object)

    def __init__(self, secrets: SecretStore, tester: ConnectionTester, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._secrets = secrets
        self._tester = tester
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, model_id: str, api_base: str | None) -> bool:
        """Test ``model_id`` at ``api_base`` (None: the provider's default endpoint); False while a test runs."""
        if self.running:
            return False
        self._task = asyncio.get_event_loop().create_task(self._emit(model_id, api_base))
        return True

    async def _emit(self, model_id: str, api_base: str | None) -> None:
        verdict = await self.verdict(model_id, api_base)
        if shiboken6.isValid(self):  # the dialog (its parent) may have closed meanwhile
            self.finished.emit(verdict)

    async def verdict(self, model_id: str, api_base: str | None) -> ConnectionVerdict:
        """Test the connection and say how it went; never raises (a tester's bug becomes the verdict)."""
        try:
            grant = self._secrets.key_for(provider_name(model_id), api_base)
        except EndpointError as error:
            return ConnectionVerdict(translate("SettingsDialog", "API base: {error}").format(error=error))
        key = grant.key or (NO_KEY if grant.withheld and api_base else None)
        try:
            text = await self._tester(model_id, api_key=key, api_base=api_base)
        except Exception as error:  # a tester bug must not become a traceback dialog
            text = translate("SettingsDialog", "Failed — {kind}: {error}").format(
                kind=type(error).__name__, error=error
            )
        if not grant.withheld:
            return ConnectionVerdict(text)
        text += translate(
            "SettingsDialog", " (your {provider} key was not sent: it is for {saved_for}, not {host})"
        ).format(provider=grant.provider, saved_for=grant.saved_for_host, host=grant.host)
        return ConnectionVerdict(text, grant if api_base else None)


__all__ = ["ConnectionCheck", "ConnectionTester", "ConnectionVerdict"]
