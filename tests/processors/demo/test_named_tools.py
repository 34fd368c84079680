"""The offline demo model calls a tool the design offers when the message names it, arguments from the tool's
JSON schema and the message, then answers from its result; when it cannot, it says what the tool takes."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, tool
from processors.demo.named_tools import find_named_tool, named_call
from processors.demo.offline import demo_model, demo_reply
from processors.models import ModelRequest


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def fetch_doc(doc_id: str) -> str:
    """Fetch a document by its id.

    Args:
        doc_id: The document's id.
    """
    return f"Document {doc_id}: quarterly figures are up."


@tool
def shout(text: str, times: int = 1) -> str:
    """Upper-case a text."""
    return " ".join([text.upper()] * times)


def schema(found: Any) -> dict[str, Any]:
    return found.to_openai()["function"]["parameters"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("text", "tool_name", "arguments"),
    [
        ("Use add with 20 and 22", "add", {"a": 20, "b": 22}),
        ("use add with b=4 a=3", "add", {"a": 3, "b": 4}),
        ("Use fetch_doc to fetch the document q3", "fetch_doc", {"doc_id": "q3"}),
        ("call fetch doc with doc_id: 'Q 4'", "fetch_doc", {"doc_id": "Q 4"}),
        ("use shout on hello world", "shout", {"text": "hello world"}),
        ('Use shout with "make it loud" times=3', "shout", {"text": "make it loud", "times": 3}),
        ("请用 add 计算 2 和 3", "add", {"a": 2, "b": 3}),
    ],
)
def test_a_named_tool_gets_its_arguments_from_the_message(text: str, tool_name: str, arguments: dict[str, Any]) -> None:
    offered = {found.name: schema(found) for found in (add, fetch_doc, shout)}
    named = find_named_tool(text, offered)
    assert named is not None and named[0] == tool_name
    call = named_call(text, tool_name, offered[tool_name], named[1])
    assert call.arguments == arguments and call.missing == ()


def request(text: str, *tools: Any) -> ModelRequest:
    return ModelRequest(messages=[{"role": "user", "content": text}], tools=[t.to_openai() for t in tools])


async def test_the_demo_model_calls_a_named_tool_and_answers_from_its_result() -> None:
    agent = Agent(id="a", model=demo_model(delay=0), tools=[add, fetch_doc])
    assert (await agent.generate("Use add with 20 and 22")).text.endswith("The `add` tool returned: 42")
    answer = await agent.generate("Use fetch_doc to fetch the document q3")
    assert "Document q3: quarterly figures are up." in answer.text


async def test_a_named_tool_wins_over_the_demo_keywords() -> None:
    # "calculate" would be the demo calculator's keyword; the message names the user's tool.
    answer = await Agent(id="a", model=demo_model(delay=0), tools=[add]).generate("Use add to calculate 2 and 5")
    assert answer.text.endswith("The `add` tool returned: 7")


def test_when_a_required_value_is_missing_it_says_what_the_tool_takes() -> None:
    turn = demo_reply(request("Use fetch_doc please", fetch_doc))
    assert not turn.tool_calls
    assert "could not read its `doc_id`" in turn.text
    assert "- `doc_id` (string, required): The document's id." in turn.text
    assert "*Use fetch_doc with doc_id=...*" in turn.text
    chinese = demo_reply(request("請用 add 計算 2", add))
    assert not chinese.tool_calls
    assert "沒能從你的訊息裡讀出它的 `b`" in chinese.text and "(integer, 必填)" in chinese.text


def test_the_general_answer_names_the_tools_it_can_call() -> None:
    assert (
        "**Your tools:** name one in a message and I will call it: `add`, `shout`"
        in demo_reply(request("what's new?", add, shout)).text
    )
    assert "Your tools" not in demo_reply(request("what's new?")).text
    assert "**你的工具**" in demo_reply(request("有什么新消息？", add)).text


def test_a_demo_tool_named_without_being_asked_for_is_no_call() -> None:
    from processors.demo.tools import calculator, get_weather

    assert demo_reply(request("use get_weather for Paris", get_weather)).tool_calls[0].args == {"city": "Paris"}
    assert not demo_reply(request("what can the calculator do", calculator)).tool_calls
