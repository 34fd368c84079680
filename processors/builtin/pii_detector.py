"""``PIIDetector``: find personal data offline (optionally with a model judge); block, warn, filter or redact.

Regular expressions with validators find e-mail addresses, phone numbers, Luhn-checked card numbers,
mod-97-checked IBANs, SSNs, IP addresses, API keys and tokens, URLs, UUIDs and crypto wallets. Names,
postal addresses and dates of birth need the optional judge (``model``). Input and output messages are
checked whole; the output stream is checked with a carry-over buffer, so a value split across chunks is
still caught and the redacted text does not depend on where the stream was split (adjoining values too: a value
that its neighbour hides until the neighbour is replaced waits for it, :mod:`~processors.builtin.adjoining`); only
the trailing text that could still begin a match is held back (a word or two of prose), so the answer still
streams::

    agent = Agent(..., output_processors=[PIIDetector(strategy="redact", redaction_method="placeholder")])
    # "Mail jo@example.com" streams as "Mail [EMAIL]"

    PIIDetector(model="openai/gpt-4o-mini", detection_types=["name", "email"], strategy="block")

Redaction methods: ``mask`` (``j***n@*******.com``, ``**** **** **** 1111``, ``DE****3000``), ``hash``
(``[HASH:1a2b3c4d]``), ``remove`` and ``placeholder`` (``[EMAIL]``, ``[CREDIT_CARD]``).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, Field, field_validator

from processors.builtin.adjoining import may_join, may_uncover, may_uncover_once, remember_shown, with_adjoining
from processors.builtin.base import BuiltinProcessor
from processors.builtin.judge import JudgeOptions, consult_judge, judge_model
from processors.builtin.patterns import Match
from processors.builtin.pii_patterns import (
    ALL_TYPES,
    JUDGE_TYPES,
    REGEX_TYPES,
    candidates,
    category,
    kinds_for,
    resolve,
    stream_finder,
)
from processors.builtin.span_strategy import enforce, enforce_message, enforce_segment, replace_spans
from processors.builtin.split_across_chunks import (
    CONTEXT_CHARS,
    CarryOver,
    Finder,
    SegmentHandler,
    stream_part,
    stream_part_async,
)
from processors.builtin.stream_window import hold_window
from processors.builtin.text_checks import check_messages
from processors.chunks import AnyChunk, StepStartChunk, TextDeltaChunk
from processors.messages import Message
from processors.pipeline.processor import (
    HookArgs,
    ProcessInputArgs,
    ProcessOutputResultArgs,
    ProcessOutputStreamArgs,
)

logger = logging.getLogger(__name__)

PIIType = Literal[
    "email", "phone", "credit-card", "ssn", "api-key", "ip-address", "url", "uuid", "crypto-wallet", "iban",
    "cn-resident-id", "tw-national-id", "hk-id", "name", "address", "date-of-birth",
]  # fmt: skip
_DEFAULT_TYPES: tuple[PIIType, ...] = get_args(PIIType)
assert set(_DEFAULT_TYPES) == set(ALL_TYPES)
Strategy = Literal["block", "warn", "filter", "redact"]
RedactionMethod = Literal["mask", "hash", "remove", "placeholder"]

_SENTENCE_END = re.compile(r"[.!?\n]\s+")
#: The stream's detections let out that its left context still holds (in the step's text's positions), and where
#: the text let out ends, under these keys of the hook's state.
_SHOWN = "shown"
_SHOWN_UNTIL = "shown_until"
#: The detections (in the step's text's positions) whose replacement was found to uncover nothing.
_SETTLED = "settled"
#: The stream's finder and segment handler (made once per stream), and the hook's arguments of the call.
_HOOKS = "hooks"
_ARGS = "args"

JUDGE_PROMPT = """You find personally identifiable information (PII) in text.
Look for these types: {types}.
Answer with JSON only: {{"detections": [{{"type": "<one of the types>", "value": "<the exact text as it appears>",
"confidence": <0..1>}}]}}. Copy each value verbatim from the text. If there is no PII, answer {{"detections": []}}."""


class PIIDetectorOptions(JudgeOptions):
    detection_types: list[PIIType] = Field(
        default=list(_DEFAULT_TYPES),
        description="What to look for (name, address and date-of-birth need a model)",
    )
    threshold: float = Field(default=0.6, ge=0.0, le=1.0, description="Judge detections need this confidence")
    strategy: Strategy = Field(default="redact", description="block, warn, filter (drop) or redact")
    redaction_method: RedactionMethod = Field(default="mask", description="mask, hash, remove or placeholder")
    preserve_format: bool = Field(default=True, description="Masks keep the value's length and separators")
    include_detections: bool = Field(default=False, description="Put the detected values in the tripwire metadata")
    last_message_only: bool = Field(default=False, description="Check only the last message")
    carry_over: int = Field(default=128, ge=16, le=4096, description="Stream: most characters held back between chunks")
    buffer_size: int = Field(default=200, ge=32, le=16384, description="Stream with a judge: longest segment held")

    texts: ClassVar[Mapping[str, str]] = {
        "no_type": "name at least one detection type",
    }

    @field_validator("detection_types")
    @classmethod
    def _some_types(cls, value: list[str]) -> list[str]:
        if not value:
            raise cls.problem("no_type")
        return list(dict.fromkeys(value))


class JudgedPII(BaseModel):
    type: str
    value: str
    confidence: float = 1.0


class PIIVerdict(BaseModel):
    detections: list[JudgedPII] = Field(default_factory=list)


class PIIDetector(BuiltinProcessor):
    """Detect PII in input messages, output messages and the output stream (see the module docstring)."""

    id = "pii-detector"
    name = "PII detector"
    description = "Finds personal data offline (optionally with a model judge); blocks, warns, filters or redacts."
    texts: ClassVar[Mapping[str, str]] = {
        "detected": "PII detected. Types: {types}",
        "judge_failed": "PII detection failed because the judge model call failed: {error}",
    }
    #: The stream hook also sees ``data-*`` chunks, only to keep them in their place behind held-back text
    #: (:mod:`~processors.builtin.held_chunk_order`): passing it, a chunk written mid-reply would overtake that text.
    process_data_parts = True
    type_name: ClassVar[str] = "PIIDetector"
    needs_model: ClassVar[bool] = False
    Options = PIIDetectorOptions
    options: PIIDetectorOptions

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        types = self.options.detection_types
        self._regex_types = tuple(t for t in types if t in REGEX_TYPES)
        self._judge_types = tuple(t for t in types if t in JUDGE_TYPES)
        self._shared, self._extra = kinds_for(self._regex_types)
        #: The stream holds back only what could still begin a match (:mod:`~processors.builtin.stream_window`),
        #: never more than ``carry_over`` characters: a word or two of prose.
        self._stream_kinds = (*self._shared, *sorted(self._extra))
        self._hold = hold_window(self._stream_kinds, self.options.carry_over)
        #: ``candidates_after`` for these kinds, planned once (the stream scans every 16 characters)
        self._find_after = stream_finder(self._shared, self._extra)
        self._model = judge_model(self.options)
        if self._judge_types and self._model is None:
            logger.info(
                "PIIDetector: %s need a model judge; without one they are not detected", ", ".join(self._judge_types)
            )
        if self._model is not None and self._judge_types:
            self.__dict__["process_output_stream"] = self._process_output_stream_judged

    # ----------------------------------------------------------------------------------------- detection
    def find(self, text: str) -> list[Match]:
        """Candidate regex detections (overlapping), as the carry-over buffer needs them."""
        return candidates(text, self._shared, self._extra)

    def detect_offline(self, text: str) -> list[Match]:
        """Disjoint regex detections in ``text`` (with those its redaction uncovers: :mod:`.adjoining`)."""
        return self._with_adjoining(text, resolve(self.find(text))) if self._regex_types else []

    def _with_adjoining(self, text: str, found: list[Match]) -> list[Match]:
        """``found`` and the regex detections that show once it is replaced, so that a second redaction of the
        redacted text finds nothing more (``(02)2720-1234(02)2720-1234``: the second number hides behind the
        first one's last digit until it is replaced)."""
        method = self.options.redaction_method
        if not found or not self._regex_types or (method != "remove" and not may_uncover(text, found)):
            return found  # (the common text: nothing a replacement could uncover; checked again in there)
        preserve_format = self.options.preserve_format
        return with_adjoining(
            text,
            found,
            lambda replaced: resolve(self.find(replaced)),
            lambda match: redact_value(match.value, category(match.kind), method, preserve_format),
            joins=method == "remove",
        )

    async def detect(self, text: str, args: HookArgs, *, types: tuple[str, ...] | None = None) -> list[Match]:
        """Regex detections plus the judge's (when there is a model); judge failures follow ``error_strategy``."""
        found = self.find(text) if self._regex_types else []
        if self._model is not None:
            wanted = types if types is not None else self.options.detection_types
            prompt = JUDGE_PROMPT.format(types=", ".join(wanted))
            verdict = await consult_judge(args, self.options, self._model, self, prompt, text, PIIVerdict)
            if verdict is not None:
                found += self._locate(text, verdict, wanted)
        return self._with_adjoining(text, resolve(found))

    def _locate(self, text: str, verdict: PIIVerdict, wanted: Any) -> list[Match]:
        located = []
        for item in verdict.detections:
            if item.type not in wanted or item.confidence < self.options.threshold or not item.value.strip():
                continue
            start = text.find(item.value)
            while start != -1:
                located.append(Match(item.type, start, start + len(item.value), item.value))
                start = text.find(item.value, start + len(item.value))
        return located

    # ----------------------------------------------------------------------------------------- messages
    async def process_input(self, args: ProcessInputArgs) -> list[Message]:
        return await self._messages(args, args.messages, roles=("user", "assistant"))

    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message]:
        return await self._messages(args, args.messages, roles=("assistant",))

    async def _messages(self, args: HookArgs, messages: list[Message], roles: tuple[str, ...]) -> list[Message]:
        async def check(message: Message, text: str) -> Message | None:
            def warn(found: list[Match]) -> None:
                logger.warning("PII detected in the %s message: %s", message.role, _types(found))

            return enforce_message(self, args, message, text, await self.detect(text, args), warn)

        return await check_messages(messages, roles, check, last_only=self.options.last_message_only)

    # ----------------------------------------------------------------------------------------- stream
    def process_output_stream(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        part = args.part
        state = args.state
        buffer = CarryOver.of(state, "stream", carry=0)
        if buffer.hold is None:
            buffer.hold = self._hold_joined
        if isinstance(part, TextDeltaChunk) and buffer.waits(part):  # most chunks: the text waits for the next scan
            return None
        hooks: tuple[Finder, SegmentHandler] | None = state.get(_HOOKS)
        if hooks is None or isinstance(part, StepStartChunk):  # a new step: what the last let out is no context
            for key in (_SHOWN, _SHOWN_UNTIL, _SETTLED):
                state.pop(key, None)
            hooks = state[_HOOKS] = self._stream_hooks(state, buffer)
        state[_ARGS] = args
        return stream_part(part, state, buffer, *hooks)

    def _stream_hooks(self, state: dict[str, Any], buffer: CarryOver) -> tuple[Finder, SegmentHandler]:
        """The carry-over buffer's finder and segment handler for one stream (made once: the stream calls them at
        every scan), with what they keep for the look again in ``state``: the detections let out (``_SHOWN``),
        where the text let out ends (``_SHOWN_UNTIL``), the run's hook arguments (``_ARGS``)."""
        find_after = self._find_after
        uncovered = self._uncovered

        def find(text: str) -> list[Match]:
            # the buffer scans its held text behind the context it let out: only the held text is searched for needles
            offset = len(buffer.context)
            found = find_after(text, offset)
            shown: list[Match] | None = state.get(_SHOWN)
            if not found and not shown:
                return found  # the common case: prose, no value held or just let out
            extra = uncovered(state, text, offset, found, shown, buffer.emitted - offset)
            return found + extra if extra else found

        def handle(text: str, found: list[Match]) -> str:
            start: int = state.get(_SHOWN_UNTIL, 0)
            state[_SHOWN_UNTIL] = end = start + len(text)
            shown: list[Match] | None = state.get(_SHOWN)
            if not found:
                if shown and shown[-1].end <= end - CONTEXT_CHARS:
                    del state[_SHOWN]  # out of the left context now
                return text
            kept = resolve(found)
            remember_shown(state, _SHOWN, _SETTLED, (_moved(m, start) for m in kept), end, CONTEXT_CHARS)
            redacted = enforce(self, state[_ARGS], text, kept, _warn_stream)  # (enforce_segment, resolved once)
            return "" if redacted is None else redacted

        return find, handle

    def _hold_joined(self, text: str, offset: int) -> int:
        """Where the stream's held text begins (:mod:`~processors.builtin.stream_window`), moved back to the start
        of the word before it when that word may be a value that the text after it hides (:func:`~.adjoining.may_join`:
        ``A123456(3)138 1234 5``, an identity number the phone number's digits hide until the number is replaced;
        a number's groups count as one word), never more than ``carry_over`` characters: such a value waits to be
        redacted with its neighbour."""
        cut = self._hold(text, offset)
        if not may_join(text, cut):
            return cut  # the common case: the held text begins a word, after a space
        low = max(offset, cut - self.options.carry_over)
        while cut > low:
            while cut > low and not text[cut - 1].isspace():  # back over the word the cut fell in or after
                cut -= 1
            if cut > low and may_join(text, cut):  # "5698 7654": a space inside a number
                cut -= 1
                continue
            break
        return cut

    def _uncovered(
        self, state: dict[str, Any], text: str, offset: int, found: list[Match], shown: list[Match] | None, before: int
    ) -> list[Match]:
        """The detections that show in the held ``text[offset:]`` once ``found`` (its candidates) and the detections
        let out just before it (``shown``, in the step's text's positions; ``before``: where ``text`` starts there)
        are replaced, as the whole text's redaction replaces them (:meth:`_with_adjoining`): the stream lets out
        what the final message holds. ``[PHONE]`` let out, then ``(02)2720-1234`` held: the number's pattern sees
        the digit the replacement hid."""
        if self.options.redaction_method != "remove" and not self._may_uncover(state, text, found, shown, before):
            return []
        known = [_moved(m, -before) for m in shown or () if m.start >= before]
        known += resolve(found) if found else found
        if not known:
            return []
        settled = self._with_adjoining(text, known)
        if len(settled) == len(known):
            return []
        return [m for m in settled if m.start >= offset and m not in known]

    @staticmethod
    def _may_uncover(
        state: dict[str, Any], text: str, found: list[Match], shown: list[Match] | None, before: int
    ) -> bool:
        """Whether replacing a candidate of ``found`` (in ``text``, overlapping: the detections are among them) or a
        detection of ``shown`` may uncover a value; each is asked once its neighbours have come (``settled``): the
        stream asks at every scan. (A removed value joins its neighbours: the caller always looks again.)"""
        settled: set[tuple[int, int]] = state.setdefault(_SETTLED, set())
        for m in shown or ():
            key = (m.start, m.end)
            if m.start >= before and key not in settled and may_uncover_once(text, *key, before, settled):
                return True
        for m in found:
            start, end = m.start + before, m.end + before
            if (start, end) not in settled and may_uncover_once(text, start, end, before, settled):
                return True
        return False

    async def _process_output_stream_judged(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        part = args.part
        options = self.options
        buffer = CarryOver.of(
            args.state, "stream", carry=options.carry_over, max_hold=options.buffer_size, limit=_sentence_limit
        )

        async def handle(segment: str, found: list[Match]) -> str:
            judged = await self.detect(segment, args, types=self._judge_types)
            return enforce_segment(self, args, segment, found + judged, _warn_stream)

        return await stream_part_async(part, args.state, buffer, self.find, handle)

    # ----------------------------------------------------------------------------------------- actions
    def _block(self, args: HookArgs, found: list[Match]) -> None:
        metadata: dict[str, Any] = {"types": _types(found), "count": len(found)}
        if self.options.include_detections:
            metadata["detections"] = [
                {"type": category(m.kind), "value": m.value, "start": m.start, "end": m.end} for m in found
            ]
        raise self.tripwire("detected", metadata=metadata, types=", ".join(_types(found)))

    @staticmethod
    def _record(args: HookArgs, found: list[Match]) -> None:
        counts: dict[str, int] = args.state.setdefault("detections", {})
        for match in found:
            kind = category(match.kind)
            counts[kind] = counts.get(kind, 0) + 1

    def redact(self, text: str, found: list[Match]) -> str:
        """``text`` with each (disjoint, sorted) detection replaced by the redaction method's form."""
        method, preserve_format = self.options.redaction_method, self.options.preserve_format
        return replace_spans(text, found, lambda m: redact_value(m.value, category(m.kind), method, preserve_format))


def _sentence_limit(full: str, offset: int, cut: int) -> int:
    """Cut a judged stream only at a sentence end (at or before ``cut``), so the judge sees whole sentences."""
    last = offset
    for hit in _SENTENCE_END.finditer(full, offset):
        if hit.end() > cut:
            break
        last = hit.end()
    return last


def _moved(match: Match, shift: int) -> Match:
    return Match(match.kind, match.start + shift, match.end + shift, match.value)


def _types(found: list[Match]) -> list[str]:
    return list(dict.fromkeys(category(m.kind) for m in found))


def _warn_stream(found: list[Match]) -> None:
    logger.warning("PII detected in the output stream: %s", _types(found))


def redact_value(value: str, pii_type: str, method: RedactionMethod, preserve_format: bool = True) -> str:
    """One value in its redacted form (pure: the same value always gives the same text)."""
    if method == "remove":
        return ""
    if method == "placeholder":
        return f"[{pii_type.upper().replace('-', '_')}]"
    if method == "hash":
        return f"[HASH:{hashlib.sha256(value.encode()).hexdigest()[:8]}]"
    return mask(value, pii_type, preserve_format)


def mask(value: str, pii_type: str, preserve_format: bool = True) -> str:
    """Mastra's masks: ``j***n@*******.com``; cards, phones and SSNs keep their last four digits; ``DE****3000``."""
    if pii_type == "email" and "@" in value:
        local, _, domain = value.rpartition("@")
        host, _, tld = domain.rpartition(".")
        shown = local[0] + "***" + local[-1] if len(local) > 1 else "*"
        return f"{shown}@{'*' * len(host)}.{tld}" if host else f"{shown}@{'*' * len(domain)}"
    if pii_type in ("credit-card", "phone", "ssn"):
        total = sum(c.isdigit() for c in value)
        if not preserve_format:
            digits = [c for c in value if c.isdigit()]
            return "*" * max(total - 4, 0) + "".join(digits[-4:])
        seen = 0
        out = []
        for char in value:
            if char.isdigit():
                seen += 1
                out.append(char if seen > total - 4 else "*")
            else:
                out.append(char)
        return "".join(out)
    if pii_type == "iban":
        compact = value.replace(" ", "")
        return compact[:2] + "****" + compact[-4:]
    return "*" * len(value) if preserve_format else "*" * 8


__all__ = ["PIIDetector", "PIIDetectorOptions", "PIIVerdict", "mask", "redact_value"]
