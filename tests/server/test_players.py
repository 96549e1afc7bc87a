"""A player's profile, history and export (``/api/players/{name}``; docs/server.md,
"Accounts"): finished games only, newest first, filtered, each with its place
(checked against the engine's own result of the replayed record); a private
table's game only for the player themself; every exported line a record the
engine replays, and ``sushigo replay`` reads."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sushigo.engine.editions import edition_for, replay

from .conftest import ROOT, create, tokens
from .test_account_seats import socket
from .test_accounts import make, other, sign_up
from .test_protocol import hello, pick, recv


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def play(web: TestClient, created: dict[str, Any], *, to_end: bool = True) -> None:
    """Play the table's one human seat, signed in as ``web``'s account (its first legal action each
    time), to the end, or just its first pick."""
    with socket(web, created["id"]) as ws:
        hello(ws, tokens(created)[0], name=None)
        while True:
            m = recv(ws)
            if m["type"] != "state":
                continue
            if m["status"] == "finished":
                return
            if m["view"] and m["view"]["legal_actions"] and m["view"]["committed"] is None:
                pick(ws, m["seq"], m["view"]["legal_actions"][0])
                if not to_end:
                    return


def place(record: dict[str, Any], seat: int) -> float:
    """The seat's place from the engine's result of the replayed record: 1 + the seats
    ahead (more points, or as many and more of the tie-break), ties sharing."""
    game = replay(record)
    result = game.result()
    key = list(zip(result.totals, edition_for(game).tiebreak(result)))
    ahead = sum(1 for k in key if k > key[seat])
    tied = sum(1 for k in key if k == key[seat])
    return ahead + (tied + 1) / 2


@pytest.fixture
def alice(web: TestClient) -> dict[str, Any]:
    """Alice's games: two base games and a Party game finished, one private game finished,
    one game in progress; and a guest's game she has no part in."""
    sign_up(web, "Alice", "alice password")
    games: dict[str, Any] = {}
    games["base1"] = create(web, players=2, seats=["human", "bot:random"], seed=1)
    games["base2"] = create(web, players=3, seats=["human", "bot:random", "bot:greedy"], seed=2)
    games["party"] = create(web, edition="party", players=3, seats=["human", "bot:random", "bot:random"], seed=3)
    games["private"] = create(web, players=2, seats=["human", "bot:random"], seed=4, private=True)
    for key in ("base1", "base2", "party", "private"):
        play(web, games[key])
    games["playing"] = create(web, players=2, seats=["human", "bot:random"], seed=5)
    play(web, games["playing"], to_end=False)
    return games


def test_a_profile_lists_finished_games_only_newest_first(web: TestClient, alice: dict[str, Any]) -> None:
    stranger = other(web)
    assert stranger.get("/api/players/alice").json()["name"] == "Alice"
    listed = stranger.get("/api/players/ALICE/games").json()
    ids = [g["table"] for g in listed["games"]]
    assert ids == [alice[k]["id"] for k in ("party", "base2", "base1")]  # no game in progress, no private one
    assert listed["more"] is False
    mine = web.get("/api/players/Alice/games").json()
    assert [g["table"] for g in mine["games"]] == [alice[k]["id"] for k in ("private", "party", "base2", "base1")]
    for g in mine["games"]:
        record = json.loads(web.get(g["record"]).text)
        assert g["seat"] == 0 and g["names"][0] == "Alice"
        assert g["place"] == place(record, 0)
        assert g["totals"] == list(replay(record).result().totals)
        assert g["replay"] == f"/t/{g['table']}/replay#pov=0"


def test_the_history_filters_by_edition_and_table_size(web: TestClient, alice: dict[str, Any]) -> None:
    party = web.get("/api/players/alice/games?edition=party").json()["games"]
    assert [g["table"] for g in party] == [alice["party"]["id"]] and party[0]["edition"] == "party"
    three = web.get("/api/players/alice/games?players=3").json()["games"]
    assert {g["table"] for g in three} == {alice["party"]["id"], alice["base2"]["id"]}
    older = web.get(f"/api/players/alice/games?before={three[0]['created']}").json()["games"]
    assert alice["party"]["id"] not in {g["table"] for g in older}
    for bad, says in (("edition=chess", "edition"), ("players=9", "players"), ("players=x", "")):
        r = web.get(f"/api/players/alice/games?{bad}")
        assert r.status_code == 400 and says in r.json()["error"]
    assert web.get("/api/players/nobody_here").status_code == 404
    assert web.get("/api/players/nobody_here/games").status_code == 404


def test_every_exported_record_replays(web: TestClient, alice: dict[str, Any], tmp_path: Path) -> None:
    r = other(web).get("/api/players/alice/records")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    assert 'filename="sushigo-Alice.jsonl"' in r.headers["content-disposition"]
    lines = r.text.splitlines()
    assert len(lines) == 3  # the private game is the player's own
    assert len(web.get("/api/players/alice/records").text.splitlines()) == 4
    served = {g["table"]: json.loads(web.get(g["record"]).text)
              for g in web.get("/api/players/alice/games").json()["games"]}
    for line in lines:
        record = json.loads(line)
        assert record == served[record["meta"]["table"]]  # the stored record, on one line
        assert replay(record).is_over
    one = tmp_path / "one.json"
    one.write_text(lines[0] + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "sushigo", "replay", str(one)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr


def test_a_deleted_account_has_no_page_and_its_games_stay_anonymous(web: TestClient, alice: dict[str, Any]) -> None:
    web.post("/api/account/delete", json={"password": "alice password"})
    assert web.get("/api/players/alice").status_code == 404
    assert web.get("/api/players/alice/records").status_code == 404
    record = json.loads(web.get(f"/api/tables/{alice['base1']['id']}/record").text)
    assert record["meta"]["names"][0] == "deleted player"
    sign_up(other(web), "alice", "a new alice")  # the name is free: its page starts empty
    assert web.get("/api/players/alice/games").json()["games"] == []


def test_a_tie_on_points_is_broken_as_the_edition_breaks_it(db_url: str) -> None:
    """A Party game tied on points: its places come from the dessert cards (the stored
    result's ``desserts`` are dessert points, which break nothing)."""
    import random as rnd
    import time as clock

    from sqlalchemy import select as sql_select

    from sushigo.engine.editions import PARTY
    from sushigo.engine.rules import Rules
    from sushigo.server.schema import accounts_t
    from sushigo.server.store import CreateTable, SeatRow, SetStatus, Store, TableRow

    with make(db_url) as web:
        sign_up(web, "Alice", "alice password")
        rules = Rules.party(2, "My First Meal")
        game = PARTY.new_game(rules, seed=1)
        game.random_playout(rnd.Random(1))
        result = game.result().to_json()
        result["totals"] = [40, 40]
        result["dessert_cards"] = [1, 3]  # the other seat has more dessert cards: it is ahead
        result["winners"] = [1]
        store = Store(db_url)
        try:
            with store.engine.connect() as conn:
                alice = conn.execute(sql_select(accounts_t.c.id)).scalar_one()
            row = TableRow("tied", clock.time(), "party", 2, {"options": rules.options(), "menu": list(rules.menu)},
                           1, None, "waiting")
            store.write([CreateTable(row, [SeatRow(0, "human", None, "Alice", None, alice),
                                           SeatRow(1, "bot", "random", None, None)]),
                         SetStatus("tied", "finished", clock.time(), result, None)])
        finally:
            store.close()
        (listed,) = web.get("/api/players/alice/games").json()["games"]
        assert listed["table"] == "tied" and listed["place"] == 2.0
