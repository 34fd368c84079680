"""How many digits a phone number has after its country code, per country (ITU-T E.164 national numbers).

Why: a ``+`` number that runs on into the next value must be refused, so that what is inside it is looked at again
(#25): ``+1 415 555 2671 4111`` has 15 digits, a plausible international number by count alone, but a North American
number has exactly ten after the ``1``, so the ``4111`` belongs to the card that follows. Only countries whose
national numbers have a known, narrow range of lengths are listed; any other country code is left to the digit count
the caller checks (8 to 15 with the code), so a number of a country not listed is never refused here::

    national_length_ok("+1 415 555 2671")            # True
    national_length_ok("+1 415 555 2671 4111")       # False: 14 digits after +1
    national_length_ok("+44 (0)20 7946 0018")        # True: the "(0)" trunk prefix is not dialled from abroad
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["NATIONAL_LENGTHS", "country_code", "national_length_ok"]

#: Country code → (fewest, most) digits of a national number, with a margin where a country has several plans.
NATIONAL_LENGTHS: Final[dict[str, tuple[int, int]]] = {
    "1": (10, 10), "7": (10, 10), "20": (8, 10), "27": (9, 9), "30": (10, 10), "31": (9, 9), "32": (8, 9),
    "33": (9, 9), "34": (9, 9), "36": (8, 9), "39": (6, 11), "40": (9, 9), "41": (9, 9), "43": (4, 13),
    "44": (7, 10), "45": (8, 8), "46": (7, 13), "47": (5, 8), "48": (9, 9), "49": (6, 13), "51": (8, 9),
    "52": (10, 11), "53": (8, 8), "54": (10, 11), "55": (10, 11), "56": (9, 9), "57": (8, 10), "58": (10, 10),
    "60": (8, 10), "61": (9, 10), "62": (8, 12), "63": (8, 10), "64": (8, 10), "65": (8, 8), "66": (8, 9),
    "81": (9, 10), "82": (8, 10), "84": (9, 10), "86": (9, 11), "90": (10, 10), "91": (10, 10), "92": (9, 10),
    "93": (9, 9), "94": (9, 9), "95": (7, 10), "98": (10, 10),
}  # fmt: skip

#: Country calling codes of one and two digits (the codes are prefix-free: any other number has a three-digit code;
#: every code of two digits is in the table).
_ONE_DIGIT: Final = frozenset({"1", "7"})
_TWO_DIGITS: Final = frozenset(code for code in NATIONAL_LENGTHS if len(code) == 2)

#: A trunk prefix written in parentheses after the country code (``+44 (0)20 …``): not part of the number.
_TRUNK: Final = re.compile(r"\(0\)")


def country_code(digits: str) -> str:
    """The country calling code that ``digits`` (an international number's digits, without ``+``) begins with."""
    if digits[:1] in _ONE_DIGIT:
        return digits[:1]
    if digits[:2] in _TWO_DIGITS:
        return digits[:2]
    return digits[:3]


def national_length_ok(value: str) -> bool:
    """Whether ``value``, a phone number, has as many digits after its country code as its country's numbers have.
    True for a number without ``+`` and for a country not in :data:`NATIONAL_LENGTHS`."""
    if not value.startswith(("+", "(+")):
        return True
    digits = "".join(c for c in _TRUNK.sub("", value) if c.isdigit())
    code = country_code(digits)
    lengths = NATIONAL_LENGTHS.get(code)
    if lengths is None:
        return True
    return lengths[0] <= len(digits) - len(code) <= lengths[1]
