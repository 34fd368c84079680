"""A ``+`` number has as many digits after its country code as its country's numbers have (#25).

Why it matters: ``+1 415 555 2671 4111`` has 15 digits, a plausible international number by count alone, so the
shared phone pattern kept it and the ``4111`` that begins the card after it was redacted as phone digits; a North
American number has ten digits after the ``1``.
"""

from __future__ import annotations

import pytest

from processors.builtin.patterns import VALIDATORS
from processors.builtin.phone_lengths import NATIONAL_LENGTHS, country_code, national_length_ok


@pytest.mark.parametrize(
    "number",
    [
        "+1 415 555 2671",
        "+1 (415) 555-2671",
        "+44 20 7946 0018",
        "+44 (0)20 7946 0018",
        "+33 1 42 68 53 00",
        "+49 30 1234 5678",
        "+86 138 1234 5678",
        "+86 10 1234 5678",
        "+81 90-1234-5678",
        "+91 98765 43210",
        "+7 495 123-45-67",
        "+61 4 1234 5678",
        "+55 11 91234-5678",
        "+852 1234 5678",  # a code not in the table: the digit count alone decides
        "415 555 2671",  # no country code
    ],
)
def test_numbers_of_their_countrys_length_pass(number: str) -> None:
    assert national_length_ok(number)
    assert VALIDATORS["phone"](number)


@pytest.mark.parametrize(
    "number", ["+1 415 555 2671 4111", "+33 1 42 68 53 00 020", "+86 138 1234", "+44 20 7946 0018 1234"]
)
def test_a_number_run_on_into_the_next_is_refused(number: str) -> None:
    assert not national_length_ok(number)
    assert not VALIDATORS["phone"](number)


def test_country_codes_are_read_prefix_free() -> None:
    assert [country_code(d) for d in ("14155552671", "74951234567", "442079460018", "8521234567")] == [
        "1",
        "7",
        "44",
        "852",
    ]
    assert all(1 <= len(code) <= 2 and low <= high for code, (low, high) in NATIONAL_LENGTHS.items())
