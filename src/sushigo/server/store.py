"""Where tables live: SQLAlchemy 2 Core over SQLite (default) or PostgreSQL.

The tables are declared in :mod:`sushigo.server.schema`, the rows read back and the
writes taken in :mod:`sushigo.server.rows` (both re-exported here).

Twelve tables: ``tables`` (rules, seed, status, the record once finished),
``seats`` (kind, bot spec, name, SHA-256 of the seat token), ``events``
(every accepted decision, numbered per game by ``seq``) and ``happenings``
(what happened at a table beyond its decisions: the start, chat, mutes, seats
handed to a bot and back, the rematch) and ``sheets`` (the scorekeeper's
score sheets of tables playing with real cards, each with the SHA-256 of its
edit token) and ``analyses`` (each finished game's analyses, per seat, budget
and seed: the ``sushigo-analysis/1`` document) and ``uploads`` (game records uploaded
to the replay viewer, each under the start of its SHA-256); and the player accounts' three,
kept by :mod:`sushigo.server.accounts`: ``accounts``, ``sessions``, ``recovery_codes``; and the
ratings' ``ratings`` and ``rating_changes`` (:mod:`sushigo.server.ratings`).
A game is its seed plus its events, so loading replays them through the engine.

Writes go through one writer thread (:mod:`sushigo.server.writer`) with *group commit*: whatever was queued
while the previous transaction ran is written in the next one, and each
caller's future resolves only once its rows are committed.  The server
acknowledges a pick only after that, so a pick that was acknowledged survives
``kill -9``.  SQLite runs in WAL mode with ``synchronous=NORMAL``, which keeps
every commit across a crash of the process (not of the machine: use
PostgreSQL, or ``?synchronous=FULL``, for that).

>>> store = Store("sqlite://")   # an in-memory database
>>> store.create_schema()
>>> store.write([CreateTable(TableRow("t1", 0.0, "base", 2, {}, 7, None, "waiting"),
...                          [SeatRow(0, "human", None, None, b"h"), SeatRow(1, "bot", "greedy", None, None)])])
>>> [t.id for t in store.load(unfinished_only=True)]
['t1']
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import (
    and_,
    create_engine,
    event,
    func,
    literal,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from sushigo.server import ratings
from sushigo.server.ratings import rate_game
from sushigo.server.rows import (
    AddHappening,
    AppendEvent,
    CreateTable,
    EventRow,
    HappeningRow,
    LoadedTable,
    Op,
    RateGame,
    SeatRow,
    SetName,
    SetStatus,
    SetToken,
    SheetRow,
    TableRow,
)
from sushigo.server.schema import (
    accounts_t,
    analyses_t,
    events_t,
    happenings_t,
    metadata,
    ratings_t,
    seats_t,
    sheets_t,
    tables_t,
    uploads_t,
)

OPEN_STATUSES = ("waiting", "playing")
"""The statuses of a table that is still to be played (resumed at start)."""

SQLITE_BUSY_WAIT = 30.0
"""Seconds a connection waits for another's lock (the driver's ``timeout``, and the switch to WAL)."""


class StoreError(RuntimeError):
    """The database could not be opened or written; the message is one line."""


def normalize_url(url: str) -> str:
    """The SQLAlchemy URL for ``url``: a bare path means a SQLite file and
    ``postgresql://`` uses psycopg 3.

    >>> normalize_url("games.db"), normalize_url("postgresql://u@h/db")
    ('sqlite:///games.db', 'postgresql+psycopg://u@h/db')
    """
    if "://" not in url:
        return f"sqlite:///{url}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def one_line(e: BaseException) -> str:
    """A database error in one line: the driver's message, else the error's."""
    text = str(getattr(e, "orig", None) or e).strip().splitlines()
    return text[0] if text else type(e).__name__


@contextlib.contextmanager
def _as_store_error() -> Iterator[None]:
    """A database error inside as :class:`StoreError`, in one line."""
    try:
        yield
    except SQLAlchemyError as e:
        raise StoreError(one_line(e)) from None


class Store:
    """The database of one server (thread-safe; writes are serialized by the caller).

    Args:
        url: a SQLAlchemy URL (``sqlite:///sushigo.db``, ``postgresql+psycopg://...``)
            or a path to a SQLite file.
    """

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        try:
            if self.url.startswith("sqlite"):
                memory = self.url in ("sqlite://", "sqlite:///:memory:")
                self.engine: Engine = create_engine(
                    self.url,
                    connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_WAIT},
                    poolclass=StaticPool if memory else None,
                )
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(self.url, pool_size=4, pool_pre_ping=True)
        except (ArgumentError, SQLAlchemyError, ImportError, ValueError) as e:
            raise StoreError(f"cannot use database {url!r}: {one_line(e)}") from None
        self._lock = threading.Lock()

    @property
    def kind(self) -> str:
        """``'sqlite'`` or ``'postgresql'``."""
        return self.engine.dialect.name

    def create_schema(self) -> None:
        """Bring the database to the newest schema revision (:mod:`sushigo.server.migrations`):
        a fresh one gets every table, one of an earlier sushigo its missing tables
        and data migrations, a current one nothing.  One transaction that holds the
        database's write lock, so servers starting together wait for each other.
        Raises :class:`StoreError`."""
        from alembic.util import CommandError

        from sushigo.server import migrations

        where = self.engine.url.render_as_string()
        try:
            with self._lock, self.engine.connect() as conn:
                migrations.upgrade(conn, metadata)
        except (SQLAlchemyError, OSError, CommandError) as e:
            raise StoreError(f"cannot open database {where!r}: {one_line(e)}") from None
        except migrations.SchemaError as e:
            raise StoreError(f"cannot open database {where!r}: {e}") from None

    def write(self, ops: Iterable[Op]) -> None:
        """Apply ``ops`` in one transaction (all or nothing)."""
        with self._lock, self.engine.begin() as conn:
            events: list[dict[str, Any]] = []
            for op in ops:
                if isinstance(op, AppendEvent):
                    ev = op.event
                    events.append({"table_id": op.table_id, "seq": ev.seq, "seat": ev.seat,
                                   "action": ev.action, "by": ev.by, "at": ev.at})
                    continue
                if events:
                    conn.execute(events_t.insert(), events)
                    events = []
                _apply(conn, op)
            if events:
                conn.execute(events_t.insert(), events)

    def load(self, *, unfinished_only: bool = False, table_id: str | None = None,
             prefix: str | None = None) -> list[LoadedTable]:
        """Tables with their seats; unfinished ones (or the one ``table_id`` names) with their events in order."""
        with self.engine.connect() as conn:
            q = select(tables_t).order_by(tables_t.c.created)
            if unfinished_only:
                q = q.where(tables_t.c.status.in_(OPEN_STATUSES))
            if table_id is not None:
                q = q.where(tables_t.c.id == table_id)
            if prefix is not None:  # substr compares case-sensitively everywhere (LIKE does not in SQLite)
                q = q.where(func.substr(tables_t.c.id, 1, len(prefix)) == prefix)
            out = {r.id: LoadedTable(_table_row(r), []) for r in conn.execute(q)}
            if not out:
                return []
            ids = list(out)
            for chunk in _chunks(ids, 500):
                _read_seats(conn, chunk, out)
                live = [i for i in chunk if out[i].row.status in OPEN_STATUSES or table_id is not None]
                if live:
                    for e in conn.execute(select(events_t).where(events_t.c.table_id.in_(live))
                                          .order_by(events_t.c.table_id, events_t.c.seq)):
                        out[e.table_id].events.append(EventRow(e.seq, e.seat, e.action, e.by, e.at))
                    for h in conn.execute(select(happenings_t).where(happenings_t.c.table_id.in_(live))
                                          .order_by(happenings_t.c.table_id, happenings_t.c.n)):
                        out[h.table_id].happenings.append(
                            HappeningRow(h.n, h.kind, h.seat, h.at, json.loads(h.data)))
            return list(out.values())

    def summaries(self, limit: int = 200) -> list[LoadedTable]:
        """The newest ``limit`` tables that are not private, with their seats (no events)."""
        with self.engine.connect() as conn:
            out: dict[str, LoadedTable] = {}
            page, offset = max(limit, 50), 0
            while len(out) < limit:  # pages of the newest tables, until enough public ones
                rows = list(conn.execute(select(tables_t).order_by(tables_t.c.created.desc(), tables_t.c.id)
                                         .limit(page).offset(offset)))
                for r in rows:
                    row = _table_row(r)
                    if not row.rules.get("private") and len(out) < limit:
                        out[row.id] = LoadedTable(row, [])
                if len(rows) < page:
                    break
                offset += page
            if out:
                _read_seats(conn, list(out), out)
            return list(out.values())

    def tables_of_account(self, account_id: str, statuses: tuple[str, ...], limit: int = 200, *,
                          edition: str | None = None, players: int | None = None,
                          before: float | None = None) -> list[tuple[LoadedTable, list[int]]]:
        """The newest ``limit`` tables of ``statuses`` where the account holds a seat
        (of ``edition``, with ``players``, created before ``before``, where given),
        with their seats (no events), and the seats it holds at each."""
        with self.reading() as conn:
            held: dict[str, list[int]] = {}
            q = (select(seats_t.c.table_id, seats_t.c.seat)
                 .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                 .where(seats_t.c.account_id == account_id, tables_t.c.status.in_(statuses))
                 .order_by(tables_t.c.created.desc(), tables_t.c.id, seats_t.c.seat))
            if edition is not None:
                q = q.where(tables_t.c.edition == edition)
            if players is not None:
                q = q.where(tables_t.c.players == players)
            if before is not None:
                q = q.where(tables_t.c.created < before)
            for table_id, seat in conn.execute(q):
                if table_id in held or len(held) < limit:
                    held.setdefault(table_id, []).append(seat)
            if not held:
                return []
            out = {r.id: LoadedTable(_table_row(r), []) for r in conn.execute(
                select(tables_t).where(tables_t.c.id.in_(list(held))))}
            _read_seats(conn, list(out), out)
        return [(out[t], seats) for t, seats in held.items() if t in out]

    def records_of_account(self, account_id: str, *, private: bool = True) -> Iterator[tuple[str, str]]:
        """``(table id, stored record)`` of each finished table where the account holds a
        seat, oldest first (``private``: private tables' too), read a few at a time: an
        iterator, so the caller writes each as it comes."""
        with self.reading() as conn:
            ids = list(conn.execute(
                select(tables_t.c.id).join(seats_t, seats_t.c.table_id == tables_t.c.id)
                .where(seats_t.c.account_id == account_id, tables_t.c.status == "finished",
                       tables_t.c.record.is_not(None))
                .group_by(tables_t.c.id, tables_t.c.created).order_by(tables_t.c.created, tables_t.c.id)).scalars())
        for chunk in _chunks(ids, 50):
            with self.reading() as conn:
                q = select(tables_t.c.id, tables_t.c.rules, tables_t.c.record).where(tables_t.c.id.in_(chunk))
                found = {r.id: r for r in conn.execute(q)}
            for table_id in chunk:
                r = found.get(table_id)
                if r is not None and r.record and (private or not json.loads(r.rules).get("private")):
                    yield table_id, r.record

    def record(self, table_id: str) -> str | None:
        """The stored record (JSON text) of a finished table, else ``None``."""
        with self.engine.connect() as conn:
            return conn.execute(select(tables_t.c.record).where(tables_t.c.id == table_id)).scalar()

    def create_sheet(self, sheet_id: str, token_hash: bytes, data: dict[str, Any], now: float) -> None:
        """Store a new score sheet (version 1)."""
        with self.transaction() as conn:
            conn.execute(sheets_t.insert().values(id=sheet_id, token_hash=token_hash, created=now, updated=now,
                                                  version=1, data=json.dumps(data)))

    def sheet(self, sheet_id: str) -> SheetRow | None:
        """The score sheet ``sheet_id``, or ``None``."""
        with self.reading() as conn:
            r = conn.execute(select(sheets_t).where(sheets_t.c.id == sheet_id)).first()
        if r is None:
            return None
        return SheetRow(r.id, r.token_hash, r.created, r.updated, r.version, json.loads(r.data))

    def save_sheet(self, sheet_id: str, data: dict[str, Any], now: float) -> int:
        """Replace a sheet's data; its new version (0: no such sheet)."""
        with self.transaction() as conn:
            version = conn.execute(select(sheets_t.c.version).where(sheets_t.c.id == sheet_id)).scalar()
            if version is None:
                return 0
            conn.execute(update(sheets_t).where(sheets_t.c.id == sheet_id)
                         .values(data=json.dumps(data), updated=now, version=version + 1))
            return int(version) + 1

    def save_analysis(self, table_id: str, seat: int, samples: int, seed: int, doc: dict[str, Any],
                      now: float) -> None:
        """Keep a finished game's analysis of one seat (replacing one with the same budget and seed)."""
        key = {"table_id": table_id, "seat": seat, "samples": samples, "seed": seed}
        with self.transaction() as conn:
            conn.execute(analyses_t.delete().where(*(analyses_t.c[k] == v for k, v in key.items())))
            conn.execute(analyses_t.insert().values(**key, created=now, data=json.dumps(doc)))

    def analysis(self, table_id: str, seat: int, samples: int, seed: int) -> dict[str, Any] | None:
        """The stored analysis of one seat of a game, or ``None``."""
        with self.reading() as conn:
            text = conn.execute(select(analyses_t.c.data).where(
                analyses_t.c.table_id == table_id, analyses_t.c.seat == seat,
                analyses_t.c.samples == samples, analyses_t.c.seed == seed)).scalar()
        return None if text is None else dict(json.loads(text))

    def save_upload(self, upload_id: str, record: str, now: float) -> bool:
        """Keep an uploaded record under its id; ``False`` if one was kept there before (it is the same record)."""
        with self.transaction() as conn:
            if conn.execute(select(uploads_t.c.id).where(uploads_t.c.id == upload_id)).first() is not None:
                return False
            conn.execute(uploads_t.insert().values(id=upload_id, created=now, record=record))
            return True

    def upload(self, upload_id: str) -> str | None:
        """The uploaded record kept under ``upload_id``, or ``None``."""
        with self.reading() as conn:
            return conn.execute(select(uploads_t.c.record).where(uploads_t.c.id == upload_id)).scalar()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A connection in a transaction of its own, committed at the end of the
        block (rolled back on an error), taken in turn with the store's other
        writes outside the writer thread; a database error is a :class:`StoreError`."""
        with _as_store_error(), self._lock, self.engine.begin() as conn:
            yield conn

    @contextlib.contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to read with; a database error is a :class:`StoreError`."""
        with _as_store_error(), self.engine.connect() as conn:
            yield conn

    def close(self) -> None:
        self.engine.dispose()


def _chunks(items: list[str], n: int) -> Iterable[list[str]]:
    for i in range(0, len(items), n):
        yield items[i:i + n]


def _read_seats(conn: Connection, ids: list[str], out: dict[str, LoadedTable]) -> None:
    """The seats of tables ``ids``, in order, each with its account's name, into ``out``."""
    player = literal(ratings.player_of("account", "")) + seats_t.c.account_id
    q = (select(seats_t, accounts_t.c.name.label("account_name"), accounts_t.c.bot.label("account_bot"),
                ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
         .outerjoin(accounts_t, accounts_t.c.id == seats_t.c.account_id)
         .join(tables_t, tables_t.c.id == seats_t.c.table_id)
         .outerjoin(ratings_t, and_(ratings_t.c.player == player, ratings_t.c.edition == tables_t.c.edition))
         .where(seats_t.c.table_id.in_(ids)).order_by(seats_t.c.table_id, seats_t.c.seat))
    for s in conn.execute(q):
        rating = None if s.mu is None else ratings.to_json(s.mu, s.sigma, s.games)
        out[s.table_id].seats.append(SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash,
                                             s.account_id, s.account_name, rating, bool(s.account_bot)))


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r.id, created=r.created, edition=r.edition, players=r.players,
        rules=json.loads(r.rules), seed=r.seed, timer=r.timer, status=r.status,
        finished=r.finished, result=json.loads(r.result) if r.result else None,
    )


def _apply(conn: Connection, op: Op) -> None:
    if isinstance(op, CreateTable):
        row = op.row
        conn.execute(tables_t.insert().values(
            id=row.id, created=row.created, edition=row.edition, players=row.players,
            rules=json.dumps(row.rules), seed=row.seed, timer=row.timer, status=row.status,
        ))
        conn.execute(seats_t.insert(), [
            {"table_id": row.id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
             "name": s.name, "token_hash": s.token_hash, "account_id": s.account} for s in op.seats
        ])
    elif isinstance(op, SetName):
        conn.execute(update(seats_t).where(seats_t.c.table_id == op.table_id, seats_t.c.seat == op.seat)
                     .values(name=op.name))
    elif isinstance(op, SetToken):
        conn.execute(update(seats_t).where(seats_t.c.table_id == op.table_id, seats_t.c.seat == op.seat)
                     .values(token_hash=op.token_hash, account_id=op.account))
    elif isinstance(op, RateGame):
        rate_game(conn, op)
    elif isinstance(op, AddHappening):
        h = op.happening
        conn.execute(happenings_t.insert().values(table_id=op.table_id, n=h.n, kind=h.kind, seat=h.seat,
                                                  at=h.at, data=json.dumps(h.data)))
    elif isinstance(op, SetStatus):
        values: dict[str, Any] = {"status": op.status}
        if op.finished is not None:
            values["finished"] = op.finished
        if op.result is not None:
            values["result"] = json.dumps(op.result)
        if op.record is not None:
            values["record"] = op.record
        conn.execute(update(tables_t).where(tables_t.c.id == op.table_id).values(**values))
    else:  # pragma: no cover - AppendEvent is batched by Store.write
        raise TypeError(f"unknown write {op!r}")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    deadline = time.monotonic() + SQLITE_BUSY_WAIT
    while True:  # a new file's switch to WAL is refused at once, not waited for, while another connection's is on
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorname", "") != "SQLITE_BUSY" or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()



__all__ = [
    "OPEN_STATUSES",
    "SQLITE_BUSY_WAIT",
    "AddHappening",
    "AppendEvent",
    "CreateTable",
    "EventRow",
    "HappeningRow",
    "LoadedTable",
    "Op",
    "RateGame",
    "SeatRow",
    "SetName",
    "SetStatus",
    "SetToken",
    "SheetRow",
    "Store",
    "StoreError",
    "TableRow",
    "analyses_t",
    "events_t",
    "happenings_t",
    "metadata",
    "normalize_url",
    "one_line",
    "seats_t",
    "sheets_t",
    "tables_t",
    "uploads_t",
]
