"""Challenges to bot accounts: the ``challenges`` table, created where missing.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("challenges"):  # create_all made it already
        return
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("challenger_id", sa.String(40), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("bot_id", sa.String(40), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("table_id", sa.String(40), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("changed", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_bot_id", "challenges", ["bot_id"])


def downgrade() -> None:
    op.drop_table("challenges")
