"""A chat message and a lab case, followed call by call, do not bounce back into modules they are still inside.

Issue 27: "a chat message and a lab case, followed call by call, enter each module on their way once or twice, not
six times" — the runner was re-entered from every lane's closures, which called runner helpers back; then the lane
runner called back into the phases for each processor's args and results. The figures come from
``tests/support/flow_trace.py`` (``scripts/trace-flow`` prints them): a *bounce* is a call back into a module whose
frame is still on the stack. Every module on the way (the runtime's loop and pipeline, the lab) bounces at most
twice; the lane phases not at all while their processors pass (what a lane does with each result is a value the
runner applies itself: ``processors/pipeline/request_results.py``, ``processors/loop/output_step_results.py``).

Entries (calls into a module not on the stack) are not bounded: the values the flow carries (the message list,
chunks, trace events, the args objects) are used per processor and per chunk by design.
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Processor
from processors.models.scripted import ScriptedModel
from tests.support.flow_trace import FlowCounts, chat_message, follow, lab_case, results_message

#: The most bounces allowed into any module on the way. ``lab.case_run`` uses both in a benign case: its recording
#: model wrapper is called by the loop ``run_case`` awaits, and its generator of tripped processors by
#: ``lab.results.unique_in_order``.
MOST_BOUNCES = 2

#: The modules that run a lane's hook: entered once per lane, called back only when a processor blocks or fails.
PHASES = ("processors.loop.phases", "processors.loop.output_phases", "processors.loop.tool_calls")

#: Not asserted: the built-in guards' own callbacks (a stream guard hands its find/hold functions to the shared
#: per-chunk window, ``builtin/split_across_chunks.py``, so ``pii_detector`` and ``system_prompt_scrubber`` bounce
#: per chunk). They are each guard's design, not the path a message takes; ``scripts/trace-flow`` shows them.
GUARDS = "processors.builtin."


def _over(counts: FlowCounts) -> dict[str, int]:
    return {
        module: bounces
        for module, bounces in counts.bounces.items()
        if not module.startswith(GUARDS) and bounces > MOST_BOUNCES
    }


@pytest.mark.parametrize("flow", [chat_message, results_message], ids=["chat", "every-result-form"])
async def test_a_chat_message_enters_the_lane_runner_once_per_lane_and_is_never_called_back(flow: Any) -> None:
    counts = await flow()

    assert counts.bounces["processors.pipeline.runner"] == 0
    assert counts.entries["processors.pipeline.runner"] > 0  # the trace did see the lanes run
    assert _over(counts) == {}, counts.table()


@pytest.mark.parametrize("flow", [chat_message, results_message], ids=["chat", "every-result-form"])
async def test_the_lane_runner_takes_each_processors_args_and_result_without_calling_the_phases_back(
    flow: Any,
) -> None:
    """The args of ``process_input_step``, the results of ``process_input``, ``process_input_step`` and
    ``process_output_step``, the reductions of ``process_llm_request`` and ``process_api_error``: values the runner
    applies, not closures of the phase (they bounced 18 times per message)."""
    counts = await flow()

    assert {module: counts.bounces[module] for module in PHASES} == dict.fromkeys(PHASES, 0), counts.table()
    assert counts.entries["processors.loop.phases"] > 0
    assert counts.entries["processors.loop.output_phases"] > 0


@pytest.mark.parametrize("kind", ["attack", "benign"])
async def test_a_lab_case_enters_each_module_without_bouncing_back(kind: str) -> None:
    counts = await lab_case(kind)

    assert counts.entries["lab.case_run"] >= 1
    assert counts.bounces["processors.pipeline.runner"] == 0
    assert _over(counts) == {}, counts.table()


class _Block(Processor):
    id = "block"

    def process_input(self, args: Any) -> Any:
        args.abort("blocked")


async def test_the_tracer_counts_a_callback_into_a_module_on_the_stack_as_a_bounce() -> None:
    """The measure itself: a blocked input makes run_lane call the phase's handler back while the phase awaits it
    (it marks the input not to be saved): one bounce of the phase, and the lane runner entered, not bounced."""
    agent = Agent(id="blocked", model=ScriptedModel(["never"]), input_processors=[_Block()])

    async def send() -> None:
        await agent.generate("hello")

    counts = await follow(send)

    assert counts.bounces["processors.loop.phases"] == 1, counts.table()
    assert counts.entries["processors.loop.phases"] == 1
    assert counts.bounces["processors.pipeline.runner"] == 0
