"""TokenLimiter without a ``model`` option counts the final answer with the run's model's tokenizer, which its
``process_llm_request`` noted in the state: the case its mutation run found unchecked (an answer of several text
parts, where counting with the estimate would use up the budget on the first and cut the next)."""

from __future__ import annotations

from processors import Agent
from processors.builtin.model_data import count_tokens
from processors.builtin.token_limiter import TokenLimiter
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import get_weather

TEXT = "!" * 36  # 36 tokens estimated, a handful for gpt-4o


async def test_an_answer_of_two_steps_within_the_limit_by_the_runs_tokenizer_is_left_whole() -> None:
    assert count_tokens(TEXT) == 36 and 2 * count_tokens(TEXT, "gpt-4o") <= 37 < 2 * count_tokens(TEXT)
    model = ScriptedModel(
        [Turn(text=TEXT, tool_calls=[ToolCall("get_weather", {"city": "Paris"})]), TEXT], model_id="gpt-4o"
    )
    limiter = TokenLimiter(limit=37)  # the estimate would keep the first step's text and 1 token of the second's
    agent = Agent(id="a", model=model, tools=[get_weather], input_processors=[limiter], output_processors=[limiter])

    result = await agent.generate("hi")

    assert result.tripwire is None
    assert result.text == TEXT + TEXT
