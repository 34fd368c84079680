"""``ToolCallFilter``: leave old tool calls and their results out of the prompt (history is untouched).

::

    from processors.builtin.tool_call_filter import ToolCallFilter

    ToolCallFilter()                                   # no tool calls from earlier turns reach the model
    ToolCallFilter(exclude=["search"])                 # only `search` calls are left out
    ToolCallFilter(filter_after_tool_steps=2)          # keep the tool calls of the last two tool steps only
    ToolCallFilter(preserve_model_output=True)         # a filtered pair becomes "search result:\\n..." text

Mastra 1.71's ``ToolCallFilter`` (id ``tool-call-filter``) works at prompt time, in ``process_llm_request``:
each assistant ``tool_calls`` entry and its ``tool`` result message are removed from the prompt sent to the
model — the stored thread and what the user sees keep them. ``exclude`` names the tools to filter (omitted:
every tool). Without ``filter_after_tool_steps`` only history from before this call is filtered (the tool-call
ids in the first prompt of the call are remembered in ``state``), so the agent still sees the tools it calls
now; with ``N``, the tool calls of the last ``N`` assistant tool steps are kept and older ones filtered
(``0`` filters them all). A message left empty is dropped. ``preserve_model_output`` keeps what the tool
returned, as assistant text ``"<tool> result:\\n<output>"``, instead of removing it.

An entry of ``tool_calls`` that is no call object with a string ``id`` (an earlier processor may hand on any
prompt) cannot be matched with a result: it is left where it is, for the model to judge.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.messages.formats import CoreMessage
from processors.pipeline.processor import ProcessLLMRequestArgs


class ToolCallFilterOptions(ProcessorOptions):
    exclude: list[str] | None = Field(
        default=None,
        max_length=500,
        description="Tool names whose calls are filtered; empty or unset: every tool.",
    )
    filter_after_tool_steps: int | None = Field(
        default=None,
        ge=0,
        le=1_000,
        description="Keep the tool calls of the last N tool steps (this call's included) and filter older ones; "
        "unset: filter only the history from before this call.",
    )
    preserve_model_output: bool = Field(
        default=False, description="Replace a filtered call and result by the text '<tool> result: <output>'."
    )


class ToolCallFilter(BuiltinProcessor):
    """Removes tool-call/tool-result pairs from the prompt sent to the model; stored history is untouched."""

    Options: ClassVar[type[ProcessorOptions]] = ToolCallFilterOptions
    type_name: ClassVar[str] = "ToolCallFilter"
    id = "tool-call-filter"
    name = "Tool Call Filter"
    description = "Leaves earlier tool calls and their results out of the prompt (history itself is untouched)."

    options: ToolCallFilterOptions

    def process_llm_request(self, args: ProcessLLMRequestArgs) -> dict[str, Any] | None:
        prompt = args.prompt
        calls = _call_ids_by_step(prompt)
        state = args.state
        if "history_ids" not in state:  # the first prompt of this call: what is there is history
            state["history_ids"] = {call_id for step in calls for call_id in step}
        keep_last = self.options.filter_after_tool_steps
        if keep_last is None:
            candidates: set[str] = set(state["history_ids"])
        else:
            older = calls[: max(len(calls) - keep_last, 0)]
            candidates = {call_id for step in older for call_id in step}
        exclude = set(self.options.exclude or ())
        names = _call_names(prompt)
        doomed = {call_id for call_id in candidates if not exclude or names.get(call_id) in exclude}
        if not doomed:
            return None
        return {"prompt": self.filter(prompt, doomed, names)}

    def filter(self, prompt: list[CoreMessage], doomed: set[str], names: dict[str, str]) -> list[CoreMessage]:
        """``prompt`` without the calls in ``doomed`` and their results."""
        preserve = self.options.preserve_model_output
        outputs = {_result_id(m): m.get("content") for m in prompt if m.get("role") == "tool"} if preserve else {}
        result: list[CoreMessage] = []
        for message in prompt:
            role = message.get("role")
            if role == "tool" and _result_id(message) in doomed:
                continue
            calls = _calls(message) if role == "assistant" else []
            if calls:
                kept = [c for c in calls if _call_id(c) not in doomed]
                removed = [c for c in calls if _call_id(c) in doomed]
                if removed:
                    message = {k: v for k, v in message.items() if k != "tool_calls"}
                    if kept:
                        message["tool_calls"] = kept
                    if preserve:
                        summaries = [
                            f"{names.get(_call_id(c) or '', 'tool')} result:\n{_text(outputs.get(_call_id(c)))}"
                            for c in removed
                        ]
                        message["content"] = "\n\n".join(filter(None, [_text(message.get("content")), *summaries]))
                    if not kept and not message.get("content"):
                        continue
            result.append(message)
        return result


def _calls(message: CoreMessage) -> list[Any]:
    calls = message.get("tool_calls")
    return calls if isinstance(calls, list) else []


def _call_id(call: Any) -> str | None:
    """A call's id; None for an entry that is no call object with a string id (it is left where it is)."""
    value = call.get("id") if isinstance(call, dict) else None
    return value if isinstance(value, str) else None


def _result_id(message: CoreMessage) -> str | None:
    value = message.get("tool_call_id")
    return value if isinstance(value, str) else None


def _call_ids_by_step(prompt: list[CoreMessage]) -> list[list[str]]:
    """Tool-call ids grouped by the assistant message (tool step) that made them, oldest first."""
    return [
        [call_id for call in _calls(message) if (call_id := _call_id(call)) is not None]
        for message in prompt
        if message.get("role") == "assistant" and message.get("tool_calls")
    ]


def _call_names(prompt: list[CoreMessage]) -> dict[str, str]:
    names: dict[str, str] = {}
    for message in prompt:
        for call in _calls(message):
            call_id = _call_id(call)
            if call_id is None:
                continue
            function = call.get("function")
            name = function.get("name") if isinstance(function, dict) else None
            if isinstance(name, str):
                names[call_id] = name
    return names


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(item.get("text", "")) for item in content if isinstance(item, dict))
    return str(content)
