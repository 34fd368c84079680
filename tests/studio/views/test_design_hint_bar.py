"""The chain editor's hint for tools whose results no prompt-injection detector checks, with real widgets.

The bar under the lanes (``chain.hint``) appears when the agent has tools (its own or an MCP server's) and its
detector sits only in the input lane, goes when that changes, and its button (``chain.hint.fix``) adds the same
detector to the output lane as an undoable edit. It never blocks anything: the chains stay editable around it.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from studio.design.agent_design import AgentDesign, ChainEntry, McpServerConfig
from studio.models.design_document import DesignDocument
from studio.views.chain_editor import ChainEditor
from tests.studio.editor_catalogue import make_catalogue

DETECTOR = "PromptInjectionDetector"


@pytest.fixture
def document(qapp: Any) -> DesignDocument:
    design = AgentDesign(
        tools=["get_weather"],
        input=[
            ChainEntry(uid="in-1", type="UnicodeNormalizer"),
            ChainEntry(uid="in-2", type=DETECTOR, options={"strategy": "warn", "threshold": 0.6}),
        ],
        output=[ChainEntry(uid="out-1", type="BatchParts", options={"batch_size": 3})],
    )
    return DesignDocument(make_catalogue(), design)


@pytest.fixture
def editor(document: DesignDocument, qtbot: Any) -> ChainEditor:
    widget = ChainEditor(document)
    widget.addActions([widget.undo_action(), widget.redo_action()])
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_the_hint_shows_under_the_lanes_and_its_button_adds_the_detector_to_the_output_lane(
    editor: ChainEditor, document: DesignDocument, qtbot: Any
) -> None:
    bar = editor.hint_bar
    assert bar.isVisible() and bar.fix_button.isVisible()
    assert bar.label.text() == (
        "Tool results go unchecked (indirect injection): the prompt-injection detector is only in the Input lane."
    )
    assert "never sees tool results" in bar.toolTip()
    assert bar.fix_button.text() == "Add to the Output lane"
    lanes_bottom = max(editor.view(lane).geometry().bottom() for lane in ("input", "output", "error"))
    assert bar.geometry().top() > lanes_bottom  # under the lanes, covering none of them

    with qtbot.waitSignal(bar.fix_applied) as fixed:
        qtbot.mouseClick(bar.fix_button, Qt.MouseButton.LeftButton)
    added = document.chain("output")[-1]
    assert [entry.uid for entry in document.chain("output")] == ["out-1", fixed.args[0]]
    assert (added.type, added.options, added.enabled) == (
        DETECTOR,
        {"strategy": "warn", "threshold": 0.6, "check_tool_results": True},
        True,
    )
    assert document.chain("input")[1].options == {"strategy": "warn", "threshold": 0.6}
    assert not bar.isVisible()
    assert editor.selected_uid() == added.uid  # selected like any added entry, so its options show

    editor.undo_action().trigger()
    assert [entry.uid for entry in document.chain("output")] == ["out-1"]
    assert bar.isVisible()
    editor.redo_action().trigger()
    assert document.chain("output")[-1].uid == added.uid
    assert not bar.isVisible()


def test_the_hint_follows_the_tools_the_lanes_and_the_options(editor: ChainEditor, document: DesignDocument) -> None:
    bar = editor.hint_bar
    assert bar.isVisible()
    document.set_setting("tools", [])
    assert not bar.isVisible()  # no tools: nothing returns text to check
    document.set_setting("mcp_servers", [McpServerConfig(name="docs", command="mcp-docs", enabled_tools=["search"])])
    assert bar.isVisible()  # an MCP server's tools count as the agent's
    document.set_enabled("in-2", False)
    assert not bar.isVisible()  # no detector in use at all: not this hint's business
    document.set_enabled("in-2", True)
    assert bar.isVisible()
    document.move_entry("in-2", "output", 1)
    assert not bar.isVisible()  # moved to the output lane, it checks tool results
    document.set_options("in-2", {"check_tool_results": False})
    assert not bar.isVisible()  # no detector left in the input lane either
    document.insert_entry("input", 0, ChainEntry(uid="in-3", type=DETECTOR))
    assert bar.isVisible()  # the output lane's detector is told not to check tool results
    document.set_options("in-2", {"check_tool_results": True})
    assert not bar.isVisible()
    document.replace_design(AgentDesign(tools=["get_weather"], input=[ChainEntry(type=DETECTOR)]))
    assert bar.isVisible()


def test_without_tools_or_a_detector_there_is_no_hint(qapp: Any, qtbot: Any) -> None:
    for design in (
        AgentDesign(input=[ChainEntry(type=DETECTOR)]),
        AgentDesign(tools=["get_weather"], input=[ChainEntry(type="UnicodeNormalizer")]),
    ):
        editor = ChainEditor(DesignDocument(make_catalogue(), design))
        qtbot.addWidget(editor)
        editor.show()
        qtbot.waitExposed(editor)
        assert not editor.hint_bar.isVisible()


@pytest.mark.parametrize(
    ("language", "text", "button"),
    [
        ("zh_CN", "只在输入通道", "添加到输出通道"),
        ("zh_TW", "只在輸入通道", "加入輸出通道"),
    ],
)
def test_the_hint_reads_in_the_studios_language(
    in_language: Any, document: DesignDocument, qtbot: Any, language: str, text: str, button: str
) -> None:
    in_language(language)
    editor = ChainEditor(document)
    qtbot.addWidget(editor)
    editor.show()
    qtbot.waitExposed(editor)
    assert text in editor.hint_bar.label.text() and "间接注入" in editor.hint_bar.label.text().replace("間接", "间接")
    assert text in editor.hint_bar.toolTip()
    assert editor.hint_bar.fix_button.text() == button
