"""Nothing lost: SIGKILL a real server mid-game, start it again, every game goes on.

A real ``sushigo serve`` process, real WebSocket clients.  Before the kill each
table is in the middle of a turn with one pick stored and acknowledged and one
not yet made; after the restart every seat sees exactly the same view (same
hands, same committed pick, same scores, same ``seq``) and the games finish,
with records that replay.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from sushigo.engine.editions import replay
from sushigo.server.protocol import VERSION

from .conftest import Seat, ServerProcess, _reset, catch_up, decide_or_wait


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)])
def database(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    url: str = request.getfixturevalue("pg_database")
    _reset(url)
    yield url


TABLES = [
    {"edition": "base", "players": 3, "pass_both_ways": True, "seats": ["human", "bot:greedy", "human"]},
    {"edition": "party", "players": 4, "seats": ["human", "bot:greedy", "human", "bot:random"],
     "menu": ["nigiri", "temaki", "tempura", "eel", "onigiri", "chopsticks", "menu", "fruit"]},
]


def _play_until_middle(seats: list[Seat], rng: random.Random, decisions: int) -> None:
    """Make ``decisions`` decisions or more, then stop in the pick phase of a
    turn with the first seat's pick stored and the second's not made."""
    first, second = seats
    made = 0
    while True:
        catch_up(seats)
        picking = all(s.can_pick() and s.state["view"].get("decision") is None for s in seats)
        if made >= decisions and picking:
            break
        made += decide_or_wait(seats, rng)
    first.pick(rng)
    second.until(lambda m: m["type"] == "progress" or m["type"] == "state")


@pytest.mark.slow
def test_sigkill_mid_game_loses_nothing(database: str) -> None:
    server = ServerProcess(database)
    rng = random.Random(3)
    try:
        tables = []
        for body in TABLES:
            created = httpx.post(server.url + "/api/tables", json=body, timeout=10).json()
            toks = [s["invite"].split("#seat=")[1] for s in created["seats"] if s["kind"] == "human"]
            tables.append((created["id"], toks))
        before: dict[tuple[str, int], dict[str, Any]] = {}
        for tid, toks in tables:
            seats = [Seat(server.ws_url, tid, t, f"P{i}") for i, t in enumerate(toks)]
            for s in seats:
                s.wait_turn()
            _play_until_middle(seats, rng, decisions=9)
            for i, t in enumerate(toks):
                probe = Seat(server.ws_url, tid, t, f"P{i}")  # a fresh socket: the complete current state
                before[(tid, i)] = probe.state
                probe.close()
            assert before[(tid, 0)]["view"]["committed"] is not None
            assert before[(tid, 1)]["view"]["committed"] is None
            for s in seats:
                s.close()
        server.kill()

        server = ServerProcess(database)
        for tid, toks in tables:
            seats = [Seat(server.ws_url, tid, t, f"P{i}") for i, t in enumerate(toks)]
            for i, s in enumerate(seats):
                old, new = before[(tid, i)], s.state
                assert new["seq"] == old["seq"]
                assert new["view"] == old["view"]  # same hands, same committed pick, same scores
                assert new["status"] == "playing"
            # finish the game
            while not all(s.finished for s in seats):
                decide_or_wait(seats, rng)
            record = httpx.get(f"{server.url}/api/tables/{tid}/record", timeout=10).json()
            game = replay(record)
            assert list(game.result().totals) == seats[0].state["table"]["totals"]
            for s in seats:
                s.close()
    finally:
        server.stop()


@pytest.mark.slow
def test_two_processes_share_one_database_by_shard(database: str) -> None:
    """Two server processes on one database, each with its own shard: each
    creates and runs its own tables, both list every table and serve every
    finished record, and a socket for the other shard's table is refused."""
    one = ServerProcess(database, "--shard", "a")
    two = ServerProcess(database, "--shard", "b")
    try:
        body = {"edition": "base", "players": 2, "seats": ["human", "bot:greedy"], "seed": 4}
        ids = {}
        for server in (one, two):
            created = httpx.post(server.url + "/api/tables", json=body, timeout=10).json()
            ids[server.url] = (created["id"], created["seats"][0]["invite"].split("#seat=")[1])
        assert ids[one.url][0].startswith("a") and ids[two.url][0].startswith("b")
        for server in (one, two):
            listed = {t["id"] for t in httpx.get(server.url + "/api/tables", timeout=10).json()["tables"]}
            assert {ids[one.url][0], ids[two.url][0]} <= listed
        rng = random.Random(1)
        for server in (one, two):
            tid, token = ids[server.url]
            seat = Seat(server.ws_url, tid, token, "Solo")
            while seat.state["status"] != "finished":
                seat.wait_turn()
                if seat.can_pick():
                    seat.pick(rng)
            seat.close()
        # the other process serves the record from the database
        for server, other in ((one, two), (two, one)):
            tid, _ = ids[server.url]
            r = httpx.get(f"{other.url}/api/tables/{tid}/record", timeout=10)
            assert r.status_code == 200 and replay(r.json()).is_over
        # a live table's socket must be opened on its own process
        created = httpx.post(one.url + "/api/tables", json=body, timeout=10).json()
        with connect(f"{two.ws_url}/ws/tables/{created['id']}", open_timeout=10) as ws:
            msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "error" and msg["code"] == "wrong_process"
    finally:
        one.stop()
        two.stop()


@pytest.mark.slow
def test_sigkill_keeps_changed_picks_chat_mutes_hand_overs_and_the_timer(database: str) -> None:
    """Each new kind of event is acknowledged, then the server is killed: after
    the restart Ana's changed pick, her chat line, Bo's mute, Cy's hand-over to
    the bot and the move timer's deadline are all as they were."""
    server = ServerProcess(database, "--away-after", "0")
    try:
        body = {"players": 3, "seats": ["human", "human", "human"], "timer": 600, "seed": 6}
        created = httpx.post(server.url + "/api/tables", json=body, timeout=10).json()
        tid = created["id"]
        ta, tb, tc = [s["invite"].split("#seat=")[1] for s in created["seats"]]
        ana, bo, cy = (Seat(server.ws_url, tid, t, n) for t, n in ((ta, "Ana"), (tb, "Bo"), (tc, "Cy")))
        ana.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        deadline = ana.state["deadline"]
        assert deadline is not None
        legal = ana.state["view"]["legal_actions"]
        ana.send({"type": "pick", "seq": ana.state["seq"], "action": legal[0]})
        ana.until(lambda m: m["type"] == "ack")
        ana.send({"type": "pick", "seq": ana.state["seq"], "action": legal[-1]})
        ana.until(lambda m: m["type"] == "ack" and m["action"] == legal[-1])
        ana.send({"type": "chat", "text": "back in a minute"})
        ana.until(lambda m: m["type"] == "chat")  # stored: the sender reads it back
        bo.send({"type": "mute", "seat": 0, "muted": True})
        bo.until(lambda m: m["type"] == "muted")
        cy.close()
        ana.until(lambda m: m["type"] == "seats" and not m["seats"][2]["connected"])
        ana.send({"type": "hand_over", "seat": 2})
        ana.until(lambda m: m["type"] == "progress" and m["picked"] == [True, False, True])  # the bot picked for Cy
        for s in (ana, bo):
            s.close()
        server.kill()

        server = ServerProcess(database, "--away-after", "0")
        ana = Seat(server.ws_url, tid, ta, "Ana")
        assert ana.state["view"]["committed"] == legal[-1]
        assert ana.state["deadline"] is None  # she has picked: no clock runs for her
        assert [s["stand_in"] for s in ana.state["table"]["seats"]] == [None, None, "greedy"]
        assert ana.state["view"]["picked"] == [True, False, True]
        talk = ana.until(lambda m: m["type"] == "chat")
        assert [m["text"] for m in talk["messages"]] == ["back in a minute"]
        bo = Seat(server.ws_url, tid, tb, "Bo")
        muted = bo.until(lambda m: m["type"] in ("muted", "chat"))
        assert muted == {"v": VERSION, "type": "muted", "seats": [0]}  # and no chat of Ana's before it
        assert abs(bo.state["deadline"] - deadline) < 0.01  # the timer did not start afresh
        # Ana takes her pick back: her clock runs again, from when the decision opened
        ana.send({"type": "withdraw", "seq": ana.state["seq"]})
        again = ana.until(lambda m: m["type"] == "state" and m["view"]["committed"] is None)
        assert abs(again["deadline"] - deadline) < 0.01
        # Cy comes back: the seat is hers again, with the bot's hidden pick she may change
        cy = Seat(server.ws_url, tid, tc, "Cy")
        assert cy.state["view"]["committed"] in cy.state["view"]["change_to"]
        back = ana.until(lambda m: m["type"] == "seats" and m["seats"][2]["stand_in"] is None)
        assert back["seats"][2]["connected"]
        for s in (ana, bo, cy):
            s.close()
    finally:
        server.stop()


@pytest.mark.slow
def test_sigkill_after_play_again_keeps_the_new_table_and_its_seat(database: str) -> None:
    """"Play again" is acknowledged (the seat's token arrives), then the server is
    killed: after the restart the new table, its link to the old one, the seat's
    token and name are all there, and the new game goes on."""
    server = ServerProcess(database)
    rng = random.Random(8)
    try:
        body = {"players": 2, "seats": ["human", "bot:greedy"], "seed": 12}
        created = httpx.post(server.url + "/api/tables", json=body, timeout=10).json()
        token = created["seats"][0]["invite"].split("#seat=")[1]
        ana = Seat(server.ws_url, created["id"], token, "Ana")
        while ana.state["status"] != "finished":
            ana.wait_turn()
            if ana.can_pick():
                ana.pick(rng)
        ana.send({"type": "rematch"})
        claim = ana.until(lambda m: m["type"] == "rematch")
        ana.close()
        server.kill()

        server = ServerProcess(database)
        new = httpx.get(f"{server.url}/api/tables/{claim['table']}", timeout=10).json()
        old = httpx.get(f"{server.url}/api/tables/{created['id']}", timeout=10).json()
        assert new["rematch_of"] == created["id"] and old["rematch"] == claim["table"]
        assert new["status"] == "playing" and new["seats"][0]["name"] == "Ana"
        again = Seat(server.ws_url, claim["table"], claim["token"], "Ana")
        assert again.state["seat"] == 0 and again.state["status"] == "playing"
        again.wait_turn()
        again.pick(rng)  # the new game goes on
        again.close()
    finally:
        server.stop()
