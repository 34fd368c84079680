"""The chat's items: what one row of the conversation holds, as plain dataclasses (no Qt).

- :class:`UserItem` — what the user sent;
- :class:`AssistantItem` — one run's reply, as :class:`StepSegment` s (one per model step: reasoning, markdown text,
  :class:`ToolCard` s and :class:`DataBlock` s). A step the runtime retried is kept as a *retracted* segment with the
  feedback that caused the retry;
- :class:`TripwireItem` — a banner: reason, processor and metadata of the tripwire that ended a run;
- :class:`ErrorItem` — a readable error (a model error, or a run that failed unexpectedly).

They live apart from :class:`~studio.models.chat_model.ChatModel`, which folds runs into them, so that the renderer
and the Qt adapter can depend on what an item *is* without the folding logic. :func:`assistant_items` rebuilds items
from a stored assistant message, and the display helpers (:func:`readable_error`, :func:`short_json`) turn payloads
into text the same way for live and stored threads.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Literal

from processors.chunks import AnyChunk, ReasoningDeltaChunk, TextDeltaChunk
from processors.loop.step import StepBuilder
from processors.messages import (
    DataPart,
    ErrorPart,
    FilePart,
    Message,
    ReasoningPart,
    SourcePart,
    StepStartPart,
    TextPart,
    ToolInvocationPart,
)
from studio.texts.model_errors import model_error_payload_message
from studio.texts.translator import number, translate

ItemKind = Literal["user", "assistant", "tripwire", "error"]
ToolCardState = Literal["input", "call", "result", "error"]
AssistantStatus = Literal["streaming", "done", "stopped", "failed"]

_keys = itertools.count(1)


def new_key(prefix: str) -> str:
    """A key unique in this process (the renderer caches documents by it)."""
    return f"{prefix}-{next(_keys)}"


def readable_error(error: Any) -> str:
    """A one-line, human message for an ``error`` chunk's payload or an error part (never a traceback)."""
    if isinstance(error, BaseException):
        text = str(error)
        return f"{type(error).__name__}: {text}" if text else type(error).__name__
    if isinstance(error, dict):
        name = str(error.get("name") or "Error")
        message = str(error.get("message") or "").strip() or translate("ChatItems", "unknown error")
        if name == "ModelAPIError":
            message = model_error_payload_message(error) or message
            status = error.get("statusCode")
            provider = error.get("provider")
            where = " ".join(p for p in (str(provider) if provider else "", f"HTTP {status}" if status else "") if p)
            if where:
                return translate("ChatItems", "Model call failed ({where}): {error}").format(where=where, error=message)
            return translate("ChatItems", "Model call failed: {error}").format(error=message)
        params = error.get("params")
        if error.get("code") == "pattern_timeout" and isinstance(params, dict):  # worded from its code and values
            message = translate(
                "ChatItems",
                "The pattern of rule '{rule}' took longer than {seconds} s on a text of {length} characters (it "
                "backtracks catastrophically); the run was stopped",
            ).format(rule=params.get("rule"), seconds=f"{params.get('seconds', 0):g}", length=params.get("length"))
        processor = error.get("processorId")
        hook = error.get("hook")
        if processor and hook:
            return translate("ChatItems", "{error} (processor '{processor}', {hook})").format(
                error=message, processor=processor, hook=hook
            )
        if processor:
            return translate("ChatItems", "{error} (processor '{processor}')").format(
                error=message, processor=processor
            )
        return message if name in ("Error", "") else f"{name}: {message}"
    text = str(error).strip() if error is not None else ""
    return text or translate("ChatItems", "unknown error")


def short_json(value: Any, limit: int = 4000) -> str:
    """Pretty JSON for display, cut at ``limit`` characters."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, indent=2, ensure_ascii=False, default=repr)
        except (TypeError, ValueError):
            text = repr(value)
    if len(text) > limit:
        more = len(text) - limit
        return f"{text[:limit]}\n… " + translate("ChatItems", "(%n more character(s))", None, more)
    return text


@dataclass(eq=False, slots=True)
class ToolCard:
    """One tool call of a step, shown as a collapsible card."""

    tool_call_id: str
    tool_name: str
    args: Any = None
    #: Argument fragments as the model streamed them (before the complete ``tool-call`` chunk).
    args_text: list[str] = field(default_factory=list)
    #: What the model was given (the ``tool-result`` chunk: after ``process_tool_result``).
    result: Any = None
    error: str | None = None
    state: ToolCardState = "input"
    expanded: bool = False
    #: What the tool itself returned, before any ``process_tool_result`` (from the run's trace live, from its
    #: recording when the thread is reopened).
    returned: Any = None
    returned_known: bool = False
    #: The processor whose tripwire blocked the result (``""`` when it has no id); ``None`` when none did.
    blocked_by: str | None = None

    @property
    def result_changed(self) -> bool:
        """Whether a processor changed the result before the model saw it."""
        return self.returned_known and self.state == "result" and self.returned != self.result

    @property
    def shown_args(self) -> Any:
        return self.args if self.state != "input" else "".join(self.args_text)


@dataclass(eq=False, slots=True)
class DataBlock:
    """A custom ``data-*`` chunk (or a stored data, file or source part)."""

    type: str
    data: Any = None
    id: str | None = None


@dataclass(eq=False, slots=True)
class StepSegment:
    """One model step of an assistant reply: its text and reasoning deltas, tool cards and data blocks.

    A live step folds its chunks through ``builder``, the runtime's own reducer; ``texts`` and ``reasoning_parts``
    are then the builder's lists (appended to, never copied). A step rebuilt from a stored message has no builder.
    """

    texts: list[str] = field(default_factory=list)
    reasoning_parts: list[str] = field(default_factory=list)
    builder: StepBuilder | None = None
    tool_cards: list[ToolCard] = field(default_factory=list)
    data: list[DataBlock] = field(default_factory=list)
    #: The runtime retried this step: its text is struck through, with ``feedback`` (the reason) beside it.
    retracted: bool = False
    feedback: str | None = None
    #: The feedback's code and values when the step's tripwire had them (the chat translates by them).
    feedback_code: str | None = None
    feedback_params: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def live(cls, run_id: str, message_id: str) -> StepSegment:
        builder = StepBuilder(run_id, message_id)
        return cls(texts=builder.texts, reasoning_parts=builder.reasoning, builder=builder)

    def fold(self, chunk: AnyChunk) -> None:
        """Fold a text, reasoning or tool-call chunk (through the runtime's reducer when the step is live)."""
        if self.builder is not None:
            self.builder.fold(chunk)
            return
        match chunk:
            case TextDeltaChunk(payload=payload):
                self.texts.append(payload.text)
            case ReasoningDeltaChunk(payload=payload):
                self.reasoning_parts.append(payload.text)

    @property
    def text(self) -> str:
        return "".join(self.texts)

    @property
    def reasoning(self) -> str:
        return "".join(self.reasoning_parts)

    @property
    def has_content(self) -> bool:
        return bool(self.texts or self.reasoning_parts or self.tool_cards or self.data)


@dataclass(eq=False, slots=True)
class ChatItem:
    """Base of chat items. ``revision`` grows on every change, ``structure_revision`` on every change that is not
    streamed text growing at the end (views re-render the whole item then)."""

    kind: ClassVar[ItemKind]
    key: str
    run_id: str | None = None
    created_at: datetime | None = None
    revision: int = 0
    structure_revision: int = 0

    @property
    def plain_text(self) -> str:
        raise NotImplementedError


@dataclass(eq=False, slots=True)
class UserItem(ChatItem):
    kind: ClassVar[ItemKind] = "user"
    text: str = ""

    @property
    def plain_text(self) -> str:
        return self.text


@dataclass(eq=False, slots=True)
class RunStats:
    """What one run cost and how fast it answered, for the footer under its reply.

    Times are the chat's clock (seconds, monotonic): when the message was sent, when the first visible text
    arrived, when the run ended. ``cost`` is USD from the price map; None when the model's price is unknown.
    """

    model: str | None = None
    started: float = 0.0
    first_text: float | None = None
    ended: float | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    cost: float | None = None

    @property
    def time_to_first_text(self) -> float | None:
        return None if self.first_text is None else self.first_text - self.started

    @property
    def total_time(self) -> float | None:
        return None if self.ended is None else self.ended - self.started

    def summary(self) -> str:
        """One line: ``gpt-4o-mini · 1,234 tokens (1,000 in, 234 out) · $0.0004 · first text 0.31 s · 2.4 s``."""
        parts = [self.model or translate("ChatItems", "unknown model")]
        tokens = self.total_tokens or self.input_tokens + self.output_tokens
        if tokens:
            parts.append(
                translate("ChatItems", "{tokens} tokens ({input} in, {output} out)").format(
                    tokens=number(tokens), input=number(self.input_tokens), output=number(self.output_tokens)
                )
            )
        else:  # a run stopped before the model reported its usage
            parts.append(translate("ChatItems", "tokens not reported"))
        parts.append(
            translate("ChatItems", "cost unknown")
            if self.cost is None
            else "$" + number(self.cost, 4)
            if self.cost
            else "$0"
        )
        ttft = self.time_to_first_text
        parts.append(
            translate("ChatItems", "first text {time}").format(time=_seconds(ttft))
            if ttft is not None
            else translate("ChatItems", "no text")
        )
        total = self.total_time
        if total is not None:
            parts.append(translate("ChatItems", "total {time}").format(time=_seconds(total)))
        return " · ".join(parts)


def _seconds(value: float) -> str:
    """A duration as the studio's locale writes it: ``310 ms``, ``2.4 s``."""
    if value < 1:
        return translate("ChatItems", "{ms} ms").format(ms=number(value * 1000))
    return translate("ChatItems", "{seconds} s").format(seconds=number(value, 1))


@dataclass(eq=False, slots=True)
class AssistantItem(ChatItem):
    kind: ClassVar[ItemKind] = "assistant"
    steps: list[StepSegment] = field(default_factory=list)
    status: AssistantStatus = "streaming"
    #: The live run's figures (None for replies loaded from a stored thread).
    stats: RunStats | None = None
    #: What the user must know about how the reply came about, shown under it (a guardrail's judge that failed).
    notices: list[str] = field(default_factory=list)

    @property
    def has_content(self) -> bool:
        return any(step.has_content for step in self.steps)

    @property
    def text(self) -> str:
        """The reply's visible text (retracted steps left out)."""
        return "".join(step.text for step in self.steps if not step.retracted)

    @property
    def plain_text(self) -> str:
        return "\n\n".join(text for step in self.steps if not step.retracted and (text := step.text))

    @property
    def tool_cards(self) -> list[ToolCard]:
        return [card for step in self.steps for card in step.tool_cards]

    @property
    def retracted(self) -> list[StepSegment]:
        return [step for step in self.steps if step.retracted]


@dataclass(eq=False, slots=True)
class TripwireItem(ChatItem):
    kind: ClassVar[ItemKind] = "tripwire"
    reason: str = ""
    processor_id: str | None = None
    metadata: Any = None
    retry: bool = False
    #: The reason's code and values (``TripwireData.code``/``params``): the chat translates by them; None for a
    #: free reason or one stored before codes existed (shown as written).
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def plain_text(self) -> str:
        if self.processor_id:
            return translate("ChatItems", "Tripwire ({processor}): {reason}").format(
                processor=self.processor_id, reason=self.reason
            )
        return translate("ChatItems", "Tripwire: {reason}").format(reason=self.reason)


@dataclass(eq=False, slots=True)
class ErrorItem(ChatItem):
    kind: ClassVar[ItemKind] = "error"
    message: str = ""

    @property
    def plain_text(self) -> str:
        return translate("ChatItems", "Error: {error}").format(error=self.message)


def assistant_items(message: Message) -> list[ChatItem]:
    """A stored assistant message as an item (steps split at ``step-start`` parts), plus its error parts."""
    item = AssistantItem(key=new_key("assistant"), created_at=message.created_at, status="done")
    errors: list[ChatItem] = []
    step: StepSegment | None = None

    def current() -> StepSegment:
        nonlocal step
        if step is None:
            step = StepSegment()
            item.steps.append(step)
        return step

    for part in message.content.parts:
        if isinstance(part, StepStartPart):
            step = None
        elif isinstance(part, TextPart):
            if part.text:
                # A message holds several text parts in one step when assistant messages were merged (a processor
                # added one after the reply, as Mastra merges them): each reads as its own paragraph.
                segment = current()
                segment.texts.append(f"\n\n{part.text}" if segment.texts else part.text)
        elif isinstance(part, ReasoningPart):
            if part.reasoning:
                current().reasoning_parts.append(part.reasoning)
        elif isinstance(part, ToolInvocationPart):
            call = part.tool_invocation
            card = ToolCard(call.tool_call_id, call.tool_name, args=call.args, state="call")
            if call.state == "result" and not call.is_error:
                card.state, card.result = "result", call.result
            elif call.state in ("output-error", "output-denied") or call.is_error:
                card.state = "error"
                card.error = call.error_text or readable_error(call.result) or call.state
                card.blocked_by = call.blocked_by
            current().tool_cards.append(card)
        elif isinstance(part, ErrorPart):
            errors.append(
                ErrorItem(
                    key=new_key("error"),
                    created_at=message.created_at,
                    message=readable_error(part.error.model_dump()),
                )
            )
        elif isinstance(part, DataPart):
            current().data.append(DataBlock(part.type, part.data, part.id))
        elif isinstance(part, FilePart):
            current().data.append(DataBlock("file", part.filename or part.mime_type))
        elif isinstance(part, SourcePart):
            current().data.append(DataBlock("source", part.title or part.url or part.source_id))
    if not item.steps and message.content.content:
        current().texts.append(message.content.content)
    return ([item] if item.steps else []) + errors


__all__ = [
    "AssistantItem",
    "AssistantStatus",
    "ChatItem",
    "DataBlock",
    "ErrorItem",
    "ItemKind",
    "RunStats",
    "StepSegment",
    "ToolCard",
    "ToolCardState",
    "TripwireItem",
    "UserItem",
    "assistant_items",
    "new_key",
    "readable_error",
    "short_json",
]
