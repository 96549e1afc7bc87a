"""Turn-based tables (docs/server.md, "Turn-based tables"): ``turn_hours`` gives
each move a limit of hours, the same clock as the move timer (the greedy bot
decides a move whose limit passed), counted from when the decision opened, so
a restart keeps it; the janitor waits for such a table; the tables waiting on
a signed-in player are marked for them."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from .conftest import create, tokens
from .test_account_seats import socket
from .test_accounts import make, sign_up
from .test_protocol import hello, pick, until, ws_path


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def test_a_turn_based_table_gives_each_move_hours(web: TestClient) -> None:
    made = create(web, players=2, seats=["human", "bot:greedy"], turn_hours=24)
    assert made["table"]["timer"] == 24 * 3600 and made["table"]["turn_based"] is True
    with web.websocket_connect(ws_path(made["id"])) as ws:
        hello(ws, tokens(made)[0], "Ana")
        state = until(ws, "state", lambda m: m["status"] == "playing")
        assert state["deadline"] == pytest.approx(time.time() + 24 * 3600, abs=60)
    for bad in ({"turn_hours": 0}, {"turn_hours": 73}, {"turn_hours": 2, "timer": 30}, {"turn_hours": "2"}):
        r = web.post("/api/tables", json={"players": 2, "seats": ["human", "bot:greedy"], **bad})
        assert r.status_code == 400 and "\n" not in r.json()["error"], r.text
    live = create(web, players=2, seats=["human", "bot:greedy"], timer=3600)
    assert live["table"]["turn_based"] is False


def test_the_limit_of_a_move_survives_a_restart(sqlite_url: str) -> None:
    with make(sqlite_url) as web:
        made = create(web, players=2, seats=["human", "human"], turn_hours=3)
        with web.websocket_connect(ws_path(made["id"])) as a, web.websocket_connect(ws_path(made["id"])) as b:
            hello(a, tokens(made)[0], "Ana")
            hello(b, tokens(made)[1], "Bo")
            first = until(a, "state", lambda m: m["status"] == "playing")
            pick(a, first["seq"], first["view"]["legal_actions"][0])
            until(a, "ack")
            deadline = until(b, "state", lambda m: m["status"] == "playing")["deadline"]
    with make(sqlite_url) as web, web.websocket_connect(ws_path(made["id"])) as b:  # the server restarted
        _, state = hello(b, tokens(made)[1], "Bo")
        assert state["deadline"] == pytest.approx(deadline, abs=0.01)


def test_the_janitor_waits_for_a_turn_based_tables_slowest_player(sqlite_url: str) -> None:
    with make(sqlite_url) as web:
        slow = create(web, players=2, seats=["human", "bot:greedy"], turn_hours=72)
        quick = create(web, players=2, seats=["human", "bot:greedy"])
    with make(sqlite_url, idle_limit=60.0) as web:
        service = web.app.state.service  # type: ignore[attr-defined]
        ended = web.portal.call(service.sweep, time.time() + 3600)  # type: ignore[union-attr]
        assert ended == [quick["id"]]
        ended = web.portal.call(service.sweep, time.time() + 2 * 72 * 3600 + 1)  # type: ignore[union-attr]
        assert ended == [slow["id"]]


def test_the_tables_waiting_on_a_player_are_marked(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    made = create(web, players=2, seats=["human", "human"], turn_hours=12)
    with socket(web, made["id"]) as alice, web.websocket_connect(ws_path(made["id"]),
                                                                 headers={"cookie": ""}) as guest:
        hello(alice, tokens(made)[0], None)
        hello(guest, tokens(made)[1], "Guest")
        state = until(alice, "state", lambda m: m["status"] == "playing")
        (entry,) = web.get("/api/account/tables").json()["tables"]
        assert entry["your_turn"] == [0] and entry["table"]["turn_based"] is True
        pick(alice, state["seq"], state["view"]["legal_actions"][0])
        until(alice, "ack")
        (entry,) = web.get("/api/account/tables").json()["tables"]
        assert entry["your_turn"] == []  # the table now waits on the other player only
