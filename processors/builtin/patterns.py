"""Shared detection patterns: compiled regexes and validators for PII, secrets, URLs and wallets.

Every built-in that looks for sensitive data (``RegexFilter``'s presets, ``PIIDetector``'s regex stage and its
stream path) uses this one table, so a pattern fixed here is fixed everywhere::

    from processors.builtin.patterns import find_all

    find_all("mail jo@example.com or call +1 415 555 2671", ["email", "phone"])
    # [Match(kind='email', start=5, end=19, value='jo@example.com'),
    #  Match(kind='phone', start=28, end=43, value='+1 415 555 2671')]

API
    ``PATTERNS``    kind → compiled pattern (fine-grained kinds such as ``"aws-access-key"``)
    ``VALIDATORS``  kind → ``(value) -> bool``; a regex hit whose validator says False is not a match
                    (Luhn for cards, mod-97 for IBANs, base58check/bech32 for Bitcoin, ``ipaddress`` for IPs)
    ``GROUPS``      a category name → its kinds: Mastra's PII detection types (``"api-key"``, ``"ip-address"``,
                    ``"crypto-wallet"`` ...) and RegexFilter's presets (``"pii"``, ``"secrets"``, ``"urls"``)
    ``CATEGORY``    kind → the Mastra detection type it belongs to (``"github-token"`` → ``"api-key"``)
    ``find_all(text, kinds=None, *, overlapping=False) -> list[Match]``
    ``resolve_overlaps(matches) -> list[Match]``   longest match wins; ties go to the kind listed first
    ``expand_kinds(kinds) -> tuple[str, ...]``       group names expanded, unknown names refused (``KeyError``)
    ``luhn_ok``, ``iban_ok``, ``btc_address_ok``, ``ip_ok``                   the validators, usable on their own

Speed: each kind has a cheap *needle* test (a substring or a one-character class that every match must contain)
run before its regex, so prose without digits, ``@`` or key prefixes costs a few C-level ``in`` checks. Patterns
are anchored on token boundaries with look-behinds, so a failed attempt stops at once instead of rescanning a
word. Every match fits in :data:`MAX_BOUNDED_MATCH` characters except URLs, JWTs and private-key blocks, whose
partial text already matches (a URL prefix is a URL), which is what stream carry-over buffers rely on.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

__all__ = [
    "CATEGORY",
    "GROUPS",
    "MAX_BOUNDED_MATCH",
    "PATTERNS",
    "VALIDATORS",
    "Match",
    "btc_address_ok",
    "expand_kinds",
    "find_all",
    "iban_ok",
    "ip_ok",
    "luhn_ok",
    "resolve_overlaps",
]


@dataclass(frozen=True, slots=True)
class Match:
    """One detection: which kind, where (``text[start:end] == value``), and what."""

    kind: str
    start: int
    end: int
    value: str

    @property
    def category(self) -> str:
        """The Mastra detection type of this kind (``"aws-access-key"`` → ``"api-key"``)."""
        return CATEGORY.get(self.kind, self.kind)

    def __len__(self) -> int:
        return self.end - self.start


# --------------------------------------------------------------------------------------------- validators
def luhn_ok(value: str) -> bool:
    """The Luhn checksum of a card number (spaces and dashes ignored); 13–19 digits, not all the same digit."""
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


def _phone_ok(value: str) -> bool:
    digits = sum(c.isdigit() for c in value)
    if not 7 <= digits <= 15:
        return False
    # ISO dates and times are not phone numbers.
    return _DATE_LIKE.fullmatch(value) is None


_DATE_LIKE: Final = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")


def _ssn_ok(value: str) -> bool:
    area, group, serial = value.split("-")
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


# --------------------------------------------------------------------------------------------- patterns
# ``_TB`` / ``_TA``: "not inside a longer token" on the left / right.
_HEX = "0-9A-Fa-f"

#: Needle groups: every group must be satisfied, a group by any one of its substrings. ``_DIGIT`` means "some
#: digit"; a kind in ``_CASELESS_NEEDLES`` is tested against the lower-cased text.
_DIGIT: Final = tuple("0123456789")

#: kind → (pattern source, needle groups). Order matters: on a tie in length the kind listed first wins.
#: Patterns start with a consuming character class and check the character before it with a fixed-width
#: look-behind (``X(?<![\w].)``), so the regex engine can skip to candidate characters quickly.
_DEFS: Final[dict[str, tuple[str, tuple[tuple[str, ...], ...]]]] = {
    # ---- secrets
    "private-key": (
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*\Z)",
        (("-----BEGIN",),),
    ),
    "anthropic-key": (r"sk-ant-(?<![\w-]sk-ant-)(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}", (("sk-ant-",),)),
    "openai-key": (r"sk-(?<![\w-]sk-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}", (("sk-",),)),
    "aws-access-key": (r"A(?<![A-Za-z0-9]A)(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
                       (("AKIA", "ASIA", "ABIA", "ACCA"),)),
    "aws-secret-key": (
        r"(?i:aws_?secret_?access_?key|aws_?secret)[\"']?\s*[:=]\s*[\"']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
        (("aws_secret", "awssecret"),),
    ),
    "github-token": (r"g(?<![\w]g)(?:h[pousr]_[A-Za-z0-9]{36,255}|ithub_pat_[A-Za-z0-9_]{22,255})(?![\w])",
                     (("gh", "github_pat_"),)),
    "slack-token": (r"x(?<![\w-]x)ox[abposre]-(?:\d+-)?[A-Za-z0-9-]{10,}", (("xox",),)),
    "google-api-key": (r"A(?<![\w-]A)Iza[0-9A-Za-z_-]{35}(?![\w-])", (("AIza",),)),
    "stripe-key": (r"[srp](?<![\w].)k_(?:live|test)_[0-9A-Za-z]{16,}", (("_live_", "_test_"),)),
    "jwt": (r"e(?<![\w-]e)yJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*", (("eyJ",),)),
    "bearer-token": (r"B(?<![\w]B)earer\s+[A-Za-z0-9._~+/-]{16,}=*", (("Bearer",),)),
    "secret-assignment": (
        r"(?i:\b(?:api[_-]?key|api[_-]?secret|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token|"
        r"auth[_-]?token|password|passwd|pwd))[\"']?\s*[:=]\s*[\"']?[^\s\"',;]{8,}",
        (("key", "secret", "token", "pass", "pwd"), ("=", ":")),
    ),
    # ---- PII
    "email": (
        r"[A-Za-z0-9._%+-](?<![A-Za-z0-9._%+-].)[A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
        r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])",
        (("@",),),
    ),
    "credit-card": (r"\d(?<![\d-]\d)(?:[ -]?\d){12,18}(?!\d)", (_DIGIT,)),
    "iban": (r"[A-Z](?<![A-Za-z0-9].)[A-Z]\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])",
             (_DIGIT,)),
    "ssn": (r"\d(?<![\d-]\d)\d\d-\d\d-\d{4}(?![\d-])", (_DIGIT, ("-",))),
    "phone": (
        r"(?:\+(?<![\w+].)\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?|\d{1,4}[ .-])|\((?<![\w+].)\d{1,4}\)[ .-]?"
        r"|\d(?<![\w+]\d)\d{0,3}[ .-])(?:\d{2,4}[ .-]){1,3}\d{2,4}(?!\w)"
        r"|\+(?<![\w+].)\d{7,15}(?!\w)",
        (_DIGIT,),
    ),
    "ipv4": (r"\d(?<![\d.]\d)\d{0,2}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\d|\.\d)", (_DIGIT, (".",))),
    "ipv6": (
        r"[0-9A-Fa-f:](?<![\w:].)[0-9A-Fa-f:]*:[0-9A-Fa-f:]*(?:\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})?(?![\w:])",
        ((":",),),
    ),
    "uuid": (
        rf"[{_HEX}](?<![{_HEX}-].)[{_HEX}]{{7}}-[{_HEX}]{{4}}-[1-8][{_HEX}]{{3}}-[89abAB][{_HEX}]{{3}}-[{_HEX}]{{12}}"
        rf"(?![{_HEX}-])",
        (("-",),),
    ),
    "btc-address": (
        r"[13](?<![A-Za-z0-9].)[a-km-zA-HJ-NP-Z1-9]{25,34}(?![A-Za-z0-9])"
        r"|b(?<![A-Za-z0-9]b)c1[ac-hj-np-z02-9]{11,71}(?![A-Za-z0-9])|B(?<![A-Za-z0-9]B)C1[AC-HJ-NP-Z02-9]{11,71}"
        r"(?![A-Za-z0-9])",
        (("1", "3"),),
    ),
    "eth-address": (r"0(?<![\w]0)x[0-9a-fA-F]{40}(?![\w])", (("0x",),)),
    # ---- URLs
    "url": (
        r"[hfw](?<![\w@].)(?:(?<=h)ttps?://|(?<=f)tp://|(?<=w)ww\.)[^\s<>\"'`{}|\\^\[\]]+(?<![.,;:!?)'\"])",
        (("://", "www."),),
    ),
}

_CASELESS_NEEDLES: Final = frozenset({"aws-secret-key", "secret-assignment"})

PATTERNS: Final[dict[str, re.Pattern[str]]] = {kind: re.compile(source) for kind, (source, _) in _DEFS.items()}

VALIDATORS: Final[dict[str, Callable[[str], bool]]] = {
    "credit-card": luhn_ok,
    "iban": iban_ok,
    "ssn": _ssn_ok,
    "phone": _phone_ok,
    "ipv4": ip_ok,
    "ipv6": ip_ok,
    "btc-address": btc_address_ok,
}

#: Kinds → Mastra's PII detection types (``PIIDetector.detectionTypes``). Kinds not listed are their own type.
CATEGORY: Final[dict[str, str]] = {
    "ipv4": "ip-address",
    "ipv6": "ip-address",
    "btc-address": "crypto-wallet",
    "eth-address": "crypto-wallet",
    **{
        kind: "api-key"
        for kind in (
            "openai-key", "anthropic-key", "aws-access-key", "aws-secret-key", "github-token", "slack-token",
            "google-api-key", "stripe-key", "jwt", "bearer-token", "secret-assignment", "private-key",
        )
    },
}

_SECRET_KINDS: Final = (
    "private-key", "anthropic-key", "openai-key", "aws-access-key", "aws-secret-key", "github-token", "slack-token",
    "google-api-key", "stripe-key", "jwt", "bearer-token", "secret-assignment",
)

#: Category and preset names → kinds. ``find_all`` accepts these names anywhere it accepts kinds.
GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "ip-address": ("ipv4", "ipv6"),
    "crypto-wallet": ("btc-address", "eth-address"),
    "api-key": _SECRET_KINDS,
    "pii": ("email", "phone", "credit-card", "ssn", "iban", "ipv4", "ipv6"),
    "secrets": _SECRET_KINDS,
    "urls": ("url",),
}

#: Longest span any kind but ``url``, ``jwt``, ``bearer-token``, ``secret-assignment`` and ``private-key``
#: can match; for those the text matched so far is itself a match, so a carry-over buffer sees them grow.
MAX_BOUNDED_MATCH: Final = 100

_NEEDLES: Final[dict[str, tuple[tuple[str, ...], ...]]] = {kind: needle for kind, (_, needle) in _DEFS.items()}
_ORDER: Final[dict[str, int]] = {kind: index for index, kind in enumerate(_DEFS)}
_SHRINK_AT_SPACES: Final = frozenset({"iban", "credit-card"})


def expand_kinds(kinds: Iterable[str] | None) -> tuple[str, ...]:
    """Kinds and group names → kinds, deduplicated, in table order. ``None`` means every kind."""
    if kinds is None:
        return tuple(_DEFS)
    wanted: set[str] = set()
    for name in kinds:
        if name in GROUPS:
            wanted.update(GROUPS[name])
        elif name in _DEFS:
            wanted.add(name)
        else:
            known = ", ".join([*_DEFS, *GROUPS])
            raise KeyError(f"unknown pattern kind {name!r}; known: {known}")
    return tuple(kind for kind in _DEFS if kind in wanted)


def _group_present(text: str, group: tuple[str, ...], memo: dict[tuple[str, ...], bool]) -> bool:
    present = memo.get(group)
    if present is None:
        present = memo[group] = any(n in text for n in group)
    return present


def _has_needle(text: str, kind: str, memo: dict[tuple[str, ...], bool], lowered: list[str]) -> bool:
    if kind in _CASELESS_NEEDLES:
        if not lowered:
            lowered.append(text.lower())
        return all(any(n in lowered[0] for n in group) for group in _NEEDLES[kind])
    return all(_group_present(text, group, memo) for group in _NEEDLES[kind])


def _validated(kind: str, text: str, start: int, end: int) -> Match | None:
    validator = VALIDATORS.get(kind)
    value = text[start:end]
    if validator is None or validator(value):
        return Match(kind, start, end, value)
    if kind in _SHRINK_AT_SPACES:  # a greedy match may have swallowed the next token: try shorter prefixes
        cut = value.rfind(" ")
        while cut > 0:
            candidate = value[:cut].rstrip(" -.")
            if candidate and validator(candidate):
                return Match(kind, start, start + len(candidate), candidate)
            cut = value.rfind(" ", 0, cut)
    return None


def find_all(text: str, kinds: Iterable[str] | None = None, *, overlapping: bool = False) -> list[Match]:
    """Every validated match of ``kinds`` (kinds or group names; ``None`` = all) in ``text``, by position.

    By default overlapping matches are resolved (:func:`resolve_overlaps`): a card number is not also
    reported as a phone number. ``overlapping=True`` keeps them all. Unknown kinds raise ``KeyError``.
    """
    selected = _KIND_CACHE.get(kinds) if isinstance(kinds, tuple) else None
    if selected is None:
        selected = expand_kinds(kinds)
        if isinstance(kinds, tuple):
            _KIND_CACHE[kinds] = selected
    matches: list[Match] = []
    memo: dict[tuple[str, ...], bool] = {}
    lowered: list[str] = []
    for kind in selected:
        if not _has_needle(text, kind, memo, lowered):
            continue
        for found in PATTERNS[kind].finditer(text):
            start, end = found.span()
            if start == end:
                continue
            match = _validated(kind, text, start, end)
            if match is not None:
                matches.append(match)
    if overlapping or len(matches) < 2:
        return sorted(matches, key=lambda m: m.start) if overlapping else matches
    return resolve_overlaps(matches)


_KIND_CACHE: dict[tuple[str, ...], tuple[str, ...]] = {}


def resolve_overlaps(matches: Iterable[Match]) -> list[Match]:
    """Disjoint matches, in text order: among overlapping ones the longest wins, then the kind listed first."""
    ranked = sorted(matches, key=lambda m: (-(m.end - m.start), _ORDER.get(m.kind, len(_ORDER)), m.start))
    kept: list[Match] = []
    for match in ranked:
        if all(match.end <= other.start or match.start >= other.end for other in kept):
            kept.append(match)
    kept.sort(key=lambda m: m.start)
    return kept
