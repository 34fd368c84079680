"""``TokenLimiter``: keep the prompt within a token budget, and cap how much the model may answer.

::

    from processors.builtin.token_limiter import TokenLimiter

    Agent(id="a", model="openai/gpt-4o-mini",
          input_processors=[TokenLimiter(limit=8_000)],                        # trim old history per call
          output_processors=[TokenLimiter(limit=400, strategy="truncate")])    # stop streaming after 400 tokens

Mastra's ``TokenLimiterProcessor`` (id ``token-limiter``).

**Input** (``process_llm_request``): the prompt sent to the model is trimmed, newest messages first, to
``limit`` tokens: the budget is ``limit`` minus the system messages minus 24 tokens of conversation overhead,
and each message costs its tokens plus 3.8 (OpenAI's per-message framing, as Mastra counts it). ``best-fit``
skips a message that does not fit and tries older, smaller ones; ``contiguous`` stops at the first one that
does not fit; ``memory-only`` removes only remembered history, never this call's input. An assistant tool call
and its results are kept or dropped together (a provider rejects one without the other). Trimming applies to
this model call only: the thread's stored history is untouched. A TripWire (``retry=False``) ends the run when
there is nothing to send, the system messages alone exceed the limit, or no message fits.

**Output**: ``process_output_stream`` counts the tokens of ``text-delta`` chunks — in total (``cumulative``)
or per chunk (``part``). Over the limit, ``abort`` ends the run with ``Token limit of N exceeded (current:
M)``; ``truncate`` drops the chunks beyond the limit and emits one transient ``data-token-limit-reached``
chunk ``{processorId, limit, tokens}``. ``process_output_result`` truncates the final text the same way.

Tokens are real where the tokenizer is known offline (OpenAI models, through the tiktoken encodings bundled with
litellm) and estimated otherwise (:func:`processors.builtin.model_data.count_tokens`). ``model`` names the
tokenizer; without it the prompt is counted with the run's model's tokenizer, and the answer too when the same
processor also trims the prompt (the output hooks are not told the model: an output-only limiter without
``model`` estimates).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.model_data import count_tokens, truncate_to_tokens
from processors.chunks import AnyChunk, TextDeltaChunk
from processors.messages import Message, TextPart
from processors.messages.formats import CoreMessage
from processors.pipeline.processor import ProcessLLMRequestArgs, ProcessOutputResultArgs, ProcessOutputStreamArgs

#: Mastra's prompt accounting: a fixed overhead per conversation and per message.
CONVERSATION_OVERHEAD = 24
MESSAGE_OVERHEAD = 3.8
#: What an image costs when counting (OpenAI's high-detail tile estimate; Mastra uses the same figure).
IMAGE_TOKENS = 765
LIMIT_CHUNK = "data-token-limit-reached"


class TokenLimiterOptions(ProcessorOptions):
    limit: int = Field(default=4_000, ge=1, le=10_000_000, description="The token budget (prompt or answer).")
    strategy: Literal["truncate", "abort"] = Field(
        default="truncate", description="Over the output limit: drop the rest (truncate) or end the run (abort)."
    )
    count_mode: Literal["cumulative", "part"] = Field(
        default="cumulative", description="Count the whole answer so far (cumulative) or each chunk alone (part)."
    )
    trim_mode: Literal["best-fit", "contiguous", "memory-only"] = Field(
        default="best-fit",
        description="Prompt trimming: skip what does not fit and keep looking (best-fit), stop at the first "
        "message that does not fit (contiguous), or remove only remembered history (memory-only).",
    )
    model: str | None = Field(
        default=None,
        max_length=200,
        description="Model whose tokenizer counts tokens (e.g. gpt-4o); empty: the run's model.",
    )


class TokenLimiter(BuiltinProcessor):
    """Trims the prompt to a token budget (per call, history untouched) and limits the answer's tokens."""

    Options: ClassVar[type[ProcessorOptions]] = TokenLimiterOptions
    type_name: ClassVar[str] = "TokenLimiter"
    id = "token-limiter"
    name = "Token Limiter"
    description = "Keeps the prompt within a token budget and caps the answer's tokens (truncate or abort)."
    texts: ClassVar[Mapping[str, str]] = {
        "limit_exceeded": "Token limit of {limit} exceeded (current: {current})",
        "no_messages": "TokenLimiter: there are no messages to send",
        "system_over_limit": "TokenLimiter: the system messages alone use {used} tokens, over the limit of {limit}",
        "nothing_fits": "TokenLimiter: no message fits in the limit of {limit} tokens ({used} used by system messages)",
    }

    options: TokenLimiterOptions

    def count(self, text: str, model_id: str | None = None) -> int:
        return count_tokens(text, self.options.model or model_id)

    # ----------------------------------------------------------------------------------------- input
    def process_llm_request(self, args: ProcessLLMRequestArgs) -> dict[str, Any] | None:
        model_id = self.options.model or getattr(args.model, "model_id", None)
        args.state["model_id"] = model_id
        prompt = args.prompt
        trimmed = self.trim(prompt, model_id, memory_count=_memory_count(args))
        return None if trimmed is prompt else {"prompt": trimmed}

    def trim(
        self, prompt: list[CoreMessage], model_id: str | None = None, *, memory_count: int = 0
    ) -> list[CoreMessage]:
        """``prompt`` trimmed to the limit (the same list when it already fits). Raises TripWire when impossible."""
        options = self.options
        system = [m for m in prompt if m.get("role") == "system"]
        rest = [m for m in prompt if m.get("role") != "system"]
        if not rest:
            raise self.tripwire("no_messages")
        system_tokens = sum(self._message_tokens(m, model_id) for m in system)
        budget = options.limit - system_tokens - CONVERSATION_OVERHEAD
        if budget <= 0:
            raise self.tripwire("system_over_limit", used=system_tokens, limit=options.limit)
        units = _units(rest)
        costs = [sum(self._message_tokens(m, model_id) + MESSAGE_OVERHEAD for m in unit) for unit in units]
        if sum(costs) <= budget:
            return prompt
        keep = [False] * len(units)
        used = 0.0
        protected = len(units)  # memory-only: units from here on are this call's input and always kept
        if options.trim_mode == "memory-only":
            protected = _first_unit_after(units, memory_count)
            for index in range(protected, len(units)):
                keep[index] = True
                used += costs[index]
        for index in range(min(protected, len(units)) - 1, -1, -1):
            if used + costs[index] <= budget:
                keep[index] = True
                used += costs[index]
            elif options.trim_mode == "contiguous":
                break
        if not any(keep) or (options.trim_mode == "memory-only" and used > budget):
            raise self.tripwire("nothing_fits", limit=options.limit, used=system_tokens)
        return system + [message for unit, kept in zip(units, keep, strict=True) if kept for message in unit]

    def _message_tokens(self, message: CoreMessage, model_id: str | None) -> int:
        content = message.get("content")
        total = 0
        if isinstance(content, str):
            total += self.count(content, model_id)
        elif isinstance(content, list):
            for item in content:
                if not isinstance(item, dict):
                    continue
                if item.get("type") == "text":
                    total += self.count(str(item.get("text", "")), model_id)
                elif item.get("type") in ("image_url", "image", "file"):
                    total += IMAGE_TOKENS
        for call in message.get("tool_calls") or []:
            function = call.get("function", {}) if isinstance(call, dict) else {}
            total += self.count(f"{function.get('name', '')} {function.get('arguments', '')}", model_id)
        return total

    # ----------------------------------------------------------------------------------------- output
    def process_output_stream(self, args: ProcessOutputStreamArgs) -> AnyChunk | None:
        part = args.part
        if not isinstance(part, TextDeltaChunk):
            return part
        state = args.state
        tokens = self.count(part.payload.text, state.get("model_id"))
        limit = self.options.limit
        if self.options.count_mode == "cumulative":
            tokens += state.get("output_tokens", 0)
            state["output_tokens"] = tokens
        if tokens <= limit:
            return part
        if self.options.strategy == "abort":
            raise self.tripwire("limit_exceeded", limit=limit, current=tokens)
        if not state.get("limit_reported") and args.writer is not None:
            state["limit_reported"] = True
            args.writer.custom(
                {
                    "type": LIMIT_CHUNK,
                    "transient": True,
                    "data": {"processorId": self.id, "limit": limit, "tokens": tokens},
                }
            )
        return None

    def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message] | None:
        limit = self.options.limit
        model_id = self.options.model or args.state.get("model_id")
        counted = [
            [self.count(part.text, model_id) if isinstance(part, TextPart) else 0 for part in message.content.parts]
            if message.role == "assistant"
            else []
            for message in args.messages
        ]
        total = sum(sum(tokens) for tokens in counted)
        if total <= limit:
            return None
        if self.options.strategy == "abort":
            raise self.tripwire("limit_exceeded", limit=limit, current=total)
        remaining = limit
        result: list[Message] = []
        for message, tokens in zip(args.messages, counted, strict=True):
            if message.role != "assistant":
                result.append(message)
                continue
            parts: list[Any] = []
            for part, part_tokens in zip(message.content.parts, tokens, strict=True):
                if isinstance(part, TextPart):
                    if part_tokens > remaining:
                        kept = truncate_to_tokens(part.text, remaining, model_id)
                        remaining = 0
                        if kept:
                            parts.append(part.model_copy(update={"text": kept}))
                        continue
                    remaining -= part_tokens
                parts.append(part)
            text = "".join(p.text for p in parts if isinstance(p, TextPart))
            content = message.content.model_copy(update={"parts": parts, "content": text or None})
            result.append(message.model_copy(update={"content": content}))
        return result


def _units(messages: list[CoreMessage]) -> list[list[CoreMessage]]:
    """Messages grouped so a tool call and its results stay together (an assistant turn with ``tool_calls``
    followed by its ``tool`` messages is one unit)."""
    units: list[list[CoreMessage]] = []
    for message in messages:
        if message.get("role") == "tool" and units and _is_call_unit(units[-1]):
            units[-1].append(message)
        else:
            units.append([message])
    return units


def _is_call_unit(unit: list[CoreMessage]) -> bool:
    return bool(unit[0].get("role") == "assistant" and unit[0].get("tool_calls"))


def _first_unit_after(units: list[list[CoreMessage]], message_count: int) -> int:
    """The index of the first unit past the first ``message_count`` messages."""
    seen = 0
    for index, unit in enumerate(units):
        if seen >= message_count:
            return index
        seen += len(unit)
    return len(units)


def _memory_count(args: ProcessLLMRequestArgs) -> int:
    """How many leading non-system prompt messages are remembered history (they come first in the prompt)."""
    try:
        return len(args.message_list.get.remembered.core())
    except Exception:  # a foreign message list: assume nothing is remembered
        return 0


__all__ = ["LIMIT_CHUNK", "TokenLimiter", "TokenLimiterOptions"]
