"""A seat is its player's alone (docs/server.md, "A seat is its player's"):
an invite claims its seat once and is then spent, the claim's secret opens the
seat from then on, the creator's new invite is the way back and everyone sees
it, and all of it survives a restart and a race of two claims."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sushigo.server.protocol import parse_create
from sushigo.server.tables import TableError

from .conftest import create, finish, make_client, tokens
from .test_protocol import error_code, hello, recv, send, still_alive, until, ws_path
from .test_tables import _service

Msg = dict[str, Any]


def claim(ws: Any, invite: str, name: str | None = None) -> str:
    """Open a seat with its invite (sent as is) and return the secret the welcome gives."""
    send(ws, type="hello", token=invite, name=name, last_seq=None)
    welcome = recv(ws)
    assert welcome["type"] == "welcome" and isinstance(welcome.get("token"), str), welcome
    assert welcome["token"] != invite
    return str(welcome["token"])


def test_an_invite_claims_its_seat_once_and_a_second_socket_with_it_learns_nothing(
        lite_client: TestClient) -> None:
    created = create(lite_client, players=3, seats=["human", "human", "bot:greedy"])
    ta, tb = tokens(created)
    tid = created["id"]
    with lite_client.websocket_connect(ws_path(tid)) as a, lite_client.websocket_connect(ws_path(tid)) as b:
        secret_a = claim(a, ta, "Ana")
        secret_b = claim(b, tb, "Bo")
        state = until(b, "state", lambda m: m["status"] == "playing")
        hand = state["view"]["hand"]
        # the creator (who was given every invite) opens a second socket with Bo's
        with lite_client.websocket_connect(ws_path(tid)) as spy:
            send(spy, type="hello", token=tb, name=None, last_seq=None)
            refused = recv(spy)  # the very next frame: nothing of the table before it
            assert refused["type"] == "error" and refused["code"] == "seat_taken", refused
            assert "ask the table to hand it back" in refused["message"]
            send(spy, type="pick", seq=state["seq"], action=state["view"]["legal_actions"][0])
            refused = recv(spy)  # it is nobody at the table, and was sent no frame of it
            assert refused["type"] == "error" and refused["code"] == "hello_first", refused
            welcome, watched = hello(spy, None)  # at most a spectator, who sees no hand
            assert welcome["seat"] is None and watched["view"].get("hand") is None
        still_alive(b)
    # Bo comes back with his secret: his seat, his hand
    with lite_client.websocket_connect(ws_path(tid)) as b2:
        welcome, back = hello(b2, secret_b)
        assert welcome["seat"] == 1 and "token" not in welcome and back["view"]["hand"] == hand
    with lite_client.websocket_connect(ws_path(tid)) as a2:
        send(a2, type="hello", token=ta, name=None, last_seq=None)
        assert error_code(a2) == "seat_taken"
    assert secret_a not in json.dumps(lite_client.get(f"/api/tables/{tid}").json())


def test_a_bad_name_claims_nothing(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    (token,) = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        send(ws, type="hello", token=token, name="   ", last_seq=None)
        assert error_code(ws) == "bad_name"
        secret = claim(ws, token, "Ana")  # the invite still holds: the refused hello spent nothing
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        assert hello(ws, secret)[0]["seat"] == 0


def test_an_old_invite_cannot_ask_for_the_rematch(lite_client: TestClient) -> None:
    """Issue 37's rematch hijack: with the invite Ana's seat was claimed with,
    a stranger is nobody at the finished table, so cannot take her seat at the next."""
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    finish(lite_client, created, "Ana")
    with lite_client.websocket_connect(ws_path(created["id"])) as stranger:
        send(stranger, type="hello", token=tokens(created)[0], name=None, last_seq=None)
        assert error_code(stranger) == "seat_taken"
        send(stranger, type="rematch")
        assert error_code(stranger) == "hello_first"
    assert lite_client.get(f"/api/tables/{created['id']}").json()["rematch"] is None


def test_the_creators_new_invite_is_seen_by_the_table_and_takes_the_seat_from_the_old_secret(
        lite_client: TestClient) -> None:
    created = create(lite_client, players=3, seats=["human", "human", "bot:greedy"])
    ta, tb = tokens(created)
    tid, creator = created["id"], created["creator"]
    url = f"/api/tables/{tid}/invite"
    with lite_client.websocket_connect(ws_path(tid)) as a, lite_client.websocket_connect(ws_path(tid)) as b:
        claim(a, ta, "Ana")
        secret_b = claim(b, tb, "Bo")
        until(b, "state", lambda m: m["status"] == "playing")
        # refusals first: none of them changes anything
        assert lite_client.post(url, json={"creator": "x" * 32, "seat": 1}).status_code == 403
        assert lite_client.post(url, json={"creator": creator, "seat": 2}).status_code == 400  # a bot's
        assert lite_client.post(url, json={"creator": creator, "seat": 7}).status_code == 400
        assert lite_client.post(url, json={"creator": creator, "seat": "1"}).status_code == 400
        assert lite_client.post(url, json={"creator": creator}).status_code == 400
        assert lite_client.post("/api/tables/nope/invite", json={"creator": creator, "seat": 1}).status_code == 404
        r = lite_client.post(url, json={"creator": creator, "seat": 1})
        assert r.status_code == 200, r.text
        new_invite = r.json()["invite"].split("#seat=")[1]
        assert r.json() == {"seat": 1, "invite": f"/t/{tid}#seat={new_invite}"}
        # both players see it: the seat is marked, the log says so
        for ws in (a, b):
            line = until(ws, "log", lambda m: any(x["kind"] == "invite" for x in m["lines"]))
            assert [x["text"] for x in line["lines"] if x["kind"] == "invite"] == [
                "The table's creator made a new invite for {1}'s seat."]
            seats = until(ws, "seats", lambda m: m["seats"][1]["reinvited"])
            assert [s["reinvited"] for s in seats["seats"]] == [False, True, False]
        still_alive(b)  # Bo plays on with his secret until someone opens the new invite
        with lite_client.websocket_connect(ws_path(tid)) as c:
            secret_c = claim(c, new_invite)
            until(c, "state")
            # Bo's socket is told and closed; it decides nothing more
            told = until(b, "error", allow_errors=True)
            assert told["code"] == "seat_taken"
            with pytest.raises(WebSocketDisconnect):
                for _ in range(50):
                    recv(b)
            line = until(a, "log", lambda m: any(x["kind"] == "claim" for x in m["lines"]))
            assert [x["text"] for x in line["lines"] if x["kind"] == "claim"] == [
                "{1}'s seat was claimed with its new invite."]
    for old in (secret_b, tb, new_invite):  # Bo's old secret, the first invite, the new one: all spent
        with lite_client.websocket_connect(ws_path(tid)) as ws:
            send(ws, type="hello", token=old, name=None, last_seq=None)
            assert error_code(ws) == "seat_taken"
    with lite_client.websocket_connect(ws_path(tid)) as c2:
        assert hello(c2, secret_c)[0]["seat"] == 1
        assert not until(c2, "seats")["seats"][1]["reinvited"]


def test_an_ended_table_makes_no_new_invite(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    finish(lite_client, created)
    r = lite_client.post(f"/api/tables/{created['id']}/invite", json={"creator": created["creator"], "seat": 0})
    assert r.status_code == 409 and "\n" not in r.json()["error"]


def test_claims_and_new_invites_survive_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c1:
        created = create(c1, players=2, seats=["human", "human"])
        ta, tb = tokens(created)
        tid = created["id"]
        with c1.websocket_connect(ws_path(tid)) as a:
            secret_a = claim(a, ta, "Ana")
        r = c1.post(f"/api/tables/{tid}/invite", json={"creator": created["creator"], "seat": 0})
        again = r.json()["invite"].split("#seat=")[1]
        r = c1.post(f"/api/tables/{tid}/invite", json={"creator": created["creator"], "seat": 0})
        newest = r.json()["invite"].split("#seat=")[1]
    with make_client(sqlite_url) as c2:
        assert [s["reinvited"] for s in c2.get(f"/api/tables/{tid}").json()["seats"]] == [True, False]
        for token, code in ((ta, "seat_taken"), (again, "seat_taken")):  # spent, and replaced by a newer one
            with c2.websocket_connect(ws_path(tid)) as ws:
                send(ws, type="hello", token=token, name=None, last_seq=None)
                assert error_code(ws) == code
        with c2.websocket_connect(ws_path(tid)) as ws:
            assert hello(ws, secret_a)[0]["seat"] == 0
        with c2.websocket_connect(ws_path(tid)) as ws:
            secret_b = claim(ws, tb, "Bo")  # Bo's invite is still open
        with c2.websocket_connect(ws_path(tid)) as ws:
            claim(ws, newest)
    with make_client(sqlite_url) as c3:
        for token in (secret_a, newest):
            with c3.websocket_connect(ws_path(tid)) as ws:
                send(ws, type="hello", token=token, name=None, last_seq=None)
                assert error_code(ws) == "seat_taken"
        with c3.websocket_connect(ws_path(tid)) as ws:
            assert hello(ws, secret_b)[0]["seat"] == 1


def test_two_claims_of_one_invite_at_once_give_one_secret(tmp_path: Path) -> None:
    async def main() -> None:
        async with _service(tmp_path) as service:
            body = {"players": 2, "seats": ["human", "bot:greedy"]}
            table, invites, _creator = await service.create(parse_create(json.dumps(body).encode()))
            assert service.seat_of(table, invites[0]) == (0, "invite")
            got = await asyncio.gather(service.claim(table, 0), service.claim(table, 0), return_exceptions=True)
            secrets_ = [g for g in got if isinstance(g, str)]
            refused = [g for g in got if isinstance(g, TableError)]
            assert len(secrets_) == 1 and [e.code for e in refused] == ["seat_taken"]
            assert service.seat_of(table, secrets_[0]) == (0, "secret")
            assert service.seat_of(table, invites[0]) == (0, "spent")
            assert service.seat_of(table, "x" * 32) == (None, "none")

    asyncio.run(main())


def test_asking_again_for_a_started_rematch_says_already_claimed(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    finish(lite_client, created, "Ana")
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        hello(ws, tokens(created)[0])
        send(ws, type="rematch")
        new = until(ws, "rematch")
        assert lite_client.get(f"/api/tables/{new['table']}").json()["status"] == "playing"  # Ana was all it needed
        send(ws, type="rematch")
        assert error_code(ws) == "already_claimed"


def test_a_seeded_game_says_so_in_its_record(lite_client: TestClient) -> None:
    for seed, seeded in ((7, True), (None, False)):
        body: dict[str, Any] = {"players": 2, "seats": ["human", "bot:greedy"]}
        if seed is not None:
            body["seed"] = seed
        created = create(lite_client, **body)
        assert created["table"]["seeded"] is seeded
        finish(lite_client, created)
        meta = lite_client.get(f"/api/tables/{created['id']}/record").json()["meta"]
        assert meta.get("seeded") is (True if seeded else None)
