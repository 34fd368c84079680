"""``PrefillErrorHandler``: when a provider refuses a conversation that ends on an assistant turn, retry once.

::

    from processors.builtin.prefill_error_handler import PrefillErrorHandler

    Agent(id="a", model="anthropic/claude-sonnet-4-5", error_processors=[PrefillErrorHandler()])

Some providers reject a prompt whose last message is the assistant's ("This model does not support assistant
message prefill", "assistant response prefill is incompatible with enable_thinking", "requests ending with a
model turn are not supported"). Mastra's ``PrefillErrorHandler`` (id ``prefill-error-handler``) answers such an
error, on the first failure of a step only (``retry_count == 0``), by appending a short user-side reminder —
``<system-reminder>continue</system-reminder>``, as a ``context`` message: in the prompt, never saved — and
asking for a retry. Any other error is left to the next error processor.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.messages import Message
from processors.pipeline.processor import ProcessAPIErrorArgs

#: The provider messages that mean "the prompt must not end with an assistant turn".
PREFILL_ERRORS: tuple[re.Pattern[str], ...] = (
    re.compile(r"does not support assistant message prefill", re.IGNORECASE),
    re.compile(r"assistant response prefill is incompatible with enable[_\s-]?thinking", re.IGNORECASE),
    re.compile(r"requests ending with a model turn are not supported", re.IGNORECASE),
)
REMINDER = "<system-reminder>continue</system-reminder>"


class PrefillErrorHandlerOptions(ProcessorOptions):
    """No options: the handler's behaviour is fixed (Mastra's has none either)."""


class PrefillErrorHandler(BuiltinProcessor):
    """Retries once, with a "continue" reminder after the last assistant turn, when a provider refuses prefill."""

    Options: ClassVar[type[ProcessorOptions]] = PrefillErrorHandlerOptions
    type_name: ClassVar[str] = "PrefillErrorHandler"
    id = "prefill-error-handler"
    name = "Prefill Error Handler"
    description = "Retries once with a 'continue' reminder when a provider refuses a prompt ending on the assistant."

    @staticmethod
    def is_prefill_error(error: BaseException) -> bool:
        """Whether ``error`` (or its cause) is a provider's "no assistant prefill" refusal."""
        seen: set[int] = set()
        current: BaseException | None = error
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            texts = [str(current), str(getattr(current, "message", "") or ""), str(getattr(current, "body", "") or "")]
            if any(pattern.search(text) for pattern in PREFILL_ERRORS for text in texts):
                return True
            current = current.__cause__ or current.__context__
        return False

    def process_api_error(self, args: ProcessAPIErrorArgs) -> dict[str, Any] | None:
        if args.retry_count != 0 or not self.is_prefill_error(args.error):
            return None
        args.message_list.add(Message.user(REMINDER), "context")
        return {"retry": True}
