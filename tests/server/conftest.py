"""Fixtures for the server tests: databases, an in-process app, a real server process.

``db_url`` runs a test on SQLite and, when ``SUSHIGO_TEST_PG_URL`` names a
PostgreSQL database (``.ci/run`` starts one), on PostgreSQL too; each test
starts from empty tables.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from optional_parts import CHROMIUM, PG_URL_VAR, pg_skip_reason, pg_url
from sushigo.server.app import create_app
from sushigo.server.store import Store, metadata

PG_URL = pg_url()

ROOT = Path(__file__).resolve().parents[2]


def _reset(url: str) -> None:
    """Drop every table, and the schema revision with them (the next ``create_schema`` starts afresh)."""
    store = Store(url)
    metadata.drop_all(store.engine)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    store.close()


def worker_database(base_url: str) -> str:
    """This test process's own PostgreSQL database beside ``base_url``'s, made
    when missing: ``sushigo_test_gw0`` for pytest-xdist's worker gw0,
    ``sushigo_test_main`` without workers.  Parallel workers never share one."""
    import psycopg

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"{base_url.rsplit('/', 1)[1].split('?')[0]}_{worker}"
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise pytest.UsageError(f"{PG_URL_VAR} names a database that is not lower case letters, digits and _")
    with psycopg.connect(base_url, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')
    return _with_database(base_url, name)


def _with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    head, _, tail = url.rpartition("/")
    query = tail.partition("?")[1] + tail.partition("?")[2]
    return f"{head}/{name}{query}"


@pytest.fixture(scope="session")
def pg_database() -> str:
    """This worker's PostgreSQL database (skips where there is none)."""
    if not PG_URL:
        pytest.skip(pg_skip_reason())
    return worker_database(PG_URL)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or this worker's PostgreSQL database emptied."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("pg_database")
    _reset(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


def make_client(url: str, **kwargs: Any) -> TestClient:
    return TestClient(create_app(url, **kwargs), base_url="http://testserver")


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c


@pytest.fixture
def lite_client(sqlite_url: str) -> Iterator[TestClient]:
    """An app on SQLite only (for tests of the transport, not of storage)."""
    with make_client(sqlite_url) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a table; fail the test unless the server accepts it."""
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def finish(client: TestClient, created: dict[str, Any], name: str = "Ann") -> None:
    """Play a table's one human seat to the end over its socket (its first legal action each time)."""
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        ws.send_json({"v": 1, "type": "hello", "token": kept(tokens(created)[0]), "name": name, "last_seq": None})
        while True:
            msg = ws.receive_json()
            keep(tokens(created)[0], msg)
            if msg["type"] == "state" and msg["status"] == "finished":
                return
            if msg["type"] == "state" and msg["status"] == "playing" and msg["view"]["legal_actions"] \
                    and msg["view"]["committed"] is None:
                ws.send_json({"v": 1, "type": "pick", "seq": msg["seq"], "action": msg["view"]["legal_actions"][0]})


KEPT: dict[str, str] = {}
"""Invite -> the secret its claim gave: what a browser keeps (docs/server.md, "A seat is its player's")."""


def kept(token: str | None) -> str | None:
    """The token a client that keeps its seats sends: the secret an invite's claim
    gave in this test process, else the token itself."""
    return KEPT.get(token, token) if token is not None else None


def keep(token: str | None, welcome: dict[str, Any]) -> None:
    """Remember the secret a welcome gave for the invite ``token`` (when it gave one)."""
    if token is not None and "token" in welcome:
        KEPT[token] = welcome["token"]


def tokens(created: dict[str, Any]) -> list[str]:
    """The seat tokens of a create answer's human seats, in seat order."""
    return [s["invite"].split("#seat=")[1] for s in created["seats"] if s["kind"] == "human"]


class ServerProcess:
    """A real ``sushigo serve`` process (SIGKILL-able)."""

    def __init__(self, db: str, *extra: str) -> None:
        self.db = db
        """The database URL it serves."""
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sushigo", "serve", "--port", "0", "--db", db, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"http://([^/]+)/", line)
        if not m:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r} {err!r}")
        self.url = f"http://{m.group(1)}"
        self.ws_url = f"ws://{m.group(1)}"
        self._wait_ready()

    def _wait_ready(self) -> None:
        import httpx

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/options", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("server did not answer within 20 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Seat:
    """One human seat on its own socket, keeping the newest ``state`` it was sent
    and the newest ``seq`` it was told of (by a state or a progress frame: every
    change of the table reaches every socket as one or the other)."""

    def __init__(self, ws_url: str, table: str, token: str, name: str | None = None) -> None:
        self.ws: ClientConnection = connect(f"{ws_url}/ws/tables/{table}", open_timeout=10).__enter__()
        self.state: dict[str, Any] = {}
        self.seq = -1
        self.sent: deque[float] = deque(maxlen=30)
        self.invite = token
        self.token = kept(token)
        """The seat's secret: an invite is replaced by the one the welcome gives."""
        self.send({"type": "hello", "token": self.token, "name": name, "last_seq": None})
        self.until(lambda m: m["type"] == "state")

    def send(self, msg: dict[str, Any]) -> None:
        """Send one message, at most 30 within any 1.5 seconds: the server's
        token bucket (20 a second, bursts of 40) never refuses this client,
        however fast the bots around it answer (pacing, not waiting for an event)."""
        now = time.monotonic()
        if len(self.sent) == self.sent.maxlen and now - self.sent[0] < 1.5:
            time.sleep(1.5 - (now - self.sent[0]))
        self.sent.append(time.monotonic())
        self.ws.send(json.dumps({"v": 1, **msg}))

    def _take(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert msg["type"] != "error", msg
        if msg["type"] == "welcome" and "token" in msg:
            self.token = msg["token"]
            keep(self.invite, msg)
        if msg["type"] == "state":
            self.state = msg
        if msg["type"] in ("state", "progress"):
            self.seq = max(self.seq, msg["seq"])
        return msg

    def until(self, done: Any) -> dict[str, Any]:
        """Read frames until ``done(frame)`` (15 s at most for each)."""
        for _ in range(500):
            msg = self._take(json.loads(self.ws.recv(timeout=15)))
            if done(msg):
                return msg
        raise AssertionError("no such message in 500 frames")

    def drain(self) -> None:
        """Read what has already arrived (without waiting)."""
        while True:
            try:
                self._take(json.loads(self.ws.recv(timeout=0)))
            except TimeoutError:
                return

    @property
    def finished(self) -> bool:
        return self.state.get("status") == "finished"

    def can_pick(self) -> bool:
        """Something to decide (a seat whose pick is made may change it, but need not)."""
        view = self.state.get("view")
        return (self.state.get("status") == "playing" and bool(view and view["legal_actions"])
                and view.get("committed") is None)

    def wait_turn(self) -> None:
        """Wait until this seat has a decision to make (or the game is over)."""
        while not self.can_pick() and not self.finished:
            self.until(lambda m: m["type"] == "state")

    def pick(self, rng: random.Random) -> None:
        seq = self.state["seq"]
        action = rng.choice(self.state["view"]["legal_actions"])
        self.send({"type": "pick", "seq": seq, "action": action})
        # decided: until a newer state arrives (possibly before the ack), nothing to pick
        self.state = {**self.state, "view": {**self.state["view"], "legal_actions": []}}
        self.until(lambda m: m["type"] == "ack")

    def close(self) -> None:
        self.ws.close()


def catch_up(seats: list[Seat]) -> None:
    """Read every seat's frames until each has been told of the newest change any was told of."""
    for s in seats:
        s.drain()
    newest = max(s.seq for s in seats)
    for s in seats:
        if s.seq < newest and not s.finished:
            s.until(lambda m: m["type"] in ("state", "progress") and m["seq"] >= newest)


def decide_or_wait(seats: list[Seat], rng: random.Random) -> bool:
    """With every seat caught up, the first seat that can decide picks (True);
    when none can, wait until the table moves on (bots, the turn's reveal) and
    the seats still playing are told (False)."""
    catch_up(seats)
    for s in seats:
        if s.can_pick():
            s.pick(rng)
            return True
    playing = [s for s in seats if not s.finished]
    if playing:
        now = playing[0].seq
        playing[0].until(lambda m: playing[0].seq > now or playing[0].finished)
        catch_up(seats)
    return False


def play_out(base: str, table: str, token: str, seed: int = 0, name: str | None = None) -> None:
    """Play a human seat of a table on ``base`` (a server's http URL) to the end,
    at random, over a WebSocket of its own (the seat's name is kept unless ``name`` is given)."""
    rng = random.Random(seed)
    seat = Seat("ws" + base.removeprefix("http"), table, token, name)
    try:
        while not seat.finished:
            decide_or_wait([seat], rng)
    finally:
        seat.close()


def sit_from_the_lobby(page: Any, base: str, turn_hours: str | None = None) -> None:
    """In a browser page: create a table of two from the lobby's form (the other seat the
    random bot; ``turn_hours``: turn-based), open its seat and sit as Ana."""
    page.goto(base + "/")
    page.select_option('[data-testid="players"]', "2")
    page.select_option('[data-testid="seat-kind"][data-seat="1"]', "bot:random")
    if turn_hours is not None:
        page.fill('[data-testid="turn-hours"]', turn_hours)
    page.click('[data-testid="create-submit"]')
    page.wait_for_selector('[data-testid="created"]:not([hidden])')
    page.click('[data-testid="play-button"]')
    page.wait_for_selector('[data-testid="name-form"]:not([hidden])')
    page.fill('[data-testid="name-input"]', "Ana")
    page.press('[data-testid="name-input"]', "Enter")


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server process on a free port with a fresh SQLite file; yields its base URL."""
    db = tmp_path_factory.mktemp("live") / "games.db"
    # every browser test creates tables from this one address; the limit itself is tested in test_protocol;
    # the pages show whatever the server's analysis says, so a coarse one (16 playouts per action) does
    server = ServerProcess(f"sqlite:///{db}", "--tables-per-hour", "1000", "--analysis-samples", "16")
    try:
        yield server.url
    finally:
        server.stop()


BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class StillBrowser:
    """A Playwright browser whose new contexts prefer reduced motion unless a test
    asks otherwise (``reduced_motion="no-preference"``): a card that slides in is
    not clicked until it stops, and only the tests of motion need it to move."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_context(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium by path, headless, for a module's browser tests (which
    skip themselves where it or Playwright is missing); see :class:`StillBrowser`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=BROWSER_ARGS)
        try:
            yield StillBrowser(b)
        finally:
            b.close()
