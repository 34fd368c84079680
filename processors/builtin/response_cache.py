"""``ResponseCache``: answer a repeated model call from a cache instead of calling the model again.

::

    from processors.builtin.response_cache import MemoryCache, ResponseCache

    cache = ResponseCache(ttl_seconds=600)                         # an in-process cache of its own
    shared = ResponseCache(cache=MemoryCache(max_entries=5_000))   # or any CacheBackend (Redis, disk ...)
    Agent(id="a", model="openai/gpt-4o-mini", input_processors=[cache])

Mastra's ``ResponseCache`` (``process_llm_request`` + ``process_llm_response``). Before each model call the key
is computed: a SHA-256 of the agent id option, the step number, the scope (by default the run's resource id, so
two users never share answers; a run without one uses the unscoped entries, as in Mastra), the model
(``provider:model_id``) and the prompt. On a hit the cached chunks are returned as ``{"response": {"chunks":
[...]}}``: the model is not called, the runtime replays the chunks, then calls ``process_llm_response`` with
``from_cache=True`` (that replay is not written back). On a miss, ``process_llm_response`` stores the step's
chunks for ``ttl_seconds`` unless the step produced an ``error`` or ``tripwire`` chunk. Cache failures are
logged and never fail the run.

Per call, ``request_context`` may carry ``"mastra__response_cache_context": {"key", "scope", "bust"}``:
an explicit key, another scope, or ``bust`` (skip the lookup and overwrite the entry).

The backend is pluggable: anything with ``get(key)`` and ``set(key, value, ttl_seconds)``, sync or async
(:class:`CacheBackend`). The default :class:`MemoryCache` keeps entries in process, with a TTL and LRU eviction.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import time
from collections import OrderedDict
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.pipeline.processor import ProcessLLMRequestArgs, ProcessLLMResponseArgs

logger = logging.getLogger(__name__)

#: The request-context key for per-call overrides (Mastra's name).
CONTEXT_KEY = "mastra__response_cache_context"
#: Chunk types whose presence means "do not cache this response".
_UNCACHEABLE = frozenset({"error", "tripwire"})


@runtime_checkable
class CacheBackend(Protocol):
    """Where cached responses live. Methods may be sync or ``async``; values are JSON-serialisable dicts."""

    def get(self, key: str) -> Any:
        """The stored value, or None when absent or expired."""
        ...

    def set(self, key: str, value: Any, ttl_seconds: float | None) -> Any:
        """Store ``value`` for ``ttl_seconds`` (None: until evicted)."""
        ...


class MemoryCache:
    """An in-process cache with a time-to-live per entry and least-recently-used eviction."""

    def __init__(self, max_entries: int = 1_000) -> None:
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1, got {max_entries}")
        self.max_entries = max_entries
        self._entries: OrderedDict[str, tuple[float | None, Any]] = OrderedDict()

    def get(self, key: str) -> Any:
        entry = self._entries.get(key)
        if entry is None:
            return None
        expires, value = entry
        if expires is not None and time.monotonic() >= expires:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    def set(self, key: str, value: Any, ttl_seconds: float | None) -> None:
        expires = None if ttl_seconds is None else time.monotonic() + ttl_seconds
        self._entries[key] = (expires, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def delete(self, key: str) -> None:
        self._entries.pop(key, None)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class ResponseCacheOptions(ProcessorOptions):
    ttl_seconds: int = Field(default=300, ge=0, le=31_536_000, description="How long an answer is kept (0: forever).")
    scope: Literal["resource", "thread", "global"] = Field(
        default="resource",
        description="Who shares answers: one user (resource), one conversation (thread), or everyone (global).",
    )
    key: str | None = Field(
        default=None, max_length=500, description="A fixed cache key for every call (normally computed)."
    )
    agent_id: str | None = Field(
        default=None, max_length=200, description="Part of the key, so two agents never share answers."
    )
    bust: bool = Field(default=False, description="Never read the cache; every answer is stored again.")
    max_entries: int = Field(default=1_000, ge=1, le=1_000_000, description="Capacity of the built-in in-memory cache.")


class ResponseCache(BuiltinProcessor):
    """Answers a repeated model call (same scope, model and prompt) from a cache; the model is not called."""

    Options: ClassVar[type[ProcessorOptions]] = ResponseCacheOptions
    type_name: ClassVar[str] = "ResponseCache"
    id = "response-cache"
    name = "Response Cache"
    description = "Replays a cached answer for a repeated prompt instead of calling the model again."

    options: ResponseCacheOptions

    def __init__(self, *, cache: CacheBackend | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.cache: CacheBackend = cache if cache is not None else MemoryCache(self.options.max_entries)

    # ----------------------------------------------------------------------------------------- key
    def cache_key(self, args: ProcessLLMRequestArgs, overrides: dict[str, Any]) -> str:
        """The key of this call: agent id option, step, scope, model and prompt (or an explicit key), hashed."""
        explicit = overrides.get("key") or self.options.key
        scope_value = overrides["scope"] if "scope" in overrides else self._scope_value(args)
        model = args.model
        material = {
            "agent": self.options.agent_id,
            "step": args.step_number,
            "scope": scope_value,
            "model": f"{getattr(model, 'provider', '')}:{getattr(model, 'model_id', '')}",
            "key": explicit,
            "prompt": None if explicit else args.prompt,
        }
        encoded = json.dumps(material, sort_keys=True, default=str, ensure_ascii=False)
        return "response-cache:" + hashlib.sha256(encoded.encode()).hexdigest()

    def _scope_value(self, args: ProcessLLMRequestArgs) -> str | None:
        """``resource:<id>`` / ``thread:<id>``; None (shared) for ``global`` or when the run has no such id,
        as in Mastra."""
        scope = self.options.scope
        if scope == "global":
            return None
        value = args.request_context.get("resource_id" if scope == "resource" else "thread_id")
        return None if value is None else f"{scope}:{value}"

    # ----------------------------------------------------------------------------------------- hooks
    async def process_llm_request(self, args: ProcessLLMRequestArgs) -> dict[str, Any] | None:
        overrides = args.request_context.get(CONTEXT_KEY) or {}
        if not isinstance(overrides, dict):
            overrides = {}
        key = self.cache_key(args, overrides)
        state = args.state
        state["key"] = key
        state["hit"] = False
        if overrides.get("bust", self.options.bust):
            return None
        try:
            cached = await _maybe_await(self.cache.get(key))
        except Exception:
            logger.warning("ResponseCache: reading the cache failed; calling the model", exc_info=True)
            return None
        if not isinstance(cached, dict) or not cached.get("chunks"):
            return None
        state["hit"] = True
        state["hits"] = state.get("hits", 0) + 1
        return {"response": {"chunks": [dict(chunk) for chunk in cached["chunks"]]}}

    async def process_llm_response(self, args: ProcessLLMResponseArgs) -> None:
        state = args.state
        key = state.get("key")
        if args.from_cache or key is None or state.get("hit"):
            return
        if not args.chunks or any(chunk.get("type") in _UNCACHEABLE for chunk in args.chunks):
            return
        value = {
            "chunks": [_serialisable(chunk) for chunk in args.chunks],
            "warnings": list(args.warnings),
            "stored_at": time.time(),
        }
        ttl = self.options.ttl_seconds or None
        try:
            await _maybe_await(self.cache.set(key, value, ttl))
        except Exception:
            logger.warning("ResponseCache: writing the cache failed; the answer is not cached", exc_info=True)


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _serialisable(chunk: dict[str, Any]) -> dict[str, Any]:
    """A recorded ``{type, payload}`` chunk as plain JSON data (payload in Mastra's camelCase wire shape)."""
    payload: Any = chunk.get("payload")
    dump = getattr(payload, "model_dump", None)
    if dump is not None:
        payload = dump(mode="json", by_alias=True, exclude_none=True)
    else:
        payload = json.loads(json.dumps(payload, default=str)) if payload is not None else {}
    return {"type": chunk.get("type"), "payload": payload}
