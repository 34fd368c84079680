"""ResponseCache: a repeated call is answered from the cache; the model is not called again."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Processor, RequestContext
from processors.builtin.base import InvalidOptionsError
from processors.builtin.response_cache import CONTEXT_KEY, MemoryCache, ResponseCache
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.helpers import collect, deltas, get_weather, kinds


class SeesResponses(Processor):
    id = "sees-responses"

    def __init__(self) -> None:
        self.from_cache: list[bool] = []

    def process_llm_response(self, args: Any) -> None:
        self.from_cache.append(args.from_cache)


async def test_the_second_identical_call_is_replayed_from_the_cache() -> None:
    model = ScriptedModel(["Hello there, friend."])
    spy = SeesResponses()
    agent = Agent(id="a", model=model, input_processors=[ResponseCache(), spy])
    first_stream = agent.stream("hi")
    first_chunks = await collect(first_stream)
    first = await first_stream.result()
    second_stream = agent.stream("hi")
    second_chunks = await collect(second_stream)
    second = await second_stream.result()
    assert len(model.requests) == 1
    assert second.text == first.text == "Hello there, friend."
    assert second.finish_reason == "stop" and second.steps[0].from_cache is True
    assert spy.from_cache == [False, True]
    assert deltas(second_chunks) == deltas(first_chunks)
    assert kinds(second_chunks) == kinds(first_chunks)
    assert {c.run_id for c in second_chunks if hasattr(c, "run_id")} == {second.run_id}


async def test_a_different_prompt_or_user_misses() -> None:
    model = ScriptedModel(["one", "two", "three", "four"])
    agent = Agent(id="a", model=model, input_processors=[ResponseCache()])
    assert (await agent.generate("hi", resource_id="ann")).text == "one"
    assert (await agent.generate("hello", resource_id="ann")).text == "two"
    assert (await agent.generate("hi", resource_id="bob")).text == "three"  # scoped per user by default
    assert (await agent.generate("hi", resource_id="ann")).text == "one"
    assert len(model.requests) == 3


async def test_global_scope_shares_and_bust_refreshes() -> None:
    model = ScriptedModel(["one", "two"])
    cache = ResponseCache(scope="global")
    agent = Agent(id="a", model=model, input_processors=[cache])
    assert (await agent.generate("hi", resource_id="ann")).text == "one"
    assert (await agent.generate("hi", resource_id="bob")).text == "one"
    busted = RequestContext({CONTEXT_KEY: {"bust": True}})
    assert (await agent.generate("hi", request_context=busted)).text == "two"
    assert (await agent.generate("hi")).text == "two"  # the busted call stored its fresh answer


async def test_tool_steps_are_cached_per_step_and_tools_still_run() -> None:
    turns: list[str | Turn] = [Turn(tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="c1")]), "Sunny."]
    model = ScriptedModel(turns)
    agent = Agent(id="a", model=model, tools=[get_weather], input_processors=[ResponseCache()])
    first = await agent.generate("weather?")
    second = await agent.generate("weather?")
    assert first.text == second.text == "Sunny." and len(model.requests) == 2
    assert second.steps[0].tool_results == first.steps[0].tool_results


async def test_failed_or_blocked_answers_are_not_cached() -> None:
    from processors.errors import ModelAPIError

    model = ScriptedModel([Turn(text="partial", error=ModelAPIError(500, "boom", True), error_after=1), "fine"])
    agent = Agent(id="a", model=model, input_processors=[ResponseCache()])
    assert (await agent.generate("hi")).finish_reason == "error"
    assert (await agent.generate("hi")).text == "fine"
    assert len(model.requests) == 2


def test_entries_expire_and_the_least_recently_used_go_first(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    backend = MemoryCache(max_entries=2)
    backend.set("k", {"chunks": [1]}, 10)
    assert backend.get("k") == {"chunks": [1]}
    now[0] += 11
    assert backend.get("k") is None
    backend.set("a", 1, None)
    backend.set("b", 2, None)
    backend.get("a")
    backend.set("c", 3, None)  # evicts the least recently used: b
    assert backend.get("b") is None and backend.get("a") == 1 and len(backend) == 2


async def test_an_async_backend_and_a_failing_backend() -> None:
    class AsyncStore:
        def __init__(self) -> None:
            self.data: dict[str, Any] = {}

        async def get(self, key: str) -> Any:
            return self.data.get(key)

        async def set(self, key: str, value: Any, ttl_seconds: float | None) -> None:
            self.data[key] = value

    store = AsyncStore()
    model = ScriptedModel(["one", "two"])
    agent = Agent(id="a", model=model, input_processors=[ResponseCache(cache=store)])
    await agent.generate("hi")
    assert (await agent.generate("hi")).text == "one" and len(store.data) == 1

    class Broken:
        def get(self, key: str) -> Any:
            raise ConnectionError("cache down")

        def set(self, key: str, value: Any, ttl_seconds: float | None) -> None:
            raise ConnectionError("cache down")

    model = ScriptedModel(["one", "two"])
    agent = Agent(id="a", model=model, input_processors=[ResponseCache(cache=Broken())])
    assert (await agent.generate("hi")).text == "one"
    assert (await agent.generate("hi")).text == "two"  # cache errors never fail the run


def test_bad_options_name_the_field() -> None:
    with pytest.raises(InvalidOptionsError, match="ttl_seconds"):
        ResponseCache(ttl_seconds=-1)
    with pytest.raises(InvalidOptionsError, match="scope"):
        ResponseCache(scope="everyone")
