"""RegexMatcher's hits after a left context: what the stream asks for after every chunk (the text already let
out is a look-behind's context, never a match of its own)."""

from __future__ import annotations

import pytest

from processors.builtin.regex_rules import RegexMatcher, RegexRule

TICKET = RegexRule(name="ticket", pattern=r"(?<=#)INC-(\d{3})", replacement="INC-[$1]")
TEXT = "mail ann@example.com, #INC-123 and call +1 415-555-0132; then #INC-456 from bob@example.org"


def matcher() -> RegexMatcher:
    return RegexMatcher(("email", "phone"), [(TICKET.name, TICKET.compile(), TICKET.replacement)])


@pytest.mark.parametrize("after", [0, 1, 5, 23, 24, 30, 60, len(TEXT)])
def test_hits_after_a_context_are_the_whole_texts_hits_from_there_counted_from_there(after: int) -> None:
    whole = matcher().hits(TEXT)
    expected = [(h.start - after, h.end - after, h.rule, h.replacement) for h in whole if h.start >= after]
    found = matcher().hits(TEXT, after=after)
    assert [(h.start, h.end, h.rule, h.replacement) for h in found] == expected
    shown = TEXT[after:]
    assert all(shown[h.start : h.end] == TEXT[after + h.start : after + h.end] for h in found)


def test_a_look_behind_sees_the_context_and_a_replacement_still_expands_its_groups() -> None:
    text = "ticket #INC-789 closed"
    after = text.index("INC")  # the "#" is context: the look-behind must still see it
    rules = matcher()
    hits = rules.hits(text, after=after)
    assert [(h.start, h.end, h.rule) for h in hits] == [(0, 7, "ticket")]
    assert rules.redact(text[after:], rules.regions(hits))[0] == "INC-[789] closed"
