"""What the lane runner does with the results of the hooks before the model call (``request_results.py``), seen
through whole runs: the cases its mutation run found unchecked."""

from __future__ import annotations

from typing import Any

from processors.errors import ModelAPIError
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import Fn, kinds, make_agent, run_stream, terminal_count


async def test_a_broken_retry_vote_ends_the_run_before_the_next_error_processor_is_asked() -> None:
    """A broken contract stops the error lane (``RetryVote`` returns ``True``): the processors after the broken one
    are not asked, so none of them can vote for a retry of a run that ends anyway, and the error names the first."""
    asked: list[str] = []

    def broken(args: Any) -> Any:
        asked.append("bad")
        return {"retry": "yes"}

    def willing(args: Any) -> Any:
        asked.append("willing")
        return {"retry": True}

    agent = make_agent(
        ScriptedModel([Turn(error=ModelAPIError(503, "busy", True)), "ok"]),
        error_processors=[Fn("bad", process_api_error=broken), Fn("willing", process_api_error=willing)],
    )

    chunks, result = await run_stream(agent)

    assert asked == ["bad"]
    assert terminal_count(chunks) == 1 and chunks[-1].type == "error", kinds(chunks)
    payload = chunks[-1].payload.error  # type: ignore[union-attr]
    assert (payload["processorId"], payload["hook"]) == ("bad", "process_api_error")
    assert result.finish_reason == "error"
