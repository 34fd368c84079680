"""A chat message and a lab case, followed call by call, do not bounce back into modules they are still inside.

Issue 27: "a chat message and a lab case, followed call by call, enter each module on their way once or twice, not
six times" — the runner was re-entered from every lane's closures, which called runner helpers back. The figures
come from ``tests/support/flow_trace.py`` (``scripts/trace-flow`` prints them): a *bounce* is a call back into a
module whose frame is still on the stack. Every module on the way (the runtime's loop and pipeline, the lab) may
bounce at most twice, but for the exceptions below, each with its reason and a ceiling at today's figure (so a new
callback path fails here).

Entries (calls into a module not on the stack) are not bounded: the values the flow carries (the message list,
chunks, trace events, the args objects) are used per processor and per chunk by design.
"""

from __future__ import annotations

import pytest

from tests.support.flow_trace import FlowCounts, chat_message, lab_case

#: Module → (most bounces allowed, why it is called back at all).
EXCEPTIONS: dict[str, tuple[int, str]] = {
    "processors.loop.phases": (
        14,
        "process_input_step hands run_lane an args builder that reads the step's overrides the processors before "
        "changed (a model to resolve, tools to copy) and an apply that checks a mapping's values; process_input's "
        "apply reads a mapping too: called per processor while the phase awaits the lane (every other lane's args "
        "are data, an ArgsRecipe)",
    ),
    "processors.loop.output_phases": (
        4,
        "process_output_step's apply checks the tool calls and the read-only record, per processor",
    ),
    "lab.case_run": (2, "the case's recording model wrapper is called by the loop that run_case awaits"),
}


#: Not asserted: the built-in guards' own callbacks (a stream guard hands its find/hold functions to the shared
#: per-chunk window, ``builtin/split_across_chunks.py``, so ``pii_detector`` and ``system_prompt_scrubber`` bounce
#: per chunk). They are each guard's design, not the path a message takes; ``scripts/trace-flow`` shows them.
GUARDS = "processors.builtin."


def _over(counts: FlowCounts) -> dict[str, int]:
    return {
        module: bounces
        for module, bounces in counts.bounces.items()
        if not module.startswith(GUARDS) and bounces > EXCEPTIONS.get(module, (2, ""))[0]
    }


async def test_a_chat_message_enters_the_lane_runner_once_per_lane_and_is_never_called_back() -> None:
    counts = await chat_message()

    assert counts.bounces["processors.pipeline.runner"] == 0
    assert counts.entries["processors.pipeline.runner"] > 0  # the trace did see the lanes run
    assert _over(counts) == {}, counts.table()


@pytest.mark.parametrize("kind", ["attack", "benign"])
async def test_a_lab_case_enters_each_module_without_bouncing_back(kind: str) -> None:
    counts = await lab_case(kind)

    assert counts.entries["lab.case_run"] >= 1
    assert counts.bounces["processors.pipeline.runner"] == 0
    assert _over(counts) == {}, counts.table()


async def test_the_tracer_counts_a_callback_into_a_module_on_the_stack_as_a_bounce() -> None:
    """The measure itself: run_lane calling a phase's closure while the phase awaits it is a bounce of the phase."""
    counts = await chat_message()

    assert counts.bounces["processors.loop.phases"] > 0
    assert counts.entries["processors.loop.phases"] > 0
