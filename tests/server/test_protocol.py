"""The WebSocket protocol ``sushigo-ws/3`` and the lobby API, end to end (``docs/server.md``).

Games are played over real sockets of an in-process app (``TestClient``):
full base and Party games against bots, two humans at one table, refusals of
every kind (each followed by a check that the connection and the game go on),
reconnecting, the abuse limits, the origin check, create-table errors, the
move timer and names that look like HTML.
"""

from __future__ import annotations

import json
import random
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sushigo.engine.base.cards import CARD_LABELS, parse_card
from sushigo.engine.editions import replay
from sushigo.engine.rules import RULE_OPTIONS, Rules
from sushigo.server.app import Limits
from sushigo.server.protocol import TIMER_RANGE, VERSION
from sushigo.server.store import Store

from .conftest import create, keep, kept, make_client, tokens

Msg = dict[str, Any]
Pred = Callable[[Msg], bool]

RECV_TIMEOUT = 10.0
"""Seconds a test waits for one server frame before it fails (instead of hanging)."""


# --------------------------------------------------------------------------- helpers


def ws_path(table_id: str) -> str:
    return f"/ws/tables/{table_id}"


def recv(ws: Any, timeout: float = RECV_TIMEOUT) -> Msg:
    """The next server frame as JSON; raises ``WebSocketDisconnect`` if the server closed,
    ``TimeoutError`` if nothing arrives in ``timeout`` seconds.

    ``WebSocketTestSession.receive`` waits forever; this reads the same stream
    (``_send_rx``, on the session's portal) under a deadline, so that a missing
    frame fails the test instead of hanging the run.
    """

    async def _next() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(_next)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000), reason=message.get("reason", ""))
    assert message["type"] == "websocket.send", message
    assert message.get("text") is not None, f"the server sent a binary frame: {message!r}"
    msg = json.loads(message["text"])
    assert isinstance(msg, dict) and msg.get("v") == VERSION and isinstance(msg.get("type"), str), msg
    if msg["type"] == "state":
        ws.last_state = msg  # the newest state, even when a helper skipped it
    elif msg["type"] == "log":  # the log as this socket was told it, even when a helper skipped a frame
        told = getattr(ws, "log", [])
        assert 0 <= msg["from"] <= len(told), (msg["from"], len(told))
        ws.log = told[:msg["from"]] + msg["lines"]
    return msg


def latest(ws: Any) -> Msg:
    """The newest ``state`` this socket received."""
    state: Msg = ws.last_state
    return state


def until(ws: Any, kind: str, pred: Pred | None = None, *, limit: int = 400,
          allow_errors: bool = False) -> Msg:
    """Receive until a ``kind`` frame (matching ``pred``) arrives, skipping others.

    An unexpected ``error`` frame fails the test (unless ``allow_errors``).
    """
    skipped: list[str] = []
    for _ in range(limit):
        m = recv(ws)
        if m["type"] == kind and (pred is None or pred(m)):
            return m
        if m["type"] == "error" and not allow_errors:
            raise AssertionError(f"unexpected error while waiting for {kind}: {m}")
        skipped.append(m["type"])
    raise AssertionError(f"no {kind} frame in {limit} frames: {skipped[-20:]}")


def collect(ws: Any, wanted: dict[str, Pred | None], *, limit: int = 400) -> dict[str, Msg]:
    """Receive until one frame of each wanted type (matching its predicate) has arrived."""
    got: dict[str, Msg] = {}
    for _ in range(limit):
        m = recv(ws)
        kind = m["type"]
        assert kind != "error", m
        pred = wanted.get(kind)
        if kind in wanted and kind not in got and (pred is None or pred(m)):
            got[kind] = m
            if len(got) == len(wanted):
                return got
    raise AssertionError(f"missing {set(wanted) - set(got)} after {limit} frames")


def send(ws: Any, **message: Any) -> None:
    ws.send_json({"v": 1, **message})


def hello(ws: Any, token: str | None = None, name: str | None = None,
          last_seq: int | None = None) -> tuple[Msg, Msg]:
    """Send hello; return the ``welcome`` and the first ``state``.

    ``welcome`` must come first, then ``state`` (only ``seats`` frames between).
    """
    send(ws, type="hello", token=kept(token), name=name, last_seq=last_seq)
    welcome = recv(ws)
    assert welcome["type"] == "welcome", welcome
    assert set(welcome) - {"token"} == {"v", "type", "table", "seat", "seq", "protocol"}, welcome
    if "token" in welcome:  # an invite's claim gives the seat's secret; a secret gets nothing new
        assert token is not None and kept(token) == token and welcome["seat"] is not None, welcome
    keep(token, welcome)
    assert welcome["protocol"] == "sushigo-ws/3"
    for _ in range(10):
        state = recv(ws)
        if state["type"] == "state":
            check_state(state, welcome["seat"])
            return welcome, state
        assert state["type"] in ("seats", "log"), state
    raise AssertionError("no state after welcome")


def pick(ws: Any, seq: int, action: int) -> None:
    send(ws, type="pick", seq=seq, action=action)


def error_code(ws: Any) -> str:
    """The code of the next ``error`` frame (other frames are skipped)."""
    m = until(ws, "error", allow_errors=True)
    assert set(m) == {"v", "type", "code", "message"}, m
    assert isinstance(m["message"], str) and m["message"] and "\n" not in m["message"], m
    return str(m["code"])


def still_alive(ws: Any) -> None:
    """The connection still answers: a ping gets its pong."""
    send(ws, type="ping")
    pong = until(ws, "pong")
    assert set(pong) == {"v", "type"}


def my_turn(seat: int, after: int) -> Pred:
    """A state in which ``seat`` has to decide (newer than seq ``after``), or the end."""

    def pred(m: Msg) -> bool:
        if m["status"] == "finished":
            return True
        view = m["view"]
        return (m["seq"] > after and view is not None and bool(view["legal_actions"])
                and view["committed"] is None)

    return pred


def next_decision(ws: Any, seat: int, after: int) -> Msg:
    """The state of ``seat``'s next decision after seq ``after`` (or the end); it may
    have arrived already, while a helper waited for something else."""
    pred = my_turn(seat, after)
    state: Msg | None = getattr(ws, "last_state", None)
    if state is not None and pred(state):
        return state
    return until(ws, "state", pred)


def check_state(m: Msg, seat: int | None) -> None:
    """What every ``state`` frame must satisfy."""
    assert set(m) == {"v", "type", "seq", "status", "seat", "table", "view", "deadline"}, sorted(m)
    assert m["seat"] == seat
    assert m["status"] == m["table"]["status"]
    assert m["seq"] == m["table"]["seq"]
    view = m["view"]
    if m["status"] in ("waiting", "cancelled"):
        assert view is None
        return
    assert view is not None
    assert view["seat"] == seat
    assert len(view["legal"]) == len(view["legal_actions"])
    assert len(view["on_wasabi"]) == view["players"]
    if seat is None:
        assert view["hand"] is None and view["legal_actions"] == [] and view["committed"] is None
        assert m["deadline"] is None
    else:
        assert len(view["hand"]) == view["hand_sizes"][seat]
        if view["committed"] is not None:  # a hidden pick: it may be changed to any pick it could have made
            assert view["legal_actions"] == [] and view["committed"] in view["change_to"]
            # its text, as the pick's own entry in change_to_text: the page decodes no action id
            assert view["committed_text"] == view["change_to_text"][view["change_to"].index(view["committed"])]
        else:
            assert view["change_to"] == [] and view["committed_text"] is None
        assert len(view["change_to_text"]) == len(view["change_to"])


def base_choice(view: Msg, rng: random.Random) -> int:
    """A random legal action; chopsticks are taken, and used, more often than not."""
    legal, names = view["legal_actions"], view["legal"]
    pairs = [a for a, n in zip(legal, names) if "+" in n]
    if pairs and rng.random() < 0.7:
        return int(rng.choice(pairs))
    if "chopsticks" in names and rng.random() < 0.7:
        return int(legal[names.index("chopsticks")])
    return int(rng.choice(legal))


PARTY_SPECIALS = ("chopsticks", "spoon", "menu", "takeout_box", "special_order")


def party_choice(view: Msg, rng: random.Random) -> int:
    """A random legal action; specials are played eagerly so that decisions come up."""
    legal, names = view["legal_actions"], view["legal"]
    if view["decision"] is None:
        specials = [a for a, n in zip(legal, names) if n.startswith(PARTY_SPECIALS)]
        if specials and rng.random() < 0.7:
            return int(rng.choice(specials))
    return int(rng.choice(legal))


def play_alone(ws: Any, seat: int, rng: random.Random,
               choose: Callable[[Msg, random.Random], int]) -> tuple[Msg, dict[str, Any]]:
    """Play seat ``seat`` to the end against bots; return the final state and statistics.

    Every pick must be acknowledged with its action and a seq newer than the
    state it answered; no error may come back.
    """
    stats: dict[str, Any] = {"picks": 0, "names": [], "decisions": 0, "progress": 0,
                             "others_decisions": 0, "pass_steps": set()}
    picked_on = -1
    # (seq picked on, action) of picks not acknowledged yet: the state a pick
    # causes (a reveal) comes before its ack, so a new decision may open first
    outstanding: deque[tuple[int, int]] = deque()
    final: Msg | None = None
    for _ in range(20000):
        m = recv(ws)
        kind = m["type"]
        assert kind != "error", m
        if kind == "ack":
            assert outstanding, m
            on, action = outstanding.popleft()
            assert m["action"] == action and m["seq"] > on, (m, on, action)
            stats["picks"] += 1
            if final is not None and not outstanding:
                break
            continue
        if kind == "progress":
            stats["progress"] += 1
            assert set(m) == {"v", "type", "seq", "picked"}
            continue
        if kind != "state":
            continue
        check_state(m, seat)
        if m["status"] == "finished":
            final = m
            if not outstanding:
                break
            continue
        view = m["view"]
        if view is None:
            continue
        stats["pass_steps"].add(view.get("pass_step"))
        decision = view.get("decision")
        if decision is not None and decision["seat"] != seat:
            assert view["legal_actions"] == [], m
            stats["others_decisions"] += 1
            if decision["kind"] == "menu":
                assert decision["drawn"] == [], "another seat's menu draw leaked"
        if view["legal_actions"] and view["committed"] is None and m["seq"] > picked_on:
            assert len(outstanding) <= 1, outstanding
            action = choose(view, rng)
            stats["names"].append(view["legal"][view["legal_actions"].index(action)])
            if decision is not None:
                assert decision["seat"] == seat
                stats["decisions"] += 1
            pick(ws, m["seq"], action)
            picked_on = m["seq"]
            outstanding.append((m["seq"], action))
    else:
        raise AssertionError("the game did not end")
    assert final is not None and not outstanding
    return final, stats


def store_of(client: TestClient) -> Store:
    """The database of an app under test."""
    app: Any = client.app
    store: Store = app.state.service.store
    return store


def check_finished(client: TestClient, table_id: str, final: Msg, players: int) -> Any:
    """The summary, the record and the final state agree; returns the replayed game."""
    r = client.get(f"/api/tables/{table_id}")
    assert r.status_code == 200
    summary = r.json()
    assert summary["status"] == "finished"
    totals = summary["totals"]
    assert isinstance(totals, list) and len(totals) == players
    assert summary["winners"] and set(summary["winners"]) <= set(range(players))
    r = client.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    game = replay(json.loads(r.text))
    assert game.is_over
    result = game.result()
    assert list(result.totals) == totals
    assert list(result.winners) == summary["winners"]
    assert final["view"]["result"] == result.to_json()
    assert final["table"]["totals"] == totals
    return game


@pytest.fixture
def fast(db_url: str) -> Iterator[TestClient]:
    """Like ``client`` (SQLite and PostgreSQL) without the message rate limit: a
    test plays far faster than 20 messages a second, a person does not."""
    with make_client(db_url, limits=Limits(rate=10000, burst=10000)) as c:
        yield c


# --------------------------------------------------------------------------- 1. full base games


@pytest.mark.parametrize("players, seats, options, seed", [
    (3, ["human", "bot:greedy", "bot:greedy"], {}, 11),
    (4, ["bot:greedy", "human", "bot:random", "bot:greedy"], {"pass_both_ways": True}, 5),
    (4, ["human", "bot:learned", "bot:learned:temperature=0.5", "bot:greedy"], {}, 11),
])
def test_full_base_game(fast: TestClient, players: int, seats: list[str],
                        options: dict[str, Any], seed: int) -> None:
    client = fast
    created = create(client, edition="base", players=players, seats=seats, seed=seed, **options)
    tid = created["id"]
    seat = seats.index("human")
    assert [s["seat"] for s in created["seats"]] == list(range(players))
    assert created["spectate"] == f"/t/{tid}"
    (token,) = tokens(created)
    with client.websocket_connect(ws_path(tid)) as ws:
        welcome, _state = hello(ws, token, "Ana")
        assert welcome["table"] == tid and welcome["seat"] == seat and welcome["seq"] == 0
        final, stats = play_alone(ws, seat, random.Random(seed), base_choice)
        # one pick a turn (a chopsticks pair too: the chopsticks go back into the hand)
        assert stats["picks"] == 3 * {3: 9, 4: 8}[players]
        assert any("+" in n for n in stats["names"]), "chopsticks were never used"
        if options.get("pass_both_ways"):
            assert stats["pass_steps"] == {1, -1}
        else:
            assert stats["pass_steps"] == {1}
        assert final["status"] == "finished" and final["view"]["phase"] == "over"
        # after the end: picks are refused as game_over, the socket still works
        pick(ws, final["seq"], 0)
        assert error_code(ws) == "game_over"
        still_alive(ws)
    game = check_finished(client, tid, final, players)
    assert game.players == players
    assert game.rules.pass_both_ways == bool(options.get("pass_both_ways"))


# --------------------------------------------------------------------------- 2. a full Party game


@pytest.mark.parametrize("menu, seed", [
    (["uramaki", "tempura", "onigiri", "miso_soup", "chopsticks", "spoon", "fruit"], 3),
    (["temaki", "eel", "tofu", "edamame", "menu", "takeout_box", "pudding"], 4),
    (["maki", "sashimi", "dumpling", "tofu", "special_order", "spoon", "green_tea_ice_cream"], 2),
])
def test_full_party_game_with_decisions(fast: TestClient, menu: list[str], seed: int) -> None:
    client = fast
    created = create(client, edition="party", players=4, menu=menu, seed=seed,
                     seats=["human", "bot:greedy", "bot:random", "bot:greedy"])
    tid = created["id"]
    assert created["table"]["menu"][0] == "nigiri"  # a custom menu is listed, nigiri first
    assert sorted(created["table"]["menu"]) == sorted(["nigiri", *menu])
    (token,) = tokens(created)
    with client.websocket_connect(ws_path(tid)) as ws:
        _, _state = hello(ws, token, "Ana")
        final, stats = play_alone(ws, 0, random.Random(seed), party_choice)
    assert final["view"]["edition"] == "party"
    assert stats["decisions"] >= 1, f"the human never resolved a special: {stats['names']}"
    # one pick a turn (9 turns a round at 4 players), plus one per decision
    assert stats["picks"] == 3 * 9 + stats["decisions"]
    game = check_finished(client, tid, final, 4)
    assert tuple(game.rules.menu) == tuple(final["view"]["menu"])


# --------------------------------------------------------------------------- 3. two humans


def two_humans(ws_a: Any, ws_b: Any, seats: tuple[int, int], rng: random.Random, *,
               after: tuple[int, int] = (-1, -1), bots: bool = False) -> tuple[Msg, Msg]:
    """Play two human seats in lockstep (the first picker alternates) to the end;
    checks the progress frames and acks on the way.  Without ``bots`` at the
    table the seqs are checked exactly.  Returns the two final states.
    """
    socks = (ws_a, ws_b)
    last = list(after)
    for n in range(100):
        states = [next_decision(socks[i], seats[i], last[i]) for i in (0, 1)]
        for i in (0, 1):
            check_state(states[i], seats[i])
        if states[0]["status"] == "finished":
            assert states[1]["status"] == "finished"
            return states[0], states[1]
        assert states[0]["seq"] == states[1]["seq"]
        first, second = (0, 1) if n % 2 == 0 else (1, 0)
        s1, s2 = states[first], states[second]
        act1 = base_choice(s1["view"], rng)
        pick(socks[first], s1["seq"], act1)
        ack1 = until(socks[first], "ack")
        assert ack1["action"] == act1 and ack1["seq"] > s1["seq"]
        # the other seat learns that a pick was made, not which
        prog = until(socks[second], "progress", lambda m, first=first: m["picked"][seats[first]])
        assert set(prog) == {"v", "type", "seq", "picked"}, prog
        assert prog["picked"][seats[second]] is False
        assert prog["seq"] >= ack1["seq"]
        act2 = base_choice(s2["view"], rng)
        pick(socks[second], s2["seq"], act2)
        got = collect(socks[second], {"ack": None, "state": lambda m, s2=s2: m["seq"] > s2["seq"]})
        assert got["ack"]["action"] == act2 and got["ack"]["seq"] > ack1["seq"]
        assert got["state"]["seq"] >= got["ack"]["seq"]
        if not bots:
            assert ack1["seq"] == prog["seq"] == s1["seq"] + 1
            assert got["ack"]["seq"] == got["state"]["seq"] == s1["seq"] + 2
        last = [states[0]["seq"], states[1]["seq"]]
    raise AssertionError("the game did not end in 100 turns")


def test_two_humans_progress_and_acks(fast: TestClient) -> None:
    client = fast
    created = create(client, players=2, seats=["human", "human"], seed=21)
    tid = created["id"]
    ta, tb = tokens(created)
    with client.websocket_connect(ws_path(tid)) as a, client.websocket_connect(ws_path(tid)) as b, \
            client.websocket_connect(ws_path(tid)) as spectator:
        _, sa = hello(a, ta, "Ana")
        assert sa["status"] == "waiting" and sa["view"] is None
        _, ss = hello(spectator)
        check_state(ss, None)
        _, _sb = hello(b, tb, "Bo")
        # a spectator sees a pick only as a progress frame: no card, no action
        playing = until(spectator, "state", lambda m: m["status"] == "playing")
        check_state(playing, None)
        assert playing["view"]["hand"] is None
        fa, fb = two_humans(a, b, (0, 1), random.Random(21))
        assert fa["view"]["result"] == fb["view"]["result"]
        fs = until(spectator, "state", lambda m: m["status"] == "finished")
        assert fs["view"]["result"] == fa["view"]["result"] and fs["view"]["hand"] is None
    check_finished(client, tid, fa, 2)


# --------------------------------------------------------------------------- 4. refusals


def test_pick_before_start_is_not_started(lite_client: TestClient) -> None:
    created = create(lite_client, players=3, seats=["human", "human", "bot:greedy"], seed=1)
    ta, tb = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as a:
        _, state = hello(a, ta, "Ana")
        assert state["status"] == "waiting" and state["view"] is None
        pick(a, 0, 0)
        assert error_code(a) == "not_started"
        still_alive(a)
        with lite_client.websocket_connect(ws_path(created["id"])) as b:
            hello(b, tb, "Bo")
            s = until(a, "state", lambda m: m["status"] == "playing")
            action = s["view"]["legal_actions"][0]
            pick(a, s["seq"], action)
            ack = until(a, "ack")
            assert ack["action"] == action


def test_stale_and_ahead_picks(lite_client: TestClient) -> None:
    created = create(lite_client, players=3, seats=["human", "bot:greedy", "bot:greedy"], seed=2)
    (token,) = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        _, s0 = hello(ws, token, "Ana")
        if s0["status"] != "playing":
            s0 = until(ws, "state", lambda m: m["status"] == "playing")
        assert s0["seq"] == 0
        # a seq ahead of the game
        pick(ws, 99, s0["view"]["legal_actions"][0])
        assert error_code(ws) == "stale"
        pick(ws, 0, s0["view"]["legal_actions"][0])
        assert until(ws, "ack")["seq"] >= 1
        s1 = latest(ws) if my_turn(0, 0)(latest(ws)) else until(ws, "state", my_turn(0, 0))
        # the decision opened at seq 3 (the reveal); bots may have picked since
        assert s1["seq"] >= 3 and s1["view"]["turn"] == 2
        # answering the new decision with the old state's seq
        pick(ws, 0, s1["view"]["legal_actions"][0])
        assert error_code(ws) == "stale"
        pick(ws, 2, s1["view"]["legal_actions"][0])
        assert error_code(ws) == "stale"
        still_alive(ws)
        # the seq of the state that opened the decision is not stale
        pick(ws, 3, s1["view"]["legal_actions"][-1])
        assert until(ws, "ack")["action"] == s1["view"]["legal_actions"][-1]


def test_repeated_and_illegal_picks_and_spectator(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "human"], seed=3)
    ta, tb = tokens(created)
    tid = created["id"]
    with lite_client.websocket_connect(ws_path(tid)) as a, lite_client.websocket_connect(ws_path(tid)) as b:
        hello(a, ta, "Ana")
        hello(b, tb, "Bo")
        sa = until(a, "state", lambda m: m["status"] == "playing")
        sb = until(b, "state", lambda m: m["status"] == "playing")
        legal = sa["view"]["legal_actions"]
        # an id that is not legal now, one that is no action at all
        for bad in (next(x for x in range(200) if x not in legal), 65535):
            pick(a, sa["seq"], bad)
            assert error_code(a) == "illegal"
        pick(a, sa["seq"], legal[0])
        assert until(a, "ack")["action"] == legal[0]
        # the same pick again is acknowledged and changes nothing
        pick(a, sa["seq"], legal[0])
        assert until(a, "ack")["seq"] == 1
        # a pick of the future, an illegal change
        pick(a, sa["seq"] + 5, legal[-1])
        assert error_code(a) == "stale"
        pick(a, sa["seq"], 65535)
        assert error_code(a) == "illegal"
        with lite_client.websocket_connect(ws_path(tid)) as spectator:
            _, ss = hello(spectator)
            check_state(ss, None)
            pick(spectator, ss["seq"], legal[0])
            assert error_code(spectator) == "not_your_turn"
            still_alive(spectator)
            # the spectator knows that seat 0 picked, not what
            assert ss["view"]["picked"] == [True, False]
            assert "committed" not in json.dumps(ss["table"])
        still_alive(a)
        pick(b, sb["seq"], sb["view"]["legal_actions"][0])
        got = collect(b, {"ack": None, "state": lambda m: m["seq"] == 2})
        assert got["state"]["view"]["turn"] == 2
        s2 = until(a, "state", lambda m: m["seq"] == 2)
        assert len(s2["view"]["collections"][0]) == 1 and s2["view"]["committed"] is None


def test_hello_refusals(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=4)
    (token,) = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        send(ws, type="ping")
        assert error_code(ws) == "hello_first"
        pick(ws, 0, 0)
        assert error_code(ws) == "hello_first"
        send(ws, type="name", name="Ana")
        assert error_code(ws) == "hello_first"
        send(ws, type="hello", token="not-a-token", name="Ana", last_seq=None)
        assert error_code(ws) == "bad_token"
        send(ws, type="ping")
        assert error_code(ws) == "hello_first"  # a refused hello does not join
        for bad in ("", "   ", "x" * 25, "Ana\x07", "A\nB", "\u200bAna"):
            send(ws, type="hello", token=token, name=bad, last_seq=None)
            assert error_code(ws) == "bad_name", repr(bad)
        welcome, _state = hello(ws, token, "x" * 24)
        assert welcome["seat"] == 0
        send(ws, type="hello", token=token, name="Ana", last_seq=None)
        assert error_code(ws) == "bad_message"  # a second hello
        send(ws, type="hello", token=None, name=None, last_seq=None)
        assert error_code(ws) == "bad_message"
        for bad in ("", "x" * 25, "tab\there"):
            send(ws, type="name", name=bad)
            assert error_code(ws) == "bad_name", repr(bad)
        send(ws, type="name", name="Ana")
        seats = until(ws, "seats", lambda m: m["seats"][0]["name"] == "Ana")
        assert seats["seats"][0]["joined"] and seats["seats"][0]["connected"]
        s = latest(ws)
        assert s["status"] == "playing" and s["view"]["turn"] == 1, s
        pick(ws, s["seq"], s["view"]["legal_actions"][0])
        assert until(ws, "ack")["action"] == s["view"]["legal_actions"][0]
    # a spectator cannot name itself
    with lite_client.websocket_connect(ws_path(created["id"])) as spectator:
        hello(spectator)
        send(spectator, type="name", name="Eve")
        assert error_code(spectator) == "bad_name"
        still_alive(spectator)


BAD_MESSAGES: list[tuple[str, str]] = [
    ("not json", "bad_message"),
    ("", "bad_message"),
    ("[1, 2]", "bad_message"),
    ('"ping"', "bad_message"),
    ("null", "bad_message"),
    ('{"type": "ping"}', "bad_message"),
    ('{"v": 1}', "bad_message"),
    ('{"v": 1, "type": "dance"}', "bad_message"),
    ('{"v": 1, "type": 7}', "bad_message"),
    ('{"v": 1, "type": "ping", "extra": 1}', "bad_message"),
    ('{"v": 1, "type": "pick", "seq": "0", "action": 1}', "bad_message"),
    ('{"v": 1, "type": "pick", "seq": 0, "action": 1.0}', "bad_message"),
    ('{"v": 1, "type": "pick", "seq": true, "action": 1}', "bad_message"),
    ('{"v": 1, "type": "pick", "seq": 0, "action": false}', "bad_message"),
    ('{"v": 1, "type": "pick", "seq": 0}', "bad_message"),
    ('{"v": 1, "type": "pick", "seq": -1, "action": 1}', "bad_message"),
    ('{"v": 1, "type": "pick", "seq": 0, "action": 99999999}', "bad_message"),
    ('{"v": 1, "type": "name", "name": 5}', "bad_message"),
    ('{"v": 1, "type": "name"}', "bad_message"),
    ('{"v": 1, "type": "hello", "token": 5}', "bad_message"),
    ('{"v": 1.0, "type": "ping"}', "bad_message"),
    ('{"v": 1e0, "type": "ping"}', "bad_message"),
    ('{"v": true, "type": "ping"}', "bad_message"),
    ('{"v": "1", "type": "ping"}', "bad_message"),
    ('{"v": null, "type": "ping"}', "bad_message"),
    ('{"v": 4, "type": "ping"}', "unsupported_version"),
    ('{"v": 0, "type": "hello", "token": null}', "unsupported_version"),
]


def test_bad_messages_are_refused_and_the_game_goes_on(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=5)
    (token,) = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        # before hello too: a bad message is refused for what it is
        ws.send_text('{"v": 1, "type": "ping", "x": 0}')
        assert error_code(ws) == "bad_message"
        _, state = hello(ws, token, "Ana")
        s = state if state["status"] == "playing" else until(ws, "state", my_turn(0, -1))
        for text, code in BAD_MESSAGES:
            ws.send_text(text)
            assert error_code(ws) == code, text
        # version 3 (what the server speaks), 2 and 1 (whose messages it kept) are all answered
        for v in (3, 2, 1):
            ws.send_text(json.dumps({"v": v, "type": "ping"}))
            assert until(ws, "pong")["v"] == VERSION
        # size: 4096 characters is fine, one more is too large
        ping = '{"v": 1, "type": "ping"}'
        ws.send_text(ping + " " * (4096 - len(ping)))
        until(ws, "pong")
        ws.send_text(ping + " " * (4097 - len(ping)))
        assert error_code(ws) == "too_large"
        ws.send_text(json.dumps({"v": 1, "type": "ping", "pad": "x" * 5000}))
        assert error_code(ws) == "too_large"
        # binary frames: not UTF-8, or too large, are refused; the socket stays open
        ws.send_bytes(b"\xff\xfe\x00garbage")
        assert error_code(ws) == "bad_message"
        ws.send_bytes(b" " * 5000)
        assert error_code(ws) == "too_large"
        still_alive(ws)
        # and the game still takes a legal pick on the state it was at
        action = s["view"]["legal_actions"][0]
        pick(ws, s["seq"], action)
        got = collect(ws, {"ack": None, "state": lambda m: m["seq"] > s["seq"]})
        assert got["ack"]["action"] == action
        assert got["state"]["view"]["turn"] == 2


def test_binary_text_frame_is_read_as_json(lite_client: TestClient) -> None:
    """The server reads a binary frame holding UTF-8 JSON like a text frame
    (``docs/server.md`` does not say; this pins the current behaviour)."""
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=6)
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        hello(ws)
        ws.send_bytes(b'{"v": 1, "type": "ping"}')
        until(ws, "pong")


def test_unknown_table_socket_gets_an_error_then_is_closed(lite_client: TestClient) -> None:
    with lite_client.websocket_connect(ws_path("no-such-table")) as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "no_table"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
    assert e.value.code == 1008


def test_one_seat_on_two_sockets(lite_client: TestClient) -> None:
    """Two tabs of one seat: both see the game, a pick from one can be changed from the other."""
    created = create(lite_client, players=2, seats=["human", "human"], seed=12)
    tid = created["id"]
    ta, tb = tokens(created)
    with lite_client.websocket_connect(ws_path(tid)) as a1, lite_client.websocket_connect(ws_path(tid)) as a2:
        hello(a1, ta, "Ana")
        hello(a2, ta)
        with lite_client.websocket_connect(ws_path(tid)) as b:
            hello(b, tb, "Bo")
            s1 = until(a1, "state", lambda m: m["status"] == "playing")
            s2 = until(a2, "state", lambda m: m["status"] == "playing")
            assert s1["view"] == s2["view"]
            action = s1["view"]["legal_actions"][0]
            pick(a1, s1["seq"], action)
            assert until(a1, "ack")["action"] == action
            mine = until(a2, "state", lambda m: m["view"]["committed"] == action)  # the other tab shows the pick
            assert mine["view"]["picked"] == [True, False] and mine["view"]["change_to"]
            assert until(b, "progress")["picked"] == [True, False]
            # the other tab changes the pick: both tabs show the new one, Bo nothing
            other = s1["view"]["legal_actions"][-1]
            assert other != action
            pick(a2, s2["seq"], other)
            assert until(a2, "ack")["action"] == other
            assert until(a1, "state", lambda m: m["view"]["committed"] == other)["seq"] == 1  # a change: no new seq
            # Bo is told nothing of it: the next frame he gets is a later chat message of Ana's
            send(a1, type="chat", text="hi")
            assert recv(b)["type"] == "chat"
        seats = until(a1, "seats", lambda m: m["seats"][1]["name"] == "Bo" and not m["seats"][1]["connected"])
        assert seats["seats"][0]["connected"]
    # the second tab leaving keeps the seat connected while the first is open
    with lite_client.websocket_connect(ws_path(tid)) as a3:
        hello(a3, ta)
        with lite_client.websocket_connect(ws_path(tid)) as a4:
            hello(a4, ta)
        assert lite_client.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] is True
    assert lite_client.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] is False


def test_options(lite_client: TestClient) -> None:
    options = lite_client.get("/api/options").json()
    assert options["protocol"] == "sushigo-ws/3"
    assert options["max_name"] == 24
    assert options["editions"] == {"base": [2, 5], "party": [2, 8]}
    assert "greedy" in options["bots"] and "random" in options["bots"]
    assert "special_order" in options["menu_items"] and "Sushi Go!" in options["menus"]


# --------------------------------------------------------------------------- 5. reconnect


def test_reconnect_keeps_hand_and_committed_pick(fast: TestClient) -> None:
    client = fast
    created = create(client, players=3, seats=["human", "human", "bot:greedy"], seed=8)
    tid = created["id"]
    ta, tb = tokens(created)
    with client.websocket_connect(ws_path(tid)) as b:
        hello(b, tb, "Bo")
        with client.websocket_connect(ws_path(tid)) as a:
            hello(a, ta, "Ana")
            sa = until(a, "state", lambda m: m["status"] == "playing")
            hand = sa["view"]["hand"]
            action = base_choice(sa["view"], random.Random(1))
            pick(a, sa["seq"], action)
            ack = until(a, "ack")
            assert ack["action"] == action
        # B sees A leave
        left = until(b, "seats", lambda m: m["seats"][0]["name"] == "Ana" and not m["seats"][0]["connected"])
        assert left["seats"][0]["joined"]
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["seats"][0]["connected"] is False
        with client.websocket_connect(ws_path(tid)) as a2:
            welcome, s = hello(a2, ta, None, ack["seq"])
            assert welcome["seat"] == 0 and welcome["seq"] >= ack["seq"]
            check_state(s, 0)
            assert s["status"] == "playing"
            assert s["view"]["hand"] == hand
            assert s["view"]["committed"] == action
            assert s["view"]["legal_actions"] == []
            assert s["view"]["turn"] == 1
            assert s["table"]["seats"][0]["name"] == "Ana"  # the name survives without a new one
            back = until(b, "seats", lambda m: m["seats"][0]["connected"])
            assert back["seats"][0]["name"] == "Ana"
            # the pick sent again (a client that did not see its ack) is acknowledged, nothing changes
            pick(a2, sa["seq"], action)
            assert until(a2, "ack") == {"v": VERSION, "type": "ack", "seq": s["seq"], "action": action}
            # B finishes the turn; A sees the reveal with its pick in its collection
            sb = latest(b)
            # hidden picks do not make new states: B still decides on the first one
            assert my_turn(1, -1)(sb) and sb["view"]["turn"] == 1, sb
            b_action = base_choice(sb["view"], random.Random(2))
            pick(b, sb["seq"], b_action)
            reveal = until(a2, "state", lambda m: m["seq"] > s["seq"])
            assert reveal["view"]["turn"] == 2 and reveal["view"]["committed"] is None
            assert len(reveal["view"]["hand"]) == len(hand) - (2 if "+" in sa["view"]["legal"][
                sa["view"]["legal_actions"].index(action)] else 1)
            # and the two humans play on to the end (A on its new socket)
            finals = two_humans(a2, b, (0, 1), random.Random(3), after=(sa["seq"], sb["seq"]), bots=True)
    check_finished(client, tid, finals[0], 3)


# --------------------------------------------------------------------------- 6. limits and origins


def test_rate_limit_refuses_then_recovers(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(rate=4, burst=3, flood_close=1000)) as c:
        created = create(c, players=2, seats=["human", "bot:greedy"])
        with c.websocket_connect(ws_path(created["id"])) as ws:
            for _ in range(10):  # 3 pass (the burst), then about 4 a second
                send(ws, type="ping")
            kinds: list[str] = []
            while len(kinds) < 10:
                m = recv(ws)
                if m["type"] in ("pong", "error"):
                    kinds.append(m["type"] if m["type"] == "pong" else m["code"])
            # no hello was sent: the pings that pass the bucket are hello_first
            assert kinds.count("rate_limited") >= 4, kinds
            assert set(kinds) <= {"rate_limited", "hello_first"}, kinds
            assert kinds[:3] == ["hello_first"] * 3, kinds
            # refilled at 4 a second: the connection works again
            once_refilled(ws, "welcome", type="hello", token=None, name=None, last_seq=None)
            until(ws, "state")
            once_refilled(ws, "pong", type="ping")


def once_refilled(ws: Any, answer: str, **message: Any) -> Msg:
    """Send ``message`` until the rate limit lets it through (polled, with a
    deadline) and return its ``answer`` frame (other frames are skipped)."""
    deadline = time.monotonic() + 10
    while True:
        send(ws, **message)
        while (m := recv(ws))["type"] not in (answer, "error"):
            pass
        if m["type"] == answer:
            return m
        assert m["code"] == "rate_limited", m
        assert time.monotonic() < deadline, "the rate limit never let a message through"
        time.sleep(0.05)


def test_flooding_connection_is_closed(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(rate=0.01, burst=3, flood_close=3)) as c:
        created = create(c, players=2, seats=["human", "bot:greedy"])
        with c.websocket_connect(ws_path(created["id"])) as ws:
            hello(ws)
            send(ws, type="ping")
            send(ws, type="ping")
            until(ws, "pong")
            until(ws, "pong")
            for _ in range(3):
                send(ws, type="ping")
            for _ in range(3):  # each refused ping is told so
                m = recv(ws)
                assert (m["type"], m.get("code")) == ("error", "rate_limited"), m
                assert m["message"] == "more than 0.01 messages a second (bursts of 3): this message was not read"
            notice = recv(ws)
            assert notice["code"] == "rate_limited" and "the server closes this connection" in notice["message"]
            with pytest.raises(WebSocketDisconnect) as e:
                recv(ws)
            assert e.value.code == 1008


def test_bad_messages_count_towards_the_flood_limit(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(flood_close=4)) as c:
        created = create(c, players=2, seats=["human", "bot:greedy"])
        with c.websocket_connect(ws_path(created["id"])) as ws:
            hello(ws)
            for _ in range(3):
                ws.send_text("nope")
                assert error_code(ws) == "bad_message"
            ws.send_text("nope")  # the 4th refusal: its error, then the notice, then the close
            assert error_code(ws) == "bad_message"
            notice = recv(ws)
            assert notice["type"] == "error" and notice["code"] == "rate_limited", notice
            assert notice["message"] == "4 messages refused within 10 s: the server closes this connection"
            with pytest.raises(WebSocketDisconnect) as e:
                recv(ws)
            assert e.value.code == 1008


def test_connections_per_address(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(connections_per_address=2)) as c:
        created = create(c, players=2, seats=["human", "bot:greedy"])
        path = ws_path(created["id"])
        with c.websocket_connect(path) as one:
            with c.websocket_connect(path) as two:
                hello(one)
                hello(two)
                with pytest.raises(WebSocketDisconnect) as e, c.websocket_connect(path):
                    pass
                assert e.value.code == 1008
                still_alive(one)
            # a closed socket frees its place
            with c.websocket_connect(path) as three:
                hello(three)
                still_alive(three)


def test_tables_per_hour(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(tables_per_hour=2)) as c:
        assert c.post("/api/tables", json={"players": 2}).status_code == 400  # refused ones do not count
        create(c, players=2, seats=["human", "bot:greedy"])
        create(c, players=2, seats=["human", "bot:random"])
        r = c.post("/api/tables", json={"players": 2, "seats": ["human", "bot:greedy"]})
        assert r.status_code == 429
        body = r.json()
        assert set(body) == {"error"} and "\n" not in body["error"] and "hour" in body["error"]
        assert len(c.get("/api/tables").json()["tables"]) == 2


def test_max_body(sqlite_url: str) -> None:
    with make_client(sqlite_url, limits=Limits(max_body=200)) as c:
        body = json.dumps({"players": 2, "seats": ["human", "bot:greedy"]})
        ok = body + " " * (200 - len(body))
        assert c.post("/api/tables", content=ok, headers={"content-type": "application/json"}).status_code == 201
        r = c.post("/api/tables", content=ok + " ", headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert set(r.json()) == {"error"} and "200" in r.json()["error"]

        def chunks() -> Iterator[bytes]:  # no content-length: the stream is counted
            yield body.encode()
            for _ in range(10):
                yield b" " * 50

        r = c.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert set(r.json()) == {"error"}


def test_origin_check(sqlite_url: str) -> None:
    """A browser's Origin must be a configured origin exactly: scheme, host and port."""
    with make_client(sqlite_url, allow_origins=("http://friend.example", "HTTP://TestServer:80/")) as c:
        created = create(c, players=2, seats=["human", "bot:greedy"])
        path = ws_path(created["id"])
        for origin in ("http://evil.example", "http://testserver.evil.example", "null",
                       "http://friend.example.evil", "https://evil.example", "https://testserver",
                       "https://friend.example", "http://testserver:8000", "http://TESTSERVER",
                       "http://friend.example/", " http://testserver", ""):
            with pytest.raises(WebSocketDisconnect) as e, c.websocket_connect(path, headers={"Origin": origin}):
                pass
            assert e.value.code == 1008, origin
        for headers in ({"Origin": "http://testserver"}, {"Origin": "http://friend.example"}, {}):
            with c.websocket_connect(path, headers=headers) as ws:
                hello(ws)
                still_alive(ws)


def test_origin_is_never_taken_from_a_host_name(sqlite_url: str) -> None:
    """DNS rebinding: a page on evil.example whose name is pointed at the server sends
    Origin http://evil.example:8000 and Host evil.example:8000; it must not pass.  A page
    this server sent at an IP address (or localhost) is its own origin."""
    with make_client(sqlite_url) as c:
        created = create(c, players=2, seats=["human", "bot:greedy"])
        path = ws_path(created["id"])
        for host, origin in (("evil.example:8000", "http://evil.example:8000"),
                             ("testserver", "http://testserver"),
                             ("127.0.0.1:8000", "http://127.0.0.2:8000"),
                             ("127.0.0.1:8000", "https://127.0.0.1:8000"),
                             ("127.0.0.1:8000", "http://127.0.0.1:8001")):
            with (pytest.raises(WebSocketDisconnect) as e,
                  c.websocket_connect(path, headers={"Host": host, "Origin": origin})):
                pass
            assert e.value.code == 1008, (host, origin)
        for host in ("127.0.0.1:8000", "192.168.1.5:8080", "[::1]:8000", "localhost:8000"):
            with c.websocket_connect(path, headers={"Host": host, "Origin": f"http://{host}"}) as ws:
                hello(ws)
                still_alive(ws)


def test_origin_default_app_refuses_foreign(lite_client: TestClient) -> None:
    """An app given no origins takes no browser page from a host name, its own Host's
    included (``sushigo serve`` always gives it the address it prints)."""
    created = create(lite_client, players=2, seats=["human", "bot:greedy"])
    path = ws_path(created["id"])
    for origin in ("http://friend.example", "http://testserver"):
        with pytest.raises(WebSocketDisconnect) as e, lite_client.websocket_connect(path, headers={"Origin": origin}):
            pass
        assert e.value.code == 1008
    with lite_client.websocket_connect(path) as ws:
        hello(ws)


# --------------------------------------------------------------------------- 7. create errors


CREATE_ERRORS: list[tuple[Any, str]] = [
    (b"{not json", "json"),
    (b"[1, 2]", "object"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "colour": "red"}, "colour"),
    ({"players": 3, "seats": ["human", "bot:greedy"]}, "seats"),
    ({"players": 6, "seats": ["human"] + ["bot:greedy"] * 5}, "6"),
    ({"edition": "party", "players": 9, "seats": ["human"] + ["bot:greedy"] * 8}, "players"),
    ({"players": 2, "seats": ["human", "bot:nosuchbot"]}, "nosuchbot"),
    ({"players": 2, "seats": ["human", "bot:cmd:python3 -c pass"]}, "external"),
    ({"players": 2, "seats": ["human", "bot:"]}, "bot"),
    ({"players": 2, "seats": ["bot:greedy", "bot:random"]}, "human"),
    ({"edition": "party", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"],
      "menu": "Lunch Special"}, "lunch special"),
    ({"edition": "party", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"],
      "menu": ["maki", "tempura", "sashimi", "caviar", "chopsticks", "wasabi", "pudding"]}, "caviar"),
    ({"edition": "party", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"],
      "menu": ["maki", "tempora", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"]},
     "unknown menu item 'tempora' (did you mean 'tempura'?)"),
    ({"edition": "party", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"],
      "menu": "master menue"}, "(did you mean 'master menu'?)"),
    ({"edition": "party", "players": 2, "seats": ["human", "bot:greedy"],
      "menu": ["maki", "tempura", "sashimi", "edamame", "chopsticks", "wasabi", "pudding"]}, "edamame"),
    ({"edition": "party", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"],
      "menu": ["maki", "temaki", "sashimi", "tofu", "chopsticks", "wasabi", "pudding"]}, "roll"),
    ({"players": 2, "seats": ["human", "robot"]}, "robot"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "menu": "Sushi Go!"}, "party"),
    ({"edition": "party", "players": 2, "seats": ["human", "bot:greedy"], "pass_both_ways": True}, "pass_both_ways"),
    ({"players": "2", "seats": ["human", "bot:greedy"]}, "players"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "timer": 0}, "timer"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "timer": TIMER_RANGE[0] - 1}, "timer"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "timer": TIMER_RANGE[1] + 1}, "timer"),
    ({"edition": "party", "players": 2, "seats": ["human", "bot:greedy"], "menu": "Sushi Go!",
      "menu_card_draw": 9}, "menu_card_draw"),
    ({"edition": "party", "players": 2, "seats": ["human", "bot:greedy"], "menu": "Sushi Go!",
      "wasabi_colour": "green"}, "wasabi_colour must be one of nigiri, own"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "wasabi_colour": "own"},
     "wasabi_colour is a sushi go party! option"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "edition": "deluxe"}, "edition"),
    ({"seats": ["human", "bot:greedy"]}, "players"),
    # rule options by name (the lobby's form): the engine's checks, one line each
    ({"players": 2, "seats": ["human", "bot:greedy"], "options": {"pass_both_way": True}},
     "unknown rule option 'pass_both_way'"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "options": {"pass_both_ways": "yes"}},
     "pass_both_ways must be true or false"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "options": {"menu_card_draw": 3}},
     "menu_card_draw is a sushi go party! option"),
    ({"edition": "party", "players": 2, "seats": ["human", "bot:greedy"], "menu": "Sushi Go!",
      "options": {"menu_card_draw": 0}}, "menu_card_draw must be a whole number from 1 to 8"),
    ({"edition": "party", "players": 2, "seats": ["human", "bot:greedy"], "menu": "Sushi Go!",
      "options": {"reshuffle": True}}, "reshuffle is a base-game option"),
    ({"edition": "party", "players": 2, "seats": ["human", "bot:greedy"], "menu": "Sushi Go!",
      "wasabi_colour": "own", "options": {"wasabi_colour": "own"}}, "wasabi_colour is given twice"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "options": {"reshuffle": [True]}}, "options"),
    ({"players": 2, "seats": ["human", "bot:greedy"], "options": {f"o{i}": True for i in range(21)}}, "options"),
]


def test_rule_options_by_name_make_the_table_and_its_rematch(lite_client: TestClient) -> None:
    """``options`` names any rule option ``GET /api/options`` lists (``rule_options``, the
    engine's); the table keeps them, and so does its rematch."""
    listed = lite_client.get("/api/options").json()["rule_options"]
    assert [o["name"] for o in listed] == [o.name for o in RULE_OPTIONS]
    assert {o["kind"] for o in listed} == {"switch", "number", "choice"}
    party = {"menu_card_draw": 3, "two_player_pudding_penalty": True, "wasabi_colour": "own",
             "uramaki_split": "3-5-4"}
    created = create(lite_client, edition="party", players=2, seats=["human", "bot:greedy"], menu="Sushi Go!",
                     options=party)
    assert lite_client.get(f"/api/tables/{created['id']}").json()["options"] == party
    service = lite_client.app.state.service  # type: ignore[attr-defined]
    again = service._rematch_request(service.tables[created["id"]])  # "Play again" asks for the same rules
    assert again.options == party and again.menu == list(service.tables[created["id"]].rules.menu)
    base = create(lite_client, players=3, seats=["human", "bot:greedy", "bot:greedy"],
                  options={"pass_both_ways": True}, reshuffle=True)  # a flat key of earlier clients too
    assert lite_client.get(f"/api/tables/{base['id']}").json()["options"] == {"pass_both_ways": True,
                                                                              "reshuffle": True}


def test_create_errors(lite_client: TestClient) -> None:
    for body, mention in CREATE_ERRORS:
        if isinstance(body, bytes):
            r = lite_client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        else:
            r = lite_client.post("/api/tables", json=body)
        assert r.status_code == 400, (body, r.status_code, r.text)
        answer = r.json()
        assert set(answer) == {"error"}, answer
        message = answer["error"]
        assert isinstance(message, str) and message and "\n" not in message, answer
        assert mention in message.lower(), (body, message)
    assert lite_client.get("/api/tables").json() == {"tables": []}


def test_missing_and_unfinished_tables(client: TestClient) -> None:
    r = client.get("/api/tables/nope")
    assert r.status_code == 404 and set(r.json()) == {"error"}
    r = client.get("/api/tables/nope/record")
    assert r.status_code == 404 and set(r.json()) == {"error"}
    created = create(client, players=2, seats=["human", "bot:greedy"])
    r = client.get(f"/api/tables/{created['id']}/record")
    assert r.status_code == 409
    assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]
    summary = client.get(f"/api/tables/{created['id']}").json()
    assert summary["status"] == "waiting" and "totals" not in summary
    assert summary["seats"][0] == {"seat": 0, "kind": "human", "bot": None, "name": None, "account": None,
                                   "rating": None, "joined": False, "connected": False, "away_since": None,
                                   "stand_in": None, "reinvited": False}
    assert summary["seats"][1]["kind"] == "bot" and summary["seats"][1]["bot"] == "greedy"
    listing = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listing] == [created["id"]]


# --------------------------------------------------------------------------- 8. move timer


@pytest.mark.slow
def test_move_timer_decides_for_an_idle_human(client: TestClient) -> None:
    created = create(client, players=2, seats=["human", "bot:greedy"], seed=9, timer=TIMER_RANGE[0])
    tid = created["id"]
    (token,) = tokens(created)
    path = ws_path(tid)
    with client.websocket_connect(path) as ws, client.websocket_connect(path) as spectator:
        hello(spectator)
        started = time.time()
        hello(ws, token, "Idle")
        s = until(ws, "state", lambda m: m["status"] == "playing")
        assert s["seq"] == 0 and s["table"]["timer"] == TIMER_RANGE[0]
        # the deadline, as a second socket of the seat is told when it joins
        with client.websocket_connect(path) as again:
            _, s_again = hello(again, token)
        deadline = s_again["deadline"]
        assert s_again["view"]["turn"] == 1 and s_again["view"]["committed"] is None
        assert deadline is not None and started < deadline <= time.time() + TIMER_RANGE[0] + 0.5
        spec_state = until(spectator, "state", lambda m: m["status"] == "playing")
        assert spec_state["deadline"] is None
        # nobody picks for seat 0: the timer does, and the turn is revealed
        s2 = until(ws, "state", lambda m: m["seq"] > 0)
        assert time.time() >= deadline - 0.05
        assert s2["view"]["turn"] == 2 and len(s2["view"]["collections"][0]) == 1
        assert s2["view"]["committed"] is None and s2["view"]["legal_actions"]
        # a pick in time is the seat's own
        action = s2["view"]["legal_actions"][0]
        pick(ws, s2["seq"], action)
        ack = until(ws, "ack")
        assert ack["action"] == action
        until(spectator, "state", lambda m: m["seq"] >= ack["seq"])
        # the log told the seat what the timer chose for it, the others only that time ran out
        (own,) = [line for line in ws.log if line["kind"] == "timer"]
        (public,) = [line for line in spectator.log if line["kind"] == "timer"]
        reveal = next(line for line in ws.log if line["kind"] == "pick" and line["seat"] == 0)
        first = s2["view"]["collections"][0][0]
        assert own["seat"] == public["seat"] == 0 and own["round"] == own["turn"] == 1
        assert own["text"] == f"Time ran out: greedy chose {CARD_LABELS[parse_card(first)]} for you."
        assert public["text"] == "Time ran out for {0}: greedy decided for them."
        assert reveal["cards"] == [first]
        assert ws.log.index(own) < ws.log.index(reveal)
    events = sorted(store_of(client).load(table_id=tid)[0].events, key=lambda e: e.seq)
    mine = [(e.seat, e.by) for e in events if e.seat == 0]
    assert mine == [(0, "timer"), (0, "seat")]
    assert [e.seq for e in events if e.seat == 0][1] == ack["seq"]
    assert [e.by for e in events if e.seat == 1] == ["bot"] * len([e for e in events if e.seat == 1])


def test_published_states_carry_the_deadline(lite_client: TestClient) -> None:
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=9, timer=TIMER_RANGE[0])
    (token,) = tokens(created)
    with lite_client.websocket_connect(ws_path(created["id"])) as ws:
        hello(ws, token, "Idle")
        s = until(ws, "state", lambda m: m["status"] == "playing")
        assert s["deadline"] is not None, "the first state of the game has no deadline"
        pick(ws, s["seq"], s["view"]["legal_actions"][0])
        s2 = until(ws, "state", my_turn(0, s["seq"]))
        assert s2["deadline"] is not None, "the state of the next decision has no deadline"


def test_the_log_says_who_left_and_came_back(lite_client: TestClient) -> None:
    created = create(lite_client, players=3, seats=["human", "human", "bot:greedy"], seed=4)
    tid = created["id"]
    a, b = tokens(created)
    path = ws_path(tid)
    with lite_client.websocket_connect(path) as ws_a:
        hello(ws_a, a, "Ana")
        with lite_client.websocket_connect(path) as ws_b:
            hello(ws_b, b, "Ben")
            s = until(ws_a, "state", lambda m: m["status"] == "playing")
        until(ws_a, "seats", lambda m: not m["seats"][1]["connected"])
        with lite_client.websocket_connect(path) as ws_b:
            hello(ws_b, b)
            until(ws_a, "seats", lambda m: m["seats"][1]["connected"])
            # the returning socket is told the whole log, its own return included
            until(ws_b, "seats")
            assert [line["text"] for line in ws_b.log] == ["{1} left the table.", "{1} is back."]
        assert s["seq"] == 0
    assert [(line["kind"], line["seat"], line["text"]) for line in ws_a.log] == [
        ("away", 1, "{1} left the table."), ("back", 1, "{1} is back.")]


def test_each_bot_has_one_name_in_the_lobby_the_table_and_the_record(fast: TestClient) -> None:
    created = create(fast, players=4, seats=["human", "bot:greedy", "bot:random", "bot:greedy"], seed=8)
    tid = created["id"]
    (token,) = tokens(created)
    names = ["Ana", "greedy bot 1", "random bot", "greedy bot 2"]
    with fast.websocket_connect(ws_path(tid)) as ws:
        _, state = hello(ws, token, "Ana")
        assert [s["name"] for s in state["table"]["seats"]][1:] == names[1:]
        listed = next(t for t in fast.get("/api/tables").json()["tables"] if t["id"] == tid)
        assert [s["name"] for s in listed["seats"]][1:] == names[1:]
        play_alone(ws, 0, random.Random(8), base_choice)
    record = json.loads(fast.get(f"/api/tables/{tid}/record").text)
    assert record["meta"]["names"] == names


# --------------------------------------------------------------------------- 9. names


HTML_NAME = "<img src=x onerror=f()>"


def test_html_names_are_stored_verbatim(client: TestClient) -> None:
    created = create(client, players=3, seats=["human", "human", "bot:greedy"], seed=10)
    tid = created["id"]
    ta, tb = tokens(created)
    assert len(HTML_NAME) <= 24
    with client.websocket_connect(ws_path(tid)) as a, client.websocket_connect(ws_path(tid)) as b:
        hello(a, ta, HTML_NAME)
        seats = until(a, "seats", lambda m: m["seats"][0]["name"] is not None)
        assert seats["seats"][0]["name"] == HTML_NAME
        _, sb = hello(b, tb, None)
        assert sb["table"]["seats"][0]["name"] == HTML_NAME
        send(b, type="name", name="\"Bo\" & 'Zoë' 🍣</b>")
        playing = until(a, "state", lambda m: m["status"] == "playing")
        assert [s["name"] for s in playing["table"]["seats"][:2]] == [HTML_NAME, "\"Bo\" & 'Zoë' 🍣</b>"]
        # names longer than 24 characters are refused, even HTML ones
        send(a, type="name", name="<img src=x onerror=alert(1)>")
        assert error_code(a) == "bad_name"
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["seats"][0]["name"] == HTML_NAME
    assert summary["seats"][1]["name"] == "\"Bo\" & 'Zoë' 🍣</b>"
    listing = client.get("/api/tables").json()["tables"]
    assert listing[0]["seats"][0]["name"] == HTML_NAME
    stored = store_of(client).load(table_id=tid)[0].seats
    assert stored[0].name == HTML_NAME


def test_finished_table_leaves_memory_and_can_still_be_watched(lite_client: TestClient) -> None:
    """Once a finished table has no watcher it is dropped from memory; a new
    socket revives it from the database and sees the same final state."""
    created = create(lite_client, players=2, seats=["human", "bot:greedy"], seed=21)
    (token,) = tokens(created)
    tid = created["id"]
    service = lite_client.app.state.service  # type: ignore[attr-defined]
    with lite_client.websocket_connect(ws_path(tid)) as ws:
        _, state = hello(ws, token, "Solo")
        while state["status"] != "finished":
            state = next_decision(ws, 0, state["seq"] - 1)
            if state["status"] == "finished":
                break
            pick(ws, state["seq"], state["view"]["legal_actions"][0])
            state = until(ws, "state", lambda m, state=state: m["seq"] > state["seq"] and (
                m["status"] == "finished" or bool(m["view"]["legal_actions"])))
        final = state
    deadline = time.monotonic() + 5
    while tid in service.tables and time.monotonic() < deadline:
        time.sleep(0.02)
    assert tid not in service.tables
    with lite_client.websocket_connect(ws_path(tid)) as ws:
        _, again = hello(ws, token)
        assert again["status"] == "finished" and again["seq"] == final["seq"]
        assert again["view"] == final["view"]


def test_every_http_error_has_the_one_shape(sqlite_url: str) -> None:
    """Unknown routes, wrong methods and even a server bug answer {"error": "one line"}."""
    from sushigo.server.app import create_app

    app = create_app(sqlite_url)
    with TestClient(app, base_url="http://testserver", raise_server_exceptions=False) as c:
        for method, path, status in (("GET", "/api/nope", 404), ("GET", "/static/nope.js", 404),
                                     ("PUT", "/api/tables", 405), ("GET", "/api/tables/none", 404)):
            r = c.request(method, path)
            assert r.status_code == status and set(r.json()) == {"error"}, (method, path, r.text)
            assert "\n" not in r.json()["error"]

        async def broken() -> None:
            raise RuntimeError("a bug")

        app.state.service.listing = broken
        r = c.get("/api/tables")
        assert r.status_code == 500 and r.json() == {"error": "internal server error"}


# --------------------------------------------------------------------------- the page's words


def test_the_page_s_card_words_and_rules_are_the_engine_s(lite_client: TestClient) -> None:
    from importlib import resources

    from sushigo.engine.guide import card_words, demonstrations, dishes, how_to_play, how_to_play_said

    r = lite_client.get("/static/words.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    prefix = "export const WORDS = "
    assert r.text.startswith(prefix)
    from sushigo.engine.editions import BASE, PARTY

    assert json.loads(r.text[len(prefix):].rstrip().rstrip(";")) == {
        **card_words(), "editions": {"base": BASE.words(), "party": PARTY.words()}}
    static = resources.files("sushigo.server") / "static"
    cards_js = (static / "cards.js").read_text(encoding="utf-8")
    assert "Egg nigiri" not in cards_js and "per pair" not in cards_js  # no second copy of the words
    for page in ("table.js", "replay.js", "lobby.js", "scorekeeper.js"):  # nor of the editions' names
        text = (static / page).read_text(encoding="utf-8")
        assert '"Sushi Go Party!"' not in text and '"Desserts"' not in text and '"Puddings"' not in text, page
    created = create(lite_client, edition="party", players=4, menu="Master Menu",
                     seats=["human", "bot:greedy", "bot:greedy", "bot:greedy"])
    got = lite_client.get(f"/api/tables/{created['id']}/rules").json()
    rules = Rules.party(4, "Master Menu")
    assert got == {"edition": "party", "how_to_play": how_to_play(rules),
                   "how_to_play_msg": [m.to_json() for m in how_to_play_said(rules)],
                   "dishes": [d.to_json() for d in dishes(rules)],
                   "demonstrations": [d.to_json() for d in demonstrations(rules)]}
    missing = lite_client.get("/api/tables/nope/rules")
    assert missing.status_code == 404 and missing.json() == {"error": "no table 'nope'"}
