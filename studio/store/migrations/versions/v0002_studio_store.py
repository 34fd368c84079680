"""The studio's store: agent designs, runs, their trace events and processor violations.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None

_SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "designs",
        sa.Column("id", sa.String(255), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_designs"),
    )
    op.create_table(
        "runs",
        sa.Column("id", sa.String(255), nullable=False),
        sa.Column("design_id", sa.String(255), nullable=True),
        sa.Column("design_json", sa.Text, nullable=True),
        sa.Column("thread_id", sa.String(255), nullable=True),
        sa.Column("model", sa.Text, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(32), nullable=True),
        sa.Column("finish_reason", sa.String(64), nullable=True),
        sa.Column("usage", sa.JSON, nullable=True),
        sa.Column("tripwire", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.ForeignKeyConstraint(["thread_id"], ["threads.id"], name="fk_runs_thread_id_threads", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_runs"),
    )
    op.create_index("ix_runs_thread_id_started_at", "runs", ["thread_id", "started_at"])
    op.create_index("ix_runs_design_id", "runs", ["design_id"])
    op.create_table(
        "trace_events",
        sa.Column("seq", _SEQ, nullable=False, autoincrement=True),
        sa.Column("run_id", sa.String(255), nullable=False),
        sa.Column("step_number", sa.Integer, nullable=True),
        sa.Column("hook", sa.String(64), nullable=False),
        sa.Column("processor_id", sa.String(255), nullable=False),
        sa.Column("processor_index", sa.Integer, nullable=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("before", sa.Text, nullable=False),
        sa.Column("after", sa.Text, nullable=False),
        sa.Column("state", sa.JSON, nullable=True),
        sa.Column("detail", sa.Text, nullable=True),
        sa.Column("chunk_stats", sa.JSON, nullable=True),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_trace_events_run_id_runs", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seq", name="pk_trace_events"),
    )
    op.create_index("ix_trace_events_run_id_seq", "trace_events", ["run_id", "seq"])
    op.create_table(
        "violations",
        sa.Column("seq", _SEQ, nullable=False, autoincrement=True),
        sa.Column("run_id", sa.String(255), nullable=False),
        sa.Column("processor_id", sa.String(255), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("detail", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_violations_run_id_runs", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seq", name="pk_violations"),
    )
    op.create_index("ix_violations_run_id_seq", "violations", ["run_id", "seq"])


def downgrade() -> None:
    op.drop_table("violations")
    op.drop_table("trace_events")
    op.drop_table("runs")
    op.drop_table("designs")
