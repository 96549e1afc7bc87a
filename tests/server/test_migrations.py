"""The schema's revisions (``sushigo.server.migrations``): a fresh database and
one of an earlier sushigo end at the same schema, sushigo 0.4's Party tables
get the wasabi colour they were played with, a current database is left alone,
and servers starting together on one database wait for each other.

Each test runs on SQLite and, with ``SUSHIGO_TEST_PG_URL``, on PostgreSQL.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, select

from sushigo import Game
from sushigo.engine.editions import replay, to_record
from sushigo.engine.party.game import PartyGame
from sushigo.engine.records import dumps as record_dumps
from sushigo.engine.rules import Rules
from sushigo.server import migrations
from sushigo.server.store import Store, StoreError, metadata, seats_t, tables_t

from .conftest import _reset, make_client

pytestmark = pytest.mark.filterwarnings("error")

OLD_TABLES = ("tables", "seats", "events")
"""The tables of the oldest server (the others came with later versions)."""


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()


def old_database(store: Store, tables: tuple[str, ...] | None = None) -> None:
    """The schema as an earlier sushigo made it: ``metadata.create_all``, no ``alembic_version``."""
    metadata.create_all(store.engine, tables=None if tables is None else [metadata.tables[t] for t in tables])


def revision_of(store: Store) -> str | None:
    with store.engine.connect() as conn:
        return migrations.current(conn)


def differences(store: Store) -> list[Any]:
    """What autogenerate finds between the database and the declared tables."""
    with store.engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def schema_of(store: Store) -> dict[str, Any]:
    """Every table's columns, primary key and indexes, as the database describes them."""
    insp = inspect(store.engine)
    return {
        name: {
            "columns": [(c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns(name)],
            "primary_key": insp.get_pk_constraint(name),
            "indexes": sorted((i["name"] or "", i["column_names"], i["unique"]) for i in insp.get_indexes(name)),
        }
        for name in sorted(insp.get_table_names())
    }


def contents_of(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    with store.engine.connect() as conn:
        return {t.name: sorted(tuple(r) for r in conn.execute(select(t))) for t in metadata.sorted_tables}


# ------------------------------------------------------------------ the schema


def test_a_fresh_database_gets_every_revision_and_the_declared_schema(store: Store) -> None:
    store.create_schema()
    assert revision_of(store) == migrations.head()
    assert differences(store) == []
    assert set(schema_of(store)) == {*metadata.tables, "alembic_version"}


@pytest.mark.parametrize("tables", [None, OLD_TABLES], ids=["all-seven", "oldest-three"])
def test_an_old_database_ends_at_the_schema_of_a_fresh_one(db_url: str, store: Store,
                                                           tables: tuple[str, ...] | None) -> None:
    store.create_schema()
    fresh = schema_of(store)
    _reset(db_url)
    old_database(store, tables)
    assert revision_of(store) is None
    store.create_schema()
    assert revision_of(store) == migrations.head()
    assert differences(store) == []
    assert schema_of(store) == fresh


def test_create_schema_twice_changes_nothing(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.create_schema()
    _store_old_party_table(store, "p1")  # an old row in a current database: no revision runs again
    before = (schema_of(store), contents_of(store), revision_of(store))
    from alembic import command

    def no_upgrade(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a current database was upgraded")

    monkeypatch.setattr(command, "upgrade", no_upgrade)
    store.create_schema()
    store.create_schema()
    assert (schema_of(store), contents_of(store), revision_of(store)) == before


def test_a_database_of_a_newer_sushigo_is_refused(store: Store) -> None:
    store.create_schema()
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = 'f00d'")
    with pytest.raises(StoreError, match=r"schema revision 'f00d'.*newer sushigo"):
        store.create_schema()


OPEN_AT_A_SIGNAL = """
import sys
from sushigo.server import migrations  # imported before the start, as a server's would be
from sushigo.server.store import Store
store = Store(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()
store.create_schema()
"""


@pytest.mark.parametrize("old", [False, True], ids=["fresh", "old"])
def test_servers_starting_together_on_one_database_wait_for_each_other(db_url: str, store: Store,
                                                                         old: bool) -> None:
    """Three processes bring one database to the newest revision at the same moment:
    none fails, the schema is made once, the Party table is migrated once."""
    if old:
        old_database(store)
        _store_old_party_table(store, "p1")
    procs = [subprocess.Popen([sys.executable, "-c", OPEN_AT_A_SIGNAL, db_url], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    try:
        for p in procs:
            assert p.stdout is not None and p.stdout.readline() == "ready\n"
        for p in procs:  # as close together as the processes can be told
            assert p.stdin is not None
            p.stdin.write("\n")
            p.stdin.flush()
        failures = []
        for p in procs:
            _, err = p.communicate(timeout=60)
            if p.returncode != 0:
                failures.append(err.strip().splitlines()[-1])
    finally:
        for p in procs:
            p.kill()
    assert failures == []
    _assert_migrated_once(store, old)


@pytest.mark.parametrize("old", [False, True], ids=["fresh", "old"])
def test_stores_of_one_process_starting_together_take_turns(db_url: str, store: Store, old: bool) -> None:
    """Four stores of one process (Alembic's ``op`` is one per process) upgrade one database at once."""
    if old:
        old_database(store)
        _store_old_party_table(store, "p1")
    stores = [Store(db_url) for _ in range(4)]
    start = threading.Barrier(len(stores))
    failed: list[BaseException] = []

    def open_it(s: Store) -> None:
        start.wait()
        try:
            s.create_schema()
        except BaseException as e:  # reported below
            failed.append(e)

    threads = [threading.Thread(target=open_it, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for s in stores:
        s.close()
    assert failed == []
    _assert_migrated_once(store, old)


def _assert_migrated_once(store: Store, old: bool) -> None:
    assert revision_of(store) == migrations.head()
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar() == 1
    assert differences(store) == []
    if old:
        rules, record = _stored(store, "p1")
        assert json.loads(rules)["options"]["wasabi_colour"] == "own"
        assert record == record_dumps(to_record(GAME))


# ------------------------------------------------------------------ 0002: the wasabi colour of sushigo 0.4


def _party_game_the_colour_changes() -> PartyGame:
    """A finished Party game played with wasabi a colour of its own whose record
    replays to another result (or fails) when read with the default colour."""
    for seed in range(100):
        game = PartyGame(Rules.party(4, "My First Meal", wasabi_colour="own"), seed=seed)
        game.random_playout(random.Random(seed))
        old = to_record(game)
        del old["options"]["wasabi_colour"]
        try:
            if replay(old).result() != game.result():
                return game
        except ValueError:
            return game
    raise AssertionError("no game of 100 where the wasabi colour changes the result")


GAME = _party_game_the_colour_changes()


def _old_party_rules() -> dict[str, Any]:
    rules = Rules.party(4, "My First Meal")
    options = dict(rules.options())
    del options["wasabi_colour"]
    return {"options": options, "menu": list(rules.menu)}


def _old_party_record() -> str:
    record = to_record(GAME)
    del record["options"]["wasabi_colour"]
    return record_dumps(record)


def _insert(store: Store, tid: str, edition: str, rules: dict[str, Any], record: str | None) -> None:
    """A finished table's row and seats, written as the server of sushigo 0.4 wrote them."""
    with store.engine.begin() as conn:
        conn.execute(tables_t.insert().values(
            id=tid, created=1.0, edition=edition, players=4 if edition == "party" else 2,
            rules=json.dumps(rules), seed=1, timer=None, status="finished", finished=2.0,
            result=None, record=record))
        conn.execute(seats_t.insert(), [{"table_id": tid, "seat": s, "kind": "bot", "bot": "greedy", "name": None,
                                         "token_hash": None} for s in range(4 if edition == "party" else 2)])


def _store_old_party_table(store: Store, tid: str) -> None:
    _insert(store, tid, "party", _old_party_rules(), _old_party_record())


def _stored(store: Store, tid: str) -> tuple[str, str | None]:
    with store.engine.connect() as conn:
        row = conn.execute(select(tables_t.c.rules, tables_t.c.record).where(tables_t.c.id == tid)).one()
    return row.rules, row.record


def test_party_tables_of_sushigo_0_4_get_the_wasabi_colour_they_were_played_with(db_url: str,
                                                                                  store: Store) -> None:
    old_database(store)
    _store_old_party_table(store, "old-party")
    _insert(store, "no-options", "party", {"menu": list(Rules.party(4, "My First Meal").menu)}, None)
    base_game = Game(2, seed=4)
    base_game.random_playout(random.Random(4))
    _insert(store, "base", "base", {"options": {"pass_both_ways": True}}, record_dumps(to_record(base_game)))
    new_rules = Rules.party(4, "My First Meal")
    _insert(store, "new-party", "party", {"options": new_rules.options(), "menu": list(new_rules.menu)},
            record_dumps(to_record(PartyGame(new_rules, seed=1))))
    untouched = {tid: _stored(store, tid) for tid in ("base", "new-party")}

    store.create_schema()

    rules, record = _stored(store, "old-party")
    assert json.loads(rules) == {"options": {**_old_party_rules()["options"], "wasabi_colour": "own"},
                                 "menu": _old_party_rules()["menu"]}
    assert record == record_dumps(to_record(GAME))  # the same text, the colour named where the server names it
    assert replay(json.loads(record)).result() == GAME.result()
    assert json.loads(_stored(store, "no-options")[0])["options"] == {"wasabi_colour": "own"}
    assert _stored(store, "no-options")[1] is None
    assert {tid: _stored(store, tid) for tid in untouched} == untouched

    store.close()
    with make_client(db_url) as client:  # what the server says of them
        assert client.get("/api/tables/old-party").json()["options"]["wasabi_colour"] == "own"
        assert client.get("/api/tables/new-party").json()["options"]["wasabi_colour"] == "nigiri"
        served = client.get("/api/tables/old-party/record")
        assert served.status_code == 200
        assert json.loads(served.text)["options"]["wasabi_colour"] == "own"
        assert replay(json.loads(served.text)).result() == GAME.result()


def test_the_record_text_keeps_its_form() -> None:
    """The migrated record is the one the server writes now; a text ending in a newline keeps it."""
    from sushigo.server.migrations.versions.v0002_party_wasabi_colour import record_with_colour

    old = _old_party_record()
    assert record_with_colour(old) == record_dumps(to_record(GAME))
    assert record_with_colour(old + "\n") == record_dumps(to_record(GAME)) + "\n"
    assert record_with_colour(record_dumps(to_record(GAME))) is None
    base_game = Game(2, seed=4)
    base_game.random_playout(random.Random(4))
    assert record_with_colour(record_dumps(to_record(base_game))) is None


def test_seats_stored_before_accounts_get_an_empty_account(store: Store) -> None:
    """A database at revision 0003 (seats without ``account_id``) gets the column and its
    index at 0004; its seats are kept, each a guest's (no account)."""
    from alembic import command

    with store.engine.connect() as conn, conn.begin():
        command.upgrade(migrations.config(conn, metadata), "0003")
    assert "account_id" not in {c["name"] for c in inspect(store.engine).get_columns("seats")}
    with store.engine.begin() as conn:
        conn.execute(tables_t.insert().values(id="t0", created=0.0, edition="base", players=2, rules="{}",
                                              seed=1, timer=None, status="waiting"))
        conn.exec_driver_sql("INSERT INTO seats (table_id, seat, kind, name) VALUES ('t0', 0, 'human', 'Ana')")
    store.create_schema()
    assert revision_of(store) == migrations.head() and differences(store) == []
    with store.engine.connect() as conn:
        assert conn.execute(select(seats_t.c.name, seats_t.c.account_id)).all() == [("Ana", None)]


def test_accounts_made_before_bot_accounts_are_players(store: Store) -> None:
    """A database at revision 0006 (accounts without ``bot``) gets the column, 0 for every
    account it has, and the ``api_tokens`` table at 0007."""
    from alembic import command

    from sushigo.server.schema import accounts_t

    with store.engine.connect() as conn, conn.begin():
        command.upgrade(migrations.config(conn, metadata), "0006")
    assert "bot" not in {c["name"] for c in inspect(store.engine).get_columns("accounts")}
    with store.engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO accounts (id, name, name_key, password_hash, created) "
                             "VALUES ('a1', 'Ana', 'ana', 'x', 0.0)")
    store.create_schema()
    assert revision_of(store) == migrations.head() and differences(store) == []
    with store.engine.connect() as conn:
        assert conn.execute(select(accounts_t.c.name, accounts_t.c.bot)).all() == [("Ana", 0)]
