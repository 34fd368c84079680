"""``RegexFilter``: block, redact or flag text matching regex rules and presets — no model call.

::

    from processors.builtin.regex_filter import RegexFilter

    RegexFilter(presets=["pii"], strategy="block", phase="input")       # refuse e-mails, phones, cards ... in input
    RegexFilter(presets=["secrets"], strategy="redact", phase="output")  # "sk-..." streams out as "[OPENAI_KEY]"
    RegexFilter(rules=[{"name": "ticket", "pattern": r"INC-(\\d{6})", "replacement": "INC-[$1]"}],
                strategy="redact")

Mastra's ``RegexFilterProcessor`` (id ``regex-filter``), hooks ``process_input``, ``process_output_stream`` and
``process_output_result`` (``phase`` chooses which act):

* **block** aborts with ``Regex filter: blocked content matching patterns: <names>`` and the metadata
  ``{"processorId": "regex-filter", "matches": [{"rule", "match": "[REDACTED_MATCH]", "index"}],
  "strategy": "block"}`` (the matched values are never copied into the tripwire).
* **redact** replaces each match by its rule's replacement (JavaScript-style ``$1``, ``$<name>``, ``$&``,
  ``$$`` are expanded); overlapping matches are merged into one region, replaced by the longest match's
  replacement, so no tail of a longer secret survives; values that adjoin are all replaced, also one whose pattern
  sees its neighbour's last character (``(02)2720-1234(02)2720-1234`` → ``[PHONE][PHONE]``: redacting the redacted
  text changes nothing, :mod:`processors.builtin.adjoining`). Each redacted text is reported to ``on_violation``
  with ``{"strategy": "redact", "phase", "messageId"?, "partIndex"?, "redactions": [...]}``.
* **warn** lets the text through, logs a warning, and reports the matches to ``on_violation``.

Presets come from :mod:`processors.builtin.patterns` (validated: a card number must pass Luhn and belong to a
card network, an IBAN mod-97 ...): ``pii`` (e-mail, phone, credit card, SSN, IBAN, IP addresses), ``secrets``
(OpenAI, Anthropic, AWS, GitHub, GitLab, Slack, Google, Stripe, Hugging Face, npm, SendGrid and Twilio keys,
JWTs, bearer tokens, ``password=...`` style assignments, private-key blocks) and ``urls``. A preset match is
replaced by ``[KIND]`` (``[EMAIL]``, ``[CREDIT_CARD]``, ``[OPENAI_KEY]`` ...).

Streaming: while redacting, the last ``stream_carryover_size`` characters are held back so a match split
across chunks is redacted whole (the option must be at least the longest match a rule can have); with presets
only, no more than the presets need to recognise a match (``patterns.max_span``), so the answer streams; what streams
out is what the final message's redaction holds, adjoining values too (the held text is looked at again with the
values let out before it replaced as they were let out). Text with no
match goes out as the chunks it arrived in, a little later. Other chunks keep the model's order, as with every
guard that holds text back (:mod:`processors.builtin.held_chunk_order`): one that does not end the text run (a thinking
model's reasoning between two text deltas, a ``data-*`` chunk) waits behind the held-back text and goes out in its
place once the text before it has, so an address cut in two by reasoning is still redacted whole; the held-back
text is flushed (redacted) when a chunk ends the text run (``text-end``, ``step-finish``, ``finish``, ``error``
...), and that chunk is re-driven through the chain right after it (the runtime's reprocess key). Block and warn
scan the same window, so a secret split across two chunks is still caught.

How one text is matched and replaced (rules, presets, merged overlaps, ``$1`` references) is
:mod:`processors.builtin.regex_rules`; this module decides what a match does to a message or a stream.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Literal, NoReturn, TypeVar

from pydantic import Field, ValidationInfo, field_validator

from processors.builtin.adjoining import may_uncover_once, remember_shown
from processors.builtin.base import BuiltinProcessor, InvalidOptionsError, ProcessorOptions, text_code
from processors.builtin.held_chunk_order import HoldBack
from processors.builtin.patterns import expand_kinds, max_span
from processors.builtin.regex_rules import DEFAULT_REPLACEMENT, Hit, RegexMatcher, RegexRule, Region, preset_replacement
from processors.builtin.split_across_chunks import CONTEXT_CHARS
from processors.builtin.text_checks import text_segments, with_text
from processors.builtin.violation_reports import report_soon, report_violation, settle
from processors.chunks import AnyChunk, Chunk, StepStartChunk, TextDeltaChunk
from processors.messages import Message, TextPart
from processors.pipeline.processor import ProcessInputArgs, ProcessOutputResultArgs, ProcessOutputStreamArgs
from processors.problems import Problem, problem_of
from processors.tracing.redactions import note_hidden
from processors.user_patterns import INLINE_BUDGET, UserPattern

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
#: Reports the stream hook made on a worker thread wait in the state under this key for the loop to send them.
_DEFERRED_REPORTS = "deferred_reports"
#: The regions let out that the left context still holds (in the step's text's positions), under this key.
_SHOWN = "shown"
#: The regions (in the step's text's positions) whose replacement was found to uncover nothing, under this key.
_SETTLED = "settled"


class _Worker(threading.local):
    """Whether this thread is running a RegexFilter's stream hook off the loop (its reports are deferred)."""

    active = False


_WORKER = _Worker()

Preset = Literal["pii", "secrets", "urls"]


class RegexFilterOptions(ProcessorOptions):
    rules: list[RegexRule] = Field(
        default=[], max_length=200, description="Custom rules: a name, a pattern and a replacement."
    )
    presets: list[Preset] = Field(
        default=[],
        validate_default=True,
        description="Built-in rule sets: pii (e-mails, phones, cards, SSNs, IBANs, IPs), secrets (API keys, "
        "tokens, private keys), urls.",
    )
    strategy: Literal["block", "redact", "warn"] = Field(
        default="block", description="block: abort the run; redact: replace matches; warn: log and report only."
    )
    phase: Literal["all", "input", "output"] = Field(
        default="all", description="Check the input, the output (stream and result), or both."
    )
    include_redacted_values: bool = Field(
        default=False,
        description="Put the redacted text in violation reports (keep off unless the audit log "
        "is as protected as the data).",
    )
    stream_carryover_size: int = Field(
        default=128,
        ge=1,
        le=100_000,
        description="Characters held back while streaming so a match split across chunks is caught whole; at "
        "least the longest match a rule can have.",
    )

    texts: ClassVar[Mapping[str, str]] = {
        "needs_rule": "RegexFilter needs at least one rule or preset",
    }

    @field_validator("presets")
    @classmethod
    def _needs_a_rule(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if not value and not info.data.get("rules"):
            raise cls.problem("needs_rule")
        return list(dict.fromkeys(value))


class RegexFilter(BuiltinProcessor):
    """Regex rules and presets over input, streamed output and the final output: block, redact or warn."""

    Options: ClassVar[type[ProcessorOptions]] = RegexFilterOptions
    type_name: ClassVar[str] = "RegexFilter"
    id = "regex-filter"
    name = "Regex Filter"
    description = "Blocks, redacts or flags text matching regex rules and presets (PII, secrets, URLs); no model."
    texts: ClassVar[Mapping[str, str]] = {
        "blocked": "Regex filter: blocked {context} matching patterns: {names}",
        "warn_report": "Regex filter: matched patterns: {names}",
    }
    #: The stream hook also sees ``data-*`` chunks, only to keep them in their place behind held-back text
    #: (:mod:`~processors.builtin.held_chunk_order`): passing it, a chunk written mid-reply would overtake that text.
    process_data_parts = True

    options: RegexFilterOptions

    @classmethod
    def parse_options(cls, options: Mapping[str, Any]) -> Any:
        """The options model's checks, then each rule's pattern compiled as it will run, with its flags (the verbose
        flag can break a pattern that compiles without it): the options form refuses what the filter would."""
        parsed = super().parse_options(options)
        for index, rule in enumerate(parsed.rules):
            try:
                rule.compile()
            except ValueError as error:  # a coded problem (pattern:invalid_with_flags, pattern:backtracks)
                raise _refused_pattern(cls.type_name, index, error) from None
        return parsed

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        opts = self.options
        kinds: tuple[str, ...] = expand_kinds(opts.presets) if opts.presets else ()
        rules: list[tuple[str, UserPattern, str]] = []
        for index, rule in enumerate(opts.rules):
            try:
                rules.append((rule.name, rule.compile(), rule.replacement))
            except ValueError as error:  # a coded problem (pattern:invalid_with_flags, pattern:backtracks)
                raise _refused_pattern(self.type_name, index, error) from None
        self._matcher = RegexMatcher(kinds, rules, include_values=opts.include_redacted_values)
        self._carry = opts.stream_carryover_size
        #: How far back a match split across chunks can start: the presets' spans; the whole carry-over for
        #: custom rules (their matches may be invisible until complete).
        self._span = self._carry if rules else min(self._carry, max_span(kinds))
        self._check_input = opts.phase in ("all", "input")
        self._check_output = opts.phase in ("all", "output")
        self._strategy = opts.strategy
        if rules:  # users' patterns run on a worker thread, so a slow one never freezes the loop (or a window)
            self.__dict__["process_output_stream"] = self._process_output_stream_off_loop

    async def _matched(self, work: Callable[[str], _T], text: str) -> _T:
        """``work(text)``: here when the rules search ``text`` in a moment (or there are none), else on a worker
        thread, so that a slow user's pattern never holds the loop (or a window on it)."""
        if self._matcher.rules_answer_within(text, INLINE_BUDGET):
            return work(text)
        return await asyncio.to_thread(work, text)

    # ----------------------------------------------------------------------------------------- matching
    def redact_text(self, text: str) -> str:
        """``text`` with every match replaced (what the redact strategy does to one text)."""
        return self._matcher.redact_text(text)

    def find_matches(self, text: str) -> list[dict[str, Any]]:
        """Every match in ``text`` as ``{"rule", "match", "index"}``, in text order (overlaps included)."""
        return self._matcher.find_matches(text)

    # ----------------------------------------------------------------------------------------- outcomes
    def _block(self, matches: Sequence[dict[str, Any]], context: str) -> NoReturn:
        names = ", ".join(dict.fromkeys(m["rule"] for m in matches))
        raise self.tripwire(
            "blocked",
            metadata={
                "processorId": self.id,
                "matches": [{**m, "match": "[REDACTED_MATCH]"} for m in matches],
                "strategy": "block",
            },
            context=context,
            names=names,
        )

    def _warn_detail(self, matches: Sequence[dict[str, Any]], phase: str) -> tuple[str, dict[str, Any]]:
        names = ", ".join(dict.fromkeys(m["rule"] for m in matches))
        logger.warning("RegexFilter matched patterns: %s (%s)", names, phase)
        reported = [
            m if self.options.include_redacted_values else {k: v for k, v in m.items() if k != "match"} for m in matches
        ]
        report = Problem(text_code(self.type_name, "warn_report"), self.texts["warn_report"], names=names)
        return report, {"strategy": "warn", "phase": phase, "matches": reported}

    async def _check_messages(self, messages: list[Message], phase: str, run_id: str) -> list[Message] | None:
        if self._strategy == "redact":
            return await self._redact_messages(messages, phase, run_id)
        matches: list[dict[str, Any]] = []
        for message in messages:
            for _index, text in text_segments(message):
                matches.extend(await self._matched(self.find_matches, text))
        if not matches:
            return None
        if self._strategy == "block":
            note_hidden(run_id, (match["match"] for match in matches))
            self._block(matches, "content")
        summary, detail = self._warn_detail(matches, phase)
        pending = report_violation(self, self.id, summary, detail)
        if pending is not None:
            await pending
        return None

    async def _redact_messages(self, messages: list[Message], phase: str, run_id: str) -> list[Message] | None:
        result: list[Message] = []
        changed = False
        for message in messages:
            new_message = message
            for part_index, text in text_segments(message):
                redacted, redactions, regions = await self._matched(self._redact_segment, text)
                self._hid(run_id, text, regions)
                if not redactions:
                    continue
                new_message = _replace_segment(new_message, part_index, redacted)
                changed = True
                await self._report_redaction(phase, redactions, message.id, part_index)
            result.append(new_message)
        return result if changed else None

    def _redact_segment(self, text: str) -> tuple[str, list[dict[str, Any]], list[Region]]:
        """``text`` redacted, its redactions and the regions they cover (told to the trace exporters on the loop)."""
        regions = self._matcher.settled_regions(text)
        redacted, redactions = self._matcher.redact(text, regions)
        return redacted, redactions, regions

    async def _report_redaction(
        self, phase: str, redactions: list[dict[str, Any]], message_id: str | None = None, part_index: int | None = None
    ) -> None:
        pending = report_violation(self, self.id, *self._redaction_report(phase, redactions, message_id, part_index))
        if pending is not None:
            await pending

    @staticmethod
    def _redaction_report(
        phase: str, redactions: list[dict[str, Any]], message_id: str | None = None, part_index: int | None = None
    ) -> tuple[str, dict[str, Any]]:
        names = ", ".join(dict.fromkeys(r["rule"] for r in redactions))
        detail: dict[str, Any] = {"strategy": "redact", "phase": phase}
        if message_id is not None:
            detail["messageId"] = message_id
        if part_index is not None:
            detail["partIndex"] = part_index
        detail["redactions"] = redactions
        return f"Regex filter: redacted content matching patterns: {names}", detail

    # ----------------------------------------------------------------------------------------- hooks
    async def process_input(self, args: ProcessInputArgs) -> list[Message] | None:
        if not self._check_input:
            return None
        return await self._check_messages(args.messages, "processInput", args.run_id)

    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message] | None:
        if not self._check_output:
            return None
        await settle(args.state.get("reports", []))  # async on_violation calls started by the stream hook
        return await self._check_messages(args.messages, "processOutputResult", args.run_id)

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        part = args.part
        if not self._check_output:
            return part
        if self._strategy in ("redact", "block"):
            # A block must hold back what could still become a match, as redaction does: passing the first half
            # of a secret on and blocking at its second half would show the user the first half.
            args.state["run_id"] = args.run_id  # whose exporters are told what was hidden (see _hid)
            return self._redact_stream(part, args.state)
        if not isinstance(part, TextDeltaChunk):
            if isinstance(part, StepStartChunk):  # a new step's text: its indexes count from its start, none reported
                for key in ("tail", "seen", "reported_until"):
                    args.state.pop(key, None)
            return part
        text = part.payload.text
        if text:
            self._scan_stream(text, args.state)
        return part

    def _scan_stream(self, text: str, state: dict[str, Any]) -> None:
        """Warn on the stream: scan the last carry-over characters plus the new text, report new matches (block and
        redact hold the text back instead, :meth:`_redact_stream`)."""
        tail: str = state.get("tail", "")
        seen: int = state.get("seen", 0)  # characters of the text run before ``tail``
        window = tail + text
        hits = self._matcher.hits(window)
        if hits:
            reported_until: int = state.get("reported_until", 0)
            # New: starting after every match reported so far. Not "ending in the new text": a match whose look-ahead
            # needed the new text can lie wholly in the tail, and was no match before.
            fresh = [h for h in hits if seen + h.start >= reported_until]
            if fresh:
                fresh.sort(key=lambda h: (h.start, h.end))
                matches = [{"rule": h.rule, "match": window[h.start : h.end], "index": seen + h.start} for h in fresh]
                state["reported_until"] = seen + max(h.end for h in fresh)
                self._report_soon(state, *self._warn_detail(matches, "processOutputStream"))
        keep = window[-self._span :]
        state["seen"] = seen + len(window) - len(keep)
        state["tail"] = keep

    async def _process_output_stream_off_loop(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        """The stream hook when custom rules take part: here when they search the text this chunk makes the hook
        search within :data:`INLINE_BUDGET` (their matches are kept for it), else on a worker thread, so that the
        loop, and a window on it, stays free while a slow pattern searches; reports made there are sent from the
        loop once it is back."""
        probe = self._stream_probe(args.part, args.state)
        if probe is None or self._matcher.rules_answer_within(probe, INLINE_BUDGET):
            return RegexFilter.process_output_stream(self, args)

        def work() -> AnyChunk | None:
            _WORKER.active = True
            try:
                return RegexFilter.process_output_stream(self, args)
            finally:
                _WORKER.active = False

        try:
            return await asyncio.to_thread(work)
        finally:
            for message, detail in args.state.pop(_DEFERRED_REPORTS, ()):
                self._report_soon(args.state, message, detail)

    def _stream_probe(self, part: AnyChunk, state: dict[str, Any]) -> str | None:
        """The text the stream hook will search for ``part`` (held context and buffer, the new text), or None."""
        if not self._check_output:
            return None
        text = part.payload.text if isinstance(part, TextDeltaChunk) else ""
        if self._strategy == "warn":
            return str(state.get("tail", "")) + text if text else None
        return str(state.get("context", "")) + str(state.get("buffer", "")) + text

    def _report_soon(self, state: dict[str, Any], message: str, detail: dict[str, Any]) -> None:
        if _WORKER.active:  # off the loop: on_violation is called from the loop, after the hook
            state.setdefault(_DEFERRED_REPORTS, []).append((message, detail))
            return
        task = report_soon(self, self.id, message, detail)
        if task is not None:
            state.setdefault("reports", []).append(task)

    def _redact_stream(self, part: AnyChunk, state: dict[str, Any]) -> AnyChunk | None:
        """Redact on the stream, holding back the last ``stream_carryover_size`` characters (presets only: what
        the longest preset needs to be recognised, ``patterns.max_span``, when that is less).

        Held-back text is kept as the chunks it arrived in (``held``: ``[chunk, text]`` pairs, the text being
        the part of the chunk not yet emitted). Each new chunk moves the emission point to ``carry`` characters
        before the end, back to the start of any match crossing it, and back again to a chunk boundary when
        there is one: in the common case (no match) the oldest held chunk goes out as it came, no copy made.

        Every other chunk follows the one hold-back behaviour of :mod:`~processors.builtin.held_chunk_order`, shared
        with the carry-over detectors: one that does not end the text run (a thinking model's reasoning between two text
        deltas, a ``data-*`` chunk) waits behind the held-back text, in its place (``hold.waiting``), and goes out
        once the text before it has (after the match it falls inside, when it does); one that ends the text run,
        the step or the run lets everything out, in order, then itself; parts ready at once go out one per call.
        """
        hold = HoldBack.of(state)
        if isinstance(part, TextDeltaChunk):
            text = part.payload.text
            if not text:
                return part
            return hold.send(state, self._take_text(part, text, state, hold))
        if isinstance(part, StepStartChunk):  # a text run left open by a rejected step is not this step's text
            for key in ("held", "buffer", "context", "offset", "scan", _SHOWN, _SETTLED):
                state.pop(key, None)
            hold.reset()
            return part
        buffer: str = state.get("buffer", "")
        decided, result = hold.settle(state, part, holding=bool(buffer), position=state.get("offset", 0) + len(buffer))
        if decided:
            return result
        return hold.send(state, [*self._flush(state, hold), part])

    def _take_text(self, part: AnyChunk, text: str, state: dict[str, Any], hold: HoldBack) -> list[AnyChunk]:
        """Hold ``text`` back; return what may go out now: the held text further back than the window (redacted),
        and the chunks waiting right after it."""
        held = state.setdefault("held", [])
        held.append([part, text])
        buffer = state["buffer"] = state.get("buffer", "") + text
        length = len(buffer)
        limit = length - self._span
        if limit <= 0:
            return []
        regions = self._adjoined(state, buffer, self._matcher.regions(self._stream_hits(state, buffer)))
        for region in regions:
            if region.start < limit < region.end:
                limit = region.start  # a match crossing the boundary is held back whole
                break
        others = hold.waiting
        if others:
            offset: int = state.get("offset", 0)
            at = _outside(regions, others[0][0] - offset)
            if at <= limit:  # the text before the first waiting chunk may go: it, then that chunk (and its kind)
                count = 1
                while count < len(others) and _outside(regions, others[count][0] - offset) <= at:
                    count += 1
                released = [chunk for _position, chunk in others[:count]]
                del others[:count]
                emitted = self._cut(state, buffer, regions, at)
                return released if emitted is None else [emitted, *released]
        # Prefer a chunk boundary that no match crosses: the chunks before it go out unchanged.
        ends: list[int] = []
        position = 0
        for _chunk, chunk_text in held:
            position += len(chunk_text)
            if position > limit:
                break
            ends.append(position)
        if not regions:  # nothing crosses a boundary (the common case: prose without a match in the window)
            count = 1 if len(ends) == 2 else len(ends)
        else:
            count = 0
            for index in range(len(ends) - 1, -1, -1):
                end = ends[index]
                if not any(r.start < end < r.end for r in regions):
                    count = index + 1
                    break
            if count == 2 and not any(r.start < ends[0] < r.end for r in regions):
                count = 1  # one chunk in, one chunk out: the other waits for the next call, and no copy is made
        if not ends and len(held[0][1]) <= self._span:
            return []  # the oldest chunk fits once a little more text arrives: wait rather than split it
        emit_end = ends[count - 1] if count else limit
        if emit_end <= 0:
            return []
        emitted = self._cut(state, buffer, regions, emit_end)
        return [] if emitted is None else [emitted]

    def _cut(self, state: dict[str, Any], buffer: str, regions: list[Region], emit_end: int) -> AnyChunk | None:
        """Let the first ``emit_end`` characters of the held-back ``buffer`` out, redacted: one text delta (the
        chunk as it came, when it is exactly one unchanged chunk), or None when there is no text to let out."""
        held: list[list[Any]] = state["held"]
        emitted_chunks: list[list[Any]] = []
        consumed = 0
        while held and consumed + len(held[0][1]) <= emit_end:
            consumed += len(held[0][1])
            emitted_chunks.append(held.pop(0))
        cut = emit_end - consumed
        if cut:  # no usable chunk boundary: split the chunk the emission point falls in
            emitted_chunks.append([held[0][0], held[0][1][:cut]])
            held[0][1] = held[0][1][cut:]
        inside = [r for r in regions if r.end <= emit_end]
        offset: int = state.get("offset", 0)  # characters of this step's text before ``buffer``
        self._shown(state, inside, offset, offset + emit_end)
        state["buffer"] = buffer[emit_end:]
        state["context"] = (state.get("context", "") + buffer[:emit_end])[-CONTEXT_CHARS:]
        state["offset"] = offset + emit_end
        if not inside:
            if len(emitted_chunks) == 1 and emitted_chunks[0][1] is emitted_chunks[0][0].payload.text:
                original: AnyChunk = emitted_chunks[0][0]
                return original  # as it came
            return self._emit(emitted_chunks, buffer[:emit_end])
        self._hid(state.get("run_id", ""), buffer, inside)
        self._block_held(buffer, inside, offset)
        emitted, redactions = self._matcher.redact(buffer[:emit_end], inside)
        self._report_stream_redactions(state, redactions, offset)
        return self._emit(emitted_chunks, emitted)

    def _flush(self, state: dict[str, Any], hold: HoldBack) -> list[AnyChunk]:
        """All the held-back text, redacted, with the chunks waiting in it in their places (the text run ends)."""
        buffer: str = state["buffer"]
        held: list[list[Any]] = state.pop("held")
        others = list(hold.waiting)
        hold.waiting.clear()
        regions = self._adjoined(state, buffer, self._matcher.regions(self._stream_hits(state, buffer)))
        offset: int = state.get("offset", 0)
        self._shown(state, regions, offset, offset + len(buffer))
        self._hid(state.get("run_id", ""), buffer, regions)
        self._block_held(buffer, regions, offset)
        flushed, redactions = self._matcher.redact(buffer, regions)
        state["buffer"] = ""
        # A text block ended in the middle of a step (by a tool call, a replayed text-end) does not end the step's
        # text, which is one text part: a look-behind after it must see the text flushed here, as the final check does.
        state["context"] = (state.get("context", "") + buffer)[-CONTEXT_CHARS:]
        state["offset"] = offset + len(buffer)
        out: list[AnyChunk] = []
        cursor = 0
        for position, chunk in others:
            at = _outside(regions, position - offset)
            # where ``at`` lands in the redacted text: each replacement before it changed the length
            end = at + sum(len(r["replacement"]) - r["length"] for r in redactions if r["index"] + r["length"] <= at)
            if end > cursor:
                out.append(with_text(held[0][0], flushed[cursor:end]))
                cursor = end
            out.append(chunk)
        if cursor < len(flushed):
            out.append(with_text(held[0][0], flushed[cursor:]))
        if redactions:
            self._report_stream_redactions(state, redactions, offset)
        return out

    def _report_stream_redactions(self, state: dict[str, Any], redactions: list[dict[str, Any]], offset: int) -> None:
        """Report redactions made in held-back text, each ``index`` counted from the start of the step's text (as
        the stream's warnings and blocks count it), not from the held-back text (``offset`` characters in)."""
        for record in redactions:
            record["index"] += offset
        self._report_soon(state, *self._redaction_report("processOutputStream", redactions))

    @staticmethod
    def _hid(run_id: str, text: str, regions: Sequence[Region]) -> None:
        """Tell the run's exporters what is being redacted or blocked in ``text``, so they never send it."""
        note_hidden(run_id, (text[region.start : region.end] for region in regions))

    def _block_held(self, buffer: str, regions: list[Region], offset: int) -> None:
        """With the block strategy, a match in the held text ends the stream before any of it is shown (``offset``:
        the characters of the step's text streamed before ``buffer``, so that an index counts from the start)."""
        if self._strategy != "block" or not regions:
            return
        matches = [{"rule": r.owner.rule, "match": buffer[r.start : r.end], "index": offset + r.start} for r in regions]
        self._block(matches, "streaming content")

    def _adjoined(self, state: dict[str, Any], buffer: str, regions: list[Region]) -> list[Region]:
        """``regions`` of the held-back ``buffer`` and the preset matches their replacement, or that of the
        replacements let out just before it, uncovers (:meth:`RegexMatcher.adjoining`): the stream redacts what the
        whole text's redaction does. ``[PHONE]`` let out, then ``(02)2720-1234`` held: the number's pattern sees the
        digit the placeholder replaced, and the whole text's redaction had looked again."""
        shown: list[Region] | None = state.get(_SHOWN)
        if not regions and not shown:
            return regions  # the common case: prose, no value held or just let out
        context: str = state.get("context", "")
        offset: int = state.get("offset", 0)
        before = offset - len(context)  # where ``context`` starts in the step's text
        settled: set[tuple[int, int]] = state.setdefault(_SETTLED, set())
        window = ""
        uncovers = False
        # each region is asked once its neighbours have come (``settled``): the stream asks after every chunk
        for region in shown or ():
            if region.start >= before and (region.start, region.end) not in settled:
                window = window or context + buffer
                if may_uncover_once(window, region.start, region.end, before, settled):
                    uncovers = True
                    break
        if not uncovers:
            for region in regions:
                start, end = region.start + offset, region.end + offset
                if (start, end) not in settled:
                    window = window or context + buffer
                    if may_uncover_once(window, start, end, before, settled):
                        uncovers = True
                        break
        if not uncovers:
            return regions
        window = window or context + buffer
        known = [region.shifted(-before) for region in shown or () if region.start >= before]
        known += [region.shifted(len(context)) for region in regions]
        found = self._matcher.adjoining(window, known)
        if len(found) == len(known):
            return regions
        return [region.shifted(-len(context)) for region in found if region.start >= len(context)]

    @staticmethod
    def _shown(state: dict[str, Any], regions: list[Region], offset: int, end: int) -> None:
        """Keep the regions let out (in the step's text's positions) that the left context still holds, up to
        ``end``: the look again of the next held text replaces them as the whole text's redaction does."""
        if not regions and not state.get(_SHOWN):
            return
        remember_shown(state, _SHOWN, _SETTLED, (region.shifted(offset) for region in regions), end, CONTEXT_CHARS)

    def _stream_hits(self, state: dict[str, Any], text: str) -> list[Hit]:
        """Hits in held-back ``text``, matched with the text already emitted before it as left context (a
        look-behind must see the real preceding character, not the start of the buffer).

        The presets' matches come from the step's sliding scan (``state["scan"]``), which keeps the matches the
        previous chunks settled and scans only the text that can still change: the same hits as a scan of the
        whole window (:mod:`~processors.builtin.sliding_scan`), for a fraction of the time."""
        if "scan" not in state:
            state["scan"] = self._matcher.sliding_scan()
        scan = state["scan"]
        context: str = state.get("context", "")
        offset: int = state.get("offset", 0)  # where ``text`` starts in the step's text
        if not context:
            return self._matcher.hits(text, scan=scan, start=offset)
        return self._matcher.hits(context + text, after=len(context), scan=scan, start=offset - len(context))

    @staticmethod
    def _emit(chunks: list[list[Any]], text: str) -> AnyChunk | None:
        """One text-delta with ``text``, carrying the first held chunk's id and run id."""
        if not text:
            return None
        first: Chunk = chunks[0][0]
        return with_text(first, text)


def _outside(regions: list[Region], position: int) -> int:
    """``position``, or the end of the region it falls inside (a chunk waiting inside a match goes out after it: a
    match is let out whole, redacted)."""
    for region in regions:
        if region.start < position < region.end:
            return region.end
    return position


def _replace_segment(message: Message, part_index: int | None, text: str) -> Message:
    """``message`` with one text part (or the flattened content, when ``part_index`` is None) replaced."""
    content = message.content
    if part_index is None:
        return message.model_copy(update={"content": content.model_copy(update={"content": text})})
    parts = list(content.parts)
    old = parts[part_index]
    assert isinstance(old, TextPart)
    parts[part_index] = old.model_copy(update={"text": text})
    flattened = content.content
    if flattened is not None:
        flattened = "".join(p.text for p in parts if isinstance(p, TextPart))
    return message.model_copy(update={"content": content.model_copy(update={"parts": parts, "content": flattened})})


def _refused_pattern(type_name: str, index: int, error: ValueError) -> InvalidOptionsError:
    """Rule ``index``'s pattern refused as it will run (with its flags): its English, and the problem's code and
    values (the pattern, Python's fault and its position) for a reader in another language."""
    field = f"rules.{index}.pattern"
    problem = problem_of(error)
    codes = {field: (problem.code, problem.to_dict()["params"])} if problem is not None else None
    return InvalidOptionsError(type_name, {field: str(error)}, codes)


__all__ = ["DEFAULT_REPLACEMENT", "RegexFilter", "RegexFilterOptions", "RegexRule", "preset_replacement"]
