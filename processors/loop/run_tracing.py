"""A run's trace events of its own (not a hook's): the run started, each model call, the run finished.

:class:`~processors.loop.run.Run` holds one beside its :class:`~processors.loop.run_state.RunState` and calls it only
when ``ctx.tracer.active``, so nothing here is built for a run nobody observes.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Literal

from processors.tracing import ModelCall, RunFinished, RunStarted

if TYPE_CHECKING:
    from processors.loop.run_state import RunState
    from processors.loop.step import StepBuilder
    from processors.models.base import LanguageModel

#: How a model call ended, for its trace: its stream finished, the model failed, a processor aborted the stream,
#: or the consumer stopped the run.
CallOutcome = Literal["finished", "error", "aborted", "stopped"]


class RunTracing:
    """The run-level events of a run (its hooks' events are the runner's), read from the run's state."""

    __slots__ = ("state",)

    def __init__(self, state: RunState) -> None:
        self.state = state

    def trace_run_start(self) -> None:
        state = self.state
        config = state.config
        state.ctx.tracer.emit_run(
            RunStarted(
                run_id=state.run_id,
                agent_id=config.agent_id,
                agent_name=config.agent_name or config.agent_id,
                thread_id=config.thread_id,
                resource_id=config.resource_id,
                started_at=time.time(),
            )
        )

    def trace_model_call(
        self,
        step_number: int,
        model: LanguageModel,
        started: float,
        builder: StepBuilder,
        from_cache: bool,
        outcome: CallOutcome,
        detail: str | None,
    ) -> None:
        if outcome == "finished" and not builder.finished:
            outcome = "stopped"
        usage = builder.usage
        self.state.ctx.tracer.emit_run(
            ModelCall(
                run_id=self.state.run_id,
                step_number=step_number,
                provider=str(getattr(model, "provider", "") or ""),
                model_id=str(getattr(model, "model_id", "") or ""),
                started_at=started,
                ended_at=time.time(),
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                finish_reason=builder.finish_reason if builder.finished else None,
                detail=detail,
                outcome=outcome,
                from_cache=from_cache,
            )
        )

    def trace_run_end(self) -> None:
        state = self.state
        state.ctx.tracer.emit_run(
            RunFinished(
                run_id=state.run_id,
                ended_at=time.time(),
                finish_reason=state.finish_reason,
                input_tokens=state.usage.input_tokens,
                output_tokens=state.usage.output_tokens,
                steps=len(state.steps),
                tripwire=state.tripwire.model_dump() if state.tripwire is not None else None,
                error=state.error,
            )
        )


__all__ = ["CallOutcome", "RunTracing"]
