"""The seven tables, as sushigo 0.7 made them with ``metadata.create_all``.

Only the tables that are missing are created: a database of an earlier
sushigo (no ``alembic_version``; the oldest lack ``happenings``, ``sheets``,
``analyses`` and ``uploads``) keeps the tables it has and gets the others.

Revision ID: 0001
Revises:
Create Date: 2026-08-01
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _tables() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("edition", sa.String(8), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("timer", sa.Integer, nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])


def _seats() -> None:
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("name", sa.String(100), nullable=True),
        sa.Column("token_hash", sa.LargeBinary(32), nullable=True),
    )


def _events() -> None:
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("by", sa.String(8), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def _happenings() -> None:
    op.create_table(
        "happenings",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def _sheets() -> None:
    op.create_table(
        "sheets",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("token_hash", sa.LargeBinary(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def _analyses() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("samples", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def _uploads() -> None:
    op.create_table(
        "uploads",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )


TABLES: dict[str, Callable[[], None]] = {
    "tables": _tables, "seats": _seats, "events": _events, "happenings": _happenings,
    "sheets": _sheets, "analyses": _analyses, "uploads": _uploads,
}
"""Each table's name and what creates it."""


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for name, create in TABLES.items():
        if not inspector.has_table(name):
            create()


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
