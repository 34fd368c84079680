"""CostGuard's tripwire in Chinese names its scope in Chinese (issue 27 item 2): the option's value (``run``,
``thread``, ``resource``) is a word the class declares in its ``texts``, translated where the studio writes the
sentence of the code; the English reason and the tripwire's values stay the runtime's."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent
from processors.builtin.cost_guard import CostGuard
from processors.models import ScriptedModel, Turn
from processors.usage import Usage
from studio.error_texts import tripwire_text


def _turn() -> Turn:
    return Turn(text="ok", usage=Usage(input_tokens=1_000_000, output_tokens=0, total_tokens=1_000_000))


async def _tripped(scope: str) -> Any:
    """The tripwire of a second run in a thread (of a user) whose $1 budget the first run used up."""
    guard = CostGuard(max_cost=1, scope=scope, input_cost_per_million=1.0)
    agent = Agent(id="a", model=ScriptedModel([_turn(), _turn()]), input_processors=[guard])
    first = await agent.generate("hi", thread_id="t1", resource_id="ann")
    assert first.tripwire is None
    second = await agent.generate("hi", thread_id="t1", resource_id="ann")
    assert second.tripwire is not None
    return second.tripwire


@pytest.mark.parametrize(
    ("language", "scope", "shown"),
    [
        ("zh_CN", "thread", "此对话的费用预算 $1.0000 已用完（已花费 $1.0000）"),
        ("zh_CN", "resource", "此用户的费用预算 $1.0000 已用完（已花费 $1.0000）"),
        ("zh_TW", "thread", "此對話的費用預算 $1.0000 已用完（已花費 $1.0000）"),
        ("zh_TW", "resource", "此使用者的費用預算 $1.0000 已用完（已花費 $1.0000）"),
    ],
)
async def test_the_scope_reads_in_the_readers_language(in_language: Any, language: str, scope: str, shown: str) -> None:
    tripwire = await _tripped(scope)
    assert tripwire.reason == f"Cost budget of $1.0000 for this {scope} is used up (spent $1.0000)"  # as before
    assert (tripwire.code, tripwire.params["scope"]) == ("CostGuard.used_up", scope)  # the option's value

    in_language(language)

    assert tripwire_text(tripwire) == shown


@pytest.mark.parametrize(("language", "word"), [("zh_CN", "此运行的"), ("zh_TW", "此執行的")])
def test_a_runs_budget_reads_in_the_readers_language(in_language: Any, language: str, word: str) -> None:
    stored = {  # as the store keeps a tripwire
        "reason": "Cost budget of $0.5000 for this run is used up (spent $0.6000)",
        "code": "CostGuard.used_up",
        "params": {"budget": 0.5, "scope": "run", "spent": 0.6},
    }
    in_language(language)

    assert tripwire_text(stored).startswith(word), tripwire_text(stored)


def test_in_english_the_reason_is_the_runtimes_own_words(in_language: Any) -> None:
    in_language("en")
    stored = {
        "reason": "Cost budget of $0.5000 for this thread is used up (spent $0.6000)",
        "code": "CostGuard.used_up",
        "params": {"budget": 0.5, "scope": "thread", "spent": 0.6},
    }

    assert tripwire_text(stored) == stored["reason"]
