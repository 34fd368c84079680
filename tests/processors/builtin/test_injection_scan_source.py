"""Reading a signal's pattern as text (injection_pattern_source): alternatives, optional and literal heads (issue 16).

``FastPattern`` anchors a part on the literal text every match starts with, and tries it only where that text
occurs: a head read wrong (too long, or one that a match can start without) loses matches silently, and one read
too short makes every position a candidate. These tests pin what each reading gives on small patterns.
"""

from __future__ import annotations

import pytest

from processors.builtin.injection_pattern_source import (
    both_ways,
    literal_heads,
    lower_pattern,
    too_common,
    top_level_alternatives,
)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("a|(?:b|c)|[|x]|\\||d", ["a", "(?:b|c)", "[|x]", "\\|", "d"]),
        ("[]|]|x", ["[]|]", "x"]),  # a "]" first in a class is a member, not its end
        ("[]]|x", ["[]]", "x"]),
        ("[^]]|x", ["[^]]", "x"]),
        ("[a]|b", ["[a]", "b"]),  # one member
        ("[abc]|d", ["[abc]", "d"]),
        ("[^]|]|y", ["[^]|]", "y"]),
        ("[\\]|]|z", ["[\\]|]", "z"]),  # an escaped "]" too
        ("(?:a(?:b|c)|d)|e", ["(?:a(?:b|c)|d)", "e"]),  # nested groups
        ("(?:[)|]x)|e", ["(?:[)|]x)", "e"]),  # a ")" inside a class inside a group
        ("a\\(|b", ["a\\(", "b"]),
        ("(?:a\\)|b)|c", ["(?:a\\)|b)", "c"]),  # an escaped ")" inside a group does not close it
        ("(?:\\.)|c", ["(?:\\.)", "c"]),  # an escape is two characters, the next one may close the group
        ("aXb|c", ["aXb", "c"]),
        ("abc", ["abc"]),
        ("a|", ["a", ""]),
    ],
)
def test_a_pattern_splits_at_its_top_level_bars(pattern: str, expected: list[str]) -> None:
    assert top_level_alternatives(pattern) == expected


@pytest.mark.parametrize("pattern", ["(a|b", "x|(?:y"])
def test_an_unbalanced_group_is_refused(pattern: str) -> None:
    with pytest.raises(ValueError, match="unbalanced pattern"):
        top_level_alternatives(pattern)


@pytest.mark.parametrize("pattern", ["[abc", "x|[ab", "(?:[a)", "[^]", "[]", "[a\\"])
def test_an_unclosed_character_class_is_refused_by_name(pattern: str) -> None:
    """An unclosed class (a typo in a signal's pattern) is named, not an IndexError from deep in the reader."""
    with pytest.raises(ValueError, match="unclosed character class"):
        top_level_alternatives(pattern)


@pytest.mark.parametrize("body", ["[ab", "[a\\"])
def test_a_head_class_left_open_is_refused_by_name(body: str) -> None:
    with pytest.raises(ValueError, match="unclosed character class"):
        literal_heads(body)


@pytest.mark.parametrize(
    ("alternative", "expected"),
    [
        ("(?:please )?forget", ["(?:please )forget", "forget"]),
        ("(?:a )?(?:b )?c", ["(?:a )(?:b )?c", "(?:b )c", "c"]),  # each optional head in turn
        ("(?:a|b)?c", ["(?:a|b)c", "c"]),
        ("(?:please )??forget", ["(?:please )??forget"]),  # lazy: left alone
        ("(?:please )?+forget", ["(?:please )?+forget"]),  # possessive: left alone
        ("(?:please )forget", ["(?:please )forget"]),  # not optional
        ("(?:please )*forget", ["(?:please )*forget"]),
        ("forget(?:me)?", ["forget(?:me)?"]),  # optional, but not at the head
        ("(?:(?:x)y)?z", ["(?:(?:x)y)z", "z"]),
    ],
)
def test_a_leading_optional_group_is_tried_both_ways(alternative: str, expected: list[str]) -> None:
    assert both_ways(alternative) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("(?:print|show) your", ["print", "show"]),
        ("(?:print|\\s+show)", []),  # one alternative starts with no literal: none known
        ("(?:print|show)? your", []),  # the group may be missing
        ("(?:print|show)* your", []),
        ("(?:print|show){0,2} your", []),
        ("ignor(?:e|es)", ["ignor"]),
        ("prompts?", ["prompt"]),  # the "s" may be missing
        ("a+b", ["a"]),  # at least one "a", maybe more
        ("ab{2}c", ["ab"]),  # "b" at least once
        ("ab{0,2}c", ["a"]),
        ("ab*c", ["a"]),
        ("\\.com", [".com"]),  # an escaped punctuation mark is itself
        ("a\\sb", ["a"]),  # an escaped letter is a class
        ("\\bword", []),
        ("a.b", ["a"]),
        ("a[bc]", ["a"]),
        ("ab$", ["ab"]),
        ("", []),
        ("[（(]x", ["（", "("]),  # a small class of plain characters: each a head
        ("[a]x", ["a"]),
        ("[Xy]z", ["X", "y"]),
        ("[#(][a-z]", ["#", "("]),
        ("[ab]+x", ["a", "b"]),
        ("[ab]?x", []),  # the class may be missing
        ("[ab]*x", []),
        ("[ab]{0,3}x", []),
        ("[ab]{1,3}x", ["a", "b"]),
        ("[a-c]x", []),  # a range
        ("[^a]x", []),  # a negated class
        ("[\\w]x", []),
        ("[abcdef]x", ["a", "b", "c", "d", "e", "f"]),  # six members
        ("[abcdefg]x", []),  # seven: too many to try one by one
    ],
)
def test_the_literal_heads_every_match_starts_with(body: str, expected: list[str]) -> None:
    assert literal_heads(body) == expected


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        ("", True),
        ("i", True),
        ("ig", True),
        ("ign", False),  # three letters of an alphabet
        ("忽", True),
        ("忽略", False),  # two characters of Chinese
        ("é", True),
        ("éa", False),  # not ASCII: two suffice
        ("[", False),  # punctuation is rare from one character on
        ("#x", False),
        ("a#", True),  # a letter first: two characters are too few, whatever follows
        ("1", True),
        ("123", False),
    ],
)
def test_a_head_shorter_than_a_rare_word_is_too_common(prefix: str, expected: bool) -> None:
    assert too_common(prefix) is expected


def test_escapes_keep_their_case_when_a_pattern_is_lower_cased() -> None:
    assert lower_pattern("IGNORE\\SALL\\W[A-Z]\\B") == "ignore\\Sall\\W[a-z]\\B"
    assert lower_pattern("A\nB") == "a\nb"  # a literal newline is one character like any other
