"""``sushigo bot-connect`` (the bridge, :mod:`sushigo.connect.bridge`): a program
speaking ``sushigo-bot/1`` plays a bot account on a real server process, the
bridge itself a real process; through a relay the test cuts, its streams break
mid-game and it connects again.  Each of the bridged seat's decisions is
checked against the stored game: the program's (the first legal entry of the
seat's view at that moment), never the move timer's.  A built-in bot plays
through it too: its decisions are the ones the same bot, seeded alike, makes
from the seat's view rebuilt from the seat's world at each moment."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import ROOT, ServerProcess
from tests.server.test_bot_api import Person, person_plays

from sushigo.bots import make_bot
from sushigo.bots.base import view_for
from sushigo.engine.editions import AnyGame, new_game
from sushigo.engine.worlds import world_document, world_view
from sushigo.server.store import Store
from sushigo.server.tables import _rules_of

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

PROGRAM = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'first_legal.py'}"


class Relay:
    """A TCP relay to the server that the test can cut: every connection through it closes at once."""

    def __init__(self, target: str) -> None:
        host, port = target.removeprefix("http://").split(":")
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        """Break every connection through the relay (new ones still go through)."""
        with self.lock:
            cut, self.open = self.open, []
        for s in cut:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()
        self.cut()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(f"sqlite:///{tmp_path / 'bridge.db'}") as s:
        yield s


def bridge(url: str, token: str, out: Path, *args: str, spec: str = PROGRAM) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "sushigo", "bot-connect", spec, "--server", url, *args],
                            stdout=out.open("w"), stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                            env=dict(os.environ, SUSHIGO_BOT_TOKEN=token))


def play_cutting(rival: Person, table: str, lines: list[dict[str, Any]], relay: Relay) -> None:
    """The rival plays (first legal entry); at its third decision the relay cuts the bridge's connections."""
    for message in rival.lines(f"/api/bot/game/{table}/stream"):
        lines.append(message)
        if message["type"] == "pick":
            if sum(m["type"] == "pick" for m in lines) == 3:
                relay.cut()  # mid-game: the bridge's event and game streams break; it connects again
            r = rival.call(f"/api/bot/game/{table}/pick", {"seq": message["seq"], "pick": message["legal"][0]})
            assert r.status_code == 200, r.text
        if message["type"] == "end":
            return


def check_first_legal(db: str, table: str, name: str) -> int:
    """Each decision of ``name``'s seat was the first legal action of its view then; how many."""
    return check_decisions(db, table, name, lambda game, seat: view_for(game, seat, None).legal_actions[0])


def check_decisions(db: str, table: str, name: str, decide: Callable[[AnyGame, int], int]) -> int:
    """Each decision of ``name``'s seat was ``decide(game, seat)`` then, by the seat; how many."""
    store = Store(db)
    try:
        (loaded,) = store.load(table_id=table)
    finally:
        store.close()
    seat = next(s.seat for s in loaded.seats if s.account_name == name)
    game = new_game(_rules_of(loaded.row), seed=loaded.row.seed)
    decided = 0
    for event in loaded.events:
        if event.seat == seat:
            assert event.by == "seat", event  # the program answered, not the move timer
            assert event.action == decide(game, seat)
            decided += 1
        game.commit(event.seat, event.action)
    assert game.is_over
    return decided


def test_the_bridge_plays_a_program_on_a_server_through_broken_connections(server: ServerProcess,
                                                                        tmp_path: Path) -> None:
    ours, rival = Person(server.url, "Bridge_Bot", bot=True), Person(server.url, "Rival_Bot", bot=True)
    relay = Relay(server.url)
    out = tmp_path / "bridge.out"
    proc = bridge(relay.url, ours.token, out, "--games", "2")
    try:
        events = rival.lines("/api/bot/stream/event")
        tables = []
        for settings in ({"players": 2}, {"edition": "party", "players": 3}):
            rival.challenge("Bridge_Bot", as_bot=True, timer=60, **settings)
            start = next(e for e in events if e["type"] == "gameStart")
            table = start["game"]["id"]
            tables.append(table)
            lines: list[dict[str, Any]] = []
            rival_plays = threading.Thread(target=play_cutting, args=(rival, table, lines, relay))
            rival_plays.start()
            rival_plays.join(120)
            assert lines[-1]["type"] == "end" and lines[-1]["status"] == "finished"
        proc.wait(60)
    finally:
        proc.kill()
        relay.close()
    said = out.read_text()
    assert proc.returncode == 0, said
    assert said.strip().endswith("2 tables ended")
    assert "accepted Rival_Bot's challenge (base, 2 players)" in said
    for table in tables:
        assert f"table {table}: the stream broke" in said  # it did break mid-game, and the game still ended
        assert check_first_legal(server.db, table, "Bridge_Bot") > 0
        assert f"table {table}: finished, totals" in said


def test_bad_command_lines_and_a_wrong_token_are_one_line(server: ServerProcess, tmp_path: Path) -> None:
    cases = [
        (["sage", "--server", server.url, "--token", "t"], "unknown bot 'sage'"),
        (["ismcts:depth=2", "--server", server.url, "--token", "t"], "has no setting 'depth'"),
        ([PROGRAM, "--server", "ftp://x", "--token", "t"], "--server is the server's address"),
        ([PROGRAM, "--server", server.url, "--token", "sgb_wrong"], "401"),
    ]
    for args, says in cases:
        r = subprocess.run([sys.executable, "-m", "sushigo", "bot-connect", *args], capture_output=True, text=True,
                           cwd=ROOT, timeout=60, env={k: v for k, v in os.environ.items() if k != "SUSHIGO_BOT_TOKEN"})
        assert r.returncode == 1, (args, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and says in r.stderr and "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize(("spec", "edition", "players"), [("greedy", "base", 3),
                                                         ("ismcts:iterations=30", "party", 2)])
def test_a_built_in_bot_plays_through_the_bridge(server: ServerProcess, tmp_path: Path, spec: str,
                                                 edition: str, players: int) -> None:
    ours, rival = Person(server.url, "Builtin_Bot", bot=True), Person(server.url, "Rival_Bot", bot=True)
    out = tmp_path / "bridge.out"
    proc = bridge(server.url, ours.token, out, "--games", "1", "--seed", "5", spec=spec)
    try:
        events = rival.lines("/api/bot/stream/event")
        rival.challenge("Builtin_Bot", as_bot=True, timer=60, edition=edition, players=players)
        table = next(e for e in events if e["type"] == "gameStart")["game"]["id"]
        lines: list[dict[str, Any]] = []
        for message in rival.lines(f"/api/bot/game/{table}/stream"):  # the rival: no world unless it asks
            lines.append(message)
            assert "world" not in message
            if message["type"] == "pick":
                r = rival.call(f"/api/bot/game/{table}/pick", {"seq": message["seq"], "pick": message["legal"][-1]})
                assert r.status_code == 200, r.text
            if message["type"] == "end":
                break
        assert lines[-1]["status"] == "finished"
        assert proc.wait(60) == 0, out.read_text()
    finally:
        proc.kill()
    bot = make_bot(spec, 5)  # the bridge's bot, seeded alike, deciding in the same order
    decided = check_decisions(server.db, table, "Builtin_Bot", lambda game, seat: bot.choose(
        world_view(world_document(game, seat), world=bot.wants_world)))
    assert decided >= 3 * 7
    said = out.read_text()
    assert f"table {table}: finished, totals" in said and "move timer" not in said, said


def _until(ask: Callable[[], Any], what: str, limit: float = 60.0) -> Any:
    """Ask (as the pages do, about five times a second) until the answer is truthy."""
    deadline = time.monotonic() + limit
    while not (answer := ask()):
        assert time.monotonic() < deadline, f"no {what} in {limit:g} s"
        time.sleep(0.2)
    return answer


def test_the_bridge_waits_in_play_now_and_a_person_meets_its_bot(server: ServerProcess, tmp_path: Path) -> None:
    ours, ana = Person(server.url, "Queue_Bot", bot=True), Person(server.url, "Ana")
    out = tmp_path / "bridge.out"
    proc = bridge(server.url, ours.token, out, "--games", "1", "--seed", "5", "--play-now", "base", spec="greedy")
    try:
        _until(lambda: ours.call("/api/bot/queue").status_code == 200, "place of the bridge's bot")
        r = ana.http.post("/api/play/join", json={"edition": "base", "sizes": [2], "bots_after": 5})
        assert r.status_code == 201, r.text
        ticket = r.json()["ticket"]

        def place() -> dict[str, Any]:
            return dict(ana.http.post("/api/play/status", json={"ticket": ticket}).json())
        matched = _until(lambda: (p := place())["state"] == "matched" and p, "match")
        assert matched["bot_accounts"] == ["Queue_Bot"] and matched["people"] == ["Ana"]
        seated = ana.http.post("/api/play/confirm", json={"ticket": ticket}).json()
        assert seated["state"] == "seated", seated
        table = seated["table"]
        seats = httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
        assert [s.get("account_bot", False) for s in seats if s.get("account") == "Queue_Bot"] == [True]
        final = person_plays(server, ana, table, -1, token=seated["url"].split("#seat=")[1])
        assert final["status"] == "finished"
        seats = httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
        assert {s.get("account"): s.get("account_bot", False) for s in seats} == {"Ana": False, "Queue_Bot": True}
        assert proc.wait(60) == 0, out.read_text()
        r = ours.call("/api/bot/queue")  # it took no place past its one game, and holds none now
        assert r.status_code == 404 or r.json()["state"] == "seated", r.text
    finally:
        proc.kill()
    bot = make_bot("greedy", 5)
    assert check_decisions(server.db, table, "Queue_Bot", lambda game, seat: bot.choose(
        world_view(world_document(game, seat)))) == 3 * 10  # 2 players: 10 cards a round
    said = out.read_text()
    assert "waiting in play now (base)" in said and f"table {table}: finished, totals" in said, said
