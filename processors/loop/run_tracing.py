"""A run's trace events of its own (not a hook's): the run started, each model call, the run finished.

A mixin of :class:`~processors.loop.run_state.RunState`: the loop calls these only when ``ctx.tracer.active``, so
nothing here is built for a run nobody observes.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Literal

from processors.tracing import ModelCall, RunFinished, RunStarted

if TYPE_CHECKING:
    from processors.loop.config import RunConfig
    from processors.loop.step import StepBuilder
    from processors.models.base import LanguageModel
    from processors.pipeline.run_context import RunContext
    from processors.result import Step
    from processors.tripwire import TripwireData
    from processors.usage import Usage

#: How a model call ended, for its trace: its stream finished, the model failed, a processor aborted the stream,
#: or the consumer stopped the run.
CallOutcome = Literal["finished", "error", "aborted", "stopped"]


class RunTracing:
    """The run-level events of a run (its hooks' events are the runner's)."""

    config: RunConfig
    run_id: str
    ctx: RunContext
    finish_reason: str
    usage: Usage
    steps: list[Step]
    tripwire: TripwireData | None
    error: str | None

    def trace_run_start(self) -> None:
        config = self.config
        self.ctx.tracer.emit_run(
            RunStarted(
                run_id=self.run_id,
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
        self.ctx.tracer.emit_run(
            ModelCall(
                run_id=self.run_id,
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
        self.ctx.tracer.emit_run(
            RunFinished(
                run_id=self.run_id,
                ended_at=time.time(),
                finish_reason=self.finish_reason,
                input_tokens=self.usage.input_tokens,
                output_tokens=self.usage.output_tokens,
                steps=len(self.steps),
                tripwire=self.tripwire.model_dump() if self.tripwire is not None else None,
                error=self.error,
            )
        )


__all__ = ["CallOutcome", "RunTracing"]
