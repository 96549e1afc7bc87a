"""The replay viewer's documents (``sushigo.server.replays``) and their routes: a finished
table's replay and an uploaded record's, from every seat's point of view and the spectator's,
checked against independent walks of the game (the analysis's per-seat decisions, the engine's
story and round explanations) and by pairs of games that differ only in what a seat could not see."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sushigo.analysis.walk import seat_decisions
from sushigo.bots import make_bot
from sushigo.bots.base import play_game
from sushigo.engine.editions import (
    AnyGame,
    dumps,
    explain,
    new_game,
    replay,
    story_of,
    to_record,
)
from sushigo.engine.narration import lines_seen_by
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules
from sushigo.server.app import Limits
from sushigo.server.replays import END_KINDS, FORMAT, replay_document, upload_id

from .conftest import create, finish, make_client

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES: list[tuple[str, Rules, int]] = [
    ("base 4", Rules(4), 3),
    ("base 2", Rules(2), 8),
    ("party master 5", Rules.party(5, "Master Menu"), 4),
    ("party dinner 2", Rules.party(2, "Dinner for Two"), 6),
    ("party banquet 8", Rules.party(8, "Big Banquet"), 2),
]


def _game(rules: Rules, seed: int) -> AnyGame:
    return play_game([make_bot("greedy", s) for s in range(rules.players)], rules=rules, seed=seed)


def _names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


@pytest.mark.parametrize("label, rules, seed", GAMES, ids=[g[0] for g in GAMES])
def test_a_seats_steps_are_its_decisions_with_what_it_held_and_chose(label: str, rules: Rules, seed: int) -> None:
    game = _game(rules, seed)
    for seat in range(game.players):
        doc = replay_document(game, seat, _names(game.players))
        assert doc["format"] == FORMAT and doc["seat"] == seat and doc["players"] == game.players
        mine = [s for s in doc["steps"] if s["chosen"] is not None]
        decisions = seat_decisions(game, seat)  # the analysis's own walk of the same game
        assert [(s["round"], s["turn"], s["index"], s["kind"]) for s in mine] == \
            [(d.round, d.turn, d.index, d.kind) for d in decisions]
        assert [s["chosen"]["action"] for s in mine] == [d.action for d in decisions]
        for s, d in zip(mine, decisions):
            hand = d.view.hand
            names = [c.name_in_records for c in hand]
            assert sorted(s["view"]["hand"]) == sorted(names)
            assert s["view"]["legal_actions"] == list(d.view.legal_actions)
            assert seat in s["deciding"]


@pytest.mark.parametrize("label, rules, seed", GAMES, ids=[g[0] for g in GAMES])
def test_the_log_rounds_and_end_are_the_engines(label: str, rules: Rules, seed: int) -> None:
    game = _game(rules, seed)
    story = story_of(game)
    for seat in [None, 0, game.players - 1]:
        doc = replay_document(game, seat, _names(game.players))
        assert doc["lines"] == lines_seen_by(story, seat)
        counts = [s["lines"] for s in doc["steps"]]
        assert counts == sorted(counts) and counts[0] == 0 and counts[-1] == len(story)
        ends = [s for s in doc["steps"] if s["kind"] in END_KINDS]
        assert [s["round"] for s in ends] == [1, 2, 3] and doc["steps"][-1]["kind"] == "end"
        assert [s["rounds_done"] for s in ends] == [1, 2, 3]
        assert [r["explained"] for r in doc["rounds"]] == [
            json.loads(json.dumps(explain(game, n).to_json())) for n in (1, 2, 3)]
        assert doc["steps"][-1]["view"]["result"] == json.loads(json.dumps(doc["result"]))
        # every turn has its pick step, in order, and no one decides at a round's end
        picks = [(s["round"], s["turn"]) for s in doc["steps"] if s["kind"] == "pick"]
        assert picks == sorted(set(picks)) and all(not s["deciding"] for s in ends)


@pytest.mark.parametrize("label, rules, seed", GAMES, ids=[g[0] for g in GAMES])
def test_the_spectator_sees_no_hand_and_no_choice(label: str, rules: Rules, seed: int) -> None:
    game = _game(rules, seed)
    doc = replay_document(game, None, _names(game.players))
    for step in doc["steps"]:
        assert step["chosen"] is None and step["index"] is None
        assert not step["view"].get("hand") and not step["view"].get("legal_actions")
    hands = {c for dealt, _ in game.history() for hand in dealt for c in hand}
    assert hands  # the cards dealt; no step's view names a hand's contents (only public collections)
    seat_doc = replay_document(game, 0, _names(game.players))
    assert any(s["view"]["hand"] for s in seat_doc["steps"])


def _diverging(rules: Rules, seed: int, other: int, target: int) -> tuple[AnyGame, AnyGame]:
    """Two finished games with the same deal that agree up to turn ``target`` of round 1, where
    seat ``other`` picks another card (hidden from everyone else until the reveal), then go on at random."""
    a = _game(rules, seed)
    b = new_game(rules, seed=seed)
    assert b.history()[0][0] == a.history()[0][0]  # the same deal
    turns = a.history()[0][1]
    for moves in turns[:target - 1]:
        if isinstance(b, PartyGame):
            for m in moves:
                b.commit(m.seat, m.action)  # type: ignore[union-attr]
        else:
            b.play(list(moves))  # type: ignore[arg-type]
    picks = turns[target - 1][:rules.players]
    chosen = [int(m.action) if isinstance(b, PartyGame) else int(m) for m in picks]  # type: ignore[union-attr, arg-type]
    rng = random.Random(seed)
    chosen[other] = rng.choice([x for x in b.legal_actions(other) if x != chosen[other]])
    for s, action in enumerate(chosen):
        b.commit(s, action)
    while not b.is_over:
        for s in list(b.pending_seats):
            b.commit(s, rng.choice(b.legal_actions(s)))
    return a, b


@pytest.mark.parametrize("rules, seed", [(Rules(4), 11), (Rules.party(4, "Master Menu"), 12)],
                         ids=["base", "party"])
def test_a_seat_cannot_tell_apart_two_games_until_the_reveal(rules: Rules, seed: int) -> None:
    """The view-only property: up to the step where another seat's hidden pick is revealed, a
    seat's replay (views, log, its own choices) is the same in both games; then it differs."""
    seat, other, target = 0, 2, 3
    a, b = _diverging(rules, seed, other, target)
    da = replay_document(a, seat, _names(a.players))
    db = replay_document(b, seat, _names(b.players))
    cut = next(i for i, s in enumerate(da["steps"]) if (s["round"], s["turn"], s["kind"]) == (1, target, "pick"))
    assert da["steps"][:cut + 1] == db["steps"][:cut + 1]
    shown = da["steps"][cut]["lines"]
    assert da["lines"][:shown] == db["lines"][:shown]
    # the next step shows the other pick (a Party decision after the reveal: on the table; the
    # log tells the turn once it is resolved, by the next turn's picks)
    told = next(s["lines"] for s in da["steps"][cut + 1:] if s["kind"] == "pick" or s["kind"] in END_KINDS)
    assert da["lines"][:told] != db["lines"][:told]
    assert da["steps"][cut + 1]["view"]["collections"] != db["steps"][cut + 1]["view"]["collections"]
    # the spectator too: the same up to the reveal
    sa, sb = replay_document(a, None, _names(4)), replay_document(b, None, _names(4))
    assert sa["steps"][:cut + 1] == sb["steps"][:cut + 1] and sa["steps"][cut + 1] != sb["steps"][cut + 1]


def test_replay_document_refuses_a_seat_it_lacks_and_an_unfinished_game() -> None:
    game = _game(Rules(3), 1)
    with pytest.raises(ValueError, match="seats 0 to 2"):
        replay_document(game, 3, _names(3))
    with pytest.raises(ValueError, match="over"):
        replay_document(new_game(Rules(3), seed=1), 0, _names(3))


# ------------------------------------------------------------------ routes


@pytest.fixture
def replay_client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url, analysis_samples=3) as c:
        yield c


@pytest.mark.parametrize("edition", ["base", "party"])
def test_a_finished_tables_replay_from_each_seat_and_the_spectator(replay_client: TestClient, edition: str) -> None:
    body: dict[str, Any] = {"edition": edition, "players": 3, "seats": ["human", "bot:greedy", "bot:random"]}
    if edition == "party":
        body["menu"] = "My First Meal"
    created = create(replay_client, **body)
    tid = created["id"]
    r = replay_client.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 409 and set(r.json()) == {"error"}
    finish(replay_client, created)
    game = replay(json.loads(replay_client.get(f"/api/tables/{tid}/record").text))
    names = [s["name"] for s in replay_client.get(f"/api/tables/{tid}").json()["seats"]]
    assert names[0] == "Ann"
    for seat in [None, 0, 1, 2]:
        url = f"/api/tables/{tid}/replay" + ("" if seat is None else f"?seat={seat}")
        doc = replay_client.get(url).json()
        assert doc == json.loads(json.dumps(replay_document(game, seat, names)))
    for bad, status in (("?seat=3", 400), ("?seat=-1", 400), ("?seat=x", 400), ("?seat=99999", 400)):
        r = replay_client.get(f"/api/tables/{tid}/replay{bad}")
        assert r.status_code == status and set(r.json()) == {"error"}, (bad, r.text)
    assert replay_client.get("/api/tables/nosuch/replay").status_code == 404
    for page in (f"/t/{tid}/replay", "/replay", "/replay/0123456789abcdef0123"):
        assert replay_client.get(page).headers["content-type"].startswith("text/html")


@pytest.mark.parametrize("rules", [Rules(4), Rules.party(6, "Party Sampler")], ids=["base", "party"])
def test_an_uploaded_record_is_kept_replayed_and_analysed(replay_client: TestClient, db_url: str,
                                                          rules: Rules) -> None:
    game = _game(rules, 5)
    record = to_record(game, meta={"names": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:game.players]})
    r = replay_client.post("/api/replays", content=json.dumps(record))
    assert r.status_code == 201, r.text
    up = r.json()
    rid = up["id"]
    assert rid == upload_id(record) and up["replay"] == f"/replay/{rid}" and up["players"] == game.players
    assert up["names"][:2] == ["Ann", "Bo"] and up["edition"] == rules.edition
    again = replay_client.post("/api/replays", content=dumps(record))  # the same game: the same address
    assert again.status_code == 201 and again.json()["id"] == rid
    kept = replay_client.get(f"/api/replays/{rid}/record")
    assert replay(json.loads(kept.text)).result() == game.result()
    doc = replay_client.get(f"/api/replays/{rid}?seat=1").json()
    assert doc == json.loads(json.dumps(replay_document(game, 1, up["names"])))
    assert replay_client.get(f"/api/replays/{rid}").json()["seat"] is None
    assert replay_client.get(f"/api/replays/{rid}/analysis?seat=1").json()["status"] == "none"
    r = replay_client.post(f"/api/replays/{rid}/analysis", json={"seat": 1})
    assert r.status_code == 202
    deadline = time.monotonic() + 90
    while (job := replay_client.get(f"/api/replays/{rid}/analysis?seat=1").json())["status"] != "done":
        assert job["status"] != "failed" and time.monotonic() < deadline
        time.sleep(0.05)
    assert job["upload"] == rid and job["analysis"]["seats"][0]["seat"] == 1
    with make_client(db_url, analysis_samples=3) as other:  # kept: another process answers from the database
        assert other.get(f"/api/replays/{rid}/analysis?seat=1").json()["analysis"] == job["analysis"]
        assert other.get(f"/api/replays/{rid}?seat=1").json() == doc


def test_uploads_are_checked(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_record=20000, uploads_per_hour=3)) as c:
        record = to_record(_game(Rules(2), 1))
        cases: list[tuple[bytes, int, str]] = [
            (b"{nope", 400, "not JSON"),
            (b"[1, 2]", 400, "record"),
            (json.dumps({**record, "rounds": record["rounds"][:1]}).encode(), 400, "record"),
            (b"x" * 20001, 413, "larger"),
        ]
        broken = json.loads(json.dumps(record))
        broken["rounds"][0]["turns"][0][0] = ["eel"]  # a card no hand held
        cases.append((json.dumps(broken).encode(), 400, "round 1"))
        for body, status, words in cases:
            r = c.post("/api/replays", content=body)
            assert r.status_code == status and set(r.json()) == {"error"} and words in r.json()["error"], r.text
            assert "\n" not in r.json()["error"] and "Traceback" not in r.text
        for _ in range(3):
            assert c.post("/api/replays", content=json.dumps(record)).status_code == 201
        r = c.post("/api/replays", content=json.dumps(record))
        assert r.status_code == 429 and "hour" in r.json()["error"]
        for bad in ("nosuch", "0123456789abcdef0123", "../../etc", "A" * 20):
            r = c.get(f"/api/replays/{bad}")
            assert r.status_code == 404 and set(r.json()) == {"error"}
            assert c.get(f"/api/replays/{bad}/analysis?seat=0").status_code == 404
        rid = upload_id(record)
        assert c.get(f"/api/replays/{rid}?seat=2").status_code == 400
        assert c.get(f"/api/replays/{rid}/analysis?seat=2").status_code == 400
        assert c.post(f"/api/replays/{rid}/analysis", json={"seat": "0"}).status_code == 400
