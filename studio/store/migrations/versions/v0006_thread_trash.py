"""Deleting a thread can be undone (issue 26 §2): a deleted thread's export, with its runs, is kept in a trash for a
while (``studio.store.trash``) and imported back when the user restores it.

Revision ID: s0006
Revises: s0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "s0006"
down_revision: str | None = "s0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "thread_trash",
        sa.Column("thread_id", sa.String(255), nullable=False),
        sa.Column("title", sa.Text, nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("document", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("thread_id", name="pk_thread_trash"),
    )
    op.create_index("ix_thread_trash_deleted_at", "thread_trash", ["deleted_at"])


def downgrade() -> None:
    op.drop_index("ix_thread_trash_deleted_at", table_name="thread_trash")
    op.drop_table("thread_trash")
