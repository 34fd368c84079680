"""SystemPromptScrubber's stream hook with custom patterns runs on a worker thread: while it searches a chunk,
the event loop keeps running the app's other tasks (a window, another run), so a user's slow pattern cannot
freeze them.

Issue 25's mutation run found nothing checked this (tests/README.md): with the off-loop hook stored under another
name, every reply still read the same, only the loop stopped while the pattern searched.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from processors import Agent
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.models import ScriptedModel
from tests.processors.helpers import Fn


class LoopTicks:
    """A task that counts its turns on the event loop: each turn is a moment the loop was free."""

    def __init__(self) -> None:
        self.count = 0

    async def run(self) -> None:
        while True:
            self.count += 1
            await asyncio.sleep(0)


def noting(ticks: LoopTicks, seen: list[tuple[str, int]], name: str) -> Fn:
    """A stream processor that notes each part it is handed with how many turns the loop has had."""

    def note(args: Any) -> Any:
        seen.append((name, ticks.count))
        return args.part

    return Fn(name, process_output_stream=note)


#: Long enough that some deltas come out of the guard's hold-back (its ``carry_over`` characters) as they arrive.
REPLY = " ".join(["Nothing secret here, only plain words about the weather today."] * 4)


async def loop_turns_inside(guard: SystemPromptScrubber) -> list[int]:
    """The loop's turns while ``guard``'s stream hook handled a part it let out at once (between the processors
    either side of it in the output chain)."""
    ticks = LoopTicks()
    seen: list[tuple[str, int]] = []
    agent = Agent(
        id="a",
        model=ScriptedModel([REPLY]),
        output_processors=[noting(ticks, seen, "in"), guard, noting(ticks, seen, "out")],
    )
    ticker = asyncio.create_task(ticks.run())
    try:
        result = await agent.generate("hi")
    finally:
        ticker.cancel()
    assert result.error is None and result.tripwire is None
    assert result.text == REPLY
    turns = [end - start for (was, start), (name, end) in itertools.pairwise(seen) if (was, name) == ("in", "out")]
    assert len(turns) >= 3  # the step-start and deltas the guard let out at once
    return turns


async def test_the_loop_keeps_running_while_a_custom_pattern_searches_the_stream() -> None:
    turns = await loop_turns_inside(SystemPromptScrubber(custom_patterns=[r"PELICAN-\d+"]))
    assert all(turn > 0 for turn in turns), turns
