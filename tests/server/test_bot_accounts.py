"""Bot accounts and their API tokens (docs/bot-api.md, "Bot accounts"): who may
become a bot, tokens shown once and kept hashed, revoked at once, and what a
stranger, another site or a burst of requests gets."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from sushigo.server.accounts import MAX_TOKENS, TOKEN_PREFIX
from sushigo.server.schema import api_tokens_t

from .conftest import ServerProcess, create, tokens
from .test_account_seats import socket
from .test_accounts import make, other, sign_up
from .test_protocol import hello

PASSWORD = "robot password"


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def make_bot(c: TestClient, name: str = "Maki_Bot") -> None:
    sign_up(c, name, PASSWORD)
    r = c.post("/api/account/bot", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    assert r.json()["account"]["bot"] is True


def new_token(c: TestClient, label: str = "laptop") -> dict[str, str]:
    r = c.post("/api/account/tokens", json={"password": PASSWORD, "label": label})
    assert r.status_code == 201, r.text
    return dict(r.json())


def as_bot(c: TestClient, token: str) -> int:
    return c.get("/api/bot/account", headers={"Authorization": f"Bearer {token}"}).status_code


def test_an_account_becomes_a_bot_and_its_token_opens_the_bot_api(web: TestClient) -> None:
    make_bot(web)
    assert web.get("/api/account").json()["account"]["bot"] is True
    assert web.get("/api/players/Maki_Bot").json()["bot"] is True
    made = new_token(web)
    assert made["token"].startswith(TOKEN_PREFIX) and made["label"] == "laptop"
    r = web.get("/api/bot/account", headers={"Authorization": f"Bearer {made['token']}"})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Maki_Bot" and r.json()["account"]["bot"]
    listed = web.get("/api/account/tokens").json()["tokens"]
    assert [t["id"] for t in listed] == [made["id"]] and "token" not in listed[0] and listed[0]["used"]
    with web.app.state.site.store.reading() as conn:
        kept = conn.execute(select(api_tokens_t.c.token_hash)).scalar_one()
    assert kept == hashlib.sha256(made["token"].encode()).digest()  # the hash, never the token


def test_a_bot_account_does_not_queue_as_a_person(web: TestClient) -> None:
    make_bot(web)
    r = web.post("/api/play/join", json={"edition": "base"})
    assert r.status_code == 403 and "bot API" in r.json()["error"]


def test_a_revoked_token_opens_nothing_from_the_next_request(web: TestClient) -> None:
    make_bot(web)
    first, second = new_token(web, "one"), new_token(web, "two")
    assert as_bot(web, first["token"]) == as_bot(web, second["token"]) == 200
    r = web.post("/api/account/tokens/revoke", json={"id": first["id"]})
    assert r.status_code == 200 and r.json() == {"revoked": first["id"]}
    assert as_bot(web, first["token"]) == 401 and as_bot(web, second["token"]) == 200
    assert web.post("/api/account/tokens/revoke", json={"id": first["id"]}).status_code == 404


def test_who_may_become_a_bot_and_hold_tokens(web: TestClient) -> None:
    sign_up(web, "Human", "human password")
    r = web.post("/api/account/tokens", json={"password": "human password", "label": "x"})
    assert r.status_code == 403 and "only a bot account" in r.json()["error"]
    made = create(web, players=2, seats=["human", "bot:random"])
    with socket(web, made["id"]) as ws:
        hello(ws, tokens(made)[0])
    r = web.post("/api/account/bot", json={"password": "human password"})
    assert r.status_code == 409 and "has played" in r.json()["error"]
    guest = other(web)
    assert guest.post("/api/account/bot", json={"password": "x" * 8}).status_code == 401
    make_bot(guest, "Fresh_Bot")
    assert guest.post("/api/account/bot", json={"password": PASSWORD}).status_code == 409  # a bot already
    r = guest.post("/api/account/bot", json={"password": "wrong password"})
    assert r.status_code == 401 and r.json()["error"] == "wrong password"


def test_a_strangers_token_another_site_and_bad_bodies_get_one_line(web: TestClient) -> None:
    make_bot(web)
    mine = new_token(web)
    for header in ("", "Bearer", "Bearer sgb_nothing", f"Basic {mine['token']}", f"Bearer {mine['token']}x",
                   "Bearer " + "sgb_" + "a" * 200):
        r = web.get("/api/bot/account", headers={"Authorization": header} if header else {})
        assert r.status_code == 401 and "\n" not in r.json()["error"], header
    stranger = other(web)
    sign_up(stranger, "Stranger", "stranger password")
    assert stranger.post("/api/account/tokens/revoke", json={"id": mine["id"]}).status_code == 404
    assert stranger.get("/api/account/tokens").json() == {"tokens": []}
    assert as_bot(web, mine["token"]) == 200  # a stranger cannot revoke it
    r = web.post("/api/account/tokens", json={"password": PASSWORD, "label": "x"},
                 headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = web.post("/api/account/tokens", content=f'{{"password": "{PASSWORD}", "label": "x"}}',
                 headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    for body, says in (({"password": PASSWORD}, "the body is"), ({"password": PASSWORD, "label": " "}, "label"),
                       ({"password": "wrong one!", "label": "x"}, "wrong password")):
        r = web.post("/api/account/tokens", json=body)
        assert r.status_code in (400, 401) and says in r.json()["error"], body


def test_a_burst_of_new_tokens_holds_to_the_limit(tmp_path: object) -> None:
    import httpx

    server = ServerProcess(f"sqlite:///{tmp_path}/bots.db")
    try:
        signed = httpx.post(server.url + "/api/account/signup", json={"name": "Burst_Bot", "password": PASSWORD})
        cookies = {"sushigo_session": signed.cookies["sushigo_session"]}
        assert httpx.post(server.url + "/api/account/bot", json={"password": PASSWORD}, cookies=cookies).is_success

        def one(i: int) -> int:
            return httpx.post(server.url + "/api/account/tokens", json={"password": PASSWORD, "label": f"t{i}"},
                              cookies=cookies).status_code
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(one, range(12)))
        assert codes.count(201) == MAX_TOKENS and codes.count(409) == 12 - MAX_TOKENS
    finally:
        server.stop()
