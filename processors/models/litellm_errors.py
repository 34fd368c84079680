"""litellm's exceptions as :class:`~processors.errors.ModelAPIError`: status, provider message, whether a retry can
help and when (``Retry-After``), with litellm's made-up statuses for transport failures told apart (see the
adapter's module docstring for the behaviour relied on). Nothing here imports litellm: it reads attributes.
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import re
import time
from collections.abc import Mapping
from typing import Any

from processors.errors import ModelAPIError
from processors.models.litellm_stream import get_field

DROPPED_STREAM_MESSAGE = "The provider closed the stream before it finished"

_LITELLM_PREFIX = re.compile(r"^(?:(?:litellm\.)?\w*(?:Error|Exception|Timeout)(?::|\s+-)\s*)+")


def to_model_api_error(exc: BaseException, *, provider: str | None = None) -> ModelAPIError:
    """One error shape for every litellm/openai/httpx failure, so error processors need not know providers."""
    provider = get_field(exc, "llm_provider") or provider
    mid_stream = False
    original = exc
    if type(exc).__name__ == "MidStreamFallbackError":
        mid_stream = True
        original = get_field(exc, "original_exception") or exc

    headers = _response_headers(original)
    status = get_field(original, "status_code")
    body = _response_body(original)
    provider_message = _provider_message(body)
    retry_after = _retry_after(headers)

    if headers and isinstance(status, int):  # a real HTTP answer: trust its status
        return ModelAPIError(
            status,
            provider_message or _clean(str(original)),
            _retryable_status(status),
            retry_after=retry_after,
            provider=provider,
            body=body,
        )
    transport = _transport_error(exc)
    if mid_stream or transport is not None:
        if mid_stream:
            kind, message = "dropped_stream", DROPPED_STREAM_MESSAGE
        elif _is_timeout(transport):
            kind, message = "timeout", "The provider did not answer in time"
        else:
            kind, message = "unreachable", "Could not reach the provider"
        detail: str | None = _clean(str(original))
        if detail and detail.rstrip(".") not in message:
            message = f"{message} ({detail})"
        else:
            detail = None
        return ModelAPIError(
            None, message, True, retry_after=retry_after, provider=provider, body=body, kind=kind, detail=detail
        )
    # No HTTP answer and no transport failure: litellm refused the call itself (bad parameters, unknown
    # provider ...). Keep its status when it gave one; such errors do not heal by retrying.
    code = status if isinstance(status, int) else None
    return ModelAPIError(
        code,
        provider_message or _clean(str(exc)) or type(exc).__name__,
        code is not None and _retryable_status(code),
        retry_after=retry_after,
        provider=provider,
        body=body,
    )


def _retryable_status(status: int) -> bool:
    return status in (408, 409, 429) or status >= 500


def _transport_error(exc: BaseException) -> BaseException | None:
    """The connection/timeout error in ``exc``'s cause chain, if any (litellm wraps them in status errors)."""
    # litellm's own dependencies, imported here so importing this module stays cheap.
    import httpx
    import openai

    kinds = (openai.APIConnectionError, httpx.TransportError, ConnectionError, TimeoutError)
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, kinds):
            return current
        current = current.__cause__ or current.__context__
    return None


def _is_timeout(exc: BaseException | None) -> bool:
    import httpx
    import openai

    return isinstance(exc, (openai.APITimeoutError, httpx.TimeoutException, TimeoutError))


def _response_headers(exc: BaseException) -> dict[str, str]:
    """Headers of the provider's HTTP answer, lower-cased; empty when litellm made the response up."""
    for candidate in (get_field(exc, "litellm_response_headers"), get_field(get_field(exc, "response"), "headers")):
        if candidate:
            with contextlib.suppress(Exception):
                return {str(k).lower(): str(v) for k, v in dict(candidate).items()}
    return {}


def _response_body(exc: BaseException) -> Any:
    """The error body as the provider sent it (parsed JSON), else litellm's ``.body``."""
    response = get_field(exc, "response")
    content: Any = None
    with contextlib.suppress(Exception):
        content = response.content if response is not None else None
    if content:
        try:
            return json.loads(content)
        except ValueError:
            return content.decode("utf-8", "replace") if isinstance(content, bytes) else content
    return get_field(exc, "body")


def _provider_message(body: Any) -> str | None:
    if isinstance(body, Mapping):
        error = body.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("message"), str):
            return str(error["message"])
        if isinstance(error, str):
            return error
        if isinstance(body.get("message"), str):
            return str(body["message"])
    return None


def _clean(text: str) -> str:
    """litellm's message without its class-name prefixes (``litellm.BadRequestError: OpenAIException - ``)."""
    text = text.split(" Original exception:", 1)[0].split(" Error_str:", 1)[0]
    return _LITELLM_PREFIX.sub("", text).strip()


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait, from ``retry-after-ms`` (OpenAI) or ``Retry-After`` (seconds or an HTTP date)."""
    millis = headers.get("retry-after-ms")
    if millis:
        with contextlib.suppress(ValueError):
            return max(0.0, float(millis) / 1000)
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


__all__ = ["DROPPED_STREAM_MESSAGE", "to_model_api_error"]
