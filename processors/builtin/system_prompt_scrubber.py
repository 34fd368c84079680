"""``SystemPromptScrubber``: stop the agent's own instructions from leaking into its answers.

No model is needed: the output is compared with the run's actual system messages, and every run of at least
``min_overlap_words`` consecutive words that also appears in them (case and punctuation ignored) is a leak.
``custom_patterns`` (regular expressions) add leaks of your own definition. The stream is checked with a
carry-over buffer, so a leak split across chunks is caught, and the scrubbed text does not depend on the
split; the buffer holds back only the trailing words that could still begin a leak (plus ``carry_over``
characters when there are custom patterns), so the answer streams. With a ``model``, the final answer is also
judged for paraphrased leaks::

    agent = Agent(instructions="You are Aria. Never offer discounts above 10 percent ...",
                  output_processors=[SystemPromptScrubber(strategy="redact", redaction_method="placeholder")])
    # "My instructions say: never offer discounts above 10 percent" → "My instructions say: [SYSTEM_PROMPT]"

Strategies: ``block``, ``warn``, ``filter`` (drop the chunk or message), ``redact`` (``mask``, ``placeholder``
or ``remove``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field, field_validator

from processors.builtin.base import BuiltinProcessor
from processors.builtin.judge import JudgeOptions, consult_judge, judge_model
from processors.builtin.patterns import Match
from processors.builtin.pii_patterns import resolve
from processors.builtin.span_strategy import enforce_message, enforce_segment, replace_spans
from processors.builtin.split_across_chunks import CarryOver, stream_part
from processors.builtin.text_checks import check_messages
from processors.chunks import AnyChunk
from processors.loop.config import RETRY_FEEDBACK_TAG
from processors.messages import Message, system_text
from processors.messages.message_list import MessageList
from processors.pipeline.processor import HookArgs, ProcessOutputResultArgs, ProcessOutputStreamArgs
from processors.problems import refusal, regex_problem
from processors.user_patterns import UserPattern, check_user_pattern

logger = logging.getLogger(__name__)


_WORD = re.compile(r"\w+")

JUDGE_PROMPT = """You check whether an AI assistant's answer reveals its confidential system instructions.
The system instructions are:
<instructions>
{instructions}
</instructions>
A leak is the answer quoting, paraphrasing or summarising those instructions. Answering in line with them is
not a leak. Answer with JSON only: {{"leaked": true|false, "confidence": <0..1>,
"leaked_text": ["<exact passages of the answer that leak>"], "reason": "<short reason>"}}"""


class SystemPromptScrubberOptions(JudgeOptions):
    strategy: Literal["block", "warn", "filter", "redact"] = Field(
        default="redact", description="block, warn, filter (drop) or redact"
    )
    redaction_method: Literal["mask", "placeholder", "remove"] = Field(
        default="mask", description="How leaks are hidden"
    )
    placeholder_text: str = Field(default="[SYSTEM_PROMPT]", description="What replaces a leak (placeholder method)")
    custom_patterns: list[str] = Field(default=[], description="Regular expressions that also count as leaks")
    min_overlap_words: int = Field(default=8, ge=3, le=64, description="Consecutive shared words that make a leak")
    threshold: float = Field(default=0.6, ge=0.0, le=1.0, description="Judge confidence needed (with a model)")
    include_detections: bool = Field(default=False, description="Put the leaked passages in the tripwire metadata")
    carry_over: int = Field(default=256, ge=32, le=8192, description="Stream: characters held back for custom patterns")

    @field_validator("custom_patterns")
    @classmethod
    def _compiles(cls, value: list[str]) -> list[str]:
        for index, pattern in enumerate(value):
            try:
                re.compile(pattern)
            except re.error as error:
                raise refusal(
                    "pattern:does_not_compile",
                    "pattern {index} ({pattern!r}) does not compile: {error}",
                    regex_problem(error),
                    index=index,
                    pattern=pattern,
                ) from None
            try:
                check_user_pattern(pattern)
            except ValueError as error:
                raise refusal("pattern:indexed", "pattern {index}: {error}", error, index=index) from None
        return value


class LeakVerdict(BaseModel):
    leaked: bool = False
    confidence: float = 1.0
    leaked_text: list[str] = Field(default_factory=list)
    reason: str | None = None


class _Index:
    """Word shingles of the system messages (and their beginnings), for fast overlap tests."""

    __slots__ = ("key", "prefixes", "sizes")

    def __init__(self, key: str, texts: list[str], size: int) -> None:
        self.key = key
        self.sizes: dict[int, set[tuple[str, ...]]] = {}
        #: Every proper beginning of a shingle: trailing words of the stream that could still become a leak.
        self.prefixes: set[tuple[str, ...]] = set()
        for text in texts:
            words = [w.lower() for w in _WORD.findall(text)]
            n = min(size, len(words))
            if n < 3:
                continue
            shingles = self.sizes.setdefault(n, set())
            shingles.update(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
            self.prefixes.update(tuple(words[i : i + k]) for i in range(len(words)) for k in range(1, n))

    def hold(self, text: str, offset: int) -> int:
        """Where the text that could still become (or extend) a leak begins: the stream holds back only that.

        A word can join a leak later only through a shingle that starts at or before it and whose beginning
        is the text's tail; a word still growing (at the very end) is held too. A leak that ends right before
        the held words is held with them (a leak continuing there would make it one passage, not two).
        Everything before is final, however the rest of the stream is cut.
        """
        if not self.sizes:
            return len(text)
        spans = [(m.start(), m.end()) for m in _WORD.finditer(text, offset)]
        words = [text[a:b].lower() for a, b in spans]
        complete = len(words) - 1 if spans and spans[-1][1] == len(text) else len(words)
        first = complete  # the first held word (the growing last word, or none)
        for i in range(max(0, complete - (max(self.sizes) - 1)), complete):
            if tuple(words[i:complete]) in self.prefixes:
                first = i
                break
        covered = self._covered(words[:first])
        while first > 0 and covered[first - 1]:
            first -= 1
        return spans[first][0] if first < len(spans) else len(text)

    def _covered(self, words: list[str]) -> list[bool]:
        """For each word, whether a shingle of the system messages covers it."""
        covered = [False] * len(words)
        for n, shingles in self.sizes.items():
            for i in range(len(words) - n + 1):
                if tuple(words[i : i + n]) in shingles:
                    for j in range(i, i + n):
                        covered[j] = True
        return covered

    def leaks(self, text: str) -> list[Match]:
        """Runs of words of ``text`` covered by shingles of the system messages."""
        if not self.sizes:
            return []
        spans = [(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(text)]
        words = [w for _, _, w in spans]
        covered = self._covered(words)
        out: list[Match] = []
        i = 0
        while i < len(words):
            if not covered[i]:
                i += 1
                continue
            j = i
            while j + 1 < len(words) and covered[j + 1]:
                j += 1
            start, end = spans[i][0], spans[j][1]
            out.append(Match("system-prompt", start, end, text[start:end]))
            i = j + 1
        return out


class SystemPromptScrubber(BuiltinProcessor):
    """Detect (and hide) the agent's system instructions in its output. See the module docstring."""

    id = "system-prompt-scrubber"
    name = "System prompt scrubber"
    description = "Catches the agent's own instructions leaking into its output; blocks, warns, filters or redacts."
    texts: ClassVar[Mapping[str, str]] = {
        "detected": "System prompt detected: {kinds}",
        "judge_failed": "System prompt detection failed because the judge model call failed: {error}",
    }
    #: The stream hook also sees ``data-*`` chunks, only to keep them in their place behind held-back text
    #: (:mod:`~processors.builtin.held_chunk_order`): passing it, a chunk written mid-reply would overtake that text.
    process_data_parts = True
    type_name: ClassVar[str] = "SystemPromptScrubber"
    needs_model: ClassVar[bool] = False
    Options = SystemPromptScrubberOptions
    options: SystemPromptScrubberOptions

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        #: Users' patterns, named by their text in a timeout error; they run on a worker thread (see below).
        self._patterns = [UserPattern(_shown(p), p) for p in self.options.custom_patterns]
        self._model = judge_model(self.options)
        if self._patterns:  # a user's pattern must not freeze the loop (or a window on it) while it searches
            self.__dict__["process_output_stream"] = self._process_output_stream_off_loop

    # ----------------------------------------------------------------------------------------- detection
    def _index(self, state: dict[str, Any], message_list: MessageList) -> _Index:
        texts = system_texts(message_list)
        key = hashlib.sha1("\x00".join(texts).encode()).hexdigest()
        index = state.get("index")
        if not isinstance(index, _Index) or index.key != key:
            index = state["index"] = _Index(key, texts, self.options.min_overlap_words)
        return index

    def find(self, text: str, index: _Index) -> list[Match]:
        found = index.leaks(text)
        for pattern in self._patterns:
            found.extend(
                Match("custom-pattern", m.start(), m.end(), m.group()) for m in pattern.finditer(text) if m.group()
            )
        return found

    # ----------------------------------------------------------------------------------------- stream
    async def _process_output_stream_off_loop(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        """The stream hook on a worker thread, when custom patterns take part (it reports nothing on the way)."""
        return await asyncio.to_thread(SystemPromptScrubber.process_output_stream, self, args)

    def process_output_stream(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        state = args.state
        # Without custom patterns the exact window is known (the words that could still start a leak); a custom
        # pattern may need up to ``carry_over`` characters before it matches.
        carry = self.options.carry_over if self._patterns else 0
        buffer = CarryOver.of(state, "stream", carry=carry)
        message_list = args.message_list

        def find(text: str) -> list[Match]:
            return self.find(text, self._index(state, message_list))

        def hold(text: str, offset: int) -> int:
            return min(self._index(state, message_list).hold(text, offset), len(text) - carry)

        buffer.hold = hold

        return stream_part(
            args.part, state, buffer, find, lambda text, found: enforce_segment(self, args, text, found, _warn_stream)
        )

    # ----------------------------------------------------------------------------------------- result
    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message]:
        index = self._index(args.state, args.message_list)

        async def check(message: Message, text: str) -> Message | None:
            if self._patterns:
                found = resolve(await asyncio.to_thread(self.find, text, index))
            else:
                found = resolve(self.find(text, index))
            if self._model is not None:
                found = resolve(found + await self._judge(args, text))
            return enforce_message(self, args, message, text, found, _warn_result)

        return await check_messages(args.messages, ("assistant",), check)

    async def _judge(self, args: ProcessOutputResultArgs, text: str) -> list[Match]:
        assert self._model is not None
        instructions = "\n\n".join(system_texts(args.message_list))
        if not instructions.strip():
            return []
        prompt = JUDGE_PROMPT.format(instructions=instructions)
        verdict = await consult_judge(args, self.options, self._model, self, prompt, text, LeakVerdict)
        if verdict is None or not verdict.leaked or verdict.confidence < self.options.threshold:
            return []
        located = []
        for passage in verdict.leaked_text:
            start = text.find(passage) if passage.strip() else -1
            while start != -1:  # every occurrence: a quoted passage repeated later in the answer leaks there too
                located.append(Match("system-prompt", start, start + len(passage), passage))
                start = text.find(passage, start + len(passage))
        return located or [Match("system-prompt", 0, len(text), text)]  # a paraphrase the judge could not quote

    # ----------------------------------------------------------------------------------------- actions
    def redact(self, text: str, found: list[Match]) -> str:
        return replace_spans(text, found, lambda m: self._replacement(m.value))

    def _replacement(self, value: str) -> str:
        method = self.options.redaction_method
        if method == "remove":
            return ""
        if method == "placeholder":
            return self.options.placeholder_text
        return "".join("*" if not c.isspace() else c for c in value)

    def _block(self, args: HookArgs, found: list[Match]) -> None:
        kinds = list(dict.fromkeys(m.kind for m in found))
        metadata: dict[str, Any] = {"types": kinds, "count": len(found)}
        if self.options.include_detections:
            metadata["detections"] = [m.value for m in found]
        raise self.tripwire("detected", metadata=metadata, kinds=", ".join(kinds))

    @staticmethod
    def _record(args: HookArgs, found: list[Match]) -> None:
        args.state["detections"] = args.state.get("detections", 0) + len(found)


def _warn_stream(found: list[Match]) -> None:
    logger.warning("System prompt leak in the output stream (%d passages)", len(found))


def _warn_result(found: list[Match]) -> None:
    logger.warning("System prompt leak in the response (%d passages)", len(found))


def _shown(pattern: str) -> str:
    """A custom pattern as an error names it (it has no name of its own)."""
    return pattern if len(pattern) <= 60 else pattern[:59] + "…"


def system_texts(message_list: MessageList) -> list[str]:
    """The run's instructions: untagged and tagged system messages, except the loop's retry feedback."""
    texts = [system_text(m) for m in message_list.get_system_messages()]
    for tag in message_list.tags:
        if tag != RETRY_FEEDBACK_TAG:
            texts.extend(system_text(m) for m in message_list.get_system_messages(tag))
    return [t for t in texts if t.strip()]


__all__ = ["LeakVerdict", "SystemPromptScrubber", "SystemPromptScrubberOptions", "system_texts"]
