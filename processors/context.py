"""What a run lends to processors and tools: the request context and the stream writer."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import Any

from processors.errors import InvalidChunkError


class RequestContext:
    """Request-scoped values a caller passes to ``generate``/``stream`` (``request_context=``).

    Dynamic processor lists, processors and tools read it; the runtime adds ``thread_id`` and ``resource_id``
    when a run has them (unless the caller already set them).
    """

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        self._values: dict[str, Any] = dict(values or {})

    def set(self, key: str, value: Any) -> None:
        self._values[key] = value

    def get(self, key: str, default: Any = None) -> Any:
        return self._values.get(key, default)

    def has(self, key: str) -> bool:
        return key in self._values

    def delete(self, key: str) -> bool:
        return self._values.pop(key, _MISSING) is not _MISSING

    def keys(self) -> Iterator[str]:
        return iter(list(self._values))

    def to_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __repr__(self) -> str:
        return f"RequestContext({self._values!r})"


_MISSING = object()


class _Done:
    """An already-finished awaitable: ``await writer.custom(...)`` (Mastra's spelling) works like a plain call."""

    __slots__ = ()

    def __await__(self) -> Generator[Any, None, None]:
        return iter(())  # type: ignore[return-value]


_DONE = _Done()


class StreamWriter:
    """Lets processors and tools put custom ``data-*`` chunks into the run's stream.

    ``custom({"type": "data-x", "data": ..., "transient": bool, "id": ...})``: the chunk is emitted at once
    (before the part the current hook returns). ``transient`` chunks are streamed but never saved.
    """

    __slots__ = ("_emit",)

    def __init__(self, emit: Callable[[Any], None]) -> None:
        self._emit = emit

    def custom(self, chunk: Any, **_options: Any) -> _Done:
        from processors.chunks import DataChunk

        if isinstance(chunk, DataChunk):
            data_chunk = chunk
        elif isinstance(chunk, dict):
            chunk_type = chunk.get("type")
            if not isinstance(chunk_type, str) or not chunk_type.startswith("data-"):
                raise InvalidChunkError(
                    f"writer.custom() needs a chunk whose type starts with 'data-', got type {chunk_type!r}"
                )
            data_chunk = DataChunk(
                type=chunk_type,
                data=chunk.get("data"),
                id=chunk.get("id"),
                transient=bool(chunk.get("transient", False)),
            )
        else:
            raise InvalidChunkError(f"writer.custom() needs a dict or DataChunk, got {type(chunk).__name__}")
        self._emit(data_chunk)
        return _DONE
