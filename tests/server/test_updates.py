"""Protocol version 3: one ``update`` frame per socket and event (``docs/server.md``, "Server to client").

Three seats and two spectators on one table, all but one spectator speaking
version 3: a pick tells its seat its state and the ack in one frame and every
other socket only who has picked; the reveal tells everyone the turn's log and
the new state in one frame, the last picker its ack with them; a pick taken
back likewise.  The spectator of version 1 gets the same parts as frames of
their own.  Each frame read is the next one sent, so a frame too many fails
the step after it.
"""

from __future__ import annotations

import json
from typing import Any

from .conftest import create, tokens
from .test_protocol import recv, until, ws_path

Msg = dict[str, Any]


def _hello(ws: Any, version: int, token: str | None = None, name: str | None = None) -> None:
    ws.send_json({"v": version, "type": "hello", "token": token, "name": name, "last_seq": None})
    assert recv(ws)["type"] == "welcome"


def _next_update(ws: Any) -> Msg:
    """The next ``update`` (the ``seats`` frames of people joining skipped)."""
    while True:
        msg = recv(ws)
        if msg["type"] != "seats":
            assert msg["type"] == "update", msg
            assert set(msg) <= {"v", "type", "log", "state", "progress", "ack"}, msg
            return msg


def _playing(ws: Any) -> Msg:
    """The state of the started game (the updates before it skipped)."""
    while True:
        msg = _next_update(ws)
        if "state" in msg and msg["state"]["status"] == "playing":
            return msg["state"]


def test_one_update_per_socket_and_event(client: Any) -> None:
    created = create(client, edition="base", players=3, seats=["human"] * 3, seed=4)
    tid = created["id"]
    with client.websocket_connect(ws_path(tid)) as a, client.websocket_connect(ws_path(tid)) as b, \
            client.websocket_connect(ws_path(tid)) as c, client.websocket_connect(ws_path(tid)) as watcher, \
            client.websocket_connect(ws_path(tid)) as old:
        _hello(watcher, 3)
        joined = _next_update(watcher)  # a socket that joins: its state (and the log) in one update
        assert set(joined) == {"v", "type", "state"} and joined["state"]["status"] == "waiting"
        _hello(old, 1)
        assert recv(old)["type"] == "state"  # version 1: the state as a frame of its own
        seats = [a, b, c]
        for k, (ws, token) in enumerate(zip(seats, tokens(created))):
            _hello(ws, 3, token, f"P{k}")
        states = [_playing(ws) for ws in seats]
        _playing(watcher)
        until(old, "state", lambda m: m["status"] == "playing")
        seq = states[0]["seq"]

        # seat 0 picks: its state and ack in one update; the others learn only who has picked
        action = states[0]["view"]["legal_actions"][0]
        a.send_json({"v": 3, "type": "pick", "seq": seq, "action": action})
        mine = _next_update(a)
        assert set(mine) == {"v", "type", "state", "ack"}
        assert mine["ack"] == {"seq": mine["state"]["seq"], "action": action}
        assert mine["state"]["view"]["committed"] == action
        for ws in (b, c, watcher):
            told = _next_update(ws)
            assert set(told) == {"v", "type", "progress"}, told
            assert told["progress"]["picked"] == [True, False, False]
            assert str(action) not in json.dumps(told["progress"])  # who, never what
        progress = recv(old)
        assert progress["type"] == "progress" and progress["picked"] == [True, False, False]

        # seat 1 picks, then takes it back: the ack says null, the others see it undone
        action = states[1]["view"]["legal_actions"][0]
        b.send_json({"v": 3, "type": "pick", "seq": seq, "action": action})
        assert set(_next_update(b)) == {"v", "type", "state", "ack"}
        for ws in (a, c, watcher):
            assert _next_update(ws)["progress"]["picked"] == [True, True, False]
        b.send_json({"v": 3, "type": "withdraw", "seq": seq})
        back = _next_update(b)
        assert back["ack"]["action"] is None and back["state"]["view"]["committed"] is None
        for ws in (a, c, watcher):
            assert _next_update(ws)["progress"]["picked"] == [True, False, False]
        assert until(old, "progress", lambda m: m["picked"] == [True, False, False])

        # the last two picks: the second reveals the turn, to everyone in one update
        b.send_json({"v": 3, "type": "pick", "seq": back["state"]["seq"], "action": action})
        assert "ack" in _next_update(b)
        for ws in (a, c, watcher):
            _next_update(ws)
        last = states[2]["view"]["legal_actions"][-1]
        c.send_json({"v": 3, "type": "pick", "seq": back["state"]["seq"] + 1, "action": last})
        for ws in (a, b, c, watcher):
            reveal = _next_update(ws)
            expected = {"v", "type", "log", "state"} | ({"ack"} if ws is c else set())
            assert set(reveal) == expected, reveal
            assert reveal["state"]["view"]["turn"] == 2
            assert [line["kind"] for line in reveal["log"]["lines"]] == ["pick"] * 3
            if ws is c:
                assert reveal["ack"] == {"seq": reveal["state"]["seq"], "action": last}
        # version 1 gets the same parts as frames of their own: the log, then the state
        log = until(old, "log")
        assert [line["kind"] for line in log["lines"]] == ["pick"] * 3
        assert recv(old)["type"] == "state"
