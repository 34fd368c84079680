"""``TextFlow`` and the stream chain's outcomes: "changed" means the text changed (issue 26 §7). A guard that keeps a
tail of text back reads "held", moved chunk boundaries alone read nothing, and only a real text difference is
"changed" — with the text held behind a masked value still recognised when it comes out."""

from __future__ import annotations

import re
from typing import Any

from processors import Processor
from processors.chunks import AnyChunk, text_delta
from processors.pipeline.text_flow import TextFlow, chunk_text
from processors.tracing import RecordingTracer
from tests.processors.pipeline.test_stream_chain import delta, make_chain, only_event, text_of


def reasoning(text: str) -> AnyChunk:
    chunk = delta(text)
    return chunk.model_copy(update={"type": "reasoning-delta"})


# ------------------------------------------------------------------------------------------- the ledger
def test_text_handed_on_as_it_was_taken_passes() -> None:
    flow = TextFlow()
    flow.took(delta("Sure, I can "))
    assert flow.gave(delta("Sure, I can ")) == "passed"
    assert flow.waiting() == ""


def test_a_tail_kept_back_is_held_and_let_out_later_is_no_change() -> None:
    flow = TextFlow()
    flow.took(delta("Sure, I can "))
    assert flow.gave(delta("Sure, ")) == "held"  # "I can " waits
    assert flow.waiting() == "I can "
    flow.took(delta("help with that."))
    assert flow.gave(delta("I can help with that.")) == "passed"  # boundaries moved, nothing else


def test_text_that_differs_is_changed() -> None:
    flow = TextFlow()
    flow.took(delta("mail ada@example.com"))
    assert flow.gave(delta("mail a***@*******.com")) == "changed"


def test_the_text_held_behind_a_masked_value_is_recognised_when_it_comes_out() -> None:
    flow = TextFlow()
    flow.took(delta("reach them at ada@example.com or "))
    flow.took(delta("+1 555 0100 today."))
    assert flow.gave(delta("reach them at a***@*******.com or ")) == "changed"
    assert flow.waiting() == "+1 555 0100 today."
    assert flow.gave(delta("+1 555 0100 today.")) == "passed"


def test_a_replacement_whose_end_matches_nothing_replaces_all_that_waits() -> None:
    flow = TextFlow()
    flow.took(delta("call 555 0100"))
    assert flow.gave(delta("call [PHONE]")) == "changed"
    assert flow.waiting() == ""


def test_each_kind_of_text_has_its_own_ledger_and_other_chunks_carry_none() -> None:
    flow = TextFlow()
    flow.took(reasoning("think"))
    flow.took(delta("say"))
    assert flow.gave(delta("say")) == "passed"
    assert flow.gave(reasoning("th")) == "held"
    assert flow.gave(delta("think")) == "changed"  # reasoning text that came out as the answer
    assert chunk_text(None) is None


# ------------------------------------------------------------------------------------ in the chain
class Window(Processor):
    """Keeps the last ``size`` characters back (a stream guard's look-behind window), masks digits if asked, and lets
    the rest out with the chunk's own shape; the tail comes out at text-end in place of that chunk."""

    id = "window"

    def __init__(self, size: int = 6, mask: bool = False) -> None:
        self.size, self.mask = size, mask

    def process_output_stream(self, args: Any) -> Any:
        part = args.part
        waiting = args.state.get("waiting", "") + part.payload.text
        out, args.state["waiting"] = waiting[: -self.size], waiting[-self.size :]
        if self.mask:
            out = re.sub(r"\d", "#", out)
        return part.with_payload(text=out) if out else None


async def test_a_window_guard_that_changes_no_text_holds_and_never_changes() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Window(), tracer=tracer)
    outs = [await chain.process(delta(text)) for text in ("Sure, ", "I can help ", "with that", " today.")]
    assert "".join(text_of(out) or "" for out in outs) == "Sure, I can help with that "
    chain.flush_trace()
    event = only_event(tracer, "window")
    stats = event.chunk_stats
    # the first chunk came out with the second; each later one kept a tail back; no text differs from the model's
    assert (stats["changed"], stats["held"], stats["dropped"]) == (0, 4, 0)
    assert event.outcome == "held"


async def test_a_window_guard_that_lets_all_out_reads_held() -> None:
    class Flushing(Window):
        def process_output_stream(self, args: Any) -> Any:
            if args.part.payload.text == "":
                return args.part.with_payload(text=args.state.pop("waiting", ""))
            return super().process_output_stream(args)

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Flushing(size=4), tracer=tracer)
    outs = [await chain.process(delta(text)) for text in ("Sure, I can ", "help with that", "")]
    assert "".join(text_of(out) or "" for out in outs) == "Sure, I can help with that"
    chain.flush_trace()
    event = only_event(tracer, "window")
    assert (event.outcome, event.after) == ("held", "0 changed, 2 held, 0 dropped")


async def test_only_the_chunk_whose_text_a_guard_masked_is_changed() -> None:
    tracer = RecordingTracer()
    chain, _ctx = make_chain(Window(size=4, mask=True), tracer=tracer)
    outs = [await chain.process(delta(text)) for text in ("Hello there, ", "call 555 now ", "please, ", "thanks!!")]
    assert "".join(text_of(out) or "" for out in outs) == "Hello there, call ### now please, than"
    chain.flush_trace()
    event = only_event(tracer, "window")
    changed = [change for change in event.chunk_stats["changes"] if change["outcome"] == "changed"]
    assert [change["after"]["payload"]["text"] for change in changed] == ["re, call ### "]
    assert event.chunk_stats["changed"] == 1 and event.outcome == "changed"


async def test_a_guard_that_rewrites_each_chunk_is_changed_each_time() -> None:
    class Upper(Processor):
        id = "upper"

        def process_output_stream(self, args: Any) -> Any:
            return args.part.with_payload(text=args.part.payload.text.upper())

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Upper(), tracer=tracer)
    for text in ("ab", "cd", "ef"):
        await chain.process(delta(text))
    chain.flush_trace()
    assert only_event(tracer, "upper").chunk_stats["changed"] == 3


async def test_text_turned_into_a_chunk_without_text_is_changed() -> None:
    class Silences(Processor):
        id = "silences"

        def process_output_stream(self, args: Any) -> Any:
            return text_delta("run-1", "t1", "x").model_copy(update={"type": "text-start"})

    tracer = RecordingTracer()
    chain, _ctx = make_chain(Silences(), tracer=tracer)
    await chain.process(delta("secret"))
    chain.flush_trace()
    assert only_event(tracer, "silences").chunk_stats["changed"] == 1
