"""Lone surrogates: an emoji split across SSE events streams whole and is saved; nothing ever loses a turn over one."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from processors import Agent
from processors.memory import SqlMemory
from processors.messages.surrogates import REPLACEMENT, SurrogateJoiner, scrub, scrub_json
from processors.models import LiteLLMModel, ScriptedModel
from tests.support.openai_server import OpenAIServer

EMOJI = "\U0001f600"  # 😀, "\ud83d\ude00" as a JSON surrogate pair


def utf16_units(text: str) -> list[str]:
    """``text`` as UTF-16 code units, each a one-character string (surrogates for characters beyond the BMP)."""
    data = text.encode("utf-16-le")
    return [data[i : i + 2].decode("utf-16-le", "surrogatepass") for i in range(0, len(data), 2)]


@given(st.text(), st.lists(st.integers(min_value=0, max_value=200)))
def test_a_text_split_anywhere_in_utf16_units_comes_out_of_the_joiner_whole(text: str, cuts: list[int]) -> None:
    units = utf16_units(text)
    bounds = sorted({min(cut, len(units)) for cut in cuts})
    pieces = ["".join(units[a:b]) for a, b in zip([0, *bounds], [*bounds, len(units)], strict=True)]
    joiner = SurrogateJoiner()
    out = [joiner.feed(piece) for piece in pieces] + [joiner.flush()]
    assert "".join(out) == text
    assert all(scrub(piece) == piece for piece in out)  # every released piece is writable on its own


def test_lone_halves_become_the_replacement_character() -> None:
    joiner = SurrogateJoiner()
    assert joiner.feed("a\ud83d") == "a"
    assert joiner.holding
    assert joiner.feed("b") == REPLACEMENT + "b"  # the low half never came
    assert joiner.feed("\ude00c") == REPLACEMENT + "c"  # a low half with no high one
    assert joiner.feed("d\ud83d") == "d"
    assert joiner.flush() == REPLACEMENT
    assert scrub("x\ud83d\ude00y\udc00") == f"x{EMOJI}y{REPLACEMENT}"
    assert scrub_json({"k\ud83d": ["\ude00", 1, None, ("\ud83d\ude00",)]}) == {
        f"k{REPLACEMENT}": [REPLACEMENT, 1, None, (EMOJI,)]
    }


async def test_an_emoji_split_across_two_sse_events_streams_whole_and_both_messages_are_saved(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.reply_text("Hi ", "\ud83d", "\ude00", " there")  # JSON-escaped halves, one per SSE event
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")
    async with SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}") as memory:
        agent = Agent(id="a", model=model, memory=memory)
        stream = agent.stream("Smile \ud83d please", thread_id="t1")  # a lone half in the input, too
        deltas = [chunk.payload.text async for chunk in stream if chunk.type == "text-delta"]  # type: ignore[union-attr]
        result = await stream.result()
        saved = await memory.all_messages("t1")

    assert result.warnings == []
    assert result.text == f"Hi {EMOJI} there"
    assert deltas == ["Hi ", EMOJI, " there"]  # the halves streamed as one character
    assert [(m.role, m.text) for m in saved] == [
        ("user", f"Smile {REPLACEMENT} please"),
        ("assistant", f"Hi {EMOJI} there"),
    ]


async def test_a_high_half_left_at_the_end_of_a_reply_is_saved_as_the_replacement_character(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.reply_text("cut ", "\ud83d")
    model = LiteLLMModel("openai/test-model", api_base=openai_server.base_url, api_key="sk-test")
    async with SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}") as memory:
        result = await Agent(id="a", model=model, memory=memory).generate("hi", thread_id="t1")
        saved = await memory.all_messages("t1")
    assert result.warnings == []
    assert result.text == f"cut {REPLACEMENT}"
    assert [m.text for m in saved] == ["hi", f"cut {REPLACEMENT}"]


async def test_a_model_that_splits_a_pair_across_deltas_still_has_its_turn_saved(tmp_path: Path) -> None:
    async with SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}") as memory:
        agent = Agent(id="a", model=ScriptedModel([["ok ", "\ud83d", "\ude00", " \udc00"]]), memory=memory)
        result = await agent.generate("hi", thread_id="t1")
        saved = await memory.all_messages("t1")
    assert result.warnings == []
    assert [m.text for m in saved] == ["hi", f"ok {EMOJI} {REPLACEMENT}"]


async def test_titles_metadata_imports_and_exports_with_lone_halves_are_stored_and_written(tmp_path: Path) -> None:
    async with SqlMemory(f"sqlite:///{tmp_path / 'threads.db'}") as memory:
        await memory.create_thread("t1", title="a\ud83d", metadata={"note": "\ude00"})
        renamed = await memory.rename_thread("t1", "b\ud83d")
        assert (await memory.get_thread("t1")).title == f"b{REPLACEMENT}"  # type: ignore[union-attr]
        assert renamed.id == "t1"

        document = {
            "version": 1,
            "thread": {"id": "t2", "title": "imported \\ud83d"},
            "messages": [
                {
                    "id": "m1",
                    "role": "user",
                    "content": {
                        "format": 2,
                        "parts": [{"type": "text", "text": "split \\ud83d\\ude00 and lone \\udc00"}],
                    },
                }
            ],
        }
        text = json.dumps(document).replace("\\\\u", "\\u")  # the escapes as a file from elsewhere carries them
        assert await memory.import_thread(text) == "t2"
        imported = await memory.all_messages("t2")
        assert [m.text for m in imported] == [f"split {EMOJI} and lone {REPLACEMENT}"]

        exported = await memory.export_thread("t1")
        target = tmp_path / "t1.json"
        target.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")  # writable as UTF-8
        assert exported["thread"]["title"] == f"b{REPLACEMENT}"
        assert exported["thread"]["metadata"] == {"note": REPLACEMENT}
