"""ModerationProcessor's ``last_score`` in its run state: the score its threshold is compared with, which the lab's
curves and threshold slider read (``lab/guard_scores.py``). Its mutation run found nothing checking it."""

from __future__ import annotations

import json

from processors import Agent
from processors.builtin.moderation import ModerationProcessor
from processors.models import ScriptedModel
from processors.tracing import RecordingTracer


def scores(**values: float) -> str:
    return json.dumps({"categories": values, "reason": None})


async def last_state(judge: ScriptedModel, **options: object) -> dict[str, object]:
    tracer = RecordingTracer()
    processor = ModerationProcessor(model=judge, **options)
    await Agent(
        id="agent",
        model=ScriptedModel(["ok"]),
        instructions="Be brief.",
        input_processors=[processor],
        tracers=[tracer],
    ).generate("some text")
    return dict(tracer.events[-1].state)


async def test_the_state_keeps_the_highest_configured_score_to_four_places_flagged_or_not() -> None:
    # a category the judge did not score counts as 0, not as flagged; a category not configured is not counted
    judge = ScriptedModel([scores(hate=0.123456, sexual=0.99)])

    state = await last_state(judge, categories=["hate", "violence"])

    assert state == {"last_score": 0.1235}


async def test_a_flagged_score_is_kept_beside_the_count() -> None:
    judge = ScriptedModel([scores(hate=0.2, violence=0.87654321)])

    state = await last_state(judge, categories=["hate", "violence"], strategy="warn")

    assert state["last_score"] == 0.8765
    assert state["flagged"] == 1
