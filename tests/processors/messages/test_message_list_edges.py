"""MessageList at its edges: same-id replacement and sources, memory's place, the merge rule's parts, returned
blocks, system buckets, tool invocation updates, rollback and serialisation. Each pins a behaviour mutation
testing found unchecked (issue 16; see tests/README.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from processors import Message, MessageList
from processors.messages import MessageContent, StepStartPart, TextPart, ToolInvocation, ToolInvocationPart
from processors.messages.message_list import merge_into


def call(call_id: str, *, state: str = "call", args: Any = None, result: Any = None) -> ToolInvocationPart:
    return ToolInvocationPart(
        tool_invocation=ToolInvocation(state=state, tool_call_id=call_id, tool_name="t", args=args, result=result)
    )


def assistant(*parts: Any, content: str | None = None) -> Message:
    return Message(role="assistant", content=MessageContent(parts=list(parts), content=content))


def texts(ml: MessageList) -> list[tuple[str, str | None]]:
    return [(m.text, ml.get_source(m)) for m in ml.get.all.db()]


# ------------------------------------------------------------------------------------------------- adding
def test_added_messages_take_the_lists_thread_and_resource_unless_they_have_their_own() -> None:
    ml = MessageList(thread_id="t", resource_id="r")
    mine = Message.user("mine", thread_id="own", resource_id="me")
    ml.add([Message.user("plain"), mine])
    plain = ml.get.all.db()[0]
    assert (plain.thread_id, plain.resource_id) == ("t", "r")
    assert (mine.thread_id, mine.resource_id) == ("own", "me")
    bare = MessageList()
    bare.add("x")
    assert (bare.get.all.db()[0].thread_id, bare.get.all.db()[0].resource_id) == (None, None)


def test_a_message_added_again_replaces_it_in_place_and_keeps_or_takes_the_source() -> None:
    ml = MessageList()
    first = Message.user("first")
    ml.add([first, Message.user("second")], "memory")
    ml.add(Message.user("edited", id=first.id), "input")  # re-added as input: it stays a remembered message
    assert texts(ml) == [("edited", "memory"), ("second", "memory")]
    ml.add(Message.user("again", id=first.id), "context")  # any other source is taken
    assert texts(ml) == [("again", "context"), ("second", "memory")]
    assert len(ml) == 2


def test_remembered_messages_go_before_this_runs_messages_in_their_order() -> None:
    ml = MessageList()
    ml.add("question")
    ml.add(Message.assistant("answer"), "response")
    ml.add([Message.user("old 1"), Message.user("old 2")], "memory")
    ml.add([Message.user("old 3")], "memory")
    assert [m.text for m in ml.get.all.db()] == ["old 1", "old 2", "old 3", "question", "answer"]
    only_memory = MessageList()
    only_memory.add([Message.user("a"), Message.user("b")], "memory")
    assert [m.text for m in only_memory.get.all.db()] == ["a", "b"]


def test_system_messages_from_memory_are_ignored_and_others_go_to_the_untagged_bucket() -> None:
    ml = MessageList()
    ml.add([{"role": "system", "content": "remembered rule"}, {"role": "user", "content": "hi"}], "memory")
    ml.add([{"role": "system", "content": "new rule"}], "input")
    assert ml.get_system_messages() == [{"role": "system", "content": "new rule"}]
    assert [m.text for m in ml.get.all.db()] == ["hi"]


def test_merging_needs_the_same_source_and_an_assistant_on_both_sides() -> None:
    ml = MessageList()
    ml.add(Message.assistant("context answer"), "context")
    ml.add(Message.assistant("response"), "response")  # a response never merges into a context message
    ml.add(Message.user("user"), "response")
    ml.add(Message.assistant("after a user message"), "response")
    assert texts(ml) == [
        ("context answer", "context"),
        ("response", "response"),
        ("user", "response"),
        ("after a user message", "response"),
    ]
    assert ml.can_merge(ml.get.all.db()[1], Message.assistant("x"), "response") is True
    assert ml.can_merge(ml.get.all.db()[1], Message.assistant("x"), "memory") is False


# ------------------------------------------------------------------------------------------------- merging
def test_a_result_updates_the_newest_matching_call_and_merges_the_arguments() -> None:
    latest = assistant(call("c1", args={"city": "Oslo"}), TextPart(text="and"), call("c1", args={"city": "Rome"}))
    merge_into(latest, assistant(call("c1", state="result", args={"units": "C"}, result="Sunny")))
    first, _, newest = latest.content.parts
    assert isinstance(first, ToolInvocationPart) and isinstance(newest, ToolInvocationPart)
    assert (first.tool_invocation.state, first.tool_invocation.result) == ("call", None)
    assert newest.tool_invocation.state == "result"
    assert newest.tool_invocation.result == "Sunny"
    assert newest.tool_invocation.args == {"city": "Rome", "units": "C"}
    assert len(latest.content.parts) == 3


def test_a_result_with_other_arguments_replaces_them_and_none_keeps_them() -> None:
    latest = assistant(call("c1", args={"city": "Oslo"}), call("c2", args="raw"))
    merge_into(latest, assistant(call("c1", state="result", args="not a dict", result=1)))
    merge_into(latest, assistant(call("c2", state="result", args=None, result=2)))
    one, two = (p.tool_invocation for p in latest.content.parts if isinstance(p, ToolInvocationPart))
    assert (one.args, one.result) == ("not a dict", 1)
    assert (two.args, two.result) == ("raw", 2)


def test_a_repeated_call_is_not_added_twice_and_a_new_call_is_appended() -> None:
    latest = assistant(call("c1", args={"a": 1}))
    merge_into(latest, assistant(call("c1", args={"a": 2}), call("c2")))
    parts = latest.content.parts
    assert [p.tool_invocation.tool_call_id for p in parts if isinstance(p, ToolInvocationPart)] == ["c1", "c2"]
    assert parts[0].tool_invocation.args == {"a": 1}  # type: ignore[union-attr]


def test_text_after_a_call_starts_a_step_unless_the_message_starts_one_itself() -> None:
    latest = assistant(TextPart(text="Checking."), call("c1"))
    merge_into(latest, assistant(StepStartPart(), TextPart(text="Sunny.")))
    assert [p.type for p in latest.content.parts] == ["text", "tool-invocation", "step-start", "text"]
    second = assistant(call("c2"))
    merge_into(second, assistant(TextPart(text="a"), TextPart(text="b")))
    assert [p.type for p in second.content.parts] == ["tool-invocation", "step-start", "text", "text"]
    plain = assistant(TextPart(text="x"))
    merge_into(plain, assistant(TextPart(text="y")))
    assert [p.type for p in plain.content.parts] == ["text", "text"]


def test_the_merged_message_takes_the_latest_content_and_time() -> None:
    earlier = datetime(2026, 1, 1, tzinfo=UTC)
    latest = assistant(TextPart(text="a"), content="a")
    latest.created_at = earlier
    later = assistant(TextPart(text="b"))  # no content string: the old one stays
    later.created_at = earlier + timedelta(seconds=5)
    merge_into(latest, later)
    assert (latest.content.content, latest.created_at) == ("a", earlier + timedelta(seconds=5))
    older = assistant(TextPart(text="c"), content="c")
    older.created_at = earlier
    merge_into(latest, older)
    assert (latest.content.content, latest.created_at) == ("c", earlier + timedelta(seconds=5))


# ------------------------------------------------------------------------------------------------- blocks
def test_a_returned_message_from_outside_the_block_moves_into_it() -> None:
    ml = MessageList()
    a, b, c = Message.user("a"), Message.user("b"), Message.user("c")
    ml.add([a, b, c])
    ml.replace_block([a.id], [c, a], "input")
    assert [m.text for m in ml.get.all.db()] == ["c", "a", "b"]


def test_an_empty_block_appends_the_returned_messages() -> None:
    ml = MessageList(thread_id="t", resource_id="r")
    ml.add("q")
    note = Message.user("note")
    ml.replace_block([], [note], "response")
    assert texts(ml) == [("q", "input"), ("note", "response")]
    assert (note.thread_id, note.resource_id) == ("t", "r")


def test_only_returned_assistant_messages_merge_and_outside_ones_stay_apart() -> None:
    ml = MessageList(thread_id="t")
    ml.add(Message.assistant("one"), "response", merge=False)
    two = Message.assistant("two")
    ml.add(two, "response", merge=False)
    ml.replace_block([two.id], [two], "response")  # a returned assistant message merges as add() would merge it
    assert [[p.text for p in m.content.parts] for m in ml.get.all.db()] == [["one", "two"]]  # type: ignore[union-attr]
    kept = MessageList(thread_id="t")
    first = Message.assistant("first")
    kept.add(first, "response")
    second = Message.assistant("second")
    kept.add(second, "response", merge=False)
    kept.replace_block([first.id], [first], "response")  # second is outside the block: it stays its own message
    assert [m.text for m in kept.get.all.db()] == ["first", "second"]


# ------------------------------------------------------------------------------------------------- system
def test_replacing_the_system_messages_keeps_the_tagged_ones_and_skips_other_roles() -> None:
    ml = MessageList()
    ml.add_system("old")
    ml.add_system("tagged", "memory")

    ml.replace_all_system_messages(
        [
            {"role": "system", "content": "one"},
            {"role": "user", "content": "not a system message"},
            "two",
            Message.user("a user message"),
            Message.model_validate({"role": "system", "content": {"parts": [{"type": "text", "text": "three"}]}}),
            {"role": "system", "content": "one"},
        ]
    )
    assert [m["content"] for m in ml.get_system_messages()] == ["one", "two", "three"]
    assert ml.get_system_messages("memory") == [{"role": "system", "content": "tagged"}]
    assert ml.tags == ["memory"]
    ml.clear_system_messages("memory")
    assert ml.tags == []
    ml.clear_system_messages()
    assert ml.get_all_system_messages() == []


# ------------------------------------------------------------------------------------------------- tools
def test_an_update_changes_only_what_it_sets_in_the_newest_assistant_call() -> None:
    ml = MessageList()
    older = assistant(call("c1", args={"city": "Oslo"}))
    ml.add(older, "response")
    ml.add(Message.user("again"), "input")
    user_with_call = Message(role="user", content=MessageContent(parts=[call("c1", args={"user": True})]))
    newer = assistant(call("c1", args={"city": "Rome"}))
    ml.add(newer, "response")
    ml.add(user_with_call, "input")
    update = ToolInvocationPart(tool_invocation=ToolInvocation(tool_call_id="c1", tool_name="t", result="Sunny"))
    update.tool_invocation.state = "result"
    assert ml.update_tool_invocation(update) is True
    newest = newer.content.parts[0].tool_invocation  # type: ignore[union-attr]
    assert (newest.state, newest.result, newest.args, newest.tool_call_id) == (
        "result",
        "Sunny",
        {"city": "Rome"},
        "c1",
    )
    assert older.content.parts[0].tool_invocation.result is None  # type: ignore[union-attr]
    assert user_with_call.content.parts[0].tool_invocation.result is None  # type: ignore[union-attr]
    assert ml.update_tool_invocation(call("nope", state="result", result=1)) is False


def test_find_tool_invocation_returns_the_newest_and_none_when_absent() -> None:
    ml = MessageList()
    ml.add(assistant(call("c1", args=1)), "response", merge=False)
    ml.add(assistant(call("c1", args=2)), "response", merge=False)
    found = ml.find_tool_invocation("c1")
    assert found is not None and found.args == 2
    assert ml.find_tool_invocation("c2") is None


# ------------------------------------------------------------------------------------------------- steps
def test_rollback_of_a_message_whose_new_parts_held_all_its_text_clears_the_content() -> None:
    ml = MessageList()
    reply = assistant(call("c1"))
    ml.add(reply, "response")
    boundary = ml.boundary()
    reply.content.parts.append(TextPart(text="retracted"))
    reply.content.content = "retracted"
    ml.rollback(boundary)
    assert [p.type for p in reply.content.parts] == ["tool-invocation"]
    assert reply.content.content is None
    untouched = ml.boundary()
    ml.rollback(untouched)
    assert [p.type for p in reply.content.parts] == ["tool-invocation"]


# ------------------------------------------------------------------------------------------------- serialising
def test_deserialize_keeps_consecutive_assistant_messages_apart_and_reads_missing_keys_as_empty() -> None:
    ml = MessageList()
    ml.add(Message.assistant("one"), "response")
    ml.add(Message.assistant("two"), "response", merge=False)
    copy = MessageList.deserialize(ml.serialize())
    assert [m.text for m in copy.get.all.db()] == ["one", "two"]
    empty = MessageList.deserialize({})
    assert (len(empty), empty.thread_id, empty.resource_id, empty.get_all_system_messages()) == (0, None, None, [])


def test_repr_counts_each_source_and_the_system_buckets() -> None:
    ml = MessageList()
    ml.add(["a", "b"])
    ml.add([Message.user("old")], "memory")
    ml.add_system("rule")
    ml.add_system("x", "tag")
    assert repr(ml) == ("MessageList({'memory': 1, 'input': 2, 'response': 0, 'context': 0}, system=1, tagged=['tag'])")


def test_the_source_checker_groups_ids_by_source() -> None:
    ml = MessageList()
    q = Message.user("q")
    ml.add(q)
    ml.add("background", "context")
    checker = ml.make_message_source_checker()
    assert checker["input"] == {q.id}
    assert len(checker["context"]) == 1 and checker["memory"] == set() and checker["response"] == set()
    assert q in ml and q.id in ml and "nope" not in ml
    assert ml.get_source(q.id) == "input" and ml.get_source("nope") is None


@pytest.mark.parametrize("source", ["memory", "input", "response", "context"])
def test_every_source_is_accepted(source: str) -> None:
    ml = MessageList()
    ml.add("x", source)  # type: ignore[arg-type]
    assert ml.get_source(ml.get.all.db()[0]) == source


# ------------------------------------------------------------------------------------------------- more edges
def test_a_views_text_is_one_line_per_message_with_text() -> None:
    ml = MessageList()
    ml.add(["first", "second"])
    ml.add(assistant(call("c1")), "response")
    assert ml.get.all.text() == "first\nsecond"
    assert ml.get.response.text() == ""


def test_an_unknown_source_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"^unknown message source 'later'; expected one of memory, input, response, "
                                         r"context$"):  # fmt: skip
        MessageList().add("x", "later")  # type: ignore[arg-type]


def test_an_assistant_message_merges_into_the_last_message_not_an_earlier_one() -> None:
    ml = MessageList()
    ml.add("q")
    first = Message.assistant("first")
    ml.add(first, "response")
    last = Message.assistant("last")
    ml.add(last, "response", merge=False)
    ml.add(Message.assistant(" more"), "response")
    assert [m.text for m in ml.get.all.db()] == ["q", "first", "last more"]


def test_a_duplicate_id_in_a_returned_block_is_refused_with_the_reason() -> None:
    ml = MessageList()
    q = Message.user("q")
    ml.add(q)
    with pytest.raises(ValueError, match=r"^the returned messages contain the same id twice$"):
        ml.replace_block([q.id], [q, q], "input")


def test_returned_messages_keep_their_own_thread_and_resource() -> None:
    ml = MessageList(thread_id="t", resource_id="r")
    ml.add("q")
    own = Message.user("own", thread_id="elsewhere", resource_id="someone")
    ml.replace_block([], [own], "input")
    assert (own.thread_id, own.resource_id) == ("elsewhere", "someone")


def test_system_texts_are_added_from_a_list_skipping_empty_and_repeated_ones() -> None:
    ml = MessageList()
    ml.add_system(["a", "", "a", "b"])
    ml.add_system(["", "c"], "tag")
    assert [m["content"] for m in ml.get_system_messages()] == ["a", "b"]
    assert [m["content"] for m in ml.get_system_messages("tag")] == ["c"]
    assert ml.get_system_messages("no such tag") == []
    ml.clear_system_messages("no such tag")  # nothing to clear is not an error
    assert ml.tags == ["tag"]


def test_rollback_keeps_a_message_whose_parts_did_not_grow_as_it_was() -> None:
    ml = MessageList()
    legacy = Message(role="assistant", content=MessageContent(parts=[], content="remembered text"))
    ml.add(legacy, "memory")
    two = assistant(TextPart(text="a"), TextPart(text="b"), content="ab")
    ml.add(two, "response")
    boundary = ml.boundary()
    two.content.parts.append(TextPart(text="c"))
    two.content.content = "abc"
    ml.rollback(boundary)
    assert legacy.content.content == "remembered text"
    assert (two.content.content, [p.text for p in two.content.parts]) == ("ab", ["a", "b"])  # type: ignore[union-attr]


def test_text_after_a_new_call_in_the_same_message_starts_a_step() -> None:
    latest = assistant(TextPart(text="Looking."))
    merge_into(latest, assistant(call("c2"), TextPart(text="Found it.")))
    assert [p.type for p in latest.content.parts] == ["text", "tool-invocation", "step-start", "text"]
    ends_with_a_step = assistant(call("c3"))
    merge_into(ends_with_a_step, assistant(TextPart(text="Done."), StepStartPart()))
    assert [p.type for p in ends_with_a_step.content.parts] == ["tool-invocation", "step-start", "text", "step-start"]
