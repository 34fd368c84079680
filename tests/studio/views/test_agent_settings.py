"""AgentSettingsView: every agent-level setting, each change an undo step, the view following undo/redo."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from PySide6.QtCore import Qt

from studio.design.agent_design import AgentDesign
from studio.models.design_document import DesignDocument
from studio.views.agent_settings import AgentSettingsView, model_suggestions
from tests.studio.editor_catalogue import make_catalogue

TOOLS = ["get_weather", "calculator", "tools.py:lookup_order"]


@pytest.fixture
def document(qapp: Any) -> DesignDocument:
    return DesignDocument(make_catalogue(), AgentDesign(name="Support", tools=["calculator", "gone.py:old"]))


@pytest.fixture
def view(document: DesignDocument, qtbot: Any) -> AgentSettingsView:
    widget = AgentSettingsView(document, TOOLS)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_the_view_shows_the_design(view: AgentSettingsView) -> None:
    assert view.name.text() == "Support"
    assert view.model.currentText() == "demo"
    assert [view.model.itemText(i) for i in range(view.model.count())] == model_suggestions()
    assert model_suggestions() == [  # the registry's suggestions, in its order: the box offers what it always did
        "demo",
        "openai/gpt-4o-mini",
        "anthropic/claude-3-5-haiku-latest",
        "ollama/llama3.1",
        "lm_studio/qwen2.5-7b-instruct",
    ]
    assert view.temperature.text() == "provider default"
    assert view.max_tokens.text() == "provider default"
    assert view.max_processor_retries.text() == "not set"
    assert view.max_steps.value() == 5
    items = [view.tools_model.item(row) for row in range(view.tools_model.rowCount())]
    assert [item.text() for item in items] == [*TOOLS, "gone.py:old (not found)"]
    assert [item.checkState() == Qt.CheckState.Checked for item in items] == [False, True, False, True]


def test_typing_a_name_is_one_undo_step(view: AgentSettingsView, document: DesignDocument, qtbot: Any) -> None:
    view.name.selectAll()
    qtbot.keyClicks(view.name, "Help desk")
    assert document.design().name == "Help desk"
    assert document.undo_stack().count() == 1
    assert document.undo_stack().undoText() == "Change agent name"
    document.undo_stack().undo()
    assert document.design().name == "Support"
    assert view.name.text() == "Support"


def test_instructions_model_and_api_base(view: AgentSettingsView, document: DesignDocument, qtbot: Any) -> None:
    view.instructions.setPlainText("Be brief.")
    view.model.setCurrentText("ollama/llama3.1")
    assert "11434" in view.api_base.placeholderText()
    qtbot.keyClicks(view.api_base, "http://localhost:11434")
    design = document.design()
    assert (design.instructions, design.model.model, design.model.api_base) == (
        "Be brief.",
        "ollama/llama3.1",
        "http://localhost:11434",
    )
    view.api_base.clear()
    assert document.design().model.api_base is None


def test_numbers_with_a_not_set_value(view: AgentSettingsView, document: DesignDocument) -> None:
    view.temperature.setValue(0.7)
    view.top_p.setValue(0.9)
    view.max_tokens.setValue(256)
    view.max_processor_retries.setValue(3)
    view.max_steps.setValue(8)
    design = document.design()
    assert (design.model.temperature, design.model.top_p, design.model.max_tokens) == (0.7, 0.9, 256)
    assert (design.max_processor_retries, design.max_steps) == (3, 8)
    view.temperature.setValue(view.temperature.minimum())
    view.max_processor_retries.setValue(-1)
    view.max_tokens.setValue(0)
    assert document.design().model.temperature is None
    assert document.design().max_processor_retries is None
    assert document.design().model.max_tokens is None
    view.temperature.setValue(0.0)
    assert document.design().model.temperature == 0.0  # zero is a real temperature, not "default"


def test_stepping_a_spin_box_merges_into_one_step(view: AgentSettingsView, document: DesignDocument) -> None:
    for _ in range(4):
        view.max_steps.stepUp()
    assert document.design().max_steps == 9
    assert document.undo_stack().count() == 1


def test_tools_are_checked_on_and_off(view: AgentSettingsView, document: DesignDocument) -> None:
    view.tools_model.item(0).setCheckState(Qt.CheckState.Checked)
    assert document.design().tools == ["get_weather", "calculator", "gone.py:old"]
    view.tools_model.item(3).setCheckState(Qt.CheckState.Unchecked)
    assert document.design().tools == ["get_weather", "calculator"]
    document.undo_stack().undo()
    assert document.design().tools == ["get_weather", "calculator", "gone.py:old"]
    view.set_available_tools(["calculator"])
    assert view.tools_model.rowCount() == 3  # calculator, then the chosen ones not offered
    assert view.tools_model.item(1).text() == "get_weather (not found)"


def test_a_tick_is_committed_once_and_the_list_rebuilt_after_the_ticked_items_setdata(
    view: AgentSettingsView, document: DesignDocument, qtbot: Any
) -> None:
    rebuilds: list[None] = []
    view.tools_model.modelReset.connect(lambda: rebuilds.append(None))
    view.tools_model.item(0).setCheckState(Qt.CheckState.Checked)
    assert document.design().tools == ["get_weather", "calculator", "gone.py:old"]
    assert document.undo_stack().count() == 1
    # the tick is committed from inside the item's own setData: rebuilding the list there deletes that item under
    # Qt's feet (the MCP tree's crash); the list is rebuilt once the event loop is back
    assert rebuilds == []
    view.tools_model.item(3).setCheckState(Qt.CheckState.Unchecked)
    assert document.design().tools == ["get_weather", "calculator"]
    assert document.undo_stack().count() == 2
    assert rebuilds == []
    qtbot.waitUntil(lambda: view.tools_model.rowCount() == 3)  # the unticked missing tool is no longer offered
    assert rebuilds == [None], "one rebuild for the two ticks"
    assert document.undo_stack().count() == 2, "committed once each"

    def shown() -> list[tuple[str, bool]]:
        items = [view.tools_model.item(row) for row in range(view.tools_model.rowCount())]
        return [(item.text(), item.checkState() == Qt.CheckState.Checked) for item in items]

    assert shown() == [("get_weather", True), ("calculator", True), ("tools.py:lookup_order", False)]
    view.tools_model.item(2).setCheckState(Qt.CheckState.Checked)  # the rebuilt list still commits
    assert document.design().tools == TOOLS
    assert document.undo_stack().count() == 3
    qtbot.waitUntil(lambda: len(rebuilds) == 2)
    document.undo_stack().undo()  # and still follows the document (at once: no tick under way)
    assert len(rebuilds) == 3
    assert shown() == [("get_weather", True), ("calculator", True), ("tools.py:lookup_order", False)]


def test_other_model_settings_are_json_and_secrets_are_refused(
    view: AgentSettingsView, document: DesignDocument
) -> None:
    view.extra.setPlainText('{"seed": 7')
    assert view.error_text("model.extra").startswith("Not valid JSON")
    view.extra.setPlainText("[1]")
    assert view.error_text("model.extra") == 'Expected a JSON object, e.g. {"seed": 7}'
    view.extra.setPlainText('{"api_key": "sk-123"}')
    assert "API keys must not be saved in a design" in view.error_text("model.extra")
    assert document.design().model.extra == {}
    view.extra.setPlainText('{"seed": 7}')
    assert view.error_text("model.extra") == ""
    assert document.design().model.extra == {"seed": 7}


def test_undo_of_every_setting_restores_the_exact_design(view: AgentSettingsView, document: DesignDocument) -> None:
    before = document.design().model_dump()
    view.name.setText("X")  # programmatic: not an edit
    assert document.undo_stack().count() == 0
    view.instructions.setPlainText("Hi")
    view.model.setCurrentText("openai/gpt-4o-mini")
    view.temperature.setValue(1.0)
    view.max_steps.setValue(3)
    view.tools_model.item(0).setCheckState(Qt.CheckState.Checked)
    after = document.design().model_dump()
    while document.undo_stack().canUndo():
        document.undo_stack().undo()
    assert document.design().model_dump() == before
    assert view.model.currentText() == "demo"
    assert view.temperature.text() == "provider default"
    while document.undo_stack().canRedo():
        document.undo_stack().redo()
    assert document.design().model_dump() == after


def test_a_replaced_design_is_shown(view: AgentSettingsView, document: DesignDocument) -> None:
    document.open_design(AgentDesign(name="Other", max_steps=12))
    assert view.name.text() == "Other"
    assert view.max_steps.value() == 12


def test_no_reference_cycle_keeps_the_document(qapp: Any) -> None:
    gc.disable()
    try:
        document = DesignDocument(make_catalogue(), AgentDesign())
        view = AgentSettingsView(document, TOOLS)
        view.max_steps.setValue(9)
        view.tools_model.item(0).setCheckState(Qt.CheckState.Checked)
        assert document.undo_stack().count() == 2
        alive = weakref.ref(document)
        del view, document
        assert alive() is None
    finally:
        gc.enable()


def test_changing_the_sample_model_drops_offline_demo_from_its_name(qtbot: Any) -> None:
    from studio.design.sample import sample_design

    document = DesignDocument(make_catalogue(), sample_design())
    view = AgentSettingsView(document, TOOLS)
    qtbot.addWidget(view)
    view.show()
    assert view.name.text() == "Support agent (offline demo)"
    view.model.setCurrentText("openai/gpt-4o-mini")
    assert document.design().model.model == "openai/gpt-4o-mini"
    assert document.design().name == "Support agent" and view.name.text() == "Support agent"
    document.undo_stack().undo()  # one step: the model and the name come back together
    assert document.design().model.model == "demo"
    assert document.design().name == "Support agent (offline demo)" and view.name.text() == document.design().name
    document.undo_stack().redo()
    assert document.design().name == "Support agent"


def test_a_name_without_the_demo_mark_is_left_alone(view: AgentSettingsView, document: DesignDocument) -> None:
    view.model.setCurrentText("openai/gpt-4o-mini")
    assert document.design().name == "Support"
