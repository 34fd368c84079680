"""Edges of the character tricks that mutation testing found unchecked: the ends of each character range, case
kept by a typo, runs of spaces kept, and a two-letter word."""

from __future__ import annotations

import random

import pytest

from tests.lab.converters.samples import convert, registry


@pytest.mark.parametrize(("plain", "wide"), [("!", "！"), ("~", "～"), ("A", "Ａ"), (" ", "\u3000")])
def test_fullwidth_covers_the_whole_printable_range(plain: str, wide: str) -> None:
    assert convert("fullwidth", plain) == wide
    assert registry()["fullwidth"].revert(wide) == plain


def test_fullwidth_leaves_what_has_no_wide_form() -> None:
    assert convert("fullwidth", "\x7f\t") == "\x7f\t"
    assert registry()["fullwidth"].revert("\uff5f") == "\uff5f"


def test_tags_cover_space_to_tilde_and_nothing_else() -> None:
    assert convert("tag-smuggle", " ~\x7f") == "\U000e0020\U000e007e\x7f"
    assert registry()["tag-smuggle"].revert("\U000e007e\U000e007f\U000e001f") == "~\U000e007f\U000e001f"


def test_zalgo_revert_removes_the_last_combining_mark_and_keeps_the_next_character() -> None:
    assert registry()["zalgo"].revert("a\u036fb\u0370") == "ab\u0370"


def test_diacritics_touch_only_vowels() -> None:
    assert convert("diacritics", "XyZ bcd") == "XyZ bcd"


def test_a_two_letter_word_gets_its_invisible_character() -> None:
    converted = str(convert("zero-width", "ab"))
    assert len(converted) == 3 and converted[1] in "\u200b\u200c\u200d\u2060"


@pytest.mark.parametrize("name", ["reverse-words", "char-swap"])
def test_runs_of_spaces_are_kept(name: str) -> None:
    converted = str(convert(name, "abcdefg  hijklmn   opq"))
    assert converted.count(" ") == 5
    assert "  " in converted and "   " in converted


def test_a_mistyped_capital_stays_a_capital() -> None:
    text = "QWERTY" * 40
    typed = str(registry()["typos"].convert(text, random.Random(3)))
    assert typed != text
    assert typed.isupper()
