"""TokenLimiter: the prompt trimmed per call (history untouched), answers capped by truncation or abort."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.builtin.base import InvalidOptionsError
from processors.builtin.model_data import count_tokens
from processors.builtin.token_limiter import LIMIT_CHUNK, TokenLimiter
from processors.memory.base import InMemoryMemory
from processors.models import ScriptedModel, Turn
from tests.processors.helpers import collect, of_type, streamed_text

LONG = "lorem ipsum dolor sit amet " * 20  # ~100 tokens


def conversation() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "first question " + LONG},
        {"role": "assistant", "content": "first answer"},
        {"role": "user", "content": "second question"},
        {"role": "assistant", "content": "second answer"},
        {"role": "user", "content": "third question"},
    ]


async def test_the_model_receives_the_newest_messages_that_fit_and_history_is_untouched() -> None:
    model = ScriptedModel(["ok"])
    memory = InMemoryMemory()
    agent = Agent(
        id="a",
        model=model,
        instructions="Be brief.",
        memory=memory,
        input_processors=[TokenLimiter(limit=80, model="gpt-4o")],
    )
    result = await agent.generate(conversation(), thread_id="t1")
    sent = model.requests[0].messages
    assert sent[0] == {"role": "system", "content": "Be brief."}
    assert [m["content"] for m in sent[1:]] == ["first answer", "second question", "second answer", "third question"]
    assert result.text == "ok"
    saved = await memory.load_messages("t1")
    assert saved[0].text.startswith("first question")  # only the prompt was trimmed


async def test_best_fit_skips_a_big_message_but_contiguous_stops_there() -> None:
    messages = [
        {"role": "user", "content": "old small"},
        {"role": "assistant", "content": LONG},
        {"role": "user", "content": "newest"},
    ]
    best = ScriptedModel(["ok"])
    await Agent(id="a", model=best, input_processors=[TokenLimiter(limit=60)]).generate(messages)
    assert [m["content"] for m in best.requests[0].messages if m["role"] != "system"] == ["old small", "newest"]
    contiguous = ScriptedModel(["ok"])
    await Agent(id="a", model=contiguous, input_processors=[TokenLimiter(limit=60, trim_mode="contiguous")]).generate(
        messages
    )
    assert [m["content"] for m in contiguous.requests[0].messages if m["role"] != "system"] == ["newest"]


def test_a_tool_call_and_its_result_are_kept_or_dropped_together() -> None:
    prompt: list[dict[str, Any]] = [
        {"role": "user", "content": "weather?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": LONG},
        {"role": "assistant", "content": "It is sunny."},
        {"role": "user", "content": "thanks"},
    ]
    trimmed = TokenLimiter(limit=60).trim(prompt)
    assert [m["role"] for m in trimmed] == ["user", "assistant", "user"]
    assert all(m.get("tool_call_id") != "c1" and not m.get("tool_calls") for m in trimmed)
    roomy = TokenLimiter(limit=10_000).trim(prompt)
    assert roomy is prompt


def test_memory_only_never_removes_this_calls_input() -> None:
    prompt: list[dict[str, Any]] = [
        {"role": "user", "content": "remembered " + LONG},
        {"role": "assistant", "content": "remembered answer"},
        {"role": "user", "content": "this call " + LONG},
    ]
    limiter = TokenLimiter(limit=150, trim_mode="memory-only")
    trimmed = limiter.trim(prompt, memory_count=2)
    assert [m["content"] for m in trimmed] == ["remembered answer", prompt[2]["content"]]


@pytest.mark.parametrize(
    ("limit", "instructions", "reason"),
    [
        (30, LONG, "the system messages alone use"),
        (40, "short", "no message fits in the limit of 40 tokens"),
    ],
)
async def test_impossible_budgets_end_the_run_with_a_tripwire(limit: int, instructions: str, reason: str) -> None:
    model = ScriptedModel(["never"])
    agent = Agent(id="a", model=model, instructions=instructions, input_processors=[TokenLimiter(limit=limit)])
    result = await agent.generate(LONG)
    assert len(model.requests) == 0
    assert result.tripwire is not None and reason in result.tripwire.reason
    assert result.tripwire.processor_id == "token-limiter" and result.tripwire.retry is False


async def test_output_truncation_drops_the_rest_and_says_so_once() -> None:
    model = ScriptedModel(["one two three four five six seven"])
    stream = Agent(id="a", model=model, output_processors=[TokenLimiter(limit=3)]).stream("hi")
    chunks = await collect(stream)
    result = await stream.result()
    assert streamed_text(chunks) == "one two three "
    (notice,) = of_type(chunks, LIMIT_CHUNK)
    assert notice.transient is True  # type: ignore[union-attr]
    assert notice.data == {"processorId": "token-limiter", "limit": 3, "tokens": 4}  # type: ignore[union-attr]
    assert result.text == "one two three " and result.finish_reason == "stop"
    assert all(part.type != LIMIT_CHUNK for m in result.messages for part in m.content.parts)  # not saved


async def test_output_abort_ends_the_run() -> None:
    model = ScriptedModel(["one two three four five"])
    result = await Agent(id="a", model=model, output_processors=[TokenLimiter(limit=3, strategy="abort")]).generate(
        "hi"
    )
    assert result.tripwire is not None
    assert result.tripwire.reason == "Token limit of 3 exceeded (current: 4)"
    assert result.finish_reason == "other"


async def test_part_mode_limits_each_chunk_and_the_result_is_truncated() -> None:
    model = ScriptedModel([Turn(text=["alpha beta ", "gamma delta epsilon zeta eta theta ", "iota kappa "])])
    limiter = TokenLimiter(limit=3, count_mode="part")
    stream = Agent(id="a", model=model, output_processors=[limiter]).stream("hi")
    chunks = await collect(stream)
    result = await stream.result()
    assert streamed_text(chunks) == "alpha beta iota kappa "  # the 6-token chunk alone was over the limit
    assert result.text == "alpha beta iota "  # the final text is cut at 3 tokens
    assert result.messages[-1].text == "alpha beta iota "


async def test_real_token_counts_for_openai_models() -> None:
    text = "Tokenization counts differ between models: 12345."
    assert count_tokens(text, "gpt-4o") != count_tokens(text, "unknown-model") or count_tokens(text, "gpt-4o") > 0
    limiter = TokenLimiter(limit=5, model="openai/gpt-4o-mini")
    assert limiter.count(text) == count_tokens(text, "gpt-4o-mini")


@pytest.mark.parametrize(
    ("options", "field"), [({"limit": 0}, "limit"), ({"limit": -1}, "limit"), ({"trim_mode": "random"}, "trim_mode")]
)
def test_bad_options_name_the_field(options: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptionsError, match=field):
        TokenLimiter(**options)
