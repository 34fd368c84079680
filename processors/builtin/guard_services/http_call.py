"""One call to a guard service: a JSON POST within a time limit, its failures sorted into kinds a guard acts on.

Every failure is a :class:`ServiceFailure` whose ``kind`` becomes the guard's tripwire code (fail-closed) or the
state's ``last_failure`` (fail-open):

- ``timeout`` — no answer within the time limit (connecting, waiting or reading);
- ``rate_limited`` — 429; when the answer carries ``Retry-After`` (seconds or an HTTP date, RFC 9110 §10.2.3) and the
  wait ends before the time limit, the call waits and asks again (:data:`MAX_ATTEMPTS` requests at most), otherwise
  it fails at once;
- ``server_error`` — 5xx (a 503 with ``Retry-After`` is waited for like a 429);
- ``unauthorized`` — 401 or 403 (a wrong, expired or missing key);
- ``rejected`` — another 4xx (the service refused the request; its own message is kept);
- ``unreachable`` — no connection (refused, DNS, TLS);
- ``malformed`` — an answer that is not JSON, or JSON not in the service's documented shape.

httpx is imported on the first call, not when the studio lists the guards.
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import json
import ssl
import time
from collections.abc import Mapping
from datetime import UTC
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

__all__ = ["FAILURE_KINDS", "ServiceFailure", "post_json", "retry_after_seconds", "service_message"]

#: Every kind of failure, in the order the module docstring explains them (and ``no_key`` / ``no_endpoint``: the
#: guard could not even ask).
FAILURE_KINDS = (
    "timeout",
    "rate_limited",
    "server_error",
    "unauthorized",
    "rejected",
    "unreachable",
    "malformed",
    "no_key",
    "no_endpoint",
)
#: How much of a service's error message a failure keeps (it goes into logs and tripwire metadata).
MESSAGE_LIMIT = 300
#: Requests one call may make (the first and the retries a ``Retry-After`` asks for), however short the waits.
MAX_ATTEMPTS = 4


class ServiceFailure(Exception):
    """A call that gave no verdict. ``kind`` is one of :data:`FAILURE_KINDS`; ``status`` the HTTP status if any;
    ``detail`` the service's own message (English, as the service wrote it) or the transport error's name."""

    def __init__(self, kind: str, *, status: int | None = None, detail: str = "") -> None:
        super().__init__(f"{kind}" + (f" (HTTP {status})" if status else "") + (f": {detail}" if detail else ""))
        self.kind = kind
        self.status = status
        self.detail = detail


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """The wait a ``Retry-After`` header asks for, in seconds (``None`` when absent or unreadable)."""
    if not value or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = when.timestamp() - (time.time() if now is None else now)
    return max(0.0, seconds) if seconds == seconds else None  # NaN is no wait


def service_message(response: httpx.Response) -> str:
    """The service's own words about a failed call: ``error.message`` (OpenAI, Azure, Google), ``error`` or
    ``message`` (Lakera), else the start of the body."""
    try:
        body: Any = response.json()
    except ValueError:
        return response.text[:MESSAGE_LIMIT].strip()
    message: Any = None
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping):
            message = error.get("message") or error.get("code")
        elif isinstance(error, str):
            message = error
        message = message or body.get("message") or body.get("detail")
    text = message if isinstance(message, str) else json.dumps(body, ensure_ascii=False)
    return text[:MESSAGE_LIMIT].strip()


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """httpx's default TLS settings (certifi's roots), made once per process: making them is most of what a new
    client costs (~40 ms of CPU), and a client lives for one call (its connections must not outlive the event loop
    that opened them, and lab workers and the studio run several loops)."""
    import httpx

    return httpx.create_ssl_context()


async def post_json(url: str, *, headers: Mapping[str, str], body: Any, time_limit: float) -> Any:
    """POST ``body`` as JSON to ``url`` and return the answer's JSON; raises :class:`ServiceFailure`.

    ``time_limit`` (seconds) bounds the whole call, waits for ``Retry-After`` included."""
    import httpx

    loop = asyncio.get_running_loop()
    deadline = loop.time() + time_limit
    attempts = 0
    async with httpx.AsyncClient(follow_redirects=False, verify=_tls_context()) as client:
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise ServiceFailure("timeout")
            try:
                async with asyncio.timeout(remaining):
                    response = await client.post(url, json=body, headers=dict(headers), timeout=remaining)
            except (TimeoutError, httpx.TimeoutException):
                raise ServiceFailure("timeout") from None
            except httpx.HTTPError as error:
                raise ServiceFailure("unreachable", detail=type(error).__name__) from None
            status = response.status_code
            attempts += 1
            if status in (429, 503):
                wait = retry_after_seconds(response.headers.get("retry-after"))
                if wait is not None and attempts < MAX_ATTEMPTS and loop.time() + wait < deadline:
                    await asyncio.sleep(wait)
                    continue
                kind = "rate_limited" if status == 429 else "server_error"
                raise ServiceFailure(kind, status=status, detail=service_message(response))
            if status in (401, 403):  # the service's words may quote the key (OpenAI shows its last characters)
                raise ServiceFailure("unauthorized", status=status)
            if status >= 500:
                raise ServiceFailure("server_error", status=status, detail=service_message(response))
            if status >= 400:
                raise ServiceFailure("rejected", status=status, detail=service_message(response))
            try:
                return response.json()
            except ValueError:
                raise ServiceFailure("malformed", status=status, detail="not JSON") from None
