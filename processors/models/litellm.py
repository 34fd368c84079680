"""The litellm adapter: any provider litellm knows, streamed as the runtime's model events.

This is the only module that imports litellm, and it does so lazily, off the event loop's thread, the first
time a call is made: litellm takes ~3 s to import, which would freeze the studio's UI and slow every test that
never talks to a provider. Everything litellm returns is typed ``Any``; the rest of the runtime only ever sees
:mod:`processors.models.base` events and :class:`processors.errors.ModelAPIError`. Reading litellm's chunks
(:mod:`~processors.models.litellm_stream`) and its exceptions (:mod:`~processors.models.litellm_errors`) live
beside it: they only read attributes, so they need no import.

Behaviour of litellm 1.110.2 this adapter relies on (checked against a local SSE server,
``tests/support/openai_server.py``):

- HTTP errors are raised by ``await acompletion(...)`` itself, even when streaming, as litellm exceptions with
  ``.status_code``, ``.llm_provider``, sometimes ``.body`` (the inner OpenAI error object; ``None`` for 401,
  403, 409, 503) and always the real ``httpx.Response`` in ``.response`` and its headers in
  ``.litellm_response_headers`` (so ``Retry-After`` is readable).
- Transport failures carry a status litellm made up: a refused connection is ``InternalServerError`` (500,
  "Connection error."), a timeout is ``Timeout`` (408), a stream that breaks after it started is
  ``MidStreamFallbackError`` (500/503, the original error in ``.original_exception``). None of those had an
  HTTP response, so they are reported with ``status_code=None`` and ``retryable=True``.
- A stream that ends without a ``finish_reason`` — socket closed mid-body, or a clean end with or without
  ``data: [DONE]`` — raises ``MidStreamFallbackError`` while iterating; litellm never ends it silently.
- Unknown finish reasons are logged by litellm and turned into ``"stop"``.
- A ``200 OK`` whose body is not an event stream (a captive portal's HTML page, a proxy's text) is parsed into
  nothing and ended with a made-up ``"stop"``: an empty answer, no error. So the adapter looks at the HTTP
  response behind the stream (``response.completion_stream.response``, an ``httpx.Response``): a web page is
  refused before any event, anything else that is not a stream is refused when it produced nothing; the error
  gives status, content type, host and the first bytes of the body.
- Extra keywords reach the request body (``logit_bias``, ``extra_body={...}``, even unknown names), except
  litellm's own (``metadata``, which it also mutates) and ``user``, which it drops for OpenAI-compatible
  servers.
- Each streamed call costs 25 to 35 ms of CPU on a loaded 2-core machine, a third of it on other threads (the
  synchronous ``completion()`` in the loop's default executor, the finished stream assembled in an anyio
  thread): litellm prices the answer three times and builds a logging payload even with no callback set. None
  of its switches reaches that on the async streaming path (``disable_streaming_logging`` only guards the sync
  iterator; ``no-log`` and ``turn_off_message_logging`` only gate callbacks). The runtime never reads
  litellm's cost: CostGuard, the lab and the studio price usage from the bundled price map themselves.
- The OpenAI client retries 429/5xx/connection errors twice by default (three requests and ~2 s of backoff);
  the runtime owns retries (error processors, ``retry_after``), so this adapter sets ``max_retries=0`` and
  ``num_retries=0`` unless the caller overrides them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import importlib
import os
import re
import urllib.parse
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from processors.errors import ModelAPIError
from processors.messages.surrogates import scrub_json
from processors.models.base import (
    ModelEvent,
    ModelRequest,
)
from processors.models.litellm_errors import DROPPED_STREAM_MESSAGE, to_model_api_error
from processors.models.litellm_stream import StreamAssembler, get_field
from processors.models.providers import provider_name

#: The imported litellm module once the first call loaded it.
_litellm: Any = None

#: Settings every call gets unless the constructor or the request says otherwise. The runtime's loop decides
#: whether and when to retry (it sees ``retryable`` and ``retry_after``); retries hidden inside litellm would
#: multiply with it and delay errors by seconds.
_BASE_SETTINGS: dict[str, Any] = {"num_retries": 0, "max_retries": 0}


async def _load_litellm() -> Any:
    """Import litellm in a worker thread: on the loop's thread the ~3 s import would freeze the UI.

    Two first calls racing both reach ``import_module``; Python's per-module import lock makes the second wait
    for the first, so no asyncio lock (which would bind to one event loop) is needed.
    """
    global _litellm
    if _litellm is None:
        # The bundled price map: without this litellm fetches it from GitHub at import time.
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        module: Any = await asyncio.get_running_loop().run_in_executor(None, importlib.import_module, "litellm")
        module.suppress_debug_info = True
        # The import leaves ~400,000 objects (pydantic models, provider tables, the price map) that live as long
        # as the process. Every full collection of the cyclic GC walked all of them: ~0.3 s of CPU each, a
        # stall of whichever thread allocated (the studio's UI, the lab's loop), and ~10 % of a model-mode lab
        # run's CPU. Frozen, collections skip them. Nothing is lost: they live as long as the process anyway, and a
        # frozen object that does become garbage is still freed by its reference count (only a cycle would stay).
        gc.freeze()
        _litellm = module
    return _litellm


class LiteLLMModel:
    """A :class:`~processors.models.base.LanguageModel` backed by ``litellm.acompletion(stream=True)``.

    ``model_id`` is litellm's ``"provider/model"`` string. ``default_settings`` are OpenAI-named call settings
    (``temperature``, ``max_tokens``, ``timeout``, ...) or any other litellm keyword; a request's ``settings``
    override them, and its ``provider_options`` override both.
    """

    def __init__(
        self,
        model_id: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        **default_settings: Any,
    ) -> None:
        self.model_id = model_id
        # The registry's one rule for model ids (a bare id is OpenAI's, as litellm reads it).
        self.provider = provider_name(model_id)
        self.api_base = api_base
        self.api_key = api_key
        self.default_settings = dict(default_settings)

    def __repr__(self) -> str:
        return f"LiteLLMModel({self.model_id!r}, api_base={self.api_base!r})"

    def completion_kwargs(self, request: ModelRequest) -> dict[str, Any]:
        """The keyword arguments of the ``litellm.acompletion`` call (public so tests and traces can show them).

        Messages, tools and provider options are copied: litellm edits some arguments in place (it adds timing
        data to a ``metadata`` dict, for one), and the caller's message list must stay the runtime's own.
        """
        kwargs: dict[str, Any] = {**_BASE_SETTINGS, **self.default_settings, **request.settings}
        kwargs.update(
            model=self.model_id,
            # lone surrogates (half an emoji, e.g. from an imported thread) cannot go out as UTF-8: U+FFFD instead
            messages=scrub_json(copy.deepcopy(request.messages)),
            tools=copy.deepcopy(request.tools) or None,
            tool_choice=_tool_choice(request.tool_choice) if request.tools else None,
            stream=True,
            stream_options={"include_usage": True},
            api_base=self.api_base,
            api_key=self.api_key,
        )
        if request.response_format is not None:
            kwargs["response_format"] = _response_format(request.response_format)
        kwargs.update(copy.deepcopy(request.provider_options))
        return kwargs

    async def prepare(self) -> None:
        """Load litellm (off the loop) before a call whose time is limited: its import is not the provider's time."""
        await _load_litellm()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one call. Closing this iterator (or cancelling its task) closes the HTTP response."""
        litellm = await _load_litellm()
        kwargs = self.completion_kwargs(request)
        try:
            response = await litellm.acompletion(**kwargs)
        except Exception as exc:
            raise to_model_api_error(exc, provider=self.provider) from exc

        assembler = StreamAssembler(self.model_id)
        try:
            answer = _http_answer(response)
            if answer is not None and answer.is_page():
                raise await answer.error(self.provider)
            chunks = response.__aiter__()
            while True:
                try:
                    chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    break
                except Exception as exc:
                    raise to_model_api_error(exc, provider=self.provider) from exc
                for event in assembler.feed(chunk):
                    yield event
        finally:
            await _close_quietly(response)

        if answer is not None and assembler.empty() and (not answer.is_stream() or answer.is_plain_json()):
            # Not a page we recognised, but not a model stream either (or a whole JSON document where a stream
            # was asked for: a server that ignores ``stream``), and nothing came of it: litellm made up a "stop"
            # for a body it could not parse. Say what came back instead of an empty answer.
            raise await answer.error(self.provider)
        if assembler.raw_finish_reason is None and not assembler.saw_usage:
            # Neither the finish chunk nor the usage chunk (which follows it) arrived: the stream was cut.
            raise ModelAPIError(None, DROPPED_STREAM_MESSAGE, True, provider=self.provider, kind="dropped_stream")
        for event in assembler.finish():
            yield event


#: Media types of a streamed model answer (OpenAI's SSE, and the JSON forms a few providers stream).
_STREAM_TYPES = frozenset(
    {"text/event-stream", "application/x-ndjson", "application/json", "application/jsonl", "application/x-jsonl"}
)
#: Media types that are a document for people, never a model's answer.
_PAGE_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: How much of an unexpected body the error quotes.
_BODY_PREVIEW = 160


@dataclass
class _HttpAnswer:
    """What the provider's HTTP response said about itself, to tell a model stream from something else
    answering in its place (a captive portal, a proxy's error page, a web server at the wrong URL)."""

    status: int | None
    content_type: str
    host: str
    response: Any = None  # the httpx.Response when litellm exposes it (to quote the body)

    @property
    def media_type(self) -> str:
        return self.content_type.split(";", 1)[0].strip().lower()

    def is_page(self) -> bool:
        return self.media_type in _PAGE_TYPES

    def is_stream(self) -> bool:
        return not self.media_type or self.media_type in _STREAM_TYPES or self.media_type.endswith("+json")

    def is_plain_json(self) -> bool:
        """One JSON document: a few providers stream in it, but when nothing came of it, it was a whole answer."""
        return self.media_type == "application/json"

    async def preview(self) -> str:
        """The first bytes of the body, one line, for the error message (empty when it cannot be read)."""
        if self.response is None:
            return ""
        data = b""
        with contextlib.suppress(Exception):
            async for piece in self.response.aiter_bytes():
                data += piece
                if len(data) >= _BODY_PREVIEW * 4:
                    break
        text = " ".join(data.decode("utf-8", "replace").split())
        return text if len(text) <= _BODY_PREVIEW else text[: _BODY_PREVIEW - 1] + "…"

    async def error(self, provider: str | None) -> ModelAPIError:
        if self.is_page():
            kind = "a web page"
        elif self.is_plain_json():
            kind = "a whole JSON document where a stream was asked for (a server that does not stream?)"
        else:
            kind = "something that is not a model stream"
        status = f"HTTP {self.status}" if self.status is not None else "a response"
        message = (
            f"The provider's address answered with {kind} ({status}, {self.content_type or 'no content type'}, "
            f"from {self.host or 'an unknown host'}) instead of a model response; a captive portal, a proxy or a "
            "wrong API base URL may be in the way"
        )
        preview = await self.preview()
        if preview:
            message += f". It begins: {preview!r}"
        return ModelAPIError(self.status, message, False, provider=provider, body=preview or None)


def _http_answer(response: Any) -> _HttpAnswer | None:
    """Status, content type and host of the HTTP response behind litellm's stream, when it can be known.

    OpenAI-compatible providers stream through the ``openai`` client, whose stream keeps the ``httpx.Response``;
    other providers at least leave the headers in ``_hidden_params``. Only the host is kept of the URL: a path
    or query string can carry a key.
    """
    http = get_field(get_field(response, "completion_stream"), "response")
    if http is not None and hasattr(http, "headers"):
        with contextlib.suppress(Exception):
            url = http.url
            host = f"{url.host}:{url.port}" if url.port else str(url.host)
            return _HttpAnswer(http.status_code, str(http.headers.get("content-type") or ""), host, http)
    hidden = get_field(response, "_hidden_params")
    headers = get_field(hidden, "additional_headers") if isinstance(hidden, Mapping) else None
    if isinstance(headers, Mapping) and headers.get("llm_provider-content-type"):
        api_base = get_field(hidden, "api_base")
        host = ""
        if isinstance(api_base, str):
            with contextlib.suppress(ValueError):
                parts = urllib.parse.urlsplit(api_base)
                host = f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname or ""
        return _HttpAnswer(None, str(headers["llm_provider-content-type"]), host)
    return None


async def _close_quietly(response: Any) -> None:
    """Release the HTTP connection; a failure to close must not hide the error (or result) we already have."""
    closer = getattr(response, "aclose", None)
    with contextlib.suppress(Exception):
        if closer is not None:
            await closer()
            return
        closer = getattr(response, "close", None)
        if closer is not None:
            result = closer()
            if asyncio.iscoroutine(result):
                await result


# --- request mapping ------------------------------------------------------------------------------------------


def _tool_choice(choice: str | dict[str, Any] | None) -> str | dict[str, Any] | None:
    if isinstance(choice, dict) and choice.get("type") == "tool":
        return {"type": "function", "function": {"name": choice["toolName"]}}
    return choice  # "auto" / "none" / "required" / an OpenAI-shaped dict / None


def _response_format(schema: dict[str, Any]) -> dict[str, Any]:
    """Accept a full OpenAI ``response_format``, a ``json_schema`` object, or a bare JSON schema."""
    if schema.get("type") in ("json_schema", "json_object", "text") and "properties" not in schema:
        return schema
    if "schema" in schema:
        return {"type": "json_schema", "json_schema": schema}
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "response"))[:64]
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}


__all__ = ["DROPPED_STREAM_MESSAGE", "LiteLLMModel"]
