"""Live tables: the games a server runs, their seats, bots, timers and watchers.

This is the server's domain layer, independent of HTTP: :class:`TableService`
creates tables, seats players by token, takes decisions, persists every one
through the group-commit :class:`~sushigo.server.store.Writer` *before*
acknowledging it, and tells every connection what its seat may see.  Hidden
information is handled only by :mod:`sushigo.engine.base.view` and
:mod:`sushigo.engine.party.view`: a connection receives the view of its own seat
(or the spectators' view) and nothing else.

Numbering: ``seq`` counts the game's stored decisions.  Each seat's current
decision *opened* at some ``seq``; a pick that carries an older ``seq`` was
made on a state from before that decision and is refused as stale.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import re
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from typing import Any, Final, Protocol

from sushigo.analysis.evaluate import DEFAULT_SAMPLES, DecisionEvaluation, evaluate_decision
from sushigo.analysis.game import action_label, plan_analysis
from sushigo.bots import make_bot, parse_bot_spec
from sushigo.bots.base import Bot, view_for
from sushigo.bots.greedy import GreedyBot
from sushigo.engine.editions import (
    AnyGame,
    Edition,
    action_text,
    action_words,
    edition_for,
    new_game,
    replay,
    to_record,
)
from sushigo.engine.editions import narrator as narrator_for
from sushigo.engine.editions import seat_view as editions_seat_view
from sushigo.engine.flags import FlagError, rules_from_flags
from sushigo.engine.menus import menu_label
from sushigo.engine.narration import Line, Narrator, lines_seen_by
from sushigo.engine.records import dumps as record_dumps
from sushigo.engine.rules import Rules, RulesError
from sushigo.server.protocol import REACTIONS, clean_chat, dump
from sushigo.server.protocol import CreateTable as CreateRequest
from sushigo.server.store import (
    OPEN_STATUSES,
    AddHappening,
    AppendEvent,
    CreateTable,
    EventRow,
    HappeningRow,
    LoadedTable,
    SeatRow,
    SetName,
    SetStatus,
    SetToken,
    Store,
    StoreError,
    TableRow,
    Writer,
)

log = logging.getLogger("sushigo.server")

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"
CANCELLED: Final = "cancelled"
"""Its creator cancelled it before it started."""
ABANDONED: Final = "abandoned"
"""Nothing happened at it for :attr:`TableService.idle_limit` seconds (the janitor ended it)."""

WITHDRAW: Final = "withdraw"
"""The ``by`` of a stored event that takes back a seat's hidden pick (its ``action``: the pick taken back)."""

CHANGE: Final = "change"
"""The ``by`` of a stored event that takes back a seat's hidden pick for the
pick stored right after it (a change of mind, which nobody else may learn of:
neither event counts in the protocol's ``seq``)."""

STAND_IN: Final = "greedy"
"""The bot that plays for a seat handed over while its player is away."""

CHAT_RATE: Final = (5, 10.0)
"""Chat messages and reactions one seat may send: 5 within 10 seconds."""

HINT_SECONDS: Final = 2.0
"""How long a hint thinks at most (its playouts stop when the time is up)."""

ANALYSIS_QUEUE: Final = 4
"""Game analyses ("analyse my game") waiting or running at once; more are refused (busy)."""

ANALYSIS_SEED: Final = 0
"""The seed of the server's game analyses (so an analysis is computed once and kept)."""

ANALYSES_PER_ADDRESS: Final = 1
"""Game analyses one address may have waiting or running at once (so that one
address cannot fill :data:`ANALYSIS_QUEUE` for everyone)."""

HINTS_PER_ADDRESS: Final = 4
"""Hints the tables created from one address may have waiting or computing at once
(of :data:`HINT_QUEUE`)."""

HINT_QUEUE: Final = 8
"""Hints waiting or being computed at once, over every table; a decision that
comes when the queue is full is sent a ``hint`` saying the server is busy."""


class TableError(ValueError):
    """A request the service refuses; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Connection(Protocol):
    """One watcher of a table (a WebSocket): the service only queues text to it."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queue one frame; must not block."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Close once every frame queued before is sent; must not block."""
        ...


def hash_token(token: str) -> bytes:
    """SHA-256 of a seat token (what the database keeps)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass(slots=True)
class Seat:
    seat: int
    kind: str
    """``'human'`` or ``'bot'``."""
    bot: str | None
    name: str | None
    token_hash: bytes | None
    connections: int = 0
    seen: bool = False
    """A socket of this seat has connected at some point (so a later one is a return)."""
    away_since: float | None = None
    """When this human seat's last socket closed (``None`` while connected, or never seen)."""
    stand_in: str | None = None
    """The bot playing for this human seat while its player is away (``None``: the player)."""
    invite_hash: bytes | None = None
    """SHA-256 of the invite that may claim this seat now (``None``: no invite is open)."""
    spent: list[bytes] = field(default_factory=list)
    """SHA-256 of the invites that claimed this seat or were replaced: they grant nothing."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "kind": self.kind, "bot": self.bot, "name": self.name,
            "joined": self.kind == "bot" or self.name is not None,
            "connected": self.kind == "bot" or self.connections > 0,
            "away_since": None if self.kind == "bot" or self.connections else self.away_since,
            "stand_in": self.stand_in,
            "reinvited": self.token_hash is not None and self.invite_hash is not None,
        }


@dataclass
class AnalysisJob:
    """One seat's analysis of a finished game on the server's worker pool."""

    table_id: str
    seat: int
    status: str = "queued"
    """``queued``, ``running``, ``done`` or ``failed``."""
    done: int = 0
    total: int = 0
    doc: dict[str, Any] | None = None
    address: str = ""
    """Who asked for it (the per-address limit)."""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table_id, "seat": self.seat, "status": self.status, "done": self.done,
                "total": self.total, "analysis": self.doc}


@dataclass(eq=False)
class LiveTable:
    """A table in memory: the game (replayed from its stored events) and who watches it."""

    id: str
    created: float
    rules: Rules
    seed: int
    timer: int | None
    status: str
    seats: list[Seat]
    game: AnyGame
    seq: int = 0
    """How many decisions (events) are stored; :attr:`public_seq` is what the protocol says."""
    hidden: int = 0
    """How many of those events are changes of mind (:data:`CHANGE` and the pick after it)."""
    changing: int | None = None
    """The seat whose change of mind has been taken back, its new pick not yet applied."""
    opened: list[int] = field(default_factory=list)
    deadlines: dict[int, tuple[int, float, asyncio.TimerHandle]] = field(default_factory=dict)
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    think: dict[int, float] = field(default_factory=dict)
    """Per search bot seat, the seconds it may think per decision (its deadline)."""
    busy: set[int] = field(default_factory=set)
    """Bot seats whose task is running."""
    moved: bool = False
    """Something beyond a hidden pick changed since the last published state."""
    refresh: set[int] = field(default_factory=set)
    """Seats whose own view changed with nothing public (a hidden pick changed or
    taken back): their sockets get a state at the next publish."""
    picked_told: tuple[bool, ...] = ()
    """Who had picked, as the last ``state`` or ``progress`` told every watcher."""
    reloading: bool = False
    starting: bool = False
    result: dict[str, Any] | None = None
    seeded: bool = False
    """The creator chose the seed (and so may know the deal)."""
    learn: bool = False
    """A "Learn to play" table (the page teaches as the game goes)."""
    explained: list[dict[str, Any]] = field(default_factory=list)
    """The finished rounds' scoring in words (:func:`~sushigo.engine.editions.explained_rounds`),
    kept so each is explained once."""
    narrator: Narrator = field(init=False)
    """Follows :attr:`game` and tells each finished turn (:mod:`sushigo.engine.narration`)."""
    log: list[Line] = field(default_factory=list)
    """The game's story so far (the engine's lines, plus timer picks and seats leaving and returning)."""
    log_sent: int = 0
    """How many lines of :attr:`log` every watcher has been sent."""
    private: bool = False
    """Not listed in the lobby (its links work)."""
    chat: bool = True
    """Seats may talk (``chat``, ``react``); refused on a table created without it."""
    chat_spectators: bool = False
    """Spectators read the chat too."""
    creator_hash: bytes | None = None
    """SHA-256 of the creator's token (it may cancel the table before it starts)."""
    started: float | None = None
    """When the game started (the first decisions' move timer counts from it)."""
    opened_at: list[float] = field(default_factory=list)
    """Per seat, when its current decision opened (its move timer's deadline is this plus :attr:`timer`)."""
    active: float = 0.0
    """The last time anything happened here (the janitor abandons tables idle for long)."""
    happened: int = 0
    """How many happenings (chat, mutes, hand-overs, ...) are stored."""
    talk: list[HappeningRow] = field(default_factory=list)
    """The chat and reactions, in order."""
    mutes: dict[int, set[int]] = field(default_factory=dict)
    """Per seat, the seats whose chat it does not want to read."""
    said: dict[int, list[float]] = field(default_factory=dict)
    """Per seat, when its latest chat messages came (the chat rate limit)."""
    stand_ins: dict[int, Bot] = field(default_factory=dict)
    """Bots playing for human seats whose players are away."""
    rematch: str | None = None
    """The id of the table "Play again" created."""
    rematch_of: str | None = None
    owner: str = ""
    """The address that created the table (this process's memory only: the per-address limits)."""
    rematch_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hints: bool = False
    """Each seat is sent its own estimate of every legal action while it decides."""
    hinted: dict[int, tuple[int, str]] = field(default_factory=dict)
    """Per seat, the decision (its opening ``seq``) a hint is computed or being computed for,
    and the ``hint`` frame ("" while it is being computed)."""

    def __post_init__(self) -> None:
        self.narrator = narrator_for(self.game)
        if not self.opened_at:
            self.opened_at = [self.created] * self.rules.players
        self.active = self.active or self.created

    @property
    def edition(self) -> Edition:
        """The game's edition: the engine's one door for what differs between the editions."""
        return edition_for(self.rules)

    @property
    def public_seq(self) -> int:
        """The protocol's ``seq``: the stored decisions less the changes of mind,
        so that no frame tells the others that a seat changed its hidden pick."""
        return self.seq - self.hidden

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it (public), with its current ``seq``."""
        out = _summary(self.id, self.rules, self.status, self.created, self.timer, self.seeded,
                       self.seats, self.result, self.settings())
        out["seq"] = self.public_seq
        out["watching"] = sum(1 for c in self.connections if c.seat is None)
        out["active"] = self.active
        return out

    def settings(self) -> dict[str, Any]:
        """The table's own options beyond the rules (as stored with them)."""
        return {"learn": self.learn, "private": self.private, "chat": self.chat,
                "chat_spectators": self.chat_spectators, "hints": self.hints, "rematch": self.rematch,
                "rematch_of": self.rematch_of}

    def connections_of(self, seat: int) -> list[Connection]:
        return [c for c in self.connections if c.seat == seat]


def _summary(table_id: str, rules: Rules, status: str, created: float, timer: int | None, seeded: bool,
             seats: list[Seat], result: dict[str, Any] | None, settings: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": table_id, "edition": rules.edition, "players": rules.players,
        "menu": menu_label(rules.menu),
        "options": rules.options(), "status": status, "ended": status not in OPEN_STATUSES,
        "created": created, "timer": timer,
        "seeded": seeded, **settings, "watching": 0, "seats": [s.to_json() for s in seats],
    }
    if result is not None:
        out["totals"] = result["totals"]
        out["winners"] = result["winners"]
    return out


def _stored_settings(row: TableRow, happenings: Sequence[HappeningRow] = ()) -> dict[str, Any]:
    """A stored table's :meth:`LiveTable.settings` (tables of sushigo 0.5 and earlier have chat on)."""
    rematch = next((h.data.get("table") for h in happenings if h.kind == "rematch"), None)
    return {"learn": bool(row.rules.get("learn")), "private": bool(row.rules.get("private")),
            "chat": bool(row.rules.get("chat", True)), "chat_spectators": bool(row.rules.get("chat_spectators")),
            "hints": bool(row.rules.get("hints")), "rematch": rematch, "rematch_of": row.rules.get("rematch_of")}


SEAT_TAKEN: Final = "this seat has been taken; ask the table to hand it back"
"""The answer to an invite that claimed its seat already (or was replaced by a new one)."""


def _restored_seat(s: SeatRow, row: TableRow) -> Seat:
    """A stored seat: its secret is the stored token hash; the invite its table
    was created with is open until a ``claim`` happening spends it.  (Tables of
    sushigo 0.6 and earlier stored no invites: their seat token is the secret.)"""
    invite = (row.rules.get("invites") or {}).get(str(s.seat))
    return Seat(s.seat, s.kind, s.bot, s.name, s.token_hash,
                invite_hash=bytes.fromhex(invite) if isinstance(invite, str) else None)


def name_bots(seats: Sequence[Seat]) -> None:
    """Give every bot seat its one name (lobby, table, log and record): its bot's
    kind, numbered in seat order when several seats play the same kind.

    >>> seats = [Seat(0, "human", None, "Ana", None), Seat(1, "bot", "greedy", None, None),
    ...          Seat(2, "bot", "ismcts:time=0.2", None, None), Seat(3, "bot", "greedy", None, None)]
    >>> name_bots(seats)
    >>> [s.name for s in seats]
    ['Ana', 'greedy bot 1', 'ismcts bot', 'greedy bot 2']
    """
    kinds = [(s.bot or "bot").split(":")[0].strip().lower() if s.kind == "bot" else None for s in seats]
    seen: dict[str, int] = {}
    for s, kind in zip(seats, kinds):
        if kind is None:
            continue
        seen[kind] = seen.get(kind, 0) + 1
        s.name = f"{kind} bot" if kinds.count(kind) == 1 else f"{kind} bot {seen[kind]}"


def summary_of(loaded: LoadedTable) -> dict[str, Any]:
    """A summary from stored rows (a table this process does not hold in memory)."""
    row = loaded.row
    seats = [Seat(s.seat, s.kind, s.bot, s.name, None) for s in loaded.seats]
    name_bots(seats)
    return _summary(row.id, _rules_of(row), row.status, row.created, row.timer,
                    bool(row.rules.get("seeded")), seats, row.result, _stored_settings(row, loaded.happenings))


OLD_WASABI_COLOUR: Final = "own"
"""The ``wasabi_colour`` of Party tables stored by sushigo 0.4 and earlier (the key did not exist)."""


def _rules_of(row: TableRow) -> Rules:
    options = dict(row.rules.get("options") or {})
    if row.edition == "party":
        options.setdefault("wasabi_colour", OLD_WASABI_COLOUR)
    return Rules.from_options(row.players, options, edition=row.edition, menu=row.rules.get("menu"))


def _with_old_options(text: str) -> str:
    """A stored record, with ``wasabi_colour`` named where a Party record of
    sushigo 0.4 and earlier left it out (so that it replays as it was played)."""
    record = json.loads(text)
    options = record.get("options") if isinstance(record, dict) and record.get("edition") == "party" else None
    if not isinstance(options, dict) or "wasabi_colour" in options:
        return text
    options["wasabi_colour"] = OLD_WASABI_COLOUR
    return record_dumps(record) + "\n"


class StateFrames:
    """The ``state`` frames of one moment of a table, for any seat: the
    table's summary is encoded once, each seat's view is the engine's view
    document (:meth:`~sushigo.engine.editions.Edition.view_document`) as it is.

    Valid while the table does not change: make one per publish.
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self._texts: dict[int | None, str] = {}
        self._summary: Any = None

    def text(self, seat: int | None) -> str:
        """The ``state`` frame for ``seat`` (``None``: a spectator)."""
        text = self._texts.get(seat)
        if text is None:
            table = self.table
            if self._summary is None:
                self._summary = table.summary()
            deadline = round(table.deadlines[seat][1], 3) if seat is not None and seat in table.deadlines else None
            view = None
            if table.status not in (WAITING, CANCELLED):
                if seat is not None and not 0 <= seat < table.rules.players:
                    raise ValueError(f"there is no seat {seat}")
                view = table.edition.view_document(table.game, seat, table.explained)
            text = self._texts[seat] = dump({"type": "state", "seq": table.public_seq, "status": table.status,
                                             "seat": seat, "table": self._summary, "view": view,
                                             "deadline": deadline})
        return text


def _rules_from_request(req: CreateRequest) -> Rules:
    if req.players != len(req.seats):
        raise TableError("bad_request", f"{len(req.seats)} seats listed for {req.players} players")
    try:
        return rules_from_flags(
            req.players, edition=req.edition,
            menu=(", ".join(req.menu) if isinstance(req.menu, list) else req.menu),
            pass_both_ways=req.pass_both_ways, reshuffle=req.reshuffle,
            uramaki_split=req.uramaki_split, menu_card_draw=req.menu_card_draw,
            two_player_pudding_penalty=req.two_player_pudding_penalty, wasabi_colour=req.wasabi_colour,
            label=f"{req.players} seats",
        )
    except (FlagError, RulesError) as e:
        text = re.sub(r"--([a-z-]+)", lambda m: m.group(1).replace("-", "_"), str(e))
        raise TableError("bad_request", text.replace("edition party", 'edition "party"')) from None


BOT_LIMITS: Final[dict[str, float]] = {"time": 5.0, "iterations": 20000}
"""The most a server bot's spec may ask for per decision (seconds, search iterations)."""

BOT_DEADLINE: Final = 2.0
"""Seconds a server search bot given no ``time`` thinks per decision at most
(whatever its ``iterations``): every bot decision on the server has a deadline."""

BOT_THREADS: Final = 32
"""Search bots thinking at once (each in a thread of its own, so that each
stops at its own deadline however many other tables' bots think meanwhile:
they share the CPU, not a queue)."""

SERVER_SETTINGS: Final = frozenset({"iterations", "time", "c", "policy", "epsilon", "temperature"})
"""The bot settings web clients may give (no paths: ``learned:file=`` would read the server's disk)."""


def _bot_spec(entry: str, seat: int) -> str:
    spec = entry[4:].strip()
    if not spec:
        raise TableError("bad_request", f"seat {seat}: 'bot:' needs a bot name")
    if spec.lower().startswith("cmd:"):
        raise TableError("bad_request", f"seat {seat}: external programs cannot play on the server")
    try:
        _, settings = parse_bot_spec(spec)
        refused = sorted(set(settings) - SERVER_SETTINGS)
        if "file" in refused:
            raise ValueError("bots cannot load files on the server")
        if refused:
            raise ValueError(f"setting {refused[0]!r} cannot be used on the server")
        make_bot(spec, seed=0)
    except ValueError as e:
        raise TableError("bad_request", f"seat {seat}: {e}") from None
    for key, most in BOT_LIMITS.items():
        value = settings.get(key)
        if value is not None and not 0 < value <= most:
            raise TableError("bad_request",
                             f"seat {seat}: {key}={value:g} (on the server: more than 0, at most {most:g})")
    return spec


class TableService:
    """Every live table of this server process.

    Args:
        store: the database.
        prefix: this process's table-id prefix (``--shard``); it loads and
            creates only tables whose ids start with it.
        idle_limit: seconds without anything happening after which the
            janitor marks a waiting or playing table abandoned (7 days).
        away_after: seconds a seat's player must have been gone, while the
            table waits on it, before the others may hand the seat to a bot.
        janitor_every: seconds between the janitor's rounds.
        hint_seconds: how long a hint thinks at most (tables created with hints).
        analysis_workers: processes of the worker pool hints and game analyses are computed on.
        analysis_samples: playouts per legal action of a game analysis ("analyse my game").
    """

    def __init__(self, store: Store, *, prefix: str = "", idle_limit: float = 7 * 86400.0,
                 away_after: float = 60.0, janitor_every: float = 300.0, hint_seconds: float = HINT_SECONDS,
                 analysis_workers: int = 2, analysis_samples: int = DEFAULT_SAMPLES) -> None:
        self.store = store
        self.prefix = prefix
        self.idle_limit = idle_limit
        self.away_after = away_after
        self.janitor_every = janitor_every
        self.writer = Writer(store)
        self.bot_threads = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="sushigo-bots")
        """Search bots think here, never on the writer's thread or the event loop."""
        self.hint_seconds = hint_seconds
        self._analysis_pool: ProcessPoolExecutor | None = None
        self._analysis_slots = asyncio.Semaphore(analysis_workers)
        self.analysis_workers = analysis_workers
        self.analysis_samples = analysis_samples
        self.hints_queued = 0
        self.hints_of: Counter[str] = Counter()
        """Hints waiting or computing, per address that created their tables."""
        self.analyses: dict[tuple[str, int], AnalysisJob] = {}
        """Game analyses asked for since this process started (finished ones are also stored)."""
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.picks = 0

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Open the database, resume every unfinished game of this shard, start the writer."""
        await asyncio.to_thread(self.store.create_schema)
        loaded = await asyncio.to_thread(self.store.load, unfinished_only=True, prefix=self.prefix or None)
        for item in loaded:
            try:
                table = self._restore(item)
            except (ValueError, RulesError) as e:  # a row this version cannot play
                log.error("table %s cannot be resumed: %s", item.id, e)
                continue
            self.tables[table.id] = table
        self.writer.start()
        for item in loaded:
            if item.id in self.tables:
                self._repair(self.tables[item.id], item)
        await self.sweep()  # tables idle for too long are not resumed
        for table in self.tables.values():
            self._after_change(table)
        self._spawn(self._janitor())

    async def _janitor(self) -> None:
        while True:
            await asyncio.sleep(self.janitor_every)
            try:
                await self.sweep()
            except Exception:  # the janitor must go on
                log.exception("janitor round failed")

    async def sweep(self, now: float | None = None) -> list[str]:
        """Mark every waiting or playing table idle for :attr:`idle_limit` seconds
        abandoned (stored with its partial record) and drop it from memory;
        return their ids."""
        now = time.time() if now is None else now
        ended = []
        for table in list(self.tables.values()):
            if table.status in OPEN_STATUSES and now - table.active >= self.idle_limit:
                record = record_dumps(to_record(table.game, meta=self._meta(table)))
                try:
                    await self.writer.submit(SetStatus(table.id, ABANDONED, now, None, record))
                except StoreError as e:
                    log.error("table %s could not be marked abandoned: %s", table.id, e)
                    continue
                self._end(table, ABANDONED)
                ended.append(table.id)
        return ended

    def _end(self, table: LiveTable, status: str) -> None:
        """A table that will not be played (cancelled or abandoned): tell its watchers, stop its clocks, forget it."""
        table.status = status
        table.moved = True
        for _, _, handle in table.deadlines.values():
            handle.cancel()
        table.deadlines.clear()
        self._publish(table)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    def _repair(self, table: LiveTable, item: LoadedTable) -> None:
        """Store what a failed write left out: the end of a game whose last event was
        stored, or the start of a table whose every seat was named."""
        if table.status == FINISHED and item.row.status != FINISHED:
            record = record_dumps(to_record(table.game, meta=self._meta(table)))
            self.writer.submit(SetStatus(table.id, FINISHED, time.time(), table.result, record))
        elif table.status == WAITING and all(x.name is not None for x in table.seats if x.kind == "human"):
            table.status = PLAYING  # named but not started: the start was not stored
            table.moved = True
            self.writer.submit(SetStatus(table.id, PLAYING))

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for table in self.tables.values():
            for _, _, handle in table.deadlines.values():
                handle.cancel()
            for bot in [*table.bots.values(), *table.stand_ins.values()]:
                bot.close()
        await self.writer.stop()
        self.bot_threads.shutdown(wait=False, cancel_futures=True)
        if self._analysis_pool is not None:
            self._analysis_pool.shutdown(wait=True, cancel_futures=True)  # a running hint ends within hint_seconds

    def _restore(self, item: LoadedTable) -> LiveTable:
        row = item.row
        rules = _rules_of(row)
        settings = _stored_settings(row, item.happenings)
        creator = row.rules.get("creator")
        table = LiveTable(
            id=row.id, created=row.created, rules=rules, seed=row.seed, timer=row.timer,
            status=row.status, seats=[_restored_seat(s, row) for s in item.seats],
            game=new_game(rules, seed=row.seed), opened=[0] * rules.players,
            seeded=bool(row.rules.get("seeded")), learn=settings["learn"], private=settings["private"],
            chat=settings["chat"], chat_spectators=settings["chat_spectators"], hints=settings["hints"],
            creator_hash=bytes.fromhex(creator) if isinstance(creator, str) else None,
            rematch=settings["rematch"], rematch_of=settings["rematch_of"],
        )
        self._make_bots(table)
        happenings = list(item.happenings)
        table.happened = max((h.n for h in happenings), default=0)
        for ev in item.events:  # with the happenings in the order they came
            if ev.seq != table.seq + 1:
                raise ValueError(f"event {ev.seq} follows {table.seq}")
            while happenings and happenings[0].at <= ev.at:
                self._recall(table, happenings.pop(0))
            self._apply(table, ev.seat, ev.action, ev.by, ev.at)
        for h in happenings:
            self._recall(table, h)
        now = time.time()
        if table.started is None and table.status == PLAYING:  # sushigo 0.5 or earlier did not store the start
            table.started = now
            table.opened_at = [now if o == 0 else at for o, at in zip(table.opened, table.opened_at)]
        for s in table.seats:
            if s.kind == "human":
                s.away_since = now  # nobody is connected to a table just loaded
        table.moved = True
        table.log_sent = len(table.log)  # a watcher is sent the whole log when it attaches
        return table

    def _recall(self, table: LiveTable, h: HappeningRow) -> None:
        """Apply a stored happening to a table being loaded."""
        table.active = max(table.active, h.at)
        if h.kind == "start":
            table.started = h.at
            table.opened_at = [h.at] * table.rules.players
        elif h.kind in ("chat", "react"):
            table.talk.append(h)
        elif h.kind == "mute" and h.seat is not None:
            muted = table.mutes.setdefault(h.seat, set())
            (muted.add if h.data.get("muted") else muted.discard)(int(h.data["seat"]))
        elif h.kind == "stand_in" and h.seat is not None:
            self._seat_bot(table, h.seat, str(h.data.get("bot", STAND_IN)), h.data.get("by"))
        elif h.kind == "back" and h.seat is not None:
            self._seat_player(table, h.seat, h.at)
        elif h.kind in ("claim", "invite") and h.seat is not None:
            s = table.seats[h.seat]
            if s.invite_hash is not None:
                s.spent.append(s.invite_hash)
            s.invite_hash = bytes.fromhex(h.data["invite"]) if h.kind == "invite" else None
            if "replaced" in h.data:
                s.spent.append(bytes.fromhex(h.data["replaced"]))

    def _make_bots(self, table: LiveTable) -> None:
        name_bots(table.seats)
        for s in table.seats:
            if s.kind == "bot" and s.bot is not None:
                bot = table.bots[s.seat] = make_bot(s.bot, seed=(table.seed + 7919 * (s.seat + 1)) % (1 << 63))
                if getattr(bot, "wants_world", False):
                    table.think[s.seat] = min(getattr(bot, "time", None) or BOT_DEADLINE, BOT_LIMITS["time"])

    # ------------------------------------------------------------------ tables

    async def create(self, req: CreateRequest, *, rematch_of: LiveTable | None = None, address: str = ""
                     ) -> tuple[LiveTable, dict[int, str], str]:
        """A new table from a create request; returns it, the human seats' tokens
        and the creator's token.  A rematch (``rematch_of``) gives no seat tokens:
        each player claims its seat (:meth:`claim_rematch`)."""
        rules = _rules_from_request(req)
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, entry in enumerate(req.seats):
            kind = entry.strip().lower()
            if kind == "human" and rematch_of is not None:
                seats.append(Seat(i, "human", None, None, None))
            elif kind == "human":
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                seats.append(Seat(i, "human", None, None, None, invite_hash=hash_token(token)))
            elif kind.startswith("bot:"):
                seats.append(Seat(i, "bot", _bot_spec(entry.strip(), i), None, None))
            else:
                raise TableError("bad_request", f"seat {i}: {entry[:40]!r} is neither 'human' nor 'bot:NAME'")
        if all(s.kind == "bot" for s in seats):
            raise TableError("bad_request", "a table needs at least one human seat")
        seed = req.seed if req.seed is not None else secrets.randbits(63)
        table_id = self.prefix + secrets.token_urlsafe(9)
        creator = secrets.token_urlsafe(24)
        table = LiveTable(
            id=table_id, created=time.time(), rules=rules, seed=seed, timer=req.timer,
            status=WAITING, seats=seats, game=new_game(rules, seed=seed), opened=[0] * rules.players,
            seeded=req.seed is not None, learn=req.learn, private=req.private, chat=req.chat,
            chat_spectators=req.chat_spectators, hints=req.hints, creator_hash=hash_token(creator),
            rematch_of=rematch_of.id if rematch_of is not None else None,
            owner=rematch_of.owner if rematch_of is not None else address,
        )
        self._make_bots(table)
        stored_rules: dict[str, Any] = {"options": rules.options(), "creator": hash_token(creator).hex()}
        invites = {str(s.seat): s.invite_hash.hex() for s in seats if s.invite_hash is not None}
        if invites:
            stored_rules["invites"] = invites
        if rules.menu:  # Sushi Go Party!'s
            stored_rules["menu"] = list(rules.menu)
        if req.seed is not None:
            stored_rules["seeded"] = True
        for key in ("learn", "private", "chat_spectators", "hints"):
            if getattr(req, key):
                stored_rules[key] = True
        if not req.chat:
            stored_rules["chat"] = False
        if rematch_of is not None:
            stored_rules["rematch_of"] = rematch_of.id
        row = TableRow(table_id, table.created, rules.edition, rules.players, stored_rules, seed,
                       req.timer, WAITING)
        await self.writer.submit(CreateTable(row, [SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash)
                                                   for s in seats]))
        self.tables[table_id] = table
        return table, tokens, creator

    async def cancel(self, table_id: str, creator: str) -> LiveTable:
        """Cancel a table that has not started, for its creator (stored first)."""
        table = await self._creators_table(table_id, creator, ended="only a waiting table can be cancelled")
        if table.status != WAITING or table.starting:
            raise TableError("not_waiting", "the game has started; only a waiting table can be cancelled")
        try:
            await self.writer.submit(SetStatus(table.id, CANCELLED, time.time()))
        except StoreError:
            raise TableError("server_error", "the table could not be cancelled; try again") from None
        self._end(table, CANCELLED)
        return table

    async def _creators_table(self, table_id: str, creator: str, *, ended: str = "it is read-only") -> LiveTable:
        """The open table ``table_id`` this process runs, if ``creator`` is its creator's token."""
        table = self.tables.get(table_id)
        if table is None:
            summary = await self.summary(table_id)
            if summary is None:
                raise TableError("no_table", f"no table {table_id!r}")
            if summary["status"] in OPEN_STATUSES:
                raise TableError("wrong_process", "this table is served by another server process")
            raise TableError("not_waiting", f"the table is {summary['status']}; {ended}")
        if table.creator_hash is None or not hmac.compare_digest(table.creator_hash, hash_token(creator)):
            raise TableError("not_creator", "this is not the creator's token of this table")
        return table

    async def claim_rematch(self, table: LiveTable, seat: int | None) -> tuple[LiveTable, str, str | None]:
        """"Play again": the finished table's rematch (created by the first seat
        to ask: same seats, bots and options, a fresh seed), a new secret for
        ``seat`` there and, for the seat that created it, the new table's creator
        token (the caller sends them to that seat's socket only: the socket
        holds the old seat's secret, so each new seat goes to its old player)."""
        if seat is None or table.seats[seat].kind != "human":
            raise TableError("not_seated", "only the table's players can play again")
        if table.status != FINISHED:
            raise TableError("not_over", "play again once the game is over")
        creator = None
        async with table.rematch_lock:
            if table.rematch is None:
                req = self._rematch_request(table)
                new, _, creator = await self.create(req, rematch_of=table)
                try:
                    await self._happening(table, "rematch", seat, {"table": new.id})[1]
                except StoreError:
                    raise TableError("server_error", "the new table could not be linked; try again") from None
                table.rematch = new.id
                table.moved = True
                self._publish(table)
            found = self.tables.get(table.rematch)
            if found is not None and found.seats[seat].token_hash is not None:
                raise TableError("already_claimed", "this seat took its place at the new table already")
            if found is None or found.status != WAITING:
                raise TableError("not_waiting", "the new table has started or ended without this seat")
            new = found
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            new.seats[seat].token_hash = digest
            try:
                await self.writer.submit(SetToken(new.id, seat, digest))
                if table.seats[seat].name is not None:
                    await self.rename(new, seat, table.seats[seat].name)  # type: ignore[arg-type]
            except (StoreError, TableError):
                new.seats[seat].token_hash = None
                raise TableError("server_error", "the seat could not be stored; try again") from None
            return new, token, creator

    def _rematch_request(self, table: LiveTable) -> CreateRequest:
        rules = table.rules
        seats = ["human" if s.kind == "human" else f"bot:{s.bot}" for s in table.seats]
        options = rules.options()
        fields: dict[str, Any] = {"edition": rules.edition, "players": rules.players, "seats": seats,
                                  "timer": table.timer, "learn": False, "private": table.private,
                                  "chat": table.chat, "chat_spectators": table.chat_spectators,
                                  "hints": table.hints}
        if rules.menu:  # Sushi Go Party!'s
            fields["menu"] = list(rules.menu)
        for key in ("pass_both_ways", "reshuffle", "uramaki_split", "menu_card_draw",
                    "two_player_pudding_penalty", "wasabi_colour"):
            if key in options and key in CreateRequest.model_fields:
                fields[key] = options[key]
        return CreateRequest(**fields)

    def get(self, table_id: str) -> LiveTable | None:
        return self.tables.get(table_id)

    def seat_of(self, table: LiveTable, token: str) -> tuple[int | None, str]:
        """The seat ``token`` opens and how (constant time over every seat's
        hashes): ``(seat, "secret")`` the secret of the player who claimed it,
        ``(seat, "invite")`` its open invite (:meth:`claim` binds it),
        ``(seat, "spent")`` an invite that claimed it already or was replaced
        (it grants nothing), ``(None, "none")`` nothing of this table."""
        digest = hash_token(token)
        found: tuple[int | None, str] = (None, "none")
        for s in table.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = (s.seat, "secret")
            if s.invite_hash is not None and hmac.compare_digest(s.invite_hash, digest):
                found = (s.seat, "invite")
            for h in s.spent:
                if hmac.compare_digest(h, digest):
                    found = (s.seat, "spent")
        return found

    async def claim(self, table: LiveTable, seat: int) -> str:
        """Bind human ``seat``, opened with its invite, to a new secret (stored
        first) and return it: the caller sends it to the claiming socket only.

        The invite is spent from now on.  When the seat had a player already
        (the creator re-issued its invite, :meth:`reinvite`), that player's
        secret stops working: their sockets are told ``seat_taken`` and closed.
        """
        _check_open(table, "seats")
        s = table.seats[seat]
        invite, old = s.invite_hash, s.token_hash
        if invite is None:
            raise TableError("seat_taken", SEAT_TAKEN)
        secret = secrets.token_urlsafe(24)
        digest = hash_token(secret)
        s.invite_hash, s.token_hash = None, digest  # before any await: a second hello with it finds it spent
        s.spent.append(invite)
        if old is not None:
            s.spent.append(old)  # the secret it replaces: its holder is told the seat was taken
        try:
            _, stored = self._happening(table, "claim", seat, {} if old is None else {"replaced": old.hex()})
            await asyncio.gather(self.writer.submit(SetToken(table.id, seat, digest)), stored)
        except StoreError:
            s.invite_hash, s.token_hash = invite, old
            del s.spent[-1 if old is None else -2:]
            raise TableError("server_error", "the seat could not be claimed; try again") from None
        if old is not None:
            for conn in table.connections_of(seat):
                conn.send(dump({"type": "error", "code": "seat_taken",
                                "message": "your seat was claimed with the new invite the table's creator made"}))
                conn.close(1008, "seat claimed with a new invite")
                self.detach(table, conn)
                conn.seat = None  # anything it still sends is a spectator's
            self._tell(table, "claim", f"{{{seat}}}'s seat was claimed with its new invite.", seat)
            self.broadcast_seats(table)
        return secret

    async def reinvite(self, table_id: str, creator: str, seat: int) -> str:
        """A new invite for human ``seat`` of an open table, for its creator: the
        way back for a player who lost their secret.  Everyone at the table sees
        it (the seat's ``reinvited``, a line in the log); the seat's player keeps
        playing until someone opens the new invite (which then holds the seat)."""
        table = await self._creators_table(table_id, creator)
        _check_open(table, "invites")
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise TableError("bad_request", f"seat {seat} is not a player's seat")
        s = table.seats[seat]
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        try:
            await self._happening(table, "invite", seat, {"invite": digest.hex()})[1]
        except StoreError:
            raise TableError("server_error", "the invite could not be stored; try again") from None
        if s.invite_hash is not None:
            s.spent.append(s.invite_hash)
        s.invite_hash = digest
        if s.token_hash is not None:
            self._tell(table, "invite", f"The table's creator made a new invite for {{{seat}}}'s seat.", seat)
        self.broadcast_seats(table)
        return token

    async def rename(self, table: LiveTable, seat: int, name: str) -> None:
        """Name a human seat (stored first); the game starts once every human seat has a name."""
        _check_open(table, "names")
        s = table.seats[seat]
        if s.name != name:
            try:
                await self.writer.submit(SetName(table.id, seat, name))
            except StoreError:
                raise TableError("server_error", "the name could not be stored; try again") from None
            s.name = name
        if not await self._start_if_ready(table):
            self.broadcast_seats(table)

    async def _start_if_ready(self, table: LiveTable) -> bool:
        """Start a waiting table whose human seats all have names (status stored first)."""
        if table.status != WAITING or table.starting:
            return False
        if any(x.name is None for x in table.seats if x.kind == "human"):
            return False
        table.starting = True
        now = time.time()
        try:
            _, start = self._happening(table, "start", None, {}, now)
            await self.writer.submit(SetStatus(table.id, PLAYING))
            await start
        except StoreError:
            raise TableError("server_error", "the game could not be started; try again") from None
        finally:
            table.starting = False
        table.started = now
        table.opened_at = [now] * table.rules.players
        table.status = PLAYING
        table.moved = True
        self._after_change(table)
        self._publish(table)
        return True

    def _happening(self, table: LiveTable, kind: str, seat: int | None, data: dict[str, Any],
                   at: float | None = None) -> tuple[HappeningRow, asyncio.Future[None]]:
        """Store one happening (numbered now, so in order); the future resolves once it is committed."""
        table.happened += 1
        row = HappeningRow(table.happened, kind, seat, time.time() if at is None else at, data)
        table.active = max(table.active, row.at)
        return row, self.writer.submit(AddHappening(table.id, row))

    # ------------------------------------------------------------------ watchers

    def attach(self, table: LiveTable, conn: Connection) -> None:
        """Add a watcher (after its ``state``): it is sent the whole log, the chat it may read, its mutes."""
        table.connections.add(conn)
        if table.log:
            conn.send(self.log_message(table, conn.seat, 0))
        talk = self.talk_seen_by(table, conn.seat)
        if talk:
            conn.send(dump({"type": "chat", "messages": talk}))
        if conn.seat is not None:
            if table.mutes.get(conn.seat):
                conn.send(dump({"type": "muted", "seats": sorted(table.mutes[conn.seat])}))
            opened, frame = table.hinted.get(conn.seat, (-1, ""))
            if frame and opened == table.opened[conn.seat] and conn.seat in table.game.pending_seats:
                conn.send(frame)
            s = table.seats[conn.seat]
            s.connections += 1
            s.away_since = None
            if s.connections == 1 and s.stand_in is not None:
                self._take_seat_back(table, s.seat)
            elif s.connections == 1 and s.seen:
                self._tell(table, "back", f"{{{s.seat}}} is back.", s.seat)
            s.seen = True
            self.broadcast_seats(table)
        else:
            self.broadcast_seats(table)  # the number watching changed

    def detach(self, table: LiveTable, conn: Connection) -> None:
        if conn in table.connections:
            table.connections.discard(conn)
            if conn.seat is not None:
                s = table.seats[conn.seat]
                s.connections -= 1
                if s.connections == 0:
                    s.away_since = time.time()
                    self._tell(table, "away", f"{{{s.seat}}} left the table.", s.seat)
            self.broadcast_seats(table)
        self.forget_if_idle(table)

    # ------------------------------------------------------------------ absent players

    def _seat_bot(self, table: LiveTable, seat: int, bot: str, by: int | None) -> None:
        """Let ``bot`` play for human ``seat`` (in memory) and tell it in the log."""
        s = table.seats[seat]
        s.stand_in = bot
        table.stand_ins[seat] = make_bot(bot, seed=(table.seed + 104729 * (seat + 1)) % (1 << 63))
        game = table.game
        turn = None if game.is_over else game.turn
        table.log.append(Line("stand_in", game.round, turn, f"{{{seat}}} is away: {bot} plays for them.", seat=seat))

    def _seat_player(self, table: LiveTable, seat: int, at: float) -> None:
        """The seat is its player's again; a timer gives them the full time for the decision at hand."""
        s = table.seats[seat]
        s.stand_in = None
        table.opened_at[seat] = max(table.opened_at[seat], at)
        bot = table.stand_ins.pop(seat, None)
        if bot is not None:
            bot.close()
        game = table.game
        turn = None if game.is_over else game.turn
        table.log.append(Line("back", game.round, turn, f"{{{seat}}} is back and plays again.", seat=seat))

    def may_hand_over(self, table: LiveTable, seat: int, now: float | None = None) -> str | None:
        """Why human ``seat`` cannot be handed to a bot now (``None``: it can)."""
        if table.status != PLAYING:
            return "the game is not being played"
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            return f"seat {seat} is not a player's seat"
        s = table.seats[seat]
        if s.stand_in is not None:
            return f"a bot already plays for seat {seat}"
        if s.connections or s.away_since is None:
            return f"seat {seat}'s player is at the table"
        if seat not in table.game.pending_seats:
            return f"the table is not waiting for seat {seat}"
        gone = (time.time() if now is None else now) - s.away_since
        if gone < self.away_after:
            return f"seat {seat}'s player left {gone:.0f} s ago; wait {self.away_after - gone:.0f} s more"
        return None

    async def hand_over(self, table: LiveTable, by: int | None, seat: int, *, forced: bool = False) -> None:
        """Hand human ``seat``, whose player is away, to the greedy bot (stored
        first); it returns to the player when they reconnect.  ``by``: the seat
        that asked (``None``: the move timer)."""
        if by is not None and (by == seat or table.seats[by].kind != "human"):
            raise TableError("not_allowed", "only another player of the table can hand a seat to a bot")
        why = None if forced else self.may_hand_over(table, seat)
        if why is not None:
            raise TableError("not_allowed", why)
        try:
            await self._happening(table, "stand_in", seat, {"bot": STAND_IN, "by": by})[1]
        except StoreError:
            raise TableError("server_error", "the hand-over could not be stored; try again") from None
        if table.seats[seat].stand_in is not None or table.seats[seat].connections:
            return  # the player came back meanwhile (that return is stored after this)
        self._seat_bot(table, seat, STAND_IN, by)
        self._clear_deadline(table, seat)
        self._publish_log(table)
        self.broadcast_seats(table)
        self._after_change(table)

    def _take_seat_back(self, table: LiveTable, seat: int) -> None:
        """The player of a seat a bot plays for is back: the seat is theirs again."""
        row, stored = self._happening(table, "back", seat, {})
        stored.add_done_callback(_retrieve)
        self._seat_player(table, seat, row.at)
        self._publish_log(table)
        self._after_change(table)

    # ------------------------------------------------------------------ talk

    def talk_seen_by(self, table: LiveTable, seat: int | None, rows: Sequence[HappeningRow] | None = None
                     ) -> list[dict[str, Any]]:
        """The chat messages and reactions ``seat`` may read (``None``: a spectator)."""
        if seat is None and not table.chat_spectators:
            return []
        muted = table.mutes.get(seat, set()) if seat is not None else set()
        return [_talk_json(h) for h in (table.talk if rows is None else rows) if h.seat not in muted]

    async def say(self, table: LiveTable, seat: int | None, *, text: str | None = None,
                  reaction: str | None = None) -> None:
        """A chat message or a reaction from ``seat`` (stored first, then sent to whoever may read it)."""
        if not table.chat:
            raise TableError("no_chat", "this table was created without chat")
        if seat is None:
            raise TableError("not_seated", "spectators cannot chat")
        _check_open(table, "chat")
        now = time.time()
        most, window = CHAT_RATE
        recent = [t for t in table.said.get(seat, []) if now - t < window]
        if len(recent) >= most:
            raise TableError("chat_rate", f"at most {most} messages in {window:g} seconds; wait a moment")
        if reaction is not None:
            if reaction not in REACTIONS:
                raise TableError("bad_message", f"unknown reaction {reaction[:20]!r} (one of {', '.join(REACTIONS)})")
            kind, data = "react", {"reaction": reaction}
        else:
            kind, data = "chat", {"text": clean_chat(text or "")}
        recent.append(now)
        table.said[seat] = recent
        row, stored = self._happening(table, kind, seat, data, now)
        try:
            await stored
        except StoreError:
            raise TableError("server_error", "the message could not be stored; try again") from None
        table.talk.append(row)
        message = dump({"type": "chat", "messages": [_talk_json(row)]})
        for conn in table.connections:
            if conn.seat is None and not table.chat_spectators:
                continue
            if conn.seat is not None and seat in table.mutes.get(conn.seat, ()):
                continue
            conn.send(message)

    async def mute(self, table: LiveTable, seat: int | None, other: int, muted: bool) -> None:
        """``seat`` stops (or starts again) reading ``other``'s chat (stored first)."""
        if seat is None:
            raise TableError("not_seated", "spectators cannot mute")
        _check_open(table, "chat")
        if not 0 <= other < len(table.seats) or other == seat:
            raise TableError("bad_message", f"seat {other} is not another seat of this table")
        try:
            await self._happening(table, "mute", seat, {"seat": other, "muted": muted})[1]
        except StoreError:
            raise TableError("server_error", "the mute could not be stored; try again") from None
        mutes = table.mutes.setdefault(seat, set())
        (mutes.add if muted else mutes.discard)(other)
        text = dump({"type": "muted", "seats": sorted(mutes)})
        for conn in table.connections_of(seat):
            conn.send(text)

    def _tell(self, table: LiveTable, kind: str, text: str, seat: int) -> None:
        """Add a line of the server's own (a seat leaving or returning) and send it, while the game is on."""
        if table.status != PLAYING:
            return
        game = table.game
        table.log.append(Line(kind, game.round, None if game.is_over else game.turn, text, seat=seat))
        self._publish_log(table)

    def log_message(self, table: LiveTable, seat: int | None, start: int) -> str:
        """The ``log`` frame with the lines from ``start`` on, as ``seat`` may read them."""
        return dump({"type": "log", "from": start, "lines": lines_seen_by(table.log[start:], seat)})

    def _publish_log(self, table: LiveTable) -> None:
        """Send every watcher the lines it has not been sent (one text per seat that reads a line of its own)."""
        start = table.log_sent
        if start >= len(table.log):
            return
        table.log_sent = len(table.log)
        private = {line.seat for line in table.log[start:] if line.private is not None}
        cache: dict[int | None, str] = {}
        for conn in table.connections:
            key = conn.seat if conn.seat in private else None
            text = cache.get(key)
            if text is None:
                text = cache[key] = self.log_message(table, key, start)
            conn.send(text)

    def forget_if_idle(self, table: LiveTable) -> None:
        """Drop an ended table nobody watches from memory (the database keeps it; see :meth:`revive`)."""
        if table.status not in OPEN_STATUSES and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def settled(self, table: LiveTable, tries: int = 20) -> None:
        """Wait until every decision the table shows in memory is committed (for a joining socket)."""
        for _ in range(tries):
            seq = table.seq
            await self.writer.barrier()
            if table.seq == seq:
                return

    async def revive(self, table_id: str) -> LiveTable | None:
        """An ended table (finished, cancelled or abandoned), read back from the
        database so that it can be watched again.

        Any process may serve an ended table (no decision changes it any more);
        ``None`` if there is no such ended table.
        """
        items = await asyncio.to_thread(self.store.load, table_id=table_id)
        if not items or items[0].row.status in OPEN_STATUSES:
            return None
        if table_id in self.tables:
            return self.tables[table_id]
        table = self._restore(items[0])
        self.tables[table_id] = table
        return table

    def broadcast_seats(self, table: LiveTable) -> None:
        text = dump({"type": "seats", "seats": [s.to_json() for s in table.seats],
                     "watching": sum(1 for c in table.connections if c.seat is None)})
        for conn in table.connections:
            conn.send(text)

    def state_message(self, table: LiveTable, seat: int | None) -> str:
        """The complete ``state`` frame for ``seat`` (``None``: spectator)."""
        return StateFrames(table).text(seat)

    def _publish(self, table: LiveTable) -> None:
        """Tell every watcher what changed: the new log lines, then a full state
        if anything visible moved, else progress."""
        self._publish_log(table)
        game = table.game
        picked = tuple(game.has_committed(s) for s in range(game.players))
        if table.moved:
            table.moved = False
            table.refresh.clear()
            table.picked_told = picked
            frames = StateFrames(table)
            for conn in table.connections:
                conn.send(frames.text(conn.seat))
        else:
            # a hidden pick changed for another: the others are told only when
            # who has picked changed (a change of mind tells them nothing)
            text = None
            if picked != table.picked_told:
                table.picked_told = picked
                text = dump({"type": "progress", "seq": table.public_seq, "picked": list(picked)})
            frames = StateFrames(table)
            # keyed by seat like conn.seat, which is None for a watcher without a seat
            own: dict[int | None, str] = {seat: frames.text(seat) for seat in table.refresh}
            table.refresh.clear()
            for conn in table.connections:
                frame = own.get(conn.seat, text)
                if frame is not None:
                    conn.send(frame)

    # ------------------------------------------------------------------ decisions

    def _apply(self, table: LiveTable, seat: int, action: int, by: str = "seat", at: float | None = None) -> None:
        """Apply one decision to the game in memory (no checks beyond the engine's)
        and add what it finished to the log (``by``: who decided, as stored;
        :data:`WITHDRAW` takes a hidden pick back; ``at``: when, as stored)."""
        game = table.game
        at = time.time() if at is None else at
        table.active = max(table.active, at)
        if by in (WITHDRAW, CHANGE):
            game.withdraw(seat)  # the seat's decision is the one it was: same opening, same deadline
            table.seq += 1
            if by == CHANGE:
                table.hidden += 1
                table.changing = seat
            return
        before = set(game.pending_seats)
        if by == "timer":
            words = action_words(game, action)
            table.log.append(Line("timer", game.round, game.turn,
                                  f"Time ran out for {{{seat}}}: greedy decided for them.",
                                  seat=seat, private=f"Time ran out: greedy chose {words} for you."))
        moved = game.commit(seat, action)
        table.log += table.narrator.update()
        table.seq += 1
        if table.changing == seat:
            table.hidden += 1
            table.changing = None
        for s in game.pending_seats:
            if s not in before or s == seat:
                table.opened[s] = table.public_seq
                table.opened_at[s] = at
        table.moved = table.moved or moved
        if game.is_over:
            table.status = FINISHED
            table.result = game.result().to_json()

    def _check_current(self, table: LiveTable, seat: int, seq: int) -> None:
        """Raise :class:`TableError` unless the game is being played and ``seq``
        (the state ``seat`` decided on) is neither ahead of it nor older than the
        seat's open or hidden decision (for a pick and a withdrawal alike)."""
        if table.status == WAITING:
            raise TableError("not_started", "the game starts once every seat is filled")
        if table.status != PLAYING:
            raise TableError("game_over", _ended(table))
        game = table.game
        if seq > table.public_seq:
            raise TableError("stale", f"seq {seq} is ahead of the game ({table.public_seq})")
        if seq < table.opened[seat] and (seat in game.pending_seats or game.has_committed(seat)):
            raise TableError("stale", f"seq {seq} predates this decision (it opened at {table.opened[seat]})")

    def check_pick(self, table: LiveTable, seat: int, seq: int, action: int) -> None:
        """Raise :class:`TableError` unless ``seat`` may decide ``action`` on state ``seq`` now."""
        self._check_current(table, seat, seq)
        game = table.game
        if game.has_committed(seat):  # a change of mind: any pick it could have made, until the reveal
            if action not in game.change_choices(seat):
                raise TableError("illegal", f"action {action} is not legal now")
            return
        if seat not in game.pending_seats:
            raise TableError("not_your_turn", "the game is not waiting for you")
        if not game.is_legal(seat, action):
            raise TableError("illegal", f"action {action} is not legal now")

    async def pick(self, table: LiveTable, seat: int, seq: int, action: int, *, by: str = "seat") -> int:
        """Take a decision, or change the seat's hidden pick to ``action``; return
        its ``seq`` once it is stored. Raises :class:`TableError`."""
        self.check_pick(table, seat, seq, action)
        if table.game.has_committed(seat):
            if table.game.committed_action(seat) == action:
                await self.writer.barrier()  # the same pick again: acknowledged once it is stored
                return table.public_seq
            return await self._decide(table, seat, action, by, change=True)
        return await self._decide(table, seat, action, by)

    async def withdraw(self, table: LiveTable, seat: int, seq: int) -> int:
        """Take back ``seat``'s hidden pick (until the last seat commits); return
        the ``seq`` once stored.  ``seq``: of the state the seat decided on (an
        older one is stale, as for a pick).  Nobody else learns anything but
        that the seat has not picked any more."""
        self._check_current(table, seat, seq)
        if not table.game.change_choices(seat):  # empty without a hidden pick
            raise TableError("nothing_to_withdraw", "you have no hidden pick to take back")
        return await self._decide(table, seat, None, WITHDRAW)

    async def _decide(self, table: LiveTable, seat: int, action: int | None, by: str, *, change: bool = False) -> int:
        """Apply, store and publish one decision (``action`` ``None`` with :data:`WITHDRAW`:
        take the hidden pick back; ``change``: take it back and commit ``action``)."""
        now = time.time()
        futures = []
        if change or action is None:
            old = table.game.committed_action(seat)
            assert old is not None
            undo = CHANGE if change else WITHDRAW
            self._apply(table, seat, old, undo, now)
            futures.append(self.writer.submit(AppendEvent(table.id, EventRow(table.seq, seat, old, undo, now))))
        if action is not None:
            self._apply(table, seat, action, by, now)
            self.picks += 1
            self._clear_deadline(table, seat)
            futures.append(self.writer.submit(AppendEvent(table.id, EventRow(table.seq, seat, action, by, now))))
        stored, seq = table.seq, table.public_seq
        if table.status == FINISHED:
            record = record_dumps(to_record(table.game, meta=self._meta(table)))
            futures.append(self.writer.submit(SetStatus(table.id, FINISHED, time.time(), table.result, record)))
        try:
            for fut in futures:  # in commit order; a gather would cost more on this hot path
                await fut
        except StoreError as e:
            for fut in futures:  # the later ones fail too (same table): retrieve their errors
                fut.add_done_callback(_retrieve)
            log.error("table %s: %s; reloading it from the database", table.id, e)
            await self._reload(table)
            raise TableError("server_error", "the pick could not be stored; the table was reloaded") from None
        if by in ("seat", WITHDRAW) and table.seats[seat].kind == "human":
            table.refresh.add(seat)  # the seat's sockets show its hidden pick (and what it may change it to)
        if table.seq == stored:  # nothing newer is waiting for its commit: publish
            self._after_change(table)  # first: it sets the move timer's deadline that the state shows
            self._publish(table)
        return seq

    def _meta(self, table: LiveTable) -> dict[str, Any]:
        meta: dict[str, Any] = {"seed": table.seed, "table": table.id,
                                "names": [s.name for s in table.seats],
                                "date": time.strftime("%Y-%m-%d", time.gmtime(table.created))}
        if table.seeded:
            meta["seeded"] = True  # the creator chose the seed (and so could know every hand)
        return meta

    async def _reload(self, table: LiveTable) -> None:
        """Put the table back to what the database holds, after a write of it failed."""
        if table.reloading:
            return
        table.reloading = True
        try:
            await self.writer.barrier()  # every queued write of this table has now failed or committed
            self.writer.reset(table.id)
            items = await asyncio.to_thread(self.store.load, table_id=table.id)
        finally:
            table.reloading = False
        if not items:
            return
        fresh = self._restore(items[0])
        self._repair(fresh, items[0])
        table.game, table.seq, table.opened = fresh.game, fresh.seq, fresh.opened
        table.hidden, table.changing = fresh.hidden, fresh.changing
        table.narrator, table.log, table.log_sent = fresh.narrator, fresh.log, 0
        table.status, table.result, table.moved = fresh.status, fresh.result, True
        self._after_change(table)
        self._publish(table)

    # ------------------------------------------------------------------ bots and timers

    def _after_change(self, table: LiveTable) -> None:
        """Start bots for pending bot seats and timers for pending human seats."""
        if table.status != PLAYING:
            return
        for seat in table.game.pending_seats:
            if seat in table.bots or seat in table.stand_ins:
                if seat not in table.busy:
                    table.busy.add(seat)
                    self._spawn(self._run_bot(table, seat))
                continue
            if table.hints:
                self._want_hint(table, seat)
            if table.timer is not None:
                current = table.deadlines.get(seat)
                if current is None or current[0] != table.opened[seat]:
                    if current is not None:
                        current[2].cancel()
                    # counted from when the decision opened: a restart or a withdrawn pick does not reset it
                    when = table.opened_at[seat] + table.timer
                    loop = asyncio.get_running_loop()
                    handle = loop.call_later(max(0.0, when - time.time()), self._on_timeout, table, seat,
                                             table.opened[seat])
                    table.deadlines[seat] = (table.opened[seat], when, handle)

    # ------------------------------------------------------------------ hints

    def _want_hint(self, table: LiveTable, seat: int) -> None:
        """Start the hint for ``seat``'s open decision unless it has one (or is getting one)."""
        opened = table.opened[seat]
        if table.hinted.get(seat, (-1,))[0] == opened:
            return
        if self.hints_queued >= HINT_QUEUE or self.hints_of[table.owner] >= HINTS_PER_ADDRESS:
            frame = dump({"type": "hint", "round": table.game.round, "turn": table.game.turn, "busy": True,
                          "legal": [action_text(table.game, a) for a in table.game.legal_actions(seat)],
                          "samples": 0, "actions": []})
            table.hinted[seat] = (opened, frame)
            for conn in table.connections_of(seat):
                conn.send(frame)
            return
        table.hinted[seat] = (opened, "")
        self.hints_queued += 1
        self.hints_of[table.owner] += 1
        self._spawn(self._hint(table, seat, opened))

    async def _hint(self, table: LiveTable, seat: int, opened: int) -> None:
        """Value every legal action of the seat's decision from its own view, on the worker
        pool, and send the ``hint`` to that seat's connections only (if still open)."""
        try:
            async with self._analysis_slots:
                game = table.game
                if table.opened[seat] != opened or seat not in game.pending_seats or table.status != PLAYING:
                    return
                view = editions_seat_view(game, seat, world=True)
                job = partial(evaluate_decision, view, samples=DEFAULT_SAMPLES, seed=secrets.randbits(32),
                              time_limit=self.hint_seconds)
                evaluation = await asyncio.get_running_loop().run_in_executor(self._pool(), job)
            if table.game is not game or table.opened[seat] != opened or seat not in game.pending_seats:
                return
            frame = self._hint_frame(game, evaluation)
            table.hinted[seat] = (opened, frame)
            for conn in table.connections_of(seat):
                conn.send(frame)
        except Exception:  # a failed hint must not stop the table
            log.exception("hint at table %s seat %d failed", table.id, seat)
        finally:
            self.hints_queued -= 1
            self.hints_of[table.owner] -= 1
            if self.hints_of[table.owner] <= 0:
                del self.hints_of[table.owner]

    # ------------------------------------------------------------------ game analyses

    async def analysis(self, table_id: str, seat: int, *, start: bool = False,
                       address: str = "") -> AnalysisJob | None:
        """The analysis of ``seat`` in finished table ``table_id``: from the database if it was
        made before, else the job computing it (``start``: start one if there is none).

        ``None``: nothing asked for yet.  Raises :class:`TableError`: ``no_table``,
        ``not_finished``, ``bad_request`` (no such seat), ``busy`` (the queue is full).
        """
        summary = await self.summary(table_id)
        if summary is None:
            raise TableError("no_table", f"no table {table_id!r}")
        if summary["status"] != FINISHED:
            raise TableError("not_finished", "a game is analysed once it is finished")
        return await self.record_analysis(table_id, summary["players"], seat, lambda: self.record(table_id),
                                          start=start, address=address)

    async def record_analysis(self, key: str, players: int, seat: int,
                              record: Callable[[], Awaitable[str | None]], *, start: bool = False,
                              address: str = "") -> AnalysisJob | None:
        """The analysis of ``seat`` in the finished game stored under ``key`` (a table's id, or
        an uploaded record's key, see :mod:`sushigo.server.replays`), whose record ``record()`` reads:
        as :meth:`analysis`, which checks that the table is finished first."""
        if not 0 <= seat < players:
            raise TableError("bad_request", f"seat {seat}: the game has seats 0 to {players - 1}")
        job = self.analyses.get((key, seat))
        if job is not None and job.status != "failed":
            return job
        stored = await asyncio.to_thread(self.store.analysis, key, seat, self.analysis_samples, ANALYSIS_SEED)
        if stored is not None:
            return AnalysisJob(key, seat, "done", 1, 1, stored)
        if not start:
            return job
        job = self.analyses.get((key, seat))  # asked for meanwhile (the await above)?
        if job is not None and job.status != "failed":
            return job
        working = [j for j in self.analyses.values() if j.status in ("queued", "running")]
        if sum(1 for j in working if j.address == address) >= ANALYSES_PER_ADDRESS:
            raise TableError("rate_limited", "this address has a game being analysed already: "
                                             "ask again once it is done")
        if len(working) >= ANALYSIS_QUEUE:
            raise TableError("busy", "the server is analysing other games: try again in a minute")
        job = self.analyses[(key, seat)] = AnalysisJob(key, seat, address=address)  # before any await: it counts
        text = await record()
        if text is None:
            del self.analyses[(key, seat)]
            raise TableError("no_table", "this game has no stored record")
        self._spawn(self._analyse(job, text))
        return job

    async def _analyse(self, job: AnalysisJob, record: str) -> None:
        """Evaluate every decision of the job's seat on the worker pool, a few at a time
        (each takes a pool slot, so hints wait behind at most those), then store the document."""
        try:
            game = await asyncio.to_thread(replay, json.loads(record))
            plan = await asyncio.to_thread(plan_analysis, game, [job.seat], samples=self.analysis_samples,
                                           seed=ANALYSIS_SEED)
            tasks = plan.tasks
            job.total, job.status = len(tasks), "running"
            results: list[DecisionEvaluation | None] = [None] * len(tasks)
            next_task = iter(range(len(tasks)))
            loop = asyncio.get_running_loop()

            async def worker() -> None:
                for i in next_task:
                    view, samples, seed = tasks[i]
                    async with self._analysis_slots:
                        results[i] = await loop.run_in_executor(
                            self._pool(), partial(evaluate_decision, view, samples=samples, seed=seed))
                    job.done += 1

            await asyncio.gather(*(worker() for _ in range(self.analysis_workers)))
            doc = plan.finish([r for r in results if r is not None]).to_json(lambda a: action_label(game, a))
            await asyncio.to_thread(self.store.save_analysis, job.table_id, job.seat, self.analysis_samples,
                                    ANALYSIS_SEED, doc, time.time())
            job.doc, job.status = doc, "done"
        except Exception:  # a failed analysis must not stop the server; asking again retries
            log.exception("analysis of table %s seat %d failed", job.table_id, job.seat)
            job.status = "failed"

    def _pool(self) -> ProcessPoolExecutor:
        if self._analysis_pool is None:
            self._analysis_pool = ProcessPoolExecutor(self.analysis_workers, mp_context=get_context("spawn"))
        return self._analysis_pool

    @staticmethod
    def _hint_frame(game: AnyGame, ev: DecisionEvaluation) -> str:
        best = ev.best
        return dump({
            "type": "hint", "round": game.round, "turn": game.turn, "busy": False,
            "legal": [action_text(game, a) for a in game.legal_actions(ev.seat)],
            "samples": len(best.margins),
            "actions": [{"action": v.action, "text": action_text(game, v.action),
                         "words": action_words(game, v.action), "margin": round(v.margin, 2),
                         "win": round(v.win, 3), "loss": round(ev.loss(v.action), 2)}
                        for v in ev.values],
        })

    def _clear_deadline(self, table: LiveTable, seat: int) -> None:
        current = table.deadlines.pop(seat, None)
        if current is not None:
            current[2].cancel()

    def _on_timeout(self, table: LiveTable, seat: int, opened: int) -> None:
        if table.deadlines.get(seat, (None,))[0] != opened:
            return
        table.deadlines.pop(seat, None)
        self._spawn(self._timer_decides(table, seat, opened))

    async def _timer_decides(self, table: LiveTable, seat: int, opened: int) -> None:
        """The greedy bot decides for ``seat`` if the decision that timed out is still open;
        a seat whose player is away is handed to it until they return.

        Checked here, in the task, with no await before the decision is applied:
        a pick the seat made meanwhile wins, and the timer never takes its next turn.
        """
        if table.status != PLAYING or seat not in table.game.pending_seats or table.opened[seat] != opened:
            return
        s = table.seats[seat]
        if s.connections == 0 and s.stand_in is None:
            await self._quietly(self.hand_over(table, None, seat, forced=True))
            return
        action = GreedyBot(seed=table.seq).choose(view_for(table.game, seat, None))
        await self._decide_quietly(table, seat, action, "timer")

    async def _decide_quietly(self, table: LiveTable, seat: int, action: int, by: str) -> None:
        await self._quietly(self._decide(table, seat, action, by))

    @staticmethod
    async def _quietly(coro: Any) -> None:
        try:
            await coro
        except TableError:
            pass

    async def _run_bot(self, table: LiveTable, seat: int) -> None:
        """Let the bot that holds ``seat`` decide while the table waits on it.

        Whatever happens, the task releases the seat (``busy``) and, when
        another bot holds the seat by then (the player came back and left
        again while this one thought), starts that one: a seat is never left
        waiting with nobody to play it."""
        bot = table.bots.get(seat) or table.stand_ins.get(seat)
        retry = False
        try:
            while (bot is not None and table.status == PLAYING and seat in table.game.pending_seats
                   and (table.bots.get(seat) or table.stand_ins.get(seat)) is bot):
                game, opened = table.game, table.opened[seat]
                view = view_for(game, seat, bot)
                if getattr(bot, "wants_world", False):
                    loop = asyncio.get_running_loop()
                    deadline = time.monotonic() + table.think.get(seat, BOT_DEADLINE)
                    action = await loop.run_in_executor(self.bot_threads, _think, bot, view, deadline)
                    if table.game is not game or table.opened[seat] != opened:
                        continue  # the table was reloaded meanwhile (or its player is back): think again
                else:
                    action = bot.choose(view)
                if not game.is_legal(seat, action):
                    raise ValueError(f"bot {bot.name} chose illegal action {action}")
                await self._decide(table, seat, action, "bot")
        except TableError as e:
            retry = e.code == "server_error"
        except Exception as e:  # a bot bug must not stop the table: play a random legal action
            log.error("table %s: the bot at seat %d failed (%s); a random legal action instead",
                      table.id, seat, _one_line(e))
            legal = table.game.legal_actions(seat)
            if legal and table.status == PLAYING and seat in table.game.pending_seats:
                await self._decide_quietly(table, seat, random.Random(table.seq).choice(legal), "bot")
        finally:
            table.busy.discard(seat)
            holder = table.bots.get(seat) or table.stand_ins.get(seat)
            if holder is not None and holder is not bot and not retry:
                self._after_change(table)  # another bot holds the seat now: it plays
        if retry:  # its pick was not stored and the table reloaded: try again shortly
            asyncio.get_running_loop().call_later(1.0, self._after_change, table)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished task; one that failed is logged as one line (its
        exception retrieved, never an "exception was never retrieved")."""
        self._tasks.discard(task)
        if task.cancelled():
            return
        e = task.exception()
        if e is not None:
            log.error("a server task failed: %s", _one_line(e))

    # ------------------------------------------------------------------ lobby

    async def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        """Summaries of the newest tables (from the database, so every process's tables show)."""
        loaded = await asyncio.to_thread(self.store.summaries, limit)
        return [self.tables[item.id].summary() if item.id in self.tables else summary_of(item)
                for item in loaded]

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        if table_id in self.tables:
            return self.tables[table_id].summary()
        loaded = await asyncio.to_thread(self.store.load, table_id=table_id)
        return summary_of(loaded[0]) if loaded else None

    async def rules_of(self, table_id: str) -> Rules | None:
        """The rules a table is played with (``None``: no such table)."""
        if table_id in self.tables:
            return self.tables[table_id].rules
        loaded = await asyncio.to_thread(self.store.load, table_id=table_id)
        return _rules_of(loaded[0].row) if loaded else None

    async def record(self, table_id: str) -> str | None:
        text = await asyncio.to_thread(self.store.record, table_id)
        return None if text is None else _with_old_options(text)


def _think(bot: Bot, view: Any, deadline: float) -> int:
    """A search bot's decision, ended by ``deadline`` (``time.monotonic()``),
    however long the bot waited for its thread: it thinks what is left."""
    bot.time = max(deadline - time.monotonic(), 0.001)  # type: ignore[attr-defined]
    return bot.choose(view)


def _ended(table: LiveTable) -> str:
    """How an ended table ended, in words."""
    return "the game is over" if table.status == FINISHED else f"the table was {table.status}"


def _check_open(table: LiveTable, what: str) -> None:
    """Raise ``game_over`` at an ended table: it is read-only (its ``what`` too)."""
    if table.status not in OPEN_STATUSES:
        raise TableError("game_over", f"{_ended(table)}: its {what} can no longer change")


def _one_line(e: BaseException) -> str:
    """An exception for the log: its type and message on one line."""
    return f"{type(e).__name__}: {' '.join(str(e).split())[:200]}"


def _talk_json(h: HappeningRow) -> dict[str, Any]:
    out: dict[str, Any] = {"n": h.n, "seat": h.seat, "kind": "reaction" if h.kind == "react" else "text",
                           "at": round(h.at, 3)}
    if h.kind == "react":
        out["reaction"] = h.data["reaction"]
        out["text"] = REACTIONS.get(h.data["reaction"], h.data["reaction"])
    else:
        out["text"] = h.data["text"]
    return out


def _retrieve(fut: asyncio.Future[None]) -> None:
    if not fut.cancelled():
        fut.exception()

