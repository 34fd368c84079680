"""A plain plug-in processor's options (a processor of the user's folder, no ``BuiltinProcessor``) are checked in the
options form as a built-in's are, from what the plug-in declares — a pydantic ``Options`` model or an
``options_schema`` (JSON schema): its fields are shown, a bad value's message is under its field (in Chinese by its
code), what was typed is kept in the design, which still saves, and the build refuses it the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from processors.builtin.base import InvalidOptionsError
from processors.builtin.registry import Catalogue, load_catalogue
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError
from studio.design.build import build_agent
from studio.models.design_document import DesignDocument
from studio.views.options_form import OptionsForm

PLUGINS = '''
from pydantic import BaseModel, Field

from processors import Processor


class LimitOptions(BaseModel):
    limit: int = Field(default=3, ge=1, title="Limit", description="How many words at most")
    word: str = Field(default="stop", min_length=1)


class ModelLimited(Processor):
    """Declares its options as a pydantic model."""

    id = "model-limited"
    Options = LimitOptions

    def __init__(self, **options):
        self.options = options

    def process_input(self, args):
        return args.messages


class SchemaLimited(Processor):
    """Declares its options as a JSON schema."""

    id = "schema-limited"
    options_schema = {
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1, "default": 3, "title": "Limit"},
            "mode": {"type": "string", "enum": ["block", "warn"], "default": "block", "title": "Mode"},
        },
        "additionalProperties": False,
    }

    def __init__(self, **options):
        self.options = options

    def process_input(self, args):
        return args.messages


class Undeclared(Processor):
    """Says nothing about its options."""

    id = "undeclared"

    def __init__(self, **options):
        self.options = options

    def process_input(self, args):
        return args.messages
'''


@pytest.fixture
def catalogue(tmp_path: Path) -> Catalogue:
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "limited.py").write_text(PLUGINS, encoding="utf-8")
    loaded = load_catalogue(folder)
    assert {"ModelLimited", "SchemaLimited", "Undeclared"} <= set(loaded.types), loaded.errors
    return loaded


def _document(catalogue: Catalogue, type_name: str, options: dict[str, Any] | None = None) -> DesignDocument:
    entry = ChainEntry(uid="plug", type=type_name, options=options or {})
    return DesignDocument(catalogue, AgentDesign(input=[entry]))


def _form(qtbot: Any, document: DesignDocument) -> OptionsForm:
    form = OptionsForm(document)
    qtbot.addWidget(form)
    form.resize(420, 700)
    form.show()
    qtbot.waitExposed(form)
    form.show_entry("plug")
    return form


def _retype(qtbot: Any, edit: QLineEdit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


@pytest.mark.parametrize("type_name", ["ModelLimited", "SchemaLimited"])
def test_a_bad_value_is_named_under_its_field_and_kept_as_typed(
    catalogue: Catalogue, qtbot: Any, type_name: str
) -> None:
    document = _document(catalogue, type_name)
    form = _form(qtbot, document)
    limit = form.editor("limit")
    assert isinstance(limit, QLineEdit)
    assert limit.text() == "3" or limit.placeholderText() == "3"  # its declared default

    _retype(qtbot, limit, "0")

    assert form.error_text("limit").startswith(
        "Input should be greater than or equal to 1" if type_name == "ModelLimited" else "0 is less than the minimum"
    ), form.error_text("limit")
    qtbot.waitUntil(lambda: document.entry("plug").options == {"limit": 0})  # nothing lost
    saved = AgentDesign.from_json(document.design().to_json())  # the design still saves, as typed
    assert saved.input[0].options == {"limit": 0}
    _retype(qtbot, limit, "5")
    qtbot.waitUntil(lambda: not form.has_errors())


@pytest.mark.parametrize(("language", "shown"), [("zh_CN", "应大于或等于 1"), ("zh_TW", "應大於或等於 1")])
@pytest.mark.parametrize("type_name", ["ModelLimited", "SchemaLimited"])
def test_the_message_reads_in_chinese_by_its_code(
    catalogue: Catalogue, qtbot: Any, in_language: Any, language: str, shown: str, type_name: str
) -> None:
    in_language(language)
    form = _form(qtbot, _document(catalogue, type_name, {"limit": 0}))

    assert form.error_text("limit") == shown


def test_a_schemas_choices_unknown_keys_and_types_read_in_chinese(catalogue: Catalogue, in_language: Any) -> None:
    in_language("zh_CN")
    document = _document(catalogue, "SchemaLimited")

    errors = document.option_errors("SchemaLimited", {"mode": "shout", "limit": "many", "extra": 1})

    assert errors == {"mode": "应为 'block' 或 'warn' 之一", "limit": "应为整数", "extra": "不是此处理器的选项"}


def test_a_plugin_that_declares_nothing_is_not_checked(catalogue: Catalogue) -> None:
    document = _document(catalogue, "Undeclared", {"anything": -1})

    assert document.option_errors("Undeclared", {"anything": -1}) == {}
    assert document.record("Undeclared").options_schema == {}


@pytest.mark.parametrize("type_name", ["ModelLimited", "SchemaLimited"])
def test_the_build_refuses_what_the_form_refuses(catalogue: Catalogue, type_name: str) -> None:
    with pytest.raises(InvalidOptionsError) as created:
        catalogue.create(type_name, {"limit": 0})
    design = AgentDesign(input=[ChainEntry(type=type_name, options={"limit": 0})])
    with pytest.raises(DesignError) as built:
        build_agent(design, catalogue=catalogue)

    assert list(created.value.errors) == ["limit"]
    assert "limit: " in built.value.message
    assert catalogue.create(type_name, {"limit": 2}).options == {"limit": 2}  # given to it as they were given
