"""The studio's runs in a thread export: each run's record, trace, violations and recording, beside the messages.

The runtime's export format (:mod:`processors.memory.transfer`) knows threads and messages only; it carries other
programs' data in ``extensions`` without reading it. The studio puts its runs there under :data:`EXTENSION`, so a
thread exported from one studio and imported into another comes back with its inspector history and its
recordings — replayable through an edited chain on the other machine. A recording is the run's
``Recording.to_bytes()`` in base64 (compressed JSON, never a key).

Texts travel with their codes, so an imported run reads in the reader's language as the original did: a trace
event's ``summary`` (the codes and values of its before/after/detail, ``TraceEvent.summary_codes()``), a violation's
``code`` and ``params``, a tripwire's (inside ``tripwire``) and a stream abort's (inside ``chunkStats``). Each is left
out where there is none, and a file written before codes (without them) imports as before, its texts shown as
recorded.

What a run's guards hid stays hidden in the export (DESIGN §6, privacy): the run's typed message (``inputText``), its
trace (summaries, states, the chunks a processor changed or held) and its recording hold the text as it was before
the guards, so every value that the run's hiding guards (PIIDetector, RegexFilter, with a strategy other than
``warn``) find in the text their lane saw is written as ``[REDACTED]`` wherever it stands (:func:`scrub_run`): in a
streamed chunk too, where the value is split over several chunks, and in the recording, whose text deltas are
rewritten so that a replay on the other machine streams ``[REDACTED]`` where the model wrote the value (a step
after a tool's scrubbed result then no longer matches its recorded request: the replay says it diverged there). A
run whose guards hid nothing is exported as stored.

An import is data: every run is validated (shape, ids, a readable recording of bounded size) before anything is
written, and refused with each problem named by its path (``extensions.processor-studio/runs[2].id: ...``); the
thread's own import then writes nothing either.
"""

from __future__ import annotations

import base64
import binascii
import logging
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Final, Literal

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.engine import Connection

from processors.memory.errors import ThreadImportError
from processors.memory.transfer import ThreadExport, id_problem
from processors.models.recording import FORMAT_VERSION, RecordedStep, RecordedToolCall, Recording
from processors.problems import Problem, ProblemError, located, problem_of, pydantic_problem
from processors.tracing.redactions import HIDDEN, MIN_LENGTH, scrub
from studio.store.hidden_values import HidingGuard, HidingLanes, every_pii_type, found_in, hiding_guards
from studio.store.schema import run_recordings, runs, trace_events, violations

logger = logging.getLogger(__name__)

#: The key of the studio's data in a thread export's ``extensions``.
EXTENSION = "processor-studio/runs"

#: The largest recording an import accepts, decompressed (a 10,000-chunk run is well under a megabyte).
MAX_RECORDING_BYTES = 64 * 1024 * 1024

#: The trace event keys a run export keeps (``TraceEvent.to_dict()`` minus ``runId``).
TRACE_KEYS = (
    "stepNumber", "hook", "processorId", "processorIndex", "startedAt", "endedAt", "outcome", "before", "after",
    "state", "detail", "chunkStats", "summary",
)  # fmt: skip


class ExportedTraceEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    stepNumber: int | None = None
    hook: str
    processorId: str
    processorIndex: int | None = None
    startedAt: float
    endedAt: float
    outcome: str
    before: str = ""
    after: str = ""
    state: Any = None
    detail: str | None = None
    chunkStats: Any = None
    #: The codes and values of ``before``/``after``/``detail`` by side (``Problem.to_dict()`` each), when coded.
    summary: dict[Literal["before", "after", "detail"], dict[str, Any]] | None = None


class ExportedViolation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    processorId: str
    message: str
    detail: Any = None
    at: datetime
    #: The message's code and values (``Violation.code``/``params``), when it has them.
    code: str | None = Field(default=None, max_length=255)
    params: dict[str, Any] | None = None


class ExportedRun(BaseModel):
    """One run as a thread export carries it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    designId: str | None = None
    designJson: str | None = None
    model: str | None = None
    startedAt: datetime
    finishedAt: datetime | None = None
    outcome: str | None = None
    finishReason: str | None = None
    usage: dict[str, Any] | None = None
    tripwire: dict[str, Any] | None = None
    error: str | None = None
    inputText: str | None = None
    trace: list[ExportedTraceEvent] = []
    violations: list[ExportedViolation] = []
    #: ``Recording.to_bytes()`` in base64, or None for a run without one.
    recording: str | None = None


# --------------------------------------------------------------------------------------------- export
def export_runs(connection: Connection, thread_id: str) -> list[dict[str, Any]]:
    """The thread's runs, oldest first, each with its trace, violations and recording, JSON-ready."""
    rows = connection.execute(
        sa.select(runs).where(runs.c.thread_id == thread_id).order_by(runs.c.started_at, runs.c.id)
    ).all()
    ids = [row.id for row in rows]
    trace: dict[str, list[dict[str, Any]]] = {run_id: [] for run_id in ids}
    for event in connection.execute(
        sa.select(trace_events).where(trace_events.c.run_id.in_(ids)).order_by(trace_events.c.seq)
    ):
        trace[event.run_id].append(
            {key: getattr(event, _column(key)) for key in TRACE_KEYS if getattr(event, _column(key)) is not None}
        )
    found: dict[str, list[dict[str, Any]]] = {run_id: [] for run_id in ids}
    for violation in connection.execute(
        sa.select(violations).where(violations.c.run_id.in_(ids)).order_by(violations.c.seq)
    ):
        found[violation.run_id].append(
            {
                "processorId": violation.processor_id, "message": violation.message, "detail": violation.detail,
                "at": violation.created_at.isoformat(),
                **({"code": violation.code, "params": violation.params} if violation.code is not None else {}),
            }
        )  # fmt: skip
    recordings = {
        row.run_id: base64.b64encode(bytes(row.data)).decode("ascii")
        for row in connection.execute(sa.select(run_recordings).where(run_recordings.c.run_id.in_(ids)))
    }
    exported: list[dict[str, Any]] = []
    for row in rows:
        run = ExportedRun(
            id=row.id, designId=row.design_id, designJson=row.design_json, model=row.model, startedAt=row.started_at,
            finishedAt=row.finished_at, outcome=row.outcome, finishReason=row.finish_reason,
            usage=_plain_json(row.usage), tripwire=_plain_json(row.tripwire), error=row.error,
            inputText=row.input_text, recording=recordings.get(row.id),
        )  # fmt: skip
        data = run.model_dump(mode="json", exclude={"trace", "violations"})
        data["trace"], data["violations"] = trace[row.id], found[row.id]
        exported.append(scrub_run(data))
    return exported


# --------------------------------------------------------------------------------------------- privacy
#: The run fields written as stored: ids, times and the design (whose options hold no chat text).
_KEPT_AS_STORED: Final = frozenset({"id", "designId", "designJson", "model", "startedAt", "finishedAt", "recording"})


def scrub_run(data: dict[str, Any]) -> dict[str, Any]:
    """``data``, one exported run, with every value its hiding guards find in its text written as ``[REDACTED]``
    (see the module docstring); ``data`` itself when they find none. An input guard searches what the input lane
    saw (the typed message, the input hooks' trace), an output guard what the output lane saw (the recording, the
    other hooks' trace); a value either found is hidden everywhere in the run."""
    design = data.get("designJson")
    lanes = hiding_guards(design) if design else _traced_guards(data.get("trace"))
    if not lanes:
        return data
    recording = _recording_of(data.get("recording"))
    trace = [event for event in data.get("trace") or [] if isinstance(event, dict)]
    seen_in = [data.get("inputText") or "", *strings_in([event for event in trace if _input_hook(event)])]
    seen_out = [*strings_in([event for event in trace if not _input_hook(event)])]
    if recording is not None:
        seen_out += recording_texts(recording)
    either = [*strings_in([data.get("violations"), data.get("tripwire"), data.get("error")])]
    values = _found_by(lanes.input, [*seen_in, *either]) | _found_by(lanes.output, [*seen_out, *either])
    if not values:
        return data
    scrubbed: dict[str, Any] = {
        key: value if key in _KEPT_AS_STORED else _scrubbed(value, values) for key, value in data.items()
    }
    if recording is not None:
        scrubbed["recording"] = base64.b64encode(_scrubbed_recording(recording, values).to_bytes()).decode("ascii")
    return scrubbed


def scrub_messages(document: dict[str, Any]) -> dict[str, Any]:
    """A thread export (``Store.export_thread``) whose messages have every value the hiding guards of its runs'
    designs find in them written as ``[REDACTED]`` (the input guards in the user's messages, the output guards in
    the others): a tool's result is kept in the thread as the tool returned it (``lookup_customer``'s record), while
    the output guard masked the same e-mail address in the answer; the messages the guards changed hold no such value
    any more, so they are written as stored."""
    runs_data = document.get("extensions", {}).get(EXTENSION) or []
    designs = dict.fromkeys(str(item.get("designJson")) for item in runs_data if isinstance(item, dict))
    lanes = [hiding_guards(design) for design in designs]
    inputs = [guard for lane in lanes for guard in lane.input]
    outputs = [guard for lane in lanes for guard in lane.output]
    messages = document.get("messages")
    if not (inputs or outputs) or not isinstance(messages, list):
        return document
    said = [message for message in messages if isinstance(message, dict) and message.get("role") == "user"]
    others = [message for message in messages if not (isinstance(message, dict) and message.get("role") == "user")]
    values = _found_by(inputs, strings_in(said)) | _found_by(outputs, strings_in(others))
    return {**document, "messages": _scrubbed(messages, values)} if values else document


def _input_hook(event: Mapping[str, Any]) -> bool:
    return str(event.get("hook", "")).startswith("process_input")


def _traced_guards(trace: Any) -> HidingLanes:
    """For a run stored without its design (a run of an agent built in code): a PIIDetector of every regex type in
    each lane one ran in (its trace names it), since its options are not known; a RegexFilter's rules cannot be
    known."""
    events = [event for event in trace if isinstance(event, dict)] if isinstance(trace, list) else []
    ran = [event for event in events if str(event.get("processorId", "")).startswith("pii-detector")]
    every = (every_pii_type(),)
    return HidingLanes(
        every if any(_input_hook(event) for event in ran) else (),
        every if any(not _input_hook(event) for event in ran) else (),
    )


def _found_by(guards: Sequence[HidingGuard], texts: Iterable[str]) -> frozenset[str]:
    """The values the guards find in ``texts``, each at least :data:`MIN_LENGTH` characters (a shorter one would
    hide too much of the rest)."""
    found = {match.value for match in found_in(guards, (text for text in texts if len(text) >= MIN_LENGTH))}
    return frozenset(value for value in found if len(value.strip()) >= MIN_LENGTH and value != HIDDEN)


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside ``value`` (JSON-like: mappings, lists, tuples), depth first: the texts a guard would read."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


#: Keys whose values are names, codes and times, never text a guard read: kept, so that an import reads them (a
#: time that begins with a phone number's last four digits stays a time).
_NOT_TEXT: Final = frozenset({
    "at", "hook", "processorId", "outcome", "code", "type", "runId", "from", "id", "startedAt", "endedAt",
})  # fmt: skip


def _scrubbed(value: Any, values: frozenset[str]) -> Any:
    if isinstance(value, str):
        return _scrubbed_text(value, values)
    if isinstance(value, Mapping):
        return {key: item if key in _NOT_TEXT else _scrubbed(item, values) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_scrubbed(item, values) for item in value]
    return value


def _scrubbed_text(text: str, values: frozenset[str]) -> str:
    """``text`` with each of ``values`` hidden (:func:`~processors.tracing.redactions.scrub`: whole, or its start
    ending the text), and a piece of one hidden too: a text that lies inside a value (a streamed chunk: ``"1111 "``
    of a card) or begins with a value's end (``"0018, call"``)."""
    text = scrub(text, values)
    core = text.strip()
    if len(core) >= 2 and any(core in value for value in values):
        return HIDDEN
    for value in sorted(values, key=len, reverse=True):
        for length in range(len(value) - 1, MIN_LENGTH - 1, -1):
            if text.startswith(value[-length:]):
                return HIDDEN + text[length:]
    return text


def _recording_of(text: str | None) -> Recording | None:
    if text is None:
        return None
    try:
        return Recording.from_bytes(base64.b64decode(text))
    except (ValueError, binascii.Error):
        return None


def recording_texts(recording: Recording) -> list[str]:
    """The texts of a recording a guard may have hidden something in: each step's text and reasoning (deltas
    joined), and every string of the other events and of the tools' calls."""
    texts: list[str] = []
    for step in recording.steps:
        for kind in ("t", "r"):
            texts.append("".join(str(event[1]) for event in step.events if event[:1] == [kind]))
        texts += strings_in([event for event in step.events if event[:1] not in (["t"], ["r"])])
    for call in recording.tool_calls:
        texts += strings_in([call.arguments, call.result, call.error])
    return [text for text in texts if text]


def _scrubbed_recording(recording: Recording, values: frozenset[str]) -> Recording:
    """A copy of ``recording`` whose text and reasoning deltas stream :data:`HIDDEN` where a value was (split over
    deltas or not: the delta holding its first character says ``[REDACTED]``, the others lose its characters), and
    whose other events and tool calls have their strings scrubbed."""
    steps: list[RecordedStep] = []
    for step in recording.steps:
        events = [list(event) for event in step.events]
        for kind in ("t", "r"):
            at = [index for index, event in enumerate(events) if event[:1] == [kind]]
            for index, text in zip(at, _scrubbed_deltas([str(events[i][1]) for i in at], values), strict=True):
                events[index][1] = text
        events = [event if event[:1] in (["t"], ["r"]) else _scrubbed(event, values) for event in events]
        steps.append(RecordedStep(step.fingerprint, events, _scrubbed(step.error, values)))
    calls = [
        RecordedToolCall(
            call.tool_name, _scrubbed(call.arguments, values), _scrubbed(call.result, values),
            _scrubbed(call.error, values),
        )
        for call in recording.tool_calls
    ]  # fmt: skip
    return Recording(steps=steps, tool_calls=calls)


def _scrubbed_deltas(deltas: Sequence[str], values: frozenset[str]) -> list[str]:
    """``deltas`` (one stream's pieces) with each occurrence of a value in their joined text replaced by
    :data:`HIDDEN`, in the delta where the occurrence begins."""
    joined = "".join(deltas)
    hidden = [False] * len(joined)
    starts: set[int] = set()
    for value in sorted(values, key=len, reverse=True):
        at = joined.find(value)
        while at >= 0:
            if not any(hidden[at : at + len(value)]):
                hidden[at : at + len(value)] = [True] * len(value)
                starts.add(at)
            at = joined.find(value, at + 1)
    if not starts:
        return list(deltas)
    result: list[str] = []
    offset = 0
    for delta in deltas:
        pieces = []
        for position in range(offset, offset + len(delta)):
            if position in starts:
                pieces.append(HIDDEN)
            elif not hidden[position]:
                pieces.append(joined[position])
        result.append("".join(pieces))
        offset += len(delta)
    return result


def _column(key: str) -> str:
    return "".join("_" + char.lower() if char.isupper() else char for char in key)


def _plain_json(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


# --------------------------------------------------------------------------------------------- import
def check_runs(document: ThreadExport) -> list[tuple[ExportedRun, bytes | None]]:
    """The document's studio runs, validated whole; :class:`ThreadImportError` naming every problem."""
    data = document.extensions.get(EXTENSION)
    if data is None:
        return []
    where = f"extensions.{EXTENSION}"
    if not isinstance(data, list):
        got = Problem("runs:not_list", "expected a list of runs, got {kind}", kind=type(data).__name__)
        raise ThreadImportError([located(where, got)])
    problems: list[str] = []
    checked: list[tuple[ExportedRun, bytes | None]] = []
    seen: set[str] = set()
    for index, item in enumerate(data):
        here = f"{where}[{index}]"
        try:
            run = ExportedRun.model_validate(item)
        except ValidationError as error:
            problems += [
                located(f"{here}.{'.'.join(str(part) for part in e['loc'])}", pydantic_problem(e))
                for e in error.errors()
            ]
            continue
        problem = id_problem(run.id)
        if problem is not None:
            problems.append(located(f"{here}.id", problem))
        elif run.id in seen:
            problems.append(located(f"{here}.id", Problem("runs:twice", "{id!r} appears twice", id=run.id)))
        seen.add(run.id)
        try:
            recording = _recording_bytes(run.recording)
        except ValueError as error:
            problems.append(located(f"{here}.recording", problem_of(error) or str(error)))
            continue
        checked.append((run, recording))
    if problems:
        raise ThreadImportError(problems)
    return checked


def _recording_bytes(text: str | None) -> bytes | None:
    if text is None:
        return None
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ProblemError(Problem("runs:not_base64", "not base64: {error}", error=str(error))) from None
    inflater = zlib.decompressobj()
    try:
        plain = inflater.decompress(data, MAX_RECORDING_BYTES)
    except zlib.error as error:
        raise ProblemError(Problem("runs:unreadable", "not a readable recording: {error}", error=str(error))) from None
    if inflater.unconsumed_tail:
        raise ProblemError(
            Problem("runs:too_large", "larger than {size} MB decompressed", size=MAX_RECORDING_BYTES // (1024 * 1024))
        )
    Recording.from_bytes(zlib.compress(plain, 1))  # readable through and through (raises ValueError)
    return data


def import_runs(connection: Connection, document: ThreadExport) -> int:
    """Write the document's studio runs for its (just written) thread; returns how many. For
    ``SqlMemory.import_thread(extensions=...)``: raises :class:`ThreadImportError` before writing when a run is
    invalid or its id already stored, so the whole import writes nothing."""
    checked = check_runs(document)
    if not checked:
        return 0
    ids = [run.id for run, _ in checked]
    taken = {row[0] for row in connection.execute(sa.select(runs.c.id).where(runs.c.id.in_(ids)))}
    if taken:
        raise ThreadImportError(
            [
                located(f"extensions.{EXTENSION}", Problem("runs:stored", "run {id!r} is already stored", id=run_id))
                for run_id in sorted(taken)
            ]
        )
    thread_id = document.thread.id
    for run, recording in checked:
        connection.execute(
            sa.insert(runs).values(
                id=run.id, design_id=run.designId, design_json=run.designJson, thread_id=thread_id, model=run.model,
                started_at=run.startedAt, finished_at=run.finishedAt, outcome=run.outcome,
                finish_reason=run.finishReason, usage=run.usage, tripwire=run.tripwire, error=run.error,
                input_text=run.inputText,
            )
        )  # fmt: skip
        if run.trace:
            connection.execute(
                sa.insert(trace_events),
                [
                    {"run_id": run.id, **{_column(key): value for key, value in event.model_dump().items()}}
                    for event in run.trace
                ],
            )
        for violation in run.violations:
            connection.execute(
                sa.insert(violations).values(
                    run_id=run.id, processor_id=violation.processorId, message=violation.message,
                    detail=violation.detail, created_at=violation.at, code=violation.code,
                    params=violation.params if violation.code is not None else None,
                )
            )  # fmt: skip
        if recording is not None:
            chunks = Recording.from_bytes(recording).chunk_count
            connection.execute(
                sa.insert(run_recordings).values(
                    run_id=run.id, format=FORMAT_VERSION, chunk_count=chunks, data=recording
                )
            )
    return len(checked)


def runs_extension(exported: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``extensions`` for a thread export holding these runs."""
    return {EXTENSION: list(exported)}


__all__ = [
    "EXTENSION",
    "ExportedRun",
    "check_runs",
    "export_runs",
    "import_runs",
    "recording_texts",
    "runs_extension",
    "scrub_messages",
    "scrub_run",
    "strings_in",
]
