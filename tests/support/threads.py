"""A big synthetic thread (user questions, markdown answers, now and then a tool card): for the chat's
virtualisation tests and the UI benchmark, which must exercise the same shapes."""

from __future__ import annotations

import random

from processors.messages import Message, MessageContent, TextPart, ToolInvocation, ToolInvocationPart

WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "a",
    "lazy",
    "dog",
    "while",
    "**markdown**",
    "and",
    "`code`",
    "flow",
    "by",
]


def thread_of(count: int, *, max_words: int = 80, words: list[str] | None = None, seed: int = 7) -> list[Message]:
    rng = random.Random(seed)
    vocabulary = words or WORDS
    messages: list[Message] = []
    for number in range(count):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(5, max_words)))
        if number % 2 == 0:
            messages.append(Message.user(f"{number}: {text}"))
        elif number % 10 == 3:
            call = ToolInvocation(
                state="result",
                tool_call_id=f"c{number}",
                tool_name="get_weather",
                args={"city": "Oslo"},
                result={"temperature": 3},
            )
            messages.append(
                Message(
                    role="assistant",
                    content=MessageContent(
                        parts=[TextPart(text=f"{number}: {text}"), ToolInvocationPart(tool_invocation=call)]
                    ),
                )
            )
        else:
            messages.append(Message.assistant(f"{number}: {text}\n\n- one\n- two"))
    return messages
