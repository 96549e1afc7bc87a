"""What the review of the server found, pinned: failed writes, timer races,
bot limits, nested JSON, finished tables without a hello, seeded tables."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sushigo.server.store import (
    AppendEvent,
    CreateTable,
    EventRow,
    SeatRow,
    Store,
    StoreError,
    TableRow,
)
from sushigo.server.writer import Writer

from .conftest import create, tokens


def _row(tid: str) -> CreateTable:
    return CreateTable(TableRow(tid, 0.0, "base", 2, {"options": {}}, 1, None, "playing"),
                       [SeatRow(0, "human", None, "A", b"x" * 32), SeatRow(1, "bot", "greedy", None, None)])


def _event(tid: str, seq: int) -> AppendEvent:
    return AppendEvent(tid, EventRow(seq, 0, 1, "seat", 0.0))


def test_a_failed_write_fails_the_later_writes_of_its_table_only(tmp_path: Path) -> None:
    """Events stay a gap-free prefix: after a write of table t fails, every later
    write of t fails until reset; other tables are not affected."""
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    store.create_schema()
    store.write([_row("t"), _row("u"), _event("t", 1)])

    async def scenario() -> list[str]:
        writer = Writer(store)
        writer.start()
        futures = [writer.submit(_event("t", 1)),  # duplicate key: fails
                   writer.submit(_event("t", 2)),  # would leave a gap: must fail too
                   writer.submit(_event("u", 1))]  # another table: stored
        outcomes = []
        for fut in futures:
            try:
                await fut
                outcomes.append("ok")
            except StoreError:
                outcomes.append("failed")
        writer.reset("t")
        await writer.submit(_event("t", 2))
        await writer.stop()
        return outcomes

    assert asyncio.run(scenario()) == ["failed", "failed", "ok"]
    (t,) = store.load(table_id="t")
    (u,) = store.load(table_id="u")
    assert [e.seq for e in t.events] == [1, 2] and [e.seq for e in u.events] == [1]


def test_the_timer_never_decides_after_the_seat_did(lite_client: TestClient) -> None:
    """A pick and the timeout in the same loop iteration: the pick wins and the
    timer does not take the seat's next decision."""
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=3, timer=60)
    tid = created["id"]
    (token,) = tokens(created)
    service = lite_client.app.state.service  # type: ignore[attr-defined]
    with lite_client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"v": 1, "type": "hello", "token": token, "name": "A", "last_seq": None})
        while True:
            m = ws.receive_json()
            if m["type"] == "state" and m["status"] == "playing" and m["view"]["legal_actions"]:
                break
        table = service.get(tid)

        async def race() -> None:
            opened = table.opened[0]
            pick = asyncio.ensure_future(service.pick(table, 0, m["seq"], m["view"]["legal_actions"][0]))
            before = set(service._tasks)
            service._on_timeout(table, 0, opened)  # the timer fires in the same iteration
            (timer,) = set(service._tasks) - before
            await pick
            await timer  # the timer's task has run to its end: whatever it did is done
            await service.writer.barrier()

        lite_client.portal.call(race)  # type: ignore[union-attr]
    events = service.store.load(table_id=tid)[0].events
    assert [(e.seat, e.by) for e in events if e.seat == 0] == [(0, "seat")]


@pytest.mark.parametrize("spec", ["bot:ismcts:time=100", "bot:ismcts:iterations=10000000", "bot:flatmc:time=6"])
def test_server_bots_think_within_limits(lite_client: TestClient, spec: str) -> None:
    r = lite_client.post("/api/tables", json={"players": 2, "seats": ["human", spec]})
    assert r.status_code == 400 and "at most" in r.json()["error"]


def test_every_bot_setting_is_classed_as_safe_or_not_for_the_server() -> None:
    """A new bot setting must be added to SERVER_SETTINGS on purpose (or stay off the server)."""
    from sushigo.bots import BOTS
    from sushigo.server.tables import SERVER_SETTINGS

    assert {key for cls in BOTS.values() for key in cls.settings} - {"file"} == SERVER_SETTINGS


def test_server_bots_cannot_read_server_files(lite_client: TestClient) -> None:
    for path in ("/etc/passwd", "src/sushigo/bots/data/learned.json"):
        r = lite_client.post("/api/tables", json={"players": 2, "seats": ["human", f"bot:learned:file={path}"]})
        assert r.status_code == 400 and r.json()["error"] == "seat 1: bots cannot load files on the server"


def test_deeply_nested_json_is_a_bad_message(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    nested = "[" * 2000 + "]" * 2000
    r = lite_client.post("/api/tables", content=nested.encode())
    assert r.status_code == 400
    with lite_client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        ws.send_text("[" * 2040)
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "bad_message"
        ws.send_json({"v": 1, "type": "hello", "token": None, "name": None, "last_seq": None})
        assert ws.receive_json()["type"] == "welcome"


def test_a_socket_without_hello_does_not_keep_a_finished_table_in_memory(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=8, timer=5)
    tid = created["id"]
    service = lite_client.app.state.service  # type: ignore[attr-defined]
    with lite_client.websocket_connect(f"/ws/tables/{tid}") as ws:  # the timer plays the human's seat
        ws.send_json({"v": 1, "type": "hello", "token": tokens(created)[0], "name": "A", "last_seq": None})
        service.get(tid).timer = None  # type: ignore[union-attr]
        lite_client.portal.call(_finish_by_timer, service, tid)  # type: ignore[union-attr]
    deadline = time.monotonic() + 5
    while tid in service.tables and time.monotonic() < deadline:
        time.sleep(0.02)
    assert tid not in service.tables
    with lite_client.websocket_connect(f"/ws/tables/{tid}"):
        pass  # revived for this socket, which closes without hello
    deadline = time.monotonic() + 5
    while tid in service.tables and time.monotonic() < deadline:
        time.sleep(0.02)
    assert tid not in service.tables


async def _finish_by_timer(service: Any, tid: str) -> None:
    table = service.get(tid)
    while table.status != "finished":
        for seat in table.game.pending_seats:
            if seat == 0:
                await service._timer_decides(table, 0, table.opened[0])
        await asyncio.sleep(0.01)
    await service.writer.barrier()


def test_a_seeded_table_says_so(lite_client: TestClient) -> None:
    seeded = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=5)
    dealt = create(lite_client, players=2, seats=["human", "bot:greedy"])
    assert seeded["table"]["seeded"] is True and dealt["table"]["seeded"] is False
    listed = {t["id"]: t for t in lite_client.get("/api/tables").json()["tables"]}
    assert listed[seeded["id"]]["seeded"] is True
    assert json.loads(lite_client.get(f"/api/tables/{dealt['id']}").text)["seeded"] is False


def test_party_tables_stored_before_the_wasabi_colour_option_keep_their_reading() -> None:
    """A Party table row written by sushigo 0.4 has no ``wasabi_colour``: it was played with
    wasabi a colour of its own, and the migration (0002) names it so that a restart goes on
    with that reading (new rows store it)."""
    from sushigo.engine.rules import Rules
    from sushigo.server.migrations.versions.v0002_party_wasabi_colour import rules_with_colour
    from sushigo.server.store import TableRow
    from sushigo.server.tables import _rules_of

    old = dict(Rules.party(3, "My First Meal").options())
    del old["wasabi_colour"]
    migrated = rules_with_colour(json.dumps({"options": old, "menu": list(Rules.party(3, "My First Meal").menu)}))
    assert migrated is not None
    row = TableRow(id="t", created=0.0, edition="party", players=3, seed=1, timer=None, status="playing",
                   rules=json.loads(migrated))
    assert _rules_of(row).wasabi_colour == "own"
    new = TableRow(id="t", created=0.0, edition="party", players=3, seed=1, timer=None, status="playing",
                   rules={"options": Rules.party(3, "My First Meal").options(),
                          "menu": list(Rules.party(3, "My First Meal").menu)})
    assert _rules_of(new).wasabi_colour == "nigiri"
    base = TableRow(id="t", created=0.0, edition="base", players=3, seed=1, timer=None, status="playing",
                    rules={"options": {"pass_both_ways": True}})
    assert _rules_of(base) == Rules(3, pass_both_ways=True)


def test_records_of_old_party_tables_name_the_wasabi_colour_they_were_played_with() -> None:
    """A finished Party table of sushigo 0.4 stored its record without ``wasabi_colour``;
    the migration (0002) names "own" in it, so ``sushigo replay`` accepts the record the server hands out."""
    import random

    from sushigo.engine.editions import replay, to_record
    from sushigo.engine.party.game import PartyGame
    from sushigo.engine.records import dumps
    from sushigo.engine.rules import Rules
    from sushigo.server.migrations.versions.v0002_party_wasabi_colour import record_with_colour

    for seed in range(100):  # a game where the reading changes the result: its old record fails
        game = PartyGame(Rules.party(4, "My First Meal", wasabi_colour="own"), seed=seed)
        game.random_playout(random.Random(seed))
        old = to_record(game)
        del old["options"]["wasabi_colour"]
        try:
            replay(old)
        except ValueError:
            break
    else:
        pytest.fail("no game of 100 where the wasabi colour changes the result")
    migrated = record_with_colour(dumps(old))
    assert migrated is not None
    served = json.loads(migrated)
    assert served["options"]["wasabi_colour"] == "own"
    assert replay(served).result() == game.result()
    assert record_with_colour(dumps(to_record(PartyGame(Rules.party(3, "My First Meal"), seed=1)))) is None
    assert record_with_colour(dumps(to_record(played_base_game()))) is None


def played_base_game() -> Any:
    import random

    from sushigo import Game

    game = Game(2, seed=4)
    game.random_playout(random.Random(4))
    return game
