"""Accounts (docs/server.md, "Accounts"): signing up, in and out, recovery,
a new password, deleting; what the database keeps; and the attacks: guessing
(the limits, under parallel requests too), session fixation, a stolen or
ended session, forged cross-site requests, one account acting for another.

Passwords are hashed with cheap Argon2 parameters here (the same algorithm;
``sushigo serve`` uses argon2-cffi's defaults), except in the real server
process of the burst tests.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from sushigo.server.accounts import CODES, WRONG, AccountLimits
from sushigo.server.app import create_app
from sushigo.server.routes.accounts import COOKIE
from sushigo.server.schema import accounts_t, recovery_codes_t, sessions_t
from sushigo.server.store import Store

from .conftest import ServerProcess

CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2id with test-sized costs."""

CODE = re.compile(r"[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}")


def make(url: str, base_url: str = "http://testserver", **kwargs: Any) -> TestClient:
    return TestClient(create_app(url, password_hasher=CHEAP, **kwargs), base_url=base_url)


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def sign_up(c: TestClient, name: str = "Maki_Fan", password: str = "correct horse") -> dict[str, Any]:
    r = c.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


def me(c: TestClient) -> str | None:
    r = c.get("/api/account")
    assert r.status_code == 200, r.text
    account = r.json()["account"]
    return None if account is None else account["name"]


def plant(c: TestClient, value: str) -> None:
    """Give browser ``c`` the session cookie ``value`` (in place of any it has), as the server would."""
    c.cookies.clear()
    c.cookies.set(COOKIE, value, domain="testserver.local")


def other(c: TestClient) -> TestClient:
    """A second browser on the same app (its own cookies)."""
    return TestClient(c.app, base_url=str(c.base_url))


# ------------------------------------------------------------------ as a person uses it


def test_sign_up_signs_in_and_shows_ten_recovery_codes_once(web: TestClient) -> None:
    assert me(web) is None  # a guest
    made = sign_up(web)
    assert made["account"]["name"] == "Maki_Fan"
    codes = made["recovery_codes"]
    assert len(codes) == CODES == len(set(codes)) and all(CODE.fullmatch(c) for c in codes)
    assert me(web) == "Maki_Fan"
    assert "recovery_codes" not in web.get("/api/account").json()  # shown at sign-up only


def test_the_session_cookie_is_http_only_lax_and_secure_over_https(db_url: str) -> None:
    with make(db_url) as c:
        r = c.post("/api/account/signup", json={"name": "Plain", "password": "correct horse"})
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # a LAN server over plain HTTP must still sign people in
    with make(db_url, base_url="https://testserver") as c:
        r = c.post("/api/account/signup", json={"name": "Tls", "password": "correct horse"})
        assert "Secure" in r.headers["set-cookie"]


def test_sign_out_ends_the_session_on_the_server(web: TestClient) -> None:
    sign_up(web)
    stolen = web.cookies[COOKIE]
    assert web.post("/api/account/signout").json() == {"account": None}
    assert me(web) is None
    thief = other(web)
    plant(thief, stolen)
    assert me(thief) is None  # the old cookie signs nobody in any more


def test_sign_in_by_name_in_any_case_and_from_a_second_browser(web: TestClient) -> None:
    sign_up(web)
    second = other(web)
    r = second.post("/api/account/signin", json={"name": "MAKI_fan", "password": "correct horse"})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Maki_Fan"
    assert me(second) == "Maki_Fan" and me(web) == "Maki_Fan"  # two sessions at once
    assert second.cookies[COOKIE] != web.cookies[COOKIE]


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(web: TestClient) -> None:
    sign_up(web)
    web.post("/api/account/signout")
    wrong = web.post("/api/account/signin", json={"name": "Maki_Fan", "password": "wrong horse"})
    nobody = web.post("/api/account/signin", json={"name": "Nobody", "password": "wrong horse"})
    assert (wrong.status_code, wrong.json()) == (nobody.status_code, nobody.json()) == (401, {"error": WRONG})
    assert COOKIE not in web.cookies


@pytest.mark.parametrize(("name", "password", "says"), [
    ("ab", "correct horse", "3 to 20"),
    ("a" * 21, "correct horse", "3 to 20"),
    ("_under", "correct horse", "starting with a letter"),
    ("has space", "correct horse", "3 to 20"),
    ("Pokémon", "correct horse", "3 to 20"),
    ("Greedy", "correct horse", "reserved"),
    ("ADMIN", "correct horse", "reserved"),
    ("Fine_Name", "short", "8 to 256"),
    ("Fine_Name", "x" * 257, "8 to 256"),
    ("Fine_Name", "fine_name", "cannot be the account's name"),
])
def test_names_and_passwords_that_cannot_be_used(lite: TestClient, name: str, password: str, says: str) -> None:
    r = lite.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 400 and says in r.json()["error"], r.text
    assert "\n" not in r.json()["error"] and COOKIE not in lite.cookies


@pytest.fixture
def lite(sqlite_url: str) -> Iterator[TestClient]:
    with make(sqlite_url) as c:
        yield c


def test_a_name_is_one_account_whatever_its_case(web: TestClient) -> None:
    sign_up(web, "Nigiri")
    r = other(web).post("/api/account/signup", json={"name": "NIGIRI", "password": "another pass"})
    assert r.status_code == 409 and r.json() == {"error": "the name 'NIGIRI' is taken"}


def test_a_new_password_ends_every_other_session(web: TestClient) -> None:
    sign_up(web)
    second = other(web)
    second.post("/api/account/signin", json={"name": "Maki_Fan", "password": "correct horse"})
    before = web.cookies[COOKIE]
    r = web.post("/api/account/password", json={"password": "correct horse", "new_password": "battery staple"})
    assert r.status_code == 200, r.text
    assert web.cookies[COOKIE] != before and me(web) == "Maki_Fan"  # a new session here
    assert me(second) is None  # the other browser is signed out
    old = other(web).post("/api/account/signin", json={"name": "Maki_Fan", "password": "correct horse"})
    assert old.status_code == 401
    new = other(web).post("/api/account/signin", json={"name": "Maki_Fan", "password": "battery staple"})
    assert new.status_code == 200


def test_a_new_password_needs_the_old_one_and_a_good_new_one(web: TestClient) -> None:
    sign_up(web)
    r = web.post("/api/account/password", json={"password": "wrong horse", "new_password": "battery staple"})
    assert (r.status_code, r.json()) == (401, {"error": "wrong password"})
    r = web.post("/api/account/password", json={"password": "correct horse", "new_password": "short"})
    assert r.status_code == 400 and "8 to 256" in r.json()["error"]
    guest = other(web)
    r = guest.post("/api/account/password", json={"password": "correct horse", "new_password": "battery staple"})
    assert (r.status_code, r.json()) == (401, {"error": "you are not signed in"})


def test_a_recovery_code_works_once_and_ends_every_other_session(web: TestClient) -> None:
    codes = sign_up(web)["recovery_codes"]
    lost = other(web)
    typed = " " + codes[3].lower().replace("-", " ") + " "  # as a person types it
    r = lost.post("/api/account/recover", json={"name": "maki_fan", "code": typed, "new_password": "new pass 1"})
    assert r.status_code == 200, r.text
    assert r.json()["recovery_codes_left"] == CODES - 1
    assert me(lost) == "Maki_Fan" and me(web) is None  # the old browser's session ended
    again = other(web).post("/api/account/recover",
                            json={"name": "Maki_Fan", "code": codes[3], "new_password": "new pass 2"})
    assert (again.status_code, again.json()) == (401, {"error": "wrong name or recovery code"})
    signed = other(web).post("/api/account/signin", json={"name": "Maki_Fan", "password": "new pass 1"})
    assert signed.status_code == 200


def test_a_bad_new_password_does_not_use_up_the_code(web: TestClient) -> None:
    codes = sign_up(web)["recovery_codes"]
    lost = other(web)
    r = lost.post("/api/account/recover", json={"name": "Maki_Fan", "code": codes[0], "new_password": "short"})
    assert r.status_code == 400
    r = lost.post("/api/account/recover", json={"name": "Maki_Fan", "code": codes[0], "new_password": "long enough"})
    assert r.status_code == 200 and r.json()["recovery_codes_left"] == CODES - 1


def test_new_recovery_codes_replace_the_old_ones(web: TestClient) -> None:
    old = sign_up(web)["recovery_codes"]
    r = web.post("/api/account/codes", json={"password": "correct horse"})
    assert r.status_code == 200
    new = r.json()["recovery_codes"]
    assert len(new) == CODES and not set(new) & set(old)
    lost = other(web)
    dead = lost.post("/api/account/recover", json={"name": "Maki_Fan", "code": old[0], "new_password": "new pass 1"})
    assert dead.status_code == 401
    live = lost.post("/api/account/recover", json={"name": "Maki_Fan", "code": new[0], "new_password": "new pass 1"})
    assert live.status_code == 200


def test_deleting_an_account_needs_its_password_and_frees_its_name(web: TestClient) -> None:
    sign_up(web)
    second = other(web)
    second.post("/api/account/signin", json={"name": "Maki_Fan", "password": "correct horse"})
    r = web.post("/api/account/delete", json={"password": "wrong horse"})
    assert r.status_code == 401 and me(web) == "Maki_Fan"
    r = web.post("/api/account/delete", json={"password": "correct horse"})
    assert r.json() == {"deleted": "Maki_Fan", "account": None}
    assert me(web) is None and me(second) is None
    r = other(web).post("/api/account/signin", json={"name": "Maki_Fan", "password": "correct horse"})
    assert r.status_code == 401
    sign_up(other(web), "maki_fan", "a new owner")  # the name is free again


# ------------------------------------------------------------------ what is kept


def test_the_database_keeps_no_password_session_or_code_in_clear(db_url: str) -> None:
    with make(db_url) as c:
        codes = sign_up(c, "Kept", "correct horse")["recovery_codes"]
        cookie = c.cookies[COOKIE]
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            account = conn.execute(select(accounts_t)).one()
            sessions = conn.execute(select(sessions_t)).all()
            kept_codes = conn.execute(select(recovery_codes_t)).all()
    finally:
        store.close()
    assert account.password_hash.startswith("$argon2id$") and "correct horse" not in account.password_hash
    assert len(sessions) == 1 and sessions[0].token_hash != cookie.encode()
    assert len(sessions[0].token_hash) == 32
    assert len(kept_codes) == CODES
    assert not {bytes(k.code_hash) for k in kept_codes} & {c.replace("-", "").encode() for c in codes}


def test_a_hash_made_with_other_parameters_is_redone_at_sign_in(sqlite_url: str) -> None:
    with make(sqlite_url) as c:
        sign_up(c, "Rehash", "correct horse")
    stronger = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    with TestClient(create_app(sqlite_url, password_hasher=stronger), base_url="http://testserver") as c:
        assert c.post("/api/account/signin", json={"name": "Rehash", "password": "correct horse"}).status_code == 200
    store = Store(sqlite_url)
    try:
        with store.engine.connect() as conn:
            stored = conn.execute(select(accounts_t.c.password_hash)).scalar_one()
    finally:
        store.close()
    assert not stronger.check_needs_rehash(stored) and "t=2" in stored


# ------------------------------------------------------------------ attacks


def test_session_fixation_a_cookie_chosen_beforehand_is_never_adopted(web: TestClient) -> None:
    planted = "attacker-chose-this-value"
    plant(web, planted)
    sign_up(web)
    assert web.cookies[COOKIE] != planted
    victim_cookie = web.cookies[COOKIE]
    attacker = other(web)
    plant(attacker, planted)
    assert me(attacker) is None
    web.post("/api/account/signout")
    plant(web, planted)
    web.post("/api/account/signin", json={"name": "Maki_Fan", "password": "correct horse"})
    assert web.cookies[COOKIE] not in (planted, victim_cookie)


def test_one_account_cannot_act_for_another(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    bob = other(web)
    sign_up(bob, "Bob_1", "bob password")
    # Bob's session with Alice's password: the routes act on the session's own account only
    r = bob.post("/api/account/delete", json={"password": "alice password"})
    assert (r.status_code, r.json()) == (401, {"error": "wrong password"})
    r = bob.post("/api/account/password", json={"password": "alice password", "new_password": "taken over"})
    assert r.status_code == 401
    assert me(web) == "Alice" and me(bob) == "Bob_1"
    assert web.post("/api/account/signout").status_code == 200 and me(bob) == "Bob_1"


@pytest.mark.parametrize("headers", [
    {"origin": "http://evil.example"},
    {"sec-fetch-site": "cross-site"},
    {"referer": "http://evil.example/page"},
])
@pytest.mark.parametrize("path", ["/api/account/signin", "/api/account/password", "/api/account/delete",
                                  "/api/account/signout", "/api/account/codes"])
def test_another_sites_page_cannot_act(lite: TestClient, headers: dict[str, str], path: str) -> None:
    sign_up(lite, "Victim", "correct horse")
    body = {"name": "Victim", "password": "correct horse", "new_password": "stolen password"}
    r = lite.post(path, json=body, headers=headers)
    assert r.status_code == 403 and r.json()["error"].startswith("cross-site request refused")
    assert me(lite) == "Victim"
    assert lite.post("/api/account/signin", json={"name": "Victim", "password": "correct horse"}).status_code == 200


def test_a_form_post_is_refused_even_from_a_page_of_ours(lite: TestClient) -> None:
    sign_up(lite)
    r = lite.post("/api/account/delete", content=b"password=correct+horse",
                  headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and me(lite) == "Maki_Fan"
    r = lite.post("/api/account/delete", content=b'{"password": "correct horse"}',
                  headers={"content-type": "text/plain"})
    assert r.status_code == 415 and me(lite) == "Maki_Fan"


@pytest.mark.parametrize(("body", "status"), [
    (b"{", 400),
    (b"[]", 400),
    (b'{"name": "x"}', 400),
    (b'{"name": 5, "password": "correct horse"}', 400),
    (b'{"name": "Maki_Fan", "password": "correct horse", "admin": true}', 400),
    (b'{"name": "Maki_Fan", "password": "' + b"p" * 9000 + b'"}', 413),
])
def test_bad_bodies_get_one_line(lite: TestClient, body: bytes, status: int) -> None:
    r = lite.post("/api/account/signin", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]


def test_guessing_one_account_is_stopped_even_with_the_right_password(sqlite_url: str) -> None:
    limits = AccountLimits(attempts_per_account=3, attempts_per_address=100)
    with make(sqlite_url, account_limits=limits) as c:
        sign_up(c)
        c.post("/api/account/signout")
        for _ in range(3):
            assert c.post("/api/account/signin", json={"name": "Maki_Fan", "password": "guess"}).status_code == 401
        r = c.post("/api/account/signin", json={"name": "maki_fan", "password": "correct horse"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
        assert "this account" in r.json()["error"]


def test_a_right_password_does_not_count_against_the_limit(sqlite_url: str) -> None:
    with make(sqlite_url, account_limits=AccountLimits(attempts_per_account=2)) as c:
        sign_up(c)
        for _ in range(5):
            r = c.post("/api/account/signin", json={"name": "Maki_Fan", "password": "correct horse"})
            assert r.status_code == 200


async def _burst(url: str, path: str, bodies: list[dict[str, Any]]) -> list[int]:
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        answers = await asyncio.gather(*(http.post(path, json=b) for b in bodies))
    return [a.status_code for a in answers]


@pytest.fixture(scope="module")
def real_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('accounts') / 'games.db'}")
    yield server
    server.stop()


def test_a_burst_of_parallel_guesses_is_held_to_the_account_limit(real_server: ServerProcess) -> None:
    import httpx

    name = "Burst_Target"
    r = httpx.post(real_server.url + "/api/account/signup", json={"name": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    limit = AccountLimits().attempts_per_account
    codes = asyncio.run(_burst(real_server.url, "/api/account/signin",
                               [{"name": name, "password": f"guess {i}"} for i in range(40)]))
    assert codes.count(401) == limit and codes.count(429) == 40 - limit


def test_a_burst_of_sign_ups_of_one_name_makes_one_account(real_server: ServerProcess) -> None:
    codes = asyncio.run(_burst(real_server.url, "/api/account/signup",
                               [{"name": "Same_Name", "password": f"password {i}"} for i in range(8)]))
    assert codes.count(201) == 1 and codes.count(409) == 7, codes
