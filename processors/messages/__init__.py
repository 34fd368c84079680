"""Messages: the conversation's vocabulary and the list that holds a run's conversation.

``parts`` is Mastra's message shape (``Message`` and its parts), ``message_list`` the ``MessageList`` that tracks
where each message came from, ``formats`` the conversions to and from model prompts, ``surrogates`` the repair of
text that came apart between chunks. The message shape is re-exported here because every other part of the
runtime speaks it.
"""

from processors.messages.parts import (
    DataPart,
    ErrorInfo,
    ErrorPart,
    FilePart,
    Message,
    MessageContent,
    Part,
    ReasoningPart,
    Role,
    SourcePart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    ToolState,
    new_id,
    now,
    system_text,
)

__all__ = [
    "DataPart",
    "ErrorInfo",
    "ErrorPart",
    "FilePart",
    "Message",
    "MessageContent",
    "Part",
    "ReasoningPart",
    "Role",
    "SourcePart",
    "StepStartPart",
    "TextPart",
    "ToolInvocation",
    "ToolInvocationPart",
    "ToolState",
    "new_id",
    "now",
    "system_text",
]
