"""Bot accounts: ``accounts.bot`` (0 for every account there is) and ``api_tokens``
(the bots' API tokens, hashed), created where missing.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "bot" not in {c["name"] for c in inspector.get_columns("accounts")}:  # create_all made it already
        op.add_column("accounts", sa.Column("bot", sa.Integer, nullable=False, server_default="0"))
    if not inspector.has_table("api_tokens"):
        op.create_table(
            "api_tokens",
            sa.Column("id", sa.String(24), primary_key=True),
            sa.Column("token_hash", sa.LargeBinary(32), nullable=False, unique=True),
            sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                      nullable=False),
            sa.Column("label", sa.String(60), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("used", sa.Float, nullable=True),
        )
        op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])


def downgrade() -> None:
    op.drop_table("api_tokens")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("bot")
