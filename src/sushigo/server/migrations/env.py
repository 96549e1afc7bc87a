"""Alembic's environment: migrate the connection the caller passed in.

Run by :func:`sushigo.server.migrations.upgrade` (and any Alembic command
given :func:`sushigo.server.migrations.config`), which puts the connection in
``config.attributes["connection"]`` and the declared tables in
``config.attributes["metadata"]``.  Online only: the first revision looks at
which tables exist, so there is no ``--sql`` mode.
"""

from __future__ import annotations

from alembic import context


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("the migrations need a connection: use sushigo.server.migrations.config(connection)")
    context.configure(connection=connection, target_metadata=context.config.attributes.get("metadata"))
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # imported outside an Alembic command (pytest's doctests import every module)
    run()
