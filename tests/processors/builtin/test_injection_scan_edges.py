"""The injection scan's parts on small inputs: the cost counts, the windows, the needle passes, one pattern's parts.

``test_injection_scan.py`` checks that the fast search finds what the signals' own patterns find, on corpora; these
tests pin the pieces it is made of, each on an input small enough to read (issue 16).
"""

from __future__ import annotations

import pytest

from processors.builtin.injection_scan import REACH, WINDOWED_FROM, FastPattern, NeedleScanner, ScanCost, lower, windows


def test_the_cost_counts_each_search_its_characters_and_each_try_per_signal() -> None:
    cost = ScanCost()
    cost.searched(3, 10, 25)
    cost.searched(3, 0, 5)
    cost.tried(3)
    cost.tried(7)
    assert cost == ScanCost(searches=2, characters=20, tries=2, per_signal={3: 21, 7: 1})


def test_windows_reach_around_each_needle_merge_where_they_overlap_and_stay_in_the_text() -> None:
    positions = {"ab": [300, 10], "cd": [700, 1500], "other": [5]}
    assert windows(["ab", "cd"], positions, 1600) == [
        (0, 10 + 2 + REACH + 300 - 10 + 400),  # 10, 300 and 700 merged: from 0 to 700 + 2 + REACH
        (1500 - REACH, 1600),  # clipped at the end of the text
    ]
    assert windows(["ab"], {"ab": [600]}, 2000) == [(600 - REACH, 600 + 2 + REACH)]
    assert windows(["ab"], {"ab": [600], "cd": [1000]}, 2000) == [(600 - REACH, 600 + 2 + REACH)]
    assert windows(["zz"], positions, 1600) == []


def test_windows_that_only_touch_are_merged() -> None:
    end = 100 + 1 + REACH
    assert windows(["a", "b"], {"a": [100], "b": [end + REACH]}, 5000) == [(0, end + REACH + 1 + REACH)]


def test_the_needle_pass_reads_a_text_once_or_twice_when_it_is_not_ascii() -> None:
    scanner = NeedleScanner(["ignore", "ign", "忽略", "系统"])
    assert scanner.needles == {"ign", "ignore", "忽略", "系统"}
    cost = ScanCost()
    assert scanner.positions("ignore ign", cost) == {"ign": [0, 7], "ignore": [0]}
    assert (cost.needle_passes, cost.needle_characters) == (1, 10)
    cost = ScanCost()
    assert scanner.positions("ignore 忽略 ign", cost) == {"ign": [0, 10], "ignore": [0], "忽略": [7]}
    assert (cost.needle_passes, cost.needle_characters) == (2, 26)
    assert NeedleScanner(["ign"]).positions("忽略 ign") == {"ign": [3]}  # no other needles: one pass is all
    assert NeedleScanner([]).positions("ignore") == {}


def test_a_pattern_is_split_into_parts_each_with_its_boundary_and_heads() -> None:
    fast = FastPattern(r"\bfoo|bar|\s+baz", ["foo", "bar", "baz"])
    assert [(p.pattern.pattern, p.boundary, p.heads) for p in fast.parts] == [
        ("foo", True, {"foo"}),
        ("bar", False, {"bar"}),
        (r"\s+baz", False, frozenset()),  # no literal head: searched, not anchored
    ]
    assert fast.heads == {"foo", "bar"}


def test_a_head_is_the_needle_it_starts_with_or_itself_when_long_enough() -> None:
    assert FastPattern("ignore all", ["ign"]).parts[0].heads == {"ign"}
    assert FastPattern("ignore all", []).parts[0].heads == {"ignore all"}
    assert FastPattern("(?:ig|ignore) all", []).parts[0].heads == frozenset()  # "ig" is too common to anchor on


@pytest.mark.parametrize(
    ("text", "pos", "endpos", "span"),
    [
        ("xfoo bar foo", 0, None, (5, 8)),  # "foo" inside "xfoo" is no word: "bar" comes first
        ("bar foo", 1, None, (4, 7)),
        ("foo bar", 0, 3, (0, 3)),
        ("foobar", 0, 2, None),  # the end bounds the match
        ("foo bar", 0, 100, (0, 3)),  # an end past the text is the text's end
        ("say foo", 0, None, (4, 7)),
        ("foo_", 0, None, None),  # "_" is a word character: no word ends after "foo"
    ],
)
def test_search_finds_the_leftmost_match_as_the_original_pattern(
    text: str, pos: int, endpos: int | None, span: tuple[int, int] | None
) -> None:
    fast = FastPattern(r"\bfoo\b|bar", ["foo", "bar"])
    found = fast.search(text, pos, endpos)
    assert (found.span() if found is not None else None) == span


def test_find_tries_an_anchored_part_only_where_its_head_is_and_searches_the_others() -> None:
    fast = FastPattern(r"\bignore all|\s+baz", ["ignore", "baz"])
    text = "we ignore all of it"
    scanner = NeedleScanner(["ignore", "baz"])
    cost = ScanCost()
    assert fast.find(text, scanner.positions(text), cost, 5) == (3, 13)
    assert (cost.tries, cost.searches, cost.characters) == (1, 1, len(text))
    assert cost.per_signal == {5: 1 + len(text)}
    # Not at a word's start: the anchored part is not tried at all.
    cost = ScanCost()
    assert fast.find("reignore all", scanner.positions("reignore all"), cost) is None
    assert cost.tries == 0


def test_find_in_a_long_text_searches_only_near_the_needles_and_stops_at_the_first_match() -> None:
    fast = FastPattern(r"\s+baz", ["baz"])
    filler = "lorem ipsum " * (WINDOWED_FROM // 12 + 10)
    text = filler + "qux  baz" + filler + " baz"
    scanner = NeedleScanner(["baz"])
    cost = ScanCost()
    assert fast.find(text, scanner.positions(text), cost) == (len(filler) + 3, len(filler) + 8)
    assert cost.searches == 1  # the window around the first "baz"; the second is never searched
    assert cost.characters == 2 * REACH + 3
    cost = ScanCost()
    short = "qux  baz"
    assert fast.find(short, scanner.positions(short), cost) == (3, 8)
    assert (cost.searches, cost.characters) == (1, len(short))  # a short text is searched whole


def positions_of(text: str, *needles: str) -> dict[str, list[int]]:
    return NeedleScanner(needles).positions(text)


def test_of_two_parts_matching_at_the_same_place_the_earlier_alternative_wins() -> None:
    fast = FastPattern("foo|foobar", ["foo"])
    assert fast.search("a foobar").span() == (2, 5)  # type: ignore[union-attr]
    assert fast.find("a foobar", positions_of("a foobar", "foo")) == (2, 5)


def test_an_anchored_part_checks_the_word_boundary_at_each_head() -> None:
    fast = FastPattern(r"\bfoo", ["foo"])
    for text, span in [
        ("foo and more words", (0, 3)),  # at the very start (the text ends in a letter: nothing wraps around)
        ("xfoo", None),  # inside a word
        ("afoo foo", (5, 8)),  # the first head fails, the next is tried
    ]:
        assert fast.find(text, positions_of(text, "foo")) == span, text


def test_a_part_is_not_tried_where_it_could_only_start_after_the_match_in_hand() -> None:
    fast = FastPattern(r"\bfoo|\bbar", ["foo", "bar"])
    cost = ScanCost()
    assert fast.find("foo bar", positions_of("foo bar", "foo", "bar"), cost) == (0, 3)
    assert cost.tries == 1  # "bar" starts after "foo": not tried
    assert cost.per_signal == {0: 1}  # the signal number defaults to 0


def test_a_failed_boundary_moves_the_search_on_by_one_character() -> None:
    """In "ca-z" the match at "a" is inside a word; the one at "-" starts a non-word run after a word: a boundary."""
    fast = FastPattern(r"\b[a-]+z", [])
    assert fast.search("ca-z").span() == (2, 4)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("length", "searched"),
    [(WINDOWED_FROM - 1, WINDOWED_FROM - 1), (WINDOWED_FROM, REACH + 3)],
    ids=["just short enough to search whole", "long enough to search near the needle only"],
)
def test_a_text_is_searched_whole_below_the_windowed_length(length: int, searched: int) -> None:
    fast = FastPattern(r"\s+baz", ["baz"])
    text = "x" * (length - 4) + " baz"
    cost = ScanCost()
    assert fast.find(text, positions_of(text, "baz"), cost) == (length - 4, length)
    assert (cost.searches, cost.characters) == (1, searched)


def test_a_scanner_with_only_non_ascii_needles_still_reads_a_non_ascii_text() -> None:
    assert NeedleScanner(["忽略"]).positions("请忽略它") == {"忽略": [1]}


def test_search_starts_at_the_beginning_by_default() -> None:
    assert FastPattern(r"\bfoo", ["foo"]).search("foo bar").span() == (0, 3)  # type: ignore[union-attr]


def test_an_underscore_is_a_word_character_at_a_head() -> None:
    assert FastPattern(r"\bfoo", ["foo"]).find("x_foo", positions_of("x_foo", "foo")) is None


@pytest.mark.parametrize(
    ("pattern", "text", "span"),
    [
        (r"abcd|\w?bc", "abcd", (0, 4)),  # the second part ties at 0 with a shorter match: the first keeps it
        (r"abcd|\w+bc", "xabcd", (0, 4)),  # the second part starts earlier (and ends inside the first's match)
        (r"abcd|\w?bc", "xabcd", (1, 5)),  # searched from before the match in hand, the second part ties with it
    ],
)
def test_a_later_part_replaces_the_match_in_hand_only_when_it_starts_earlier(
    pattern: str, text: str, span: tuple[int, int]
) -> None:
    found = FastPattern(pattern, ["abcd"]).find(text, positions_of(text, "abcd"))
    assert found == span
    assert found == FastPattern(pattern, ["abcd"]).search(text).span()  # type: ignore[union-attr]


def test_no_part_is_searched_from_where_the_match_in_hand_starts() -> None:
    """A part found at 0: a later anchored part at the same start is not tried, a searched one not searched."""
    cost = ScanCost()
    assert FastPattern("foo|foobar", ["foo"]).find("foobar", positions_of("foobar", "foo"), cost) == (0, 3)
    assert cost.tries == 1
    cost = ScanCost()
    assert FastPattern(r"\bfoo|\s+bar", ["foo", "bar"]).find("foo bar", positions_of("foo bar", "foo"), cost) == (0, 3)
    assert (cost.tries, cost.searches) == (1, 0)


def test_dotless_i_and_long_s_are_folded_each_on_its_own() -> None:
    assert lower("\u0131gnore") == "ignore"
    assert lower("\u017fystem") == "system"
    assert lower("\u0130gnore") == "ignore"


def test_a_one_character_needle_is_found_where_a_longer_one_starts_with_it() -> None:
    assert NeedleScanner(["[", "[inst]"]).positions("[inst] [x") == {"[": [0, 7], "[inst]": [0]}
