"""The bot API (docs/bot-api.md) on a real server process: challenges, the event
stream, the game streams and the calls, played by bots over HTTP (in Python
threads, and a bot written in JavaScript from the docs alone), against other
bots and a person at the table's page socket.

Every line of every game stream is checked against the table's stored record:
each ``pick`` is exactly the bot protocol's message built from the seat's view
of the game rebuilt at that ``seq`` (so a bot learns its seat's view, never
more), each decision of the seat is asked for once, and ``end`` carries the
record's result.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from sushigo.bots.base import view_for
from sushigo.bots.external import pick_message
from sushigo.engine.editions import new_game
from sushigo.engine.worlds import world_document
from sushigo.server.store import Store
from sushigo.server.tables import _rules_of

from .conftest import ServerProcess

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

PASSWORD = "correct horse battery"
BOTS = Path(__file__).parent / "bots"


class Person:
    """An account signed in over HTTP (its session cookie kept)."""

    def __init__(self, url: str, name: str, *, bot: bool = False) -> None:
        self.url, self.name = url, name
        self.http = httpx.Client(base_url=url, timeout=10)
        r = self.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.session = r.cookies["sushigo_session"]
        self.token = ""
        if bot:
            assert self.http.post("/api/account/bot", json={"password": PASSWORD}).is_success
            self.token = self.new_token()

    def new_token(self) -> str:
        r = self.http.post("/api/account/tokens", json={"password": PASSWORD, "label": "tests"})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def call(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """A bot API call with the token (``body``: a POST)."""
        if body is None:
            return httpx.get(self.url + path, headers=self.auth, timeout=10)
        return httpx.post(self.url + path, json=body, headers=self.auth, timeout=10)

    def lines(self, path: str) -> Iterator[dict[str, Any]]:
        """A stream's lines (empty lines skipped), 30 s at most between two."""
        with httpx.stream("GET", self.url + path, headers=self.auth, timeout=httpx.Timeout(10, read=30)) as r:
            assert r.status_code == 200, r.read()
            assert r.headers["content-type"].startswith("application/x-ndjson")
            for line in r.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def challenge(self, bot: str, as_bot: bool = False, **settings: Any) -> dict[str, Any]:
        if as_bot:
            r = self.call(f"/api/challenge/{bot}", settings)
        else:
            r = self.http.post(f"/api/challenge/{bot}", json=settings)
        assert r.status_code == 201, r.text
        return dict(r.json()["challenge"])


def play_stream(bot: Person, table: str, into: list[dict[str, Any]], query: str = "") -> None:
    """Play the bot's seat at ``table`` over its game stream, first legal entry each time."""
    for message in bot.lines(f"/api/bot/game/{table}/stream{query}"):
        into.append(message)
        if message["type"] == "pick":
            body = {"seq": message["seq"], "pick": message["legal"][0]}
            while (r := bot.call(f"/api/bot/game/{table}/pick", body)).status_code == 429:
                threading.Event().wait(1.0)  # as docs/bot-api.md says: a second, then again
            assert r.status_code == 200, r.text
        if message["type"] == "end":
            return


def person_plays(server: ServerProcess, person: Person, table: str, seat: int, token: str | None = None
                 ) -> dict[str, Any]:
    """The person plays their account's seat from the table's page socket (no secret: signed in;
    ``token``: the seat's invite, as play now gives it)."""
    with connect(f"{server.ws_url}/ws/tables/{table}", open_timeout=10,
                 additional_headers={"Cookie": f"sushigo_session={person.session}"}) as ws:
        hello = {"token": token, "name": person.name} if token else {"seat": seat}
        ws.send(json.dumps({"v": 1, "type": "hello", **hello, "last_seq": None}))
        state: dict[str, Any] = {}
        while True:
            msg = json.loads(ws.recv(timeout=30))
            assert msg["type"] != "error", msg
            if msg["type"] != "state":
                continue
            state = msg
            if state["status"] == "finished":
                return state
            view = state.get("view")
            if state["status"] == "playing" and view and view["legal_actions"] and view.get("committed") is None:
                ws.send(json.dumps({"v": 1, "type": "pick", "seq": state["seq"], "action": view["legal_actions"][0]}))


def check_against_record(db: str, table: str, seat: int, lines: list[dict[str, Any]]) -> None:
    """Every line of the seat's game stream against the stored game (module docstring)."""
    store = Store(db)
    try:
        (loaded,) = store.load(table_id=table)
        record = json.loads(store.record(table) or "null")
    finally:
        store.close()
    games = [new_game(_rules_of(loaded.row), seed=loaded.row.seed)]
    for event in loaded.events:
        assert event.by in ("seat", "bot", "timer"), event  # nobody changed their mind here
        g = games[-1].clone()
        g.commit(event.seat, event.action)
        games.append(g)
    assert lines[0]["type"] == "game" and lines[0]["game"] == table and lines[0]["seat"] == seat
    picks = [m for m in lines if m["type"] == "pick"]
    for m in picks:
        expected = pick_message(view_for(games[m["seq"]], seat, None), table)
        assert {k: v for k, v in m.items() if k not in ("seq", "deadline", "world")} == expected
        if "world" in m:  # asked for (?world=true): the seat's information set, exactly
            assert m["world"] == world_document(games[m["seq"]], seat)
    asked = [m["seq"] for m in picks]
    decided = [i for i, e in enumerate(loaded.events) if e.seat == seat]
    assert len(asked) == len(decided) == len(set(asked))  # each decision asked for once, and answered
    assert all(e.by == "seat" for e in loaded.events if e.seat == seat)
    (end,) = [m for m in lines if m["type"] == "end"]
    assert end == {"type": "end", "game": table, "status": "finished", "result": record["result"]}
    assert lines[-1] is end


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(f"sqlite:///{tmp_path / 'bots.db'}") as s:
        yield s


@pytest.mark.parametrize(("edition", "players"), [("base", 3), ("party", 2)])
def test_a_bot_challenges_a_bot_and_every_line_matches_the_record(server: ServerProcess, edition: str,
                                                                  players: int) -> None:
    ann, bea = Person(server.url, "Ann_Bot", bot=True), Person(server.url, "Bea_Bot", bot=True)
    events = bea.lines("/api/bot/stream/event")
    made = ann.challenge("bea_bot", as_bot=True, edition=edition, players=players, timer=120)
    assert made["state"] == "open" and made["challenger"] == {"name": "Ann_Bot", "bot": True}
    told = next(events)
    assert told == {"type": "challenge", "challenge": made}
    accepted = bea.call(f"/api/bot/challenge/{made['id']}/accept", {}).json()["challenge"]
    assert accepted["state"] == "accepted" and accepted["url"] == f"/t/{accepted['table']}"
    table = accepted["table"]
    start = next(events)
    assert start["type"] == "gameStart" and start["game"]["id"] == table
    assert ann.call(f"/api/challenge/{made['id']}").json()["challenge"]["table"] == table
    summary = httpx.get(f"{server.url}/api/tables/{table}").json()
    seats = {s["account"]: s["seat"] for s in summary["seats"] if s["kind"] == "human"}
    assert set(seats) == {"Ann_Bot", "Bea_Bot"}
    assert [s["bot"] for s in summary["seats"] if s["kind"] == "bot"] == ["greedy"] * (players - 2)

    assert ann.call(f"/api/bot/game/{table}/chat", {"text": "good luck"}).json() == {"said": True}
    captured: dict[str, list[dict[str, Any]]] = {"Ann_Bot": [], "Bea_Bot": []}
    threads = [threading.Thread(target=play_stream, args=(b, table, captured[b.name], query))
               for b, query in ((ann, ""), (bea, "?world=true"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all("world" in m for m in captured["Bea_Bot"] if m["type"] == "pick")
    assert not any("world" in m for m in captured["Ann_Bot"])
    for name, lines in captured.items():
        check_against_record(server.db, table, seats[name], lines)
        (said,) = [m for line in lines if line["type"] == "chat" for m in line["messages"]]  # the chat so far
        assert said["seat"] == seats["Ann_Bot"] and said["text"] == "good luck"
    assert next(events) == {"type": "gameFinish", "game": {"id": table, "status": "finished"}}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_a_bot_in_javascript_plays_a_person_and_a_rated_bot(server: ServerProcess, tmp_path: Path) -> None:
    """tests/server/bots/first_legal.mjs, written from docs/bot-api.md alone: a person challenges
    it to a casual table (and plays at the page's socket), a bot to a rated one."""
    node_bot = Person(server.url, "Node_Bot", bot=True)
    ana, rival = Person(server.url, "Ana"), Person(server.url, "Rival_Bot", bot=True)
    printed, errors = (tmp_path / "node.out").open("w+"), (tmp_path / "node.err").open("w+")  # not pipes: never full
    proc = subprocess.Popen(["node", str(BOTS / "first_legal.mjs")], stdout=printed, stderr=errors, text=True,
                            env=dict(os.environ, SUSHIGO_SERVER=server.url, SUSHIGO_TOKEN=node_bot.token,
                                     SUSHIGO_GAMES="2"))
    try:
        casual = ana.challenge("Node_Bot", players=2)
        rated = rival.challenge("Node_Bot", as_bot=True, players=2, rated=True, edition="party")

        def table_of(challenge: dict[str, Any], who: Person, as_bot: bool) -> str:
            for _ in range(300):
                r = who.call(f"/api/challenge/{challenge['id']}") if as_bot else \
                    who.http.get(f"/api/challenge/{challenge['id']}")
                found = r.json()["challenge"]
                if found["state"] not in ("open", "starting"):  # starting: the table is being made
                    assert found["state"] == "accepted", found
                    return str(found["table"])
                threading.Event().wait(0.1)
            raise AssertionError("the JavaScript bot did not accept in 30 s")
        casual_table, rated_table = table_of(casual, ana, False), table_of(rated, rival, True)

        def seat(table: str, name: str) -> int:
            summary = httpx.get(f"{server.url}/api/tables/{table}").json()
            return next(s["seat"] for s in summary["seats"] if s["account"] == name)
        rival_lines: list[dict[str, Any]] = []
        bot_thread = threading.Thread(target=play_stream, args=(rival, rated_table, rival_lines))
        bot_thread.start()
        final = person_plays(server, ana, casual_table, seat(casual_table, "Ana"))
        bot_thread.join(120)
        proc.wait(60)
    finally:
        proc.kill()
    out, err = (tmp_path / "node.out").read_text(), (tmp_path / "node.err").read_text()
    assert proc.returncode == 0, err
    assert final["status"] == "finished"
    node_lines: dict[str, list[dict[str, Any]]] = {}
    for line in out.splitlines():
        table, _, message = line.partition(" ")
        node_lines.setdefault(table, []).append(json.loads(message))
    assert set(node_lines) == {casual_table, rated_table}
    for table, lines in node_lines.items():
        check_against_record(server.db, table, seat(table, "Node_Bot"), lines)
    check_against_record(server.db, rated_table, seat(rated_table, "Rival_Bot"), rival_lines)
    player = httpx.get(f"{server.url}/api/players/Node_Bot").json()
    assert player["bot"] is True
    assert player["ratings"]["party"]["games"] == 1 and "base" not in player["ratings"]
    # the rated game puts both bots on the bot accounts' board, not on the people's
    bots_board = httpx.get(f"{server.url}/api/ratings/party?board=bots").json()
    assert bots_board["board"] == "bots"
    assert sorted((r["name"], r.get("bot")) for r in bots_board["ratings"]) == [("Node_Bot", True), ("Rival_Bot", True)]
    assert httpx.get(f"{server.url}/api/ratings/party").json()["ratings"] == []
    r = httpx.get(f"{server.url}/api/ratings/party?board=robots")
    assert r.status_code == 400 and r.json()["error"] == "board is people or bots"


def test_a_token_revoked_mid_game_ends_its_streams_and_the_timer_plays_on(server: ServerProcess) -> None:
    ann, bea = Person(server.url, "Ann_Bot", bot=True), Person(server.url, "Bea_Bot", bot=True)
    made = ann.challenge("Bea_Bot", as_bot=True, timer=5)
    table = bea.call(f"/api/bot/challenge/{made['id']}/accept", {}).json()["challenge"]["table"]
    events = ann.lines("/api/bot/stream/event")
    assert next(events)["type"] == "gameStart"
    stream = ann.lines(f"/api/bot/game/{table}/stream")
    assert next(stream)["type"] == "game"
    ask = next(stream)
    assert ask["type"] == "pick"
    assert ann.call(f"/api/bot/game/{table}/pick", {"seq": ask["seq"], "pick": ask["legal"][0]}).status_code == 200
    (token,) = ann.http.get("/api/account/tokens").json()["tokens"]
    assert ann.http.post("/api/account/tokens/revoke", json={"id": token["id"]}).is_success
    r = ann.call(f"/api/bot/game/{table}/pick", {"seq": ask["seq"], "pick": ask["legal"][0]})
    assert r.status_code == 401
    bea_lines: list[dict[str, Any]] = []
    bea_plays = threading.Thread(target=play_stream, args=(bea, table, bea_lines))
    bea_plays.start()
    rest = list(stream)  # Bea's pick opens Ann's next decision: the stream says why it ends instead
    assert rest == [{"type": "closed", "reason": "the token was revoked"}]
    assert list(events) == [{"type": "closed", "reason": "the token was revoked"}]
    bea_plays.join(120)
    assert bea_lines[-1]["type"] == "end" and bea_lines[-1]["status"] == "finished"
    record = httpx.get(f"{server.url}/api/tables/{table}/record").json()
    ann_seat = next(s["seat"] for s in httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
                    if s["account"] == "Ann_Bot")
    assert record["result"]["totals"][ann_seat] >= 0  # the game finished with Ann's seat played for


def test_event_streams_that_share_a_look_each_get_their_own_news(server: ServerProcess) -> None:
    """The process looks once for all its event streams: each still tells only its own bot,
    and a revoked token ends its stream alone."""
    ann = Person(server.url, "Ann_Bot", bot=True)
    bea, cid = Person(server.url, "Bea_Bot", bot=True), Person(server.url, "Cid_Bot", bot=True)
    to_bea, to_cid = bea.lines("/api/bot/stream/event"), cid.lines("/api/bot/stream/event")
    for_bea = ann.challenge("Bea_Bot", as_bot=True)
    assert next(to_bea) == {"type": "challenge", "challenge": for_bea}
    for_cid = ann.challenge("Cid_Bot", as_bot=True)
    assert next(to_cid) == {"type": "challenge", "challenge": for_cid}  # not Bea's, which came first
    (token,) = bea.http.get("/api/account/tokens").json()["tokens"]
    assert bea.http.post("/api/account/tokens/revoke", json={"id": token["id"]}).is_success
    assert list(to_bea) == [{"type": "closed", "reason": "the token was revoked"}]
    again = ann.challenge("Cid_Bot", as_bot=True)
    assert next(to_cid) == {"type": "challenge", "challenge": again}  # Cid's stream goes on


def test_a_token_holds_eight_streams_even_when_opened_at_once(server: ServerProcess) -> None:
    bot = Person(server.url, "Many_Bot", bot=True)
    opened, done = threading.Barrier(11), threading.Event()  # ten streams and this test
    codes: list[int] = []

    def open_one(_: int) -> None:
        with httpx.stream("GET", server.url + "/api/bot/stream/event", headers=bot.auth, timeout=10) as r:
            codes.append(r.status_code)
            opened.wait(20)
            done.wait(20)
    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    opened.wait(20)  # every answer is in, the eight streams still open
    assert sorted(codes) == [200] * 8 + [429] * 2
    r = httpx.get(server.url + "/api/bot/stream/event", headers=bot.auth, timeout=10)
    assert r.status_code == 429 and r.json()["error"] == "this token holds 8 streams open already: close one first"
    done.set()
    for t in threads:
        t.join(20)
    with httpx.stream("GET", server.url + "/api/bot/stream/event", headers=bot.auth, timeout=10) as r:
        assert r.status_code == 200  # closed streams give their slots back


def test_the_event_streams_tell_of_declined_and_cancelled_challenges(server: ServerProcess) -> None:
    ann, bea = Person(server.url, "Ann_Bot", bot=True), Person(server.url, "Bea_Bot", bot=True)
    to_bea, to_ann = bea.lines("/api/bot/stream/event"), ann.lines("/api/bot/stream/event")
    first = ann.challenge("Bea_Bot", as_bot=True)
    assert next(to_bea) == {"type": "challenge", "challenge": first}
    declined = bea.call(f"/api/bot/challenge/{first['id']}/decline", {"reason": "not now"}).json()["challenge"]
    assert next(to_ann) == {"type": "challengeDeclined", "challenge": declined}
    assert declined["state"] == "declined" and declined["reason"] == "not now"
    assert next(to_bea) == {"type": "challengeCanceled", "challenge": {"id": first["id"], "state": "declined"}}
    second = ann.challenge("Bea_Bot", as_bot=True)
    assert next(to_bea) == {"type": "challenge", "challenge": second}
    assert ann.call(f"/api/challenge/{second['id']}/cancel", {}).json()["challenge"]["state"] == "cancelled"
    assert next(to_bea) == {"type": "challengeCanceled", "challenge": {"id": second["id"], "state": "cancelled"}}
