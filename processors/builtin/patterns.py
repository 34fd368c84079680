"""Shared detection patterns: compiled regexes and validators for PII, secrets, URLs and wallets.

Every built-in that looks for sensitive data (``RegexFilter``'s presets, ``PIIDetector``'s regex stage and its
stream path) uses this one table, so a pattern fixed here is fixed everywhere::

    from processors.builtin.patterns import find_all

    find_all("mail jo@example.com or call +1 415 555 2671", ["email", "phone"])
    # [Match(kind='email', start=5, end=19, value='jo@example.com'),
    #  Match(kind='phone', start=28, end=43, value='+1 415 555 2671')]

API
    ``PATTERNS``    kind → compiled pattern (fine-grained kinds such as ``"aws-access-key"``)
    ``VALIDATORS``  kind → ``(value) -> bool``; a regex hit whose validator says False is not a match (card
                    numbers: Luhn plus an issuing network's prefix and length; IBANs: length per country and
                    mod-97; SSNs: issuable numbers; phones: digit counts, no dates or IPs; Bitcoin:
                    base58check/bech32; IPs: ``ipaddress``; e-mail: no file-extension TLD; secrets assigned in
                    text: no placeholders or code such as ``YOUR_KEY_HERE``, ``${VAR}``, ``os.environ[...]``)
    ``GROUPS``      a category name → its kinds: Mastra's PII detection types (``"api-key"``, ``"ip-address"``,
                    ``"crypto-wallet"`` ...) and RegexFilter's presets (``"pii"``, ``"secrets"``, ``"urls"``)
    ``CATEGORY``    kind → the Mastra detection type it belongs to (``"github-token"`` → ``"api-key"``)
    ``MAX_SPAN``    kind → how many characters a match may need before it is recognisable (:func:`max_span`)
    ``find_all(text, kinds=None, *, overlapping=False) -> list[Match]``
    ``resolve_overlaps(matches) -> list[Match]``   longest match wins; ties go to the kind listed first
    ``keep_disjoint(ranked) -> list[Match]``         the greedy pass behind it, for another ranking
    ``accepted_length(kind, value) -> int``         how much of a pattern's candidate its validator accepts
    ``tail_test(kind) -> (text, pos) -> bool``      whether ``text[pos:]`` holds the needles a match needs
    ``needle_characters(kind) -> frozenset[str]``   the characters of those needles
    ``needle_cost(kind) -> (digits, inside)``       whether its needle test is a digit search; whether matches hold it
    ``expand_kinds(kinds) -> tuple[str, ...]``       group names expanded, unknown names refused (``KeyError``)
    ``luhn_ok``, ``card_ok``, ``iban_ok``, ``btc_address_ok``, ``ip_ok``, ``secret_value_ok``: the validators
                    (in :mod:`processors.builtin.pattern_validators`, re-exported here)

Speed: each kind has a cheap *needle* test (a substring, "some digit", or "a run of eight digits and
separators") run before its regex, so prose without digits, ``@`` or key prefixes costs a few C-level ``in``
checks. Patterns start with a character class and check the character before it with a fixed-width
look-behind, so the engine skips ahead quickly and a failed attempt stops at once. Validation results are
remembered (a stream re-scans the same candidates chunk after chunk). :data:`MAX_SPAN` says, per kind, how far
back a match split across stream chunks can start, so carry-over buffers scan only that much.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from processors.builtin.pattern_validators import (
    btc_address_ok,
    card_ok,
    fold_wide,
    iban_ok,
    ip_ok,
    luhn_ok,
    phone_ok,
    secret_value_ok,
    ssn_ok,
)
from processors.builtin.phone_lengths import national_length_ok

__all__ = [
    "ADDRESS_LETTERS",
    "ANY_DIGIT_GROUP",
    "CATEGORY",
    "DIGIT_RUN_GROUP",
    "GROUPS",
    "GROUP_AFTER",
    "GROUP_AFTER_WIDTH",
    "LOOK_INSIDE",
    "MAX_SPAN",
    "PATTERNS",
    "VALIDATORS",
    "Match",
    "accepted_length",
    "btc_address_ok",
    "card_ok",
    "expand_kinds",
    "find_all",
    "iban_ok",
    "ip_ok",
    "keep_disjoint",
    "luhn_ok",
    "max_span",
    "needle_characters",
    "needle_cost",
    "needle_groups",
    "resolve_overlaps",
    "scan_validated",
    "secret_value_ok",
    "tail_test",
    "with_needles",
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


# --------------------------------------------------------------------------------------------- patterns
_HEX = "0-9A-Fa-f"

#: Needle groups: every group must be satisfied, a group by any one of its substrings. ``_DIGIT`` means "some
#: digit"; a kind in ``_CASELESS_NEEDLES`` is tested against the lower-cased text.
_DIGIT: Final = tuple("0123456789")
#: "A run of at least eight digits and separators": card numbers, IBANs, SSNs and phone numbers all have one.
_DIGIT_RUN: Final = ("<digit run>",)
#: (``\d`` is any decimal digit here, full-width ones too; full-width ``-()``: a full-width number's separators,
#: see :func:`_wide`)
_LONG_DIGIT_RUN: Final = re.compile(r"\d[\d .()/\-\uff0d\uff08\uff09]{6,}\d").search

#: kind → (pattern source, needle groups). Order matters: on a tie in length the kind listed first wins.
#: Patterns start with a consuming character class and check the character before it with a fixed-width
#: look-behind (``X(?<![\w].)``), so the regex engine can skip to candidate characters quickly.
#: Letters besides ASCII that an internationalised e-mail address (RFC 6531 local parts, IDN domains) is written in,
#: as a regex class body: Latin with diacritics, IPA, combining accents, Greek, Cyrillic, Armenian, Hebrew, Arabic,
#: the Indic scripts, Thai, Georgian, Latin and Greek extended (``josé.garcía@correo.es``, ``дмитрий@почта.рф``). Not
#: Chinese, Japanese or Korean: their text runs into an address without a space (``我的邮箱是liuyang171@qq.com``), so
#: their characters end an address. Patterns are compiled with ``re.ASCII``, so ``\w`` does not cover these.
ADDRESS_LETTERS: Final = (
    "\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02af\u0300-\u036f\u0370-\u0373\u0376\u0377\u037b-\u037d\u0386\u0388-\u03ff"
    "\u0400-\u0481\u0483-\u052f\u0531-\u0556\u0561-\u0587\u05d0-\u05ea\u0620-\u064a\u066e-\u06d3\u0900-\u0963"
    "\u0966-\u096f\u0971-\u0dff\u0e01-\u0e4e\u10a0-\u10ff\u1e00-\u1fbc\u1fc2-\u1fcc\u1fd0-\u1fdb\u1fe0-\u1fec"
    "\u1ff2-\u1ffc"
)
_L: Final = ADDRESS_LETTERS

#: What may not stand before the first digit of a national phone number (the look-behinds after it): a letter, a digit,
#: ``+`` or ``.``; a word's ``_`` (``id_4155552671``); a word's ``-`` (``HT-2024-000123`` is an identifier); a ``+``
#: country code and a separator (``+1 415 555 2671+1 415 555 2671``: the second number's groups after its ``+1`` are
#: no number of their own; it shows once the first is replaced). A count before it may (``3 020 7946 0018``).
_NATIONAL_START: Final = (
    r"(?<![A-Za-z0-9+.].)(?<![A-Za-z_]_.)(?<![A-Za-z0-9_]-.)(?<!\+\d[ .-].)(?<!\+\d\d[ .-].)(?<!\+\d\d\d[ .-].)"
)

_DEFS: Final[dict[str, tuple[str, tuple[tuple[str, ...], ...]]]] = {
    # ---- secrets
    "private-key": (
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*\Z)",
        (("-----BEGIN",),),
    ),
    "anthropic-key": (r"sk-ant-(?<![\w-]sk-ant-)(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}", (("sk-ant-",),)),
    "openai-key": (r"sk-(?<![\w-]sk-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}", (("sk-",),)),
    "aws-access-key": (
        r"A(?<![A-Za-z0-9]A)(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
        (("AKIA", "ASIA", "ABIA", "ACCA"),),
    ),
    "aws-secret-key": (
        r"(?i:aws_?secret_?access_?key|aws_?secret)[\"']?\s*[:=]\s*[\"']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
        (("aws_secret", "awssecret"),),
    ),
    "github-token": (
        r"g(?<![\w]g)(?:h[pousr]_[A-Za-z0-9]{36,255}|ithub_pat_[A-Za-z0-9_]{22,255})(?![\w])",
        (("gh", "github_pat_"),),
    ),
    "slack-token": (r"x(?<![\w-]x)ox[abposre]-(?:\d+-)?[A-Za-z0-9-]{10,}", (("xox",),)),
    "google-api-key": (r"A(?<![\w-]A)Iza[0-9A-Za-z_-]{35}(?![\w-])", (("AIza",),)),
    "stripe-key": (r"[sr](?<![\w].)k_(?:live|test)_[0-9A-Za-z]{16,}", (("_live_", "_test_"),)),
    "gitlab-token": (
        r"g(?<![\w-]g)l(?:pat|dt|rt|cbt|ptt|oas)-[A-Za-z0-9_-]{20,}",
        (("glpat-", "gldt-", "glrt-", "glcbt-", "glptt-", "gloas-"),),
    ),
    "slack-webhook": (
        r"h(?<![\w]h)ttps://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/-]{20,}",
        (("hooks.slack.com",),),
    ),
    "huggingface-token": (r"h(?<![\w-]h)f_[A-Za-z0-9]{30,40}(?![A-Za-z0-9])", (("hf_",),)),
    "npm-token": (r"n(?<![\w-]n)pm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", (("npm_",),)),
    "sendgrid-key": (r"S(?<![\w]S)G\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}", (("SG.",),)),
    # every prefix the pattern takes is a needle: with "SK"/"AC" only, an "AK…" key was found only when one of
    # those stood elsewhere in the text (a stream found it or not depending on where it was cut)
    "twilio-key": (r"[SA](?<![\w].)[KC][0-9a-fA-F]{32}(?![0-9a-fA-F])", (("SK", "AC", "SC", "AK"),)),
    # Recognisable once the payload starts (``header.eyJ``), so a stream guard holds a long token whole: a
    # pattern that needed the signature's dot first let a token longer than the hold-back window stream out.
    "jwt": (r"e(?<![\w-]e)yJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?", (("eyJ",),)),
    "bearer-token": (r"B(?<![\w]B)earer\s+[A-Za-z0-9._~+/-]{16,}=*", (("Bearer",),)),
    "secret-assignment": (
        # The keyword starts the match (a prefix such as ``DATABASE_`` stays): its first letter is a plain class
        # so the engine can skip ahead, the rest is checked with look-behinds.
        r"[AaSsCcPpTt](?<![A-Za-z0-9].)(?i:(?<=a)pi[_-]?key|(?<=a)pi[_-]?secret|(?<=a)pikey|(?<=s)ecret[_-]?key|"
        r"(?<=c)lient[_-]?secret|(?<=a)ccess[_-]?token|(?<=a)uth[_-]?token|(?<=p)assword|(?<=p)asswd|(?<=p)wd|"
        r"(?<=t)oken|(?<=s)ecret)[\"']?\s*[:=]\s*[\"']?[^\s\"',;]{8,}",
        (("key", "secret", "token", "pass", "pwd"), ("=", ":")),
    ),
    # ---- PII
    "email": (
        # RFC 6531 local parts and IDN domains: ASCII or ADDRESS_LETTERS; a top-level domain in ASCII, in its
        # punycode form (``xn--p1ai``) or in letters (``рф``).
        # an apostrophe before the address is a quote ('jo@example.com'), unless a local part's character stands
        # before it (o'brien@example.com is one address, not brien@example.com)
        rf"[A-Za-z0-9._%+{_L}-](?<![A-Za-z0-9._%+{_L}-].)(?<![A-Za-z0-9._%+'{_L}-]'.)[A-Za-z0-9._%+'{_L}-]*@[A-Za-z0-9{_L}]"
        rf"(?:[A-Za-z0-9{_L}-]*[A-Za-z0-9{_L}])?(?:\.[A-Za-z0-9{_L}](?:[A-Za-z0-9{_L}-]*[A-Za-z0-9{_L}])?)*"
        rf"\.(?:[A-Za-z]{{2,24}}|xn--[A-Za-z0-9-]{{1,59}}|[{_L}]{{2,24}})(?![A-Za-z0-9{_L}-])",
        (("@",),),
    ),
    # an underscore between two numbers parts them (``5678_4111 …``), one after a letter joins a word (``id_4111``)
    "credit-card": (r"\d(?<![A-Za-z0-9-]\d)(?<![A-Za-z_]_\d)(?:[ -]?\d){11,18}(?!\d)", (_DIGIT_RUN,)),
    "iban": (
        r"[A-Z](?<![A-Za-z0-9].)[A-Z]\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])",
        (_DIGIT_RUN,),
    ),
    "ssn": (
        r"\d(?<![\d-]\d)\d\d-\d\d-\d{4}(?![\d-])"
        r"|\d(?:(?<=(?i:ssn) \d)|(?<=(?i:ssn): \d)|(?<=(?i:ssn)#\d)|(?<=(?i:ssn) #\d)|(?<=(?i:ssn)\xa0\d))\d{8}(?!\d)",
        (_DIGIT_RUN,),
    ),
    "ipv4": (r"\d(?<![\w.]\d)\d{0,2}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\d|\.\d)", (_DIGIT, (".",))),
    # The one phone pattern of both guards (RegexFilter's ``pii`` preset and PIIDetector), validated by
    # ``pattern_validators.phone_ok`` and ``phone_lengths``; PIIDetector and RegexFilter both drop a number without
    # its ``+`` country code after a reference word (``pattern_validators.reference_before``).
    "phone": (
        # international: +CC, or (+CC), then groups (a group in parentheses allowed; a mobile's 11 digits in one)
        # (an underscore and a digit after a number part it from the next one: ``+86 138 1234 5678_4111 …``)
        r"(?:\+(?<![\w+].)\d{1,3}|\((?<![\w+].)\+\d{1,3}\)(?=[ .-]?\d))"
        r"(?:[ .-]?\(\d{1,4}\)[ .-]?\d{1,11}|[ .-]\d{1,11}){1,6}(?![A-Za-z0-9-]|_(?!\d))"
        # E.164 without separators (``(+86)13812345678`` too)
        r"|(?:\+(?<![\w+].)|\((?<![\w+].)\+\d{1,3}\))\d{7,15}(?![A-Za-z0-9]|_(?!\d))"
        # national with an area code: (415) 555-2671, 415-555-2671, 020 7946 0018, 0755-8888 8888
        rf"|(?:\((?<![\w+].)\d{{2,4}}\)[ .-]?|\d{_NATIONAL_START}\d{{1,4}}[ .-])\d{{3,4}}[ .-]?\d{{3,4}}"
        r"(?![A-Za-z0-9-]|\.\d|_(?!\d))"
        # written without separators: a mainland China mobile (13812345678), a Taiwan mobile (0912345678), a North
        # American number whose area and exchange codes are valid (4155552671)
        rf"|(?:1{_NATIONAL_START}[3-9]\d{{9}}|0{_NATIONAL_START}9\d{{8}}|[2-9]{_NATIONAL_START}\d{{2}}[2-9]\d{{6}})"
        r"(?![A-Za-z0-9-]|\.\d|_(?!\d))"
        # North America with its trunk 1: 1-800-555-0199, 1 (800) 555-0142, 18005550199
        rf"|1{_NATIONAL_START}[ .-]?(?:\([2-9]\d{{2}}\)[ .-]?|[2-9]\d{{2}}[ .-]?)[2-9]\d{{2}}[ .-]?\d{{4}}"
        r"(?![A-Za-z0-9-]|\.\d|_(?!\d))",
        (_DIGIT_RUN,),
    ),
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

#: Full-width forms (Chinese and Japanese input methods in full-width mode) → the ASCII characters they stand for.
_WIDE: Final = {
    **{str(d): chr(0xFF10 + d) for d in range(10)},
    "+": "\uff0b",
    "(": "\uff08",
    ")": "\uff09",
    "-": "\uff0d",
}


def _wide(source: str) -> str:
    """``source``, a pattern of digits and ``+ ( ) -``, reading their full-width forms too (``020 7946 0018`` typed in
    full-width digits): each such character, ``\\d`` and digit range stands for both widths, in a character class or
    out of one, so the pattern keeps its shape (one character class where one character was; look-behinds keep their
    width) and a value may mix the widths. Quantifiers (``{1,3}``) and group syntax (``(?<!``) stay as they are."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\":
            escaped = source[i + 1]
            i += 2
            if escaped == "d":
                out.append("0-9\uff10-\uff19" if in_class else "[0-9\uff10-\uff19]")
            elif escaped in _WIDE:
                out.append(f"\\{escaped}{_WIDE[escaped]}" if in_class else f"[\\{escaped}{_WIDE[escaped]}]")
            else:
                out.append("\\" + escaped)
            continue
        if in_class:
            if char == "]":
                in_class = False
                out.append(char)
            elif char.isdigit() and source[i + 1 : i + 2] == "-" and source[i + 2 : i + 3].isdigit():
                low, high = char, source[i + 2]
                out.append(f"{low}-{high}{_WIDE[low]}-{_WIDE[high]}")
                i += 3
                continue
            elif char in _WIDE and char != "-":
                out.append(char + _WIDE[char])
            elif char == "-" and source[i + 1] == "]":  # a literal hyphen ends the class
                out.append("\\-" + _WIDE["-"])
            else:
                out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
        elif char == "{":  # a quantifier: copied whole
            end = source.index("}", i)
            out.append(source[i : end + 1])
            i = end + 1
            continue
        elif char.isdigit() or char == "-":
            out.append(f"[\\{char}{_WIDE[char]}]" if char == "-" else f"[{char}{_WIDE[char]}]")
        else:
            out.append(char)
        i += 1
    return "".join(out)


#: The full-width digits, which the digit needles (a Unicode ``\\d``) find as well.
_WIDE_DIGITS: Final = "".join(_WIDE[digit] for digit in "0123456789")
_CASELESS_NEEDLES: Final = frozenset({"aws-secret-key", "secret-assignment"})
#: Kinds whose patterns read full-width digits (:func:`_wide`).
_WIDE_KINDS: Final = frozenset({"phone", "credit-card"})
#: File extensions that are no top-level domain: ``logo@2x.png`` is an asset name, not an address.
_FILE_EXTENSIONS: Final = frozenset(
    ("png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "pdf", "css", "js", "json", "txt", "html", "xml")
)

#: Compiled with re.ASCII: ``\w`` in the look-arounds means an ASCII word character, so a value right after a CJK
#: character (a letter to Python) is found: ``银行卡号是6222026825296100``.
#: Phone and card numbers are read in full-width digits too (:func:`_wide`), as both guards' stream hold-back does
#: (``stream_window``); their validators fold the widths (``pattern_validators.fold_wide``).
PATTERNS: Final[dict[str, re.Pattern[str]]] = {
    kind: re.compile(_wide(source) if kind in _WIDE_KINDS else source, re.ASCII) for kind, (source, _) in _DEFS.items()
}

VALIDATORS: Final[dict[str, Callable[[str], bool]]] = {
    "email": lambda value: value.rpartition(".")[2].lower() not in _FILE_EXTENSIONS,
    "credit-card": card_ok,
    "stripe-key": secret_value_ok,
    "secret-assignment": secret_value_ok,
    "iban": iban_ok,
    "ssn": ssn_ok,
    "phone": lambda value: phone_ok(value) and national_length_ok(fold_wide(value)),
    "ipv4": ip_ok,
    "ipv6": ip_ok,
    "btc-address": btc_address_ok,
}

#: The secret kinds: the ``api-key`` PII type and the ``secrets`` / ``api-key`` groups.
_SECRET_KINDS: Final = (
    "private-key",
    "anthropic-key",
    "openai-key",
    "aws-access-key",
    "aws-secret-key",
    "github-token",
    "slack-token",
    "google-api-key",
    "stripe-key",
    "gitlab-token",
    "slack-webhook",
    "huggingface-token",
    "npm-token",
    "sendgrid-key",
    "twilio-key",
    "jwt",
    "bearer-token",
    "secret-assignment",
)

#: Kinds → Mastra's PII detection types (``PIIDetector.detectionTypes``). Kinds not listed are their own type.
CATEGORY: Final[dict[str, str]] = {
    "ipv4": "ip-address",
    "ipv6": "ip-address",
    "btc-address": "crypto-wallet",
    "eth-address": "crypto-wallet",
    **{kind: "api-key" for kind in _SECRET_KINDS},
}

#: Category and preset names → kinds. ``find_all`` accepts these names anywhere it accepts kinds.
GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "ip-address": ("ipv4", "ipv6"),
    "crypto-wallet": ("btc-address", "eth-address"),
    "api-key": _SECRET_KINDS,
    "pii": ("email", "phone", "credit-card", "ssn", "iban", "ipv4", "ipv6"),
    "secrets": _SECRET_KINDS,
    "urls": ("url",),
}

#: For each kind, how many characters a match may need before it is recognisable: a longer match either
#: cannot exist (the pattern is bounded) or its prefix of this length already matches (a URL, an e-mail address
#: once it has ``@`` and a domain, a key once past its minimum length, an unterminated private-key block).
#: Stream carry-over buffers use it (:func:`max_span`) to scan only what a split match can span.
MAX_SPAN: Final[dict[str, int]] = {
    "private-key": 64, "anthropic-key": 40, "openai-key": 40, "aws-access-key": 24, "aws-secret-key": 80,
    "github-token": 48, "slack-token": 24, "google-api-key": 44, "stripe-key": 32, "gitlab-token": 32,
    "slack-webhook": 64, "huggingface-token": 48, "npm-token": 48, "sendgrid-key": 72, "twilio-key": 40,
    "jwt": 80, "bearer-token": 28,
    "secret-assignment": 40, "email": 64, "credit-card": 40, "iban": 48, "ssn": 16, "phone": 36, "ipv4": 20,
    "ipv6": 48, "uuid": 40, "btc-address": 80, "eth-address": 48, "url": 16,
}  # fmt: skip


def max_span(kinds: Iterable[str] | None = None) -> int:
    """The largest :data:`MAX_SPAN` of ``kinds`` (kinds or group names; ``None`` = all)."""
    return max((MAX_SPAN[kind] for kind in expand_kinds(kinds)), default=0)


_NEEDLES: Final[dict[str, tuple[tuple[str, ...], ...]]] = {kind: needle for kind, (_, needle) in _DEFS.items()}
_ORDER: Final[dict[str, int]] = {kind: index for index, kind in enumerate(_DEFS)}
#: Kinds a greedy candidate of which may have swallowed the next value, and the separators their groups are joined
#: by: a refused candidate's longest valid prefix (cut at a group boundary) is the match (#25: ``+33 1 42 68 53 00
#: 020 7946 0018`` runs on into the next number; its first six groups are one).
_SHRINK_AT: Final[dict[str, str]] = {"iban": " ", "credit-card": " ", "phone": " .-"}
#: The fewest characters a valid match of a shrinking kind has (a card's 12 digits, a phone number's 8).
_SHORTEST: Final = {"credit-card": 12, "phone": 8, "iban": 15}
#: Kinds a candidate of which no prefix is valid for is still a match by this looser check: a country's length
#: (``phone_lengths``) cuts a number that ran on into the next token (``+1 415 555 2671 2 times``: a +1 number has ten
#: digits, so the ``2`` is no part of it), it never unmasks one no cut fits: ``+48 22 653 00-020`` (ten digits, a
#: Polish number has nine) or ``+86 138 1234`` are phone numbers written oddly, and PIIDetector masks them too.
_WHOLE: Final[dict[str, Callable[[str], bool]]] = {"phone": phone_ok}
#: Kinds whose refused candidate is looked into again: the scan goes on from the candidate's next group (or after
#: its valid prefix), not from its end, so that a value inside it is found (#25: ``+1 415 555 2671 4111 1111 1111
#: 1111``: the card pattern's candidate begins at the country code's ``1`` and hides the card).
LOOK_INSIDE: Final = frozenset({"phone", "credit-card"})
#: The next group inside a candidate: a digit, ``(`` or ``+`` after a character that is none of them.
_NEXT_GROUP: Final = re.compile(r"(?<=[^\d+(])[\d(+]").search
#: Another group of digits right after a match (one separator between): the match does not end its run.
GROUP_AFTER: Final = re.compile(r"[ ._-][(+]?\d").match
_GROUP_AFTER: Final = GROUP_AFTER
#: How many characters after a match :data:`GROUP_AFTER` reads (a stream settles a match only once they came).
GROUP_AFTER_WIDTH: Final = 3


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


def accepted_length(kind: str, value: str) -> int:
    """How much of ``value``, a candidate ``PATTERNS[kind]`` matched, is a match of the kind once validated: all of
    it, a prefix (a greedy card number that swallowed the next token), or nothing (-1). Remembered: a stream re-scans
    the same candidates chunk after chunk."""
    key = (kind, value)
    accepted = _ACCEPTED.get(key)
    if accepted is None:
        accepted = _accepted_length(kind, value)
        if len(_ACCEPTED) >= 4096:
            _ACCEPTED.clear()
        _ACCEPTED[key] = accepted
    return accepted


_ACCEPTED: dict[tuple[str, str], int] = {}


def _accepted_length(kind: str, value: str) -> int:
    """How much of a regex candidate its validator accepts: all of it, a prefix, or nothing (-1)."""
    validator = VALIDATORS.get(kind)
    if validator is None or validator(value):
        return len(value)
    separators = _SHRINK_AT.get(kind)
    if separators is not None:  # a greedy match may have swallowed the next token: try shorter prefixes
        cut = len(value)
        shortest = _SHORTEST.get(kind, 1)
        while True:
            cut = max(value.rfind(separator, 0, cut) for separator in separators)
            if cut < shortest:  # (a prefix has no more digits than characters)
                break
            candidate = value[:cut].rstrip(" -.")
            if candidate and validator(candidate):
                return len(candidate)
    whole = _WHOLE.get(kind)
    if whole is not None and whole(value):
        return len(value)
    return -1


_Step = tuple[str, Callable[[str], Any], tuple[tuple[str, ...], ...], bool, Callable[[str], bool] | None]
_PLANS: dict[Any, tuple[_Step, ...]] = {}
_ANY_DIGIT: Final = re.compile(r"\d").search


def with_needles(text: str, kinds: Iterable[str]) -> list[str]:
    """The kinds of ``kinds`` whose needle test ``text`` passes (what :func:`find_all` checks before running a
    pattern). Every needle lies inside its kind's match, so text without them holds no match of the kind and cannot
    be the new part of one (a stream guard scanning held text behind context it let out tests the held text alone)."""
    lowered: str | None = None
    has_digit: bool | None = None
    has_run: bool | None = None
    passed: list[str] = []
    for kind in kinds:
        for group in _NEEDLES[kind]:
            if group is _DIGIT:
                if has_digit is None:
                    has_digit = _ANY_DIGIT(text) is not None
                if not has_digit:
                    break
            elif group is _DIGIT_RUN:
                if has_run is None:
                    has_run = _LONG_DIGIT_RUN(text) is not None
                if not has_run:
                    break
            else:
                haystack = text
                if kind in _CASELESS_NEEDLES:
                    if lowered is None:
                        lowered = text.lower()
                    haystack = lowered
                for needle in group:
                    if needle in haystack:
                        break
                else:
                    break
        else:
            passed.append(kind)
    return passed


#: Kinds a match of which may lack the kind's needles (an IBAN's digits may be too few in a row for the digit run),
#: with what every match of theirs begins with instead, and that text's characters.
_OWN_TAIL_TESTS: Final[dict[str, tuple[Callable[[str, int], Any], str]]] = {
    "iban": (re.compile(r"[A-Z][A-Z]\d\d").search, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
}


def tail_test(kind: str) -> Callable[[str, int], bool] | None:
    """``test(text, pos)``: False only when no match of ``kind`` can start at ``pos`` or later in ``text``, because
    ``text[pos:]`` lacks the kind's needles, which every match holds (a stream scanning only its new text asks it).
    None for a kind whose needles are tested lower-cased."""
    if kind in _OWN_TAIL_TESTS:
        search = _OWN_TAIL_TESTS[kind][0]
        return lambda text, pos: search(text, pos) is not None
    if kind in _CASELESS_NEEDLES:
        return None
    groups = _NEEDLES[kind]
    if len(groups) == 1 and groups[0] is _DIGIT_RUN:  # the common shapes, without a loop (a stream asks per chunk)
        return lambda text, pos: _LONG_DIGIT_RUN(text, pos) is not None
    if len(groups) == 1 and len(groups[0]) == 1:
        needle = groups[0][0]
        return lambda text, pos: text.find(needle, pos) >= 0

    def test(text: str, pos: int) -> bool:
        for group in groups:
            if group is _DIGIT:
                if _ANY_DIGIT(text, pos) is None:
                    return False
            elif group is _DIGIT_RUN:
                if _LONG_DIGIT_RUN(text, pos) is None:
                    return False
            else:
                for needle in group:
                    if text.find(needle, pos) >= 0:
                        break
                else:
                    return False
        return True

    return test


#: :func:`needle_groups`' stand-ins for "some digit" and "a run of at least eight digits and separators".
ANY_DIGIT_GROUP: Final = _DIGIT
DIGIT_RUN_GROUP: Final = _DIGIT_RUN


def needle_groups(kind: str) -> tuple[bool, tuple[tuple[str, ...], ...]]:
    """``(caseless, groups)``: the needle test :func:`with_needles` makes for ``kind``, for a caller that plans its
    own (PIIDetector's stream scan): every group must be passed, a group by any one of its substrings (looked for in
    the lower-cased text when ``caseless``), :data:`ANY_DIGIT_GROUP` by a digit, :data:`DIGIT_RUN_GROUP` by a run."""
    return kind in _CASELESS_NEEDLES, _NEEDLES[kind]


def needle_cost(kind: str) -> tuple[bool, bool]:
    """``(digits, inside)``: whether the kind's needle test looks for digits (a regex over the text, not a substring
    test), and whether every match of the kind holds its needles (so that a kind found in a text passes its test)."""
    digits = any(group is _DIGIT or group is _DIGIT_RUN for group in _NEEDLES[kind])
    return digits, kind not in _OWN_TAIL_TESTS


def needle_characters(kind: str) -> frozenset[str]:
    """Every character of what the kind's :func:`tail_test` looks for (digits for its digit tests): text gaining none
    of them gains no needle, so a failed test stays failed when only such text is appended."""
    if kind in _OWN_TAIL_TESTS:
        return frozenset(_OWN_TAIL_TESTS[kind][1])
    characters: set[str] = set()
    for group in _NEEDLES[kind]:
        if group is _DIGIT or group is _DIGIT_RUN:  # full-width digits too: the phone and card patterns read them
            characters.update(_WIDE_DIGITS)
        for needle in _DIGIT if group is _DIGIT or group is _DIGIT_RUN else group:
            characters.update(needle)
    return frozenset(characters)


def _plan(kinds: Iterable[str] | None) -> tuple[_Step, ...]:
    """What ``find_all`` runs for a selection of kinds; computed once per tuple (or ``None``) selection."""
    cacheable = kinds is None or isinstance(kinds, tuple)
    plan = _PLANS.get(kinds) if cacheable else None
    if plan is None:
        plan = tuple(
            (kind, PATTERNS[kind].finditer, _NEEDLES[kind], kind in _CASELESS_NEEDLES, VALIDATORS.get(kind))
            for kind in expand_kinds(kinds)
        )
        if cacheable:
            _PLANS[kinds] = plan
    return plan


def find_all(text: str, kinds: Iterable[str] | None = None, *, overlapping: bool = False) -> list[Match]:
    """Every validated match of ``kinds`` (kinds or group names; ``None`` = all) in ``text``, by position.

    By default overlapping matches are resolved (:func:`resolve_overlaps`): a card number is not also
    reported as a phone number. ``overlapping=True`` keeps them all. Unknown kinds raise ``KeyError``.
    Pass ``kinds`` as a tuple on hot paths: the plan for a tuple is computed once.
    """
    lowered: str | None = None
    has_digit: bool | None = None
    has_run: bool | None = None
    matches: list[Match] = []
    for kind, finditer, needles, caseless, validator in _plan(kinds):
        possible = True
        for group in needles:  # cheap C-level substring tests before any regex runs
            if group is _DIGIT:
                if has_digit is None:
                    has_digit = _ANY_DIGIT(text) is not None
                if not has_digit:
                    possible = False
                    break
                continue
            if group is _DIGIT_RUN:
                if has_run is None:
                    has_run = _LONG_DIGIT_RUN(text) is not None
                if not has_run:
                    possible = False
                    break
                continue
            if caseless:
                if lowered is None:
                    lowered = text.lower()
                haystack = lowered
            else:
                haystack = text
            for needle in group:
                if needle in haystack:
                    break
            else:
                possible = False
                break
        if not possible:
            continue
        if validator is None:
            for found in finditer(text):
                start, end = found.span()
                if start != end:
                    matches.append(Match(kind, start, end, found.group()))
        else:
            scan_validated(kind, text, 0, matches)
    if len(matches) < 2:
        return matches
    if overlapping:
        matches.sort(key=_start)
        return matches
    return resolve_overlaps(matches)


def scan_validated(kind: str, text: str, pos: int, out: list[Match], shift: int = 0) -> None:
    """Append to ``out`` the validated matches of ``kind`` (a kind with a validator) that its scan of ``text`` from
    ``pos`` finds, in text order, ``shift`` added to their positions: every candidate of its pattern, cut to its valid
    prefix (:func:`accepted_length`).

    A refused or cut candidate may hide values (#25): the scan goes on from where the valid prefix of a cut candidate
    ends (what starts inside the prefix kept overlaps it: ``+1 415 555 2671 4111`` is a phone number and ``4111``, not
    also ``555 2671 4111``, as PIIDetector reads it), and, for the :data:`LOOK_INSIDE` kinds, from the next group of a
    candidate that is not kept. A match
    found inside an earlier candidate counts only where it ends its run of digit groups (no group follows it): the
    card after a phone number that ran on into it does, a Luhn-valid window in the middle of a list of numbers
    (``4000 4001 4002 4003 4004 4005 4006 4007``) does not. Each new search begins after the last candidate's start,
    so a text is read a bounded number of times (a run of 10,000 digits in groups costs a search per group, each as
    long as one candidate). The chain is the same from any point no candidate crosses (a character the pattern never
    consumes): a stream's sliding scan from such a point finds what this finds after it."""
    finditer = PATTERNS[kind].finditer
    inside = kind in LOOK_INSIDE
    reach = -1  # where the candidates so far end: a candidate starting before it was found inside one
    while True:
        resume = -1
        for found in finditer(text, pos):
            start, end = found.span()
            if start == end:
                continue
            value = found.group()
            accepted = accepted_length(kind, value)
            kept = accepted >= 0 and (start >= reach or _GROUP_AFTER(text, start + accepted) is None)
            if kept:
                out.append(Match(kind, start + shift, start + shift + accepted, value[:accepted]))
                if accepted == end - start:
                    reach = max(reach, end)
                    continue  # a whole value: what starts inside it overlaps it (the scan goes on from its end)
            reach = max(reach, end)
            if inside and not kept:
                group = _NEXT_GROUP(text, start + 1, end)
                if group is not None:
                    resume = group.start()
                    break
            elif 0 <= accepted < end - start:
                resume = start + accepted
                break
        if resume < 0:
            return
        pos = resume


def _start(match: Match) -> int:
    return match.start


def resolve_overlaps(matches: Iterable[Match]) -> list[Match]:
    """Disjoint matches, in text order: among overlapping ones the longest wins, then the kind listed first."""
    return keep_disjoint(sorted(matches, key=lambda m: (-(m.end - m.start), _ORDER.get(m.kind, len(_ORDER)), m.start)))


def keep_disjoint(ranked: Iterable[Match]) -> list[Match]:
    """Each match of ``ranked`` (best first) that overlaps none kept before it, in text order."""
    kept: list[Match] = []
    for match in ranked:
        if all(match.end <= other.start or match.start >= other.end for other in kept):
            kept.append(match)
    kept.sort(key=lambda m: m.start)
    return kept
