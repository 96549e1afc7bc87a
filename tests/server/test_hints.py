"""Hints: on a table created with ``hints``, each seat deciding is sent its own estimate of
every legal action (from its view), and nobody else receives it.  Real sockets, every frame
of every socket captured."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sushigo.engine.messages import from_json, render

from .conftest import create, finish, keep, kept, make_client, tokens

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def hint_client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url, hint_seconds=0.05) as c:
        yield c


def _hello(ws: Any, token: str | None, name: str | None) -> None:
    """Say hello with the seat's secret (once its invite claimed it) and read the welcome."""
    ws.send_json({"v": 1, "type": "hello", "token": kept(token), "name": name, "last_seq": None})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    keep(token, welcome)


def _play_seat(client: TestClient, tid: str, token: str, name: str, frames: list[dict[str, Any]],
               errors: list[BaseException]) -> None:
    """Wait for the hint of each decision, then play its best action, until round 1 is over."""
    try:
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            _hello(ws, token, name)
            state: dict[str, Any] | None = None
            while True:
                msg = ws.receive_json()
                frames.append(msg)
                assert msg["type"] != "error", msg
                if msg["type"] == "state":
                    view = msg["view"]
                    if msg["status"] != "playing":
                        continue
                    if view["round"] > 1:
                        return
                    state = msg if view and view["legal_actions"] and view["committed"] is None else None
                    if state is not None and len(view["legal_actions"]) == 1:  # nothing to hint
                        ws.send_json({"v": 1, "type": "pick", "seq": msg["seq"], "action": view["legal_actions"][0]})
                        state = None
                elif msg["type"] == "hint" and state is not None:
                    view = state["view"]
                    if (msg["round"], msg["turn"]) == (view["round"], view["turn"]) and \
                            sorted(msg["legal"]) == sorted(view["legal"]):
                        ws.send_json({"v": 1, "type": "pick", "seq": state["seq"],
                                      "action": msg["actions"][0]["action"]})
                        state = None
    except BaseException as e:
        errors.append(e)


def _watch(client: TestClient, tid: str, frames: list[dict[str, Any]], stop: threading.Event) -> None:
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        _hello(ws, None, None)
        while not stop.is_set():
            msg = ws.receive_json()
            frames.append(msg)
            if msg["type"] == "state" and msg["status"] == "finished":
                return
            if msg["type"] == "state" and msg["view"] and msg["view"]["round"] > 1:
                return


@pytest.mark.parametrize("edition", ["base", "party"])
def test_each_seat_gets_its_own_hints_and_nobody_else_does(hint_client: TestClient, edition: str) -> None:
    body: dict[str, Any] = {"edition": edition, "players": 3, "seats": ["human", "human", "bot:greedy"], "hints": True}
    if edition == "party":
        body["menu"] = "Master Menu"
    created = create(hint_client, **body)
    tid = created["id"]
    assert created["table"]["hints"] is True
    listed = {t["id"]: t for t in hint_client.get("/api/tables").json()["tables"]}
    assert listed[tid]["hints"] is True
    frames: dict[int | None, list[dict[str, Any]]] = {0: [], 1: [], None: []}
    errors: list[BaseException] = []
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(hint_client, tid, frames[None], stop), daemon=True)
    watcher.start()
    seats = [threading.Thread(target=_play_seat, args=(hint_client, tid, tok, f"P{i}", frames[i], errors),
                              daemon=True) for i, tok in enumerate(tokens(created))]
    for t in seats:
        t.start()
    for t in seats:
        t.join(120)
        assert not t.is_alive(), "a seat got stuck waiting for its hint"
    stop.set()
    assert not errors, errors
    assert not any(m["type"] == "hint" for m in frames[None])  # the spectator: never
    for seat in (0, 1):
        states = [m for m in frames[seat] if m["type"] == "state" and m["view"] and m["view"]["legal_actions"]]
        # round 1's (the seat stops at the first round-2 state; a round-2 hint may come just before it)
        # (a decision without a choice is played at once: its hint, if it came first, says nothing more)
        hints = [m for m in frames[seat] if m["type"] == "hint" and m["round"] == 1 and len(m["legal"]) > 1]
        # a hint for every decision with a choice this seat was shown, and none for another
        open_keys = {(m["view"]["round"], m["view"]["turn"], tuple(sorted(m["view"]["legal"]))) for m in states
                     if m["view"]["committed"] is None and len(m["view"]["legal_actions"]) > 1
                     and m["view"]["round"] == 1}
        assert {(h["round"], h["turn"], tuple(sorted(h["legal"]))) for h in hints} == open_keys
        assert len(open_keys) >= 5
        for h in hints:
            assert set(h) == {"v", "type", "round", "turn", "legal", "busy", "samples", "actions"}
            assert h["busy"] is False and h["samples"] >= 2
            # the hint is about a decision this seat was shown, and values exactly its legal actions
            match = [s for s in states if (s["view"]["round"], s["view"]["turn"]) == (h["round"], h["turn"])
                     and sorted(s["view"]["legal"]) == sorted(h["legal"])]
            assert match, h
            view = match[-1]["view"]
            assert sorted(a["action"] for a in h["actions"]) == sorted(view["legal_actions"])
            assert sorted(a["text"] for a in h["actions"]) == sorted(view["legal"])
            losses = [a["loss"] for a in h["actions"]]
            assert losses == sorted(losses) and losses[0] == 0
            assert all(0 <= a["win"] <= 1 for a in h["actions"])
            # each choice's words, and as a label the message a page says in its language ("to pass": "Pass")
            assert all(render(from_json(a["words_msg"])) == (a["words"][3].upper() + a["words"][4:]
                                                             if a["words"].startswith("to ") else a["words"])
                       for a in h["actions"])


def test_a_table_without_hints_sends_none_and_a_socket_that_joins_gets_the_open_decisions_hint(
        hint_client: TestClient) -> None:
    plain = create(hint_client, players=2, seats=["human", "bot:greedy"])
    assert plain["table"]["hints"] is False
    with hint_client.websocket_connect(f"/ws/tables/{plain['id']}") as ws:
        _hello(ws, tokens(plain)[0], "Ann")
        seen = []
        while True:
            msg = ws.receive_json()
            seen.append(msg["type"])
            if msg["type"] == "state" and msg["status"] == "playing":
                ws.send_json({"v": 1, "type": "ping"})
            if msg["type"] == "pong":
                break
        assert "hint" not in seen

    hinted = create(hint_client, players=2, seats=["human", "bot:greedy"], hints=True)
    token = tokens(hinted)[0]
    first = None
    with hint_client.websocket_connect(f"/ws/tables/{hinted['id']}") as ws:
        _hello(ws, token, "Ann")
        while first is None:
            msg = ws.receive_json()
            if msg["type"] == "hint":
                first = msg
    with hint_client.websocket_connect(f"/ws/tables/{hinted['id']}") as ws:  # the same decision, still open
        _hello(ws, token, None)
        kinds = []
        while True:
            msg = ws.receive_json()
            kinds.append(msg["type"])
            if msg["type"] == "hint":
                assert msg == first
                break
        assert kinds.index("state") < kinds.index("hint")
    service = hint_client.app.state.service
    (loaded,) = service.store.load(table_id=hinted["id"])
    assert loaded.row.rules.get("hints") is True  # stored with the table (a restart keeps it)


def test_the_create_request_checks_hints(hint_client: TestClient) -> None:
    r = hint_client.post("/api/tables", json={"players": 2, "seats": ["human", "bot:greedy"], "hints": "yes"})
    assert r.status_code == 400 and "hints" in r.json()["error"]


# ------------------------------------------------------------------ "analyse my game"


@pytest.fixture
def analysis_client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url, analysis_samples=3) as c:
        yield c


@pytest.mark.parametrize("edition", ["base", "party"])
def test_analyse_my_game_queues_progresses_and_is_kept(analysis_client: TestClient, db_url: str,
                                                       edition: str) -> None:
    import json
    import time

    from sushigo.analysis.game import action_label, action_label_said, analyze_game
    from sushigo.engine.editions import replay

    body: dict[str, Any] = {"edition": edition, "players": 2, "seats": ["human", "bot:greedy"]}
    if edition == "party":
        body["menu"] = "Dinner for Two"
    created = create(analysis_client, **body)
    tid = created["id"]
    assert analysis_client.get(f"/api/tables/{tid}/analysis?seat=0").status_code == 409  # not finished
    finish(analysis_client, created)
    assert analysis_client.get(f"/api/tables/{tid}/analysis?seat=0").json()["status"] == "none"
    r = analysis_client.post(f"/api/tables/{tid}/analysis", json={"seat": 1})
    assert r.status_code == 202 and r.json()["status"] in ("queued", "running")
    deadline = time.monotonic() + 60
    seen = set()
    while True:
        job = analysis_client.get(f"/api/tables/{tid}/analysis?seat=1").json()
        seen.add(job["status"])
        assert job["status"] != "failed"
        if job["status"] == "done":
            break
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert job["done"] == job["total"] > 0
    game = replay(json.loads(analysis_client.get(f"/api/tables/{tid}/record").text))
    expected = analyze_game(game, [1], samples=3, seed=0).to_json(lambda a: action_label(game, a),
                                                                  lambda a: action_label_said(game, a))
    assert job["analysis"] == json.loads(json.dumps(expected))  # the library's analysis, from the record
    # kept with the table: a new server process answers from the database, and asking again starts nothing
    with make_client(db_url, analysis_samples=3) as again:
        kept = again.get(f"/api/tables/{tid}/analysis?seat=1").json()
        assert kept["status"] == "done" and kept["analysis"] == job["analysis"]
        assert again.post(f"/api/tables/{tid}/analysis", json={"seat": 1}).json()["status"] == "done"
        assert not again.app.state.service.analyses


def test_analysis_requests_are_checked(analysis_client: TestClient) -> None:
    created = create(analysis_client, players=2, seats=["human", "bot:greedy"])
    tid = created["id"]
    finish(analysis_client, created)
    for body, status in (({"seat": 5}, 400), ({"seat": "0"}, 400), ({}, 400), ({"seat": 0, "x": 1}, 400)):
        r = analysis_client.post(f"/api/tables/{tid}/analysis", json=body)
        assert r.status_code == status and set(r.json()) == {"error"}, (body, r.text)
    assert analysis_client.post(f"/api/tables/{tid}/analysis", content=b"{nope").status_code == 400
    assert analysis_client.get(f"/api/tables/{tid}/analysis").status_code == 400
    assert analysis_client.get(f"/api/tables/{tid}/analysis?seat=x").status_code == 400
    assert analysis_client.get("/api/tables/nosuch/analysis?seat=0").status_code == 404
    service = analysis_client.app.state.service
    from sushigo.server.tables import ANALYSIS_QUEUE, AnalysisJob
    for i in range(ANALYSIS_QUEUE):  # a full queue: the next one is refused, nothing else breaks
        service.analyses[(f"other{i}", 0)] = AnalysisJob(f"other{i}", 0, "running")
    r = analysis_client.post(f"/api/tables/{tid}/analysis", json={"seat": 0})
    assert r.status_code == 503 and "try again" in r.json()["error"]
