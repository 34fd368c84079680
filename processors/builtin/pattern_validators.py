"""Validators of candidate matches: checksums and plausibility rules a regex alone cannot express.

A regex hit whose validator says False is not a match (:data:`processors.builtin.patterns.VALIDATORS`): card
numbers need Luhn plus an issuing network's prefix and length, IBANs their country's length and mod-97, Bitcoin
addresses base58check or bech32, phones a plausible digit count that is no date or IP, secrets a value that is no
placeholder or code. Kept apart from the pattern table so each rule can be read and tested alone.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from collections.abc import Iterable
from typing import Final

__all__ = [
    "CARD_NETWORKS",
    "WIDE_TO_ASCII",
    "btc_address_ok",
    "card_issuer_ok",
    "card_network",
    "card_ok",
    "fold_wide",
    "iban_ok",
    "ip_ok",
    "luhn_ok",
    "phone_in_context",
    "phone_ok",
    "range_then_number",
    "reference_before",
    "secret_value_ok",
    "ssn_ok",
]


def luhn_ok(value: str) -> bool:
    """The Luhn checksum of a card number (spaces and dashes ignored); 13 to 19 digits, not all the same digit."""
    digits = [int(c) for c in value if c.isdigit()]
    if not 13 <= len(digits) <= 19 or len(set(digits)) == 1:
        return False
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


#: IBAN length per country (ISO 13616 registry). A country not listed is checked by mod-97 alone.
IBAN_LENGTHS: Final[dict[str, int]] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
    "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
    "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
    "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip


def iban_ok(value: str) -> bool:
    """ISO 13616: country code, length for that country, and the mod-97 check (spaces ignored)."""
    iban = value.replace(" ", "").upper()
    if not 15 <= len(iban) <= 34 or not iban[:2].isalpha() or not iban[2:4].isdigit() or not iban.isalnum():
        return False
    expected = IBAN_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        return False
    rearranged = iban[4:] + iban[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return int(number) % 97 == 1


_B58_ALPHABET: Final = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX: Final = {c: i for i, c in enumerate(_B58_ALPHABET)}
_BECH32_CHARSET: Final = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech32_polymod(values: Iterable[int]) -> int:
    generator = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            checksum ^= generator[i] if (top >> i) & 1 else 0
    return checksum


def btc_address_ok(value: str) -> bool:
    """A Bitcoin address with a valid checksum: base58check (``1…``/``3…``) or bech32/bech32m (``bc1…``)."""
    if value[:3].lower() == "bc1":
        address = value.lower()
        if value != address and value != value.upper():
            return False
        data = [_BECH32_CHARSET.find(c) for c in address[3:]]
        if -1 in data or len(data) < 7:
            return False
        hrp = [ord(c) >> 5 for c in "bc"] + [0] + [ord(c) & 31 for c in "bc"]
        return _bech32_polymod(hrp + data) in (1, 0x2BC830A3)  # bech32, bech32m
    number = 0
    for char in value:
        index = _B58_INDEX.get(char)
        if index is None:
            return False
        number = number * 58 + index
    raw = number.to_bytes(25, "big") if number.bit_length() <= 200 else b""
    if len(raw) != 25 or raw[0] not in (0x00, 0x05):
        return False
    payload, checksum = raw[:-4], raw[-4:]
    return hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == checksum


def ip_ok(value: str) -> bool:
    """A well-formed IPv4 or IPv6 address (``ipaddress``), excluding the bare unspecified ``::``."""
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return False
    return value != "::" and not (address.version == 6 and value.count(":") < 2)


#: The full-width forms a Chinese or Japanese input method types in full-width mode (digits U+FF10 to U+FF19, and
#: ``+``, ``(``, ``)``, ``-`` in full width) → their ASCII characters, one for one (a text's positions stay the same).
WIDE_TO_ASCII: Final = str.maketrans(
    {**{chr(0xFF10 + d): str(d) for d in range(10)}, "\uff0b": "+", "\uff08": "(", "\uff09": ")", "\uff0d": "-"}
)


def fold_wide(value: str) -> str:
    """``value`` with full-width digits, full-width ``+``, ``(``, ``)`` and ``-`` as ASCII (:data:`WIDE_TO_ASCII`); the
    phone and card validators read a value so, as the shared patterns accept both widths."""
    return value if value.isascii() else value.translate(WIDE_TO_ASCII)


def phone_ok(value: str) -> bool:
    """8 to 15 digits with a ``+`` country code (``(+86) 138 …`` too); else 10 or 11 (a national number with its area
    code), or 12 with the trunk prefix ``0`` (``0755-8888 8888``, ``(0755) 8888 8888``, ``0812-3456-7890``: a national
    number that long keeps it; ``1500 2500 3000`` is no phone number); never a date, an IPv4 address or a range then a
    number (:func:`range_then_number`). The one validator of both guards' phone numbers (RegexFilter's ``pii`` preset
    and PIIDetector read the same ``patterns.PATTERNS["phone"]``). Full-width digits count (:func:`fold_wide`)."""
    value = fold_wide(value)
    digits = sum(map(str.isdigit, value))
    if value.startswith(("+", "(+")):
        if not 8 <= digits <= 15:
            return False
    elif not (10 <= digits <= 11 or (digits == 12 and _TRUNK_AREA.match(value) is not None)):
        return False
    return _DATE_LIKE.fullmatch(value) is None and not ip_ok(value) and not range_then_number(value)


#: Words that make the digit group after them a reference number rather than a phone number or a card (looked for in
#: the few characters before the match, on its line): ``order no. 020 7946 0018``, ``订单号 138-0013-8000``.
REFERENCE_BEFORE: Final = re.compile(
    r"(?i:(?:serial|part|order|tracking|invoice|model|sku|isbn|item|product|ref(?:erence)?|case|ticket)"
    r"\s*(?:no\.?|number|num|#|id)?\s*[:#.]?\s*"
    r"|(?:订单|訂單|单号|單號|编号|編號|型号|型號|序列号|序號|发票|發票|条码|條碼|快递|快遞|物流|工号|工號)"
    r"(?:号|號|码|碼)?\s*[:：]?\s*)$"
)
#: How many characters before a value :func:`reference_before` reads.
REFERENCE_REACH: Final = 24


def reference_before(text: str, start: int) -> bool:
    """Whether :data:`REFERENCE_BEFORE` ends right before ``text[start]`` (within :data:`REFERENCE_REACH` characters of
    the same line): the number there is a reference (``order no. 020 7946 0018``), not a phone number. Both guards ask
    it of a phone number written without its ``+`` country code; PIIDetector of a card number too."""
    before = text[max(0, start - REFERENCE_REACH) : start].rpartition("\n")[2]
    return REFERENCE_BEFORE.search(before) is not None


def phone_in_context(text: str, start: int, value: str) -> bool:
    """Whether ``value``, a phone number :func:`phone_ok` accepts, is one where it stands (``text[start:]``): a number
    with its ``+`` country code always; else not after a reference word (:func:`reference_before`), and not when it
    has twelve digits and continues a run of groups of four digits or more (``ID 7301 0201 4567 8912``: the trunk
    prefix ``0`` that lets twelve national digits be a phone number is then more likely a group of an identifier; a
    count before a number is no such group: ``3 0755-8888 8888``, ``3 020 7946 0018``). What both guards ask of each
    phone number they find (PIIDetector's ``pii_patterns._keep``, RegexFilter's ``regex_rules``), so that they read
    the words and groups before it alike."""
    value = fold_wide(value)
    if value.startswith(("+", "(+")):
        return True
    if reference_before(text, start):
        return False
    if start < 5 or sum(map(str.isdigit, value)) != 12:
        return True
    return _GROUP_BEFORE.fullmatch(fold_wide(text[start - 5 : start])) is None


#: A group of four digits or more and a separator, right before a number (checked on the five characters before it).
_GROUP_BEFORE: Final = re.compile(r"\d{4}[ ._-]")


#: A range, then a number: a hyphen joins the first two groups and a space parts the third (``1500-2500 3000``); not
#: a North American number's shape (valid area and exchange codes, then four digits: ``415-555 2671``).
_RANGE_THEN_NUMBER: Final = re.compile(r"(?![2-9]\d\d-[2-9]\d\d \d{4}$)[1-9]\d*-\d+ \d+")


def range_then_number(value: str) -> bool:
    """Whether ``value``, a phone number's shape, reads as a range and a quantity (``1500-2500 3000 units``): a phone
    number parts its area code from the rest and joins the groups of its subscriber number (``020 7946-0018``, ``0800
    123-4567``), never the other way round, unless the area code keeps its trunk prefix ``0`` (``010-6552 9988``,
    ``030-1234 5678``: written so in China and Germany), or it has a North American number's shape (``415-555 2671``:
    a leak costs more than masking a rare range of three-digit numbers)."""
    return _RANGE_THEN_NUMBER.fullmatch(value) is not None


#: A national number's trunk prefix ``0`` and its area code, which never begins with ``0`` (``0001 0002 0003``: a list).
_TRUNK_AREA: Final = re.compile(r"\(?0[1-9]")
_DATE_LIKE: Final = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")


def ssn_ok(value: str) -> bool:
    """Issued SSNs: no area 000, 666 or 9xx, no group 00, no serial 0000."""
    digits = value.replace("-", "")
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


#: Card networks: (name, prefix ranges, valid lengths) — the one issuer table of the house: RegexFilter's ``pii``
#: preset (:func:`card_ok`) and PIIDetector (:func:`card_issuer_ok`) both read it. A Luhn-valid number outside it (an
#: IMEI) is no card.
CARD_NETWORKS: Final = (
    ("visa", ((4, 4),), (13, 16, 19)),
    ("mastercard", ((51, 55), (2221, 2720)), (16,)),
    ("amex", ((34, 34), (37, 37)), (15,)),
    ("discover", ((6011, 6011), (644, 649), (65, 65), (622126, 622925)), (16, 17, 18, 19)),
    ("diners", ((300, 305), (36, 36), (38, 39)), (14, 15, 16, 17, 18, 19)),
    ("jcb", ((3528, 3589),), (16, 17, 18, 19)),
    ("unionpay", ((62, 62), (81, 81)), (16, 17, 18, 19)),
    ("maestro", ((50, 50), (56, 69)), (12, 13, 14, 15, 16, 17, 18, 19)),
    ("mir", ((2200, 2204),), (16, 17, 18, 19)),
)


def card_network(value: str) -> str | None:
    """The network whose prefix (IIN) and length the number has (``"mir"``, ``"unionpay"`` ...), or None; the
    checksum is not looked at (:func:`card_ok` does both)."""
    digits = "".join(c for c in value if c.isdigit())
    for name, ranges, lengths in CARD_NETWORKS:
        if len(digits) in lengths:
            for low, high in ranges:
                width = len(str(low))
                if low <= int(digits[:width]) <= high:
                    return name
    return None


def card_issuer_ok(value: str) -> bool:
    """Whether some card network issues numbers with this prefix and length."""
    return card_network(value) is not None


def card_ok(value: str) -> bool:
    """A payment card number: Luhn, and a length and prefix some card network issues."""
    digits = "".join(c for c in fold_wide(value) if c.isdigit())
    return luhn_ok(digits) and card_issuer_ok(digits)


_PLACEHOLDER: Final = re.compile(r"(?i)^(?:[A-Z0-9]*_)+[A-Z0-9]*$|your|example|placeholder|changeme|dummy|redacted")
_CODE_LIKE: Final = re.compile(r"[()\[\]{}<>$]|^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def secret_value_ok(value: str) -> bool:
    """Whether the secret part of a match looks like a real secret rather than a placeholder or code:
    ``YOUR_API_KEY_HERE``, ``${DB_PASSWORD}``, ``os.environ[...]``, ``xxxxxxxx`` are not."""
    tail = re.split(r"[:=]\s*[\"']?|_live_|_test_", value, maxsplit=1)[-1].strip("\"' ")
    if len(tail) < 8 or _CODE_LIKE.search(tail) or len(set(tail.lower())) <= 3:
        return False
    return not (tail.islower() and tail.isalpha()) and not _PLACEHOLDER.search(tail)
