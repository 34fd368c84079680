"""``stream_parts`` holds every chunk as it entered the chain; text deltas are kept compact and read back equal."""

from __future__ import annotations

from typing import Any

from processors import Agent, Processor, ProcessOutputStreamArgs
from processors.chunks import TextDeltaChunk
from processors.models import ScriptedModel, Turn
from processors.pipeline.stream_parts import StreamParts


class Shout(Processor):
    id = "shout"

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> Any:
        if args.part.type == "text-delta":
            return args.part.with_payload(text=args.part.payload.text.upper())  # type: ignore[union-attr]
        return args.part


class Watch(Processor):
    id = "watch"

    def __init__(self) -> None:
        self.seen: list[list[str]] = []

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> Any:
        if args.part.type == "text-delta":
            assert args.stream_parts[-1] == args.part or args.part.payload.text.isupper()  # type: ignore[union-attr]
            self.seen.append([p.payload.text for p in args.stream_parts if p.type == "text-delta"])  # type: ignore[union-attr]
        return args.part


async def test_processors_see_every_part_as_it_entered_the_chain() -> None:
    watch = Watch()
    agent = Agent(id="a", model=ScriptedModel([Turn(text=["one ", "two"])]), output_processors=[Shout(), watch])
    result = await agent.generate("go")
    assert result.text == "ONE TWO"
    assert watch.seen == [["one "], ["one ", "two"]]  # raw parts, before Shout changed them


def test_the_sequence_reads_back_equal_chunks() -> None:
    parts = StreamParts()
    delta = TextDeltaChunk(run_id="r", payload={"id": "m", "text": "hi"})
    parts.append(delta)
    assert len(parts) == 1
    assert parts[0] == delta
    assert parts[-1:] == [delta]
    assert list(parts) == [delta]
    assert parts[0] is not delta  # rebuilt from its compact form
