"""Step through a run: pause before a processor's hook call when a breakpoint matches, edit, then go on.

A :class:`Debugger` is handed to one call (``agent.stream(..., debugger=debugger)``). Before each hook call of each
processor the runner asks it whether to stop; when a :class:`Breakpoint` matches (a hook, a processor, a chunk's
type or text, a step number) — or the user asked to step — the run awaits a :class:`Pause` until the user answers:
:meth:`Pause.resume` (optionally with an edited chunk or state, and ``step=True`` to stop at the very next call) or
:meth:`Pause.abort`, from any thread. The wait is an ``await`` on the run's own loop, so a UI on that loop (or on
another thread) stays responsive, and a cancelled run (Stop) ends the wait at once::

    debugger = Debugger([Breakpoint(processor_id="pii-detector", text_contains="@")], on_pause=show)
    stream = agent.stream("hi", debugger=debugger)
    ...                     # show(pause) sees pause.hook, pause.processor_id, pause.part, pause.state
    pause.resume(part=pause.part.with_payload(text="edited"))

Without a debugger nothing of this runs: the per-chunk fast path is chosen only when the call has none, and the
other hooks pay one attribute test (``ctx.debugger is None``) per call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from processors.errors import ProcessorError

__all__ = ["Breakpoint", "Debugger", "DebuggerAbort", "Pause"]


class DebuggerAbort(ProcessorError):
    """The user aborted the run at a breakpoint; the run ends with an ``error`` chunk saying so."""


@dataclass(frozen=True)
class Breakpoint:
    """Where to pause: every given condition must hold (an empty breakpoint pauses before every call)."""

    hook: str | None = None
    processor_id: str | None = None
    #: The chunk's ``type`` (``process_output_stream`` only).
    chunk_type: str | None = None
    #: Text the chunk's text (or the last message's text, for message hooks) must contain.
    text_contains: str | None = None
    step_number: int | None = None

    def matches(self, hook: str, processor_id: str, step_number: int | None, part: Any, text: str) -> bool:
        return self.matches_call(hook, processor_id, step_number, part) and (
            self.text_contains is None or self.text_contains in text
        )

    def matches_call(self, hook: str, processor_id: str, step_number: int | None, part: Any) -> bool:
        """Every condition but the text: the cheap ones, so the text is read only for a call they let through."""
        if self.hook is not None and self.hook != hook:
            return False
        if self.processor_id is not None and self.processor_id != processor_id:
            return False
        if self.step_number is not None and self.step_number != step_number:
            return False
        return self.chunk_type is None or getattr(part, "type", None) == self.chunk_type


@dataclass(eq=False)
class Pause:
    """A run waiting before one hook call: what the processor is about to receive, and the answer to give."""

    run_id: str
    step_number: int | None
    hook: str
    processor_id: str
    #: The args object the hook will receive (``args.part`` for the stream hook, ``args.messages`` …).
    args: Any
    #: The processor's state dict (a copy: edit it through :meth:`resume`).
    state: dict[str, Any]
    #: The chunk the stream hook will receive (None for other hooks).
    part: Any = None
    _answer: asyncio.Future[tuple[str, Any, Any, bool]] | None = field(default=None, repr=False)

    @property
    def answered(self) -> bool:
        return self._answer is None or self._answer.done()

    def resume(self, *, part: Any = None, state: dict[str, Any] | None = None, step: bool = False) -> None:
        """Go on: with ``part`` instead of the chunk, ``state`` instead of the processor's state, and with
        ``step=True`` pausing again before the very next hook call."""
        self._answer_with(("resume", part, state, step))

    def abort(self) -> None:
        """End the run here (an ``error`` chunk says the debugger stopped it)."""
        self._answer_with(("abort", None, None, False))

    def _answer_with(self, answer: tuple[str, Any, Any, bool]) -> None:
        """Answer from any thread: a run replayed on a worker thread's loop is answered from the UI's thread, and
        an asyncio future may only be completed on its own loop."""
        future = self._answer
        if future is None or future.done():
            return
        loop = future.get_loop()
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            future.set_result(answer)
        else:
            loop.call_soon_threadsafe(_settle, future, answer)


class Debugger:
    """Breakpoints for one call, and how the run tells the user it paused (``on_pause(pause)``)."""

    def __init__(
        self, breakpoints: Iterable[Breakpoint] = (), *, on_pause: Callable[[Pause], None] | None = None
    ) -> None:
        self.breakpoints = list(breakpoints)
        self.on_pause = on_pause
        #: Pause before the next hook call whatever the breakpoints (set by ``resume(step=True)``).
        self.stepping = False
        #: The pause the run is waiting in, if any.
        self.paused: Pause | None = None

    def wants(self, hook: str, processor_id: str, step_number: int | None, part: Any, args: Any) -> bool:
        if self.stepping:
            return True
        # Asked before every hook call of every processor, per chunk for the stream hook: the chunk's (or message's)
        # text is read only when a breakpoint that passed its other conditions needs it, at most once.
        text: str | None = None
        for breakpoint in self.breakpoints:
            if not breakpoint.matches_call(hook, processor_id, step_number, part):
                continue
            if breakpoint.text_contains is None:
                return True
            if text is None:
                text = _text_of(part, args)
            if breakpoint.text_contains in text:
                return True
        return False

    async def before(
        self, run_id: str, step_number: int | None, hook: str, processor_id: str, args: Any, state: dict[str, Any]
    ) -> Any:
        """Called by the runner before a hook call; returns the part to use (the stream hook) or None. Raises
        :class:`DebuggerAbort` when the user aborted."""
        part = getattr(args, "part", None) if hook == "process_output_stream" else None
        if not self.wants(hook, processor_id, step_number, part, args):
            return part
        answer: asyncio.Future[tuple[str, Any, Any, bool]] = asyncio.get_running_loop().create_future()
        pause = Pause(run_id, step_number, hook, processor_id, args, dict(state), part, answer)
        self.paused = pause
        if self.on_pause is not None:
            self.on_pause(pause)
        try:
            action, new_part, new_state, step = await answer
        finally:
            self.paused = None
        if action == "abort":
            raise DebuggerAbort(
                f"Stopped in the debugger before {processor_id}.{hook}", processor_id=processor_id, hook=hook
            )
        self.stepping = step
        if new_state is not None:
            state.clear()
            state.update(new_state)
        return new_part if new_part is not None else part


def _settle(future: asyncio.Future[tuple[str, Any, Any, bool]], answer: tuple[str, Any, Any, bool]) -> None:
    if not future.done():  # the run may have been cancelled meanwhile
        future.set_result(answer)


def _text_of(part: Any, args: Any) -> str:
    if part is not None:
        payload = getattr(part, "payload", None)
        return str(getattr(payload, "text", "") or "")
    messages = getattr(args, "messages", None)
    if messages:
        return str(getattr(messages[-1], "text", "") or "")
    return str(getattr(args, "text", "") or "")
