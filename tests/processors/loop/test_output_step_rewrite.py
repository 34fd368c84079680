"""A ``process_output_step`` that rewrites the step's answer changes ``result.text``; a structured-output
processor's ``data-structured-output`` chunk becomes ``result.object``."""

from __future__ import annotations

from typing import Any

from processors import Agent, Processor, ProcessOutputStepArgs
from processors.models import ScriptedModel


class RewriteAnswer(Processor):
    id = "rewrite"

    def process_output_step(self, args: ProcessOutputStepArgs) -> Any:
        last = args.message_list.get.response.db()[-1]
        for part in last.content.parts:
            if part.type == "text":
                part.text = '{"answer": 42}'  # type: ignore[union-attr]
        args.writer.custom({"type": "data-structured-output", "data": {"answer": 42}})  # type: ignore[union-attr]
        return args.message_list


async def test_rewritten_step_text_and_object_reach_the_result() -> None:
    agent = Agent(id="a", model=ScriptedModel(["The answer is forty-two."]), output_processors=[RewriteAnswer()])

    result = await agent.generate("question")

    assert result.text == '{"answer": 42}'
    assert result.steps[0].text == '{"answer": 42}'
    assert result.object == {"answer": 42}
    assert result.messages[-1].text == '{"answer": 42}'


async def test_an_untouched_step_keeps_its_text() -> None:
    agent = Agent(id="a", model=ScriptedModel(["Plain answer."]))
    result = await agent.generate("question")
    assert result.text == "Plain answer."
    assert result.object is None
