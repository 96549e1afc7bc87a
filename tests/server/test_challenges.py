"""Challenges to bot accounts and the bot API's calls, in process (docs/bot-api.md):
what a challenge may ask for, who may read, cancel and answer it, limits under
parallel requests, and every way a game call is refused.  The streams, played
over a real server, are in test_bot_api.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from sushigo.bots.base import view_for
from sushigo.bots.external import legal_entries
from sushigo.server.accounts import Account
from sushigo.server.app import Limits
from sushigo.server.matchmaking.challenges import LIFE, MAX_OPEN, STARTING
from sushigo.server.schema import accounts_t, challenges_t

from .test_accounts import make, sign_up
from .test_bot_accounts import PASSWORD, make_bot, new_token


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def bots(c: TestClient, *names: str) -> list[dict[str, str]]:
    """Bot accounts with a token each (their Authorization headers); the client ends signed in as the last."""
    out = []
    for name in names:
        make_bot(c, name)
        out.append(bearer(new_token(c)["token"]))
    return out


def challenge(c: TestClient, bot: str, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/challenge/{bot}", json=body, headers=headers or {})
    assert r.status_code == 201, r.text
    return dict(r.json()["challenge"])


def accepted_table(c: TestClient, by: dict[str, str], challenger: dict[str, str], **body: Any) -> tuple[str, int]:
    """A table ``by`` accepted from ``challenger``'s challenge, and ``by``'s seat there."""
    made = challenge(c, "Bea_Bot", challenger, **body)
    r = c.post(f"/api/bot/challenge/{made['id']}/accept", json={}, headers=by)
    assert r.status_code == 200, r.text
    table = r.json()["challenge"]["table"]
    seat = next(s["seat"] for s in c.get(f"/api/tables/{table}").json()["seats"] if s["account"] == "Bea_Bot")
    return table, seat


def test_a_person_challenges_a_bot_and_the_table_is_both_accounts(web: TestClient) -> None:
    (bea,) = bots(web, "Bea_Bot")
    sign_up(web, "Ana", PASSWORD)
    made = challenge(web, "bea_bot", edition="party", players=4, timer=30, rated=True)
    assert made["challenger"] == {"name": "Ana", "bot": False} and made["bot"] == "Bea_Bot"
    assert made["state"] == "open" and made["rated"] and made["players"] == 4 and made["timer"] == 30
    assert made["menu"] is not None  # an official menu the size may play
    assert made["expires"] == pytest.approx(made["created"] + LIFE)
    assert web.get(f"/api/challenge/{made['id']}", headers=bea).json()["challenge"] == made
    r = web.post(f"/api/bot/challenge/{made['id']}/accept", json={}, headers=bea)
    assert r.status_code == 200 and r.json()["challenge"]["state"] == "accepted"
    table = web.get(f"/api/challenge/{made['id']}").json()["challenge"]["table"]
    summary = web.get(f"/api/tables/{table}").json()
    assert summary["status"] == "playing" and summary["rated"] and summary["timer"] == 30
    assert summary["menu"] == made["menu"]
    people = sorted((s["account"], s["name"], s.get("account_bot")) for s in summary["seats"] if s["kind"] == "human")
    assert people == [("Ana", "Ana", None), ("Bea_Bot", "Bea_Bot", True)]  # a bot account's seat says so
    assert [s["bot"] for s in summary["seats"] if s["kind"] == "bot"] == ["greedy", "greedy"]
    again = web.post(f"/api/bot/challenge/{made['id']}/accept", json={}, headers=bea)
    assert again.status_code == 409 and "accepted" in again.json()["error"]


def test_declined_cancelled_and_expired_challenges(web: TestClient, db_url: str) -> None:
    (bea,) = bots(web, "Bea_Bot")
    sign_up(web, "Ana", PASSWORD)
    first, second, third = (challenge(web, "Bea_Bot") for _ in range(3))
    r = web.post(f"/api/bot/challenge/{first['id']}/decline", json={"reason": "  busy\n now "}, headers=bea)
    assert r.status_code == 200
    seen = web.get(f"/api/challenge/{first['id']}").json()["challenge"]
    assert seen["state"] == "declined" and seen["reason"] == "busy now"
    assert web.post(f"/api/challenge/{second['id']}/cancel", json={}).json()["challenge"]["state"] == "cancelled"
    r = web.post(f"/api/bot/challenge/{second['id']}/accept", json={}, headers=bea)
    assert r.status_code == 409 and r.json()["error"] == "the challenge was cancelled: only an open one can be answered"
    with web.app.state.site.store.transaction() as conn:
        conn.execute(update(challenges_t).where(challenges_t.c.id == third["id"]).values(created=time.time() - LIFE))
    assert web.get(f"/api/challenge/{third['id']}").json()["challenge"]["state"] == "expired"
    assert web.post(f"/api/bot/challenge/{third['id']}/accept", json={}, headers=bea).status_code == 409
    # the bot may read a challenge but not cancel it; the challenger may not answer it
    fourth = challenge(web, "Bea_Bot")
    r = web.post(f"/api/challenge/{fourth['id']}/cancel", json={}, headers=bea)
    assert r.status_code == 403 and r.json()["error"] == "only the challenge's challenger may cancel it"
    assert web.post(f"/api/bot/challenge/{fourth['id']}/decline", json={}).status_code == 401


def test_a_challenge_whose_table_was_never_made_expires(web: TestClient) -> None:
    """The process that accepted it stopped while making the table (it stays ``starting``):
    after a minute both sides read it expired, and the bot's event stream lets it go."""
    (bea,) = bots(web, "Bea_Bot")
    sign_up(web, "Ana", PASSWORD)
    made = challenge(web, "Bea_Bot")
    site = web.app.state.site  # type: ignore[attr-defined]
    told: dict[str, str] = {made["id"]: "challenge"}  # the bot's event stream told it of the challenge
    with site.store.transaction() as conn:  # as a process that died after its accept's first step
        conn.execute(update(challenges_t).where(challenges_t.c.id == made["id"]).values(
            state="starting", changed=time.time() - 30))
    assert web.get(f"/api/challenge/{made['id']}").json()["challenge"]["state"] == "starting"
    with site.store.transaction() as conn:
        conn.execute(update(challenges_t).where(challenges_t.c.id == made["id"]).values(
            changed=time.time() - STARTING))
    seen = web.get(f"/api/challenge/{made['id']}").json()["challenge"]
    assert seen["state"] == "expired" and "stopped while making the table" in seen["reason"]
    assert web.get(f"/api/challenge/{made['id']}", headers=bea).json()["challenge"]["state"] == "expired"
    assert web.post(f"/api/bot/challenge/{made['id']}/accept", json={}, headers=bea).status_code == 409
    assert site.challenges.events(bot_account(web, "Bea_Bot"), told) == [
        {"type": "challengeCanceled", "challenge": {"id": made["id"], "state": "expired"}}]
    assert told == {}


def bot_account(c: TestClient, name: str) -> Account:
    """The bot account called ``name``, as the server's calls see it."""
    with c.app.state.site.store.reading() as conn:  # type: ignore[attr-defined]
        account_id = str(conn.execute(select(accounts_t.c.id).where(accounts_t.c.name == name)).scalar_one())
    return Account(id=account_id, name=name, created=0.0, bot=True)


def test_what_a_challenge_may_ask_for(web: TestClient) -> None:
    bots(web, "Bea_Bot")
    sign_up(web, "Ana", PASSWORD)
    sign_up(web, "Cyd", PASSWORD)  # a person, not a bot
    cases = {
        ("Nobody_Here", '{}'): (404, "no bot account is called 'Nobody_Here'"),
        ("Ana", '{}'): (404, "no bot account is called 'Ana'"),
        ("Bea_Bot", '{"players": 6}'): (400, "players: base tables seat 2 to 5"),
        ("Bea_Bot", '{"edition": "chess"}'): (400, 'edition: "base" or "party"'),
        ("Bea_Bot", '{"timer": 2}'): (400, "timer: 5 to 3600 seconds per move"),
        ("Bea_Bot", '{"edition": "party", "players": 2, "menu": "Master Menu"}'): (400, None),
        ("Bea_Bot", '{"players": "2"}'): (400, None),
        ("Bea_Bot", '{"colour": "red"}'): (400, None),
        ("Bea_Bot", '[1'): (400, None),
    }
    for (bot, body), (status, line) in cases.items():
        r = web.post(f"/api/challenge/{bot}", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == status, (bot, body, r.text)
        error = r.json()["error"]
        assert "\n" not in error and (line is None or error == line), (body, error)
    assert web.post("/api/challenge/Bea_Bot", content="players=2",
                    headers={"Content-Type": "application/x-www-form-urlencoded"}).status_code == 415
    assert web.post("/api/challenge/Bea_Bot", json={}, headers={"Origin": "https://evil.example"}).status_code == 403
    web.cookies.clear()
    assert web.post("/api/challenge/Bea_Bot", json={}).status_code == 401


def test_a_bot_cannot_challenge_itself_and_strangers_see_nothing(web: TestClient) -> None:
    bea, cal = bots(web, "Bea_Bot", "Cal_Bot")
    r = web.post("/api/challenge/Bea_Bot", json={}, headers=bea)
    assert r.status_code == 400 and r.json()["error"] == "a bot cannot challenge itself"
    made = challenge(web, "Bea_Bot", cal)
    sign_up(web, "Stranger", PASSWORD)
    for method, path, headers in (("GET", f"/api/challenge/{made['id']}", {}),
                                  ("POST", f"/api/challenge/{made['id']}/cancel", {})):
        r = web.request(method, path, headers=headers, json={} if method == "POST" else None)
        assert r.status_code == 404 and r.json()["error"] == "no challenge of yours has this id"
    assert web.post(f"/api/bot/challenge/{made['id']}/accept", json={}, headers=cal).status_code == 403
    assert web.get("/api/challenge/not-an-id", headers=cal).status_code == 404


def test_parallel_accepts_make_one_table_and_parallel_challenges_hold_the_limit(web: TestClient) -> None:
    bea, cal = bots(web, "Bea_Bot", "Cal_Bot")
    made = challenge(web, "Bea_Bot", cal)
    with ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(lambda _: web.post(f"/api/bot/challenge/{made['id']}/accept", json={},
                                                 headers=bea).status_code, range(4)))
    assert sorted(codes) == [200, 409, 409, 409]
    tables = [t for t in web.get("/api/tables").json()["tables"] if t["status"] == "playing"]
    assert len(tables) == 1
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: web.post("/api/challenge/Bea_Bot", json={}, headers=cal).status_code,
                              range(MAX_OPEN + 3)))
    assert codes.count(201) == MAX_OPEN and codes.count(429) == 3


def test_every_way_a_game_call_is_refused(web: TestClient) -> None:
    ann, bea, cal = bots(web, "Ann_Bot", "Bea_Bot", "Cal_Bot")
    table, seat = accepted_table(web, bea, ann)
    live = web.app.state.service.get(table)
    seq = live.public_seq
    path = f"/api/bot/game/{table}"
    view = view_for(live.game, seat, None)
    entry, action = legal_entries(view)[0], view.legal_actions[0]  # a card of the seat's hand
    cases: list[tuple[dict[str, str], str, Any, int, str | None]] = [
        (bea, "/pick", {"seq": seq + 5, "pick": entry}, 409, "stale"),
        (bea, "/pick", {"seq": seq, "pick": ["not a card"]}, 400, "illegal"),
        (bea, "/pick", {"seq": seq, "pick": "tempura"}, 400, None),
        (bea, "/pick", {"seq": seq}, 400, None),
        (bea, "/withdraw", {"seq": seq}, 409, "nothing_to_withdraw"),
        (cal, "/pick", {"seq": seq, "pick": ["tempura"]}, 404, "not_your_seat"),
        (cal, "/chat", {"text": "hi"}, 404, "not_your_seat"),
        ({}, "/pick", {"seq": seq, "pick": ["tempura"]}, 401, None),
        (bearer("sgb_" + "x" * 43), "/pick", {"seq": seq, "pick": ["tempura"]}, 401, None),
    ]
    for headers, call, body, status, code in cases:
        r = web.post(path + call, json=body, headers=headers)
        assert r.status_code == status, (call, body, r.text)
        assert "\n" not in r.json()["error"] and r.json().get("code") == code, r.json()
    r = web.post("/api/bot/game/nope/pick", json={"seq": 0, "pick": ["tempura"]}, headers=bea)
    assert r.status_code == 404 and r.json()["code"] == "no_table"
    assert web.post(path + "/chat", json={"text": "good luck"}, headers=bea).json() == {"said": True}
    # a legal pick (any case) is the seat's hidden pick; withdrawn, the seat decides again
    r = web.post(path + "/pick", json={"seq": seq, "pick": [e.upper() for e in entry]}, headers=bea)
    assert r.status_code == 200, r.text
    assert live.game.committed_action(seat) == action
    assert web.post(path + "/withdraw", json={"seq": seq}, headers=bea).status_code == 200
    assert live.game.committed_action(seat) is None and seat in live.game.pending_seats


def test_a_token_past_its_calls_a_second_is_told_to_slow_down(db_url: str) -> None:
    with make(db_url, limits=Limits(bot_rate=0.01, bot_burst=3)) as web:
        (bea,) = bots(web, "Bea_Bot")
        codes = [web.get("/api/bot/account", headers=bea).status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        r = web.get("/api/bot/account", headers=bea)
        assert r.json()["error"] == "more than 0.01 calls a second with this token (bursts of 3): slow down"
        other = bots(web, "Other_Bot")[0]
        assert web.get("/api/bot/account", headers=other).status_code == 200  # per token


@pytest.mark.pg
def test_a_game_call_on_another_process_is_told_which(pg_database: str) -> None:
    """Two processes on one PostgreSQL: a challenge made on one is accepted on the other, whose
    shard runs the table; the first refuses the game's calls with ``wrong_process``."""
    from .conftest import _reset

    _reset(pg_database)
    with make(pg_database, prefix="a") as one, make(pg_database, prefix="b") as two:
        ann, bea = bots(one, "Ann_Bot", "Bea_Bot")
        made = challenge(one, "Bea_Bot", ann)
        assert two.get(f"/api/challenge/{made['id']}", headers=bea).json()["challenge"]["state"] == "open"
        table = two.post(f"/api/bot/challenge/{made['id']}/accept", json={}, headers=bea).json()["challenge"]["table"]
        assert table.startswith("b")
        stored = one.get(f"/api/tables/{table}").json()  # read from the database by the other process
        assert sorted(s.get("account_bot", False) for s in stored["seats"]) == [True, True]
        r = one.post(f"/api/bot/game/{table}/pick", json={"seq": 0, "pick": ["tempura"]}, headers=bea)
        assert r.status_code == 409 and r.json()["code"] == "wrong_process"
        r = one.get(f"/api/bot/game/{table}/stream", headers=bea)
        assert r.status_code == 409 and r.json()["code"] == "wrong_process"
