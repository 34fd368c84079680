"""The inspector's timeline tree: runs → phases → hooks → processor calls → changed chunks.

    RunNode            one generate/stream call
      PhaseNode        "Input" (process_input), "Step n", "Output" (process_output_result)
        HookNode       one hook within the phase, in the order the loop runs them
          CallNode     one TraceEvent: a processor's call (or its per-step process_output_stream summary)
            ChangeNode one chunk a stream processor changed, dropped or aborted on

Every node keeps the count of calls below it by outcome and the seconds spent in them, so a row's duration
and badge are read, never recomputed. Pure Python: :class:`~studio.models.trace_data.InspectorData` builds the
tree, Qt models show it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from processors.tracing import TraceEvent
from studio.models.outcome_words import outcome_label
from studio.texts.translator import translate

if TYPE_CHECKING:
    from studio.models.judge_failures import JudgeFailure
    from studio.models.trace_rows import TripwireRow

#: A call's (or a chunk's) outcome, least severe first. ``held``: a chunk a stream guard held back and let out later.
OUTCOMES: tuple[str, ...] = ("passed", "held", "changed", "dropped", "aborted", "raised")
_SEVERITY = {outcome: rank for rank, outcome in enumerate(OUTCOMES)}
#: How a run ended: its badge says this, not the worst of its calls (a guard that buffers is not a failure).
RUN_STATUSES: tuple[str, ...] = ("running", "finished", "tripwire", "error", "stopped", "failed")

#: The order hooks are shown in within a step: the order the loop runs them (the per-chunk stream summary is
#: reported at the step's end but runs while the model streams, before ``process_llm_response``).
HOOK_ORDER: tuple[str, ...] = (
    "process_input",
    "process_input_step",
    "process_llm_request",
    "process_api_error",
    "process_output_stream",
    "process_llm_response",
    "process_output_step",
    "process_tool_result",
    "process_output_result",
)
_HOOK_RANK = {hook: rank for rank, hook in enumerate(HOOK_ORDER)}


def hook_rank(hook: str) -> int:
    """Where a hook sorts within a phase (unknown hooks last)."""
    return _HOOK_RANK.get(hook, len(HOOK_ORDER))


#: Chunk changes shown as rows under one stream summary (the details pane lists them all).
MAX_CHANGE_ROWS = 500


def worst(outcomes: Iterable[str]) -> str | None:
    """The most severe outcome (raised > aborted > dropped > changed > held > passed), or None for none."""
    return max(outcomes, key=lambda outcome: _SEVERITY.get(outcome, 0), default=None)


# --------------------------------------------------------------------------------------------- the tree
class Node:
    """A tree node. ``children`` are in display order; ``row`` is this node's index in its parent's children."""

    kind = "node"
    __slots__ = ("children", "counts", "parent", "row", "seconds")

    def __init__(self, parent: Node | None) -> None:
        self.parent = parent
        self.children: list[Node] = []
        self.row = 0
        #: Calls below this node by outcome, and the seconds spent in them (kept up to date as calls arrive).
        self.counts: dict[str, int] = {}
        self.seconds = 0.0

    @property
    def outcome(self) -> str | None:
        return worst(outcome for outcome, count in self.counts.items() if count)

    @property
    def label(self) -> str:
        raise NotImplementedError

    def ancestors(self) -> list[Node]:
        chain: list[Node] = []
        node = self.parent
        while node is not None:
            chain.append(node)
            node = node.parent
        return chain

    @property
    def run(self) -> RunNode:
        node: Node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, RunNode)
        return node


class RunNode(Node):
    kind = "run"
    __slots__ = (
        "ended_at",
        "error",
        "finish_reason",
        "judge_failures",
        "number",
        "phases_by_key",
        "run_id",
        "started_at",
        "status",
        "thread_id",
        "tripwire",
        "warnings",
    )

    def __init__(self, run_id: str, thread_id: str | None, number: int, started_at: float | None) -> None:
        super().__init__(None)
        self.run_id = run_id
        self.thread_id = thread_id
        self.number = number
        self.started_at = started_at
        self.ended_at: float | None = None
        #: One of :data:`RUN_STATUSES`: ``running``, then how it ended.
        self.status = "running"
        self.finish_reason: str | None = None
        self.error: str | None = None
        self.tripwire: TripwireRow | None = None
        self.warnings: list[str] = []
        #: Guardrail judges that failed in the run (fail-open: the run's "finished" is no plain pass).
        self.judge_failures: list[JudgeFailure] = []
        self.phases_by_key: dict[tuple[int, int], PhaseNode] = {}

    @property
    def outcome(self) -> str | None:
        """The run's badge is how it ended (finished, tripwire, error, stopped, failed) or ``running``."""
        return self.status

    @property
    def label(self) -> str:
        if self.judge_failures:
            return translate("Inspector", "Run {number} ({status}, a judge failed)").format(
                number=self.number, status=outcome_label(self.status)
            )
        return translate("Inspector", "Run {number} ({status})").format(
            number=self.number, status=outcome_label(self.status)
        )

    @property
    def wall_seconds(self) -> float | None:
        if self.started_at is None or self.ended_at is None:
            return None
        return max(0.0, self.ended_at - self.started_at)

    def calls(self) -> list[CallNode]:
        return [call for phase in self.children for hook in phase.children for call in hook.children]  # type: ignore[misc]


class PhaseNode(Node):
    kind = "phase"
    __slots__ = ("key",)

    def __init__(self, parent: RunNode, key: tuple[int, int]) -> None:
        super().__init__(parent)
        #: (0, -1) input, (1, n) step n, (2, 0) output: the sort key among the run's phases.
        self.key = key

    @property
    def step_number(self) -> int | None:
        return self.key[1] if self.key[0] == 1 else None

    @property
    def label(self) -> str:
        if self.key[0] == 1:
            return translate("Inspector", "Step {number}").format(number=self.key[1])
        return translate("Inspector", "Input") if self.key[0] == 0 else translate("Inspector", "Output")


class HookNode(Node):
    kind = "hook"
    __slots__ = ("hook",)

    def __init__(self, parent: PhaseNode, hook: str) -> None:
        super().__init__(parent)
        self.hook = hook

    @property
    def label(self) -> str:
        calls = len(self.children)
        return self.hook if calls == 1 else f"{self.hook} \N{MULTIPLICATION SIGN}{calls}"


class CallNode(Node):
    kind = "call"
    __slots__ = ("event", "judge_failure")

    def __init__(self, parent: HookNode, event: TraceEvent) -> None:
        super().__init__(parent)
        self.event = event
        #: The guardrail's judge failed in this call (its outcome is the offline verdict, or the block).
        self.judge_failure: JudgeFailure | None = None
        stats = event.chunk_stats
        self.seconds = float(stats.get("seconds", 0.0)) if stats else max(0.0, event.duration)
        self.counts = {event.outcome: 1}
        for index, change in enumerate((stats or {}).get("changes", [])[:MAX_CHANGE_ROWS]):
            child = ChangeNode(self, index, change)
            child.row = index
            self.children.append(child)

    @property
    def label(self) -> str:
        event = self.event
        name = event.processor_id if event.processor_index is None else f"{event.processor_id} #{event.processor_index}"
        if self.judge_failure is not None:
            name += " · " + (
                translate("Inspector", "judge failed, blocked")
                if self.judge_failure.blocked
                else translate("Inspector", "judge failed, offline verdict")
            )
        stats = event.chunk_stats
        if stats is None:
            return name
        kinds = ("changed", "held", "dropped", "aborted", "raised")
        parts = [f"{stats.get(key, 0)} {outcome_label(key)}" for key in kinds if stats.get(key)]
        count = stats.get("count", 0)
        chunks = translate("Inspector", "%n chunk(s)", None, count)
        return f"{name} · {chunks}" + (f" ({', '.join(parts)})" if parts else "")


class ChangeNode(Node):
    """One chunk a stream processor did not pass on as it came: ``{outcome, before, after, detail}`` (wire chunks).

    ``outcome`` is ``changed``, ``held`` (held back and let out later), ``dropped``, ``aborted`` or ``raised``.
    """

    kind = "change"
    __slots__ = ("change", "index")

    def __init__(self, parent: CallNode, index: int, change: Mapping[str, Any]) -> None:
        super().__init__(parent)
        self.index = index
        self.change = dict(change)
        self.counts = {str(self.change.get("outcome", "changed")): 1}

    @property
    def label(self) -> str:
        before = self.change.get("before") or {}
        return translate("Inspector", "chunk {number}: {type}").format(
            number=self.index + 1, type=before.get("type", "?")
        )
