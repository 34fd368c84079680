"""PII detection on top of the shared pattern table (:mod:`processors.builtin.patterns`).

``patterns`` finds the raw candidates; this module sharpens them for :class:`PIIDetector`:

* phone numbers and e-mail addresses use stricter patterns of their own (a phone number needs a ``+``
  country code, an area code in parentheses, or three separated groups of 10 or 11 digits, 12 with the trunk prefix
  ``0``; a range then a number, ``1500-2500 3000``, is none; ``logo@2x.png`` is a file name, not an address;
  ``o'neil@…`` is);
* card numbers must have an issuer prefix valid for their length (an IMEI passes Luhn but is no card), from the one
  issuer table :data:`~processors.builtin.pattern_validators.CARD_NETWORKS` that RegexFilter's presets read too;
* an SSN written without dashes counts after the words "SSN" / "social security number";
* more token formats (GitLab, Hugging Face, npm, SendGrid, Twilio, Mailgun, Slack webhooks, ``*_KEY=``
  variables), and placeholders (``sk_live_xxxx…``, ``YOUR_API_KEY``, ``${VAR}``) are not secrets;
* overlaps are resolved by length, then by how specific a kind is (an IPv4 address beats a phone number);
* Chinese text: every pattern is compiled with ``re.ASCII``, so a value right after a CJK character (which
  Python counts as a letter) is still found (``我的邮箱是liuyang171@qq.com``); mainland mobiles and landlines,
  Taiwan mobiles, bare 10-digit North American numbers, and three identity numbers checked by their check digit:
  mainland resident ID (ISO 7064 MOD 11-2), Taiwan national ID and Hong Kong identity card;
* context: a digit group after "serial", "part", "order", "订单号" … is a reference, not a phone number; an IPv4
  shape after "firmware", "version", "版本" … is a version; ``git@host:org/repo.git`` is an SSH remote.

    detect("mail jo@example.com", ["email", "phone"])  # [Match(kind='email', start=5, end=19, ...)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from processors.builtin.pattern_validators import card_issuer_ok, card_ok, range_then_number
from processors.builtin.patterns import (
    ADDRESS_LETTERS,
    ANY_DIGIT_GROUP,
    CATEGORY,
    DIGIT_RUN_GROUP,
    GROUP_AFTER,
    GROUPS,
    PATTERNS,
    VALIDATORS,
    Match,
    accepted_length,
    expand_kinds,
    find_all,
    keep_disjoint,
    needle_groups,
    scan_validated,
    with_needles,
)
from processors.builtin.phone_lengths import national_length_ok
from processors.builtin.sliding_scan import ScanShape, pattern_shape, scan_shape, scan_start

#: Mastra's detection types that regular expressions find.
REGEX_TYPES: Final = (
    "email", "phone", "credit-card", "ssn", "api-key", "ip-address", "url", "uuid", "crypto-wallet", "iban",
    "cn-resident-id", "tw-national-id", "hk-id",
)  # fmt: skip
#: Types only a model judge can find.
JUDGE_TYPES: Final = ("name", "address", "date-of-birth")
ALL_TYPES: Final = (*REGEX_TYPES, *JUDGE_TYPES)

# Every pattern here is compiled with re.ASCII: ``\w`` in a look-around then means an ASCII word character, so a
# CJK character right before or after a value is a boundary, as a space is.
_A: Final = re.ASCII
#: The shapes of a phone number (the alternatives of :data:`_PHONE` and :data:`_PHONE_PIECE`).
_PHONE_SHAPES: Final = (
    r"\+\d{1,3}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d{1,8}){1,6}"
    r"|\(\d{2,4}\)[ .-]?\d{3,4}[ .-]?\d{3,5}"
    # national with an area code, any separator between the groups (``020 7946-0018``, as RegexFilter reads it)
    r"|\d{2,4}[ .-]\d{3,4}[ .-]\d{3,5}"
    # mainland China: mobiles 1[3-9]x xxxx xxxx (optionally +86 / (+86)), landlines 0AA(A)-XXXX(X)XXXX
    r"|(?:(?:\(\+?86\)|\+?86)[ -]?)?1[3-9]\d(?:\d{8}|[ -]\d{4}[ -]\d{4})"
    r"|0\d{2,3}-\d{3,4}[ -]?\d{4}"
    # Taiwan mobiles: 09xx xxx xxx or +886 9xx xxx xxx
    r"|(?:\+886[ -]?9\d{2}|09\d{2})[ -]?\d{3}[ -]?\d{3}"
    # North America: 1-800-555-0199, 1 (800) 555-0142, and bare ten digits whose area and exchange codes are valid
    r"|(?:1[ .-]?)?(?:\([2-9]\d{2}\)[ .-]?|[2-9]\d{2}[ .-]?)[2-9]\d{2}[ .-]?\d{4}"
)
#: A count after a phone number, parted from it by a space: one to three digits that end the run of digit groups
#: (``Tel: 020 7946 0018 3 times``, as ``+1 415 555 2671 2 times`` is cut to ``[PHONE] 2 times``, #25).
_COUNT: Final = r"\d{1,3}(?!\d|[ ._-][(+]?\d)"
#: A phone number alone: no digit group right before or after it (part of a longer number is no phone number), but
#: a count may follow it.
_PHONE: Final = re.compile(rf"(?<![\w+.-])(?<!\d[ .-])(?:{_PHONE_SHAPES})(?!\w|[.-]\d| (?!{_COUNT})\d)", _A)
#: A phone number's shape that other numbers' groups may stand beside (a space, a dot, a dash or an underscore
#: between): kept only when those groups are values too (:func:`_phone_pieces`, #25).
_PHONE_PIECE: Final = re.compile(rf"(?<![A-Za-z0-9+.(-])(?<![A-Za-z_]_)(?:{_PHONE_SHAPES})(?![A-Za-z0-9]|_(?!\d))", _A)
#: RFC 6531 local parts and IDN domains too (``josé.garcía@correo.es``): ASCII or ``ADDRESS_LETTERS``.
_L: Final = ADDRESS_LETTERS
_EMAIL: Final = re.compile(
    rf"(?<![\w.%+{_L}-])(?<![\w.%+'{_L}-]')[A-Za-z0-9._%+{_L}-](?:[A-Za-z0-9._%+'{_L}-]{{0,62}}[A-Za-z0-9_%+{_L}-])?"
    rf"@(?:[A-Za-z0-9{_L}](?:[A-Za-z0-9{_L}-]{{0,61}}[A-Za-z0-9{_L}])?\.)+"
    rf"(?:[A-Za-z]{{2,24}}|xn--[A-Za-z0-9-]{{1,59}}|[{_L}]{{2,24}})(?![\w{_L}-]|\.[A-Za-z0-9{_L}])",
    _A,
)
#: ``git@github.com:org/repo.git``: an address followed by ``:path`` is an SSH remote, not a mailbox.
_SSH_REMOTE_TAIL: Final = re.compile(r":[\w~./-]", _A)
#: Words that make the digit group after them a reference number rather than a phone number (looked for in the
#: few characters before the match).
_REFERENCE_BEFORE: Final = re.compile(
    r"(?i:(?:serial|part|order|tracking|invoice|model|sku|isbn|item|product|ref(?:erence)?|case|ticket)"
    r"\s*(?:no\.?|number|num|#|id)?\s*[:#.]?\s*"
    r"|(?:订单|訂單|单号|單號|编号|編號|型号|型號|序列号|序號|发票|發票|条码|條碼|快递|快遞|物流|工号|工號)"
    r"(?:号|號|码|碼)?\s*[:：]?\s*)$"
)
#: Words that make a dotted quad after them a version (``firmware 1.2.3.4``), not an IPv4 address.
_VERSION_BEFORE: Final = re.compile(
    r"(?i:(?:firmware|version|ver\.?|build|release|rev(?:ision)?|固件|版本号?|版本號?)\s*[:：]?\s*v?)$"
)
#: Identity numbers: the pattern finds the shape, ``_ID_CHECKS`` verifies the check digit.
_IDS: Final[dict[str, re.Pattern[str]]] = {
    # 6-digit region, birth date YYYYMMDD, 3-digit sequence, check digit (0-9 or X)
    "cn-resident-id": re.compile(
        r"(?<![0-9A-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]"
        r"(?![0-9A-Za-z])",
        _A,
    ),
    # a letter for the place of registration, 1/2 (citizens) or 8/9 (residents since 2021), 7 digits, check digit
    "tw-national-id": re.compile(r"(?<![0-9A-Za-z])[A-Z][1289]\d{8}(?![0-9A-Za-z])", _A),
    # one or two letters, six digits, check digit (0-9 or A), usually in parentheses: A123456(3)
    "hk-id": re.compile(r"(?<![0-9A-Za-z])[A-Z]{1,2}\d{6}(?:\([0-9A]\)|[0-9A])(?![0-9A-Za-z(])", _A),
}

#: File extensions that are no top-level domain: ``icon@2x.png`` is an asset, not an address.
_FILE_TLDS: Final = frozenset({
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "tif", "tiff", "heic", "pdf", "css", "js", "mjs",
    "json", "yaml", "yml", "toml", "txt", "html", "htm", "xml", "csv",
})  # fmt: skip
_SSN_WORDS: Final = re.compile(
    r"(?i:\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?)\s*(?:#|:|=|is|was)?\s*)(\d{9})(?!\d)", _A
)
#: Cheap tests before the patterns run, each true of every match (so of any text holding one): a phone number has
#: eight digits or more with only separators between them, an identity number six digits in a row.
_PHONE_DIGITS: Final = re.compile(r"\d[\d .()/-]{6,}\d")
_SIX_DIGITS: Final = re.compile(r"\d{6}")
_SSN_NEEDLE: Final = re.compile(r"(?i)ssn|social")
_DATE_LIKE: Final = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")
_OWN_SECRETS: Final[dict[str, re.Pattern[str]]] = {
    "gitlab-token": re.compile(r"(?<![\w-])glpat-[A-Za-z0-9_-]{20,}", _A),
    "huggingface-token": re.compile(r"(?<![\w-])hf_[A-Za-z0-9]{30,}(?!\w)", _A),
    "npm-token": re.compile(r"(?<![\w-])npm_[A-Za-z0-9]{36}(?!\w)", _A),
    "sendgrid-key": re.compile(r"(?<![\w-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![\w-])", _A),
    "twilio-key": re.compile(r"(?<![\w-])SK[0-9a-f]{32}(?!\w)", _A),
    "mailgun-key": re.compile(r"(?<![\w-])key-[0-9a-f]{32}(?!\w)", _A),
    "slack-webhook": re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}", _A),
    # FOO_API_KEY=..., DB_PASSWORD: ... (the value must look random: checked by _random_enough)
    "secret-variable": re.compile(
        r"\b[A-Za-z][A-Za-z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD)[\"']?\s*[:=]\s*[\"']?"
        r"([A-Za-z0-9+/_.~-]{16,})(?![\w+/.~-])",
        _A,
    ),
}
#: Token formats the shared table lacks (a kind it gains later is used from there instead, never scanned twice).
_EXTRA_SECRETS: Final = {kind: pattern for kind, pattern in _OWN_SECRETS.items() if kind not in PATTERNS}
#: A substring every match has (any one of them), tested before the pattern runs. Each must lie inside the match:
#: ``secret-variable`` checked for "=" only, so ``DB_PASSWORD: …`` was found only when an "=" stood elsewhere in the
#: text (and a stream found it or not depending on where it was cut).
_EXTRA_CHECK: Final[dict[str, tuple[str, ...]]] = {
    "gitlab-token": ("glpat-",), "huggingface-token": ("hf_",), "npm-token": ("npm_",), "sendgrid-key": ("SG.",),
    "twilio-key": ("SK",), "mailgun-key": ("key-",), "slack-webhook": ("hooks.slack",), "secret-variable": ("=", ":"),
}  # fmt: skip
_PLACEHOLDER: Final = re.compile(r"(?i)x{6,}|your[_-]|example|placeholder|changeme|redacted|\$\{|<[a-z_]+>|(.)\1{7,}")

#: Tie-break among equally long overlapping matches: the more specific kind first.
_PRIORITY: Final = {
    kind: index
    for index, kind in enumerate(
        [
            "private-key",
            "jwt",
            "anthropic-key",
            "openai-key",
            "github-token",
            "slack-token",
            "slack-webhook",
            "google-api-key",
            "stripe-key",
            "aws-access-key",
            "aws-secret-key",
            "gitlab-token",
            "huggingface-token",
            "npm-token",
            "sendgrid-key",
            "twilio-key",
            "mailgun-key",
            "cn-resident-id",
            "tw-national-id",
            "hk-id",
            "credit-card",
            "iban",
            "ssn",
            "uuid",
            "btc-address",
            "eth-address",
            "ipv4",
            "ipv6",
            "email",
            "url",
            "bearer-token",
            "secret-variable",
            "secret-assignment",
            "phone",
        ]
    )
}

#: For this module's own kinds, how many characters a match may need before it is recognisable (as
#: ``patterns.MAX_SPAN`` for the shared table's): a stream window never holds one of them further back.
#: ``secret-variable``'s value is accepted only once it looks random, which a late digit can decide, so its stream
#: window holds it up to ``carry_over`` (``stream_window.TAIL_RULES``); the span here is what its pattern needs.
OWN_SPAN: Final[dict[str, int]] = {
    "mailgun-key": 40, "secret-variable": 72, "ssn-words": 48, "cn-resident-id": 18, "tw-national-id": 10, "hk-id": 11,
}  # fmt: skip

#: Kinds of the shared table this module replaces with its own pattern.
_REPLACED: Final = frozenset({"phone", "email"})


def kinds_for(types: Iterable[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """Detection types → (kinds to ask ``patterns.find_all`` for, extra kinds found here)."""
    wanted = [t for t in types if t in REGEX_TYPES]
    shared = tuple(k for k in expand_kinds(t for t in wanted if t not in _IDS) if k not in _REPLACED)
    extra: set[str] = set()
    if "phone" in wanted:
        extra.add("phone")
    if "email" in wanted:
        extra.add("email")
    if "ssn" in wanted:
        extra.add("ssn-words")
    if "api-key" in wanted:
        extra.update(_EXTRA_SECRETS)
    extra.update(kind for kind in _IDS if kind in wanted)
    return shared, frozenset(extra)


def candidates(text: str, shared: tuple[str, ...], extra: frozenset[str]) -> list[Match]:
    """Every validated match, overlapping ones included (what a carry-over buffer needs)."""
    found = [_value_only(m) for m in find_all(text, shared, overlapping=True) if _keep(m, text)] if shared else []
    if "phone" in extra and _PHONE_DIGITS.search(text) is not None:
        for hit in _PHONE.finditer(text):
            _phone_alone(text, hit, found)
        _phone_pieces(text, 0, found)
    if "email" in extra and "@" in text:
        for hit in _EMAIL.finditer(text):
            value = hit.group()
            if value.rsplit(".", 1)[-1].lower() not in _FILE_TLDS and not _SSH_REMOTE_TAIL.match(text, hit.end()):
                found.append(Match("email", hit.start(), hit.end(), value))
    if _SIX_DIGITS.search(text) is not None:
        for kind, pattern in _IDS.items():
            if kind in extra:
                found += [
                    Match(kind, hit.start(), hit.end(), hit.group())
                    for hit in pattern.finditer(text)
                    if _ID_CHECKS[kind](hit.group())
                ]
    if "ssn-words" in extra and _SSN_NEEDLE.search(text) is not None:
        for hit in _SSN_WORDS.finditer(text):
            digits = hit.group(1)
            if VALIDATORS["ssn"](f"{digits[:3]}-{digits[3:5]}-{digits[5:]}"):
                found.append(Match("ssn", hit.start(1), hit.end(1), digits))
    for kind, pattern in _EXTRA_SECRETS.items():
        if kind in extra and any(needle in text for needle in _EXTRA_CHECK[kind]):
            for hit in pattern.finditer(text):
                if kind != "secret-variable":
                    found.append(Match(kind, hit.start(), hit.end(), hit.group()))
                elif _random_enough(hit.group(1)):  # the value only: "DB_PASSWORD=" stays readable
                    found.append(Match(kind, hit.start(1), hit.end(1), hit.group(1)))
    return found


#: Shared kinds whose needle test needs a digit (prose without digits skips them at once).
_DIGIT_KINDS: Final = frozenset({"credit-card", "iban", "ssn", "ipv4", "phone", "btc-address", "eth-address"})
_ANY_DIGIT: Final = re.compile(r"\d")
_SPLITS: dict[tuple[str, ...], tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}
#: Kinds whose reported match may begin after their needle (the value of ``password = …``, the digits after "SSN"):
#: their needle may stand in context a stream let out already.
_NEEDLE_BEFORE: Final = frozenset({"secret-assignment", "secret-variable", "ssn-words"})


def candidates_after(text: str, offset: int, shared: tuple[str, ...], extra: frozenset[str]) -> list[Match]:
    """The :func:`candidates` of ``text`` that start at ``offset`` or later, found with less work: what a stream's
    carry-over buffer keeps of a scan of its held text behind ``offset`` characters of context it let out. A kind
    runs only when the held text has its needle (every needle lies inside its kind's match, so without one no match
    can start there; the context before is still seen by look-behinds and keyword windows)."""
    tail = text[offset:]
    found: list[Match] = []
    digit_kinds, others, before = _split(shared)
    if digit_kinds and _ANY_DIGIT.search(tail) is not None:
        others = (*digit_kinds, *others)
    for kind in (*with_needles(tail, others), *with_needles(text, before)):
        found += [_value_only(m) for m in find_all(text, (kind,), overlapping=True) if _keep(m, text)]
    wanted = {kind for kind in extra if kind in _NEEDLE_BEFORE and kind != "ssn-words"}
    if "phone" in extra and _PHONE_DIGITS.search(tail) is not None:
        wanted.add("phone")
    if "email" in extra and "@" in tail:
        wanted.add("email")
    if _SIX_DIGITS.search(tail) is not None:  # identity numbers, and the nine digits after "SSN"
        wanted.update(kind for kind in (*_IDS, "ssn-words") if kind in extra)
    wanted.update(kind for kind in _EXTRA_SECRETS if kind in extra and any(n in tail for n in _EXTRA_CHECK[kind]))
    if wanted:
        found += candidates(text, (), frozenset(wanted))
    return [match for match in found if match.start >= offset]


def stream_finder(shared: tuple[str, ...], extra: frozenset[str]) -> Callable[[str, int], list[Match]]:
    """``find(text, offset)``: :func:`candidates_after` ``(text, offset, shared, extra)``, the same matches in the same
    order, planned once per detector for its stream (a scan runs every 16 characters, over ~25 held characters behind
    48 of context, and its fixed costs were most of the hook's time, issue 25):

    * the needle tests of the held text are one pass over the needles of every kind (``needle in tail``), the kinds
      whose first group a found needle passes then checked whole, in the order :func:`candidates_after` tries them;
    * each pattern that runs starts at the last free point before the held text (:func:`~processors.builtin.
      sliding_scan.scan_start`: a character the pattern never consumes, so no match crosses it), not at the
      context's start, and a match that begins in the context is dropped before its validator runs (kinds whose
      reported value begins after their match, ``password = …``, are validated first, as before);
    * ``secret-variable`` runs only when the text holds one of the upper-case words its pattern needs.

    ``tests/processors/builtin/test_pii_stream_finder.py`` compares it with :func:`candidates_after` and with the
    whole text's :func:`candidates` on random texts and every offset."""
    digit_kinds, others, before = _split(shared)
    plans = [(kind, *needle_groups(kind)) for kind in (*digit_kinds, *others)]  # tested on the held text, in order
    #: the needle tests of every kind, and of the kinds a match of which needs no long token run
    every = _NeedlePlan.of(plans, range(len(plans)))
    short = _NeedlePlan.of(plans, [index for index, (kind, *_rest) in enumerate(plans) if kind not in _LONG_RUN_KINDS])
    rest = tuple(tuple(_group_keys(group, caseless) for group in groups[1:]) for _kind, caseless, groups in plans)
    scans = tuple((kind, PATTERNS[kind], scan_shape(kind), kind in VALIDATORS, kind in _NEEDLE_BEFORE)
                  for kind, _caseless, _groups in plans)  # fmt: skip
    before_scans = tuple((kind, PATTERNS[kind], scan_shape(kind), kind in VALIDATORS, True) for kind in before)
    phone, email = "phone" in extra, "email" in extra
    ids = tuple((kind, pattern, pattern_shape(pattern), _ID_CHECKS[kind]) for kind, pattern in _IDS.items()
                if kind in extra)  # fmt: skip
    ssn_words = "ssn-words" in extra
    secrets = tuple((kind, pattern, pattern_shape(pattern), _EXTRA_CHECK[kind]) for kind, pattern in
                    _EXTRA_SECRETS.items() if kind in extra)  # fmt: skip
    phone_shape, email_shape, ssn_shape = pattern_shape(_PHONE), pattern_shape(_EMAIL), pattern_shape(_SSN_WORDS)
    piece_shape = pattern_shape(_PHONE_PIECE)
    digit_run, six_digits, any_digit, long_run = _PHONE_DIGITS.search, _SIX_DIGITS.search, _ANY_DIGIT.search, _LONG_RUN

    def find(text: str, offset: int) -> list[Match]:
        tail = text[offset:]
        found: list[Match] = []
        plan = every if long_run(tail) is not None else short
        present = {needle for needle in plan.needles if needle in tail}
        if plan.lowered:
            lowered = tail.lower()
            present.update("\x00" + needle for needle in plan.lowered if needle in lowered)
        run = False
        if any_digit(tail) is not None:
            present.add(_ANY_DIGIT_KEY)
            if digit_run(tail) is not None:
                run = True
                present.add(_DIGIT_RUN_KEY)
        if present:
            tried: set[int] = set()
            starters = plan.starters
            for key in present:
                tried.update(starters.get(key, ()))
            for index in sorted(tried):
                if all(not present.isdisjoint(group) for group in rest[index]):
                    _scan_kind(text, offset, *scans[index], found)
        if before_scans:
            for kind in with_needles(text, before):
                _scan_kind(text, offset, *before_scans[before.index(kind)], found)
        if phone and run:
            for hit in _PHONE.finditer(text, scan_start(phone_shape, text, offset)):
                if hit.start() >= offset:
                    _phone_alone(text, hit, found)
            pieces: list[Match] = []
            _phone_pieces(text, scan_start(piece_shape, text, offset), pieces)
            found += [piece for piece in pieces if piece.start >= offset]
        if email and "@" in tail:
            for hit in _EMAIL.finditer(text, scan_start(email_shape, text, offset)):
                if hit.start() < offset:
                    continue
                value = hit.group()
                if value.rsplit(".", 1)[-1].lower() not in _FILE_TLDS and not _SSH_REMOTE_TAIL.match(text, hit.end()):
                    found.append(Match("email", hit.start(), hit.end(), value))
        six = (ids or ssn_words) and six_digits(tail) is not None
        if six:
            for kind, pattern, shape, check in ids:
                for hit in pattern.finditer(text, scan_start(shape, text, offset)):
                    if hit.start() >= offset and check(hit.group()):
                        found.append(Match(kind, hit.start(), hit.end(), hit.group()))
            if ssn_words and _SSN_NEEDLE.search(text) is not None:
                for hit in _SSN_WORDS.finditer(text, scan_start(ssn_shape, text, offset)):
                    digits = hit.group(1)
                    if hit.start(1) >= offset and VALIDATORS["ssn"](f"{digits[:3]}-{digits[3:5]}-{digits[5:]}"):
                        found.append(Match("ssn", hit.start(1), hit.end(1), digits))
        for kind, pattern, shape, checks in secrets:
            if kind in _LONG_RUN_KINDS and plan is short:
                continue
            if kind == "secret-variable":
                if not any(needle in text for needle in checks) or not any(word in text for word in _SECRET_WORDS):
                    continue
            elif not any(needle in tail for needle in checks):
                continue
            for hit in pattern.finditer(text, scan_start(shape, text, offset)):
                if kind != "secret-variable":
                    if hit.start() >= offset:
                        found.append(Match(kind, hit.start(), hit.end(), hit.group()))
                elif hit.start(1) >= offset and _random_enough(hit.group(1)):
                    found.append(Match(kind, hit.start(1), hit.end(1), hit.group(1)))
        return found

    return find


#: Every match of these kinds holds a run of 14 of these characters (a token's body, ``bc1`` and 11 more, ``xoxb-``
#: and 10, a UUID's 36): a held text without one holds none of their matches, and their needles are not looked for.
_LONG_RUN: Final = re.compile(r"[A-Za-z0-9_/+-]{14}").search
_LONG_RUN_KINDS: Final = frozenset({
    "anthropic-key", "openai-key", "aws-access-key", "aws-secret-key", "github-token", "slack-token", "google-api-key",
    "stripe-key", "gitlab-token", "huggingface-token", "npm-token", "sendgrid-key", "twilio-key", "btc-address",
    "eth-address", "uuid", "mailgun-key",
})  # fmt: skip


@dataclass(frozen=True, slots=True)
class _NeedlePlan:
    """The needles :func:`stream_finder` looks for in the held text, for some of its kinds."""

    needles: tuple[str, ...]
    #: needles looked for in the lower-cased held text (``"\x00"`` + needle in ``present``)
    lowered: tuple[str, ...]
    #: a ``present`` key → the indexes of the kinds whose first needle group it passes
    starters: dict[str, tuple[int, ...]]

    @classmethod
    def of(cls, plans: list[tuple[str, bool, tuple[tuple[str, ...], ...]]], indices: Iterable[int]) -> _NeedlePlan:
        literals: set[str] = set()
        lowered: set[str] = set()
        starters: dict[str, list[int]] = {}
        for index in indices:
            _kind, caseless, groups = plans[index]
            for group in groups:
                if group is not ANY_DIGIT_GROUP and group is not DIGIT_RUN_GROUP:
                    (lowered if caseless else literals).update(group)
            for key in _group_keys(groups[0], caseless):
                starters.setdefault(key, []).append(index)
        return cls(
            tuple(sorted(literals)), tuple(sorted(lowered)), {key: tuple(found) for key, found in starters.items()}
        )


#: ``present``'s keys for a passed digit group and digit-run group (no substring begins with NUL and SOH).
_ANY_DIGIT_KEY: Final = "\x01digit"
_DIGIT_RUN_KEY: Final = "\x01run"
#: Every ``secret-variable`` match holds one of these (its pattern's name endings, case-sensitive).
_SECRET_WORDS: Final = ("KEY", "SECRET", "TOKEN", "PASSW", "PWD")


def _group_keys(group: tuple[str, ...], caseless: bool) -> frozenset[str]:
    """A needle group as the keys :func:`stream_finder` puts in its ``present`` set."""
    if group is ANY_DIGIT_GROUP:
        return frozenset({_ANY_DIGIT_KEY})
    if group is DIGIT_RUN_GROUP:
        return frozenset({_DIGIT_RUN_KEY})
    return frozenset("\x00" + needle if caseless else needle for needle in group)


def _scan_kind(
    text: str, offset: int, kind: str, pattern: re.Pattern[str], shape: ScanShape, validated: bool, late: bool,
    found: list[Match],
) -> None:  # fmt: skip
    """``find_all(text, (kind,), overlapping=True)`` kept and narrowed as :func:`candidates_after` does, from the
    last free point before ``offset`` (``late``: the kind's value may begin after its match, so the match is kept
    until its value is known)."""
    matches: list[Match] = []
    if validated:  # find_all's chain: a refused candidate is looked into (patterns.scan_validated)
        scan_validated(kind, text, scan_start(shape, text, offset), matches)
    else:
        for hit in pattern.finditer(text, scan_start(shape, text, offset)):
            begin, end = hit.span()
            if begin != end:
                matches.append(Match(kind, begin, end, hit.group()))
    for match in matches:
        if match.start < offset and not late:
            continue
        if _keep(match, text):
            match = _value_only(match)
            if match.start >= offset:
                found.append(match)


def _split(shared: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``shared`` as :func:`candidates_after` tries it: digit kinds, the others, the kinds tested on the whole text."""
    split = _SPLITS.get(shared)
    if split is None:
        split = _SPLITS[shared] = (
            tuple(kind for kind in shared if kind in _DIGIT_KINDS),
            tuple(kind for kind in shared if kind not in _DIGIT_KINDS and kind not in _NEEDLE_BEFORE),
            tuple(kind for kind in shared if kind in _NEEDLE_BEFORE),
        )
    return split


def detect(text: str, types: Iterable[str]) -> list[Match]:
    """Disjoint detections of the regex-backed ``types`` in ``text``, in text order."""
    shared, extra = kinds_for(types)
    return resolve(candidates(text, shared, extra))


def resolve(matches: list[Match]) -> list[Match]:
    """Disjoint matches in text order: the longest wins, then the more specific kind."""
    if len(matches) < 2:
        return list(matches)
    return keep_disjoint(sorted(matches, key=lambda m: (m.start - m.end, _PRIORITY.get(m.kind, 99), m.start)))


def category(kind: str) -> str:
    """A kind's detection type (``"github-token"`` → ``"api-key"``)."""
    if kind in _EXTRA_SECRETS:
        return "api-key"
    return CATEGORY.get(kind, kind)


# --------------------------------------------------------------------------------------------- checks
def _after(words: re.Pattern[str], text: str, start: int, window: int = 24) -> bool:
    """Whether ``words`` ends right before ``start`` (within ``window`` characters of the same line)."""
    before = text[max(0, start - window) : start].rpartition("\n")[2]
    return words.search(before) is not None


def _keep(match: Match, text: str) -> bool:
    kind = match.kind
    if kind == "ipv4":
        return not _after(_VERSION_BEFORE, text, match.start)
    if kind == "credit-card":
        return card_issuer_ok(match.value) and not _after(_REFERENCE_BEFORE, text, match.start)
    if kind in GROUPS["api-key"]:
        if kind == "stripe-key" and match.value.startswith("pk_"):
            return False  # publishable keys are meant to be public
        if kind == "secret-assignment":
            return _random_enough(_assigned_value(match.value))
        return _PLACEHOLDER.search(match.value) is None
    return True


def _value_only(match: Match) -> Match:
    """A ``key = value`` match narrowed to its value, so redaction keeps the name readable."""
    if match.kind != "secret-assignment":
        return match
    value = _assigned_value(match.value)
    start = match.end - len(value)
    return Match(match.kind, start, match.end, value)


def _phone_pieces(text: str, pos: int, found: list[Match]) -> None:
    """Append the phone numbers from ``pos`` on that stand beside other numbers' groups which are values too (#25):
    :data:`_PHONE` refuses a number with a digit group right before or after it (a part of a longer number is no
    phone number), so ``+1 415 555 2671 4111 1111 1111 1111`` and ``+33 1 42 68 53 00 020 7946 0018`` hid both
    their values. A :data:`_PHONE_PIECE` (cut to its longest valid prefix) with such a group beside it is a phone
    number when each group beside it begins or ends a value (a card, or another phone number's shape) and it or one
    of them is strong (a card, or a number with its ``+`` country code): ``1234 5678 9012 3456 7890 1234``, bare
    groups beside bare groups, stays no phone number. Each search begins after the last candidate's start (the next
    group of a candidate is tried too), so a text of digits costs a bounded number of tries per group."""
    if not _runs_with_pieces(text, max(0, pos - _VALUE_REACH - 1)):
        return  # no run of groups can hold a phone number and a value beside it (a left one's included)
    search = _PHONE_PIECE.search
    while True:
        hit = search(text, pos)
        if hit is None:
            return
        start, end = hit.span()
        value = hit.group()
        length = _piece_length(value)
        if length > 0:
            cut = start + length
            # (a ``+`` begins a new number: the groups before it need no explaining)
            before = (
                value[0] not in "+(" and start >= 2 and text[start - 1] in _SEPARATORS and text[start - 2].isdigit()
            )
            after = _GROUP_AFTER(text, cut) is not None
            if before or after:
                strong = value[0] == "+" or value.startswith("(+")
                beside = [_value_ending(text, start - 1)] if before else []
                if after:
                    beside.append(_value_starting(text, cut + 1))
                if (
                    all(beside)
                    and (strong or "strong" in beside)
                    and (strong or not _after(_REFERENCE_BEFORE, text, start))
                ):
                    found.append(Match("phone", start, cut, value[:length]))
        group = _NEXT_GROUP(text, start + 1, end)
        pos = group.start() if group is not None else end


#: A run of digit groups, one or two separators between them.
_NUMBER_RUN: Final = re.compile(r"[+(]*\d(?:[ ._()+-]{0,2}\d)*", _A).finditer


def _runs_with_pieces(text: str, pos: int) -> bool:
    """Whether a run of groups from ``pos`` on may hold a phone number and a value beside it, one of them strong: 16
    digits or more with a ``+`` (two international numbers of 8), or 22 without (a bare number's 10 and a card's 12).
    The stream asks at every scan; a card alone, or a phone number in prose, holds no such run."""
    for run in _NUMBER_RUN(text, pos):
        found = run.group()
        if len(found) >= 16:
            digits = len(found) - sum(found.count(separator) for separator in " ._()+-")
            if digits >= 22 or (digits >= 16 and "+" in found):
                return True
    return False


#: Separators between two numbers' groups, and a group right after a value's end.
_SEPARATORS: Final = " ._-"
_GROUP_AFTER: Final = GROUP_AFTER
#: The next group of a candidate: a digit, ``(`` or ``+`` after a character that is none of them.
_NEXT_GROUP: Final = re.compile(r"(?<=[^\d+(])[\d(+]", _A).search
_CARD: Final = PATTERNS["credit-card"]
#: How far before its end a value beside a phone number may begin (the longest card written with separators).
_VALUE_REACH: Final = 40


@lru_cache(maxsize=4096)
def _piece_length(value: str) -> int:
    """How much of a :data:`_PHONE_PIECE` candidate is a phone number: all of it, its longest valid prefix cut at a
    group boundary, or nothing (0)."""
    cut = len(value)
    while cut > 0:
        piece = value[:cut].rstrip(" .-")
        if _piece_ok(piece):
            return len(piece)
        cut = max(value.rfind(" ", 0, cut), value.rfind(".", 0, cut), value.rfind("-", 0, cut))
    return 0


def _value_starting(text: str, at: int) -> str | None:
    """:func:`_value_starting_uncached`, remembered by what it reads (a stream asks again at every scan)."""
    low = max(0, at - 2)  # its look-behinds read two characters; a phone number's shape may run on for 100 and more
    key = text[low : at + 110], at - low, True
    known = _BESIDE.get(key, _UNKNOWN)
    if known is _UNKNOWN:
        known = _remember(key, _value_starting_uncached(text, at))
    return known


def _value_ending(text: str, end: int) -> str | None:
    """:func:`_value_ending_uncached`, remembered by what it reads."""
    key = text[max(0, end - _VALUE_REACH - 2) : end], int(end - _VALUE_REACH - 2 >= 0), False
    known = _BESIDE.get(key, _UNKNOWN)
    if known is _UNKNOWN:
        known = _remember(key, _value_ending_uncached(text, end))
    return known


_UNKNOWN: Final = "?"
_BESIDE: dict[tuple[str, int, bool], str | None] = {}


def _remember(key: tuple[str, int, bool], value: str | None) -> str | None:
    if len(_BESIDE) >= 4096:
        _BESIDE.clear()
    _BESIDE[key] = value
    return value


def _value_starting_uncached(text: str, at: int) -> str | None:
    """``"strong"`` when a card or a ``+`` phone number begins at ``at`` and ends its run of digit groups, ``"weak"``
    for another phone number's shape that does, else None (a value in the middle of a list of numbers explains no
    neighbour: ``4000 4001 4002 4003 4004 4005 4006 4007`` holds a Luhn-valid window and no card)."""
    card = _CARD.match(text, at)
    if card is not None:
        accepted = accepted_length("credit-card", card.group())
        if accepted >= 0 and card_issuer_ok(card.group()[:accepted]) and _GROUP_AFTER(text, at + accepted) is None:
            return "strong"
    piece = _PHONE_PIECE.match(text, at)
    if piece is not None:
        length = _piece_length(piece.group())
        if length > 0 and _GROUP_AFTER(text, at + length) is None:
            return "strong" if piece.group().startswith(("+", "(+")) else "weak"
    return None


def _value_ending_uncached(text: str, end: int) -> str | None:
    """As :func:`_value_starting`, for a value ending at ``end`` that begins its run (at a group start at most
    :data:`_VALUE_REACH` characters before, with no digit group right before it)."""
    found: str | None = None
    for at in range(max(0, end - _VALUE_REACH), end - 7):
        char = text[at]
        if not (char.isdigit() or char in "+(") or (at and (text[at - 1].isdigit() or text[at - 1] in "+(")):
            continue
        if at >= 2 and text[at - 1] in _SEPARATORS and text[at - 2].isdigit():
            continue
        if _CARD.fullmatch(text, at, end) is not None and card_ok(text[at:end]):
            return "strong"
        if _PHONE_PIECE.fullmatch(text, at, end) is not None and _piece_ok(text[at:end]):
            if text[at] == "+" or text.startswith("(+", at):
                return "strong"
            found = "weak"
    return found


def _phone_alone(text: str, hit: re.Match[str], found: list[Match]) -> None:
    """Append the phone number of a :data:`_PHONE` hit, if it is one: a number with its ``+`` country code longer
    than its country's numbers (``phone_lengths``) is cut to its longest prefix that has their length, as RegexFilter
    cuts it (``+1 415 555 2671 2 times``: a +1 number has ten digits, the ``2`` is a count); with no such prefix the
    digit count alone decides (``+48 22 653 00-020``, ten digits where a Polish number has nine, is still masked)."""
    value = hit.group()
    start = hit.start()
    if value[0] != "+" and _after(_REFERENCE_BEFORE, text, start):
        return  # a reference number ("order no. 020 7946 0018")
    if value.startswith(("+", "(+")) and not national_length_ok(value):
        length = _piece_length(value)
        if length > 0:
            found.append(Match("phone", start, start + length, value[:length]))
            return
    if _phone_ok(value):
        found.append(Match("phone", start, hit.end(), value))


def _piece_ok(value: str) -> bool:
    """A phone number beside other numbers: also as long as its country's numbers are (``phone_lengths``), since the
    groups after a North American number's ten digits belong to the next value (a number alone is cut the same way
    when a prefix fits, else it keeps the count :func:`_phone_ok` allows: :func:`_phone_alone`)."""
    return _phone_ok(value) and national_length_ok(value)


def _phone_ok(value: str) -> bool:
    """8 to 15 digits with a ``+`` country code; else 10 or 11, or 12 with the trunk prefix ``0`` (``0755-8888 8888``,
    ``0812-3456-7890``: a national number that long keeps it; ``1500 2500 3000`` is no phone number), never a date
    or a range then a number (:func:`~processors.builtin.pattern_validators.range_then_number`)."""
    digits = sum(c.isdigit() for c in value)
    if value.startswith(("+", "(+")):
        return 8 <= digits <= 15
    if not (10 <= digits <= 11 or (digits == 12 and value.lstrip("(")[:1] == "0")):
        return False
    return _DATE_LIKE.fullmatch(value) is None and not range_then_number(value)


_CN_ID_WEIGHTS: Final = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
#: Taiwan: the letter's two-digit code (A=10 … Z, in the registry's own order, not the alphabet's).
_TW_LETTERS: Final = {letter: code for code, letter in enumerate("ABCDEFGHJKLMNPQRSTUVXYWZIO", start=10)}


def cn_resident_id_ok(value: str) -> bool:
    """GB 11643: the 18th character is the ISO 7064 MOD 11-2 check of the first 17 digits (X for 10)."""
    total = sum(int(digit) * weight for digit, weight in zip(value[:17], _CN_ID_WEIGHTS, strict=True))
    return "10X98765432"[total % 11] == value[17].upper()


def tw_national_id_ok(value: str) -> bool:
    """Taiwan's national ID: letter code (two digits) and the nine digits, weighted 1 9 8 7 … 1 1, sum ≡ 0 mod 10."""
    code = _TW_LETTERS[value[0]]
    digits = [code // 10, code % 10, *(int(c) for c in value[1:])]
    return sum(d * w for d, w in zip(digits, (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1), strict=True)) % 10 == 0


def hk_id_ok(value: str) -> bool:
    """Hong Kong identity card: letters (space = 36, A = 10 …), six digits, weights 9 … 2; check = 11 - sum mod 11."""
    core = value.replace("(", "").replace(")", "")
    letters, digits, check = core[:-7], core[-7:-1], core[-1]
    values = [36 if len(letters) == 1 else ord(letters[0]) - 55, ord(letters[-1]) - 55, *(int(c) for c in digits)]
    expected = (11 - sum(v * w for v, w in zip(values, (9, 8, 7, 6, 5, 4, 3, 2), strict=True)) % 11) % 11
    return check == ("A" if expected == 10 else str(expected))


_ID_CHECKS: Final = {"cn-resident-id": cn_resident_id_ok, "tw-national-id": tw_national_id_ok, "hk-id": hk_id_ok}


def _assigned_value(text: str) -> str:
    value = re.split(r"[:=]", text, maxsplit=1)[-1]
    return value.strip().strip("\"'")


def _random_enough(value: str) -> bool:
    """A secret-looking value: long, letters and digits mixed, no code, no placeholder."""
    if len(value) < 12 or _PLACEHOLDER.search(value):
        return False
    if any(c in value for c in "()[]{}$<>"):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_lower = any(c.islower() for c in value)
    has_upper = any(c.isupper() for c in value)
    return has_digit and (has_lower or has_upper) and not (value.isupper() and "_" in value)


__all__ = [
    "ALL_TYPES",
    "JUDGE_TYPES",
    "OWN_SPAN",
    "PATTERNS",
    "REGEX_TYPES",
    "candidates",
    "candidates_after",
    "card_issuer_ok",
    "category",
    "detect",
    "kinds_for",
    "resolve",
    "stream_finder",
]
