"""TokenLimiter at its edges: what a prompt costs, where the budget's edges fall, what memory-only protects, which
tokenizer counts, and how the final text is cut across parts (issue 16).

Without a known tokenizer every word of up to six letters and every punctuation mark is one token (the estimate of
``model_data.estimate_tokens``), so the budgets below are counted by hand: a message costs its tokens plus 3.8, a
conversation 24 more, system messages their tokens. Each test pins a behaviour mutation testing found unchecked; see
tests/README.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Message
from processors.builtin.token_limiter import LIMIT_CHUNK, TokenLimiter
from processors.memory.base import InMemoryMemory
from processors.messages import TextPart
from processors.models import ScriptedModel, ToolCall, Turn
from processors.tracing import RecordingTracer
from processors.tripwire import TripWire
from tests.processors.helpers import Fn, collect, get_weather, of_type, streamed_text

#: Twelve exclamation marks: 12 tokens by the estimate, 2 by gpt-4o's tokenizer.
BANG = "!!!!!!!!!!!!"


def smallest_limit(prompt: list[dict[str, Any]], model: str | None = None) -> int:
    """The smallest ``limit`` under which ``prompt`` is sent whole: its cost, rounded up."""
    for limit in range(1, 5_000):
        try:
            if TokenLimiter(limit=limit).trim(prompt, model) is prompt:
                return limit
        except TripWire:
            pass
    raise AssertionError("no limit fits")


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def contents(prompt: list[dict[str, Any]]) -> list[Any]:
    return [m.get("content") for m in prompt]


# ------------------------------------------------------------------------------------------------ what a prompt costs
def test_a_message_costs_its_tokens_and_3_8_and_a_conversation_24() -> None:
    assert smallest_limit([user("one two three")]) == 31  # 3 + 3.8 + 24 = 30.8
    assert smallest_limit([{"role": "system", "content": "Be brief."}, user("one two three")]) == 34  # + 3


def test_content_parts_count_their_text_and_each_image_or_file_765() -> None:
    parts: list[Any] = [
        {"type": "text", "text": "one two"},
        "not a part",
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
        {"type": "image", "image": "a.png"},
        {"type": "file", "file": "a.pdf"},
        {"type": "audio", "audio": "a.wav"},
        {"type": "text", "text": "three"},
        {"type": "text"},
        {"text": "no type: not counted"},
    ]
    assert smallest_limit([{"role": "user", "content": parts}]) == 2326  # 2 + 3 * 765 + 1 + 3.8 + 24


def test_a_tool_call_costs_its_name_and_arguments_and_stays_with_its_result() -> None:
    calls: list[Any] = [
        {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": '{"q": "x"}'}},
        "not a call",
        {"id": "c2"},
    ]
    prompt = [
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    # "lookup {"q": "x"}" is 10 tokens, "ok" 1: (10 + 3.8) + (1 + 3.8) + 24 = 42.6
    assert smallest_limit(prompt) == 43


def test_a_known_tokenizer_counts_every_kind_of_text() -> None:
    prompt = [
        {"role": "system", "content": BANG},
        user(BANG),
        {"role": "user", "content": [{"type": "text", "text": BANG}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c", "function": {"name": "x", "arguments": BANG}}],
        },
    ]
    # gpt-4o: 2 + (2 + 3.8) + (2 + 3.8) + ("x " + BANG: 4 + 3.8) + 24 = 45.4
    assert smallest_limit(prompt, "gpt-4o") == 46
    assert smallest_limit(prompt) == 85  # estimated: 12 + 15.8 + 15.8 + 16.8 + 24 = 84.4


# ------------------------------------------------------------------------------------------------ the budget's edges
def test_nothing_to_send_is_a_tripwire_naming_the_limiter() -> None:
    with pytest.raises(TripWire) as caught:
        TokenLimiter(limit=100).trim([{"role": "system", "content": "Be brief."}])
    assert (caught.value.reason, caught.value.retry) == ("TokenLimiter: there are no messages to send", False)
    assert caught.value.processor_id == "token-limiter"


@pytest.mark.parametrize(
    ("limit", "reason"),
    [
        (27, "TokenLimiter: the system messages alone use 3 tokens, over the limit of 27"),  # budget 0
        (28, "TokenLimiter: no message fits in the limit of 28 tokens (3 used by system messages)"),  # budget 1
    ],
)
def test_where_the_system_messages_leave_no_room(limit: int, reason: str) -> None:
    with pytest.raises(TripWire) as caught:
        TokenLimiter(limit=limit).trim([{"role": "system", "content": "Be brief."}, user("hi")])
    assert (caught.value.reason, caught.value.retry, caught.value.processor_id) == (reason, False, "token-limiter")


def test_messages_that_fill_the_budget_exactly_are_all_sent() -> None:
    five = [user(letter) for letter in "abcde"]  # 5 x 4.8 = 24.0
    assert TokenLimiter(limit=48).trim(five) is five
    six = [user(letter) for letter in "zabcde"]
    assert contents(TokenLimiter(limit=48).trim(six)) == list("abcde")  # the newest five fill the 24 exactly
    assert contents(TokenLimiter(limit=47).trim(six)) == list("bcde")


def test_a_tool_pair_deep_in_the_history_is_kept_or_dropped_whole() -> None:
    call = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c1", "function": {"name": "a", "arguments": "b"}}],
    }
    prompt = [
        user("u"),
        {"role": "assistant", "content": "v"},
        user("w"),
        call,
        {"role": "tool", "tool_call_id": "c1", "content": "one two three four five six seven eight"},
        user("x"),
    ]
    # the pair costs (2 + 3.8) + (8 + 3.8) = 17.6 (the result alone 11.8); "x", "w", "v" and "u" 4.8 each
    assert contents(TokenLimiter(limit=24 + 20).trim(prompt)) == ["u", "v", "w", "x"]
    assert contents(TokenLimiter(limit=24 + 23).trim(prompt)) == [None, prompt[4]["content"], "x"]


def test_a_tool_result_without_its_call_is_a_unit_of_its_own() -> None:
    """A memory window may cut a call from its result; the orphan result is weighed alone, not with the assistant
    message before it."""
    prompt = [
        user("u"),
        {"role": "assistant", "content": "v"},
        {"role": "tool", "tool_call_id": "gone", "content": "one two three four five six"},
        user("x"),
    ]
    assert contents(TokenLimiter(limit=24 + 10).trim(prompt)) == ["v", "x"]  # 4.8 + 4.8; the orphan's 9.8 is skipped


def test_memory_only_without_a_memory_count_treats_every_message_as_this_calls_input() -> None:
    prompt = [user("a b c d e f g h i j"), user("k")]
    with pytest.raises(TripWire, match="no message fits"):
        TokenLimiter(limit=24 + 10, trim_mode="memory-only").trim(prompt)


async def test_the_trace_shows_the_limiter_changed_the_prompt_only_when_it_trimmed() -> None:
    tracer = RecordingTracer()
    for limit in (1_000, 24 + 5):  # "hi" fits in the first; "one two three" (6.8) does not fit in the second
        agent = Agent(
            id="a", model=ScriptedModel(["ok"]), input_processors=[TokenLimiter(limit=limit)], tracers=[tracer]
        )
        await agent.generate([user("one two three"), user("hi")])
    assert [(e.hook, e.outcome) for e in tracer.events if e.processor_id == "token-limiter"] == [
        ("process_llm_request", "passed"),
        ("process_llm_request", "changed"),
    ]


# ------------------------------------------------------------------------------------------------ memory-only in a run
async def remembered(memory: InMemoryMemory) -> None:
    """Thread t1 remembers "a b c d e f g h i j" (13.8) and the reply "k l m n o" (8.8)."""
    await Agent(id="a", model=ScriptedModel(["k l m n o"]), memory=memory).generate(
        "a b c d e f g h i j", thread_id="t1"
    )


async def sent_with_memory_only(limit: int, message: Any) -> tuple[list[Any], Any]:
    memory = InMemoryMemory()
    await remembered(memory)
    model = ScriptedModel(["ok"])
    agent = Agent(
        id="a", model=model, memory=memory, input_processors=[TokenLimiter(limit=limit, trim_mode="memory-only")]
    )
    result = await agent.generate(message, thread_id="t1")
    return ([contents(r.messages) for r in model.requests] or [None])[0], result


async def test_memory_only_drops_remembered_history_that_does_not_fit() -> None:
    sent, _ = await sent_with_memory_only(24 + 16, "p q r")  # the input 6.8, the reply 8.8: 15.6
    assert sent == ["k l m n o", "p q r"]
    sent, _ = await sent_with_memory_only(24 + 10, "p q r")
    assert sent == ["p q r"]


async def test_memory_only_counts_every_message_of_this_calls_input() -> None:
    sent, _ = await sent_with_memory_only(24 + 16, [user("p q r"), user("s t u")])  # 13.6: no room for 8.8 more
    assert sent == ["p q r", "s t u"]


async def test_memory_only_never_drops_this_calls_input_even_when_it_alone_is_over() -> None:
    sent, result = await sent_with_memory_only(24 + 10, "p q r s t u v w x y z")  # 14.8 > 10
    assert sent is None
    assert result.tripwire is not None
    assert (
        result.tripwire.reason == "TokenLimiter: no message fits in the limit of 34 tokens (0 used by system messages)"
    )


async def test_memory_only_input_that_fills_the_budget_exactly_is_sent() -> None:
    sent, result = await sent_with_memory_only(24 + 24, [user(letter) for letter in "pqrst"])  # 5 x 4.8 = 24.0
    assert result.tripwire is None
    assert sent == list("pqrst")


# ------------------------------------------------------------------------------------------------ which tokenizer
async def test_without_a_model_option_the_runs_model_counts_the_prompt_and_the_answer() -> None:
    """The same limiter trims the prompt and caps the answer: both are counted with the run's model's tokenizer."""
    model = ScriptedModel([Turn(text=[BANG] * 10)], model_id="gpt-4o")  # 20 tokens for gpt-4o, 120 estimated
    limiter = TokenLimiter(limit=50)
    agent = Agent(id="a", model=model, instructions=BANG, input_processors=[limiter], output_processors=[limiter])
    stream = agent.stream([user(BANG), {"role": "assistant", "content": BANG}, user("hi")])
    chunks = await collect(stream)
    result = await stream.result()
    # 2 + 5.8 + 5.8 + 4.8 + 24 = 42.4 (estimated, 72.4 would leave only "hi")
    assert contents(model.requests[0].messages) == [BANG, BANG, BANG, "hi"]
    assert streamed_text(chunks) == BANG * 10
    assert result.text == BANG * 10
    assert of_type(chunks, LIMIT_CHUNK) == []


async def test_the_model_option_names_the_tokenizer_of_the_final_cut() -> None:
    model = ScriptedModel([Turn(text=[BANG + " ", BANG + " ", BANG + " "])])
    limiter = TokenLimiter(limit=5, model="gpt-4o", count_mode="part")
    result = await Agent(id="a", model=model, output_processors=[limiter]).generate("hi")
    assert result.text == f"{BANG} {BANG}"  # 5 gpt-4o tokens; the estimate would keep "!!!!!"


async def test_an_answer_within_the_limit_by_the_named_tokenizer_is_left_whole() -> None:
    model = ScriptedModel([Turn(text=BANG, tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), BANG])
    limiter = TokenLimiter(limit=10, model="gpt-4o", count_mode="part")  # 4 tokens; 24 estimated
    result = await Agent(id="a", model=model, tools=[get_weather], output_processors=[limiter]).generate("hi")
    assert result.text == BANG + BANG


# ------------------------------------------------------------------------------------------------ the answer
async def test_truncation_reports_once_with_the_count_that_crossed_the_limit() -> None:
    model = ScriptedModel([Turn(text=["one two ", "three four ", "five six ", "seven "])])
    stream = Agent(id="a", model=model, output_processors=[TokenLimiter(limit=3)]).stream("hi")
    chunks = await collect(stream)
    assert streamed_text(chunks) == "one two "
    (notice,) = of_type(chunks, LIMIT_CHUNK)
    assert notice.data == {"processorId": "token-limiter", "limit": 3, "tokens": 4}  # type: ignore[union-attr]


async def test_an_answer_of_exactly_the_limit_passes_whole() -> None:
    model = ScriptedModel([Turn(text=["one two ", "three"])])
    stream = Agent(id="a", model=model, output_processors=[TokenLimiter(limit=3)]).stream("hi")
    chunks = await collect(stream)
    result = await stream.result()
    assert streamed_text(chunks) == "one two three" == result.text
    assert of_type(chunks, LIMIT_CHUNK) == []


async def test_the_stream_abort_is_final() -> None:
    model = ScriptedModel([Turn(text=["one two ", "three four "]), "never"])
    limiter = TokenLimiter(limit=3, strategy="abort")
    result = await Agent(id="a", model=model, output_processors=[limiter], max_processor_retries=2).generate("hi")
    assert result.tripwire is not None
    assert (result.tripwire.reason, result.tripwire.retry) == ("Token limit of 3 exceeded (current: 4)", False)
    assert len(model.requests) == 1


async def test_the_final_result_abort_counts_the_whole_answer() -> None:
    model = ScriptedModel([Turn(text=["one two ", "three four ", "five "]), "never"])
    limiter = TokenLimiter(limit=3, strategy="abort", count_mode="part")  # each chunk passes the stream
    result = await Agent(id="a", model=model, output_processors=[limiter], max_processor_retries=2).generate("hi")
    assert result.tripwire is not None
    assert (result.tripwire.reason, result.tripwire.retry) == ("Token limit of 3 exceeded (current: 5)", False)
    assert result.tripwire.processor_id == "token-limiter"
    assert len(model.requests) == 1


async def test_the_final_result_counts_only_the_assistants_text() -> None:
    """A user message an earlier processor added, and a tool call's part, cost the answer nothing."""

    def add_user(args: Any) -> Any:
        return [Message.user("a user note of six words"), *args.messages]

    model = ScriptedModel([Turn(text="one ", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), "two three"])
    limiter = TokenLimiter(limit=3, strategy="abort", count_mode="part")
    lanes = [Fn("note", process_output_result=add_user), limiter]
    result = await Agent(id="a", model=model, tools=[get_weather], output_processors=lanes).generate("hi")
    assert result.tripwire is None
    assert result.text == "one two three"


async def test_the_final_cut_runs_across_parts_keeping_tool_calls_and_the_messages_of_others() -> None:
    def add_user(args: Any) -> Any:
        return [Message.user("a user note"), *args.messages]

    model = ScriptedModel(
        [
            Turn(text="one two three ", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
            Turn(text="four five six seven ", tool_calls=[ToolCall("get_weather", {"city": "Rome"})]),
            "eight nine",
        ]
    )
    limiter = TokenLimiter(limit=5, count_mode="part")  # each chunk passes the stream; the result is cut
    lanes = [Fn("note", process_output_result=add_user), limiter]
    result = await Agent(id="a", model=model, tools=[get_weather], output_processors=lanes).generate("hi")
    note, reply = result.messages
    assert note.role == "user" and note.text == "a user note"
    texts = [p.text for p in reply.content.parts if isinstance(p, TextPart)]
    assert texts == ["one two three ", "four five "]  # 3 tokens, then the 2 left; "eight nine" is gone
    assert [call.args["city"] for call in reply.tool_invocations] == ["Paris", "Rome"]
    assert reply.content.content == "one two three four five "
    assert result.text == "one two three four five "


async def test_a_part_of_no_tokens_after_the_limit_is_kept() -> None:
    def spaced(args: Any) -> Any:
        parts = [TextPart(text="one two three"), TextPart(text="\n"), TextPart(text="four")]
        return [Message(role="assistant", content={"parts": parts})]  # type: ignore[arg-type]

    lanes = [Fn("spaced", process_output_result=spaced), TokenLimiter(limit=3)]
    result = await Agent(id="a", model=ScriptedModel(["x"]), output_processors=lanes).generate("hi")
    assert [p.text for p in result.messages[-1].content.parts if isinstance(p, TextPart)] == ["one two three", "\n"]
