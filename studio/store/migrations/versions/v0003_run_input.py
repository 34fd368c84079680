"""Runs remember the message that started them, so a blocked input (never saved to the thread, since it may hold
what the guardrail caught) can still be shown above its tripwire banner when the thread is reopened.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("input_text", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("input_text")
