"""The stream window's rules at their edges, one kind at a time (issue 16: each case pins a mutant that survived).

``test_stream_window.py`` proves the hold is split-independent and short over the corpora with every kind at once;
with all kinds selected, one rule often hides another's slip. Here each rule runs alone, at the cap's edge, with a
one-letter partial needle, a needle found twice, and text whose lower-casing changes its length.
"""

from __future__ import annotations

import pytest

from processors.builtin import stream_window
from processors.builtin.stream_window import hold_start


@pytest.fixture(autouse=True)
def plan_anew() -> None:
    """Each test plans its kinds afresh (the plan cache is a speed-up only)."""
    stream_window._PLANS.clear()


@pytest.mark.parametrize(
    ("text", "kinds", "cap", "start"),
    [
        # character sets: only the set's own characters make the trailing run
        pytest.param("Card X", ("credit-card",), 128, 6, id="a letter is no card digit"),
        pytest.param("mail Xo@exa", ("email",), 128, 5, id="an address may begin with X"),
        # an address's run goes on through the letters of an internationalised one, and only an address's
        pytest.param("Escríbele a josé.garcí", ("email",), 128, 12, id="a name with accents may become an address"),
        pytest.param("jo@münch", ("email",), 128, 0, id="an IDN domain being written"),
        pytest.param("邮箱是liu", ("email",), 128, 3, id="Chinese ends the run"),
        pytest.param("дмитрий", ("email",), 4, 3, id="letters held no further back than the cap"),
        pytest.param("Звоните +7 495", ("phone",), 128, 8, id="a phone's run stops at a letter"),
        pytest.param("Звоните +7 495", ("phone", "email"), 128, 8, id="an address's set covers no phone's run"),
        # partial needles ending the text
        pytest.param("Authorization: B", ("bearer-token",), 128, 15, id="one letter of Bearer"),
        pytest.param("the bea", ("bearer-token",), 128, 7, id="Bearer is case-sensitive: bea is not held"),
        pytest.param("export DB_PASSW", ("secret-assignment",), 128, 10, id="a keyword after an underscore"),
        pytest.param("Authorization: Bea", ("bearer-token",), 3, 15, id="a partial exactly cap long"),
        # needles
        pytest.param("x Bearer abc", ("bearer-token",), 10, 2, id="a needle exactly cap back"),
        pytest.param("key sk-abc-sk-def", ("openai-key",), 128, 4, id="the earliest needle of one run"),
        pytest.param("sk-a sk-b-sk-c", ("openai-key",), 128, 5, id="the first needle that can still grow"),
        pytest.param("İ Bearer abc", ("bearer-token",), 128, 2, id="lower-casing that changes the length"),
    ],
)
def test_each_rule_alone_holds_from_exactly_where_a_match_could_begin(
    text: str, kinds: tuple[str, ...], cap: int, start: int
) -> None:
    assert hold_start(text, 0, kinds, cap) == start


def test_unknown_kinds_are_named_in_the_error() -> None:
    with pytest.raises(KeyError, match="no stream hold rule for nope, other: add one"):
        hold_start("x", 0, ("email", "nope", "other"), 128)


# ------------------------------------------------------------------------------------------------ building a rule
def test_a_rule_holds_the_proper_prefixes_of_its_needles_and_a_tail_anchored_at_the_end() -> None:
    rule = stream_window._rule(("Bearer",), r"Bearer\s*\w*", 28, word_start=True, chars="Baer")
    assert rule.prefixes == frozenset({"B", "Be", "Bea", "Bear", "Beare"})
    assert rule.needles == ("Bearer",) and rule.forms == () and rule.span == 28
    assert rule.word_start and not rule.caseless and rule.chars == frozenset("Baer")
    assert rule.tail.match("Bearer abc") and not rule.tail.match("Bearer abc!")  # the text must end in the tail
    assert not rule.tail.match("bearer abc")  # case counts unless the rule is caseless
    assert not rule.tail.match("Bearer \u00e9")  # ASCII: \w is no accented letter


def test_a_caseless_rule_with_forms_holds_the_prefixes_of_its_forms() -> None:
    rule = stream_window._rule(("passw",), r"passw\w*", None, forms=("password", "pwd"), caseless=True)
    assert rule.prefixes == frozenset({"p", "pa", "pas", "pass", "passw", "passwo", "passwor", "pw"})
    assert rule.tail.match("PassWord") and rule.caseless and rule.span is None
    assert rule.forms == ("password", "pwd") and rule.chars is None and not rule.word_start
