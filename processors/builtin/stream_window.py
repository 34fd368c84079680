"""How much of a stream's tail a regex detector must hold back: only what could still become a match.

A carry-over buffer that holds a fixed window keeps a streamed reply a dozen words behind the model (128 characters
of prose for the default PIIDetector from 2026-12-01 until this module learnt needles). Two kinds of rule say where
the text that could still become a match begins; :func:`hold_start` returns the earliest such place over the
detector's kinds, never more than ``cap`` characters back:

* **A character set** (:data:`TAIL_CHARS`): a card number is digits, spaces and dashes, an e-mail address letters,
  digits and ``._%+'-@`` (and ``:``, since ``git@host:org/repo`` is no address), so a match still to be completed
  lies inside the text's trailing run of those characters, from the first one a match can begin with
  (:data:`STARTERS`: "). " neither ends nor begins a phone number). The set holds every character that may follow
  a match and still change it (a look-ahead's), so a match followed by one of them is held too.
* **A needle** (:data:`TAIL_RULES`) for kinds whose text has spaces or punctuation in it (``Bearer <token>``,
  ``password = …``, ``SSN is …``, a URL) or that begin with a fixed prefix (``sk-``, ``eyJ``, ``AKIA``): hold from
  the earliest needle inside the kind's span that the text after it can still grow from into a match (the rule's
  ``tail`` pattern matches from the needle to the end), or from a proper prefix of a needle ending the text
  (``Bea``, ``ey``, ``passw``); otherwise nothing. A needle further back than the span needs no holding: a match
  that long is recognisable already, and the buffer holds a candidate touching the end whole. Where a validator may
  accept a value only once more of it arrived (a secret's value is random-looking once its digits come) there is no
  shorter span than ``cap``.

Plain prose is held back by at most the word being written (it may still become an e-mail address's local part),
or a secret's keyword and the spaces after it ("token ", "SSN is ")::

    hold_start("Mail me at jo@exa", 0, ("email", "phone"), 128)     # 11: "jo@exa" may still grow into an address
    hold_start("Thanks, bye. ", 0, ("email", "phone"), 128)         # 13: ". " begins no phone number
    hold_start("Authorization: Bea", 0, ("bearer-token",), 128)     # 15: "Bea" may still become "Bearer <token>"
    hold_start("The Bearer of news ", 0, ("bearer-token",), 128)    # 19: that Bearer can no longer become one

A kind with no rule is refused (``KeyError``): it used to fall back to the whole ``cap`` silently.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from processors.builtin.patterns import ADDRESS_LETTERS, MAX_SPAN
from processors.builtin.pii_patterns import OWN_SPAN

_ALNUM: Final = string.ascii_letters + string.digits
_HEX: Final = string.hexdigits
#: Full-width digits (U+FF10 to U+FF19): phone and card numbers may be typed in them (``patterns``' phone and card
#: patterns read them, with full-width ``+()-``), so the hold-back keeps their runs as it keeps ASCII ones.
_WIDE_DIGITS: Final = "".join(chr(0xFF10 + d) for d in range(10))

#: The characters a match of the kind may begin with (the hold starts at the first of them in the trailing run:
#: "). " ends no phone number and begins none). Kinds not listed may begin with any of their characters.
STARTERS: Final[dict[str, frozenset[str]]] = {
    "phone": frozenset(string.digits + _WIDE_DIGITS + "+(\uff0b\uff08"),
    "credit-card": frozenset(string.digits + _WIDE_DIGITS),
    "ssn": frozenset(string.digits),
    "ipv4": frozenset(string.digits),
    "email": frozenset(_ALNUM + "._%+-"),
    "hk-id": frozenset(string.ascii_uppercase),
    "iban": frozenset(string.ascii_uppercase),
}

#: Every character a match of the kind may contain, or that may follow one and still change it (a superset).
TAIL_CHARS: Final[dict[str, frozenset[str]]] = {
    "email": frozenset(_ALNUM + "._%+'-@:"),
    "credit-card": frozenset(string.digits + _WIDE_DIGITS + " -\uff0d"),
    "iban": frozenset(string.ascii_uppercase + string.digits + " "),
    "ssn": frozenset(string.digits + "-"),
    "ipv4": frozenset(string.digits + "."),
    "ipv6": frozenset(_HEX + ":."),
    # "_": an underscore and a digit part two numbers (#25)
    "phone": frozenset(string.digits + _WIDE_DIGITS + "+() .-_\uff0b\uff08\uff09\uff0d"),
    "uuid": frozenset(_HEX + "-"),
    "btc-address": frozenset(_ALNUM),
    "eth-address": frozenset(_HEX + "x"),
    # PIIDetector's identity numbers (``pii_patterns``)
    "cn-resident-id": frozenset(string.digits + "Xx"),
    "tw-national-id": frozenset(string.ascii_uppercase + string.digits),
    "hk-id": frozenset(string.ascii_uppercase + string.digits + "()"),
}

#: Kinds whose matches may also hold the non-ASCII letters of an internationalised address
#: (:data:`~processors.builtin.patterns.ADDRESS_LETTERS`: ``josé.garcía@correo.es``): their trailing run goes on
#: through such letters as well as through the kind's :data:`TAIL_CHARS` (too many to list in a set).
LETTER_KINDS: Final = frozenset({"email"})
_ADDRESS_LETTER: Final = re.compile(f"[{ADDRESS_LETTERS}]")

_SPANS: Final[dict[str, int]] = {**MAX_SPAN, **OWN_SPAN}


@dataclass(frozen=True, slots=True)
class TailRule:
    """Where a kind without a character set may still be growing into a match (see the module docstring)."""

    #: Where the held text begins (lower case when ``caseless``).
    needles: tuple[str, ...]
    #: Matches from a needle to the end of the text while a match can still grow there (anchored with ``\\Z``).
    tail: re.Pattern[str]
    #: How far back from the end a needle still needs holding; ``None``: up to the cap (a validator may flip late).
    span: int | None
    #: Whole words whose proper prefixes ending the text are held (the needles when empty).
    forms: tuple[str, ...] = ()
    caseless: bool = False
    #: Hold from the start of the identifier the needle ends (``DB_PASSWORD=``: a name too long for the left
    #: context would otherwise lose its start).
    word_start: bool = False
    #: Every character the held text can be made of, when small: a selected character-set kind that covers them all
    #: holds at least as much, so the rule need not run.
    chars: frozenset[str] | None = None
    #: The proper prefixes of the forms (of the needles when there are no forms).
    prefixes: frozenset[str] = frozenset()


def _rule(
    needles: tuple[str, ...],
    tail: str,
    span: int | None,
    *,
    forms: tuple[str, ...] = (),
    caseless: bool = False,
    word_start: bool = False,
    chars: str | None = None,
) -> TailRule:
    flags = re.ASCII | (re.IGNORECASE if caseless else 0)
    return TailRule(
        needles=needles,
        tail=re.compile(rf"(?:{tail})\Z", flags),
        span=span,
        forms=forms,
        caseless=caseless,
        word_start=word_start,
        chars=None if chars is None else frozenset(chars),
        prefixes=frozenset(form[:n] for form in forms or needles for n in range(1, len(form))),
    )


_TOKEN: Final = _ALNUM + "_-"
#: Keywords of a secret assignment (``patterns``' ``secret-assignment``): their prefixes ending the text are held.
_ASSIGNMENT_WORDS: Final = (
    *(f"{a}{sep}{b}"
      for a, b in (("api", "key"), ("api", "secret"), ("secret", "key"), ("client", "secret"), ("access", "token"),
                   ("auth", "token"))
      for sep in ("_", "-", "")),
    "password", "passwd", "pwd", "token", "secret",
)  # fmt: skip
_SECRET_NAME_WORDS: Final = ("KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD", "PWD")
_URL_CHARS: Final = r"[^\s<>\"'`{}|\\^\[\]]"

#: kind → its needle rule, for every kind of ``patterns`` and ``pii_patterns`` without a character set.
TAIL_RULES: Final[dict[str, TailRule]] = {
    # ---- secrets (``patterns``): a fixed prefix, then the token's characters
    "private-key": _rule(("-----BEGIN",), r"-----BEGIN[A-Z0-9 -]*", _SPANS["private-key"]),
    "anthropic-key": _rule(("sk-",), r"sk-[\w-]*", _SPANS["anthropic-key"], chars=_TOKEN),
    "openai-key": _rule(("sk-",), r"sk-[\w-]*", _SPANS["openai-key"], chars=_TOKEN),
    "aws-access-key": _rule(
        ("AKIA", "ASIA", "ABIA", "ACCA"), r"A(?:KIA|SIA|BIA|CCA)[A-Z0-9]{0,16}", _SPANS["aws-access-key"], chars=_ALNUM
    ),
    "aws-secret-key": _rule(
        ("aws_secret", "awssecret"),
        r"aws_?secret[a-z_]*[\"']?\s*(?:[:=]\s*[\"']?[A-Za-z0-9/+]{0,40})?",
        _SPANS["aws-secret-key"],
        caseless=True,
    ),
    "github-token": _rule(
        ("gh", "github_pat_"), r"gh[pousr]?|gh[pousr]_[A-Za-z0-9]*|github_pat_\w*", _SPANS["github-token"], chars=_TOKEN
    ),
    "slack-token": _rule(("xox",), r"xox(?:[abposre](?:-[A-Za-z0-9-]*)?)?", _SPANS["slack-token"], chars=_TOKEN),
    "google-api-key": _rule(("AIza",), r"AIza[\w-]{0,35}", _SPANS["google-api-key"], chars=_TOKEN),
    # the validator wants more than lower-case letters: a value may become a key with its last character
    "stripe-key": _rule(
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_"), r"[sr]k_(?:live|test)_[0-9A-Za-z]*", None, chars=_TOKEN
    ),
    "gitlab-token": _rule(
        ("glpat-", "gldt-", "glrt-", "glcbt-", "glptt-", "gloas-"),
        r"gl(?:pat|dt|rt|cbt|ptt|oas)-[\w-]*",
        _SPANS["gitlab-token"],
        chars=_TOKEN,
    ),
    "slack-webhook": _rule(("http",), r"https://hooks\.slack\.com/[\w/-]*", None, forms=("https://hooks.slack.com/",)),
    "huggingface-token": _rule(("hf_",), r"hf_[A-Za-z0-9]{0,40}", _SPANS["huggingface-token"], chars=_TOKEN),
    "npm-token": _rule(("npm_",), r"npm_[A-Za-z0-9]{0,36}", _SPANS["npm-token"], chars=_TOKEN),
    "sendgrid-key": _rule(("SG.",), r"SG\.[\w-]*(?:\.[\w-]*)?", _SPANS["sendgrid-key"], chars=_TOKEN + "."),
    "twilio-key": _rule(("SK", "SC", "AK", "AC"), r"[SA][KC][0-9a-fA-F]{0,32}", _SPANS["twilio-key"], chars=_ALNUM),
    # a header of any length may precede the payload's ``.eyJ``
    "jwt": _rule(("eyJ",), r"eyJ[\w.-]*", None, chars=_TOKEN + "."),
    "bearer-token": _rule(("Bearer",), r"Bearer\s*[A-Za-z0-9._~+/-]*=*", _SPANS["bearer-token"]),
    # the keyword, its separator, and a value while it grows (random-looking only once its digits arrive)
    "secret-assignment": _rule(
        ("key", "secret", "token", "passw", "pwd"),
        r"(?:key|secret(?:[_-]?key)?|token|passw(?:or)?d|pwd)[\"']?\s*(?:[:=]\s*[\"']?[^\s\"',;]*)?",
        None,
        forms=_ASSIGNMENT_WORDS,
        caseless=True,
    ),
    # a URL grows while its characters come, and its last punctuation is only left out while nothing follows it
    "url": _rule(
        ("http", "ftp://", "www."),
        rf"(?:https?://|ftp://|www\.){_URL_CHARS}*",
        None,
        forms=("http://", "https://", "ftp://", "www."),
    ),
    # ---- PIIDetector's own kinds (``pii_patterns``)
    "mailgun-key": _rule(("key-",), r"key-[0-9a-f]{0,32}", _SPANS["mailgun-key"], chars=_TOKEN),
    "secret-variable": _rule(
        ("KEY", "SECRET", "TOKEN", "PASSW", "PWD"),
        r"(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD)[\"']?\s*(?:[:=]\s*[\"']?[A-Za-z0-9+/_.~-]*)?",
        None,
        forms=_SECRET_NAME_WORDS,
        word_start=True,
    ),
    "ssn-words": _rule(
        ("ssn", "social"),
        r"(?:ssn|social(?:\s+security(?:\s+(?:number|no\.?|#))?)?)(?:\s*(?:[#:=]|is|was)?\s*\d{0,9}|\s*(?:i|wa?))"
        r"|social\s+(?:s|se|sec|secu|secur|securi|securit)|social\s+security\s+(?:n|nu|num|numb|numbe)",
        _SPANS["ssn-words"],
        caseless=True,
    ),
}

_IDENTIFIER: Final = frozenset(_ALNUM + "_")
_ASCII_LOWER: Final = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What :func:`hold_window` runs for one selection of kinds (see :func:`_plan`)."""

    #: ``(the set's characters, those a match cannot begin with, whether address letters belong too)`` per set
    char_sets: tuple[tuple[str, str, bool], ...]
    rules: tuple[TailRule, ...]
    #: a lower-cased needle → the rules whose tail is tried from it (one search serves them all)
    needles: tuple[tuple[str, tuple[int, ...]], ...]
    #: a lower-cased proper prefix of a needle → the rules it is a prefix for
    prefixes: dict[str, tuple[int, ...]]
    #: every character of those prefixes (lower case), and the longest prefix
    prefix_chars: str
    longest: int


_PLANS: dict[tuple[str, ...], _Plan] = {}


def _plan(kinds: tuple[str, ...]) -> _Plan:
    """The rules to run for ``kinds``: a character set another selected set covers, and a needle rule whose
    characters a selected set covers, hold no more than that set's run, so they are left out."""
    plan = _PLANS.get(kinds)
    if plan is not None:
        return plan
    unknown = [kind for kind in kinds if kind not in TAIL_CHARS and kind not in TAIL_RULES]
    if unknown:
        raise KeyError(
            f"no stream hold rule for {', '.join(unknown)}: add one to stream_window's TAIL_CHARS or TAIL_RULES"
        )
    sets = list(dict.fromkeys((TAIL_CHARS[kind], STARTERS.get(kind, TAIL_CHARS[kind]), kind in LETTER_KINDS)
                              for kind in kinds if kind in TAIL_CHARS))  # fmt: skip
    kept = [set_ for set_ in sets if not any(_covers(other, *set_) for other in sets)]
    rules: list[TailRule] = []
    for kind in kinds:
        rule = TAIL_RULES.get(kind)
        if rule is None or rule in rules:
            continue
        if rule.chars is not None:
            firsts = frozenset(word[0] for word in (*rule.needles, *rule.forms))
            if any(_covers(other, rule.chars, firsts, False) for other in kept):
                continue
        rules.append(rule)
    needles: dict[str, list[int]] = {}
    prefixes: dict[str, list[int]] = {}
    for index, rule in enumerate(rules):
        for needle in rule.needles:
            needles.setdefault(needle.lower(), []).append(index)
        for prefix in rule.prefixes:
            prefixes.setdefault(prefix.lower(), []).append(index)
    plan = _Plan(
        char_sets=tuple(
            ("".join(sorted(chars)), "".join(sorted(chars - starts)), letters) for chars, starts, letters in kept
        ),
        rules=tuple(rules),
        needles=tuple((needle, tuple(indices)) for needle, indices in needles.items()),
        prefixes={prefix: tuple(indices) for prefix, indices in prefixes.items()},
        prefix_chars="".join(sorted({char for prefix in prefixes for char in prefix})),
        longest=max(map(len, prefixes), default=0),
    )
    _PLANS[kinds] = plan
    return plan


def _covers(
    other: tuple[frozenset[str], frozenset[str], bool], chars: frozenset[str], starts: frozenset[str], letters: bool
) -> bool:
    """Whether a character-set rule ``other`` holds at least what a rule of ``chars`` beginning with ``starts`` (and
    going on through address letters when ``letters``) would: its run reaches at least as far back, and each place
    that rule could begin at is one of its own beginnings."""
    return other != (chars, starts, letters) and chars <= other[0] and starts <= other[1] and (other[2] or not letters)


def hold_start(text: str, offset: int, kinds: Iterable[str], cap: int) -> int:
    """The first index of ``text[offset:]`` that could still belong to a match of one of ``kinds`` once more text
    arrives (``len(text)`` when none could), never more than ``cap`` characters back. Unknown kinds: ``KeyError``."""
    return hold_window(tuple(kinds), cap)(text, offset)


def hold_window(kinds: tuple[str, ...], cap: int) -> Callable[[str, int], int]:
    """:func:`hold_start` for one selection of kinds, planned once (a carry-over buffer's ``hold``). A scan of the
    stream calls it once: a few C-level string operations per character set and per needle."""
    plan = _plan(kinds)
    char_sets, rules, needles, prefixes = plan.char_sets, plan.rules, plan.needles, plan.prefixes
    prefix_chars, longest = plan.prefix_chars, plan.longest
    spans = tuple(cap if rule.span is None else min(cap, rule.span) for rule in rules)
    #: one search for any needle before the search for each (held prose has none, most of the time)
    any_needle = re.compile("|".join(re.escape(needle) for needle, _indices in needles)).search if needles else None

    def earliest(text: str, index: int, at: int, low: int) -> int:
        """``at``, or for a rule holding from the start of an identifier, that start."""
        if rules[index].word_start:
            while at > low and text[at - 1] in _IDENTIFIER:
                at -= 1
        return at

    def hold(text: str, offset: int) -> int:
        end = len(text)
        low = max(offset, end - cap)
        start = end
        window = text[low:]
        for chars, others, letters in char_sets:
            before = len(window.rstrip(chars))
            if letters and not window.isascii():
                while before and _ADDRESS_LETTER.match(window, before - 1):
                    before = len(window[: before - 1].rstrip(chars))
            if before < len(window):  # the trailing run: the hold starts at the first character a match begins with
                run = window[before:]
                start = min(start, low + before + len(run) - len(run.lstrip(others)))
        if not rules:
            return start
        lowered = window.lower() if window.isascii() else window.translate(_ASCII_LOWER)
        # a proper prefix of a needle ending the text (only inside the trailing run of those prefixes' characters)
        last = lowered[-longest:]
        for n in range(len(last) - len(last.rstrip(prefix_chars)), 0, -1):
            for index in prefixes.get(last[-n:], ()):
                at = end - n
                rule = rules[index]
                if at >= end - spans[index] and (rule.caseless or text[at:] in rule.prefixes):
                    start = min(start, earliest(text, index, at, low))
        # the earliest needle the text after it can still grow from into a match
        if any_needle is None or any_needle(lowered) is None:
            return start
        for needle, indices in needles:
            at = lowered.find(needle)
            while at != -1:
                for index in indices:
                    where = low + at
                    if where >= end - spans[index] and rules[index].tail.match(text, where):
                        start = min(start, earliest(text, index, where, low))
                at = lowered.find(needle, at + 1)
        return start

    return hold


__all__ = ["LETTER_KINDS", "STARTERS", "TAIL_CHARS", "TAIL_RULES", "TailRule", "hold_start", "hold_window"]
