"""PII detection on top of the shared pattern table (:mod:`processors.builtin.patterns`).

``patterns`` finds the raw candidates; this module sharpens them for :class:`PIIDetector`:

* phone numbers and e-mail addresses use stricter patterns of their own (a phone number needs a ``+``
  country code, an area code in parentheses, or three separated groups of 10 to 12 digits; ``logo@2x.png`` is
  a file name, not an address; ``o'neil@…`` is);
* card numbers must have an issuer prefix valid for their length (an IMEI passes Luhn but is no card);
* an SSN written without dashes counts after the words "SSN" / "social security number";
* more token formats (GitLab, Hugging Face, npm, SendGrid, Twilio, Mailgun, Slack webhooks, ``*_KEY=``
  variables), and placeholders (``sk_live_xxxx…``, ``YOUR_API_KEY``, ``${VAR}``) are not secrets;
* overlaps are resolved by length, then by how specific a kind is (an IPv4 address beats a phone number).

    detect("mail jo@example.com", ["email", "phone"])  # [Match(kind='email', start=5, end=19, ...)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from processors.builtin.patterns import (
    CATEGORY,
    GROUPS,
    PATTERNS,
    VALIDATORS,
    Match,
    expand_kinds,
    find_all,
    keep_disjoint,
)

#: Mastra's detection types that regular expressions find.
REGEX_TYPES: Final = (
    "email", "phone", "credit-card", "ssn", "api-key", "ip-address", "url", "uuid", "crypto-wallet", "iban",
)  # fmt: skip
#: Types only a model judge can find.
JUDGE_TYPES: Final = ("name", "address", "date-of-birth")
ALL_TYPES: Final = (*REGEX_TYPES, *JUDGE_TYPES)

_PHONE: Final = re.compile(
    r"(?<![\w+.-])(?<!\d[ .-])(?:"
    r"\+\d{1,3}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d{1,8}){1,6}"
    r"|\(\d{2,4}\)[ .-]?\d{3,4}[ .-]?\d{3,5}"
    r"|\d{2,4}([ .-])\d{3,4}\1\d{3,5}"
    r")(?!\w|[ .-]\d)"
)
_EMAIL: Final = re.compile(
    r"(?<![\w.%+'-])[A-Za-z0-9._%+-](?:[A-Za-z0-9._%+'-]{0,62}[A-Za-z0-9_%+-])?"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z0-9])"
)
#: File extensions that are no top-level domain: ``icon@2x.png`` is an asset, not an address.
_FILE_TLDS: Final = frozenset({
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "tif", "tiff", "heic", "pdf", "css", "js", "mjs",
    "json", "yaml", "yml", "toml", "txt", "html", "htm", "xml", "csv",
})  # fmt: skip
_SSN_WORDS: Final = re.compile(
    r"(?i:\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?)\s*(?:#|:|=|is|was)?\s*)(\d{9})(?!\d)"
)
_ANY_DIGIT: Final = re.compile(r"\d")
_SSN_NEEDLE: Final = re.compile(r"(?i)ssn|social")
_DATE_LIKE: Final = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")
_OWN_SECRETS: Final[dict[str, re.Pattern[str]]] = {
    "gitlab-token": re.compile(r"(?<![\w-])glpat-[A-Za-z0-9_-]{20,}"),
    "huggingface-token": re.compile(r"(?<![\w-])hf_[A-Za-z0-9]{30,}(?!\w)"),
    "npm-token": re.compile(r"(?<![\w-])npm_[A-Za-z0-9]{36}(?!\w)"),
    "sendgrid-key": re.compile(r"(?<![\w-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![\w-])"),
    "twilio-key": re.compile(r"(?<![\w-])SK[0-9a-f]{32}(?!\w)"),
    "mailgun-key": re.compile(r"(?<![\w-])key-[0-9a-f]{32}(?!\w)"),
    "slack-webhook": re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}"),
    # FOO_API_KEY=..., DB_PASSWORD: ... (the value must look random: checked by _random_enough)
    "secret-variable": re.compile(
        r"\b[A-Za-z][A-Za-z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD)[\"']?\s*[:=]\s*[\"']?"
        r"([A-Za-z0-9+/_.~-]{16,})(?![\w+/.~-])"
    ),
}
#: Token formats the shared table lacks (a kind it gains later is used from there instead, never scanned twice).
_EXTRA_SECRETS: Final = {kind: pattern for kind, pattern in _OWN_SECRETS.items() if kind not in PATTERNS}
_EXTRA_CHECK: Final = {"gitlab-token": "glpat-", "huggingface-token": "hf_", "npm-token": "npm_",
                       "sendgrid-key": "SG.", "twilio-key": "SK", "mailgun-key": "key-", "slack-webhook": "hooks.slack",
                       "secret-variable": "="}  # fmt: skip
_PLACEHOLDER: Final = re.compile(r"(?i)x{6,}|your[_-]|example|placeholder|changeme|redacted|\$\{|<[a-z_]+>|(.)\1{7,}")

#: Tie-break among equally long overlapping matches: the more specific kind first.
_PRIORITY: Final = {
    kind: index
    for index, kind in enumerate(
        [
            "private-key", "jwt", "anthropic-key", "openai-key", "github-token", "slack-token", "slack-webhook",
            "google-api-key", "stripe-key", "aws-access-key", "aws-secret-key", "gitlab-token", "huggingface-token",
            "npm-token", "sendgrid-key", "twilio-key", "mailgun-key", "credit-card", "iban", "ssn", "uuid",
            "btc-address", "eth-address", "ipv4", "ipv6", "email", "url", "bearer-token", "secret-variable",
            "secret-assignment", "phone",
        ]
    )
}

#: Kinds of the shared table this module replaces with its own pattern.
_REPLACED: Final = frozenset({"phone", "email"})


def kinds_for(types: Iterable[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """Detection types → (kinds to ask ``patterns.find_all`` for, extra kinds found here)."""
    wanted = [t for t in types if t in REGEX_TYPES]
    shared = tuple(k for k in expand_kinds(wanted) if k not in _REPLACED)
    extra: set[str] = set()
    if "phone" in wanted:
        extra.add("phone")
    if "email" in wanted:
        extra.add("email")
    if "ssn" in wanted:
        extra.add("ssn-words")
    if "api-key" in wanted:
        extra.update(_EXTRA_SECRETS)
    return shared, frozenset(extra)


def candidates(text: str, shared: tuple[str, ...], extra: frozenset[str]) -> list[Match]:
    """Every validated match, overlapping ones included (what a carry-over buffer needs)."""
    found = [_value_only(m) for m in find_all(text, shared, overlapping=True) if _keep(m)] if shared else []
    if "phone" in extra and _ANY_DIGIT.search(text) is not None:
        for hit in _PHONE.finditer(text):
            if _phone_ok(hit.group()):
                found.append(Match("phone", hit.start(), hit.end(), hit.group()))
    if "email" in extra and "@" in text:
        for hit in _EMAIL.finditer(text):
            value = hit.group()
            if value.rsplit(".", 1)[-1].lower() not in _FILE_TLDS:
                found.append(Match("email", hit.start(), hit.end(), value))
    if "ssn-words" in extra and _SSN_NEEDLE.search(text) is not None:
        for hit in _SSN_WORDS.finditer(text):
            digits = hit.group(1)
            if VALIDATORS["ssn"](f"{digits[:3]}-{digits[3:5]}-{digits[5:]}"):
                found.append(Match("ssn", hit.start(1), hit.end(1), digits))
    for kind, pattern in _EXTRA_SECRETS.items():
        if kind in extra and _EXTRA_CHECK[kind] in text:
            for hit in pattern.finditer(text):
                if kind != "secret-variable":
                    found.append(Match(kind, hit.start(), hit.end(), hit.group()))
                elif _random_enough(hit.group(1)):  # the value only: "DB_PASSWORD=" stays readable
                    found.append(Match(kind, hit.start(1), hit.end(1), hit.group(1)))
    return found


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
def _keep(match: Match) -> bool:
    kind = match.kind
    if kind == "credit-card":
        return card_issuer_ok(match.value)
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


def card_issuer_ok(value: str) -> bool:
    """Whether the number's issuer prefix (IIN) allows its length: Visa, Mastercard, Amex, Discover, JCB ..."""
    digits = "".join(c for c in value if c.isdigit())
    n = len(digits)
    if n < 12:
        return False
    p2, p3, p4, p6 = int(digits[:2]), int(digits[:3]), int(digits[:4]), int(digits[:6])
    if digits[0] == "4":
        return n in (13, 16, 19)
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:
        return n == 16
    if p2 in (34, 37):
        return n == 15
    if p4 == 6011 or p2 == 65 or 644 <= p3 <= 649 or 622126 <= p6 <= 622925:
        return 16 <= n <= 19
    if 3528 <= p4 <= 3589:
        return 16 <= n <= 19
    if 300 <= p3 <= 305 or p2 in (36, 38, 39):
        return 14 <= n <= 19
    if p2 == 62:
        return 16 <= n <= 19
    return p2 == 50 or 56 <= p2 <= 69  # Maestro: 12 to 19 digits


def _phone_ok(value: str) -> bool:
    digits = sum(c.isdigit() for c in value)
    if value.startswith("+"):
        return 8 <= digits <= 15
    return 10 <= digits <= 12 and _DATE_LIKE.fullmatch(value) is None


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
    "PATTERNS",
    "REGEX_TYPES",
    "candidates",
    "card_issuer_ok",
    "category",
    "detect",
    "kinds_for",
    "resolve",
]
