"""The runtime's own tripwire reason carries a code (issue 27 item 2): an ``abort()`` without a reason reads in Chinese
in the studio (the chat, the inspector, the trace), while its English reason stays the API's."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Processor
from processors.models import ScriptedModel
from processors.problems import Problem
from studio.error_texts import reason_text, tripwire_text


class Unnamed(Processor):
    id = "plain-guard"

    def process_input(self, args: Any) -> Any:
        args.abort()


@pytest.mark.parametrize(
    ("language", "shown"), [("zh_CN", "处理器 plain-guard 触发了拦截"), ("zh_TW", "處理器 plain-guard 觸發了攔截")]
)
async def test_an_abort_without_a_reason_reads_in_chinese(in_language: Any, language: str, shown: str) -> None:
    result = await Agent(id="a", model=ScriptedModel(["x"]), input_processors=[Unnamed()]).generate("hi")
    assert result.tripwire is not None
    assert result.tripwire.reason == "Tripwire triggered by plain-guard"  # the API's English, unchanged
    assert (result.tripwire.code, result.tripwire.params) == ("tripwire:unnamed", {"processor": "plain-guard"})

    in_language(language)

    assert tripwire_text(result.tripwire) == shown
    recorded = Problem.written(result.tripwire.code, result.tripwire.reason, **result.tripwire.params)
    assert reason_text(recorded) == shown  # as a trace records the abort (TripWire.coded_reason)


def test_in_english_it_reads_as_the_runtime_wrote_it(in_language: Any) -> None:
    in_language("en")
    stored = {"reason": "Tripwire triggered by g", "code": "tripwire:unnamed", "params": {"processor": "g"}}

    assert tripwire_text(stored) == "Tripwire triggered by g"
