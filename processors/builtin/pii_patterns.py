"""PII detection on top of the shared pattern table (:mod:`processors.builtin.patterns`).

``patterns`` finds the raw candidates; this module sharpens them for :class:`PIIDetector`:

* phone numbers are the shared table's, RegexFilter's too (one pattern, ``patterns.PATTERNS["phone"]``, one
  validator, ``pattern_validators.phone_ok``): a ``+`` country code, an area code in parentheses, three groups of 10
  or 11 digits (12 with the trunk prefix ``0``), or a mobile or North American number written without separators;
  a range then a number, ``1500-2500 3000``, is none;
* e-mail addresses use a stricter pattern of its own (``logo@2x.png`` is a file name, not an address; ``o'neil@…``
  is);
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
* context: a digit group after "serial", "part", "order", "订单号" … is a reference, not a phone number (as to
  RegexFilter: ``pattern_validators.reference_before``) or a card; an IPv4
  shape after "firmware", "version", "版本" … is a version; ``git@host:org/repo.git`` is an SSH remote.

    detect("mail jo@example.com", ["email", "phone"])  # [Match(kind='email', start=5, end=19, ...)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from processors.builtin.pattern_validators import REFERENCE_REACH, card_issuer_ok, phone_in_context, reference_before
from processors.builtin.patterns import (
    ADDRESS_LETTERS,
    ANY_DIGIT_GROUP,
    CATEGORY,
    DIGIT_RUN_GROUP,
    GROUPS,
    PATTERNS,
    VALIDATORS,
    Match,
    expand_kinds,
    find_all,
    keep_disjoint,
    needle_groups,
    scan_validated,
    with_needles,
)
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
#: eight digits or more with only separators between them (ASCII or full-width ``-``, ``(``, ``)``), an identity number
#: six digits in a row.
_PHONE_DIGITS: Final = re.compile(r"\d[\d .()/\-\uff0d\uff08\uff09]{6,}\d")
_SIX_DIGITS: Final = re.compile(r"\d{6}")
_SSN_NEEDLE: Final = re.compile(r"(?i)ssn|social")
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

#: Kinds of the shared table this module replaces with its own pattern (not ``phone``: both guards read the table's).
_REPLACED: Final = frozenset({"email"})


def kinds_for(types: Iterable[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """Detection types → (kinds to ask ``patterns.find_all`` for, extra kinds found here)."""
    wanted = [t for t in types if t in REGEX_TYPES]
    shared = tuple(k for k in expand_kinds(t for t in wanted if t not in _IDS) if k not in _REPLACED)
    extra: set[str] = set()
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
    email = "email" in extra
    ids = tuple((kind, pattern, pattern_shape(pattern), _ID_CHECKS[kind]) for kind, pattern in _IDS.items()
                if kind in extra)  # fmt: skip
    ssn_words = "ssn-words" in extra
    secrets = tuple((kind, pattern, pattern_shape(pattern), _EXTRA_CHECK[kind]) for kind, pattern in
                    _EXTRA_SECRETS.items() if kind in extra)  # fmt: skip
    email_shape, ssn_shape = pattern_shape(_EMAIL), pattern_shape(_SSN_WORDS)
    digit_run, six_digits, any_digit, long_run = _PHONE_DIGITS.search, _SIX_DIGITS.search, _ANY_DIGIT.search, _LONG_RUN

    def find(text: str, offset: int) -> list[Match]:
        tail = text[offset:]
        found: list[Match] = []
        plan = every if long_run(tail) is not None else short
        present = {needle for needle in plan.needles if needle in tail}
        if plan.lowered:
            lowered = tail.lower()
            present.update("\x00" + needle for needle in plan.lowered if needle in lowered)
        if any_digit(tail) is not None:
            present.add(_ANY_DIGIT_KEY)
            if digit_run(tail) is not None:
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
def _after(words: re.Pattern[str], text: str, start: int, window: int = REFERENCE_REACH) -> bool:
    """Whether ``words`` ends right before ``start`` (within ``window`` characters of the same line)."""
    before = text[max(0, start - window) : start].rpartition("\n")[2]
    return words.search(before) is not None


def _keep(match: Match, text: str) -> bool:
    kind = match.kind
    if kind == "ipv4":
        return not _after(_VERSION_BEFORE, text, match.start)
    if kind == "credit-card":
        return card_issuer_ok(match.value) and not reference_before(text, match.start)
    if kind == "phone":  # "order no. 020 7946 0018" is a reference (RegexFilter drops it too: regex_rules)
        return phone_in_context(text, match.start, match.value)
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
