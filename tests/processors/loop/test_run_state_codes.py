"""The run's terminal chunks and its answers to open calls carry what a reader needs beside the English
(``processors.loop.run_state``): a coded tripwire's code and values, a pattern timeout's code and values, and the
processor that blocked a tool call's result. The studio words these in the reader's language and marks a blocked
call by its processor; each test pins a behaviour issue 25's mutation run found unchecked (tests/README.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from processors.errors import PatternTimeoutError
from processors.models import ScriptedModel
from tests.processors.helpers import Abort, Fn, make_agent, of_type, run_stream
from tests.processors.loop.test_blocked_tool_result import blocked_turn, invocations, paris


async def test_a_coded_tripwire_chunk_carries_its_code_and_values() -> None:
    def limit(args: Any) -> None:
        args.abort("Over the limit of 3", code="Limits.over", params={"limit": 3})

    agent = make_agent(ScriptedModel(["never"]), input_processors=[Fn("limits", process_input=limit)])
    chunks, result = await run_stream(agent)
    [tripwire] = of_type(chunks, "tripwire")
    payload = tripwire.payload
    assert (payload.reason, payload.processor_id) == ("Over the limit of 3", "limits")  # type: ignore[union-attr]
    assert (payload.code, payload.params) == ("Limits.over", {"limit": 3})  # type: ignore[union-attr]
    assert result.tripwire is not None and result.tripwire.code == "Limits.over"


async def test_a_pattern_timeout_error_chunk_carries_its_code_and_values() -> None:
    def slow(args: Any) -> None:
        raise PatternTimeoutError("slow-ab", 0.5, 61)

    agent = make_agent(ScriptedModel(["never"]), input_processors=[Fn("guard", process_input=slow)])
    chunks, _result = await run_stream(agent)
    error = chunks[-1].payload.error  # type: ignore[union-attr]
    assert (error["name"], error["processorId"], error["hook"]) == ("PatternTimeoutError", "guard", "process_input")
    assert error["code"] == "pattern_timeout"
    assert error["params"] == {"rule": "slow-ab", "seconds": 0.5, "length": 61}


async def test_another_error_chunk_has_no_code() -> None:
    def broken(args: Any) -> None:
        raise ValueError("boom")

    agent = make_agent(ScriptedModel(["never"]), input_processors=[Fn("broken", process_input=broken)])
    chunks, _result = await run_stream(agent)
    error = chunks[-1].payload.error  # type: ignore[union-attr]
    assert "code" not in error and "params" not in error


async def test_a_blocked_calls_answer_names_the_processor_that_blocked_it(tmp_path: Path) -> None:
    guard = Abort("guard", "process_tool_result", "no", when=lambda args: args.tool_call_id == "c1")
    chunks, result, saved, _prompt, _next = await blocked_turn(tmp_path, guard, paris("c1"), paris("c2"))
    # the blocked call names its processor; the call after it, unused, names none
    assert [c.payload.blocked_by for c in of_type(chunks, "tool-error")] == ["guard", None]  # type: ignore[union-attr]
    for messages in (result.messages, saved):
        assert [(c.tool_call_id, c.blocked_by) for c in invocations(messages)] == [("c1", "guard"), ("c2", None)]
