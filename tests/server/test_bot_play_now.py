"""Bot accounts in play now (docs/bot-api.md, "Play now"): a bot's place takes a bot seat
of a people's match that offers bots, never makes a table of its own, keeps to what it asked
for, stays while its event stream is open; its seat is its account's at the new table.

The apps tick only when a test says so, at the time the test names (as in test_play_now.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from sushigo.server.accounts.credentials import secret_hash
from sushigo.server.schema import queue_t

from .test_accounts import sign_up
from .test_challenges import bot_account, bots
from .test_play_now import app, confirm, join, rows, status, tick


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with app(db_url) as c:
        yield c


def queue_bot(c: TestClient, headers: dict[str, str], status_code: int = 201, **body: Any) -> dict[str, Any]:
    r = c.post("/api/bot/queue", json=body, headers=headers)
    assert r.status_code == status_code, r.text
    return dict(r.json())


def guest(c: TestClient, name: str, **body: Any) -> dict[str, Any]:
    """A guest's place (no cookie), bots after 5 seconds unless said."""
    return join(c, headers_cookie="", name=name, **{"edition": "base", "bots_after": 5, **body})


def bot_place(c: TestClient, headers: dict[str, str]) -> dict[str, Any]:
    r = c.get("/api/bot/queue", headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_bot_account_takes_a_bot_seat_and_its_event_stream_says_so(web: TestClient) -> None:
    (deep,) = bots(web, "Deep_Bot")
    mine = queue_bot(web, deep, edition="base", sizes=[3])
    assert mine["state"] == "waiting" and mine["name"] == "Deep_Bot"
    assert web.get("/api/play").json()["waiting"]["base"] == 0  # the lobby counts people
    ann = guest(web, "Ann", sizes=[3])
    start = time.time()
    assert tick(web, start) == []  # Ann has not waited 5 seconds: no bots yet
    (match,) = tick(web, start + 6)
    assert match.bots == 2 and len(match.bot_accounts) == 1
    seen = status(web, ann["ticket"])
    assert seen["state"] == "matched" and seen["people"] == ["Ann"] and seen["bots"] == 2
    assert seen["bot_accounts"] == ["Deep_Bot"] and seen["ready"] == 0
    theirs = bot_place(web, deep)
    assert theirs["state"] == "matched" and theirs["confirmed"] is True  # a bot is ready from the start
    seated = confirm(web, ann["ticket"])
    assert seated["state"] == "seated"
    table = web.get(f"/api/tables/{seated['table']}").json()
    assert table["status"] == "playing"  # every seat named: the game starts
    by_kind = sorted((s["kind"], s.get("account") or "", s.get("account_bot", False)) for s in table["seats"])
    assert by_kind[0][0] == "bot" and by_kind[1:] == [("human", "", False), ("human", "Deep_Bot", True)]
    assert bot_place(web, deep)["state"] == "seated"
    site = web.app.state.site  # type: ignore[attr-defined]
    told: dict[str, str] = {}
    (start_event,) = [e for e in site.challenges.events(bot_account(web, "Deep_Bot"), told) if e["type"] == "gameStart"]
    assert start_event["game"]["id"] == seated["table"] and start_event["game"]["players"] == 3


def test_a_bot_account_never_makes_a_table_of_its_own(web: TestClient) -> None:
    deep, maki = bots(web, "Deep_Bot", "Maki_Bot")
    queue_bot(web, deep, edition="base")
    queue_bot(web, maki, edition="base")
    assert tick(web, time.time() + 40) == []  # long past any wait for bots (their streams kept them)
    assert {r.state for r in rows(web).values()} == {"waiting"}


@pytest.mark.parametrize(("asked", "wanted", "takes"), [
    ({"edition": "party"}, {"edition": "base"}, False),  # another edition
    ({"edition": "base", "sizes": [2]}, {"edition": "base", "sizes": [4]}, False),  # another size
    ({"edition": "base"}, {"edition": "base", "rated": True}, False),  # casual only
    ({"edition": "base", "rated": True}, {"edition": "base", "rated": True}, True),  # rated tables too
    ({"edition": "base", "rated": True}, {"edition": "base"}, True),  # ... and casual ones
])
def test_a_bot_account_takes_only_what_it_asked_for(web: TestClient, asked: dict[str, Any],
                                                     wanted: dict[str, Any], takes: bool) -> None:
    (deep,) = bots(web, "Deep_Bot")
    queue_bot(web, deep, **asked)
    sign_up(web, "Ann")  # rated play is for accounts: the client is signed in as Ann from here
    join(web, bots_after=5, **{"sizes": [2], **wanted})
    (match,) = tick(web, time.time() + 6)
    assert match.bot_accounts == ((rows(web)["Deep_Bot"].id,) if takes else ())


def test_the_nearest_rating_takes_the_seat_and_the_house_fills_the_rest(web: TestClient) -> None:
    from .test_play_now import rate

    near, far = bots(web, "Near_Bot", "Far_Bot")
    rate(web, "Near_Bot", 1480)
    rate(web, "Far_Bot", 2200)
    queue_bot(web, far, edition="base", sizes=[2])
    queue_bot(web, near, edition="base", sizes=[2])
    ann = guest(web, "Ann", sizes=[2])  # a guest: 1500
    (match,) = tick(web, time.time() + 6)
    assert match.bot_accounts == (rows(web)["Near_Bot"].id,)
    seated = confirm(web, ann["ticket"])
    names = sorted(s["name"] for s in web.get(f"/api/tables/{seated['table']}").json()["seats"])
    assert names == ["Ann", "Near_Bot"]
    assert bot_place(web, far)["state"] == "waiting"


def test_a_missed_confirmation_sends_the_bot_back_to_waiting(db_url: str) -> None:
    with app(db_url, confirm_seconds=5.0) as web:
        (deep,) = bots(web, "Deep_Bot")
        queue_bot(web, deep, edition="base", sizes=[2])
        guest(web, "Ann", sizes=[2])
        start = time.time()
        tick(web, start + 6)
        assert bot_place(web, deep)["state"] == "matched"
        tick(web, start + 12)  # Ann did not confirm
        again = bot_place(web, deep)
        assert again["state"] in ("waiting", "matched")  # kept its place (and may be matched again at once)
        assert rows(web)["Deep_Bot"].misses == 0


def _set_seen(c: TestClient, name: str, seen: float) -> None:
    with c.app.state.site.store.transaction() as conn:  # type: ignore[attr-defined]
        conn.execute(update(queue_t).where(queue_t.c.name == name).values(seen=seen))


def test_an_open_event_stream_keeps_the_bots_place_and_a_closed_one_lets_it_go(web: TestClient) -> None:
    (deep,) = bots(web, "Deep_Bot")
    queue_bot(web, deep, edition="base")
    site = web.app.state.site  # type: ignore[attr-defined]
    long_ago = time.time() - 1000
    _set_seen(web, "Deep_Bot", long_ago)

    async def follow_until_kept() -> bool:
        """Hold an event stream (the process's shared look) until it has kept the place."""
        digest = secret_hash(deep["Authorization"].split()[1])
        async with site.bot_events.follow(bot_account(web, "Deep_Bot"), digest):
            for _ in range(200):
                if rows(web)["Deep_Bot"].seen > long_ago:
                    return True
                await asyncio.sleep(0.05)
        return False

    assert web.portal.call(follow_until_kept)
    tick(web, time.time() + 1)
    assert rows(web)["Deep_Bot"].state == "waiting"
    _set_seen(web, "Deep_Bot", long_ago)  # and no stream since
    tick(web, time.time() + 1)
    assert web.get("/api/bot/queue", headers=deep).status_code == 404
    assert rows(web)["Deep_Bot"].reason == "the bot's event stream closed"


def test_leaving_a_match_with_a_bot_either_way(web: TestClient) -> None:
    (deep,) = bots(web, "Deep_Bot")
    queue_bot(web, deep, edition="base", sizes=[2])
    ann = guest(web, "Ann", sizes=[2])
    tick(web, time.time() + 6)
    assert web.post("/api/bot/queue/leave", json={}, headers=deep).json() == {"left": True}
    assert status(web, ann["ticket"])["state"] == "waiting"  # back to waiting, her place kept
    (match,) = tick(web, time.time() + 6)
    assert match.bot_accounts == ()  # house bots now
    queue_bot(web, deep, edition="base", sizes=[2])
    assert web.post("/api/play/leave", json={"ticket": ann["ticket"]}).status_code == 200
    bob = guest(web, "Bob", sizes=[2])
    (match,) = tick(web, time.time() + 6)
    assert match.bot_accounts == (rows(web)["Deep_Bot"].id,)
    seated = confirm(web, bob["ticket"])
    assert seated["state"] == "seated" and bot_place(web, deep)["state"] == "seated"
    r = web.post("/api/bot/queue/leave", json={}, headers=deep)
    assert r.status_code == 409 and r.json()["error"] == "this place has its seat already: too late to leave it"


def test_joining_leaving_and_what_is_refused(web: TestClient) -> None:
    (deep,) = bots(web, "Deep_Bot")
    assert web.post("/api/bot/queue", json={"edition": "base"}).status_code == 401  # a cookie is not a token
    assert "any menu" in queue_bot(web, deep, 400, edition="party", menu="Master Menu")["error"]
    assert "sizes" in queue_bot(web, deep, 400, edition="base", sizes=[9])["error"]
    assert "edition" in queue_bot(web, deep, 400, edition="chess")["error"]
    queue_bot(web, deep, edition="base")
    assert "holds a place already" in queue_bot(web, deep, 409, edition="party")["error"]
    assert web.post("/api/bot/queue/leave", json={}, headers=deep).json() == {"left": True}
    assert web.get("/api/bot/queue", headers=deep).status_code == 404
    assert queue_bot(web, deep, edition="party")["edition"] == "party"  # and again
    # a person's page cannot take a bot's place: /api/play/join refuses a bot account
    assert web.post("/api/play/join", json={"edition": "base"}).status_code == 403


def test_parallel_joins_of_one_bot_hold_one_place(web: TestClient) -> None:
    (deep,) = bots(web, "Deep_Bot")
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: web.post("/api/bot/queue", json={"edition": "base"}, headers=deep)
                              .status_code, range(8)))
    assert sorted(codes) == [201] + [409] * 7
    assert len([r for r in rows(web).values() if r.state == "waiting"]) == 1
