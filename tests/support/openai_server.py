"""A scriptable OpenAI-compatible chat-completions server for tests (stdlib only, 127.0.0.1, free port).

Real litellm talks HTTP to it, so tests cover what mocks cannot: SSE framing, tool-call fragments, the usage
chunk with an empty ``choices`` list, HTTP errors with their headers, a socket dropped mid-stream, and a client
that hangs up early. No test ever needs the internet.

Use the ``openai_server`` fixture (``tests/conftest.py`` loads this module as a plugin, so every test can name
it; import only the classes)::

    from tests.support.openai_server import OpenAIServer, ToolCallReply

    async def test_hello(openai_server: OpenAIServer) -> None:
        openai_server.reply_text("Hel", "lo")
        model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")
        ...
        assert openai_server.requests[0]["messages"] == [...]

Every request takes the next scripted reply from a FIFO queue:

- :meth:`OpenAIServer.reply_text` — content deltas (and optionally reasoning deltas first);
- :meth:`OpenAIServer.reply_tool_calls` — one or more :class:`ToolCallReply` (arguments in fragments);
- :meth:`OpenAIServer.reply_error` — an HTTP error with OpenAI's JSON error body and optional headers
  (``{"Retry-After": "7"}``);
- :meth:`OpenAIServer.reply_drop` — a few chunks, then the socket is closed without finishing the response;
- :meth:`OpenAIServer.reply_html` — an HTTP 200 whose body is an HTML page (a captive portal or a proxy's page);
- any reply can be slow: ``delay=`` seconds between chunks, ``headers_delay=`` before the response starts;
- :meth:`OpenAIServer.reply` takes a hand-built :class:`StreamReply` or :class:`ErrorReply`.

A request without ``stream: true`` gets the same reply as one ``chat.completion`` JSON object. Outside pytest,
use ``with OpenAIServer() as server: ...`` (or ``start()``/``stop()``).

When the queue is empty the server answers 500 with an ``OpenAIServer: no scripted reply left`` message, so an
under-scripted test fails visibly instead of hanging.

What the server saw: :attr:`OpenAIServer.requests` (parsed JSON bodies, in order),
:attr:`OpenAIServer.request_headers`, :attr:`OpenAIServer.closed_connections` (connections ended, by either
side), :attr:`OpenAIServer.abandoned_streams` (streams the client hung up on before the server finished them);
:meth:`OpenAIServer.wait_until` / :meth:`OpenAIServer.async_wait_until` wait for one of those to change.

Streams use HTTP/1.1 chunked transfer encoding, like OpenAI, so a dropped socket is a truncated body the client
can notice (not a clean end of a ``Connection: close`` response).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest

__all__ = [
    "ErrorReply",
    "OpenAIServer",
    "PageReply",
    "StreamReply",
    "ToolCallReply",
    "openai_server",
]

CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")


@dataclass
class ToolCallReply:
    """One tool call the scripted model makes. ``arguments`` are sent as the given fragments, in order."""

    name: str
    #: JSON text split into the pieces the server streams; a single string is sent as one fragment.
    arguments: Sequence[str] | str = ("{}",)
    #: The call id sent in the first chunk; ``None`` sends no id at all (some providers do that).
    id: str | None = "auto"

    def fragments(self) -> list[str]:
        return [self.arguments] if isinstance(self.arguments, str) else list(self.arguments)


@dataclass
class StreamReply:
    """A successful (or deliberately broken) response. Chunks go out in this order: role, reasoning, content,
    tool calls, the finish chunk, the usage chunk (only when the request asked with
    ``stream_options.include_usage``), ``data: [DONE]``."""

    content: Sequence[str] = ()
    reasoning: Sequence[str] = ()
    tool_calls: Sequence[ToolCallReply] = ()
    #: ``None`` picks ``"tool_calls"`` when there are tool calls, else ``"stop"``.
    finish_reason: str | None = None
    #: Leave out the finish chunk (the one carrying ``finish_reason``) but still end with ``data: [DONE]``.
    omit_finish: bool = False
    prompt_tokens: int = 10
    #: ``None`` counts one token per content, reasoning and argument fragment.
    completion_tokens: int | None = None
    #: Sent as ``usage.completion_tokens_details.reasoning_tokens`` when not ``None``.
    reasoning_tokens: int | None = None
    #: Seconds to wait between chunks (the server notices a client that hangs up while it waits).
    delay: float = 0.0
    #: Seconds to wait before sending the status line (to test client timeouts).
    headers_delay: float = 0.0
    #: Stop after this many SSE events (the role chunk counts as the first), without a finish chunk or [DONE].
    drop_after: int | None = None
    #: ``"abort"``: close the socket mid-body (the chunked body is left incomplete, like a crashed proxy);
    #: ``"truncate"``: end the HTTP body cleanly but without a finish_reason and without ``data: [DONE]``.
    drop_mode: Literal["abort", "truncate"] = "abort"
    response_id: str | None = None


@dataclass
class ErrorReply:
    """An HTTP error with OpenAI's error body ``{"error": {"message", "type", "code"}}``."""

    status: int
    message: str = "error"
    type: str = "invalid_request_error"
    code: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    #: Replaces the whole JSON body when set (a ``str`` is sent as is).
    body: Any = None
    headers_delay: float = 0.0


@dataclass
class PageReply:
    """A response that is not the API at all: what a captive portal or a misconfigured proxy sends, ``200 OK``
    with a web page, whatever the request asked for."""

    body: str = "<!DOCTYPE html><html><head><title>Sign in to Wi-Fi</title></head><body>Accept the terms</body></html>"
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers_delay: float = 0.0


Reply = StreamReply | ErrorReply | PageReply


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked encoding, like the real API
    server: _Server
    timeout = 30  # an idle keep-alive connection does not pin a thread forever

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._connection_closed(self.connection)

    def setup(self) -> None:
        super().setup()
        self.server.owner._connection_opened(self.connection)

    # --- routing -------------------------------------------------------------------------------------------

    def do_GET(self) -> None:
        """The model listing local servers answer (LM Studio, vLLM ...): :attr:`OpenAIServer.models`."""
        if self.path.split("?", 1)[0] != "/v1/models":
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found", "code": None}})
            return
        models = [{"id": name, "object": "model"} for name in self.server.owner.models]
        self._send_json(200, {"object": "list", "data": models})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path.split("?", 1)[0] not in CHAT_PATHS:
            self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found", "code": None}})
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._send_json(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
            return
        reply = self.server.owner._record(body, {k.lower(): v for k, v in self.headers.items()})
        if reply is None:
            message = "OpenAIServer: no scripted reply left for this request"
            self._send_json(500, {"error": {"message": message, "type": "server_error", "code": None}})
            return
        if reply.headers_delay and not self._sleep_watching(reply.headers_delay):
            self.server.owner._stream_abandoned()
            self.close_connection = True
            return
        if isinstance(reply, ErrorReply):
            self._send_error_reply(reply)
        elif isinstance(reply, PageReply):
            self._send_page(reply)
        elif body.get("stream"):
            self._send_stream(reply, body)
        else:
            self._send_json(200, _completion(reply, body))

    # --- responses -----------------------------------------------------------------------------------------

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_error_reply(self, reply: ErrorReply) -> None:
        body = reply.body
        if body is None:
            body = {"error": {"message": reply.message, "type": reply.type, "param": None, "code": reply.code}}
        self._send_json(reply.status, body, reply.headers)

    def _send_page(self, reply: PageReply) -> None:
        data = reply.body.encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_stream(self, reply: StreamReply, body: dict[str, Any]) -> None:
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        events = _stream_events(reply, body, include_usage)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            self.wfile.flush()
            for number, event in enumerate(events):
                if reply.drop_after is not None and number >= reply.drop_after:
                    self._drop(reply.drop_mode)
                    return
                if number and reply.delay and not self._sleep_watching(reply.delay):
                    raise ConnectionResetError("client hung up")
                self._write_chunk(f"data: {event}\n\n".encode())
                self.server.owner._event_sent()
            self._write_chunk(b"")  # end of the chunked body
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            self.server.owner._stream_abandoned()
            self.close_connection = True

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _drop(self, mode: str) -> None:
        if mode == "truncate":
            self._write_chunk(b"")
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _sleep_watching(self, seconds: float) -> bool:
        """Sleep, but wake up and say so (False) if the client closes the connection meanwhile."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.connection], [], [], left)
            if not readable:
                continue
            try:
                peeked = self.connection.recv(1, socket.MSG_PEEK)
            except OSError:
                return False
            if not peeked:
                return False
            time.sleep(left)  # the client sent something (pipelining); just finish the wait
        return True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # stop() shuts live connections down itself
    owner: OpenAIServer


def _chunk(base: dict[str, Any], delta: dict[str, Any], finish_reason: str | None = None) -> str:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
    return json.dumps({**base, "choices": [choice]})


def _default_finish(reply: StreamReply) -> str:
    if reply.finish_reason is not None:
        return reply.finish_reason
    return "tool_calls" if reply.tool_calls else "stop"


def _usage(reply: StreamReply) -> dict[str, Any]:
    completion = reply.completion_tokens
    if completion is None:
        completion = len(reply.content) + len(reply.reasoning) + sum(len(c.fragments()) for c in reply.tool_calls)
    usage: dict[str, Any] = {
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": completion,
        "total_tokens": reply.prompt_tokens + completion,
    }
    if reply.reasoning_tokens is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reply.reasoning_tokens}
    return usage


def _call_id(call: ToolCallReply, index: int, response_id: str) -> str | None:
    return f"call_{response_id[-6:]}_{index}" if call.id == "auto" else call.id


def _stream_events(reply: StreamReply, body: dict[str, Any], include_usage: bool) -> Iterator[str]:
    response_id = reply.response_id or f"chatcmpl-{time.monotonic_ns():x}"
    base = {
        "id": response_id,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "test-model"),
        "system_fingerprint": "fp_test",
    }
    yield _chunk(base, {"role": "assistant", "content": "", "refusal": None})
    for text in reply.reasoning:
        yield _chunk(base, {"reasoning_content": text})
    for text in reply.content:
        yield _chunk(base, {"content": text})
    for index, call in enumerate(reply.tool_calls):
        head: dict[str, Any] = {"index": index, "type": "function", "function": {"name": call.name, "arguments": ""}}
        call_id = _call_id(call, index, response_id)
        if call_id is not None:
            head["id"] = call_id
        yield _chunk(base, {"tool_calls": [head]})
        for fragment in call.fragments():
            yield _chunk(base, {"tool_calls": [{"index": index, "function": {"arguments": fragment}}]})
    if not reply.omit_finish:
        yield _chunk(base, {}, _default_finish(reply))
    if include_usage:
        yield json.dumps({**base, "choices": [], "usage": _usage(reply)})
    yield "[DONE]"


def _completion(reply: StreamReply, body: dict[str, Any]) -> dict[str, Any]:
    """The non-streaming form of a reply, for callers that do not ask for ``stream: true``."""
    response_id = reply.response_id or f"chatcmpl-{time.monotonic_ns():x}"
    message: dict[str, Any] = {"role": "assistant", "content": "".join(reply.content) or None}
    if reply.reasoning:
        message["reasoning_content"] = "".join(reply.reasoning)
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": _call_id(call, index, response_id) or f"call_{index}",
                "type": "function",
                "function": {"name": call.name, "arguments": "".join(call.fragments())},
            }
            for index, call in enumerate(reply.tool_calls)
        ]
    return {
        "id": response_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "test-model"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": _default_finish(reply)}],
        "usage": _usage(reply),
    }


class OpenAIServer:
    """The server and its script. Thread-safe: handlers run on their own threads, tests read from theirs."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._queue: deque[Reply] = deque()
        self._open: set[socket.socket] = set()
        #: Parsed JSON bodies of every chat-completions request, in arrival order.
        self.requests: list[dict[str, Any]] = []
        #: The HTTP headers of each request in :attr:`requests` (same order), names lower-cased.
        self.request_headers: list[dict[str, str]] = []
        #: What ``GET /v1/models`` lists.
        self.models: list[str] = ["test-model"]
        #: Connections that ended, closed by either side (a pooled keep-alive connection counts when it closes).
        self.closed_connections = 0
        #: Streams (or delayed responses) the client hung up on before the server had sent everything.
        self.abandoned_streams = 0
        #: SSE events written so far, over all streams (each stream's first is the role chunk, then the deltas),
        #: and when each was written (``time.perf_counter()``).
        self.events_sent = 0
        self.event_times: list[float] = []
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    # --- lifecycle ------------------------------------------------------------------------------------------

    def start(self) -> OpenAIServer:
        httpd = _Server(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        self._httpd = httpd
        port = httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        self._thread = threading.Thread(
            target=httpd.serve_forever, args=(0.05,), name=f"openai-server-{port}", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        httpd.shutdown()
        with self._lock:
            live = list(self._open)
        for sock in live:  # wake handler threads blocked on idle keep-alive connections
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- scripting ------------------------------------------------------------------------------------------

    def reply(self, *replies: Reply) -> None:
        """Queue replies; each request consumes the next one."""
        with self._lock:
            self._queue.extend(replies)

    def reply_text(
        self,
        *content: str,
        reasoning: Sequence[str] = (),
        finish_reason: str | None = None,
        prompt_tokens: int = 10,
        completion_tokens: int | None = None,
        reasoning_tokens: int | None = None,
        delay: float = 0.0,
        headers_delay: float = 0.0,
    ) -> StreamReply:
        """Queue a text answer streamed as the given deltas (reasoning deltas, if any, come first)."""
        reply = StreamReply(
            content=content,
            reasoning=reasoning,
            finish_reason=finish_reason,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            reasoning_tokens=reasoning_tokens,
            delay=delay,
            headers_delay=headers_delay,
        )
        self.reply(reply)
        return reply

    def reply_tool_calls(
        self,
        *calls: ToolCallReply,
        content: Sequence[str] = (),
        finish_reason: str | None = None,
        prompt_tokens: int = 10,
        completion_tokens: int | None = None,
        delay: float = 0.0,
    ) -> StreamReply:
        """Queue an answer that calls tools (``finish_reason`` defaults to ``"tool_calls"``)."""
        reply = StreamReply(
            content=content,
            tool_calls=calls,
            finish_reason=finish_reason,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            delay=delay,
        )
        self.reply(reply)
        return reply

    def reply_error(
        self,
        status: int,
        message: str = "error",
        *,
        type: str = "invalid_request_error",
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> ErrorReply:
        """Queue an HTTP error, e.g. ``reply_error(429, "slow down", headers={"Retry-After": "7"})``."""
        reply = ErrorReply(status, message, type, code, dict(headers or {}))
        self.reply(reply)
        return reply

    def reply_drop(
        self,
        *content: str,
        mode: Literal["abort", "truncate"] = "abort",
        delay: float = 0.0,
    ) -> StreamReply:
        """Queue a stream that sends the role chunk and ``content`` deltas, then breaks (see ``drop_mode``)."""
        reply = StreamReply(content=content, delay=delay, drop_after=1 + len(content), drop_mode=mode)
        self.reply(reply)
        return reply

    def reply_html(self, body: str | None = None, *, status: int = 200, content_type: str | None = None) -> PageReply:
        """Queue a web page instead of an API answer (by default a captive portal's sign-in page, ``200 OK``)."""
        reply = PageReply()
        if body is not None:
            reply.body = body
        reply.status = status
        if content_type is not None:
            reply.content_type = content_type
        self.reply(reply)
        return reply

    @property
    def pending(self) -> int:
        """Scripted replies not consumed yet."""
        with self._lock:
            return len(self._queue)

    # --- waiting --------------------------------------------------------------------------------------------

    def wait_until(self, predicate: Callable[[OpenAIServer], bool], within: float = 5.0) -> bool:
        """Block until ``predicate(server)`` is true (re-checked on every server event); False after ``within`` s.

        Example: ``server.wait_until(lambda s: s.abandoned_streams == 1)``.
        """
        with self._lock:
            return self._lock.wait_for(lambda: predicate(self), within)

    async def async_wait_until(self, predicate: Callable[[OpenAIServer], bool], within: float = 5.0) -> bool:
        """:meth:`wait_until` for async tests: waits in a worker thread, so the event loop keeps running."""
        return await asyncio.to_thread(self.wait_until, predicate, within)

    # --- called by handlers ---------------------------------------------------------------------------------

    def _record(self, body: dict[str, Any], headers: dict[str, str]) -> Reply | None:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            self._lock.notify_all()
            return self._queue.popleft() if self._queue else None

    def _connection_opened(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.add(sock)

    def _connection_closed(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.discard(sock)
            self.closed_connections += 1
            self._lock.notify_all()

    def _event_sent(self) -> None:
        with self._lock:
            self.events_sent += 1
            self.event_times.append(time.perf_counter())
            self._lock.notify_all()

    def _stream_abandoned(self) -> None:
        with self._lock:
            self.abandoned_streams += 1
            self._lock.notify_all()


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A fresh :class:`OpenAIServer` on 127.0.0.1 for one test; ``.base_url`` ends in ``/v1``."""
    with OpenAIServer() as server:
        yield server
