"""The server probed as an attacker would (issue 37): odd digits and lone
surrogates, ended tables, a change of mind watched from another seat, and
bursts of concurrent requests against the per-address limits."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from sushigo import Game
from sushigo.engine.editions import to_record
from sushigo.server.app import create_app
from sushigo.server.routes.sheets import SHEETS_PER_HOUR
from sushigo.server.store import Store

from .conftest import ServerProcess, create, finish, make_client, play_out, tokens
from .test_protocol import hello, recv, send, until, ws_path

SURROGATE = b'"\\ud800"'
"""A lone surrogate as JSON writes it: valid JSON, but not Unicode text."""


@pytest.mark.parametrize("path", [
    "/api/tables/abc/replay?seat=%C2%B2",
    "/api/tables/abc/analysis?seat=%C2%B2",
    "/api/replays/0123456789abcdef0123?seat=%C2%B2",
    "/api/replays/0123456789abcdef0123/analysis?seat=%C2%B2",
    "/api/replays/0123456789abcdef0123?seat=%D9%A3",  # an Arabic-Indic 3
])
def test_a_digit_that_is_not_ascii_is_a_400(lite_client: TestClient, path: str) -> None:
    r = lite_client.get(path)
    assert r.status_code == 400, r.text
    assert "seat" in r.json()["error"]


def _one_line_400(r: httpx.Response, *needles: str) -> None:
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert "\n" not in message
    for needle in needles:
        assert needle in message, message


def test_lone_surrogates_are_refused_before_anything_is_stored(lite_client: TestClient) -> None:
    c = lite_client
    sheet = b'{"sheet": {"players": 2, "rounds": [], "meta": {"names": [' + SURROGATE + b', "Bo"]}}}'
    _one_line_400(c.post("/api/sheets", content=sheet), "sheet.meta.names[0]", "lone surrogate")
    record = json.dumps(to_record(_finished())).encode().replace(b'"seed"', SURROGATE, 1)
    _one_line_400(c.post("/api/replays", content=record), "lone surrogate")
    table = b'{"players": 2, "seats": ["human", ' + SURROGATE.replace(b'"\\', b'"bot:\\') + b"]}"
    _one_line_400(c.post("/api/tables", content=table), "lone surrogate")
    _one_line_400(c.post("/api/score", content=b'{"players": 2, "rounds": [[[' + SURROGATE + b"], []]]}"),
                  "lone surrogate")
    # and a good sheet is kept and read back, names and all
    made = c.post("/api/sheets", json={"sheet": {"players": 2, "rounds": [], "meta": {"names": ["Ana", "Bo"]}}})
    assert made.status_code == 201, made.text
    assert c.get(f"/api/sheets/{made.json()['id']}").json()["sheet"]["meta"]["names"] == ["Ana", "Bo"]
    # a socket: the message is refused, the connection goes on
    created = create(c, players=2, seats=["human", "bot:random"])
    with c.websocket_connect(ws_path(created["id"])) as ws:
        ws.send_text('{"v": 1, "type": "hello", "token": null, "name": null, "last_seq": null, "x": "\\udfff"}')
        error = until(ws, "error", allow_errors=True)
        assert error["code"] == "bad_message" and "lone surrogate" in error["message"]
        hello(ws, tokens(created)[0], "Ana")


def _finished() -> Game:
    game = Game(2, seed=5)
    while not game.is_over:
        game.play([game.legal_actions(s)[0] for s in range(2)])
    return game


@pytest.mark.parametrize("ending", ["finished", "cancelled"])
def test_an_ended_table_is_read_only(lite_client: TestClient, ending: str) -> None:
    c = lite_client
    created = create(c, players=3, seats=["human", "human", "bot:random"] if ending == "cancelled"
                     else ["human", "bot:random", "bot:random"])
    if ending == "finished":
        finish(c, created)
    else:
        assert c.post(f"/api/tables/{created['id']}/cancel", json={"creator": created["creator"]}).status_code == 200
    with c.websocket_connect(ws_path(created["id"])) as ws:
        _welcome, state = hello(ws, tokens(created)[0], "Someone else")  # a name in hello changes nothing either
        assert state["status"] == ending
        for message in ({"type": "chat", "text": "gg"}, {"type": "react", "reaction": "gg"},
                        {"type": "mute", "seat": 1, "muted": True}, {"type": "name", "name": "Zed"},
                        {"type": "pick", "seq": 0, "action": 0}):
            send(ws, **message)
            error = until(ws, "error", allow_errors=True)
            assert error["code"] == "game_over", (message, error)
    summary = c.get(f"/api/tables/{created['id']}").json()
    assert summary["seats"][0]["name"] == ("Ann" if ending == "finished" else None)
    assert not store_talk(c, created["id"])


def store_talk(c: TestClient, table_id: str) -> list[Any]:
    loaded = Store(str(c.app.state.service.store.engine.url)).load(table_id=table_id)  # type: ignore[attr-defined]
    return [h for h in loaded[0].happenings if h.kind in ("chat", "react", "mute")]


def test_a_change_of_mind_tells_the_others_nothing(lite_client: TestClient) -> None:
    c = lite_client
    created = create(c, players=2, seats=["human", "human"])
    ana_token, bo_token = tokens(created)
    with c.websocket_connect(ws_path(created["id"])) as ana, c.websocket_connect(ws_path(created["id"])) as bo:
        hello(ana, ana_token, "Ana")
        hello(bo, bo_token, "Bo")
        state = until(ana, "state", lambda m: m["status"] == "playing")
        until(bo, "state", lambda m: m["status"] == "playing")
        first, second = state["view"]["legal_actions"][:2]
        send(ana, type="pick", seq=state["seq"], action=first)
        assert until(bo, "progress")["picked"] == [True, False]
        for action in (second, first, second):  # Ana changes her mind three times
            mine = _acked(ana)
            assert mine["view"]["committed"] is not None
            send(ana, type="pick", seq=mine["seq"], action=action)
        _acked(ana)
        bo_state = bo.last_state
        send(bo, type="pick", seq=bo_state["seq"], action=bo_state["view"]["legal_actions"][0])
        seen = []
        while True:  # Bo's frames until the reveal: nothing of Ana's changes of mind
            m = recv(bo)
            seen.append(m["type"])
            if m["type"] == "state" and m["view"]["round"] == 1 and m["view"]["turn"] == 2:
                break
        assert "progress" not in seen, seen
        # not even in the seq: two picks were revealed, as if Ana had picked once
        assert m["seq"] == 2 and ana.last_state["seq"] <= 2
        assert lite_client.get(f"/api/tables/{created['id']}").json()["seq"] == 2
    # and after a restart (the events keep the changes of mind) the seq is the same
    with make_client(lite_client.app.state.service.store.url) as again, \
            again.websocket_connect(ws_path(created["id"])) as bo2:
        welcome, s2 = hello(bo2, bo_token)
        assert welcome["seq"] == 2 and s2["seq"] == 2


def _acked(ws: Any) -> dict[str, Any]:
    """Frames until the pick's ``ack`` and the ``state`` it caused (either may come first): that state."""
    before = getattr(ws, "last_state", None)
    acked = False
    while not acked or ws.last_state is before:
        acked = recv(ws)["type"] == "ack" or acked
    state: dict[str, Any] = ws.last_state
    return state


def test_sheets_per_hour_hold_under_a_burst_of_parallel_requests(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.create_schema()
    app = create_app(store=store)
    sheet = {"sheet": {"players": 2, "rounds": []}}

    async def burst() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            answers = await asyncio.gather(*(client.post("/api/sheets", json=sheet)
                                             for _ in range(SHEETS_PER_HOUR + 20)))
        return [a.status_code for a in answers]

    codes = asyncio.run(burst())
    assert codes.count(201) == SHEETS_PER_HOUR and codes.count(429) == 20, codes
    store.close()


@pytest.mark.slow
def test_sockets_per_address_hold_under_a_burst_on_a_finished_table(sqlite_url: str) -> None:
    """A finished table is read back from the database for its first socket:
    the limit counts each handshake before that wait, not after it."""
    server = ServerProcess(sqlite_url, "--connections-per-address", "5")
    try:
        created = httpx.post(server.url + "/api/tables", json={"players": 2, "seats": ["human", "bot:random"]},
                             timeout=10).json()
        play_out(server.url, created["id"], tokens(created)[0], name="Ana")
        tries = 12

        async def burst() -> int:
            done, everyone_tried, accepted = 0, asyncio.Event(), 0

            async def one() -> None:
                nonlocal done, accepted
                try:
                    async with connect(f"{server.ws_url}/ws/tables/{created['id']}", open_timeout=10) as ws:
                        await ws.send(json.dumps({"v": 1, "type": "hello", "token": None, "name": None,
                                                  "last_seq": None}))
                        while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "state":
                            pass
                        accepted += 1
                        done += 1
                        if done == tries:
                            everyone_tried.set()
                        await asyncio.wait_for(everyone_tried.wait(), 30)  # held open while the others try
                        return
                except (ConnectionClosed, InvalidStatus):
                    pass
                done += 1
                if done == tries:
                    everyone_tried.set()

            await asyncio.gather(*(one() for _ in range(tries)))
            return accepted

        assert asyncio.run(burst()) == 5
    finally:
        server.stop()
