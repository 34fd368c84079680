"""RegexFilter and PIIDetector agree on where a phone number ends and on how its groups may be parted (#25).

A number with its ``+`` country code that runs on past its country's length (``phone_lengths``) is cut where it
has that length: ``+1 415 555 2671 2 times`` is a North American number (ten digits after the ``1``) and a count,
so both guards give ``[PHONE] 2 times`` (PIIDetector masked ``+1 415 555 2671 2`` whole, RegexFilter cut it). A
number no cut fits is still a phone number by its digit count: ``+48 22 653 00-020`` (ten digits where a Polish
number has nine) was masked by PIIDetector and left whole by RegexFilter. A national number's groups may be parted
by different separators (``020 7946-0018``): RegexFilter masked it, PIIDetector wanted the same separator twice.
What starts inside the part of a number kept is no other number: RegexFilter read ``555 2671 4111`` inside
``+1 415 555 2671 4111`` and masked the ``4111``, no value of its own (PIIDetector, which masked it as part of the
+1 number, now cuts that number and leaves it too).
A count after a national number is no part of it (``Tel: 020 7946 0018 3 times`` → ``Tel: [PHONE] 3 times`` in both;
PIIDetector left the number whole, as part of a longer one). A range and a quantity are no phone number to either
guard (``1500-2500 3000 units``: PIIDetector masked it since it read mixed separators, and read twelve national digits
without a trunk ``0`` as a phone number), while phone numbers with mixed separators stay masked.
Every text is checked whole and streamed in chunks of every size from 1 to 9. Invented numbers (fictional ranges).
"""

from __future__ import annotations

import pytest

from processors.builtin.pii_detector import PIIDetector
from processors.builtin.regex_filter import RegexFilter
from tests.processors.builtin.test_adjoining_stream import streamed, whole

GUARDS = {
    "PIIDetector": PIIDetector(redaction_method="placeholder"),
    "RegexFilter": RegexFilter(presets=["pii"], strategy="redact"),
}

CASES = [
    # a +CC number run on into the next token: cut where its country's numbers end
    ("Call +1 415 555 2671 2 times", "Call [PHONE] 2 times"),
    ("Call +1 (415) 555-2671 2 times", "Call [PHONE] 2 times"),
    ("Call +12025550123 2 times", "Call [PHONE] 2 times"),
    ("Ask for +33 1 42 68 53 00 2 rooms", "Ask for [PHONE] 2 rooms"),
    ("Room +44 (0)20 7946 0018 2 times", "Room [PHONE] 2 times"),
    ("Line +44 20 7946 0018 1234 is busy", "Line [PHONE] 1234 is busy"),
    # (RegexFilter masked the 4111 too, as the end of a national number 555 2671 4111 read inside the +1 one)
    ("Call +1 415 555 2671 4111 now", "Call [PHONE] 4111 now"),
    ("Dial +7 495 123-45-67 1 time", "Dial [PHONE] 1 time"),
    # a +CC number no cut fits: its digit count decides
    ("Call +48 22 653 00-020 today", "Call [PHONE] today"),
    ("Call +86 138 1234 now", "Call [PHONE] now"),
    # a hyphen between groups, with or without a country code
    ("Call +48 22 653-00-20 today", "Call [PHONE] today"),
    ("Call +48 22 653 00-02 today", "Call [PHONE] today"),
    ("Tel. 020 7946-0018 today", "Tel. [PHONE] today"),
    ("Tel. 0800 123-4567 today", "Tel. [PHONE] today"),
    ("Tel. 030 1234-5678 today", "Tel. [PHONE] today"),
    ("Tel. 020.7946-0018 today", "Tel. [PHONE] today"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
@pytest.mark.parametrize("guard", list(GUARDS))
def test_both_guards_mask_the_number_and_only_the_number(text: str, expected: str, guard: str) -> None:
    assert whole(GUARDS[guard], text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES)
@pytest.mark.parametrize("guard", list(GUARDS))
def test_the_stream_masks_it_as_the_whole_text(text: str, expected: str, guard: str) -> None:
    for size in range(1, 10):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert streamed(GUARDS[guard], chunks) == expected, size


@pytest.mark.parametrize("guard", list(GUARDS))
def test_a_reference_number_with_mixed_separators_is_no_phone_number(guard: str) -> None:
    """Parting the groups differently does not make an order number a phone number: both guards read the words
    before a number (``pattern_validators.reference_before``; RegexFilter masked it, its presets read no context)."""
    text = "order no. 020 7946-0018 shipped"
    assert whole(GUARDS[guard], text) == text


@pytest.mark.parametrize("guard", list(GUARDS))
def test_a_house_number_then_a_polish_postal_code_is_no_phone_number(guard: str) -> None:
    """``53 00-020`` is an address (00-020 is a Warsaw postal code), not a number with a hyphen between its groups;
    four short groups (``022 53 00-020``) are no phone shape to either guard, as lists of numbers are not."""
    for text in ["ul. Chmielna 53 00-020 Warszawa", "ref 022 53 00-020"]:
        assert whole(GUARDS[guard], text) == text
    text = "Nowy Świat 53, 00-020 Warszawa, tel. +48 22 653 00 20"
    assert whole(GUARDS[guard], text) == "Nowy Świat 53, 00-020 Warszawa, tel. [PHONE]"


#: A national number and a count after it (a space, one to three digits, a word): both guards mask the number and
#: keep the count, as ``+1 415 555 2671 2 times`` gives ``[PHONE] 2 times`` (PIIDetector read ``020 7946 0018 3`` as
#: part of a longer number and left the phone number whole; RegexFilter masked it).
COUNT_CASES = [
    ("Tel: 020 7946 0018 3 times", "Tel: [PHONE] 3 times"),
    ("Tel: 020 7946 0018 12 times", "Tel: [PHONE] 12 times"),
    ("Tel: 020 7946-0018 3 times", "Tel: [PHONE] 3 times"),
    ("Tel: 0800 123 4567 100 calls", "Tel: [PHONE] 100 calls"),
    ("Tel: 415 555 2671 3 times", "Tel: [PHONE] 3 times"),
    ("Call (415) 555-2671 2 times", "Call [PHONE] 2 times"),
    ("Call 415-555-2671 2 times", "Call [PHONE] 2 times"),
    ("Tel: 020 7946 0018 3", "Tel: [PHONE] 3"),
]


@pytest.mark.parametrize(("text", "expected"), COUNT_CASES)
@pytest.mark.parametrize("guard", list(GUARDS))
def test_a_count_after_a_national_number_is_kept(text: str, expected: str, guard: str) -> None:
    assert whole(GUARDS[guard], text) == expected
    for size in range(1, 10):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert streamed(GUARDS[guard], chunks) == expected, size


@pytest.mark.parametrize("guard", list(GUARDS))
def test_a_fourth_group_of_four_digits_after_a_national_number_is_left(guard: str) -> None:
    """``020 7946 0018 1234``: the number's three groups are masked, the fourth (an extension, or the next item of a
    list) is left, by both guards: they read one phone pattern (PIIDetector refused the whole run, as part of a longer
    number, and leaked the phone number)."""
    text = "Line 020 7946 0018 1234 is busy"
    assert whole(GUARDS[guard], text) == "Line [PHONE] 1234 is busy"


#: Numbers that are no phone number to either guard: a range then a quantity (a hyphen joins the first two groups,
#: a space parts the third), and twelve digits with no trunk prefix (RegexFilter refuses twelve national digits;
#: PIIDetector took them as a phone number, with or without separators alike).
NOT_PHONES = [
    "1500-2500 3000 units",
    "150-2500 3000 units",
    "150-250 3000 units",
    "1500-2500 300 units",
    "1500 2500 3000 units",
    "1500-2500-3000 units",
    "ids 4000 4001 4002",
    "1234 5678 9012 3 times",
]


@pytest.mark.parametrize("text", NOT_PHONES)
@pytest.mark.parametrize("guard", list(GUARDS))
def test_a_range_and_a_quantity_are_no_phone_number(text: str, guard: str) -> None:
    assert whole(GUARDS[guard], text) == text
    for size in range(1, 10):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert streamed(GUARDS[guard], chunks) == text, size


#: Phone numbers with mixed separators or twelve digits that stay masked by both guards (twelve national digits with a
#: trunk prefix ``0`` too: RegexFilter read ten or eleven and left ``0755-8888 8888``).
STILL_PHONES = [
    ("Tel. 020 7946-0018 today", "Tel. [PHONE] today", "both"),
    ("Tel. 020.7946-0018 today", "Tel. [PHONE] today", "both"),
    ("Tel. 0800 123-4567 today", "Tel. [PHONE] today", "both"),
    ("Tel. 010-6552 9988 today", "Tel. [PHONE] today", "both"),
    ("Tel. 030-1234 5678 today", "Tel. [PHONE] today", "both"),
    ("Tel. 415-555 2671 today", "Tel. [PHONE] today", "both"),
    ("Tel. (415) 555-2671 today", "Tel. [PHONE] today", "both"),
    ("Tel. 0755-8888 8888 today", "Tel. [PHONE] today", "both"),
    ("Tel. 0812-3456-7890 today", "Tel. [PHONE] today", "both"),
    ("Tel. (0755) 8888 8888 today", "Tel. [PHONE] today", "both"),
]


@pytest.mark.parametrize(("text", "expected", "which"), STILL_PHONES)
@pytest.mark.parametrize("guard", list(GUARDS))
def test_phone_numbers_with_mixed_separators_stay_masked(text: str, expected: str, which: str, guard: str) -> None:
    want = expected if which in ("both", guard) else text
    assert whole(GUARDS[guard], text) == want
    for size in range(1, 10):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert streamed(GUARDS[guard], chunks) == want, size
