"""Seats taken while signed in belong to the account (docs/server.md,
"Accounts"): the seat bears the account's name, opens from any browser signed
into it without its secret, and from nobody else's; the account's open
tables are listed for it; play again keeps the seat the account's; a deleted
account's seats, and its finished games' records, call it "deleted player"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sushigo.server.accounts import DELETED_NAME
from sushigo.server.routes.accounts import COOKIE

from .conftest import create, tokens
from .test_accounts import make, other, sign_up
from .test_protocol import error_code, hello, pick, recv, send, until, ws_path


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def socket(web: TestClient, table: str, browser: TestClient | None = None) -> Any:
    """A table socket of ``browser`` (default ``web``): its session cookie goes with the
    handshake, as a browser's does.  (Every socket goes through ``web``, the client whose
    event loop runs the app; another client only lends its cookies.)"""
    cookie = (browser or web).cookies.get(COOKIE)
    return web.websocket_connect(ws_path(table), headers={"cookie": f"{COOKIE}={cookie}" if cookie else ""})


def seats_frame(ws: Any, pred: Any = None) -> dict[str, Any]:
    return until(ws, "seats", pred)


def test_a_seat_claimed_signed_in_is_the_accounts_and_bears_its_name(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    created = create(web, players=2, seats=["human", "human"])
    with socket(web, created["id"]) as ws:
        welcome, _ = hello(ws, tokens(created)[0], name="Typed Name")
        assert welcome["seat"] == 0 and "token" in welcome  # the seat's secret, as for a guest
        seat = seats_frame(ws, lambda m: m["seats"][0]["name"] == "Alice")["seats"][0]
        assert seat["account"] == "Alice"
        send(ws, type="name", name="Someone Else")
        assert error_code(ws) == "bad_name"  # the account's name it stays
    summary = web.get(f"/api/tables/{created['id']}").json()
    assert [s["account"] for s in summary["seats"]] == ["Alice", None]
    assert [s["name"] for s in summary["seats"]] == ["Alice", None]


def test_a_guests_seat_has_no_account(web: TestClient) -> None:
    created = create(web, players=2, seats=["human", "bot:random"])
    with socket(web, created["id"]) as ws:
        hello(ws, tokens(created)[0], name="Guest")
        until(ws, "state", lambda m: m["status"] == "playing")  # named: the game started
    seat = web.get(f"/api/tables/{created['id']}").json()["seats"][0]
    assert (seat["name"], seat["account"]) == ("Guest", None)


def test_the_account_resumes_its_seat_from_another_browser_without_the_secret(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    created = create(web, players=2, seats=["human", "bot:random"])
    with socket(web, created["id"]) as ws:
        hello(ws, tokens(created)[0], name=None)
        state = until(ws, "state", lambda m: m["status"] == "playing")
        hand = state["view"]["hand"]
    laptop = other(web)
    r = laptop.post("/api/account/signin", json={"name": "alice", "password": "alice password"})
    assert r.status_code == 200
    listed = laptop.get("/api/account/tables").json()["tables"]
    assert [(t["table"]["id"], t["seats"]) for t in listed] == [(created["id"], [0])]
    with socket(web, created["id"], laptop) as ws:
        send(ws, type="hello", seat=0, token=None, name=None, last_seq=None)
        welcome = recv(ws)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0 and "token" not in welcome
        state = until(ws, "state")
        assert state["view"]["hand"] == hand  # the seat's own view: its hand
        pick(ws, state["seq"], state["view"]["legal_actions"][0])
        until(ws, "ack")


def test_nobody_else_takes_an_accounts_seat(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    created = create(web, players=2, seats=["human", "human"])
    with socket(web, created["id"]) as ws:
        hello(ws, tokens(created)[0], name=None)
    bob = other(web)
    sign_up(bob, "Bob_1", "bob password")
    assert bob.get("/api/account/tables").json() == {"tables": []}
    for seat in (0, 1, 7):  # Alice's seat, a seat nobody holds, a seat the table has not
        with socket(web, created["id"], bob) as ws:
            send(ws, type="hello", seat=seat, token=None, name=None, last_seq=None)
            assert error_code(ws) == "not_your_seat"
    guest = other(web)
    with socket(web, created["id"], guest) as ws:
        send(ws, type="hello", seat=0, token=None, name=None, last_seq=None)
        assert error_code(ws) == "not_signed_in"
    with web.websocket_connect(ws_path(created["id"]), headers={"cookie": f"{COOKIE}=forged"}) as ws:
        send(ws, type="hello", seat=0, token=None, name=None, last_seq=None)
        assert error_code(ws) == "not_signed_in"
    assert guest.get("/api/account/tables").status_code == 401


def test_play_again_keeps_the_seat_the_accounts(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    created = create(web, players=2, seats=["human", "bot:random"])
    with socket(web, created["id"]) as ws:
        hello(ws, tokens(created)[0], name=None)
        while True:
            m = recv(ws)
            state = m if m["type"] == "state" else None
            if state is None:
                continue
            if state["status"] == "finished":
                break
            if state["view"]["legal_actions"] and state["view"]["committed"] is None:
                pick(ws, state["seq"], state["view"]["legal_actions"][0])
        send(ws, type="rematch")
        rematch = until(ws, "rematch")
    again = web.get(f"/api/tables/{rematch['table']}").json()
    assert again["seats"][0]["account"] == "Alice" and again["seats"][0]["name"] == "Alice"
    record = json.loads(web.get(f"/api/tables/{created['id']}/record").text)
    assert record["meta"]["names"][0] == "Alice"

    web.post("/api/account/delete", json={"password": "alice password"})
    for table in (created["id"], rematch["table"]):
        seat = web.get(f"/api/tables/{table}").json()["seats"][0]
        assert (seat["name"], seat["account"]) == (DELETED_NAME, None)
    record = json.loads(web.get(f"/api/tables/{created['id']}/record").text)
    assert record["meta"]["names"] == [DELETED_NAME, "random bot"]
