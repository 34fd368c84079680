"""Replay a past run through a chain, and compare two replays: the studio's "hold the model still, move the chain".

A run's recording (:mod:`processors.models.recording`) holds what the model streamed and the tools returned, below every
processor. :func:`replay_run` builds an agent from a design with a :class:`~processors.models.recording.ReplayModel`
and the tools' recorded results — no model call, no network — and runs the run's message again on top of the
thread's history as it was before the run. :func:`compare` lines up two replays (the design the run was made with,
which gives back the original run chunk for chunk, and the chain as it is now): final text, tripwire, what each
processor did, the chunks it changed or dropped, tool calls whose arguments changed, and where the conversation
diverged. Pure Python, no Qt: the studio's replay controller runs it, and its view only shows a
:class:`ReplayComparison`.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from processors.chunks import AnyChunk
from processors.memory.base import InMemoryMemory
from processors.messages import Message
from processors.models.base import LanguageModel
from processors.models.recording import Divergence, Recording, ReplayModel, replay_tools, shape_fingerprint
from processors.pipeline.debugger import Debugger
from processors.tracing import TraceEvent
from studio.design.agent_design import AgentDesign
from studio.design.build import build_agent

#: How a replay meets a step whose request no longer matches the recording: note it and replay the recorded answer
#: anyway, stop there, or ask the live model from there on.
DivergencePolicy = Literal["continue", "raise", "live"]

#: The worst of a processor's outcomes decides its row's word (an abort matters more than a change, a change more
#: than text held back and let out unchanged).
SEVERITY = ("passed", "held", "changed", "dropped", "raised", "aborted")

#: A run's own message was saved a moment after the run started (the run is stored first).
OWN_MESSAGE_WINDOW = timedelta(seconds=2)

#: How much of a diverged step's request difference is shown: lines, and characters of one line.
REQUEST_DIFF_LINES = 40
REQUEST_DIFF_WIDTH = 300


@dataclass
class ReplaySource:
    """What a replay needs from a past run: its message, the thread before it, its recording, its design."""

    run_id: str
    input_text: str
    recording: bytes
    history: list[Message] = field(default_factory=list)
    #: The design as the run was made (``None`` when the store has none: the current one stands in).
    design: AgentDesign | None = None


@dataclass
class ProcessorActivity:
    """What one processor did in a replay: its outcomes by hook call, and the chunks it changed or dropped."""

    processor_id: str
    outcomes: Counter[str] = field(default_factory=Counter)
    chunks_changed: int = 0
    chunks_dropped: int = 0
    detail: str | None = None

    @property
    def worst(self) -> str:
        return max(self.outcomes, key=SEVERITY.index, default="absent")

    def summary(self) -> str:
        """``"aborted: secret in input"``, ``"changed (3 chunks changed)"``, ``"passed"``."""
        parts = []
        if self.chunks_changed:
            parts.append(f"{self.chunks_changed} chunk{'s' if self.chunks_changed != 1 else ''} changed")
        if self.chunks_dropped:
            parts.append(f"{self.chunks_dropped} chunk{'s' if self.chunks_dropped != 1 else ''} dropped")
        word = self.worst
        if self.detail and word in ("aborted", "raised"):
            word = f"{word}: {self.detail}"
        return f"{word} ({', '.join(parts)})" if parts else word


@dataclass
class ReplayOutcome:
    """One replay's result: the text, the tripwire, the chunks, each processor's activity, and what diverged."""

    text: str
    finish_reason: str
    #: ``(processor id, reason)`` when a tripwire ended the run.
    tripwire: tuple[str, str] | None
    error: str | None
    chunks: list[AnyChunk]
    trace: list[TraceEvent]
    divergences: list[Divergence]
    #: ``(tool, recorded arguments, arguments now)`` for tool calls whose arguments changed.
    changed_tool_calls: list[tuple[str, Any, Any]]
    #: The ids of every processor in the replayed chain (all lanes), so that one that never ran can be told from one
    #: that is not there: a tripwire may have ended the run before it was reached.
    chain: tuple[str, ...] = ()
    #: What each model step was asked (:func:`processors.models.recording.request_shape`), in order.
    asked: list[dict[str, Any]] = field(default_factory=list)

    @property
    def processors(self) -> dict[str, ProcessorActivity]:
        found: dict[str, ProcessorActivity] = {}
        for event in self.trace:
            activity = found.setdefault(event.processor_id, ProcessorActivity(event.processor_id))
            activity.outcomes[event.outcome] += 1
            stats = event.chunk_stats or {}
            activity.chunks_changed += int(stats.get("changed", 0))
            activity.chunks_dropped += int(stats.get("dropped", 0))
            if event.outcome in ("aborted", "raised") and event.detail:
                activity.detail = event.detail
        return found

    @property
    def diverged_at(self) -> int | None:
        """The first step (from 1) whose request no longer matched the recording, or None."""
        return self.divergences[0].step + 1 if self.divergences else None


@dataclass(frozen=True)
class Absence:
    """Why a processor did nothing on one side: it is not in that chain, the run stopped (a tripwire of
    :attr:`stopped_at`) before reaching it, or it is there and was simply never called."""

    reason: Literal["not_in_chain", "not_reached", "not_called"]
    #: The processor whose tripwire ended the run (``"not_reached"`` only).
    stopped_at: str = ""

    @classmethod
    def of(cls, processor_id: str, outcome: ReplayOutcome) -> Absence:
        if processor_id not in outcome.chain:
            return cls("not_in_chain")
        if outcome.tripwire is not None:
            return cls("not_reached", outcome.tripwire[0])
        return cls("not_called")

    def summary(self) -> str:
        """The plain words (the view translates :attr:`reason` itself)."""
        if self.reason == "not_reached":
            return f"not reached (the run stopped at {self.stopped_at})"
        return "not in the chain" if self.reason == "not_in_chain" else "not called"


@dataclass(frozen=True)
class ProcessorRow:
    """One processor on both sides; an activity ``None`` where it did nothing there, with the :class:`Absence`
    saying why. Views word them themselves (translated); :attr:`before` and :attr:`after` are the plain summaries,
    which decide whether the row differs."""

    processor_id: str
    original: ProcessorActivity | None
    now: ProcessorActivity | None
    original_absence: Absence = Absence("not_in_chain")
    now_absence: Absence = Absence("not_in_chain")

    @property
    def before(self) -> str:
        return self.original.summary() if self.original is not None else self.original_absence.summary()

    @property
    def after(self) -> str:
        return self.now.summary() if self.now is not None else self.now_absence.summary()

    @property
    def differs(self) -> bool:
        return self.before != self.after

    @property
    def idle(self) -> bool:
        """Nothing to say on either side: never run, and no tripwire kept it from running (an error processor)."""
        reasons = {self.original_absence.reason, self.now_absence.reason}
        return self.original is None and self.now is None and "not_reached" not in reasons


@dataclass
class ReplayComparison:
    """Two replays of one run side by side: the original chain's and the current chain's."""

    original: ReplayOutcome
    current: ReplayOutcome

    def __post_init__(self) -> None:
        """Give each divergence of the current replay what the recording was asked at its step, when the original
        chain's replay asked it (same fingerprint): the divergence then carries both requests as data."""
        asked = self.original.asked
        for divergence in self.current.divergences:
            if divergence.recorded_request is None and divergence.recorded is not None and divergence.step < len(asked):
                shape = asked[divergence.step]
                if shape_fingerprint(shape) == divergence.recorded:
                    divergence.recorded_request = shape

    @property
    def text_differs(self) -> bool:
        return self.original.text != self.current.text

    @property
    def tripwire_differs(self) -> bool:
        return self.original.tripwire != self.current.tripwire

    @property
    def processor_rows(self) -> list[ProcessorRow]:
        """Every processor of either replay (of either chain, run or not), in order of first appearance, with its
        activity on each side or why it has none."""
        original, current = self.original, self.current
        before, after = original.processors, current.processors
        names = list(dict.fromkeys([*before, *after, *original.chain, *current.chain]))
        rows = [
            ProcessorRow(name, before.get(name), after.get(name), Absence.of(name, original), Absence.of(name, current))
            for name in names
        ]
        return [row for row in rows if not row.idle]

    def text_spans(self) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
        """Both texts as ``(piece, differs)`` spans, word by word, for highlighting what changed."""
        a, b = _words(self.original.text), _words(self.current.text)
        left: list[tuple[str, bool]] = []
        right: list[tuple[str, bool]] = []
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
            same = tag == "equal"
            if i2 > i1:
                left.append(("".join(a[i1:i2]), not same))
            if j2 > j1:
                right.append(("".join(b[j1:j2]), not same))
        return left, right

    @property
    def identical(self) -> bool:
        return not (self.text_differs or self.tripwire_differs or any(row.differs for row in self.processor_rows))

    def recorded_request(self) -> dict[str, Any] | None:
        """What the recording was asked at the step where the current chain diverged (filled in from the original
        chain's replay, which asks exactly what was recorded: a recording keeps only fingerprints), or ``None``."""
        return self.current.divergences[0].recorded_request if self.current.divergences else None

    def request_diff(self, limit: int = REQUEST_DIFF_LINES) -> RequestDiff | None:
        """Where the current chain diverged: what the recording was asked against what is asked now, as a line
        diff of the messages (capped at ``limit`` lines), or None when it did not diverge."""
        if not self.current.divergences:
            return None
        divergence = self.current.divergences[0]
        recorded = self.recorded_request()
        before = request_lines(recorded) if recorded is not None else []
        after = request_lines(divergence.request)
        lines: list[tuple[str, str]] = []
        for line in list(difflib.unified_diff(before, after, n=1, lineterm=""))[2:]:
            tag, text = line[:1], line[1:]
            if len(text) > REQUEST_DIFF_WIDTH:
                text = text[:REQUEST_DIFF_WIDTH] + "…"
            lines.append(("@" if tag == "@" else tag, text if tag != "@" else ""))
        return RequestDiff(divergence.step + 1, recorded is not None, lines[:limit], max(0, len(lines) - limit))


@dataclass(frozen=True)
class RequestDiff:
    """A diverged step's request against the recorded one: ``(tag, text)`` lines, tag ``-`` (only the recording
    was asked it), ``+`` (only asked now), `` `` (both, for context) or ``@`` (a gap between hunks)."""

    step: int
    #: False when the recorded request is not known (the recording has no such step, or no original replay).
    recorded_known: bool
    lines: list[tuple[str, str]]
    #: Lines left out past the cap.
    more: int = 0


def request_lines(shape: dict[str, Any]) -> list[str]:
    """A request as readable lines: one or more per message (``user: …``, ``assistant → lookup(…)``), then the tools
    offered."""
    lines: list[str] = []
    for message in shape.get("messages", []):
        role = str(message.get("role", "?"))
        content = message.get("content")
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False) if content else ""
        if message.get("tool_call_id"):
            role = f"{role} [{message['tool_call_id']}]"
        for index, piece in enumerate(text.splitlines() or ([""] if not message.get("tool_calls") else [])):
            lines.append(f"{role}: {piece}" if index == 0 else f"    {piece}")
        for call in message.get("tool_calls") or []:
            function = call.get("function", {}) if isinstance(call, dict) else {}
            lines.append(f"{role} → {function.get('name', '?')}({function.get('arguments', '')})")
    tools = shape.get("tools") or []
    if tools:
        lines.append("tools: " + ", ".join(str(tool) for tool in tools))
    return lines


@dataclass
class ThreadRunReplay:
    """One run of a thread replayed: its comparison, or why it could not be replayed (not recorded, …)."""

    run_id: str
    input_text: str
    comparison: ReplayComparison | None = None
    error: str | None = None

    @property
    def diverged(self) -> bool:
        """The current chain's replay stopped where the recording no longer fits (not continued live)."""
        current = self.comparison.current if self.comparison is not None else None
        return current is not None and bool(current.divergences) and current.divergences[0].action != "live"


@dataclass
class ThreadReplay:
    """A whole thread replayed run by run, in the order of the conversation."""

    thread_id: str
    runs: list[ThreadRunReplay] = field(default_factory=list)
    #: How many runs the thread has (those not replayed yet included).
    total: int = 0
    #: The index of the run where the conversation diverged and the replay stopped, if it did.
    stopped_at: int | None = None
    cancelled: bool = False

    @property
    def live_from(self) -> tuple[int, int] | None:
        """``(run index, step)`` (both from 0) where the replay went on with the live model, if it did."""
        for index, item in enumerate(self.runs):
            divergences = item.comparison.current.divergences if item.comparison is not None else []
            if divergences and divergences[0].action == "live":
                return index, divergences[0].step
        return None

    @property
    def differing(self) -> list[ThreadRunReplay]:
        return [item for item in self.runs if item.comparison is not None and not item.comparison.identical]


def _words(text: str) -> list[str]:
    """Words with their trailing space, so joining the pieces gives the text back."""
    pieces: list[str] = []
    current = ""
    for char in text:
        if char.isspace() and current and not current[-1].isspace():
            current += char
            continue
        if not char.isspace() and current and current[-1].isspace():
            pieces.append(current)
            current = ""
        current += char
    if current:
        pieces.append(current)
    return pieces


# --------------------------------------------------------------------------------------------- running
class _Collector:
    """The replay's tracer: keeps every trace event."""

    def __init__(self) -> None:
        self.events: list[TraceEvent] = []

    def on_trace_event(self, event: TraceEvent) -> None:
        self.events.append(event)


async def replay_run(
    design: AgentDesign,
    source: ReplaySource,
    *,
    catalogue: Any = None,
    on_divergence: DivergencePolicy = "continue",
    fallback: LanguageModel | None = None,
    debugger: Debugger | None = None,
) -> ReplayOutcome:
    """Run ``source``'s message through ``design``'s chain with the recorded model and tools (no network unless
    ``on_divergence="live"`` hands the diverged steps to ``fallback``). The thread itself is never written: the
    replay remembers the history in memory of its own. A ``debugger`` pauses the replay at its breakpoints as it
    would a live run."""
    recording = Recording.from_bytes(source.recording)
    model = ReplayModel(recording, on_divergence=on_divergence, fallback=fallback)
    memory = InMemoryMemory()
    thread_id = "replay"
    if source.history:
        memory.threads[thread_id] = [message.model_copy(deep=True) for message in source.history]
    agent = build_agent(
        design, catalogue=catalogue, memory=memory, model=model,
        wrap_tools=lambda tools: replay_tools(tools, recording),
    )  # fmt: skip
    tracer = _Collector()
    stream = agent.stream(source.input_text, thread_id=thread_id, tracers=[tracer], debugger=debugger)
    chunks = [chunk async for chunk in stream]
    result = await stream.result()
    tripwire = result.tripwire
    return ReplayOutcome(
        text=result.text,
        finish_reason=result.finish_reason,
        tripwire=(tripwire.processor_id or "", tripwire.reason) if tripwire is not None else None,
        error=str(result.error) if result.error else None,
        chunks=chunks,
        trace=tracer.events,
        divergences=list(model.divergences),
        changed_tool_calls=list(recording.changed_tool_calls),
        chain=_chain_ids(agent),
        asked=list(model.asked),
    )


def _chain_ids(agent: Any) -> tuple[str, ...]:
    """The ids of the agent's processors, lane after lane (a lane given as a callable has none to list)."""
    ids: list[str] = []
    for lane in (agent.input_processors, agent.output_processors, agent.error_processors):
        if isinstance(lane, list):
            ids.extend(str(getattr(processor, "id", "")) for processor in lane)
    return tuple(ids)


def history_before(messages: Sequence[Message], started_at: datetime, input_text: str | None) -> list[Message]:
    """The thread's messages before a run: up to the run's own user message (saved just after the run started)."""
    start = _aware(started_at) - OWN_MESSAGE_WINDOW
    for index, message in enumerate(messages):
        created = _aware(message.created_at)
        if created >= start and message.role == "user" and (input_text is None or message.text == input_text):
            return list(messages[:index])
        if created > _aware(started_at) + OWN_MESSAGE_WINDOW:
            return list(messages[:index])
    return list(messages)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


__all__ = [
    "Absence",
    "DivergencePolicy",
    "ProcessorActivity",
    "ProcessorRow",
    "ReplayComparison",
    "ReplayOutcome",
    "ReplaySource",
    "RequestDiff",
    "ThreadReplay",
    "ThreadRunReplay",
    "history_before",
    "replay_run",
    "request_lines",
]
