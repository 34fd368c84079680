"""What a call of a tool needs around it: its result made JSON-safe, and a writer a sync tool can use from the
worker thread it runs in."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
from collections.abc import Callable
from typing import Any

import pydantic_core

from processors.context import StreamWriter

# --------------------------------------------------------------------------------------------------------------
# serialize_result


def serialize_result(value: Any) -> Any:
    """A JSON-safe copy of a tool's result (Mastra's ``ensureSerializable``).

    pydantic models are dumped in JSON mode, dataclasses become dicts, tuples and sets lists, datetimes ISO
    strings, enums their values, UUIDs/Decimals/paths strings, non-finite floats ``None``, bytes UTF-8 text (or
    base64); anything else becomes ``str(value)`` (and the whole value does when it cannot be walked, e.g. a cycle).
    """
    for bytes_mode in ("utf8", "base64"):
        try:
            return pydantic_core.to_jsonable_python(
                value, fallback=_fallback, inf_nan_mode="null", bytes_mode=bytes_mode
            )
        except UnicodeDecodeError:
            continue
        except Exception:
            break
    return _fallback(value)


def _fallback(value: Any) -> str:
    try:
        return str(value)
    except Exception:
        return object.__repr__(value)


# --------------------------------------------------------------------------------------------------------------
# Async detection and writers


def is_async_callable(fn: Callable[..., Any]) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 - a callable object's async __call__
    return call is not None and not inspect.isfunction(fn) and inspect.iscoroutinefunction(call)


def _discard(_chunk: Any) -> None:
    return None


def discarding_writer() -> StreamWriter:
    return StreamWriter(emit=_discard)


class ThreadSafeWriter(StreamWriter):
    """The writer a sync tool gets in its worker thread: each ``custom`` call runs on the event loop and waits.

    So chunks keep their order, reach the stream before the tool's result, and errors (an invalid chunk) are
    raised in the tool, exactly as for an async tool.
    """

    __slots__ = ("_loop", "_target")

    def __init__(self, target: StreamWriter, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(emit=_discard)
        self._target = target
        self._loop = loop

    def custom(self, chunk: Any, **options: Any) -> Any:
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(self._target.custom(chunk, **options))
            except BaseException as exc:
                done.set_exception(exc)

        self._loop.call_soon_threadsafe(run)
        return done.result()


__all__ = ["ThreadSafeWriter", "discarding_writer", "is_async_callable", "serialize_result"]
