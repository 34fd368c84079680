"""A violation keeps its message's code and values, and a trace event its before/after summaries' (issue 27 item 2:
texts by code, not by English sentence), so the inspector shows a built-in's report (RegexFilter's warn report) and a
call's message-list summary in the reader's language. Older rows keep none: their text is shown as stored.

Revision ID: s0007
Revises: s0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "s0007"
down_revision: str | None = "s0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("violations") as batch:
        batch.add_column(sa.Column("code", sa.String(255), nullable=True))
        batch.add_column(sa.Column("params", sa.JSON, nullable=True))
    with op.batch_alter_table("trace_events") as batch:
        batch.add_column(sa.Column("summary", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("trace_events") as batch:
        batch.drop_column("summary")
    with op.batch_alter_table("violations") as batch:
        batch.drop_column("params")
        batch.drop_column("code")
