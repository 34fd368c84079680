"""A processor's ``process_input`` called directly, with the arguments a run would give it: for what a run does not
show (the state a hook leaves, the metadata it writes on messages)."""

from __future__ import annotations

from processors.context import RequestContext
from processors.messages import Message
from processors.messages.message_list import MessageList
from processors.pipeline.processor import ProcessInputArgs, Processor


def input_args(messages: list[Message], processor_id: str) -> ProcessInputArgs:
    """The hook's arguments for ``messages`` as a run's input, with a fresh state."""
    message_list = MessageList()
    message_list.add(messages, "input")
    return ProcessInputArgs(
        messages=messages,
        message_list=message_list,
        system_messages=[],
        processor_id=processor_id,
        state={},
        request_context=RequestContext(),
    )


async def run_input(processor: Processor, *texts: str) -> tuple[list[Message], dict[str, object]]:
    """``processor.process_input`` over user messages of ``texts``: what it returns and the state it left."""
    args = input_args([Message.user(text) for text in texts], processor.id)
    return await processor.process_input(args), args.state
