"""What ``process_input_step`` hands each processor of the step's overrides (``phases.run_input_step``'s views):
the model built from an id the processor before returned, and a copy of the tools. The cases its mutation run
found unchecked."""

from __future__ import annotations

from typing import Any

from processors.models import LanguageModel, ScriptedModel
from tests.processors.helpers import Fn, get_weather, make_agent, run_stream


async def test_a_model_id_returned_by_one_processor_reaches_the_next_as_a_model() -> None:
    answering = ScriptedModel(["ok"])
    seen: list[Any] = []

    def second(args: Any) -> Any:
        seen.append(args.model)
        return {"model": answering}  # no call to the model the id names

    agent = make_agent(
        ScriptedModel(["never"]),
        input_processors=[
            Fn("first", process_input_step=lambda args: {"model": "openai/gpt-4o"}),
            Fn("second", process_input_step=second),
        ],
    )

    _chunks, result = await run_stream(agent)

    [model] = seen
    assert isinstance(model, LanguageModel)
    assert (model.provider, model.model_id) == ("openai", "openai/gpt-4o")
    assert result.text == "ok"


async def test_a_processor_that_edits_the_tools_it_was_given_changes_nothing() -> None:
    """``args.tools`` is a copy: only a ``tools`` the processor returns changes what the model is offered."""
    model = ScriptedModel(["ok"])

    def edit_in_place(args: Any) -> None:
        args.tools.clear()

    agent = make_agent(model, tools=[get_weather], input_processors=[Fn("editor", process_input_step=edit_in_place)])

    await run_stream(agent)

    assert [tool["function"]["name"] for tool in model.requests[0].tools] == ["get_weather"]
