"""The revisions of the server's database schema (Alembic), and bringing a database to the newest.

:func:`upgrade` is what :meth:`sushigo.server.store.Store.create_schema` runs
at every start.  The revisions are in ``versions/``, one module each, applied
in order:

- ``0001``: the seven tables with their index, as sushigo 0.7 made them.  It creates
  only the tables that are missing, so a database of an earlier sushigo
  (unversioned: some or all of the tables, no ``alembic_version``) is adopted
  as it is, gets what it lacks, and is at revision 0001 after it;
- ``0002``: Party tables stored by sushigo 0.4 and earlier name no
  ``wasabi_colour`` in their rules or their record; they were played with
  wasabi a colour of its own, so both get ``"wasabi_colour": "own"``.
- ``0003``: player accounts: ``accounts``, ``sessions`` and ``recovery_codes``,
  created where missing;
- ``0004``: ``seats.account_id``, the account that claimed a seat;
- ``0005``: the ratings: ``ratings`` and ``rating_changes``;
- ``0006``: play now's ``queue``, the devices' ``push_subscriptions`` and the
  server's own ``site_keys`` (its VAPID key);
- ``0007``: bot accounts: ``accounts.bot`` and the bots' ``api_tokens``;
- ``0008``: ``challenges`` (challenges to bot accounts);
- ``0009``: ``queue.bot``, a bot account's place in play now;
- ``0010``: ``push_subscriptions.lang``, the language of a device's notices.

A fresh database gets every revision, an older one those it has not had, a
current one nothing.  It all happens in one transaction that holds the
database's write lock from its first statement (SQLite: ``BEGIN IMMEDIATE``;
PostgreSQL: a transaction-level advisory lock), so servers started at once on
one database wait for each other instead of creating the tables twice (and
the stores of one process take turns: Alembic's ``op`` is one per process).
Adding a revision: docs/server.md (Storage).
"""

from __future__ import annotations

import threading
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData
from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent
"""The script location: ``env.py`` and ``versions/``."""

PG_LOCK_KEY = 0x7375736869676F
"""The key of the PostgreSQL advisory lock that serializes upgrades ("sushigo")."""


_ONE_AT_A_TIME = threading.Lock()
"""Alembic's ``op`` and ``context`` are one per process: two stores of one process
migrating at once would each run the other's operations on its own connection."""


class SchemaError(RuntimeError):
    """The database's schema revision is not one this sushigo knows (a newer sushigo upgraded it)."""


def config(connection: Connection | None = None, metadata: MetaData | None = None) -> Config:
    """An Alembic configuration for these revisions, no ``alembic.ini`` needed.

    ``connection``: the one ``env.py`` migrates; ``metadata``: the tables the
    code declares (``sushigo.server.store.metadata``), for autogenerate.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("file_template", "v%%(rev)s_%%(slug)s")  # a module name: v0003_what_it_does.py
    cfg.attributes["connection"] = connection
    cfg.attributes["metadata"] = metadata
    return cfg


def head() -> str:
    """The newest revision."""
    rev = ScriptDirectory.from_config(config()).get_current_head()
    assert rev is not None
    return rev


def current(connection: Connection) -> str | None:
    """The revision the database is at (``None``: unversioned: fresh, or made before the schema had revisions)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection, metadata: MetaData | None = None) -> None:
    """Bring the database of ``connection`` to the newest revision, in one transaction of its own.

    Raises :class:`SchemaError` if the database is at a revision this sushigo
    does not know, and SQLAlchemy's errors if the database fails.
    """
    if connection.in_transaction():
        raise ValueError("upgrade needs a connection outside a transaction")
    cfg = config(connection, metadata)
    script = ScriptDirectory.from_config(cfg)
    with _ONE_AT_A_TIME, connection.begin():  # this process's lock first, then the database's
        _lock(connection)
        at = current(connection)
        if at is not None and at not in {s.revision for s in script.walk_revisions()}:
            raise SchemaError(f"the database is at schema revision {at!r}, which this sushigo does not know "
                              f"(it knows up to {script.get_current_head()!r}): a newer sushigo upgraded it")
        if at != script.get_current_head():
            command.upgrade(cfg, "head")


def _lock(connection: Connection) -> None:
    """Take the database's write lock for the rest of the transaction (its first statement)."""
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    elif connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_LOCK_KEY})")
