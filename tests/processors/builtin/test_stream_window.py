"""PIIDetector's stream holds back only what could still become a match, and stays split independent for every kind.

Since b1932dc the default detector held the last 128 characters of plain prose (every kind without a character set
in ``stream_window.TAIL_CHARS`` kept its whole span, or ``carry_over`` when it had none), so a reply showed ~25 words
behind the model. Now a kind without a character set holds from its needle (``sk-``, ``eyJ``, ``Bearer``, a secret's
keyword ...) only while the text after it can still grow into a match, or from a partial needle ending the text.

The guarantee checked here is SPLIT INDEPENDENCE: for any cut of a reply, the text the detector streams equals the
whole reply's redaction. It is checked for every kind the default detector streams, on positive samples of each kind
(every line of the labelled corpora holding one, and the hand-written cases below for the traps: a URL going on after
a full stop, an SSH remote, values accepted only once their digits arrive ...), cut in two at every position and one
character a chunk (driving the hook directly), and through real agents with :func:`~processors.testing.split_fuzz`.
"""

from __future__ import annotations

import json
import re

import pytest

from processors.builtin import stream_window
from processors.builtin.patterns import PATTERNS, with_needles
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.pii_patterns import _DIGIT_KINDS, ALL_TYPES, candidates, candidates_after, kinds_for
from processors.builtin.split_across_chunks import BATCH
from processors.builtin.stream_window import TAIL_CHARS, TAIL_RULES, hold_start
from processors.chunks import AnyChunk, TextEndChunk, TextPayload
from processors.testing.split_fuzz import fuzz_splits
from tests.processors.builtin.corpus import STARTER, load
from tests.processors.helpers import drive_stream, guard_timeline, text_delta


@pytest.fixture(autouse=True)
def plan_anew() -> None:
    """Each test plans its kinds afresh: the plans are cached per selection of kinds, a speed-up only, and a plan
    made by an earlier test must not stand in for the planning a test checks."""
    stream_window._PLANS.clear()


DEFAULT = PIIDetector()
#: The kinds the default detector's stream window covers (the shared table's and the detector's own).
KINDS: tuple[str, ...] = DEFAULT._stream_kinds
CAP = DEFAULT.options.carry_over

ENGLISH = (
    "Thanks for writing in! Your order shipped on Monday and should arrive within three working days. If anything "
    "is missing, reply to this message and we will sort it out; the team reads every note, even on weekends. "
    "Meanwhile, here is a short summary of what changed: the bearer of this note, a passing token of our thanks, "
    "keys the secret of a good password policy to its author (who was social, as ever). Sincerely, Support."
)
CHINESE = (
    "感谢您的来信！您的订单已于周一发货，预计三个工作日内送达。如有任何缺失，请直接回复本邮件，我们会尽快处理；"
    "团队每天都会阅读每一条留言，周末也不例外。以下是本次变更的简要说明：请妥善保管您的账户，不要向任何人透露密码。"
)


# ------------------------------------------------------------------------------------------------ the rules
def test_every_kind_a_detector_can_stream_has_a_hold_rule() -> None:
    """A kind with neither a character set nor a needle rule used to fall back to ``carry_over`` (128) silently."""
    shared, extra = kinds_for(ALL_TYPES)
    every = {*shared, *extra, *PATTERNS}
    assert not {kind for kind in every if kind not in TAIL_CHARS and kind not in TAIL_RULES}
    for kind, rule in TAIL_RULES.items():
        assert rule.span is None or 0 < rule.span <= 128, kind


def test_a_kind_without_a_rule_is_refused() -> None:
    with pytest.raises(KeyError, match="no-such-kind"):
        hold_start("some text", 0, ("email", "no-such-kind"), 128)


#: A keyword that may still be followed by a secret or an SSN, and the spaces after it.
KEYWORD_AT_END = re.compile(r"(?:(?i:\b(?:token|secret|key|password|passwd|pwd|ssn|social))|\bBearer)\s+\Z")
#: A word being written: the trailing run of ASCII characters other than spaces (a Chinese sentence has none).
ASCII_WORD = "".join(chr(c) for c in range(33, 127))


@pytest.mark.parametrize("prose", [ENGLISH, CHINESE, f"{ENGLISH}\n\n{CHINESE}"], ids=["English", "Chinese", "both"])
def test_plain_prose_is_held_back_by_at_most_its_trailing_word_and_two_characters(prose: str) -> None:
    """Wherever the prose stops, the default detector holds at most the word being written (it may still become
    an e-mail address) and two characters before it ("bye. " could still be the start of a phone number), or a
    secret's keyword and the spaces after it ("a passing token " may go on "= …"); in Chinese prose, at most two
    characters."""
    for end in range(1, len(prose) + 1):
        text = prose[:end]
        held = end - hold_start(text, 0, KINDS, CAP)
        word = len(text) - len(text.rstrip(ASCII_WORD))
        keyword = KEYWORD_AT_END.search(text)
        assert held <= max(word, len(keyword.group()) if keyword else 0), (text[-40:], held)


@pytest.mark.parametrize(
    ("text", "kinds", "held"),
    [
        ("Authorization: Bea", ("bearer-token",), "Bea"),
        ("Authorization: Bearer ", ("bearer-token",), "Bearer "),
        ("Authorization: Bearer abc.def", ("bearer-token",), "Bearer abc.def"),
        ("the token is ey", ("jwt",), "ey"),
        ("the token is eyJhbGciOi", ("jwt",), "eyJhbGciOi"),
        ("use sk", ("openai-key",), "sk"),
        ("use sk-proj-", ("openai-key",), "sk-proj-"),
        ("set the passw", ("secret-assignment",), "passw"),
        ("set the PASSWORD", ("secret-assignment",), "PASSWORD"),
        ("api_key = ", ("secret-assignment",), "key = "),
        ('password: "abc', ("secret-assignment",), 'password: "abc'),
        ("export DB_PASSW", ("secret-variable",), "DB_PASSW"),
        ("export DB_PASSWORD=Xk29", ("secret-variable",), "DB_PASSWORD=Xk29"),
        ("mailgun key-0123abc", ("mailgun-key",), "key-0123abc"),
        ("Here: SG.", ("sendgrid-key",), "SG."),
        ("my SSN is ", ("ssn-words",), "SSN is "),
        ("my social security number: 12345", ("ssn-words",), "social security number: 12345"),
        ("key -----BEGIN RSA PRIV", ("private-key",), "-----BEGIN RSA PRIV"),
        ("see https://example.com/a.", ("url",), "https://example.com/a."),
        ("see htt", ("url",), "htt"),
        ("id AKIA1234", ("aws-access-key",), "AKIA1234"),
        ("aws_secret_access_key = ", ("aws-secret-key",), "aws_secret_access_key = "),
        ("ghp_abc", ("github-token",), "ghp_abc"),
        # the default detector: a partial needle at the end is held, however many kinds there are
        ("Authorization: Bea", KINDS, "Bea"),
        ("Authorization: Bearer ", KINDS, "Bearer "),
        ("set the password = ", KINDS, "password = "),
        ("my SSN: ", KINDS, "SSN: "),
    ],
)
def test_text_ending_in_a_partial_needle_or_keyword_is_held(text: str, kinds: tuple[str, ...], held: str) -> None:
    assert text[hold_start(text, 0, kinds, CAP) :] == held


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("the Bearer of bad news ", ("bearer-token",)),
        ("Bearer tokens expire. ", ("bearer-token",)),
        ("the password is on the card ", ("secret-assignment",)),
        ("a token of thanks ", ("secret-assignment",)),
        ("her SSN was lost. ", ("ssn-words",)),
        ("social media is fun ", ("ssn-words",)),
        ("see https://example.com/a for more ", ("url",)),
        ("sk-abc is short. ", ("openai-key",)),
        ("-----BEGIN CERTIFICATE-----\nMIIB", ("private-key",)),
    ],
)
def test_a_needle_the_text_can_no_longer_complete_holds_nothing(text: str, kinds: tuple[str, ...]) -> None:
    assert hold_start(text, 0, kinds, CAP) == len(text)


async def test_the_default_detector_streams_prose_at_most_a_batch_and_a_word_behind_the_model() -> None:
    """What has entered the detector and not left it is at most one scan batch (16 characters) and the longest word
    (or keyword with its space) the detector held at the last scan: 27 characters of this English, 16 of the
    Chinese. On ``main`` before this fix: 128 characters and more."""
    english = [word + " " for word in ENGLISH.split()]
    chinese = [CHINESE[i : i + 3] for i in range(0, len(CHINESE), 3)]
    longest = max(len(word) for word in english)
    for deltas, bound in ((english, BATCH + longest), (list(ENGLISH), BATCH + longest), (chinese, BATCH)):
        timeline = await guard_timeline(PIIDetector(), deltas)
        entered = left = 0
        for delta, out in timeline:
            entered += len(delta or "")
            left += sum(len(text) for text in out)
            if delta is not None:
                assert entered - left <= bound, (delta, entered, left)


# ------------------------------------------------------------------------------------------------ samples
#: Hand-written samples for the traps (each also a positive sample of its kind).
EDGE_SAMPLES = [
    "Read https://example.com/docs/page.html for more.",  # a URL that goes on after a full stop
    "See https://example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s.....html then stop",
    "clone git@github.com:acme/repo.git today, or mail jo@example.com.",  # an SSH remote is no address
    "The SSN 219099999 is on the W-2 form.",
    "my social security number is 509317783, thanks",
    "ssn: 123456789 (on file)",
    "Authorization: Bearer abcdefghijklmnop1234 and more",
    "Authorization: Bearer      abcdefghijklmnop1234XYZ== end",
    "password = correcthorsebatterystaplecorrecthorsebatterystaple9 done",  # random only once its digit arrives
    "stripe sk_live_abcdefghijklmnopqrstuvwxyzabcdefghijklmnop1 ok",
    "DB_PASSWORD: Xk29fLq8Zp3mWv7Rt and later x=1",  # a colon assignment, with an "=" elsewhere in the text
    "twilio AK0123456789abcdef0123456789abcdef then SKU 12",  # a key whose needle only comes later in the text
    "mailgun key-0123456789abcdef0123456789abcdef done",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x\n-----END RSA PRIVATE KEY----- ok",
    "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
    "MY_VERY_LONG_APPLICATION_SPECIFIC_DATABASE_PASSWORD=Xk29fLq8Zp3mWv7RtYu8 ok",
    "address ::ffff:192.168.1.1 and 2001:db8::1. Done",
    "Call +1 415 555 2671. Or 415-555-2671x no.",
]


def stream_samples() -> list[str]:
    """Every line of the labelled corpora and the starter corpora, and the hand-written traps."""
    texts = [
        row["text"]
        for name in ("pii_corpus.jsonl", "pii_holdout.jsonl", "pii_multilingual_corpus.jsonl",
                     "pii_multilingual_holdout.jsonl", "secrets_corpus.jsonl")
        for row in load(name)
    ]  # fmt: skip
    for path in sorted(STARTER.glob("*.jsonl")):
        texts += [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [*texts, *EDGE_SAMPLES]


def found_alone(text: str, kind: str) -> bool:
    """Whether the default detector's ``kind`` alone finds something in ``text``."""
    shared, extra = DEFAULT._shared, DEFAULT._extra
    if kind in shared:
        return bool(candidates(text, (kind,), frozenset()))
    assert kind in extra, kind
    return bool(candidates(text, (), frozenset({kind})))


SAMPLES = stream_samples()
BY_KIND: dict[str, list[str]] = {kind: [text for text in SAMPLES if found_alone(text, kind)] for kind in KINDS}
POSITIVE = sorted({text for texts in BY_KIND.values() for text in texts})


def test_every_kind_has_positive_samples() -> None:
    assert not [kind for kind, texts in BY_KIND.items() if not texts]


END: AnyChunk = TextEndChunk(run_id="r", payload=TextPayload(id="t1"))


def streamed(detector: PIIDetector, deltas: list[str]) -> str:
    out = drive_stream(detector, [*[text_delta(d) for d in deltas], END])
    return "".join(part.payload.text for part in out if part.type == "text-delta")  # type: ignore[union-attr]


def whole(detector: PIIDetector, text: str) -> str:
    return detector.redact(text, detector.detect_offline(text))


@pytest.mark.parametrize("method", ["placeholder", "mask"])
def test_every_positive_sample_cut_anywhere_is_redacted_as_a_whole(method: str) -> None:
    """Each sample cut in two at every position (the first piece is always scanned, so every prefix of the sample
    is a place the detector decided what to let out), and one character a chunk."""
    detector = PIIDetector(redaction_method=method)
    failures = []
    for text in POSITIVE:
        expected = whole(detector, text)
        if streamed(detector, list(text)) != expected:
            failures.append((text, "one character a chunk"))
        for cut in range(1, len(text)):
            if streamed(detector, [text[:cut], text[cut:]]) != expected:
                failures.append((text, cut))
                break
    assert not failures


async def test_two_samples_of_each_kind_stream_as_a_whole_through_agents() -> None:
    """The public fuzzer (real agents, the cuts ``split_fuzz.cuts`` makes: nothing found), and what left the detector
    cut in two and one character a chunk (``guard_timeline`` checks it is the final text: text streamed unredacted
    and redacted only by the final message check would differ)."""
    for kind, texts in BY_KIND.items():
        for text in {texts[0], texts[-1]}:
            findings = await fuzz_splits(lambda: [PIIDetector(redaction_method="placeholder")], text, random_cuts=6)
            assert findings == [], (kind, text)
            for deltas in ([text[: len(text) // 2], text[len(text) // 2 :]], list(text)):
                await guard_timeline(PIIDetector(redaction_method="placeholder"), deltas)


def test_the_stream_finds_in_the_held_text_what_a_scan_of_the_whole_buffer_finds_there() -> None:
    """``candidates_after`` looks for needles in the held text only (a kind whose needle stands in the context let
    out has no new match): at every offset of every sample, the same matches as the full scan, cut at the offset."""
    shared, extra = DEFAULT._shared, DEFAULT._extra
    for text in POSITIVE:
        for offset in range(len(text) + 1):
            full = sorted((m for m in candidates(text, shared, extra) if m.start >= offset), key=repr)
            assert sorted(candidates_after(text, offset, shared, extra), key=repr) == full, (text, offset)


def test_the_kinds_a_stream_scan_skips_without_a_digit_need_one() -> None:
    every_other_character = "".join(chr(c) for c in range(32, 127) if not chr(c).isdigit())
    assert with_needles(every_other_character * 2, sorted(_DIGIT_KINDS)) == []
    assert sorted(with_needles("1234-5678 90 0x 1.2 3", sorted(_DIGIT_KINDS))) == sorted(_DIGIT_KINDS)
