"""The Lab in a Chinese studio offers the starter corpora's cases in the reader's script first, already chosen
(studio/models/lab_starters.py), over the real studio, store and bundled corpora."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from lab.corpus import bundled_corpora, load_corpus
from studio.models.lab_cases_model import COLUMNS
from studio.models.lab_lists import CorpusSource
from studio.models.lab_starters import starter_sources
from tests.studio.views.test_lab_view import finish, open_lab


def _bundled() -> list[CorpusSource]:
    return [CorpusSource(path, load_corpus(path).cases, bundled=True) for path in bundled_corpora()]


@pytest.mark.parametrize(("language", "lang", "part"), [("zh_CN", "zh-CN", "简体中文"), ("zh_TW", "zh-TW", "繁體中文")])
def test_each_file_is_split_into_the_readers_cases_chosen_first_and_the_rest(
    in_language: Any, language: str, lang: str, part: str
) -> None:
    in_language(language)
    whole = _bundled()
    offered = starter_sources(whole, language)
    own, rest = offered[: len(whole)], offered[len(whole) :]
    assert [source.name for source in own] == [f"{source.path.name} · {part}" for source in whole]
    assert all(source.checked and {case.lang for case in source.cases} == {lang} for source in own)
    assert rest and not any(source.checked or lang in {case.lang for case in source.cases} for source in rest)
    # every case offered once: choosing both halves of a file runs the whole file
    assert sorted(case.id for source in offered for case in source.cases) == sorted(
        case.id for source in whole for case in source.cases
    )


def test_an_english_studio_offers_the_files_whole_and_chosen() -> None:
    whole = _bundled()
    offered = starter_sources(whole, "en")
    assert [(source.path, source.cases, source.part) for source in offered] == [
        (source.path, source.cases, "") for source in whole
    ]
    assert all(source.checked for source in offered)
    assert not any(source.checked for source in whole)  # the sources read are left as they were


def test_an_english_reader_runs_the_whole_starter_set_without_choosing_anything(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path
) -> None:
    _, _, lab = open_lab(qtbot, qloop, tmp_path, offered=True)
    chosen = lab.controller.corpora.checked()
    assert [source.name for source in chosen] == [path.name for path in bundled_corpora()]
    assert lab.controller.corpora.sources() == chosen
    assert "Press Run" in lab.empty.text()
    finish(qloop, lab, lab.run_button.click)
    assert lab.cases_model.rowCount() == sum(len(source.cases) for source in _bundled())


def test_a_chinese_reader_runs_the_chinese_cases_without_choosing_anything(
    qtbot: QtBot, qloop: qasync.QEventLoop, tmp_path: Path, in_language: Any
) -> None:
    in_language("zh_CN")
    _, _, lab = open_lab(qtbot, qloop, tmp_path, offered=True)
    chosen = lab.controller.corpora.checked()
    assert chosen and all(source.name.endswith(" · 简体中文") for source in chosen)
    assert lab.controller.corpora.sources()[: len(chosen)] == chosen  # offered first
    finish(qloop, lab, lab.run_button.click)
    column = COLUMNS.index("lang")
    languages = {lab.cases_model.index(row, column).data() for row in range(lab.cases_model.rowCount())}
    assert lab.cases_model.rowCount() == sum(len(source.cases) for source in chosen) > 50
    assert languages == {"zh-CN"}
