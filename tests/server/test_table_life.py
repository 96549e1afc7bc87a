"""Tables people come back to: changed picks, cancel, abandon, private tables,
chat, absent players handed to a bot, rematch (``docs/server.md``).

Every test drives the real app over its WebSocket and HTTP routes, on SQLite
(the storage tests of ``test_protocol`` and ``test_restart`` also run these
paths on PostgreSQL).  What another seat or a spectator receives is checked
frame by frame: a withdrawn pick, a rematch token or a muted seat's chat never
reaches them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sushigo.engine.editions import replay
from sushigo.server.app import Limits
from sushigo.server.protocol import MAX_CHAT, REACTIONS, VERSION

from .conftest import create, kept, make_client, tokens
from .test_protocol import (
    Msg,
    check_state,
    collect,
    error_code,
    hello,
    latest,
    next_decision,
    pick,
    recv,
    send,
    still_alive,
    until,
    ws_path,
)


class Frames:
    """Every frame one socket received, for checks of what it was (not) told."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[Msg] = []

    def recv(self) -> Msg:
        m = recv(self.ws)
        self.seen.append(m)
        return m

    def until(self, kind: str, pred: Any = None) -> Msg:
        for _ in range(400):
            m = self.recv()
            assert m["type"] != "error", m
            if m["type"] == kind and (pred is None or pred(m)):
                return m
        raise AssertionError(f"no {kind} frame")

    def text(self) -> str:
        return json.dumps(self.seen)


@pytest.fixture
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    """An app whose away players may be handed to a bot at once."""
    with make_client(sqlite_url, away_after=0.0) as c:
        yield c


@pytest.fixture
def fast_client(sqlite_url: str) -> Iterator[TestClient]:
    """An app that lets a test client send as fast as it can."""
    with make_client(sqlite_url, limits=Limits(rate=10000, burst=10000)) as c:
        yield c


def start_two(client: TestClient, **body: Any) -> tuple[dict[str, Any], list[str]]:
    body = {"players": 2, "seats": ["human", "human"], "seed": 21, **body}
    created = create(client, **body)
    return created, tokens(created)


def committed(ws: Any) -> Any:
    return latest(ws)["view"]["committed"]


# --------------------------------------------------------------------------- changing a pick


def test_a_pick_can_be_withdrawn_and_changed_until_the_reveal(lite_client: TestClient) -> None:
    created, (ta, tb) = start_two(lite_client)
    tid = created["id"]
    with lite_client.websocket_connect(ws_path(tid)) as a, lite_client.websocket_connect(ws_path(tid)) as b, \
            lite_client.websocket_connect(ws_path(tid)) as spec:
        hello(a, ta, "Ana")
        hello(b, tb, "Bo")
        hello(spec)
        sa = until(a, "state", lambda m: m["status"] == "playing")
        until(b, "state", lambda m: m["status"] == "playing")
        fb, fs = Frames(b), Frames(spec)
        legal = sa["view"]["legal_actions"]
        first, second = legal[0], legal[-1]
        assert first != second
        # pick, take back, pick again: the others only ever learn "picked" or not
        pick(a, sa["seq"], first)
        assert until(a, "ack")["action"] == first
        send(a, type="withdraw", seq=latest(a)["seq"])
        got = collect(a, {"ack": None, "state": lambda m: m["seq"] == 2})  # the state comes first
        assert got["ack"] == {"v": VERSION, "type": "ack", "seq": 2, "action": None}
        mine = got["state"]
        check_state(mine, 0)
        assert mine["view"]["committed"] is None and mine["view"]["legal_actions"] == legal
        assert fb.until("progress", lambda m: m["seq"] == 2)["picked"] == [False, False]
        assert fs.until("progress", lambda m: m["seq"] == 2)["picked"] == [False, False]
        send(a, type="withdraw", seq=latest(a)["seq"])
        assert error_code(a) == "nothing_to_withdraw"
        pick(a, 2, first)
        assert until(a, "ack")["seq"] == 3
        assert fb.until("progress", lambda m: m["seq"] == 3)["picked"] == [True, False]
        pick(a, 3, second)  # a change: withdraw and pick in one, counted in no seq (nobody else may learn of it)
        got = collect(a, {"ack": None, "state": lambda m: m["view"]["committed"] == second})
        assert got["ack"] == {"v": VERSION, "type": "ack", "seq": 3, "action": second}
        assert got["state"]["seq"] == 3
        # Bo commits: the reveal shows Ana's last pick
        sb = latest(b)
        pick(b, sb["seq"], sb["view"]["legal_actions"][0])
        reveal = until(a, "state", lambda m: m["view"]["turn"] == 2)
        assert reveal["view"]["committed"] is None
        fb.until("state", lambda m: m["view"]["turn"] == 2)
        fs.until("state", lambda m: m["view"]["turn"] == 2)
        for frames in (fb, fs):  # the change of mind told them nothing: no frame between the pick and the reveal
            assert [m["seq"] for m in frames.seen if m["type"] == "progress"] == [1, 2, 3]
        # after the reveal nothing can be taken back
        send(a, type="withdraw", seq=latest(a)["seq"])
        assert error_code(a) == "nothing_to_withdraw"
        send(spec, type="withdraw", seq=0)
        assert error_code(spec) == "not_your_turn"
        still_alive(spec)
        # the others were never told Ana's hidden picks
        for frames in (fb, fs):
            for m in frames.seen:
                if m["type"] == "state":  # Bo's own pick at most, and no choices of Ana's
                    assert m["view"]["committed"] in (None, sb["view"]["legal_actions"][0])
                    assert m["seat"] == 1 or "change_to" not in m["view"]
        text = fb.text() + fs.text()
        assert '"withdraw"' not in text
        for frames in (fb, fs):  # no frame names Ana's first pick (but as one of Bo's own choices)
            for m in frames.seen:
                view = m.get("view") or {}
                told = {**m, "view": {k: v for k, v in view.items() if k != "choices"}} if view else m
                assert f'"action":{first}' not in json.dumps(told).replace(" ", ""), m
    # the record keeps only the revealed picks, and replays
    record_after_game = lite_client.get(f"/api/tables/{tid}").json()
    assert record_after_game["seq"] >= 4  # three picks and a take-back, then Bo's pick: the change not counted


def test_a_whole_game_of_changed_picks_records_only_the_revealed_ones(fast_client: TestClient) -> None:
    """Ana picks, then changes her mind, every turn; Bo picks last.  The record
    (which replays) has exactly the picks revealed, and Bo never hears of the others."""
    created, (ta, tb) = start_two(fast_client, seed=9)
    tid = created["id"]
    rng = random.Random(4)
    revealed: list[str] = []
    told: list[int] = []
    with fast_client.websocket_connect(ws_path(tid)) as a, fast_client.websocket_connect(ws_path(tid)) as b:
        hello(a, ta, "Ana")
        hello(b, tb, "Bo")
        sa = until(a, "state", lambda m: m["status"] == "playing")
        fb = Frames(b)
        while sa["status"] != "finished":
            view = sa["view"]
            first, second = rng.choice(view["legal_actions"]), rng.choice(view["legal_actions"])
            pick(a, sa["seq"], first)
            stored = until(a, "ack")["seq"]
            told.append(stored)  # Bo is told that Ana picked, then nothing of her change
            pick(a, sa["seq"], second)
            if second != first:  # a change: Ana's tabs get a state with it
                got = collect(a, {"ack": None, "state": lambda m, x=second: m["view"]["committed"] == x})
                stored = got["ack"]["seq"]
            else:
                assert until(a, "ack")["seq"] == stored  # the same pick again: nothing new stored
            revealed.append(view["legal"][view["legal_actions"].index(second)])
            assert fb.until("progress", lambda m, q=told[-1]: m["seq"] == q)["picked"] == [True, False]
            sb = latest(b)
            pick(b, sb["seq"], sb["view"]["legal_actions"][0])
            sa = until(a, "state", lambda m, q=sa["view"]["turn"], r=sa["view"]["round"]:
                       m["status"] == "finished" or (m["view"]["round"], m["view"]["turn"]) > (r, q))
        for m in fb.seen:
            if m["type"] == "state":
                assert m["view"]["committed"] is None or m["seat"] == 1
        progress = [m for m in fb.seen if m["type"] == "progress"]
        assert [m["seq"] for m in progress] == told and all(m["picked"] == [True, False] for m in progress)
    record = json.loads(fast_client.get(f"/api/tables/{tid}/record").text)
    assert replay(record).is_over
    ana = ["+".join(turn[0]) for rnd in record["rounds"] for turn in rnd["turns"]]
    assert ana == revealed


# --------------------------------------------------------------------------- cancel, abandon, private


def test_the_creator_cancels_a_waiting_table(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "human"])
    tid, (ta, tb) = created["id"], tokens(created)
    assert len(created["creator"]) >= 32 and created["creator"] not in (ta, tb)
    with lite_client.websocket_connect(ws_path(tid)) as a:
        hello(a, ta, "Ana")
        for body, status in ((b"", 400), (b"[1]", 400), (json.dumps({"creator": ta}).encode(), 403),
                             (json.dumps({"creator": "x", "more": 1}).encode(), 400)):
            r = lite_client.post(f"/api/tables/{tid}/cancel", content=body)
            assert r.status_code == status, r.text
            assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]
        r = lite_client.post(f"/api/tables/{tid}/cancel", json={"creator": created["creator"]})
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
        s = until(a, "state", lambda m: m["status"] == "cancelled")
        check_state(s, 0)
        # a cancelled table takes no name, no pick
        pick(a, 0, 0)
        assert error_code(a) == "game_over"
    assert lite_client.post(f"/api/tables/{tid}/cancel", json={"creator": created["creator"]}).status_code == 409
    assert lite_client.post("/api/tables/nope/cancel", json={"creator": "x"}).status_code == 404
    assert lite_client.get(f"/api/tables/{tid}").json()["status"] == "cancelled"
    # it can still be opened (and says so)
    with lite_client.websocket_connect(ws_path(tid)) as again:
        _, s = hello(again, tb)
        assert s["status"] == "cancelled"


def test_a_started_table_cannot_be_cancelled(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    (token,) = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as a:
        hello(a, token, "Ana")
        until(a, "state", lambda m: m["status"] == "playing")
        r = lite_client.post(f"/api/tables/{created['id']}/cancel", json={"creator": created["creator"]})
        assert r.status_code == 409 and "started" in r.json()["error"]


def test_idle_tables_are_abandoned_not_resumed_and_keep_their_partial_record(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        created = create(client, players=2, seats=["human", "bot:greedy"], seed=8)
        waiting = create(client, players=2, seats=["human", "human"])
        (token,) = tokens(created)
        with client.websocket_connect(ws_path(created["id"])) as a:
            _, s = hello(a, token, "Ana")
            s = until(a, "state", lambda m: m["status"] == "playing")
            pick(a, s["seq"], s["view"]["legal_actions"][0])
            until(a, "ack")
    # a day later (as the server sees it): both are abandoned at start, none is resumed
    with make_client(sqlite_url, idle_limit=0.2) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        ended = client.portal.call(service.sweep, time.time() + 1.0)  # the janitor's next round, a second on
        assert set(ended) == {created["id"], waiting["id"]} or service.tables == {}
        assert client.get("/api/stats").json()["tables_in_memory"] == 0
        for tid in (created["id"], waiting["id"]):
            assert client.get(f"/api/tables/{tid}").json()["status"] == "abandoned"
        record = client.get(f"/api/tables/{created['id']}/record")
        assert record.status_code == 200, record.text
        moves = json.loads(record.text)
        assert "result" not in moves and len(moves["rounds"][0]["turns"]) == 1
        listing = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
        assert listing[created["id"]] == "abandoned"
    with make_client(sqlite_url) as client:
        assert client.get("/api/stats").json()["tables_in_memory"] == 0


def test_the_janitor_abandons_a_table_while_the_server_runs(sqlite_url: str) -> None:
    with make_client(sqlite_url, idle_limit=0.5, janitor_every=0.1) as client:
        created = create(client, players=2, seats=["human", "human"])
        (ta, _) = tokens(created)
        with client.websocket_connect(ws_path(created["id"])) as a:
            _, s = hello(a, ta, "Ana")
            if s["status"] != "abandoned":  # a slow machine: the janitor may end it before the hello
                s = until(a, "state", lambda m: m["status"] == "abandoned")
            check_state(s, 0)


def test_private_tables_are_not_listed_and_the_lobby_counts_watchers(lite_client: TestClient) -> None:
    public = create(lite_client, players=2, seats=["human", "bot:greedy"])
    secret = create(lite_client, players=2, seats=["human", "bot:greedy"], private=True)
    listed = [t["id"] for t in lite_client.get("/api/tables").json()["tables"]]
    assert public["id"] in listed and secret["id"] not in listed
    assert lite_client.get(f"/api/tables/{secret['id']}").json()["private"] is True
    with lite_client.websocket_connect(ws_path(public["id"])) as w1, \
            lite_client.websocket_connect(ws_path(public["id"])) as w2:
        hello(w1)
        hello(w2)
        assert until(w1, "seats", lambda m: m["watching"] == 2)
        counts = {t["id"]: t["watching"] for t in lite_client.get("/api/tables").json()["tables"]}
        assert counts[public["id"]] == 2
    assert lite_client.get(f"/api/tables/{public['id']}").json()["watching"] == 0
    # the links of a private table work
    with lite_client.websocket_connect(ws_path(secret["id"])) as a:
        _, s = hello(a, tokens(secret)[0], "Ana")
        assert s["table"]["private"] is True


# --------------------------------------------------------------------------- talk


def test_chat_reaches_seats_not_spectators_and_not_who_muted(lite_client: TestClient) -> None:
    created = create(lite_client, players=3, seats=["human", "human", "human"])
    tid, (ta, tb, tc) = created["id"], tokens(created)
    with lite_client.websocket_connect(ws_path(tid)) as a, lite_client.websocket_connect(ws_path(tid)) as b, \
            lite_client.websocket_connect(ws_path(tid)) as c, lite_client.websocket_connect(ws_path(tid)) as spec:
        hello(a, ta, "Ana")
        hello(b, tb, "Bo")
        hello(c, tc, "Cy")
        hello(spec)
        fs = Frames(spec)
        hostile = '<img src=x onerror="alert(1)"> & </script>'
        send(a, type="chat", text="  " + hostile + " ")
        got = until(b, "chat")
        assert got["messages"] == [{"n": got["messages"][0]["n"], "seat": 0, "kind": "text", "text": hostile,
                                    "at": got["messages"][0]["at"]}]
        assert until(a, "chat")["messages"][0]["text"] == hostile  # the sender reads it back once stored
        # Cy mutes Ana: her next message reaches Bo, not Cy
        send(c, type="mute", seat=0, muted=True)
        assert until(c, "muted") == {"v": VERSION, "type": "muted", "seats": [0]}
        fc = Frames(c)
        send(a, type="chat", text="second")
        assert until(b, "chat")["messages"][0]["text"] == "second"
        send(b, type="react", reaction="nice")
        got = fc.until("chat")
        assert got["messages"][0]["seat"] == 1 and got["messages"][0]["text"] == REACTIONS["nice"]
        assert got["messages"][0]["kind"] == "reaction"
        # what Cy read after muting: Bo's reaction, nothing of Ana's
        assert [m["seat"] for f in fc.seen if f["type"] == "chat" for m in f["messages"]] == [1]
        # refusals
        for message, code in (({"text": ""}, "bad_chat"), ({"text": "x" * (MAX_CHAT + 1)}, "bad_chat"),
                              ({"text": "line\nbreak"}, "bad_chat"), ({"text": "\u202egnp.exe"}, "bad_chat"),
                              ({"text": 5}, "bad_message"), ({"text": "x" * 1001}, "bad_message")):
            send(a, type="chat", **message)
            assert error_code(a) == code
        send(a, type="react", reaction="boo")
        assert error_code(a) == "bad_message"
        send(a, type="mute", seat=0, muted=True)
        assert error_code(a) == "bad_message"
        send(spec, type="chat", text="hi")
        assert error_code(spec) == "not_seated"
        still_alive(spec)
        assert "second" not in fs.text() and "onerror" not in fs.text()
    # Cy comes back: her mutes, and the history without any message of Ana's
    with lite_client.websocket_connect(ws_path(tid)) as c2:
        send(c2, type="hello", token=kept(tc), name=None, last_seq=None)
        frames = Frames(c2)
        muted = frames.until("muted")
        assert muted["seats"] == [0]
        talk = [m for f in frames.seen if f["type"] == "chat" for m in f["messages"]]
        assert [m["seat"] for m in talk] == [1]
    with lite_client.websocket_connect(ws_path(tid)) as b2:
        send(b2, type="hello", token=kept(tb), name=None, last_seq=None)
        history = Frames(b2).until("chat")
        assert [m["text"] for m in history["messages"]] == [hostile, "second", REACTIONS["nice"]]


def test_chat_is_rate_limited_and_refused_without_the_option(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    (token,) = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as a:
        hello(a, token, "Ana")
        for i in range(5):
            send(a, type="chat", text=f"m{i}")
            until(a, "chat")
        send(a, type="chat", text="one too many")
        assert error_code(a) == "chat_rate"
    quiet = create(lite_client, players=2, seats=["human", "bot:greedy"], chat=False)
    with lite_client.websocket_connect(ws_path(quiet["id"])) as a:
        hello(a, tokens(quiet)[0], "Ana")
        send(a, type="chat", text="hello?")
        assert error_code(a) == "no_chat"
        send(a, type="react", reaction="gg")
        assert error_code(a) == "no_chat"


def test_spectators_read_the_chat_when_the_table_lets_them(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], chat_spectators=True)
    with lite_client.websocket_connect(ws_path(created["id"])) as a, \
            lite_client.websocket_connect(ws_path(created["id"])) as spec:
        hello(a, tokens(created)[0], "Ana")
        hello(spec)
        send(a, type="chat", text="hello watchers")
        assert until(spec, "chat")["messages"][0]["text"] == "hello watchers"


# --------------------------------------------------------------------------- absent players


def test_an_away_player_is_handed_to_a_bot_and_gets_the_seat_back(app_client: TestClient) -> None:
    created, (ta, tb) = start_two(app_client)
    tid = created["id"]
    with app_client.websocket_connect(ws_path(tid)) as a:
        hello(a, ta, "Ana")
        with app_client.websocket_connect(ws_path(tid)) as b:
            hello(b, tb, "Bo")
            s = until(a, "state", lambda m: m["status"] == "playing")
            send(a, type="hand_over", seat=1)
            assert error_code(a) == "not_allowed"  # Bo is here
        until(a, "seats", lambda m: not m["seats"][1]["connected"])
        send(a, type="hand_over", seat=0)
        assert error_code(a) == "not_allowed"  # not your own seat
        send(a, type="hand_over", seat=1)
        seats = until(a, "seats", lambda m: m["seats"][1]["stand_in"] == "greedy")
        assert seats["seats"][1]["away_since"] is not None
        assert any("is away: greedy plays for them" in line["text"] for line in a.log)
        send(a, type="hand_over", seat=1)
        assert error_code(a) == "not_allowed"  # already
        # the bot plays Bo's turns: Ana picks twice, turns go on
        for turn in (1, 2):
            assert s["view"]["turn"] == turn and s["view"]["legal_actions"]
            pick(a, s["seq"], s["view"]["legal_actions"][0])
            s = until(a, "state", lambda m, t=turn: m["view"]["turn"] == t + 1)
        # Bo comes back: his seat again
        with app_client.websocket_connect(ws_path(tid)) as b:
            _, sb = hello(b, tb)
            back = until(a, "seats", lambda m: m["seats"][1]["stand_in"] is None and m["seats"][1]["connected"])
            assert back["seats"][1]["away_since"] is None
            assert any("is back and plays again" in line["text"] for line in a.log)
            # turn 3: his to decide, or already decided by the bot (a hidden pick he may change)
            assert sb["view"]["turn"] == 3
            assert sb["view"]["legal_actions"] or sb["view"]["committed"] in sb["view"]["change_to"]
    with app_client.websocket_connect(ws_path(tid)) as spec:
        hello(spec)
        send(spec, type="hand_over", seat=1)
        assert error_code(spec) == "not_seated"


def test_a_hand_over_waits_for_the_away_time(lite_client: TestClient) -> None:
    created, (ta, tb) = start_two(lite_client)  # away_after: 60 s
    tid = created["id"]
    with lite_client.websocket_connect(ws_path(tid)) as a:
        hello(a, ta, "Ana")
        with lite_client.websocket_connect(ws_path(tid)) as b:
            hello(b, tb, "Bo")
            until(a, "state", lambda m: m["status"] == "playing")
        until(a, "seats", lambda m: not m["seats"][1]["connected"])
        send(a, type="hand_over", seat=1)
        err = until(a, "error", allow_errors=True)
        assert err["code"] == "not_allowed" and "wait" in err["message"]


@pytest.mark.slow
def test_the_timer_hands_an_away_seat_to_the_bot(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        created, (ta, tb) = start_two(client, timer=5)
        tid = created["id"]
        with client.websocket_connect(ws_path(tid)) as a:
            hello(a, ta, "Ana")
            with client.websocket_connect(ws_path(tid)) as b:
                hello(b, tb, "Bo")
                s = until(a, "state", lambda m: m["status"] == "playing")
            pick(a, s["seq"], s["view"]["legal_actions"][0])
            until(a, "ack")
            seats = until(a, "seats", lambda m: m["seats"][1]["stand_in"] == "greedy")
            assert seats["seats"][1]["name"] == "Bo"
            until(a, "state", lambda m: m["view"]["turn"] == 2)


# --------------------------------------------------------------------------- rematch


def _play_out(a: Any, b: Any) -> None:
    """Seats 0 (``a``) and 1 (``b``) pick at random until the game is over."""
    rng = random.Random(1)
    after = {0: -1, 1: -1}
    finished: set[int] = set()
    while len(finished) < 2:
        for ws, seat in ((a, 0), (b, 1)):
            if seat in finished:
                continue
            s = next_decision(ws, seat, after[seat])
            if s["status"] == "finished":
                finished.add(seat)
                continue
            pick(ws, s["seq"], rng.choice(s["view"]["legal_actions"]))
            after[seat] = s["seq"]


def test_play_again_gives_each_player_their_seat_and_only_them_its_token(lite_client: TestClient) -> None:
    created = create(lite_client, players=3, seats=["human", "human", "bot:greedy"], timer=600,
                     pass_both_ways=True, chat=False)
    tid, (ta, tb) = created["id"], tokens(created)
    with lite_client.websocket_connect(ws_path(tid)) as a, lite_client.websocket_connect(ws_path(tid)) as b:
        hello(a, ta, "Ana")
        hello(b, tb, "Bo")
        until(a, "state", lambda m: m["status"] == "playing")
        until(b, "state", lambda m: m["status"] == "playing")
        send(a, type="rematch")
        assert error_code(a) == "not_over"
        _play_out(a, b)
        with lite_client.websocket_connect(ws_path(tid)) as spec:
            hello(spec)
            fs, fb = Frames(spec), Frames(b)
            send(spec, type="rematch")
            assert error_code(spec) == "not_seated"
            send(a, type="rematch")
            mine = until(a, "rematch")
            new_id, token_a = mine["table"], mine["token"]
            assert mine["url"] == f"/t/{new_id}#seat={token_a}" and mine["seat"] == 0
            linked = fb.until("state", lambda m: m["table"]["rematch"] == new_id)
            assert linked["table"]["rematch"] == new_id
            fs.until("state", lambda m: m["table"]["rematch"] == new_id)
            send(a, type="rematch")
            assert error_code(a) == "already_claimed"
            still_alive(spec)
            assert token_a not in fs.text() and token_a not in fb.text()
            send(b, type="rematch")
            token_b = until(b, "rematch")["token"]
            assert token_b != token_a and token_b not in fs.text()
    new = lite_client.get(f"/api/tables/{new_id}").json()
    old = lite_client.get(f"/api/tables/{tid}").json()
    assert new["rematch_of"] == tid and old["rematch"] == new_id
    assert (new["options"], new["timer"], new["chat"], new["players"]) == (old["options"], 600, False, 3)
    assert [s["kind"] for s in new["seats"]] == ["human", "human", "bot"] and new["seats"][2]["bot"] == "greedy"
    assert [s["name"] for s in new["seats"]][:2] == ["Ana", "Bo"]
    assert new["status"] == "playing"  # both claimed their seats: the game is on
    with lite_client.websocket_connect(ws_path(new_id)) as a2:
        welcome, s = hello(a2, token_a)
        assert welcome["seat"] == 0 and s["status"] == "playing"
        # the old token is not a seat of the new table
    with lite_client.websocket_connect(ws_path(new_id)) as stranger:
        send(stranger, type="hello", token=ta, name=None, last_seq=None)
        assert error_code(stranger) == "bad_token"
