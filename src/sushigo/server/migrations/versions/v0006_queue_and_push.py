"""Play now and notifications: ``queue`` (the places in play now's queue),
``push_subscriptions`` (the devices that asked for Web Push notifications) and
``site_keys`` (the server's own keys: its VAPID key), created where missing.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _queue() -> None:
    op.create_table(
        "queue",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("ticket_hash", sa.LargeBinary(32), nullable=False, unique=True),
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True,
                  unique=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("edition", sa.String(8), nullable=False),
        sa.Column("menu", sa.String(100), nullable=True),
        sa.Column("sizes", sa.String(40), nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("bots_after", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("push", sa.Integer, nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("match_id", sa.String(40), nullable=True),
        sa.Column("players", sa.Integer, nullable=True),
        sa.Column("confirm_by", sa.Float, nullable=True),
        sa.Column("confirmed", sa.Integer, nullable=False),
        sa.Column("misses", sa.Integer, nullable=False),
        sa.Column("changed", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(40), nullable=True),
        sa.Column("url", sa.String(200), nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
    )
    op.create_index("ix_queue_state", "queue", ["state"])
    op.create_index("ix_queue_match_id", "queue", ["match_id"])


def _push_subscriptions() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(40), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])


def _site_keys() -> None:
    op.create_table(
        "site_keys",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


TABLES: dict[str, Callable[[], None]] = {"queue": _queue, "push_subscriptions": _push_subscriptions,
                                         "site_keys": _site_keys}


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for name, create in TABLES.items():
        if not inspector.has_table(name):
            create()


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
