"""Play now (docs/server.md, "Play now"): the queue over HTTP, its matches, its
confirmations, its bots, its limits, and one queue for several processes.

The apps here tick only when a test says so (``queue_tick`` of an hour), at the
time the test names: a test never waits for the clock.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from sushigo.server import ratings
from sushigo.server.matchmaking import queue
from sushigo.server.matchmaking.queue import MISSES, MOVE_SECONDS, PER_ADDRESS, STALE
from sushigo.server.routes.accounts import COOKIE
from sushigo.server.schema import queue_t, ratings_t

from .conftest import ServerProcess, _reset
from .test_accounts import make, other, sign_up
from .test_protocol import hello, ws_path


def app(url: str, **kwargs: Any) -> TestClient:
    return make(url, queue_tick=3600.0, **kwargs)


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with app(db_url) as c:
        yield c


def tick(c: TestClient, at: float | None = None) -> list[Any]:
    """One round of the queue of ``c``'s app, as at time ``at``."""
    return list(c.portal.call(c.app.state.site.play.tick, at))


def join(c: TestClient, browser: TestClient | None = None, *, headers_cookie: str | None = None,
         **body: Any) -> dict[str, Any]:
    """A place taken on ``c``'s app by ``browser`` (default ``c``: its cookies go with the request;
    every request goes through ``c``, the client whose event loop runs the app); ``headers_cookie``:
    the Cookie header to send instead ("": a guest's)."""
    cookie = (browser or c).cookies.get(COOKIE)
    header = headers_cookie if headers_cookie is not None else f"{COOKIE}={cookie}" if cookie else None
    r = c.post("/api/play/join", json=body, headers={"cookie": header} if header is not None else {})
    assert r.status_code == 201, r.text
    return dict(r.json())


def status(c: TestClient, ticket: str) -> dict[str, Any]:
    r = c.post("/api/play/status", json={"ticket": ticket})
    assert r.status_code == 200, r.text
    return dict(r.json())


def confirm(c: TestClient, ticket: str) -> dict[str, Any]:
    r = c.post("/api/play/confirm", json={"ticket": ticket})
    assert r.status_code == 200, r.text
    return dict(r.json())


def rows(c: TestClient) -> dict[str, Any]:
    """The queue's rows by name."""
    with c.app.state.site.store.reading() as conn:
        return {r.name: r for r in conn.execute(select(queue_t))}


def rate(c: TestClient, account_name: str, shown: int, edition: str = "base") -> None:
    """Give an account a rating (as rated games would have)."""
    from sushigo.server.schema import accounts_t

    store = c.app.state.site.store
    with store.transaction() as conn:
        account = conn.execute(select(accounts_t.c.id).where(accounts_t.c.name == account_name)).scalar_one()
        mu = ratings.MU0 + (shown - ratings.SHOWN0) / ratings.SCALE
        conn.execute(ratings_t.insert().values(player=ratings.player_of("account", account), edition=edition,
                                               mu=mu, sigma=3.0, games=20, updated=time.time()))


# ------------------------------------------------------------------ as players use it


def test_two_guests_are_matched_confirm_and_sit_at_one_new_table(web: TestClient) -> None:
    ann = join(web, edition="base", sizes=[2], name="Ann")
    bob = join(web, edition="base", sizes=[2, 3], name="Bob")
    assert ann["state"] == bob["state"] == "waiting" and bob["waiting"] == 2
    assert web.get("/api/play").json()["waiting"] == {"base": 2, "party": 0}
    assert len(tick(web)) == 1
    seen = status(web, ann["ticket"])
    assert seen["state"] == "matched" and seen["people"] == ["Ann", "Bob"] and seen["bots"] == 0
    assert 0 < seen["confirm_in"] <= 20 and not seen["confirmed"]
    assert confirm(web, ann["ticket"])["confirmed"] is True
    assert status(web, ann["ticket"])["ready"] == 1
    seated = confirm(web, bob["ticket"])
    assert seated["state"] == "seated"
    mine = status(web, ann["ticket"])
    assert mine["state"] == "seated" and mine["table"] == seated["table"] and mine["url"] != seated["url"]
    table = web.get(f"/api/tables/{seated['table']}").json()
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Bob"] and table["timer"] == MOVE_SECONDS
    assert web.get("/api/play").json()["waiting"]["base"] == 0
    token = mine["url"].split("#seat=")[1]
    with web.websocket_connect(ws_path(seated["table"])) as ws:
        welcome, _ = hello(ws, token)
        assert table["seats"][welcome["seat"]]["name"] == "Ann"


def test_a_place_that_misses_goes_to_the_end_and_leaves_after_two_misses_the_confirmed_keep_theirs(
        db_url: str) -> None:
    with app(db_url, confirm_seconds=5.0) as web:
        ann = join(web, edition="base", sizes=[2], name="Ann")
        bob = join(web, edition="base", sizes=[2], name="Bob")
        start = time.time()
        tick(web, start)
        confirm(web, ann["ticket"])
        before = rows(web)
        tick(web, start + 6)  # Bob missed: Ann keeps her place, Bob goes to the end; they are matched again
        after = rows(web)
        assert after["Ann"].joined == before["Ann"].joined and after["Ann"].misses == 0
        assert after["Bob"].joined == pytest.approx(start + 6) and after["Bob"].misses == 1
        assert after["Ann"].state == after["Bob"].state == "matched"
        assert after["Ann"].match_id != before["Ann"].match_id and not after["Ann"].confirmed
        tick(web, start + 12)  # nobody confirmed: Bob's second miss in a row ends his place
        gone = status(web, bob["ticket"])
        assert gone["state"] == "gone" and f"did not confirm {MISSES} matches in a row" in gone["reason"]
        assert status(web, ann["ticket"])["state"] == "waiting"


def test_leaving_is_one_click_and_the_match_goes_back_to_waiting(web: TestClient) -> None:
    ann = join(web, edition="party", sizes=[2], name="Ann")
    bob = join(web, edition="party", sizes=[2], name="Bob")
    tick(web)
    before = rows(web)
    r = web.post("/api/play/leave", json={"ticket": bob["ticket"]})
    assert r.status_code == 200 and r.json() == {"state": "gone"}
    assert status(web, bob["ticket"])["reason"] == "you left the queue"
    mine = status(web, ann["ticket"])
    assert mine["state"] == "waiting" and rows(web)["Ann"].joined == before["Ann"].joined
    assert web.post("/api/play/confirm", json={"ticket": ann["ticket"]}).status_code == 409


def test_bots_near_the_players_rating_fill_the_empty_seats_after_the_chosen_wait(web: TestClient) -> None:
    ann = join(web, edition="base", sizes=[3], bots_after=15, name="Ann")
    now = time.time()
    assert tick(web, now + 10) == []
    [match] = tick(web, now + 16)
    assert (match.players, match.bots) == (3, 2)
    table = web.get(f"/api/tables/{confirm(web, ann['ticket'])['table']}").json()
    bots = sorted(s["bot"] for s in table["seats"] if s["kind"] == "bot")
    assert bots == ["flatmc", "learned"]  # 1550 and 1450 stand nearest a guest's 1500


def test_rated_accounts_meet_the_nearest_rating_and_a_weak_one_gets_weak_bots(db_url: str) -> None:
    with app(db_url) as web:
        players = {}
        for name, shown in (("Alice", 1500), ("Bruno", 1560), ("Chiyo", 2100), ("Dara", 1010)):
            browser = other(web)
            sign_up(browser, name, f"{name} password")
            rate(web, name, shown)
            players[name] = browser
        tickets = {name: join(web, b, edition="base", sizes=[2], rated=True, bots_after=30)["ticket"]
                   for name, b in players.items()}
        now = time.time()
        [match] = tick(web, now)
        assert sorted(r.name for r in rows(web).values() if r.state == "matched") == ["Alice", "Bruno"]
        assert match.rated
        assert status(web, tickets["Chiyo"])["state"] == "waiting"
        confirm(web, tickets["Alice"])
        assert confirm(web, tickets["Bruno"])["state"] == "seated"
        found = tick(web, now + 31)  # Chiyo and Dara are 1090 apart: bots, not each other
        assert sorted(m.bots for m in found) == [1, 1]
        seated = confirm(web, tickets["Dara"])
        table = web.get(f"/api/tables/{seated['table']}").json()
        assert table["rated"] and [s["bot"] for s in table["seats"] if s["kind"] == "bot"] == ["random"]


def test_a_guest_cannot_ask_for_rated_play_and_an_account_holds_one_place(web: TestClient) -> None:
    r = web.post("/api/play/join", json={"edition": "base", "rated": True, "name": "Ann"})
    assert r.status_code == 401 and "signed-in" in r.json()["error"]
    sign_up(web, "Alice", "alice password")
    first = join(web, edition="base")
    assert first["name"] == "Alice"
    second = join(web, edition="party")
    old = status(web, first["ticket"])
    assert old["state"] == "gone" and old["reason"] == "you joined the queue again elsewhere"
    assert status(web, second["ticket"])["state"] == "waiting"


def test_a_signed_in_player_finds_and_confirms_their_place_from_any_of_their_browsers(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    join(web, edition="base", sizes=[2])
    guest = join(web, edition="base", sizes=[2], name="Guest", headers_cookie="")
    phone = other(web)
    assert phone.post("/api/account/signin", json={"name": "Alice", "password": "alice password"}).status_code == 200
    from_phone = {"cookie": f"{COOKIE}={phone.cookies.get(COOKIE)}"}
    tick(web)
    r = web.post("/api/play/confirm", json={}, headers=from_phone)  # no ticket: the account's place
    assert r.status_code == 200 and r.json()["confirmed"] is True and r.json()["name"] == "Alice"
    seated = confirm(web, guest["ticket"])
    mine = web.post("/api/play/status", json={"ticket": None}, headers=from_phone).json()
    assert mine["state"] == "seated" and mine["table"] == seated["table"]
    r = web.post("/api/play/status", json={}, headers={"cookie": ""})
    assert r.status_code == 401 and r.json()["error"] == "say which place: send its ticket, or sign in"


def test_a_page_that_stops_asking_leaves_unless_its_device_gets_notifications(web: TestClient) -> None:
    quiet = join(web, edition="base", sizes=[5], name="Ann")
    notified = join(web, edition="base", sizes=[4], name="Bob", push=True)
    tick(web, time.time() + STALE + 1)
    left = status(web, quiet["ticket"])
    assert left["state"] == "gone" and left["reason"] == "the page stopped asking"
    assert status(web, notified["ticket"])["state"] in ("waiting", "matched")


# ------------------------------------------------------------------ what it refuses


@pytest.mark.parametrize(("body", "says"), [
    ({"edition": "chess", "name": "A"}, 'edition is "base" or "party"'),
    ({"edition": "base", "sizes": [6], "name": "A"}, "sizes: table sizes from 2 to 5"),
    ({"edition": "base", "sizes": [], "name": "A"}, "the body is"),
    ({"edition": "base", "bots_after": 1, "name": "A"}, "bots_after: from 5 to 600 seconds"),
    ({"edition": "base", "menu": "Master Menu", "name": "A"}, "the original game has no menu"),
    ({"edition": "party", "menu": "Sushi Party", "name": "A"}, "menu: one of My First Meal"),
    ({"edition": "party", "menu": "Master Menu", "sizes": [2], "name": "A"}, "Master Menu cannot be played by 2"),
    ({"edition": "base"}, "a guest needs a name to play"),
    ({"edition": "base", "name": "  "}, "name: the name is empty"),
    ({"edition": "base", "name": "A", "colour": "red"}, "the body is"),
])
def test_a_bad_place_gets_one_line(lite_web: TestClient, body: dict[str, Any], says: str) -> None:
    r = lite_web.post("/api/play/join", json=body)
    assert r.status_code == 400 and says in r.json()["error"] and "\n" not in r.json()["error"]


@pytest.fixture
def lite_web(sqlite_url: str) -> Iterator[TestClient]:
    with app(sqlite_url) as c:
        yield c


def test_a_place_is_its_tickets_only(lite_web: TestClient) -> None:
    ann = join(lite_web, edition="base", sizes=[2], name="Ann")
    join(lite_web, edition="base", sizes=[2], name="Bob")
    tick(lite_web)
    stranger = "x" + ann["ticket"][1:]
    for path in ("/api/play/status", "/api/play/confirm", "/api/play/leave"):
        r = lite_web.post(path, json={"ticket": stranger})
        assert r.status_code == 404 and "no place in the queue" in r.json()["error"]
    kept = rows(lite_web)["Ann"].ticket_hash
    assert kept == hashlib.sha256(ann["ticket"].encode()).digest()  # the database keeps a hash, not the ticket
    r = lite_web.post("/api/play/confirm", json={"ticket": ann["ticket"]}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = lite_web.post("/api/play/join", content="edition=base&name=A",
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert status(lite_web, ann["ticket"])["confirmed"] is False


@pytest.mark.slow
def test_a_burst_of_joins_from_one_address_holds_to_its_limit(tmp_path: Any) -> None:
    import httpx

    server = ServerProcess(f"sqlite:///{tmp_path / 'q.db'}")
    try:
        def one(i: int) -> int:
            return httpx.post(server.url + "/api/play/join", json={"edition": "base", "name": f"P{i}",
                                                                  "sizes": [5], "bots_after": 600}).status_code
        with ThreadPoolExecutor(20) as pool:
            codes = list(pool.map(one, range(20)))
        assert codes.count(201) == PER_ADDRESS and codes.count(429) == 20 - PER_ADDRESS
    finally:
        server.stop()


# ------------------------------------------------------------------ several processes on one PostgreSQL


@pytest.mark.pg
def test_two_processes_serve_one_queue(pg_url: str) -> None:
    with app(pg_url, prefix="a") as one, app(pg_url, prefix="b") as two:
        ann = join(one, edition="base", sizes=[2], name="Ann")
        bob = join(two, edition="base", sizes=[2], name="Bob")
        assert one.get("/api/play").json()["waiting"]["base"] == 2
        assert len(tick(two)) == 1
        assert status(one, ann["ticket"])["state"] == "matched"
        confirm(one, ann["ticket"])
        seated = confirm(two, bob["ticket"])  # the last confirmation: its process makes the table
        assert seated["state"] == "seated" and seated["table"].startswith("b")
        assert status(one, ann["ticket"])["table"] == seated["table"]


@pytest.mark.pg
def test_processes_ticking_at_once_never_seat_a_place_twice(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queue, "PER_ADDRESS", 100)  # 24 guests of one test address
    with app(pg_url, prefix="a") as one, app(pg_url, prefix="b") as two:
        for i in range(24):
            join(one if i % 2 else two, edition="base", sizes=[2, 3], name=f"P{i}", bots_after=600)
        start = threading.Barrier(2)
        now = time.time() + 20  # past the gathering time (and not yet stale): rounds seat tables of 2 or 3

        def rounds(c: TestClient) -> list[Any]:
            start.wait()
            return [m for _ in range(3) for m in tick(c, now)]
        with ThreadPoolExecutor(2) as pool:
            made = [m for found in pool.map(rounds, [one, two]) for m in found]
        seated = [p for m in made for p in m.members]
        assert len(seated) == len(set(seated)) == 24
        by_match: dict[str, set[str]] = {}
        for r in rows(one).values():
            by_match.setdefault(r.match_id, set()).add(r.id)
        assert sorted(len(v) for v in by_match.values()) == sorted(len(m.members) for m in made)


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """This worker's PostgreSQL database, emptied."""
    _reset(pg_database)
    return pg_database
