"""The inspector's side lists (tripwires, violations, data chunks, the raw chunk log) and the text helpers.

:class:`RowLog` is an append-only list with a cap that tells listeners about inserts in batches; the Qt table
models in ``studio.models.trace_model`` listen to it. Pure Python.
"""

from __future__ import annotations

import contextlib
import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import ValidationError

from processors.chunks import (
    DataChunk,
    ErrorChunk,
    FinishChunk,
    ReasoningDeltaChunk,
    StepFinishChunk,
    TextDeltaChunk,
    ToolCallChunk,
    ToolErrorChunk,
    ToolResultChunk,
    TripwireChunk,
    chunk_from_wire,
)

#: Rows kept in the raw chunk log; older rows are dropped (and counted) beyond it.
MAX_LOG_ROWS = 20_000
MAX_DATA_ROWS = 5_000


# --------------------------------------------------------------------------------------------- side lists
#: A raw-log row: ``(seq, received_at, run_id, type, summary)``. A plain tuple of numbers and strings on
#: purpose: Python's garbage collector stops tracking such tuples, so 20,000 of them add nothing to the full
#: collections that would otherwise stall the UI (holding the chunk objects themselves did: ~55 ms pauses).
LogRow = tuple[int, float, str, str, str]
SEQ, AT, RUN_ID, TYPE, SUMMARY = range(5)


@dataclass(frozen=True, slots=True)
class ChunkRow:
    """A kept chunk (``data-*`` chunks, which are few): when it arrived, from which run, and the chunk."""

    seq: int
    at: float
    run_id: str
    chunk: Any


@dataclass(frozen=True, slots=True)
class TripwireRow:
    run_id: str
    reason: str
    processor_id: str | None
    retry: bool = False
    metadata: Any = None
    #: The reason's code and values, when the tripwire has them (the inspector translates by them).
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ViolationRow:
    run_id: str
    processor_id: str
    message: str
    detail: Any = None
    #: The message's code and values, when the processor gave them (``Violation.code``/``params``).
    code: str | None = None
    params: Any = None


T = TypeVar("T")


class RowsListener(Protocol):
    def rows_inserting(self, first: int, last: int) -> None: ...
    def rows_inserted(self) -> None: ...
    def rows_removing(self, first: int, last: int) -> None: ...
    def rows_removed(self) -> None: ...
    def rows_resetting(self) -> None: ...
    def rows_reset(self) -> None: ...


class RowLog(Generic[T]):
    """An append-only list with an optional cap: beyond ``cap + cap // 10`` rows the oldest are dropped in one go.

    Rows live in ``_rows[_start:]`` so dropping the oldest is O(1) amortised (the list is compacted rarely).
    """

    def __init__(self, cap: int | None = None) -> None:
        self.cap = cap
        self._rows: list[T] = []
        self._start = 0
        #: How many rows were dropped because of the cap.
        self.dropped = 0
        self.listeners: list[RowsListener] = []

    def __len__(self) -> int:
        return len(self._rows) - self._start

    def __getitem__(self, row: int) -> T:
        return self._rows[self._start + row]

    def __iter__(self) -> Any:
        return iter(self._rows[self._start :])

    def extend(self, rows: Sequence[T]) -> None:
        if not rows:
            return
        first = len(self)
        for listener in self.listeners:
            listener.rows_inserting(first, first + len(rows) - 1)
        self._rows.extend(rows)
        for listener in self.listeners:
            listener.rows_inserted()
        if self.cap is not None and len(self) > self.cap + self.cap // 10:
            self._drop_oldest(len(self) - self.cap)

    def _drop_oldest(self, count: int) -> None:
        for listener in self.listeners:
            listener.rows_removing(0, count - 1)
        self._start += count
        self.dropped += count
        if self._start > len(self._rows) // 2:
            del self._rows[: self._start]
            self._start = 0
        for listener in self.listeners:
            listener.rows_removed()

    def clear(self) -> None:
        for listener in self.listeners:
            listener.rows_resetting()
        self._rows, self._start, self.dropped = [], 0, 0
        for listener in self.listeners:
            listener.rows_reset()


def field_of(source: Any, *names: str, default: Any = None) -> Any:
    """Read the first present of ``names`` from a mapping or an object (store records, pydantic values)."""
    for name in names:
        if isinstance(source, Mapping):
            if name in source:
                return source[name]
        elif hasattr(source, name):
            return getattr(source, name)
    return default


def tripwire_row(run_id: str, tripwire: Any) -> TripwireRow:
    """From a tripwire chunk payload, ``result.tripwire``, or the store's dict (``processorId``)."""
    return TripwireRow(
        run_id=run_id,
        reason=str(field_of(tripwire, "reason", default="")),
        processor_id=field_of(tripwire, "processor_id", "processorId"),
        retry=bool(field_of(tripwire, "retry", default=False)),
        metadata=field_of(tripwire, "metadata"),
        code=field_of(tripwire, "code"),
        params=dict(field_of(tripwire, "params") or {}),
    )


def violation_row(run_id: str, processor_id: str | None, violation: Any) -> ViolationRow:
    """From a :class:`~processors.tripwire.Violation`, a store record or its dict."""
    return ViolationRow(
        run_id=run_id,
        processor_id=processor_id or str(field_of(violation, "processor_id", "processorId", default="")),
        message=str(field_of(violation, "message", default="")),
        detail=field_of(violation, "detail"),
        code=field_of(violation, "code"),
        params=field_of(violation, "params") or None,
    )


# --------------------------------------------------------------------------------------------- text helpers
def to_json(value: Any) -> str:
    """Pretty JSON for the details pane (anything not JSON-safe is shown by ``repr``)."""
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=repr)


#: Lines of each side the before/after diff compares; what lies beyond is counted and said, never diffed, so a
#: huge chunk cannot stall the UI (``difflib.ndiff`` took 117 s on 1,600 lines; see tests/bench/bench_diff.py).
MAX_DIFF_LINES = 1_000
#: Unchanged lines kept around each change; longer unchanged runs fold into one "… unchanged" row.
DIFF_CONTEXT = 3
#: ``kind`` of the row standing for a folded run of unchanged lines (its text is how many).
FOLDED = "="


@dataclass(frozen=True, slots=True)
class LineDiff:
    """A line diff: ``rows`` of ``(kind, text)``, kind in ``" "`` (same), ``"-"`` (removed), ``"+"`` (added) or
    :data:`FOLDED` (that many unchanged lines not shown); ``cut_before`` / ``cut_after`` lines past the cap."""

    rows: list[tuple[str, str]]
    cut_before: int = 0
    cut_after: int = 0

    @property
    def capped(self) -> bool:
        return bool(self.cut_before or self.cut_after)


def line_diff(before: str, after: str, *, cap: int = MAX_DIFF_LINES, context: int | None = None) -> LineDiff:
    """Diff the first ``cap`` lines of each side (``SequenceMatcher`` opcodes: linear-ish, where ``ndiff`` is
    quadratic). With ``context``, unchanged runs longer than twice that fold into one :data:`FOLDED` row."""
    old, new = before.splitlines(), after.splitlines()
    cut_before, cut_after = max(0, len(old) - cap), max(0, len(new) - cap)
    old, new = old[:cap], new[:cap]
    rows: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        if tag == "equal":
            same = old[i1:i2]
            if context is not None and len(same) > 2 * context + 1:
                head = same[:context] if i1 else []
                tail = same[len(same) - context :] if i2 < len(old) else []
                rows.extend((" ", line) for line in head)
                rows.append((FOLDED, str(len(same) - len(head) - len(tail))))
                rows.extend((" ", line) for line in tail)
            else:
                rows.extend((" ", line) for line in same)
            continue
        rows.extend(("-", line) for line in old[i1:i2])
        rows.extend(("+", line) for line in new[j1:j2])
    return LineDiff(rows, cut_before, cut_after)


def diff_lines(before: str, after: str) -> list[tuple[str, str]]:
    """A full line diff (within the cap) as ``(kind, text)`` pairs, kind in ``" "``, ``"-"``, ``"+"``."""
    return line_diff(before, after).rows


def chunk_wire(chunk: Any) -> dict[str, Any]:
    if isinstance(chunk, Mapping):
        return dict(chunk)
    to_wire = getattr(chunk, "to_wire", None)
    return to_wire() if callable(to_wire) else {"type": getattr(chunk, "type", "?"), "value": repr(chunk)}


def chunk_type(chunk: Any) -> str:
    if isinstance(chunk, Mapping):
        return str(chunk.get("type", "?"))
    return str(getattr(chunk, "type", "?"))


def short_text(value: Any, limit: int = 120) -> str:
    """One line of at most ``limit`` characters: strings as they are, anything else as JSON."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def chunk_summary(chunk: Any) -> str:
    """One line about a chunk for the raw log (computed once per chunk, when the buffered chunks are shown). A
    recorded chunk (its wire mapping) is read into its class first; one that does not read shows its payload."""
    if isinstance(chunk, Mapping):
        with contextlib.suppress(ValidationError, TypeError, AttributeError):
            chunk = chunk_from_wire(dict(chunk))
    match chunk:
        case TextDeltaChunk(payload=payload) | ReasoningDeltaChunk(payload=payload):
            return short_text(repr(payload.text))
        case DataChunk(data=data):
            return short_text(data)
        case ToolCallChunk(payload=payload):
            return f"{payload.tool_name}: {short_text(payload.args, 100)}"
        case ToolResultChunk(payload=payload):
            return f"{payload.tool_name}: {short_text(payload.result, 100)}"
        case ToolErrorChunk(payload=payload):
            return f"{payload.tool_name}: {short_text(payload.error, 100)}"
        case StepFinishChunk(payload=payload) | FinishChunk(payload=payload):
            return f"reason: {payload.step_result.reason}"
        case TripwireChunk(payload=payload):
            return f"{payload.processor_id}: {payload.reason}"
        case ErrorChunk(payload=payload):
            return short_text(payload.error)
    wire = chunk_wire(chunk).get("payload") or {}
    return short_text(wire) if wire else ""
