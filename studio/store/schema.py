"""The studio's tables (designs, runs, their trace events, violations and recordings, lab runs and their cases),
beside the runtime's threads.

They have their own ``MetaData``; runs reference the runtime's ``threads`` table by its column object (a thread
deleted deletes its runs). The runtime knows nothing of them: their history is the studio's own migrations
(:mod:`studio.store.migrations`), which continue the runtime's. ``tests/studio/store/test_schema.py`` checks that those
migrations build exactly these tables.
"""

from __future__ import annotations

import sqlalchemy as sa

from processors.memory.schema import SeqKey, TolerantJSON, UTCDateTime, threads

#: The studio's tables only (the runtime's are in ``processors.memory.schema.metadata``).
metadata = sa.MetaData()

designs = sa.Table(
    "designs",
    metadata,
    sa.Column("id", sa.String(255), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("json", sa.Text, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.String(255), primary_key=True),
    # No foreign key: a run of a design never saved, or since deleted, still says which design it ran.
    sa.Column("design_id", sa.String(255), nullable=True),
    sa.Column("design_json", sa.Text, nullable=True),
    sa.Column("thread_id", sa.String(255), sa.ForeignKey(threads.c.id, ondelete="CASCADE"), nullable=True),
    sa.Column("model", sa.Text, nullable=True),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.Column("outcome", sa.String(32), nullable=True),
    sa.Column("finish_reason", sa.String(64), nullable=True),
    sa.Column("usage", TolerantJSON, nullable=True),
    sa.Column("tripwire", TolerantJSON, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("input_text", sa.Text, nullable=True),
    sa.Index("ix_runs_thread_id_started_at", "thread_id", "started_at"),
    sa.Index("ix_runs_design_id", "design_id"),
)

trace_events = sa.Table(
    "trace_events",
    metadata,
    sa.Column("seq", SeqKey, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.String(255), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    sa.Column("step_number", sa.Integer, nullable=True),
    sa.Column("hook", sa.String(64), nullable=False),
    sa.Column("processor_id", sa.String(255), nullable=False),
    sa.Column("processor_index", sa.Integer, nullable=True),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("ended_at", sa.Float, nullable=False),
    sa.Column("outcome", sa.String(16), nullable=False),
    sa.Column("before", sa.Text, nullable=False),
    sa.Column("after", sa.Text, nullable=False),
    sa.Column("state", TolerantJSON, nullable=True),
    sa.Column("detail", sa.Text, nullable=True),
    sa.Column("chunk_stats", TolerantJSON, nullable=True),
    # before/after's codes and values (TraceEvent.to_dict()["summary"], s0007); None for an older row
    sa.Column("summary", TolerantJSON, nullable=True),
    sa.Index("ix_trace_events_run_id_seq", "run_id", "seq"),
)

violations = sa.Table(
    "violations",
    metadata,
    sa.Column("seq", SeqKey, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.String(255), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    sa.Column("processor_id", sa.String(255), nullable=False),
    sa.Column("message", sa.Text, nullable=False),
    sa.Column("detail", TolerantJSON, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    # the message's code and values (Violation.code/params, s0007); None for a free message or an older row
    sa.Column("code", sa.String(255), nullable=True),
    sa.Column("params", TolerantJSON, nullable=True),
    sa.Index("ix_violations_run_id_seq", "run_id", "seq"),
)

#: A run's :class:`~processors.models.recording.Recording` (``Recording.to_bytes()``: compressed JSON, never a key).
run_recordings = sa.Table(
    "run_recordings",
    metadata,
    sa.Column("run_id", sa.String(255), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("format", sa.Integer, nullable=False),
    sa.Column("chunk_count", sa.Integer, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
)


lab_runs = sa.Table(
    "lab_runs",
    metadata,
    sa.Column("id", sa.String(255), primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    # No foreign key, as for runs: the snapshot says what ran, whatever became of the design since.
    sa.Column("design_id", sa.String(255), nullable=True),
    sa.Column("design_json", sa.Text, nullable=False),
    sa.Column("design_fingerprint", sa.String(64), nullable=True),
    #: The corpora it ran: ``[{"name", "path", "cases"}]``.
    sa.Column("corpus", TolerantJSON, nullable=True),
    sa.Column("mode", sa.String(16), nullable=False),
    #: ``{"concurrency": N, ...}``.
    sa.Column("settings", TolerantJSON, nullable=True),
    #: ``running``, ``finished`` or ``cancelled`` (``running`` with no live run: interrupted, resumable).
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("resumes", sa.Integer, nullable=False),
    #: ``lab.metrics.summary()`` of the finished cases.
    sa.Column("summary", TolerantJSON, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.Index("ix_lab_runs_created_at", "created_at"),
)

lab_cases = sa.Table(
    "lab_cases",
    metadata,
    sa.Column("lab_run_id", sa.String(255), sa.ForeignKey("lab_runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("case_id", sa.String(255), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
    #: ``lab.corpus.Case.to_dict()``: a resume needs no corpus file.
    sa.Column("case", TolerantJSON, nullable=False),
    sa.Column("outcome", sa.String(16), nullable=True),
    #: ``lab.runner.CaseResult.to_dict()`` once the case finished.
    sa.Column("result", TolerantJSON, nullable=True),
    #: The thread the case was opened as (clicked in the Lab view), reopened on the next click.
    sa.Column("thread_id", sa.String(255), nullable=True),
    sa.Index("ix_lab_cases_lab_run_id_position", "lab_run_id", "position"),
)

#: Deleted threads, kept a while so a deletion can be undone (:mod:`studio.store.trash`): the thread's export with
#: its runs (``Store.export_thread``), restored by importing it back.
thread_trash = sa.Table(
    "thread_trash",
    metadata,
    sa.Column("thread_id", sa.String(255), primary_key=True),
    sa.Column("title", sa.Text, nullable=True),
    sa.Column("deleted_at", UTCDateTime, nullable=False),
    sa.Column("document", sa.Text, nullable=False),
    sa.Index("ix_thread_trash_deleted_at", "deleted_at"),
)


__all__ = [
    "designs",
    "lab_cases",
    "lab_runs",
    "metadata",
    "run_recordings",
    "runs",
    "thread_trash",
    "trace_events",
    "violations",
]
