"""The first schema: conversation threads and their messages.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

_SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "threads",
        sa.Column("id", sa.String(255), nullable=False),
        sa.Column("resource_id", sa.String(255), nullable=True),
        sa.Column("title", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("metadata", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_threads"),
    )
    op.create_index("ix_threads_updated_at", "threads", ["updated_at"])
    op.create_index("ix_threads_resource_id_updated_at", "threads", ["resource_id", "updated_at"])
    op.create_table(
        "messages",
        sa.Column("seq", _SEQ, nullable=False, autoincrement=True),
        sa.Column("id", sa.String(255), nullable=False),
        sa.Column("thread_id", sa.String(255), nullable=False),
        sa.Column("resource_id", sa.String(255), nullable=True),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("type", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.ForeignKeyConstraint(
            ["thread_id"], ["threads.id"], name="fk_messages_thread_id_threads", ondelete="CASCADE"
        ),
        sa.UniqueConstraint("id", name="uq_messages_id"),
        sa.PrimaryKeyConstraint("seq", name="pk_messages"),
    )
    op.create_index("ix_messages_thread_id_seq", "messages", ["thread_id", "seq"])


def downgrade() -> None:
    op.drop_table("messages")
    op.drop_table("threads")
