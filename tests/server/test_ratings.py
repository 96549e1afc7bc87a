"""Ratings (docs/server.md, "Ratings"): a rated table seats signed-in players
only and has no seed, hints or lesson; each finished rated game updates every
seat's rating once, recomputed here independently from the stored records
(the engine's result of each replayed game, openskill's Plackett-Luce model,
the random bot held at its anchor); unrated and cancelled tables change
nothing; the leaderboards and the history follow."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from sushigo.engine.editions import edition_for, replay
from sushigo.server import ratings

from .conftest import create, tokens
from .test_account_seats import socket
from .test_accounts import make, other, sign_up
from .test_players import play
from .test_protocol import error_code, send


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def places(record: dict[str, Any]) -> list[float]:
    """Each seat's place from the engine's own result of the replayed game: ahead on
    points, then on the tie-break; seats still level share their places."""
    game = replay(record)
    result = game.result()
    keys = list(zip(result.totals, edition_for(game).tiebreak(result)))
    return [sum(k > me for k in keys) + (sum(k == me for k in keys) + 1) / 2 for me in keys]


def recomputed(records: list[tuple[list[str], dict[str, Any]]]) -> dict[str, tuple[float, float]]:
    """Every player's (mu, sigma) from the games in order, straight from openskill."""
    model = PlackettLuce()
    now: dict[str, Any] = {}
    for players, record in records:
        teams = []
        for p in players:
            if p == ratings.ANCHOR:
                teams.append([model.rating(mu=ratings.ANCHOR_MU, sigma=ratings.ANCHOR_SIGMA)])
            else:
                teams.append([now.get(p, model.rating())])
        rated = model.rate(teams, ranks=places(record))
        for p, team in zip(players, rated):
            if p != ratings.ANCHOR and players.count(p) == 1:
                now[p] = team[0]
    return {p: (float(r.mu), float(r.sigma)) for p, r in now.items()}


def test_a_rated_table_has_no_seed_hints_or_lesson(web: TestClient) -> None:
    for extra in ({"seed": 3}, {"hints": True}, {"learn": True}):
        r = web.post("/api/tables", json={"players": 2, "seats": ["human", "bot:random"], "rated": True, **extra})
        assert r.status_code == 400 and "rated" in r.json()["error"], r.text
    made = create(web, players=2, seats=["human", "bot:random"], rated=True)
    assert made["table"]["rated"] is True


def test_a_rated_table_seats_signed_in_players_only_and_each_once(web: TestClient) -> None:
    made = create(web, players=3, seats=["human", "human", "bot:random"], rated=True)
    with socket(web, made["id"], other(web)) as ws:  # a guest
        send(ws, type="hello", token=tokens(made)[0], name="Guest", last_seq=None)
        assert error_code(ws) == "needs_account"
    sign_up(web, "Alice", "alice password")
    with socket(web, made["id"]) as ws:
        send(ws, type="hello", token=tokens(made)[0], name=None, last_seq=None)
        assert ws.receive_json()["type"] == "welcome"
    with socket(web, made["id"]) as ws:  # Alice again, with the other seat's invite
        send(ws, type="hello", token=tokens(made)[1], name=None, last_seq=None)
        assert error_code(ws) == "already_seated"


def test_rated_games_update_the_ratings_as_recomputed_from_the_records(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    seatings = [["human", "bot:random"], ["human", "bot:greedy", "bot:random"],
                ["human", "bot:greedy", "bot:greedy"], ["human", "bot:random"]]
    tables = []
    for seats in seatings:
        made = create(web, players=len(seats), seats=seats, rated=True)
        play(web, made)
        tables.append(made["id"])
    unrated = create(web, players=2, seats=["human", "bot:random"])
    play(web, unrated)
    cancelled = create(web, players=2, seats=["human", "bot:greedy"], rated=True)
    assert web.post(f"/api/tables/{cancelled['id']}/cancel", json={"creator": cancelled["creator"]}).status_code == 200

    profile = web.get("/api/players/alice").json()
    stored = [json.loads(web.get(f"/api/tables/{t}/record").text) for t in tables]
    alice = "Alice's account"
    games = [([alice if s == "human" else "bot:" + s[4:] for s in seats], record)
             for seats, record in zip(seatings, stored)]
    expect = recomputed(games)
    mine = profile["ratings"]["base"]
    assert mine["games"] == len(tables)  # the unrated and the cancelled tables changed nothing
    assert mine["mu"] == pytest.approx(expect[alice][0], abs=1e-3)
    assert mine["sigma"] == pytest.approx(expect[alice][1], abs=1e-3)
    assert mine["rating"] == ratings.shown(expect[alice][0])
    assert [h["table"] for h in profile["history"]["base"]] == tables
    assert profile["history"]["base"][-1]["after"] == mine["rating"]

    board = web.get("/api/ratings/base").json()["ratings"]
    by_name = {r["name"]: r for r in board}
    assert by_name["random"]["rating"] == 1000 and by_name["random"]["anchor"] is True  # it never moves
    assert by_name["greedy"]["mu"] == pytest.approx(expect["bot:greedy"][0], abs=1e-3)
    assert by_name["greedy"]["games"] == 1  # seated twice in the third game: that one taught it nothing
    assert by_name["Alice"]["kind"] == "account"
    order = [(r["provisional"], -r["mu"]) for r in board]  # settled first, each part by rating
    assert order == sorted(order)
    three = web.get("/api/ratings/base?players=3").json()["ratings"]
    assert {r["name"] for r in three} == {"Alice", "greedy", "random"}
    assert web.get("/api/ratings/base?players=4").json()["ratings"] == []

    listed = {g["table"]: g["rating_change"] for g in web.get("/api/players/alice/games").json()["games"]}
    assert listed[unrated["id"]] is None
    for h in profile["history"]["base"]:
        assert listed[h["table"]] == h["after"] - h["before"]


def test_a_deleted_account_leaves_the_leaderboard(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    play(web, create(web, players=2, seats=["human", "bot:greedy"], rated=True))
    assert "Alice" in {r["name"] for r in web.get("/api/ratings/base").json()["ratings"]}
    web.post("/api/account/delete", json={"password": "alice password"})
    assert "Alice" not in {r["name"] for r in web.get("/api/ratings/base").json()["ratings"]}
    assert web.get("/api/ratings/chess").status_code == 404
    assert web.get("/api/ratings/base?players=12").status_code == 400


def test_the_lobby_shows_an_accounts_rating_beside_its_name(web: TestClient) -> None:
    sign_up(web, "Alice", "alice password")
    finished = create(web, players=2, seats=["human", "bot:greedy"], rated=True)
    play(web, finished)
    rating = web.get("/api/players/alice").json()["ratings"]["base"]
    waiting = create(web, players=3, seats=["human", "human", "bot:greedy"], rated=True)
    with socket(web, waiting["id"]) as ws:  # a live table of this process: its seat as the store has it
        send(ws, type="hello", token=tokens(waiting)[0], name=None, last_seq=None)
        assert ws.receive_json()["type"] == "welcome"
        listed = {t["id"]: t for t in web.get("/api/tables").json()["tables"]}
    for table in (finished["id"], waiting["id"]):
        seat = listed[table]["seats"][0]
        assert seat["account"] == "Alice" and seat["rating"] == rating
    assert listed[waiting["id"]]["rated"] is True
    assert listed[finished["id"]]["seats"][1]["rating"] is None  # bots' ratings are on the leaderboard


def test_an_abandoned_rated_table_changes_no_rating(sqlite_url: str) -> None:
    import time

    with make(sqlite_url) as web:
        sign_up(web, "Alice", "alice password")
        made = create(web, players=2, seats=["human", "bot:greedy"], rated=True)
        play(web, made, to_end=False)
    with make(sqlite_url, idle_limit=0.2) as web:  # a day later, as the server sees it
        service = web.app.state.service  # type: ignore[attr-defined]
        web.portal.call(service.sweep, time.time() + 1.0)  # type: ignore[union-attr]
        assert web.get(f"/api/tables/{made['id']}").json()["status"] == "abandoned"
        assert web.get("/api/players/alice").json()["ratings"] == {}
        assert web.get("/api/ratings/base").json()["ratings"] == []


def test_a_shared_win_is_a_tie_and_a_game_is_rated_once() -> None:
    from sqlalchemy import select

    from sushigo.server.rows import RateGame
    from sushigo.server.schema import rating_changes_t, ratings_t
    from sushigo.server.store import Store

    store = Store("sqlite://")
    store.create_schema()
    game = RateGame("t1", "base", ("account:a", "account:b", "bot:random"), (1.5, 1.5, 3.0), 100.0)
    store.write([game])
    store.write([game])  # stored twice (a retry): the second changes nothing
    with store.engine.connect() as conn:
        now = {r.player: (r.mu, r.sigma, r.games) for r in conn.execute(select(ratings_t))}
        changes = conn.execute(select(rating_changes_t)).all()
    store.close()
    assert now["account:a"] == now["account:b"] and now["account:a"][2] == 1  # tied: the same change
    assert now["account:a"][0] > ratings.MU0  # ahead of the bot they both beat
    assert now["bot:random"] == (ratings.ANCHOR_MU, ratings.ANCHOR_SIGMA, 1)  # the anchor holds
    assert len(changes) == 3
