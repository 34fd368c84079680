"""Processor ids in a built agent: two processors of one kind in one design never share an id.

The runtime keys each processor's per-call ``state`` by its id, as Mastra does (two processors with one id share
one state dict: two RegexFilters with the default id mix up the text each holds back, and stream nothing at all).
So the studio gives a second processor of a kind ``<id>-2``, and refuses a design whose duplicate cannot be renamed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from processors import Processor
from processors.builtin.registry import Catalogue, describe_class
from processors.models import ScriptedModel, Turn
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError
from studio.design.build import build_agent, build_chains
from studio.error_texts import error_text
from tests.processors.helpers import run_stream, streamed_text


def regex_entry(uid: str, name: str, pattern: str) -> ChainEntry:
    rule = {"name": name, "pattern": pattern, "replacement": f"[{name}]"}
    return ChainEntry(uid=uid, type="RegexFilter", options={"rules": [rule], "strategy": "redact"})


async def test_two_regex_filters_in_one_chain_each_hold_back_and_redact_their_own_text() -> None:
    design = AgentDesign(
        output=[regex_entry("a", "ticket", r"INC-\d{4}"), regex_entry("b", "code", r"ABC-\d{4}")],
    )
    agent = build_agent(design)
    assert [p.id for p in agent.output_processors] == ["regex-filter", "regex-filter-2"]  # type: ignore[union-attr]
    agent.model = ScriptedModel([Turn(text=["see INC-12", "34 and ABC-", "5678 ok"])])
    chunks, result = await run_stream(agent)
    assert streamed_text(chunks) == result.text == "see [ticket] and [code] ok"


@dataclass(frozen=True)
class Fixed(Processor):
    """A frozen plug-in: the studio cannot rename a second one (setting ``id`` raises)."""

    id: str = "fixed"
    word: str = "x"

    def process_input(self, args: Any) -> None:
        return None


class Stubborn(Processor):
    """A plug-in that ignores every attribute set on it."""

    id = "stubborn"

    def __setattr__(self, name: str, value: Any) -> None:
        pass

    def process_input(self, args: Any) -> None:
        return None


@pytest.mark.parametrize(("cls", "pid"), [(Fixed, "fixed"), (Stubborn, "stubborn")])
def test_a_second_processor_whose_id_cannot_be_changed_is_refused_naming_it(cls: type, pid: str) -> None:
    catalogue = Catalogue()
    catalogue.add(describe_class(cls, source="test"))
    name = cls.__name__
    one = AgentDesign(input=[ChainEntry(uid="x", type=name)])
    assert [b.processor.id for b in build_chains(one, catalogue)["input"]] == [pid]
    two = AgentDesign(input=[ChainEntry(uid="x", type=name), ChainEntry(uid="y", type=name)])
    with pytest.raises(DesignError) as caught:
        build_chains(two, catalogue)
    error = caught.value
    assert error.message == (
        f"Input chain, #2 ({name}): another processor of this agent has the id '{pid}' and this one's id cannot be "
        "changed (two processors with one id would share their state); remove one of them"
    )
    assert (error.path, error.lane, error.index, error.uid) == ("input[1]", "input", 1, "y")
    with pytest.raises(DesignError, match=r"^Input chain, #2 "):
        build_agent(two, catalogue=catalogue)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (
            "zh_CN",
            "输入链，第 2 个（Stubborn）：此智能体中已有另一个处理器的 id 为“stubborn”，而这个处理器的 id 无法更改",
        ),
        (
            "zh_TW",
            "輸入鏈，第 2 個（Stubborn）：此代理中已有另一個處理器的 id 為「stubborn」，而這個處理器的 id 無法變更",
        ),
    ],
)
def test_the_refusal_reads_in_chinese_with_the_id_kept(in_language: Any, language: str, text: str) -> None:
    catalogue = Catalogue()
    catalogue.add(describe_class(Stubborn, source="test"))
    with pytest.raises(DesignError) as caught:
        build_chains(AgentDesign(input=[ChainEntry(type="Stubborn"), ChainEntry(type="Stubborn")]), catalogue)
    in_language(language)
    assert error_text(caught.value).startswith(text)
