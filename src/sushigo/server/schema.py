"""The database's tables, as SQLAlchemy Core ``metadata`` (the newest schema revision:
:mod:`sushigo.server.migrations` brings a database to it; :mod:`sushigo.server.store` reads and writes it)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, Integer, LargeBinary, MetaData, String, Table, Text

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("edition", String(8), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rules", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("timer", Integer, nullable=True),
    Column("status", String(10), nullable=False, index=True),
    Column("finished", Float, nullable=True),
    Column("result", Text, nullable=True),
    Column("record", Text, nullable=True),
)

seats_t = Table(
    "seats",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(200), nullable=True),
    Column("name", String(100), nullable=True),
    Column("token_hash", LargeBinary(32), nullable=True),
)

events_t = Table(
    "events",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("by", String(8), nullable=False),
    Column("at", Float, nullable=False),
)

happenings_t = Table(
    "happenings",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("at", Float, nullable=False),
    Column("data", Text, nullable=False),
)

sheets_t = Table(
    "sheets",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("token_hash", LargeBinary(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("data", Text, nullable=False),
)

analyses_t = Table(
    "analyses",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("samples", Integer, primary_key=True),
    Column("seed", BigInteger, primary_key=True),
    Column("created", Float, nullable=False),
    Column("data", Text, nullable=False),
)

uploads_t = Table(
    "uploads",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("record", Text, nullable=False),
)


__all__ = ["analyses_t", "events_t", "happenings_t", "metadata", "seats_t", "sheets_t", "tables_t", "uploads_t"]
