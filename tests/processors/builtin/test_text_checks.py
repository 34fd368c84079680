"""Helpers the built-ins share: which messages a message check looks at, and what it returns."""

from __future__ import annotations

from processors.builtin.text_checks import check_messages
from processors.messages import Message


async def _run(messages: list[Message], roles: tuple[str, ...], **kwargs: object) -> tuple[list[Message], list[str]]:
    seen: list[str] = []

    async def check(message: Message, text: str) -> Message | None:
        seen.append(text)
        return None if text == "drop" else message.with_text(text.upper())

    return await check_messages(messages, roles, check, **kwargs), seen  # type: ignore[arg-type]


async def test_only_messages_of_the_roles_with_text_are_checked_and_none_drops() -> None:
    user, empty, dropped = Message.user("hi"), Message.user(""), Message.user("drop")
    assistant = Message.assistant("yo")
    out, seen = await _run([user, empty, assistant, dropped], ("user",))
    assert seen == ["hi", "drop"]
    assert [m.text for m in out] == ["HI", "", "yo"]
    assert out[1] is empty and out[2] is assistant


async def test_last_only_and_min_length() -> None:
    first, last = Message.user("first"), Message.user("last")
    out, seen = await _run([first, last], ("user",), last_only=True)
    assert seen == ["last"] and out[0] is first
    blank, short, long = Message.user("   "), Message.user("ab "), Message.user("abcd")
    _, seen = await _run([blank, short, long], ("user",), min_length=3)
    assert seen == ["abcd"]
    _, seen = await _run([blank], ("user",), min_length=0)  # with a minimum of 0 even blank text is checked
    assert seen == ["   "]
