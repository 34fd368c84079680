"""A plug-in processor that takes options without declaring them (no ``Options``, no ``options_schema``) is told
where the user adds it: the chain row and the options form say, in one translated sentence, what to declare, and
the build refuses options its constructor cannot take in the same words (issue 27's leftover: it used to show
"This processor has no options." and fail only when the agent was built, with Python's ``TypeError``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from processors.builtin.base import InvalidOptionsError
from processors.builtin.registry import Catalogue, load_catalogue
from studio.design.agent_design import AgentDesign, ChainEntry, DesignError
from studio.design.build import build_agent
from studio.error_texts import error_text
from studio.models.chain_model import INVALID_ROLE, ChainModel
from studio.models.design_document import DesignDocument
from studio.models.editor_commands import AddEntry
from studio.views.options_form import OptionsForm

PLUGINS = '''
from processors import Processor


class NeedsLimit(Processor):
    """Needs a limit, and says nothing about it."""

    id = "needs-limit"

    def __init__(self, limit):
        self.limit = limit

    def process_input(self, args):
        return args.messages


class TakesAnything(Processor):
    """Takes any options, and says nothing about them."""

    id = "takes-anything"

    def __init__(self, **options):
        self.options = options

    def process_input(self, args):
        return args.messages


class TakesNothing(Processor):
    """Has no options at all."""

    id = "takes-nothing"

    def process_input(self, args):
        return args.messages
'''

SENTENCES = {
    "en": "NeedsLimit does not declare its options: give its class an Options model (pydantic) or an options_schema "
    "(a JSON schema) to set them in the studio",
    "zh_CN": "NeedsLimit 没有声明它的选项：在它的类上声明 Options 模型（pydantic）或 options_schema（JSON 模式），"
    "即可在工作室中设置这些选项",
    "zh_TW": "NeedsLimit 沒有宣告它的選項：在它的類別上宣告 Options 模型（pydantic）或 options_schema（JSON 模式），"
    "即可在工作室中設定這些選項",
}


@pytest.fixture
def catalogue(tmp_path: Path) -> Catalogue:
    folder = tmp_path / "processors"
    folder.mkdir()
    (folder / "undeclared.py").write_text(PLUGINS, encoding="utf-8")
    loaded = load_catalogue(folder)
    assert {"NeedsLimit", "TakesAnything", "TakesNothing"} <= set(loaded.types), loaded.errors
    return loaded


def _added(catalogue: Catalogue, type_name: str, options: dict[str, Any] | None = None) -> DesignDocument:
    """A design the user adds ``type_name`` to (one undo step, as the palette adds it)."""
    document = DesignDocument(catalogue, AgentDesign())
    document.undo_stack().push(
        AddEntry(document, "input", 0, ChainEntry(uid="plug", type=type_name, options=options or {}))
    )
    return document


def _form(qtbot: Any, document: DesignDocument) -> OptionsForm:
    form = OptionsForm(document)
    qtbot.addWidget(form)
    form.show_entry("plug")
    return form


def _labels(form: OptionsForm) -> list[str]:
    return [label.text() for label in form.findChildren(QLabel) if not label.isHidden() and label.text()]


@pytest.mark.parametrize("language", ["en", "zh_CN", "zh_TW"])
def test_a_plugin_that_needs_undeclared_options_says_what_to_declare_where_it_is_added(
    catalogue: Catalogue, qtbot: Any, in_language: Any, language: str
) -> None:
    in_language(language)
    sentence = SENTENCES[language]
    document = _added(catalogue, "NeedsLimit")
    chain = ChainModel(document, "input")
    row = chain.index(0, 0)

    assert row.data(Qt.ItemDataRole.DecorationRole) is not None  # the warning, as soon as it is added
    assert sentence[:40] in row.data().splitlines()[1]
    assert sentence in row.data(Qt.ItemDataRole.ToolTipRole)
    assert sentence in row.data(INVALID_ROLE)
    form = _form(qtbot, document)
    assert form.error_text("options") == sentence
    assert "This processor has no options." not in _labels(form)
    with pytest.raises(DesignError) as refused:
        build_agent(document.design(), catalogue=catalogue)
    assert error_text(refused.value).endswith(sentence)  # the build's refusal: the same words


def test_the_build_refuses_options_an_undeclared_constructor_cannot_take_before_calling_it(
    catalogue: Catalogue,
) -> None:
    with pytest.raises(InvalidOptionsError) as refused:
        catalogue.create("TakesNothing", {"limit": 1})
    assert refused.value.errors == {"options": SENTENCES["en"].replace("NeedsLimit", "TakesNothing")}
    assert refused.value.codes["options"] == ("plugin:options_undeclared", {"type": "TakesNothing"})
    assert catalogue.create("NeedsLimit", {"limit": 2}).limit == 2
    assert catalogue.create("TakesAnything", {"limit": 2}).options == {"limit": 2}
    assert _added(catalogue, "NeedsLimit", {"limit": 2}).option_errors("NeedsLimit", {"limit": 2}) == {}


def test_a_plugin_taking_any_options_is_told_what_to_declare_in_its_form_and_stays_valid(
    catalogue: Catalogue, qtbot: Any
) -> None:
    document = _added(catalogue, "TakesAnything", {"limit": 2})
    chain = ChainModel(document, "input")

    assert not chain.index(0, 0).data(INVALID_ROLE)
    form = _form(qtbot, document)
    hint = form.findChild(QLabel, "options.undeclared")
    assert hint is not None and hint.text() == SENTENCES["en"].replace("NeedsLimit", "TakesAnything")
    assert not form.has_errors()
    assert "This processor has no options." not in _labels(form)


def test_a_plugin_without_options_still_says_it_has_none(catalogue: Catalogue, qtbot: Any) -> None:
    form = _form(qtbot, _added(catalogue, "TakesNothing"))

    assert "This processor has no options." in _labels(form)
    assert form.findChild(QLabel, "options.undeclared") is None
    assert not form.has_errors()
