"""The processor pipeline: the ``Processor`` contract and how a chain of processors runs one hook.

``processor`` is the base class and every hook's arguments; ``runner`` runs one hook across a chain (state, abort,
violations, tracing, the documented result forms); ``hook_results`` and ``request_results`` say what a hook's
result does to the run; ``stream_chain`` is the per-chunk path of ``process_output_stream``; ``run_context`` what a
run lends its processors; ``stream_parts`` the reassembly of streamed parts. It knows nothing of the agentic loop
that calls it.
"""
