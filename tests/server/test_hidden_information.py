"""The server never sends a seat a card it may not know.

Full games with several human sockets and a spectator; every frame each
socket receives is captured.  Afterwards the game is rebuilt from the stored
record and events, and every frame is checked against it:

- each ``state`` view equals what :mod:`sushigo.engine.base.view` / :mod:`sushigo.engine.party.view`
  (the one place hidden information is decided) gives that seat at that ``seq``;
- independently of those modules: a seat's ``hand`` is exactly its true hand, no
  frame carries another seat's pick before the reveal, at the first turn of a
  round no seat learns another's hand, the spectator sees no hand at all, and
  ``progress`` frames carry nothing but who has picked;
- the ``log`` each socket was sent is the engine's story of the game as that
  seat may read it (:func:`sushigo.engine.narration.lines_seen_by`).

Each protocol version is played: version 3 sends one ``update`` per socket and
event (its parts checked as the frames of earlier versions are), version 1 a
frame per part.

Seats change their minds: now and then a seat with a hidden pick changes it
or takes it back (the events store each withdrawal, the rebuilt games replay
them), so a withdrawn pick is checked never to reach another seat or the
spectator.  Every seat says one line of chat: the seats read all of them, the
spectator (on a table that hides chat from spectators) none.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sushigo.engine.editions import new_game, replay, story_of, view_document
from sushigo.engine.narration import lines_seen_by
from sushigo.server.app import Limits

from .conftest import create, make_client, tokens

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


PARTS = ("log", "state", "progress", "ack")
"""The parts of a version 3 ``update``, in the order a client applies them."""


def _parts(msg: dict[str, Any]) -> list[dict[str, Any]]:
    """A frame as the messages of versions 1 and 2: an ``update``'s parts, each with its
    ``type`` (the update holds nothing else), or the frame itself."""
    if msg["type"] != "update":
        assert msg["type"] not in PARTS, f"protocol 3 sent a {msg['type']} of its own"
        return [msg]
    assert set(msg) <= {"v", "type", *PARTS} and set(msg) & set(PARTS), msg
    return [{"v": msg["v"], "type": key, **msg[key]} for key in PARTS if key in msg]


def _play(client: Any, body: dict[str, Any], seed: int,
          version: int = 3) -> tuple[str, dict[int | None, list[dict[str, Any]]]]:
    """Play a table to the end with every human seat on its own socket (one
    thread each, picking at random, speaking protocol ``version``); return every
    message each socket received (an update's parts as messages of their own)."""
    created = create(client, **body)
    tid = created["id"]
    seats = [s["seat"] for s in created["seats"] if s["kind"] == "human"]
    last = seats[-1]
    frames: dict[int | None, list[dict[str, Any]]] = {s: [] for s in seats}
    frames[None] = []
    errors: list[BaseException] = []

    def run(seat: int | None, token: str | None) -> None:
        rng = random.Random(seed * 100 + (seat or 0))
        try:
            with client.websocket_connect(f"/ws/tables/{tid}") as ws:
                name = None if seat is None else f"P{seat}"
                ws.send_json({"v": version, "type": "hello", "token": token, "name": name, "last_seq": None})
                if seat is not None:
                    ws.send_json({"v": version, "type": "chat", "text": f"hello from P{seat}"})
                picked_on: dict[str, Any] | None = None
                changing = False
                pending: list[dict[str, Any]] = []
                while True:
                    if not pending:
                        frame = ws.receive_json()
                        pending = _parts(frame) if version >= 3 else [frame]
                        if version < 3:
                            assert frame["type"] != "update"
                    msg = pending.pop(0)
                    frames[seat].append(msg)
                    if changing and msg["type"] == "error" and msg["code"] in (
                            "stale", "nothing_to_withdraw", "not_your_turn", "game_over"):
                        continue  # the last seat picked meanwhile: the turn was revealed
                    assert msg["type"] != "error", msg
                    if msg["type"] == "ack" and msg["action"] is not None and picked_on and rng.random() < 0.6:
                        # a change of mind, or the pick taken back (the state that follows has the choices again)
                        changing = True
                        on, picked_on = picked_on, None  # once per decision
                        if rng.random() < 0.5:
                            ws.send_json({"v": version, "type": "pick", "seq": on["seq"],
                                          "action": rng.choice(on["view"]["legal_actions"])})
                        else:
                            ws.send_json({"v": version, "type": "withdraw", "seq": on["seq"]})
                        continue
                    if msg["type"] != "state":
                        continue
                    if msg["status"] == "finished":
                        return
                    if seat is not None and _can_pick(msg):
                        if seat == last:  # the last human takes its time: the others change their minds meanwhile
                            time.sleep(0.03)
                        action = rng.choice(msg["view"]["legal_actions"])
                        ws.send_json({"v": version, "type": "pick", "seq": msg["seq"], "action": action})
                        picked_on = msg if msg["view"].get("decision") is None else None  # a special's: in the open
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(None, None), daemon=True)]
    threads += [threading.Thread(target=run, args=(seat, token), daemon=True)
                for seat, token in zip(seats, tokens(created))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(float(os.environ.get("SUSHIGO_TEST_JOIN", "120")))
        assert not t.is_alive(), "a seat's socket got stuck"
    assert not errors, errors
    return tid, frames


def _can_pick(state: dict[str, Any]) -> bool:
    view = state.get("view")
    return state["status"] == "playing" and view is not None and bool(view["legal_actions"])


def _check(client: Any, tid: str, frames: dict[int | None, list[dict[str, Any]]]) -> int:
    service = client.app.state.service
    (loaded,) = service.store.load(table_id=tid)
    record = json.loads(service.store.record(tid))
    replayed = replay(record)
    rules = replayed.rules
    # the game after each stored event, rebuilt from the seed and the stored events; the
    # protocol's seq counts them less the changes of mind (a "change" and the pick after
    # it), so one seq may name several moments: those of a seat's changes of mind
    games = [new_game(rules, seed=loaded.row.seed)]
    moments: dict[int, list[Any]] = {0: [games[0]]}
    changers: dict[int, set[int]] = {}
    public, changing = 0, False
    for event in loaded.events:
        g = games[-1].clone()
        if event.by in ("withdraw", "change"):
            assert g.withdraw(event.seat) == event.action
        else:
            g.commit(event.seat, event.action)
        games.append(g)
        if event.by == "change":
            changing = True  # its pick follows: the moment between is shown to nobody
            continue
        if changing:  # the pick of a change of mind: the same seq as the pick it replaced
            changing = False
            changers.setdefault(public, set()).add(event.seat)
            moments[public].append(g)
        else:
            public += 1
            moments[public] = [g]
    withdrawn = sum(1 for e in loaded.events if e.by in ("withdraw", "change"))
    changed = sum(1 for a, b in zip(loaded.events, loaded.events[1:]) if a.by == "change" and b.seat == a.seat)
    assert withdrawn >= 5 and changed >= 3, (withdrawn, changed)
    assert games[-1].result().totals == replayed.result().totals
    checked = 0
    story = story_of(replayed)
    for seat, got in frames.items():
        log: list[dict[str, Any]] = []
        for msg in got:
            if msg["type"] == "log":
                assert set(msg) == {"v", "type", "from", "lines"}
                assert msg["from"] <= len(log)
                log = log[:msg["from"]] + msg["lines"]
        # the story the seat was told is the engine's, as that seat may read it (a menu's
        # draw only to its own seat), plus the server's own lines
        told = [line for line in log if line["kind"] not in ("timer", "away", "back", "stand_in")]
        assert told == lines_seen_by(story, seat), seat
        assert len(told) > 3 * 8 * rules.players
        talk = [m["text"] for msg in got if msg["type"] == "chat" for m in msg["messages"]]
        humans = [k for k in frames if k is not None]
        assert sorted(talk) == ([] if seat is None else sorted(f"hello from P{k}" for k in humans)), seat
        for msg in got:
            if msg["type"] == "progress":
                assert set(msg) == {"v", "type", "seq", "picked"}
                for game in moments[msg["seq"]]:  # a change of mind changes nobody's "picked"
                    assert msg["picked"] == [game.has_committed(s) for s in range(rules.players)]
                continue
            if msg["type"] != "state" or msg["view"] is None:
                continue
            view = msg["view"]
            seen = [g for g in moments[msg["seq"]] if view == json.loads(json.dumps(view_document(g, seat)))]
            assert seen, (seat, msg["seq"])
            if seat not in changers.get(msg["seq"], set()):  # only a seat's own change of mind shows
                assert len({json.dumps(view_document(g, seat)) for g in moments[msg["seq"]]}) == 1
            game = seen[-1]
            checked += 1
            for k in range(game.players):
                if k != seat:
                    assert not game.has_committed(k) or view["picked"][k]
            if seat is None:
                assert view["hand"] is None and view["legal_actions"] == []
                assert view["committed"] is None
                assert all(h is None for h in view.get("known_hands", []))
                continue
            assert view["hand"] == [c.name_in_records for c in game.hand(seat)]
            assert view["committed"] == game.committed_action(seat)
            if view["turn"] == 1 and view.get("decision") is None and not game.has_committed(seat):
                # nothing has been passed yet this round: no other hand is known
                for k in range(game.players):
                    if k != seat and "known_hands" in view:
                        assert view["known_hands"][k] is None
    return checked


@pytest.fixture
def fast_client(db_url: str) -> Iterator[TestClient]:
    """An app on each database whose rate limit lets the seats' threads send as fast as they can."""
    with make_client(db_url, limits=Limits(rate=10000, burst=10000)) as c:
        yield c


@pytest.mark.parametrize("version", [3, 1])
def test_no_frame_of_a_base_game_leaks_hidden_cards(fast_client: Any, version: int) -> None:
    client = fast_client
    tid, frames = _play(client, {"edition": "base", "players": 4, "pass_both_ways": True,
                                 "seats": ["human", "human", "bot:greedy", "human"], "seed": 11}, seed=1,
                        version=version)
    assert _check(client, tid, frames) > 3 * 8 * 3


def test_no_frame_of_a_party_game_leaks_hidden_cards(sqlite_url: str) -> None:
    menu = ["nigiri", "uramaki", "tempura", "tofu", "eel", "menu", "spoon", "green_tea_ice_cream"]
    with make_client(sqlite_url, limits=Limits(rate=10000, burst=10000)) as client:
        tid, frames = _play(client, {"edition": "party", "players": 4, "menu": menu,
                                     "seats": ["human", "bot:greedy", "human", "human"], "seed": 5}, seed=2)
        assert _check(client, tid, frames) > 3 * 8 * 3
