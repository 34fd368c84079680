"""The agentic loop: one ``generate``/``stream`` call, step by step.

``run`` drives the call (model, tools, retries) as an async generator of chunks; ``phases`` (before the model),
``output_phases`` (after it; ``output_step_results`` checks what ``process_output_step`` returns) and
``tool_calls`` run the hooks around each step against the narrow ``RunView`` of the run (``run_view``), so they do
not depend on the ``Run`` class; ``run_state`` holds what a call keeps (with its run-level trace events in
``run_tracing``); ``step`` folds the model's events into a step; ``stream`` is the public ``AgentStream``;
``config`` what a call runs with after per-call overrides.
"""
