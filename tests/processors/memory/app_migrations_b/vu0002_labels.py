"""An application's own table on the runtime's history (as the studio adds its tables): used by the tests of
``SqlMemory(migrations=...)``.

Revision ID: u0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "u0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("labels", sa.Column("id", sa.Integer, primary_key=True), sa.Column("text", sa.Text))


def downgrade() -> None:
    op.drop_table("labels")
