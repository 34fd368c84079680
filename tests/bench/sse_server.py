"""The lab benchmark's stand-in for a remote provider: an OpenAI-compatible streaming server on one asyncio loop.

``bench_lab.py`` measures the lab's CPU, not a provider's. The test server (``tests/support/openai_server.py``)
spends a thread, a ``select`` loop and JSON encoding on every answer: ~5-9 s of CPU for the ~480 answers of a
1,000-case run, on a 2-core machine where the lab's workers need both cores. This server answers the same bytes a
``StreamReply(content=REPLY, headers_delay=DELAY)`` of the test server does (status, headers, the role chunk, the
content deltas, the finish chunk, the usage chunk when ``stream_options.include_usage`` asks, ``data: [DONE]``,
HTTP/1.1 chunked encoding, keep-alive), with the events made once and a timer instead of a thread per call.
``tests/lab/test_bench_server.py`` checks that litellm reads the same answer from both.

It also plays the benchmark's rate limit: from request ``limit_after`` on, for ``limit_seconds``, every request is
answered 429 with ``Retry-After: 1`` and OpenAI's error body, as a provider's per-minute limit would.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

#: The answer's content deltas and the delay before its headers (seconds), as the benchmark scripts them.
REPLY = ("Sure, ", "happy to help.")
DELAY = 0.2
PROMPT_TOKENS = 10


class BenchServer:
    """``await start()`` binds 127.0.0.1 on a free port (:attr:`base_url`); counts :attr:`requests` and
    :attr:`limited` (the 429s)."""

    def __init__(self, *, delay: float = DELAY, limit_after: int | None = None, limit_seconds: float = 1.0) -> None:
        self.delay = delay
        self.limit_after = limit_after
        self.limit_seconds = limit_seconds
        self.requests = 0
        self.limited = 0
        self.base_url = ""
        self._window_ends: float | None = None
        self._server: asyncio.Server | None = None
        self._writers: dict[asyncio.StreamWriter, asyncio.Task[Any]] = {}

    async def start(self) -> BenchServer:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            handlers = list(self._writers.values())
            for writer in list(self._writers):  # idle keep-alive connections: their handlers end on EOF
                writer.close()
            await asyncio.gather(*handlers, return_exceptions=True)
            await self._server.wait_closed()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._writers[writer] = task
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = json.loads(await reader.readexactly(length)) if length else {}
                writer.write(await self._answer(body))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self._writers.pop(writer, None)
            writer.close()

    async def _answer(self, body: dict[str, Any]) -> bytes:
        self.requests += 1
        now = time.monotonic()
        if self.limit_after is not None and self.requests == self.limit_after:
            self._window_ends = now + self.limit_seconds
        if self._window_ends is not None and now < self._window_ends:
            self.limited += 1
            return _rate_limited()  # at once, as the test server's error replies (no delay)
        await asyncio.sleep(self.delay)
        return _stream(body)


def _rate_limited() -> bytes:
    error = {"error": {"message": "slow down", "type": "rate_limit_error", "param": None, "code": None}}
    data = json.dumps(error).encode()
    head = (
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nRetry-After: 1\r\n\r\n"
    )
    return head.encode() + data


_STREAM_HEAD = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n"
)


def _stream(body: dict[str, Any]) -> bytes:
    """The whole streamed answer, as the test server would send it for the benchmark's reply."""
    base = {
        "id": f"chatcmpl-{time.monotonic_ns():x}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "test-model"),
        "system_fingerprint": "fp_test",
    }

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        return json.dumps({**base, "choices": [choice]})

    events = [chunk({"role": "assistant", "content": "", "refusal": None})]
    events += [chunk({"content": text}) for text in REPLY]
    events.append(chunk({}, "stop"))
    if (body.get("stream_options") or {}).get("include_usage"):
        usage = {"prompt_tokens": PROMPT_TOKENS, "completion_tokens": len(REPLY)}
        usage["total_tokens"] = PROMPT_TOKENS + len(REPLY)
        events.append(json.dumps({**base, "choices": [], "usage": usage}))
    events.append("[DONE]")
    out = [_STREAM_HEAD]
    for event in events:
        data = f"data: {event}\n\n".encode()
        out.append(f"{len(data):x}\r\n".encode() + data + b"\r\n")
    out.append(b"0\r\n\r\n")
    return b"".join(out)


__all__ = ["DELAY", "REPLY", "BenchServer"]
