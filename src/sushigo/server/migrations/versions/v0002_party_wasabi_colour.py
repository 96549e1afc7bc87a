"""Party tables of sushigo 0.4 and earlier name the wasabi colour they were played with.

Those versions had no ``wasabi_colour`` option: a wasabi was a colour of its
own.  A Party table's stored rules (``tables.rules``, whose ``options`` lack
the key) and its stored record (``tables.record``, whose ``options`` lack it)
get ``"wasabi_colour": "own"``, so that the table resumes and its record
replays as it was played.  Nothing else in either document changes: the rules
are written as the store writes them (``json.dumps``), the record as the
server writes records (``sushigo.engine.records.dumps``).  Base tables, and
Party tables that name a colour, are left as they are.

The downgrade changes nothing: a rules or record naming "own" reads the same
to the older code.

Revision ID: 0002
Revises: 0001
Create Date: 2026-08-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from sushigo.engine.records import dumps as record_dumps

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_WASABI_COLOUR = "own"
"""How sushigo 0.4 and earlier played a wasabi: a colour of its own."""

CHUNK = 200
"""Rows read at a time (a record is tens of kilobytes)."""

tables = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("edition", sa.String),
    sa.column("rules", sa.Text),
    sa.column("record", sa.Text),
)


def rules_with_colour(text: str) -> str | None:
    """A Party table's stored rules naming the wasabi colour (``None``: they name it already).

    >>> rules_with_colour('{"options": {"players": 3}, "menu": ["maki"]}')
    '{"options": {"players": 3, "wasabi_colour": "own"}, "menu": ["maki"]}'
    >>> rules_with_colour('{"options": {"wasabi_colour": "nigiri"}}') is None
    True
    """
    rules = json.loads(text)
    if not isinstance(rules, dict):
        return None
    options = rules.get("options") or {}  # as the server reads them: no options are the defaults
    if not isinstance(options, dict) or "wasabi_colour" in options:
        return None
    rules["options"] = {**options, "wasabi_colour": OLD_WASABI_COLOUR}
    return json.dumps(rules)


def record_with_colour(text: str) -> str | None:
    """A Party game record naming the wasabi colour (``None``: it names it already, or is no Party record)."""
    record: Any = json.loads(text)
    options = record.get("options") if isinstance(record, dict) and record.get("edition") == "party" else None
    if not isinstance(options, dict) or "wasabi_colour" in options:
        return None
    options["wasabi_colour"] = OLD_WASABI_COLOUR
    return record_dumps(record) + ("\n" if text.endswith("\n") else "")


def upgrade() -> None:
    bind = op.get_bind()
    ids = list(bind.execute(sa.select(tables.c.id).where(tables.c.edition == "party")
                            .order_by(tables.c.id)).scalars())
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        for row in bind.execute(sa.select(tables.c.id, tables.c.rules, tables.c.record)
                                .where(tables.c.id.in_(chunk))).all():
            values = {}
            rules = rules_with_colour(row.rules)
            if rules is not None:
                values["rules"] = rules
            record = None if row.record is None else record_with_colour(row.record)
            if record is not None:
                values["record"] = record
            if values:
                bind.execute(sa.update(tables).where(tables.c.id == row.id).values(**values))


def downgrade() -> None:
    pass
