"""Player accounts: ``accounts``, their signed-in ``sessions`` and their ``recovery_codes``.

Nothing that exists changes; the three tables are created where missing.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _accounts() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def _sessions() -> None:
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.LargeBinary(32), primary_key=True),
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])


def _recovery_codes() -> None:
    op.create_table(
        "recovery_codes",
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("code_hash", sa.LargeBinary(32), primary_key=True),
    )


TABLES: dict[str, Callable[[], None]] = {
    "accounts": _accounts, "sessions": _sessions, "recovery_codes": _recovery_codes,
}


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for name, create in TABLES.items():
        if not inspector.has_table(name):
            create()


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
