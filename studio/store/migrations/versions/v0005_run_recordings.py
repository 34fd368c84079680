"""Runs keep their recording: what the model streamed and the tools returned, below every processor (issue 13),
compressed, so a past run can be replayed through an edited chain with no model call.

A table of its own (not a column of ``runs``): a thread's history is read without the recordings' bytes, and a
run without one (older runs, runs that failed before the model) simply has no row.

Revision ID: s0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "s0005"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "run_recordings",
        sa.Column("run_id", sa.String(255), nullable=False),
        sa.Column("format", sa.Integer, nullable=False),
        sa.Column("chunk_count", sa.Integer, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_run_recordings_run_id_runs", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("run_id", name="pk_run_recordings"),
    )


def downgrade() -> None:
    op.drop_table("run_recordings")
