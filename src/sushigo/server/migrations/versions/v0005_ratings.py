"""Ratings: ``ratings`` (each rated player's, per edition) and ``rating_changes``
(what each rated game did to each seat's), created where missing.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _ratings() -> None:
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(240), primary_key=True),
        sa.Column("edition", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def _rating_changes() -> None:
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(240), nullable=False),
        sa.Column("edition", sa.String(8), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rank", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player"])


TABLES: dict[str, Callable[[], None]] = {"ratings": _ratings, "rating_changes": _rating_changes}


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for name, create in TABLES.items():
        if not inspector.has_table(name):
            create()


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
