"""A credential in a design's model settings is refused whatever the model, the offline demo model included: on
loading (a file, the store), saving, exporting, building, and editing in the studio. The demo model sends nothing,
but its design is saved, stored and shared like any other, and the key would come back into use with a real model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from processors.builtin.registry import Catalogue, load_catalogue
from studio.design.agent_design import DEMO_MODEL, AgentDesign, DesignError, ModelConfig, load_design, save_design
from studio.design.build import build_agent
from studio.design.export import design_to_python
from tests.studio.conftest import open_studio, run

MODELS = [pytest.param(DEMO_MODEL, id="the demo model"), pytest.param("openai/gpt-4o-mini", id="a hosted model")]
CREDENTIALS = [
    pytest.param({"extra": {"extra_headers": {"Authorization": "Bearer sk-x"}}},
                 "model.extra.extra_headers.Authorization", id="an Authorization header"),
    pytest.param({"extra": {"extra_headers": {"api-key": "k"}}}, "model.extra.extra_headers.api-key", id="api-key"),
    pytest.param({"extra": {"headers": {"x-api-key": "k"}}}, "model.extra.headers.x-api-key", id="x-api-key"),
    pytest.param({"extra": {"headers": {"X-Custom": "Bearer sk-hidden"}}}, "model.extra.headers.X-Custom",
                 id="a bearer value under another name"),
    pytest.param({"extra": {"api_key": "sk-x"}}, "model.extra.api_key", id="api_key"),
    pytest.param({"api_base": "http://user:secret@localhost:1/v1"}, "model.api_base", id="a password in the URL"),
]  # fmt: skip


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


def design_data(model: str, settings: dict[str, Any]) -> dict[str, Any]:
    return {"version": 1, "name": "Shared bot", "model": {"model": model, **settings}}


def in_code(model: str, settings: dict[str, Any]) -> AgentDesign:
    """The design made in code, where no file is read (pydantic alone does not look for credentials)."""
    return AgentDesign(name="Shared bot", model=ModelConfig(model=model, **settings))


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("settings", "path"), CREDENTIALS)
def test_loading_a_design_holding_a_credential_is_refused_naming_it(
    tmp_path: Path, model: str, settings: dict[str, Any], path: str
) -> None:
    file = tmp_path / "shared.json"
    file.write_text(json.dumps(design_data(model, settings)), encoding="utf-8")
    with pytest.raises(DesignError) as raised:
        load_design(file)
    assert raised.value.path == path
    assert str(raised.value).startswith(f"shared.json: {path}: ")
    assert "must not be saved in a design" in str(raised.value)
    with pytest.raises(DesignError, match="must not be saved in a design"):
        AgentDesign.from_json(file.read_text(encoding="utf-8"))  # as the store's designs are read


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("settings", "path"), CREDENTIALS)
def test_saving_exporting_or_building_a_design_holding_a_credential_is_refused(
    tmp_path: Path, catalogue: Catalogue, model: str, settings: dict[str, Any], path: str
) -> None:
    design = in_code(model, settings)
    file = tmp_path / "shared.json"
    with pytest.raises(DesignError, match="must not be saved in a design") as raised:
        save_design(design, file)
    assert raised.value.path == path
    assert not file.exists()
    with pytest.raises(DesignError, match="must not be saved in a design"):
        design_to_python(design, catalogue=catalogue)
    with pytest.raises(DesignError, match="must not be saved in a design"):
        build_agent(design, catalogue=catalogue)


def test_the_demo_model_with_harmless_settings_loads_saves_exports_and_builds(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    design = in_code(DEMO_MODEL, {"extra": {"extra_headers": {"X-Trace": "on"}, "prompt_cache_key": "a"}})
    save_design(design, tmp_path / "d.json")
    assert load_design(tmp_path / "d.json") == design
    assert "demo_model()" in design_to_python(design, catalogue=catalogue)
    assert build_agent(design, catalogue=catalogue) is not None


def test_the_studio_refuses_a_demo_design_holding_a_credential_and_stores_nothing_of_it(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    workspace, _window = open_studio(qtbot, qloop, tmp_path / "studio.db")
    file = tmp_path / "shared.json"
    file.write_text(json.dumps(design_data(DEMO_MODEL, CREDENTIALS[0].values[0])), encoding="utf-8")  # type: ignore[index]
    said: list[str] = []
    workspace.status_message.connect(said.append)
    assert not workspace.open_design_file(file)
    run(qloop, workspace.wait_idle())
    assert said[-1].startswith("shared.json: model.extra.extra_headers.Authorization: credentials")
    assert "sk-x" not in json.dumps([record.json_text for record in run(qloop, workspace.store.list_designs())])
    # Typing it into the open (demo) design is refused too, next to the field, and the setting is not made.
    document = workspace.document
    assert document.design().model.model == DEMO_MODEL
    header = {"extra_headers": {"Authorization": "k"}}
    assert "must not be saved in a design" in (document.setting_error("model.extra", header) or "")
    with pytest.raises(ValueError, match="must not be saved in a design"):
        document.set_setting("model.extra", header)
    assert "Authorization" not in json.dumps(document.design().model.extra)
