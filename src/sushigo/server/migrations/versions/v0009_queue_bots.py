"""Bot accounts in play now: ``queue.bot`` (0 for every place there is), created where missing.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "bot" not in {c["name"] for c in inspector.get_columns("queue")}:  # create_all made it already
        op.add_column("queue", sa.Column("bot", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("queue") as batch:
        batch.drop_column("bot")
