"""The language of each device's notices: ``push_subscriptions.lang`` (``NULL``: English).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "lang" not in {c["name"] for c in inspector.get_columns("push_subscriptions")}:  # create_all made it already
        op.add_column("push_subscriptions", sa.Column("lang", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.drop_column("lang")
