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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, Sequence

from sushigo.engine.base.actions import action_name
from sushigo.bots import make_bot, parse_bot_spec
from sushigo.bots.base import Bot, view_for
from sushigo.bots.greedy import GreedyBot
from sushigo.engine.editions import AnyGame, action_words, explain, new_game
from sushigo.engine.editions import narrator as narrator_for
from sushigo.engine.narration import Line, Narrator, lines_seen_by
from sushigo.engine.flags import FlagError, rules_from_flags
from sushigo.engine.party.game import PartyGame
from sushigo.engine.menus import menu_name
from sushigo.engine.party.view import party_seat_view, party_spectator_view, played_cards
from sushigo.engine.records import dumps as record_dumps
from sushigo.engine.editions import to_record
from sushigo.engine.rules import Rules, RulesError
from sushigo.engine.base.scoring import wasabi_pairs
from sushigo.server.protocol import CreateTable as CreateRequest
from sushigo.server.protocol import dump
from sushigo.server.store import (
    AppendEvent,
    CreateTable,
    EventRow,
    LoadedTable,
    SeatRow,
    SetName,
    SetStatus,
    Store,
    StoreError,
    TableRow,
    Writer,
)
from sushigo.engine.base.view import seat_view, spectator_view

log = logging.getLogger("sushigo.server")

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"


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

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "kind": self.kind, "bot": self.bot, "name": self.name,
            "joined": self.kind == "bot" or self.name is not None,
            "connected": self.kind == "bot" or self.connections > 0,
        }


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
    opened: list[int] = field(default_factory=list)
    deadlines: dict[int, tuple[int, float, asyncio.TimerHandle]] = field(default_factory=dict)
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    busy: set[int] = field(default_factory=set)
    """Bot seats whose task is running."""
    moved: bool = False
    """Something beyond a hidden pick changed since the last published state."""
    reloading: bool = False
    starting: bool = False
    result: dict[str, Any] | None = None
    seeded: bool = False
    """The creator chose the seed (and so may know the deal)."""
    learn: bool = False
    """A "Learn to play" table (the page teaches as the game goes)."""
    explained: list[dict[str, Any]] = field(default_factory=list)
    """The finished rounds' scoring in words (:func:`explained_rounds`), kept so each is explained once."""
    narrator: Narrator = field(init=False)
    """Follows :attr:`game` and tells each finished turn (:mod:`sushigo.engine.narration`)."""
    log: list[Line] = field(default_factory=list)
    """The game's story so far (the engine's lines, plus timer picks and seats leaving and returning)."""
    log_sent: int = 0
    """How many lines of :attr:`log` every watcher has been sent."""

    def __post_init__(self) -> None:
        self.narrator = narrator_for(self.game)

    @property
    def edition(self) -> str:
        return self.rules.edition

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it (public), with its current ``seq``."""
        out = _summary(self.id, self.rules, self.status, self.created, self.timer, self.seeded,
                       self.seats, self.result, learn=self.learn)
        out["seq"] = self.seq
        return out


def _summary(table_id: str, rules: Rules, status: str, created: float, timer: int | None, seeded: bool,
             seats: list[Seat], result: dict[str, Any] | None, *, learn: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": table_id, "edition": rules.edition, "players": rules.players,
        "menu": (menu_name(rules.menu) or list(rules.menu)) if rules.is_party else None,
        "options": rules.options(), "status": status, "created": created, "timer": timer,
        "seeded": seeded, "learn": learn, "seats": [s.to_json() for s in seats],
    }
    if result is not None:
        out["totals"] = result["totals"]
        out["winners"] = result["winners"]
    return out


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
                    bool(row.rules.get("seeded")), seats, row.result, learn=bool(row.rules.get("learn")))


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


def view_payload(game: AnyGame, seat: int | None, explained: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may see, as sent in ``state.view``
    (``explained``: the table's rounds explained so far, see :func:`explained_rounds`)."""
    if isinstance(game, PartyGame):
        pv = party_seat_view(game, seat) if seat is not None else party_spectator_view(game)
        out = pv.to_json()
        out["on_wasabi"] = [[p.on_wasabi for p in col] for col in pv.collections]
    else:
        v = seat_view(game, seat) if seat is not None else spectator_view(game)
        out = v.to_json()
        out["edition"] = "base"
        out["legal"] = [action_name(a) for a in v.legal_actions]
        out["on_wasabi"] = _on_wasabi(v.collections)
    out["last_round"] = _last_round(game)
    out["explained"] = explained_rounds(game, explained)
    if seat is not None:
        out["pass_to"] = (seat + game.pass_step) % game.players
        out["receive_from"] = (seat - game.pass_step) % game.players
    return out


def explained_rounds(game: AnyGame, done: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every finished round's scoring in the engine's words (public: every
    card of a finished round was revealed), as ``RoundStory.to_json()``: each
    seat's figures (``category``, ``count``, ``points``, ``text``) and the races.

    A finished round never changes: ``done``, the rounds explained before
    (a live table keeps them), is extended rather than explained again.
    """
    done = [] if done is None else done
    for number in range(len(done) + 1, len(game.round_breakdowns) + 1):
        done.append(explain(game, number).to_json())
    return list(done)


def _last_round(game: AnyGame) -> dict[str, Any] | None:
    """The collections of the newest finished round (public: all of it was revealed)."""
    done = len(game.round_breakdowns)
    if done == 0:
        return None
    if isinstance(game, PartyGame):
        cols = [played_cards(col) for col in game.round_collections(done)]
        return {"round": done, "collections": [[p.text for p in col] for col in cols],
                "on_wasabi": [[p.on_wasabi for p in col] for col in cols]}
    base = game.round_collections(done)
    return {"round": done, "collections": [[c.name_in_records for c in col] for col in base],
            "on_wasabi": _on_wasabi(base)}


def _on_wasabi(collections: Sequence[Sequence[int]]) -> list[list[bool]]:
    """Per base-game collection card: is it a nigiri on a wasabi."""
    return [[i in pairs for i in range(len(col))] for col, pairs in ((c, wasabi_pairs(c)) for c in collections)]


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
"""The most a server bot may think per decision (seconds, search iterations):
bots share two threads, and one table must not hold them for long."""

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
            raise TableError("bad_request", f"seat {seat}: {key}={value:g} (on the server: more than 0, at most {most:g})")
    return spec


class TableService:
    """Every live table of this server process.

    Args:
        store: the database.
        prefix: this process's table-id prefix (``--shard``); it loads and
            creates only tables whose ids start with it.
    """

    def __init__(self, store: Store, *, prefix: str = "") -> None:
        self.store = store
        self.prefix = prefix
        self.writer = Writer(store)
        self.bot_threads = ThreadPoolExecutor(2, thread_name_prefix="sushigo-bots")
        """Search bots think here, never on the writer's thread or the event loop."""
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
        for table in self.tables.values():
            self._after_change(table)

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
            for bot in table.bots.values():
                bot.close()
        await self.writer.stop()
        self.bot_threads.shutdown(wait=False, cancel_futures=True)

    def _restore(self, item: LoadedTable) -> LiveTable:
        row = item.row
        rules = _rules_of(row)
        table = LiveTable(
            id=row.id, created=row.created, rules=rules, seed=row.seed, timer=row.timer,
            status=row.status, seats=[Seat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in item.seats],
            game=new_game(rules, seed=row.seed), opened=[0] * rules.players,
            seeded=bool(row.rules.get("seeded")), learn=bool(row.rules.get("learn")),
        )
        self._make_bots(table)
        for ev in item.events:
            if ev.seq != table.seq + 1:
                raise ValueError(f"event {ev.seq} follows {table.seq}")
            self._apply(table, ev.seat, ev.action, ev.by)
        table.moved = True
        table.log_sent = len(table.log)  # a watcher is sent the whole log when it attaches
        return table

    def _make_bots(self, table: LiveTable) -> None:
        name_bots(table.seats)
        for s in table.seats:
            if s.kind == "bot" and s.bot is not None:
                table.bots[s.seat] = make_bot(s.bot, seed=(table.seed + 7919 * (s.seat + 1)) % (1 << 63))

    # ------------------------------------------------------------------ tables

    async def create(self, req: CreateRequest) -> tuple[LiveTable, dict[int, str]]:
        """A new table from a create request; returns it and the human seats' tokens."""
        rules = _rules_from_request(req)
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, entry in enumerate(req.seats):
            kind = entry.strip().lower()
            if kind == "human":
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                seats.append(Seat(i, "human", None, None, hash_token(token)))
            elif kind.startswith("bot:"):
                seats.append(Seat(i, "bot", _bot_spec(entry.strip(), i), None, None))
            else:
                raise TableError("bad_request", f"seat {i}: {entry[:40]!r} is neither 'human' nor 'bot:NAME'")
        if not tokens:
            raise TableError("bad_request", "a table needs at least one human seat")
        seed = req.seed if req.seed is not None else secrets.randbits(63)
        table_id = self.prefix + secrets.token_urlsafe(9)
        table = LiveTable(
            id=table_id, created=time.time(), rules=rules, seed=seed, timer=req.timer,
            status=WAITING, seats=seats, game=new_game(rules, seed=seed), opened=[0] * rules.players,
            seeded=req.seed is not None, learn=req.learn,
        )
        self._make_bots(table)
        stored_rules: dict[str, Any] = {"options": rules.options()}
        if rules.is_party:
            stored_rules["menu"] = list(rules.menu)
        if req.seed is not None:
            stored_rules["seeded"] = True
        if req.learn:
            stored_rules["learn"] = True
        row = TableRow(table_id, table.created, rules.edition, rules.players, stored_rules, seed,
                       req.timer, WAITING)
        await self.writer.submit(CreateTable(row, [SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash)
                                                   for s in seats]))
        self.tables[table_id] = table
        return table, tokens

    def get(self, table_id: str) -> LiveTable | None:
        return self.tables.get(table_id)

    def seat_of(self, table: LiveTable, token: str) -> int | None:
        """The seat whose token this is (constant time over every seat), else ``None``."""
        digest = hash_token(token)
        found = None
        for s in table.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s.seat
        return found

    async def rename(self, table: LiveTable, seat: int, name: str) -> None:
        """Name a human seat (stored first); the game starts once every human seat has a name."""
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
        try:
            await self.writer.submit(SetStatus(table.id, PLAYING))
        except StoreError:
            raise TableError("server_error", "the game could not be started; try again") from None
        finally:
            table.starting = False
        table.status = PLAYING
        table.moved = True
        self._after_change(table)
        self._publish(table)
        return True

    # ------------------------------------------------------------------ watchers

    def attach(self, table: LiveTable, conn: Connection) -> None:
        """Add a watcher (after its ``state``): it is sent the whole log."""
        table.connections.add(conn)
        if table.log:
            conn.send(self.log_message(table, conn.seat, 0))
        if conn.seat is not None:
            s = table.seats[conn.seat]
            s.connections += 1
            if s.connections == 1 and s.seen:
                self._tell(table, "back", f"{{{s.seat}}} is back.", s.seat)
            s.seen = True
            self.broadcast_seats(table)

    def detach(self, table: LiveTable, conn: Connection) -> None:
        if conn in table.connections:
            table.connections.discard(conn)
            if conn.seat is not None:
                s = table.seats[conn.seat]
                s.connections -= 1
                if s.connections == 0:
                    self._tell(table, "away", f"{{{s.seat}}} left the table.", s.seat)
                self.broadcast_seats(table)
        self.forget_if_idle(table)

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
        """Drop a finished table nobody watches from memory (the database keeps it; see :meth:`revive`)."""
        if table.status == FINISHED and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def settled(self, table: LiveTable, tries: int = 20) -> None:
        """Wait until every decision the table shows in memory is committed (for a joining socket)."""
        for _ in range(tries):
            seq = table.seq
            await self.writer.barrier()
            if table.seq == seq:
                return

    async def revive(self, table_id: str) -> LiveTable | None:
        """A finished table, read back from the database so that it can be watched again.

        Any process may serve a finished table (nothing changes any more);
        ``None`` if there is no such finished table.
        """
        items = await asyncio.to_thread(self.store.load, table_id=table_id)
        if not items or items[0].row.status != FINISHED:
            return None
        if table_id in self.tables:
            return self.tables[table_id]
        table = self._restore(items[0])
        self.tables[table_id] = table
        return table

    def broadcast_seats(self, table: LiveTable) -> None:
        text = dump({"type": "seats", "seats": [s.to_json() for s in table.seats]})
        for conn in table.connections:
            conn.send(text)

    def state_message(self, table: LiveTable, seat: int | None) -> str:
        """The complete ``state`` frame for ``seat`` (``None``: spectator)."""
        view = None if table.status == WAITING else view_payload(table.game, seat, table.explained)
        deadline = None
        if seat is not None and seat in table.deadlines:
            deadline = round(table.deadlines[seat][1], 3)
        return dump({"type": "state", "seq": table.seq, "status": table.status, "seat": seat,
                     "table": table.summary(), "view": view, "deadline": deadline})

    def _publish(self, table: LiveTable) -> None:
        """Tell every watcher what changed: the new log lines, then a full state
        if anything visible moved, else progress."""
        self._publish_log(table)
        if table.moved:
            table.moved = False
            cache: dict[int | None, str] = {}
            for conn in table.connections:
                text = cache.get(conn.seat)
                if text is None:
                    text = cache[conn.seat] = self.state_message(table, conn.seat)
                conn.send(text)
        else:
            game = table.game
            text = dump({"type": "progress", "seq": table.seq,
                         "picked": [game.has_committed(s) for s in range(game.players)]})
            for conn in table.connections:
                conn.send(text)

    # ------------------------------------------------------------------ decisions

    def _apply(self, table: LiveTable, seat: int, action: int, by: str = "seat") -> None:
        """Apply one decision to the game in memory (no checks beyond the engine's)
        and add what it finished to the log (``by``: who decided, as stored)."""
        game = table.game
        before = set(game.pending_seats)
        if by == "timer":
            words = action_words(game, action)
            table.log.append(Line("timer", game.round, game.turn, f"Time ran out for {{{seat}}}: greedy decided for them.",
                                  seat=seat, private=f"Time ran out: greedy chose {words} for you."))
        moved = game.commit(seat, action)
        table.log += table.narrator.update()
        table.seq += 1
        for s in game.pending_seats:
            if s not in before or s == seat:
                table.opened[s] = table.seq
        table.moved = table.moved or moved
        if game.is_over:
            table.status = FINISHED
            table.result = game.result().to_json()

    def check_pick(self, table: LiveTable, seat: int, seq: int, action: int) -> None:
        """Raise :class:`TableError` unless ``seat`` may decide ``action`` on state ``seq`` now."""
        if table.status == WAITING:
            raise TableError("not_started", "the game starts once every seat is filled")
        if table.status == FINISHED:
            raise TableError("game_over", "the game is over")
        game = table.game
        if seq > table.seq:
            raise TableError("stale", f"seq {seq} is ahead of the game ({table.seq})")
        if seat not in game.pending_seats:
            if game.has_committed(seat):
                raise TableError("already_picked", "you already picked this turn")
            raise TableError("not_your_turn", "the game is not waiting for you")
        if seq < table.opened[seat]:
            raise TableError("stale", f"seq {seq} predates this decision (it opened at {table.opened[seat]})")
        if not game.is_legal(seat, action):
            raise TableError("illegal", f"action {action} is not legal now")

    async def pick(self, table: LiveTable, seat: int, seq: int, action: int, *, by: str = "seat") -> int:
        """Take a decision; return its ``seq`` once it is stored. Raises :class:`TableError`."""
        self.check_pick(table, seat, seq, action)
        return await self._decide(table, seat, action, by)

    async def _decide(self, table: LiveTable, seat: int, action: int, by: str) -> int:
        self._apply(table, seat, action, by)
        seq = table.seq
        self.picks += 1
        self._clear_deadline(table, seat)
        futures = [self.writer.submit(AppendEvent(table.id, EventRow(seq, seat, action, by, time.time())))]
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
        if table.seq == seq:  # nothing newer is waiting for its commit: publish
            self._after_change(table)  # first: it sets the move timer's deadline that the state shows
            self._publish(table)
        return seq

    def _meta(self, table: LiveTable) -> dict[str, Any]:
        return {"seed": table.seed, "table": table.id,
                "names": [s.name for s in table.seats],
                "date": time.strftime("%Y-%m-%d", time.gmtime(table.created))}

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
            if seat in table.bots:
                if seat not in table.busy:
                    table.busy.add(seat)
                    self._spawn(self._run_bot(table, seat))
            elif table.timer is not None:
                current = table.deadlines.get(seat)
                if current is None or current[0] != table.opened[seat]:
                    if current is not None:
                        current[2].cancel()
                    loop = asyncio.get_running_loop()
                    handle = loop.call_later(table.timer, self._on_timeout, table, seat, table.opened[seat])
                    table.deadlines[seat] = (table.opened[seat], time.time() + table.timer, handle)

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
        """The greedy bot decides for ``seat`` if the decision that timed out is still open.

        Checked here, in the task, with no await before the decision is applied:
        a pick the seat made meanwhile wins, and the timer never takes its next turn.
        """
        if table.status != PLAYING or seat not in table.game.pending_seats or table.opened[seat] != opened:
            return
        action = GreedyBot(seed=table.seq).choose(view_for(table.game, seat, None))
        await self._decide_quietly(table, seat, action, "timer")

    async def _decide_quietly(self, table: LiveTable, seat: int, action: int, by: str) -> None:
        try:
            await self._decide(table, seat, action, by)
        except TableError:
            pass

    async def _run_bot(self, table: LiveTable, seat: int) -> None:
        bot = table.bots[seat]
        retry = False
        try:
            while table.status == PLAYING and seat in table.game.pending_seats:
                game, opened = table.game, table.opened[seat]
                view = view_for(game, seat, bot)
                if getattr(bot, "wants_world", False):
                    loop = asyncio.get_running_loop()
                    action = await loop.run_in_executor(self.bot_threads, bot.choose, view)
                    if table.game is not game or table.opened[seat] != opened:
                        continue  # the table was reloaded meanwhile: think again
                else:
                    action = bot.choose(view)
                if not game.is_legal(seat, action):
                    raise ValueError(f"bot {bot.name} chose illegal action {action}")
                await self._decide(table, seat, action, "bot")
        except TableError as e:
            retry = e.code == "server_error"
        except Exception:  # a bot bug must not stop the table: play a random legal action
            log.exception("bot at table %s seat %d failed", table.id, seat)
            legal = table.game.legal_actions(seat)
            if legal and table.status == PLAYING:
                await self._decide_quietly(table, seat, random.Random(table.seq).choice(legal), "bot")
        finally:
            table.busy.discard(seat)
        if retry:  # its pick was not stored and the table reloaded: try again shortly
            asyncio.get_running_loop().call_later(1.0, self._after_change, table)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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


def _retrieve(fut: asyncio.Future[None]) -> None:
    if not fut.cancelled():
        fut.exception()

