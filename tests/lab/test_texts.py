"""The lab's own small catalogue (lab/texts.py): which language a report is in, and that every translation keeps
the values of its English text."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from lab import texts
from lab.texts import report_language, text, word


def test_the_option_wins_then_the_terminals_locale_then_english() -> None:
    assert report_language("zh_CN", environ={"LANG": "zh_TW.UTF-8"}) == "zh_CN"
    assert report_language(None, environ={"LANG": "zh_CN.UTF-8"}) == "zh_CN"
    assert report_language(None, environ={"LC_ALL": "zh_HK.UTF-8", "LANG": "en_US.UTF-8"}) == "zh_TW"
    assert report_language(None, environ={"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}) == "zh_TW"
    assert report_language(None, environ={"LANG": "en_GB.UTF-8"}) == "en"
    assert report_language(None, environ={"LANG": "de_DE.UTF-8"}) == "en"
    assert report_language(None, environ={}) == "en"


def test_gettexts_language_list_comes_before_the_locale_unless_the_locale_is_c() -> None:
    """``LANGUAGE`` (gettext's list of languages by preference) decides first, its first shipped language winning,
    as every gettext program in that terminal reads it; a ``C`` locale turns it off, as in gettext."""
    assert report_language(None, environ={"LANGUAGE": "zh_TW:zh_CN", "LANG": "en_US.UTF-8"}) == "zh_TW"
    assert report_language(None, environ={"LANGUAGE": "de:zh_CN:en", "LANG": "en_US.UTF-8"}) == "zh_CN"
    assert report_language(None, environ={"LANGUAGE": "de:fr", "LANG": "zh_CN.UTF-8"}) == "zh_CN"
    assert report_language(None, environ={"LANGUAGE": "zh_CN"}) == "zh_CN"
    assert report_language(None, environ={"LANGUAGE": "zh_CN", "LC_ALL": "C"}) == "en"
    assert report_language("en", environ={"LANGUAGE": "zh_CN", "LANG": "zh_CN.UTF-8"}) == "en"


def test_a_terminal_whose_locale_names_no_shipped_language_reads_english_whatever_the_studio_speaks(
    tmp_path: Path,
) -> None:
    """The studio's saved language (``[ui] language`` in its settings.ini) never decides in a terminal: a
    ``LANG=C.UTF-8`` shell reads English, and so does one whose first locale variable names another language."""
    (tmp_path / "settings.ini").write_text("[ui]\nlanguage=zh_TW\n", encoding="utf-8")
    assert report_language(None, environ={"LANG": "C.UTF-8", "XDG_DATA_HOME": str(tmp_path)}) == "en"
    assert report_language(None, environ={"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}) == "en"


def test_an_unknown_text_or_value_reads_english() -> None:
    assert text("zh_CN", "something new {x}", x=1) == "something new 1"
    assert text("zh_CN", "lab: {done}/{total} cases ({tally})", done=1, total=2, tally="") == "lab：1/2 个用例（）"
    assert (
        word("zh_TW", "blocked") == "已阻擋"
        and word("zh_TW", "sneaky") == "sneaky"
        and word("en", "blocked") == "blocked"
    )


@pytest.mark.parametrize("index", [0, 1])
def test_every_translation_keeps_the_placeholders_of_its_english_text(index: int) -> None:
    for english, pair in texts._TEXTS.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(english) if name}
        translated = {name for _, name, _, _ in string.Formatter().parse(pair[index]) if name}
        assert translated == fields, english
        assert re.search(r"[\u4e00-\u9fff]", pair[index]) or english in ("id",), english  # written in Chinese


def test_english_counts_one_case_in_the_singular_and_chinese_is_unchanged() -> None:
    values = {"recall": "1", "precision": "1", "fpr": "0", "tp": 1, "fp": 0, "fn": 0, "tn": 0, "errors": 0}
    summary = next(english for english in texts._ENGLISH_ONE if english.startswith("lab: {count} cases: recall"))
    assert text("en", summary, count=1, **values).startswith("lab: 1 case: recall")
    assert text("en", summary, count=2, **values).startswith("lab: 2 cases: recall")
    assert text("en", "lab: {done}/{total} cases ({tally})", done=1, total=1, tally="") == "lab: 1/1 case ()"
    assert text("en", "merged {count} cases: recall {recall}, fpr {fpr}", count=1, recall="1", fpr="0").startswith(
        "merged 1 case:"
    )
    assert text("zh_CN", "merged {count} cases: recall {recall}, fpr {fpr}", count=1, recall="1", fpr="0") == (
        "已合并 1 个用例：召回率 1，误报率 0"
    )


def test_every_singular_english_text_keeps_the_placeholders_of_its_plural() -> None:
    for plural, (counted, one) in texts._ENGLISH_ONE.items():
        names = {name for _, name, _, _ in string.Formatter().parse(plural) if name}
        assert counted in names and names == {name for _, name, _, _ in string.Formatter().parse(one) if name}
