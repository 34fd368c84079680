"""The options form of a guard service: its endpoint with a "Key…" button that asks for the API key and hands it,
with the endpoint shown, to whoever keeps keys (the window wires it to the workspace's key gate)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QLabel, QLineEdit, QPushButton

from processors.builtin.guard_services.azure_prompt_shields import AzurePromptShields
from processors.builtin.guard_services.lakera_guard import LakeraGuard
from processors.builtin.guard_services.model_armor import ModelArmor
from processors.builtin.guard_services.openai_moderation import OpenAIModeration
from processors.builtin.registry import Catalogue, describe_class
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.models.design_document import DesignDocument
from studio.views.options_form import OptionsForm
from tests.studio.editor_catalogue import make_catalogue

SERVICES = (LakeraGuard, AzurePromptShields, OpenAIModeration, ModelArmor)


def catalogue() -> Catalogue:
    """The editor's catalogue, with the guard services even where the installed entry points predate them."""
    known = make_catalogue()
    extended = Catalogue()
    for kind in known:
        extended.add(kind)
    for cls in SERVICES:
        if cls.type_name not in extended.types:
            extended.add(describe_class(cls, source="builtin"))
    return extended


def form_for(qtbot: Any, type_name: str, options: dict[str, Any] | None = None) -> OptionsForm:
    design = AgentDesign(input=[ChainEntry(uid="guard", type=type_name, options=options or {})])
    widget = OptionsForm(DesignDocument(catalogue(), design))
    qtbot.addWidget(widget)
    widget.show()
    widget.show_entry("guard")
    qtbot.waitExposed(widget)
    return widget


def dialog_of(form: OptionsForm) -> QInputDialog:
    found = form.findChild(QInputDialog, "options.service_key_dialog")
    assert isinstance(found, QInputDialog)
    return found


@pytest.mark.parametrize("cls", SERVICES, ids=[cls.type_name for cls in SERVICES])
def test_every_service_shows_its_endpoint_with_a_key_button(qapp: Any, qtbot: Any, cls: type) -> None:
    form = form_for(qtbot, cls.type_name)
    url = form.findChild(QLineEdit, "options.endpoint.url")
    button = form.findChild(QPushButton, "options.endpoint.key")
    assert isinstance(url, QLineEdit) and isinstance(button, QPushButton)
    assert url.text() == cls.Options().endpoint  # the public one, where there is one (Azure has none)


def test_the_key_entered_goes_out_with_the_endpoint_typed(qapp: Any, qtbot: Any) -> None:
    form = form_for(qtbot, "LakeraGuard", {"endpoint": "https://guard.example.com"})
    entered: list[tuple[str, str, str]] = []
    form.service_key_entered.connect(lambda *values: entered.append(values))
    qtbot.mouseClick(form.findChild(QPushButton, "options.endpoint.key"), Qt.MouseButton.LeftButton)
    dialog = dialog_of(form)
    assert dialog.textEchoMode() == QLineEdit.EchoMode.Password
    assert "guard.example.com" in dialog.labelText()
    dialog.setTextValue("  lk-secret  ")
    dialog.accept()
    assert entered == [("lakera-guard", "https://guard.example.com", "lk-secret")]


def test_cancelling_the_dialog_saves_nothing(qapp: Any, qtbot: Any) -> None:
    form = form_for(qtbot, "OpenAIModeration")
    entered: list[Any] = []
    form.service_key_entered.connect(lambda *values: entered.append(values))
    qtbot.mouseClick(form.findChild(QPushButton, "options.endpoint.key"), Qt.MouseButton.LeftButton)
    dialog = dialog_of(form)
    dialog.setTextValue("sk-typed")
    dialog.reject()
    assert entered == []


def test_the_model_armor_template_is_one_line(qapp: Any, qtbot: Any) -> None:
    form = form_for(qtbot, "ModelArmor")
    assert isinstance(form.editor("resource"), QLineEdit)


async def test_a_services_verdict_and_failure_read_in_chinese(in_language: Any) -> None:
    from processors import Agent
    from processors.builtin.guard_services.keys import BoundKeys, use_key_source
    from processors.models import ScriptedModel
    from studio.error_texts import tripwire_text
    from tests.support.guard_services import ATTACK, KEY, GuardServiceStandIn, Reply

    with GuardServiceStandIn("lakera") as service:
        previous = use_key_source(BoundKeys([("lakera-guard", service.url, KEY)]))
        try:
            guard = LakeraGuard(endpoint=service.url)
            agent = Agent(id="a", model=ScriptedModel(["no"]), instructions="Be brief.", input_processors=[guard])
            flagged = (await agent.generate(ATTACK)).tripwire
            service.plan(Reply(500))
            failed = (await agent.generate("hello")).tripwire
        finally:
            use_key_source(previous)
    assert flagged is not None and failed is not None
    in_language("zh_CN")
    assert tripwire_text(flagged, catalogue()) == "Lakera Guard 标记了输入：prompt_attack（分数 1.00）"
    assert tripwire_text(failed, catalogue()) == "Lakera Guard 出错（HTTP 500）；已拦截（出错时拦截）"
    in_language("zh_TW")
    assert tripwire_text(failed, catalogue()) == "Lakera Guard 出錯（HTTP 500）；已攔截（出錯時攔截）"


def test_the_key_of_the_endpoint_shown_is_said_masked(qapp: Any, qtbot: Any) -> None:
    saved = {("lakera-guard", "https://guard.example.com"): "••••••••1234"}
    design = AgentDesign(
        input=[ChainEntry(uid="guard", type="LakeraGuard", options={"endpoint": "https://guard.example.com"})]
    )
    form = OptionsForm(DesignDocument(catalogue(), design))
    form.key_shown = lambda service, endpoint: saved.get((service, endpoint), "")
    qtbot.addWidget(form)
    form.show()
    form.show_entry("guard")
    state = form.findChild(QLabel, "options.endpoint.key_state")
    assert isinstance(state, QLabel) and state.text() == "Key for this endpoint: ••••••••1234"
    url = form.findChild(QLineEdit, "options.endpoint.url")
    url.setText("https://other.example.com")
    url.editingFinished.emit()
    assert state.text() == "No key saved for this endpoint"
    form.service_key_entered.connect(lambda service, endpoint, key: saved.update({(service, endpoint): "••••5678"}))
    qtbot.mouseClick(form.findChild(QPushButton, "options.endpoint.key"), Qt.MouseButton.LeftButton)
    dialog = dialog_of(form)
    dialog.setTextValue("lk-5678")
    dialog.accept()
    assert state.text() == "Key for this endpoint: ••••5678"
