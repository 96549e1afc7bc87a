"""A seat remembers the account that claimed it: ``seats.account_id`` (and its index).

Every seat stored before has none (a guest's, or a bot's).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("seats")}
    if "account_id" not in columns:  # a database made by metadata.create_all has it already
        op.add_column("seats", sa.Column("account_id", sa.String(40), nullable=True))
        op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_column("account_id")
