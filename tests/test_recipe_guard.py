"""The guard recipe of docs/ARCHITECTURE.md, followed with a toy guard through the public extension point only.

The toy is a package outside the project: its module, a ``toy_guard-0.dist-info`` with ``METADATA`` and
``entry_points.txt`` (the one registry, ``processor_studio.processors``) and a translation catalogue it ships,
written into ``tmp_path`` and put on ``sys.path``. Nothing of the studio is told about it: the palette lists it, its
options form shows its field, its name, option label, its own check of an option and its tripwire read in Chinese
by the keys its class declares (from the catalogue it ships, which ``i18n.install`` finds by its entry point of
``processor_studio.translations``), and a run it stops shows the sentence of the tripwire's code.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit

from processors import Agent
from processors.builtin.registry import load_catalogue
from processors.models import ScriptedModel
from studio import i18n
from studio.design.agent_design import AgentDesign, ChainEntry
from studio.design.catalog import palette_groups
from studio.error_texts import tripwire_text
from studio.models.design_document import DesignDocument
from studio.models.palette_model import TYPE_ROLE, PaletteModel
from studio.views.options_form import OptionsForm

TOY_MODULE = '''
"""A toy guard: blocks one word."""

from collections.abc import Mapping
from typing import ClassVar

from pydantic import Field, field_validator

from processors.builtin.base import BuiltinProcessor, ProcessorOptions


class ToyGuardOptions(ProcessorOptions):
    word: str = Field(default="forbidden", title="Word", description="The word this guard blocks")

    texts: ClassVar[Mapping[str, str]] = {"empty_word": "give a word to block"}

    @field_validator("word")
    @classmethod
    def _some_word(cls, value: str) -> str:
        if not value.strip():
            raise cls.problem("empty_word")
        return value


class ToyGuard(BuiltinProcessor):
    Options = ToyGuardOptions
    type_name = "ToyGuard"
    id = "toy-guard"
    name = "Toy Guard"
    description = "Blocks a message that contains its word."
    texts: ClassVar[Mapping[str, str]] = {"found": "The toy guard found the word {word}"}

    def process_input(self, args):
        if self.options.word in args.messages[-1].text:
            raise self.tripwire("found", word=self.options.word)
        return args.messages
'''

#: The toy's own catalogue: contexts and keys as studio/i18n/processor_texts.py documents them.
TOY_TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>processor:ToyGuard</name>
    <message><source>Toy Guard</source><comment>ToyGuard.name</comment><translation>玩具守卫</translation></message>
    <message><source>Word</source><comment>ToyGuard.options.word</comment><translation>词语</translation></message>
    <message>
        <source>The toy guard found the word {word}</source><comment>ToyGuard.found</comment>
        <translation>玩具守卫发现了词语 {word}</translation>
    </message>
</context>
<context>
    <name>processor:ToyGuardOptions</name>
    <message>
        <source>give a word to block</source><comment>ToyGuardOptions.empty_word</comment>
        <translation>请给出要拦截的词语</translation>
    </message>
</context>
</TS>
"""


def _install_toy(folder: Path) -> Path:
    """The toy package as pip would leave it: the module, its dist-info (entry point, metadata) and its .qm."""
    (folder / "toy_guard.py").write_text(textwrap.dedent(TOY_MODULE))
    dist_info = folder / "toy_guard-0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-guard\nVersion: 0\n")
    (dist_info / "entry_points.txt").write_text(
        "[processor_studio.processors]\nToyGuard = toy_guard:ToyGuard\n\n"
        "[processor_studio.translations]\ntoy_guard = toy_guard\n"  # its .qm files, beside toy_guard.py
    )
    ts, qm = folder / "toy_guard_zh_CN.ts", folder / "toy_guard_zh_CN.qm"
    ts.write_text(TOY_TS, encoding="utf-8")
    lrelease = Path(sys.executable).parent / "pyside6-lrelease"
    subprocess.run([str(lrelease), "-silent", str(ts), "-qm", str(qm)], check=True)
    return qm


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    qm = _install_toy(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # importlib.metadata now finds the toy's entry point
    yield qm
    sys.modules.pop("toy_guard", None)  # imported from this test's folder: the next test installs its own


@pytest.fixture
def in_chinese_with_the_toys_catalogue(qapp: QApplication, toy: Path) -> Iterator[None]:
    """The studio's language set as at start-up: the toy's catalogue comes with ours, found by its entry point."""
    assert i18n.plugin_catalogues() == [("toy_guard", toy.parent)]
    assert i18n.install(qapp, "zh_CN")
    yield
    i18n.install(qapp, "en")


@pytest.mark.usefixtures("toy")
def test_the_palette_lists_the_toy_guard_from_its_entry_point_alone(qapp: QApplication) -> None:
    catalogue = load_catalogue(None)
    toy = catalogue["ToyGuard"]
    assert (toy.source, toy.id, toy.lanes) == ("plugin:toy-guard", "toy-guard", ("input",))
    palette = PaletteModel(palette_groups(catalogue))
    listed = [
        palette.item(lane).child(row).data(TYPE_ROLE)
        for lane in range(palette.rowCount())
        for row in range(palette.item(lane).rowCount())
    ]
    assert "ToyGuard" in listed


def _form(qtbot: Any, options: dict[str, Any]) -> OptionsForm:
    design = AgentDesign(input=[ChainEntry(uid="toy", type="ToyGuard", options=options)])
    form = OptionsForm(DesignDocument(load_catalogue(None), design))
    qtbot.addWidget(form)
    form.show()
    form.show_entry("toy")
    qtbot.waitExposed(form)
    return form


@pytest.mark.usefixtures("in_chinese_with_the_toys_catalogue")
def test_the_toys_form_name_label_and_own_check_read_in_chinese(qtbot: Any) -> None:
    form = _form(qtbot, {"word": " "})
    assert isinstance(form.editor("word"), QLineEdit)  # its field, from its Options schema
    labels = {label.text() for label in form.findChildren(QLabel) if label.isVisible()}
    assert "词语" in labels  # ToyGuard.options.word
    assert any("玩具守卫" in text for text in labels)  # ToyGuard.name, in the form's title
    assert any("请给出要拦截的词语" in text for text in labels), labels  # ToyGuardOptions.empty_word, by its code
    palette = PaletteModel(palette_groups(load_catalogue(None)))
    names = [palette.item(0).child(row).text() for row in range(palette.item(0).rowCount())]
    assert "玩具守卫" in names


@pytest.mark.usefixtures("in_chinese_with_the_toys_catalogue")
async def test_a_run_the_toy_stops_shows_its_codes_sentence_in_chinese() -> None:
    catalogue = load_catalogue(None)
    agent = Agent(id="a", model=ScriptedModel(["Fine."]), input_processors=[catalogue.create("ToyGuard", {})])
    result = await agent.generate("a forbidden word")
    assert result.tripwire is not None
    assert (result.tripwire.code, result.tripwire.params) == ("ToyGuard.found", {"word": "forbidden"})
    assert result.tripwire.reason == "The toy guard found the word forbidden"  # the API's English, unchanged
    assert tripwire_text(result.tripwire, catalogue) == "玩具守卫发现了词语 forbidden"
