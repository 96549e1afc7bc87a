"""The table model: what a live table is, its seats and watchers, its statuses,
the service's limits, and how a stored table's rows read back.

Nothing here talks to the database or a socket: the rooms of
:class:`~sushigo.server.tables.service.TableService` do, on these objects.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from sushigo.bots.base import Bot
from sushigo.engine.editions import AnyGame, Edition, edition_for
from sushigo.engine.editions import narrator as narrator_for
from sushigo.engine.menus import menu_label
from sushigo.engine.narration import Line, Narrator
from sushigo.engine.rules import Rules
from sushigo.i18n import Phrase, _l
from sushigo.server.store import OPEN_STATUSES, HappeningRow, LoadedTable, SeatRow, TableRow

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


SEAT_TAKEN: Final = _l("this seat has been taken; ask the table to hand it back")
"""The answer to an invite that claimed its seat already (or was replaced by a new one)."""


class TableError(ValueError):
    """A request the service refuses; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Connection(Protocol):
    """One watcher of a table (a WebSocket): the service only queues text to it."""

    seat: int | None
    version: int
    """The protocol version its ``hello`` spoke (3: one ``update`` per event)."""

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
    account: str | None = None
    """The id of the account that claimed this seat while signed in (``None``: a guest's, or a bot's)."""
    account_name: str | None = None
    """That account's name (the seat's name too)."""
    rating: dict[str, Any] | None = None
    """That account's rating in the table's edition, as last read from the store (the lobby shows it)."""
    account_bot: bool = False
    """That account is a bot account (docs/bot-api.md): its seat says so (``account_bot``)."""

    def to_json(self) -> dict[str, Any]:
        out = {
            "seat": self.seat, "kind": self.kind, "bot": self.bot, "name": self.name,
            "account": self.account_name, "rating": self.rating,
            "joined": self.kind == "bot" or self.name is not None,
            "connected": self.kind == "bot" or self.connections > 0,
            "away_since": None if self.kind == "bot" or self.connections else self.away_since,
            "stand_in": self.stand_in,
            "reinvited": self.token_hash is not None and self.invite_hash is not None,
        }
        if self.account_bot:
            out["account_bot"] = True
        return out


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
    acks: dict[Connection, tuple[int, int | None]] = field(default_factory=dict)
    """Sockets whose decision the next publish acknowledges: its ``seq`` and action."""
    reloading: bool = False
    starting: bool = False
    result: dict[str, Any] | None = None
    seeded: bool = False
    """The creator chose the seed (and so may know the deal)."""
    learn: bool = False
    """A "Learn to play" table (the page teaches as the game goes)."""
    kept: dict[str, Any] = field(default_factory=dict)
    """What the view documents keep from moment to moment of this game (``Edition.view_documents``)."""
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
    rated: bool = False
    """Its finished game changes its players' ratings (docs/server.md, "Ratings")."""
    turn_based: bool = False
    """Its :attr:`timer` is a turn-based table's limit per move (hours long): the janitor waits for it."""
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
                "chat_spectators": self.chat_spectators, "hints": self.hints, "rated": self.rated,
                "turn_based": self.turn_based,
                "rematch": self.rematch, "rematch_of": self.rematch_of}

    @property
    def human_seats(self) -> list[int]:
        """The players' seats (not the bots'), in order."""
        return [s.seat for s in self.seats if s.kind == "human"]

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
            "hints": bool(row.rules.get("hints")), "rated": bool(row.rules.get("rated")),
            "turn_based": bool(row.rules.get("turn_based")), "rematch": rematch,
            "rematch_of": row.rules.get("rematch_of")}


def _restored_seat(s: SeatRow, row: TableRow) -> Seat:
    """A stored seat: its secret is the stored token hash; the invite its table
    was created with is open until a ``claim`` happening spends it.  (Tables of
    sushigo 0.6 and earlier stored no invites: their seat token is the secret.)"""
    invite = (row.rules.get("invites") or {}).get(str(s.seat))
    return Seat(s.seat, s.kind, s.bot, s.name, s.token_hash,
                invite_hash=bytes.fromhex(invite) if isinstance(invite, str) else None,
                account=s.account, account_name=s.account_name, rating=s.rating, account_bot=s.account_bot)


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
    seats = [Seat(s.seat, s.kind, s.bot, s.name, None, account=s.account, account_name=s.account_name,
                  rating=s.rating, account_bot=s.account_bot) for s in loaded.seats]
    name_bots(seats)
    return _summary(row.id, _rules_of(row), row.status, row.created, row.timer,
                    bool(row.rules.get("seeded")), seats, row.result, _stored_settings(row, loaded.happenings))


def _rules_of(row: TableRow) -> Rules:
    options = dict(row.rules.get("options") or {})
    return Rules.from_options(row.players, options, edition=row.edition, menu=row.rules.get("menu"))


def _ended(table: LiveTable) -> Phrase:
    """How an ended table ended, in words."""
    if table.status == FINISHED:
        return _l("the game is over")
    if table.status == CANCELLED:
        return _l("the table was cancelled")
    if table.status == ABANDONED:
        return _l("the table was abandoned")
    return _l("the table was {status}", status=table.status)


_CLOSED: Final = {
    (FINISHED, "chat"): _l("the game is over: its chat can no longer change"),
    (FINISHED, "seats"): _l("the game is over: its seats can no longer change"),
    (FINISHED, "invites"): _l("the game is over: its invites can no longer change"),
    (FINISHED, "names"): _l("the game is over: its names can no longer change"),
    (CANCELLED, "chat"): _l("the table was cancelled: its chat can no longer change"),
    (CANCELLED, "seats"): _l("the table was cancelled: its seats can no longer change"),
    (CANCELLED, "invites"): _l("the table was cancelled: its invites can no longer change"),
    (CANCELLED, "names"): _l("the table was cancelled: its names can no longer change"),
    (ABANDONED, "chat"): _l("the table was abandoned: its chat can no longer change"),
    (ABANDONED, "seats"): _l("the table was abandoned: its seats can no longer change"),
    (ABANDONED, "invites"): _l("the table was abandoned: its invites can no longer change"),
    (ABANDONED, "names"): _l("the table was abandoned: its names can no longer change"),
}
"""That an ended table's chat, seats, invites or names can no longer change, by how it ended:
each a whole sentence (a language says each its own way)."""


def _closed(table: LiveTable, what: str) -> Phrase:
    """:data:`_CLOSED`'s sentence for ``table`` and ``what``."""
    return _CLOSED.get((table.status, what)) or _l("the table was {status}: its {what} can no longer change",
                                                   status=table.status, what=what)


def _check_open(table: LiveTable, what: str) -> None:
    """Raise ``game_over`` at an ended table: it is read-only (its ``what`` too)."""
    if table.status not in OPEN_STATUSES:
        raise TableError("game_over", _closed(table, what))


def _one_line(e: BaseException) -> str:
    """An exception for the log: its type and message on one line."""
    return f"{type(e).__name__}: {' '.join(str(e).split())[:200]}"


def _retrieve(fut: asyncio.Future[None]) -> None:
    if not fut.cancelled():
        fut.exception()
