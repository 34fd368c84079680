"""The litellm adapter: any provider litellm knows, streamed as the runtime's model events.

This is the only module that imports litellm, and it does so lazily, off the event loop's thread, the first
time a call is made: litellm takes ~3 s to import, which would freeze the studio's UI and slow every test that
never talks to a provider. Everything litellm returns is typed ``Any``; the rest of the runtime only ever sees
:mod:`processors.models.base` events and :class:`processors.errors.ModelAPIError`.

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
- The OpenAI client retries 429/5xx/connection errors twice by default (three requests and ~2 s of backoff);
  the runtime owns retries (error processors, ``retry_after``), so this adapter sets ``max_retries=0`` and
  ``num_retries=0`` unless the caller overrides them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import email.utils
import importlib
import json
import os
import re
import time
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from processors.errors import ModelAPIError
from processors.messages.surrogates import SurrogateJoiner, scrub, scrub_json
from processors.models.base import (
    Finish,
    ModelEvent,
    ModelRequest,
    ReasoningDelta,
    ResponseMetadata,
    TextDelta,
    ToolCallComplete,
    ToolCallDelta,
    ToolCallStart,
)
from processors.usage import Usage

__all__ = ["LiteLLMModel"]

#: The imported litellm module once the first call loaded it.
_litellm: Any = None

#: Settings every call gets unless the constructor or the request says otherwise. The runtime's loop decides
#: whether and when to retry (it sees ``retryable`` and ``retry_after``); retries hidden inside litellm would
#: multiply with it and delay errors by seconds.
_BASE_SETTINGS: dict[str, Any] = {"num_retries": 0, "max_retries": 0}

_FINISH_REASONS: dict[str, str] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool-calls",
    "function_call": "tool-calls",
    "content_filter": "content-filter",
}

DROPPED_STREAM_MESSAGE = "The provider closed the stream before it finished"


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
        # Without a prefix litellm infers the provider from the model name; we cannot know it without
        # importing litellm, so the display name says who decides.
        self.provider = model_id.split("/", 1)[0] if "/" in model_id else "litellm"
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

        assembler = _StreamAssembler(self.model_id)
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

        if answer is not None and not answer.is_stream() and assembler.empty():
            # Not a page we recognised, but not a model stream either, and nothing came of it: litellm made
            # up a "stop" for a body it could not parse. Say what came back instead of an empty answer.
            raise await answer.error(self.provider)
        if assembler.raw_finish_reason is None and not assembler.saw_usage:
            # Neither the finish chunk nor the usage chunk (which follows it) arrived: the stream was cut.
            raise ModelAPIError(None, DROPPED_STREAM_MESSAGE, True, provider=self.provider)
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
        kind = "a web page" if self.is_page() else "something that is not a model stream"
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
    http = _get(_get(response, "completion_stream"), "response")
    if http is not None and hasattr(http, "headers"):
        with contextlib.suppress(Exception):
            url = http.url
            host = f"{url.host}:{url.port}" if url.port else str(url.host)
            return _HttpAnswer(http.status_code, str(http.headers.get("content-type") or ""), host, http)
    hidden = _get(response, "_hidden_params")
    headers = _get(hidden, "additional_headers") if isinstance(hidden, Mapping) else None
    if isinstance(headers, Mapping) and headers.get("llm_provider-content-type"):
        api_base = _get(hidden, "api_base")
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


# --- response mapping -----------------------------------------------------------------------------------------


def _get(obj: Any, name: str) -> Any:
    """Read a field from a litellm pydantic object or a plain dict (providers differ)."""
    if obj is None:
        return None
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


@dataclass
class _ToolCallState:
    index: int
    tool_call_id: str
    name: str | None = None
    arguments: list[str] = field(default_factory=list)
    started: bool = False


class _StreamAssembler:
    """Turns litellm chunks into model events; keeps what ``Finish`` and ``ToolCallComplete`` need."""

    def __init__(self, model_id: str) -> None:
        self._model_id = model_id
        self._metadata_sent = False
        self._calls: list[_ToolCallState] = []
        self._current: dict[int, _ToolCallState] = {}
        self.raw_finish_reason: str | None = None
        self.usage: Usage | None = None
        self.saw_usage = False
        # A provider may split an emoji's JSON surrogate pair across two events: join the halves as they come.
        self._text = SurrogateJoiner()
        self._reasoning = SurrogateJoiner()
        self._produced = False

    def empty(self) -> bool:
        """Nothing at all came of the stream: no text, no reasoning, no tool call, no usage."""
        return not (self._produced or self._calls or self.saw_usage)

    def feed(self, chunk: Any) -> Iterator[ModelEvent]:
        if not self._metadata_sent:
            self._metadata_sent = True
            yield ResponseMetadata(_get(chunk, "id"), _get(chunk, "model") or self._model_id)
        usage = _get(chunk, "usage")
        if usage is not None:
            self.saw_usage = True
            self.usage = _usage(usage)
        for choice in _get(chunk, "choices") or ():  # the usage chunk has no choices
            if (_get(choice, "index") or 0) != 0:
                continue
            delta = _get(choice, "delta")
            if delta is not None:
                reasoning = _get(delta, "reasoning_content")
                if reasoning:
                    self._produced = True
                    reasoning = self._reasoning.feed(reasoning)
                    if reasoning:
                        yield ReasoningDelta(reasoning)
                content = _get(delta, "content")
                if content:
                    self._produced = True
                    content = self._text.feed(content)
                    if content:
                        yield TextDelta(content)
                for call in _get(delta, "tool_calls") or ():
                    yield from self._tool_call(call)
            reason = _get(choice, "finish_reason")
            if reason is not None:
                self.raw_finish_reason = str(reason)

    def _tool_call(self, call: Any) -> Iterator[ModelEvent]:
        index = _get(call, "index") or 0
        call_id = _get(call, "id")
        function = _get(call, "function")
        name = _get(function, "name")
        fragment = _get(function, "arguments")
        state = self._current.get(index)
        if state is None or (call_id and call_id != state.tool_call_id):
            # Some adapters reuse index 0 for every call; a new id is then the only sign of a new call.
            state = _ToolCallState(index, call_id or f"call_{uuid.uuid4().hex}")
            self._current[index] = state
            self._calls.append(state)
        if name and not state.name:
            state.name = name
        if fragment:
            state.arguments.append(fragment)
        if not state.started:
            if state.name is None:
                return  # hold the fragments until the name arrives: a start needs one
            state.started = True
            yield ToolCallStart(state.tool_call_id, state.name)
            if state.arguments:
                yield ToolCallDelta(state.tool_call_id, "".join(state.arguments))
        elif fragment:
            yield ToolCallDelta(state.tool_call_id, fragment)

    def finish(self) -> Iterator[ModelEvent]:
        held = self._reasoning.flush()  # half a pair whose other half never came: U+FFFD
        if held:
            yield ReasoningDelta(held)
        held = self._text.flush()
        if held:
            yield TextDelta(held)
        for state in sorted(self._calls, key=lambda s: s.index):  # sorted() is stable: arrival order per index
            name = state.name or ""
            if not state.started:
                yield ToolCallStart(state.tool_call_id, name)
            yield ToolCallComplete(state.tool_call_id, name, scrub("".join(state.arguments)))
        reason = finish_reason(self.raw_finish_reason, had_tool_calls=bool(self._calls))
        yield Finish(reason, self.usage, self.raw_finish_reason)


def finish_reason(raw: str | None, *, had_tool_calls: bool = False) -> str:
    """Map an OpenAI/litellm finish reason to Mastra's (``tool_calls`` → ``tool-calls`` ...)."""
    if raw is None:
        return "tool-calls" if had_tool_calls else "unknown"
    return _FINISH_REASONS.get(raw, "other")


def _usage(usage: Any) -> Usage:
    prompt = _get(usage, "prompt_tokens") or 0
    completion = _get(usage, "completion_tokens") or 0
    total = _get(usage, "total_tokens")
    return Usage(
        input_tokens=prompt,
        output_tokens=completion,
        total_tokens=total if total is not None else prompt + completion,
        reasoning_tokens=_get(_get(usage, "completion_tokens_details"), "reasoning_tokens"),
        cached_input_tokens=_get(_get(usage, "prompt_tokens_details"), "cached_tokens"),
    )


# --- errors ---------------------------------------------------------------------------------------------------

_LITELLM_PREFIX = re.compile(r"^(?:(?:litellm\.)?\w*(?:Error|Exception|Timeout)(?::|\s+-)\s*)+")


def to_model_api_error(exc: BaseException, *, provider: str | None = None) -> ModelAPIError:
    """One error shape for every litellm/openai/httpx failure, so error processors need not know providers."""
    provider = _get(exc, "llm_provider") or provider
    mid_stream = False
    original = exc
    if type(exc).__name__ == "MidStreamFallbackError":
        mid_stream = True
        original = _get(exc, "original_exception") or exc

    headers = _response_headers(original)
    status = _get(original, "status_code")
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
            message = DROPPED_STREAM_MESSAGE
        elif _is_timeout(transport):
            message = "The provider did not answer in time"
        else:
            message = "Could not reach the provider"
        detail = _clean(str(original))
        if detail and detail.rstrip(".") not in message:
            message = f"{message} ({detail})"
        return ModelAPIError(None, message, True, retry_after=retry_after, provider=provider, body=body)
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
    for candidate in (_get(exc, "litellm_response_headers"), _get(_get(exc, "response"), "headers")):
        if candidate:
            with contextlib.suppress(Exception):
                return {str(k).lower(): str(v) for k, v in dict(candidate).items()}
    return {}


def _response_body(exc: BaseException) -> Any:
    """The error body as the provider sent it (parsed JSON), else litellm's ``.body``."""
    response = _get(exc, "response")
    content: Any = None
    with contextlib.suppress(Exception):
        content = response.content if response is not None else None
    if content:
        try:
            return json.loads(content)
        except ValueError:
            return content.decode("utf-8", "replace") if isinstance(content, bytes) else content
    return _get(exc, "body")


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
