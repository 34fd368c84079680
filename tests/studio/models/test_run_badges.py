"""A run's badge says how it ended; chunks a stream guard held back read "held", not "dropped" (issue 10 §3)."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from processors import Agent, ModelAPIError, Processor, RecordingTracer
from processors.models.scripted import ScriptedModel, Turn
from studio.design.build import build_agent
from studio.design.sample import sample_design
from studio.models.trace_data import InspectorData
from studio.models.trace_model import OUTCOME_COLORS, OUTCOME_ROLE, TraceTreeModel
from studio.models.trace_nodes import CallNode, ChangeNode, HookNode, Node, RunNode
from studio.views.inspector_details import details_html


async def _feed(data: InspectorData, agent: Agent, message: str, *, stop_after: int | None = None) -> RunNode:
    """What the run controller tells the inspector, in order, for a real run of ``agent``."""
    tracer = RecordingTracer()
    stream = agent.stream(message, tracers=[tracer])
    run_id = stream.run_id
    data.start_run(run_id, "t1")
    seen = 0
    async for chunk in stream:
        data.add_chunk(run_id, chunk)
        seen += 1
        if stop_after is not None and seen >= stop_after:
            await stream.aclose()
            break
    result = await stream.result()
    if stop_after is not None:
        result = result.model_copy(update={"finish_reason": "abort"})  # what RunController reports for Stop
    for event in tracer.events:
        data.add_event(event, run_id)
    data.finish_run(run_id, result)
    run = data.run(run_id)
    assert run is not None
    return run


def _stream_calls(run: RunNode) -> list[CallNode]:
    return [call for call in run.calls() if call.event.hook == "process_output_stream"]


def test_a_normal_run_of_the_sample_chain_is_finished_and_its_buffered_chunks_are_held(qapp: Any) -> None:
    data = InspectorData()
    agent = build_agent(sample_design())
    run = asyncio.run(_feed(data, agent, "Please look up customer 42."))
    assert run.status == "finished" and run.outcome == "finished"
    stats = [call.event.chunk_stats or {} for call in _stream_calls(run)]
    assert sum(s.get("held", 0) for s in stats) > 0  # the guards buffer text
    assert sum(s.get("dropped", 0) for s in stats) == 0  # ... and remove no chunk
    held = [node for call in _stream_calls(run) for node in call.children if isinstance(node, ChangeNode)]
    assert {node.outcome for node in held} <= {"held", "changed"} and "held" in {node.outcome for node in held}
    holding = next(call for call in _stream_calls(run) if (call.event.chunk_stats or {}).get("held"))
    assert f"{holding.event.chunk_stats['held']} held" in holding.label
    assert f"{holding.event.chunk_stats['held']} held back and let out later" in details_html(holding)
    model = TraceTreeModel(data)
    badge = model.index(0, TraceTreeModel.OUTCOME)
    assert badge.data() == "finished" and badge.data(OUTCOME_ROLE) == "finished"
    assert badge.data(Qt.ItemDataRole.BackgroundRole) == QColor(OUTCOME_COLORS["finished"][1])


def test_error_tripwire_and_stopped_runs_say_so(qapp: Any) -> None:
    data = InspectorData()
    failing = Agent(id="e", model=ScriptedModel([Turn(error=ModelAPIError(401, "bad key"))]))
    error_run = asyncio.run(_feed(data, failing, "hi"))
    assert error_run.outcome == "error"

    class Block(Processor):
        id = "block"

        def process_input(self, args: Any) -> Any:
            args.abort("no")

    tripped = asyncio.run(_feed(data, Agent(id="b", model=ScriptedModel(["x"]), input_processors=[Block()]), "hi"))
    assert tripped.outcome == "tripwire"

    long_reply = Agent(id="s", model=ScriptedModel([Turn(text=["a"] * 50)]))
    stopped = asyncio.run(_feed(data, long_reply, "hi", stop_after=3))
    assert stopped.outcome == "stopped" and stopped.label.endswith("(stopped)")
    model = TraceTreeModel(data)
    assert [model.index(row, TraceTreeModel.OUTCOME).data() for row in range(3)] == ["error", "tripwire", "stopped"]


def _nodes(node: Node) -> list[Node]:
    return [node, *(found for child in node.children for found in _nodes(child))]


def _counted(run: RunNode) -> dict[str, set[str]]:
    """Each processor's stream outcomes in a run: its calls' and their chunk rows'."""
    found: dict[str, set[str]] = {}
    for call in _stream_calls(run):
        outcomes = found.setdefault(call.event.processor_id, set())
        outcomes.add(call.event.outcome)
        outcomes.update(node.outcome for node in call.children if isinstance(node, ChangeNode) and node.outcome)
    return found


def test_a_sample_reply_no_guard_changed_reads_held_not_changed(qapp: Any) -> None:
    """Issue 26 §7: the PII detector and the system-prompt scrubber hold text back while they watch it; a reply they
    let out as the model wrote it shows no "changed" badge anywhere in its run."""
    data = InspectorData()
    run = asyncio.run(_feed(data, build_agent(sample_design()), "hello"))
    outcomes = _counted(run)
    assert "changed" not in set().union(*outcomes.values()), outcomes
    assert outcomes["system-prompt-scrubber"] == {"held"}
    assert "held" in outcomes["pii-detector-2"]
    stream_hooks = [node for node in _nodes(run) if isinstance(node, HookNode) and node.hook == "process_output_stream"]
    assert stream_hooks and {node.outcome for node in stream_hooks} == {"held"}


def test_a_sample_reply_a_guard_masked_is_changed_only_where_the_text_differs(qapp: Any) -> None:
    data = InspectorData()
    run = asyncio.run(_feed(data, build_agent(sample_design()), "Please look up customer 42"))
    changed = [
        node.change
        for call in _stream_calls(run)
        for node in call.children
        if isinstance(node, ChangeNode) and node.outcome == "changed"
    ]
    assert {call.event.processor_id for call in _stream_calls(run) if call.event.outcome == "changed"} == {
        "pii-detector-2"
    }
    texts = [(change["before"]["payload"].get("text", ""), change["after"]["payload"]["text"]) for change in changed]
    assert len(texts) == 2  # the e-mail address and the phone number, nothing else
    assert any("ada.lovelace@example.com" in before and "a***e@" in after for before, after in texts)
