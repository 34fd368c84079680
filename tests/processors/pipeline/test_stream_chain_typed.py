"""``typed_part``: a bare ``Chunk`` a stream processor hands on is read as its typed class, whole, or refused."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.chunk_payloads import TextDeltaPayload, ToolCallPayload
from processors.chunks import Chunk, ReasoningDeltaChunk, TextDeltaChunk, ToolCallChunk
from processors.errors import ProcessorContractError
from processors.models import ScriptedModel, Turn
from processors.pipeline.processor import Processor
from processors.pipeline.run_context import Entry
from processors.pipeline.stream_chain import typed_part


class Forger(Processor):
    id = "forger"

    def process_output_stream(self, args: Any) -> Any:
        return args.part


ENTRY = Entry(Forger(), 0)


def test_a_bare_tool_call_keeps_its_run_source_and_metadata() -> None:
    bare = Chunk(
        type="tool-call",
        run_id="run-7",
        from_="WORKFLOW",
        metadata={"why": "rebuilt"},
        payload={"toolCallId": "c1", "toolName": "echo", "args": {"word": "a"}},
    )
    typed = typed_part(ENTRY, bare)
    assert type(typed) is ToolCallChunk
    assert (typed.type, typed.run_id, typed.from_, typed.metadata) == (
        "tool-call",
        "run-7",
        "WORKFLOW",
        {"why": "rebuilt"},
    )
    assert typed.payload == ToolCallPayload(tool_call_id="c1", tool_name="echo", args={"word": "a"})


@pytest.mark.parametrize("kind", ["text-delta", "reasoning-delta", "some-future-kind"])
def test_text_without_text_and_unknown_kinds_are_handed_on_as_they_are(kind: str) -> None:
    bare = Chunk(type=kind)
    assert typed_part(ENTRY, bare) is bare


def test_a_refusal_names_at_most_three_of_the_missing_fields() -> None:
    with pytest.raises(ProcessorContractError) as caught:
        typed_part(ENTRY, Chunk(type="tool-call", payload={}))
    message = str(caught.value)
    assert message.startswith(
        "Processor 'forger' returned a chunk of type 'tool-call' from process_output_stream that cannot be used: "
    )
    assert message.endswith(
        "payload.toolCallId: Field required; payload.toolName: Field required "
        "(build it as a ToolCallChunk, or change the part given with with_payload)"
    )
    wrong = {name: object() for name in ("toolCallId", "toolName", "result", "isError", "args", "providerExecuted")}
    with pytest.raises(ProcessorContractError) as caught:
        typed_part(ENTRY, Chunk(type="tool-result", payload=wrong))  # more wrong fields than it names
    assert str(caught.value).count("payload.") == 3


def test_a_bare_text_delta_with_text_is_read_as_a_text_delta_chunk() -> None:
    """The chain's guards, the loop's reducer and the studio match on chunk classes: a processor's bare delta must
    reach them as the class its ``type`` names, or a guard after it would let its text pass unread."""
    bare = Chunk(type="text-delta", run_id="run-1", payload={"id": "t", "text": "my password is hunter2"})
    typed = typed_part(ENTRY, bare)
    assert type(typed) is TextDeltaChunk
    assert typed.payload == TextDeltaPayload(id="t", text="my password is hunter2")
    reasoning = typed_part(ENTRY, Chunk(type="reasoning-delta", payload={"id": "r", "text": "hm"}))
    assert type(reasoning) is ReasoningDeltaChunk


def test_a_bare_text_delta_whose_text_cannot_be_read_is_refused() -> None:
    with pytest.raises(ProcessorContractError) as caught:
        typed_part(ENTRY, Chunk(type="text-delta", payload={"text": "no id"}))
    assert str(caught.value) == (
        "Processor 'forger' returned a chunk of type 'text-delta' from process_output_stream that cannot be used: "
        "payload.id: Field required (build it as a TextDeltaChunk, or change the part given with with_payload)"
    )


async def test_a_guard_after_a_processor_that_builds_bare_deltas_reads_their_text() -> None:
    """A stream guard that matches on ``TextDeltaChunk`` sees the text a processor before it handed on bare."""
    seen: list[str] = []

    class Rebuild(Processor):
        id = "rebuild"

        def process_output_stream(self, args: Any) -> Any:
            part = args.part
            if isinstance(part, TextDeltaChunk):
                return Chunk(type="text-delta", run_id=part.run_id, payload={"id": "t", "text": part.payload.text})
            return part

    class Guard(Processor):
        id = "guard"

        def process_output_stream(self, args: Any) -> Any:
            match args.part:
                case TextDeltaChunk(payload=payload):
                    seen.append(payload.text)
            return args.part

    agent = Agent(id="typed", model=ScriptedModel([Turn(text=["a ", "b"])]), output_processors=[Rebuild(), Guard()])
    result = await agent.generate("hi")
    assert seen == ["a ", "b"]
    assert result.text == "a b"
