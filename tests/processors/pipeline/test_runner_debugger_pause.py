"""What the debugger is handed when it pauses before an ordinary hook (``runner.invoke``): the run's id, the step
number a breakpoint can name, and the processor's own state. The case its mutation run found unchecked (the
stream hook's pause is tested in ``test_debugger.py``)."""

from __future__ import annotations

import asyncio
from typing import Any

from processors import Agent, Processor
from processors.models import ScriptedModel, ToolCall, Turn
from processors.pipeline.debugger import Breakpoint, Debugger, Pause
from tests.processors.helpers import get_weather


class Counter(Processor):
    """Counts the steps it has seen in its state."""

    id = "counter"

    def process_input_step(self, args: Any) -> None:
        args.state["seen"] = args.state.get("seen", 0) + 1


async def test_a_breakpoint_on_a_later_step_pauses_there_with_the_run_id_and_the_processors_state() -> None:
    pauses: list[Pause] = []

    def on_pause(pause: Pause) -> None:
        pauses.append(pause)
        asyncio.get_running_loop().call_soon(pause.resume)

    debugger = Debugger([Breakpoint(hook="process_input_step", step_number=1)], on_pause=on_pause)
    model = ScriptedModel([Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), "done"])
    agent = Agent(id="a", model=model, tools=[get_weather], input_processors=[Counter()])

    result = await agent.stream("weather?", debugger=debugger).result()

    assert result.text == "done"
    [pause] = pauses
    assert (pause.hook, pause.processor_id, pause.step_number) == ("process_input_step", "counter", 1)
    assert pause.run_id == result.run_id
    assert pause.state == {"seen": 1}  # what the first step left, before the second counts
