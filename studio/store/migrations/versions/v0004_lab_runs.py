"""The guardrail lab's runs and their case results, kept in the store and listed in the Lab view.

A lab run keeps the design as it ran (a snapshot: the design may change or be deleted since), which corpora it
ran, its settings, its status (``running``, ``finished``, ``cancelled``; a ``running`` run found at start-up was
interrupted and can be resumed) and its metrics summary. Each case is a row with the case itself (so a resume
does not need the corpus files) and its result once it finished.

Revision ID: s0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "s0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lab_runs",
        sa.Column("id", sa.String(255), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("design_id", sa.String(255), nullable=True),
        sa.Column("design_json", sa.Text, nullable=False),
        sa.Column("design_fingerprint", sa.String(64), nullable=True),
        sa.Column("corpus", sa.JSON, nullable=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("resumes", sa.Integer, nullable=False),
        sa.Column("summary", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_lab_runs"),
    )
    op.create_index("ix_lab_runs_created_at", "lab_runs", ["created_at"])
    op.create_table(
        "lab_cases",
        sa.Column("lab_run_id", sa.String(255), nullable=False),
        sa.Column("case_id", sa.String(255), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("case", sa.JSON, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("thread_id", sa.String(255), nullable=True),
        sa.ForeignKeyConstraint(
            ["lab_run_id"], ["lab_runs.id"], name="fk_lab_cases_lab_run_id_lab_runs", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("lab_run_id", "case_id", name="pk_lab_cases"),
    )
    op.create_index("ix_lab_cases_lab_run_id_position", "lab_cases", ["lab_run_id", "position"])


def downgrade() -> None:
    op.drop_table("lab_cases")
    op.drop_table("lab_runs")
