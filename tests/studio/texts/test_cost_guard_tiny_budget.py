"""A tiny CostGuard budget reads with its significant digits in every language and in the options form (it was
"$0.0000" in the reason and "2e-05" in the form)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLineEdit

from processors import Agent
from processors.builtin.cost_guard import CostGuard
from processors.models import ScriptedModel, Turn
from processors.usage import Usage
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.error_texts import tripwire_text
from studio.models.design_document import DesignDocument
from studio.views.options_form import OptionsForm
from tests.studio.editor_catalogue import make_catalogue


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("zh_CN", "此对话的费用预算 $0.00002 已用完（已花费 $0.000025）"),
        ("zh_TW", "此對話的費用預算 $0.00002 已用完（已花費 $0.000025）"),
    ],
)
async def test_a_tiny_budget_reads_in_chinese_with_its_digits(in_language: Any, language: str, shown: str) -> None:
    guard = CostGuard(max_cost=0.00002, scope="thread", input_cost_per_million=1.0)
    turn = Turn(text="ok", usage=Usage(input_tokens=25, output_tokens=0, total_tokens=25))  # $0.000025
    agent = Agent(id="a", model=ScriptedModel([turn, turn]), input_processors=[guard])
    assert (await agent.generate("hi", thread_id="t1")).tripwire is None
    tripwire = (await agent.generate("hi", thread_id="t1")).tripwire
    assert tripwire is not None

    in_language(language)

    assert tripwire_text(tripwire) == shown


def test_the_options_form_shows_a_tiny_budget_without_an_exponent(qtbot: Any) -> None:
    entry = ChainEntry(uid="cost", type="CostGuard", options={"max_cost": 0.00002})
    document = DesignDocument(make_catalogue(), AgentDesign(input=[entry]))
    form = OptionsForm(document)
    qtbot.addWidget(form)
    form.show_entry("cost")

    field = form.editor("max_cost")

    assert isinstance(field, QLineEdit)
    assert field.text() == "0.00002"
    assert not form.has_errors()
