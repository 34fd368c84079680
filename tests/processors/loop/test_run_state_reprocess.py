"""What a stream processor lets out while a stashed part is driven through the chain again is the step's, whatever
part it answers (``RunState.reprocess_stashed``): text a hold-back processor lets out in answer to a ``data-*``
chunk another processor wrote during that pass goes into the step's answer, as the client saw it.

Issue 25's mutation run found this unchecked (tests/README.md: the one non-equivalent survivor of ``run_state.py``
the day before): draining those writes without the step's builder streamed the text but saved the answer without it.
"""

from __future__ import annotations

from typing import Any

from processors import Processor
from processors.chunks import text_delta
from processors.models import ScriptedModel, Turn
from processors.pipeline.stream_chain import REPROCESS_KEY
from tests.processors.helpers import make_agent, of_type, run_stream


class DefersAndNotes(Processor):
    """Defers the first text delta (stashes it to come back), and writes a ``data-note`` when it comes back."""

    id = "defers"

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        if part.type != "text-delta":
            return part
        if "deferred" not in args.state:
            args.state["deferred"] = args.state[REPROCESS_KEY] = part
            return None
        if part is args.state["deferred"]:
            args.writer.custom({"type": "data-note", "data": "back"})
        return part


class HoldsUntilData(Processor):
    """Holds text deltas back and lets them out, as one delta, in place of the next ``data-*`` chunk."""

    id = "holds"
    process_data_parts = True

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        held: list[str] = args.state.setdefault("held", [])
        if part.type == "text-delta":
            held.append(part.payload.text)
            return None
        if part.type.startswith("data-") and held:
            text = "".join(held)
            held.clear()
            return text_delta(args.run_id, "t-held", text)
        return part


async def test_text_let_out_for_a_chunk_written_while_a_stashed_part_comes_back_is_saved_with_the_step() -> None:
    agent = make_agent(ScriptedModel([Turn(text=["Hello"])]), output_processors=[DefersAndNotes(), HoldsUntilData()])
    chunks, result = await run_stream(agent)
    assert [chunk.payload.text for chunk in of_type(chunks, "text-delta")] == ["Hello"]  # type: ignore[union-attr]
    assert [step.text for step in result.steps] == ["Hello"]
    assert result.text == "Hello"
    assert result.messages[-1].text == "Hello"
