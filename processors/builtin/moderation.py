"""``ModerationProcessor``: flag harmful content in input, output and the stream; block, warn or filter it.

With a ``model`` it asks a judge to score the 11 standard moderation categories (hate, hate/threatening,
harassment, harassment/threatening, self-harm, self-harm/intent, self-harm/instructions, sexual,
sexual/minors, violence, violence/graphic); a category scoring at least ``threshold`` is flagged. Without a
model it works offline from word lists (a small built-in list of unambiguous phrases, plus ``word_lists`` of
your own): coarse, but free and instant::

    ModerationProcessor(model="openai/gpt-4o-mini", threshold=0.5, strategy="block")
    ModerationProcessor(word_lists={"harassment": ["useless idiot"]}, strategy="filter")   # offline

Blocking aborts with ``"Content flagged for moderation. Categories: violence[. Reason: ...][. Scores: ...]"``.
In the stream, offline, the word lists are matched over the text however the model cut it into chunks (the few
characters that could still complete a phrase are held back): ``block`` stops before a phrase streams and ``filter``
removes the phrase. With a judge, each ``text-delta`` is judged with the ``chunk_window`` text parts before it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, Field, field_validator

from processors.builtin.base import BuiltinProcessor
from processors.builtin.judge import JudgeOptions, consult_judge, judge_model
from processors.builtin.patterns import Match
from processors.builtin.split_across_chunks import CarryOver, stream_part
from processors.builtin.text_checks import check_messages
from processors.chunks import AnyChunk, Chunk, TextDeltaChunk
from processors.messages import Message
from processors.pipeline.processor import HookArgs, ProcessInputArgs, ProcessOutputResultArgs, ProcessOutputStreamArgs

logger = logging.getLogger(__name__)

Category = Literal[
    "hate", "hate/threatening", "harassment", "harassment/threatening", "self-harm", "self-harm/intent",
    "self-harm/instructions", "sexual", "sexual/minors", "violence", "violence/graphic",
]  # fmt: skip
_DEFAULT: tuple[Category, ...] = get_args(Category)
CATEGORIES: tuple[str, ...] = _DEFAULT

#: The offline fallback: phrases that are rarely innocent. Deliberately short; real moderation needs a model.
DEFAULT_WORD_LISTS: dict[str, tuple[str, ...]] = {
    "harassment": ("you are worthless", "you're worthless", "nobody likes you", "you stupid idiot", "go to hell"),
    "harassment/threatening": ("i will find you", "i know where you live", "you will regret this",
                               "watch your back"),
    "hate/threatening": ("they should all be killed", "exterminate them all", "wipe them out"),
    "self-harm": ("self-harm", "self harm", "hurt myself", "cut myself"),
    "self-harm/intent": ("kill myself", "end my life", "want to die", "suicide note", "take my own life"),
    "self-harm/instructions": ("how to kill myself", "painless way to die", "how to commit suicide"),
    "sexual/minors": ("child sexual abuse material", "csam"),
    "violence": ("i will kill you", "i'm going to kill", "i am going to kill", "shoot up the", "bomb the",
                 "stab you", "beat you to death"),
    "violence/graphic": ("dismembered", "disembowel", "mutilated corpse"),
}  # fmt: skip

JUDGE_PROMPT = """You are a content moderator. Score the text from 0 (not at all) to 1 (certainly) for each
category: {categories}. Answer with JSON only:
{{"categories": {{"<category>": <score>, ...}}, "reason": "<short reason if anything scores high>"}}"""


class ModerationOptions(JudgeOptions):
    categories: list[Category] = Field(default=list(_DEFAULT), description="Categories to check")
    threshold: float = Field(default=0.5, ge=0.0, le=1.0, description="Flag a category scoring at least this")
    strategy: Literal["block", "warn", "filter"] = Field(default="block", description="block, warn or filter")
    include_scores: bool = Field(default=False, description="Add the scores to the abort reason and metadata")
    chunk_window: int = Field(
        default=0, ge=0, le=1000, description="Stream, with a judge: earlier text parts judged with each one"
    )
    last_message_only: bool = Field(default=False, description="Check only the last message")
    word_lists: dict[str, list[str]] = Field(
        default={}, description="Offline mode: extra phrases per category (matched as whole words)"
    )
    use_default_word_lists: bool = Field(default=True, description="Offline mode: include the built-in phrases")

    texts: ClassVar[Mapping[str, str]] = {
        "no_category": "name at least one category",
        "unknown_categories": "unknown categories {categories}; known: {known}",
    }

    @field_validator("categories")
    @classmethod
    def _some(cls, value: list[str]) -> list[str]:
        if not value:
            raise cls.problem("no_category")
        return list(dict.fromkeys(value))

    @field_validator("word_lists")
    @classmethod
    def _known_categories(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        unknown = [k for k in value if k not in CATEGORIES]
        if unknown:
            raise cls.problem("unknown_categories", categories=", ".join(unknown), known=", ".join(CATEGORIES))
        return value


class ModerationVerdict(BaseModel):
    categories: dict[str, float] = Field(default_factory=dict)
    reason: str | None = None

    @field_validator("categories")
    @classmethod
    def _in_range(cls, value: dict[str, float]) -> dict[str, float]:
        return {k: min(max(float(v), 0.0), 1.0) for k, v in value.items()}


class ModerationProcessor(BuiltinProcessor):
    """Moderate input messages, output messages and the output stream. See the module docstring."""

    id = "moderation"
    name = "Moderation"
    description = "Scores content in 11 moderation categories (model judge, or word lists offline)."
    texts: ClassVar[Mapping[str, str]] = {
        "flagged": "Content flagged for moderation. Categories: {categories}",
        "flagged_with_reason": "Content flagged for moderation. Categories: {categories}. Reason: {reason}",
        "flagged_with_scores": "Content flagged for moderation. Categories: {categories}. Scores: {scores}",
        "flagged_with_reason_and_scores": (
            "Content flagged for moderation. Categories: {categories}. Reason: {reason}. Scores: {scores}"
        ),
        "judge_failed": "Moderation failed because the judge model call failed: {error}",
    }
    #: The stream hook also sees ``data-*`` chunks, only to keep them in their place behind held-back text
    #: (:mod:`~processors.builtin.held_chunk_order`): passing it, a chunk written mid-reply would overtake that text.
    process_data_parts = True
    type_name: ClassVar[str] = "ModerationProcessor"
    needs_model: ClassVar[bool] = False
    Options = ModerationOptions
    options: ModerationOptions

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._model = judge_model(self.options)
        self._categories: tuple[str, ...] = tuple(self.options.categories)
        #: The longest phrase of the word lists: the stream holds back at most this much (plus one character).
        self._longest = 0
        self._lists = self._compile_word_lists()
        if self._model is not None:
            self.__dict__["process_output_stream"] = self._process_output_stream_judged

    def _compile_word_lists(self) -> dict[str, re.Pattern[str]]:
        compiled: dict[str, re.Pattern[str]] = {}
        for category in self._categories:
            words = list(DEFAULT_WORD_LISTS.get(category, ())) if self.options.use_default_word_lists else []
            words += self.options.word_lists.get(category, [])
            if words:
                self._longest = max(self._longest, *map(len, words))
                alternatives = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
                compiled[category] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
        return compiled

    # ----------------------------------------------------------------------------------------- scoring
    def word_scores(self, text: str) -> dict[str, float]:
        """Offline scores: 1.0 for each category whose word list matches."""
        return {category: 1.0 for category, pattern in self._lists.items() if pattern.search(text)}

    async def scores(self, text: str, args: HookArgs) -> tuple[dict[str, float], str | None]:
        """Per-category scores (the judge's with a model, else the word lists') and the judge's reason."""
        if self._model is None:
            return self.word_scores(text), None
        prompt = JUDGE_PROMPT.format(categories=", ".join(self._categories))
        verdict = await consult_judge(args, self.options, self._model, self, prompt, text, ModerationVerdict)
        if verdict is None:
            return {}, None
        return {k: v for k, v in verdict.categories.items() if k in self._categories}, verdict.reason

    def _flagged(self, scores: dict[str, float]) -> list[str]:
        return [c for c in self._categories if scores.get(c, 0.0) >= self.options.threshold]

    # ----------------------------------------------------------------------------------------- messages
    async def process_input(self, args: ProcessInputArgs) -> list[Message]:
        return await self._messages(args, args.messages, roles=("user", "assistant"))

    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message]:
        return await self._messages(args, args.messages, roles=("assistant",))

    async def _messages(self, args: HookArgs, messages: list[Message], roles: tuple[str, ...]) -> list[Message]:
        async def check(message: Message, text: str) -> Message | None:
            scores, reason = await self.scores(text, args)
            return message if self._act(args, scores, reason) else None

        return await check_messages(messages, roles, check, last_only=self.options.last_message_only)

    # ----------------------------------------------------------------------------------------- stream
    def process_output_stream(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        """Offline: the word lists over the text however it was cut. The trailing characters that could still
        complete a phrase are held back (:mod:`~processors.builtin.split_across_chunks`), so a phrase split over
        chunks is found, ``block`` stops before any of it streams, and ``filter`` removes the phrase itself."""
        buffer = CarryOver.of(args.state, "stream", carry=self._longest + 1)
        return stream_part(
            args.part, args.state, buffer, self._phrases, lambda text, found: self._segment(args, text, found)
        )

    def _phrases(self, text: str) -> list[Match]:
        return [
            Match(category, found.start(), found.end(), found.group())
            for category, pattern in self._lists.items()
            for found in pattern.finditer(text)
        ]

    def _segment(self, args: ProcessOutputStreamArgs, text: str, found: list[Match]) -> str:
        scores = {match.kind: 1.0 for match in found}
        if not scores or self._act(args, scores, None):
            return text
        kept, last = [], 0
        for match in sorted(found, key=lambda m: m.start):  # filter: the phrases go, overlapping ones too
            kept.append(text[last : max(last, match.start)])
            last = max(last, match.end)
        kept.append(text[last:])
        return "".join(kept)

    async def _process_output_stream_judged(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        part = args.part
        if not isinstance(part, TextDeltaChunk):
            return part
        scores, reason = await self.scores(self._window(args), args)
        return part if self._act(args, scores, reason) else None

    def _window(self, args: ProcessOutputStreamArgs) -> str:
        wanted = self.options.chunk_window + 1
        texts: list[str] = []
        for part in reversed(args.stream_parts):
            if isinstance(part, TextDeltaChunk):
                texts.append(part.payload.text)
                if len(texts) >= wanted:
                    break
        if not texts and isinstance(args.part, Chunk):
            texts.append(args.part.payload.text)  # type: ignore[attr-defined]
        return "".join(reversed(texts))

    # ----------------------------------------------------------------------------------------- actions
    def _act(self, args: HookArgs, scores: dict[str, float], reason: str | None) -> bool:
        """Apply the strategy; True keeps the content, False drops it (filter). Block aborts."""
        # the score the threshold is compared with, flagged or not (the judge's probability with a model): the lab's
        # curves and threshold slider read it
        args.state["last_score"] = round(max((scores.get(c, 0.0) for c in self._categories), default=0.0), 4)
        flagged = self._flagged(scores)
        if not flagged:
            return True
        args.state["flagged"] = args.state.get("flagged", 0) + 1
        strategy = self.options.strategy
        if strategy == "block":
            metadata: dict[str, Any] = {"categories": flagged}
            params: dict[str, Any] = {"categories": ", ".join(flagged)}
            key = "flagged_with_reason" if reason else "flagged"
            if reason:
                params["reason"] = reason
            if self.options.include_scores:
                key = "flagged_with_reason_and_scores" if reason else "flagged_with_scores"
                params["scores"] = ", ".join(f"{c}: {scores[c]:.2f}" for c in flagged)
                metadata["scores"] = scores
            raise self.tripwire(key, metadata=metadata, **params)
        if strategy == "warn":
            logger.warning("Content flagged for moderation: %s", ", ".join(flagged))
            return True
        return False


__all__ = ["CATEGORIES", "DEFAULT_WORD_LISTS", "ModerationOptions", "ModerationProcessor", "ModerationVerdict"]
