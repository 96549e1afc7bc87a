"""Play now's queue, kept in the database (the ``queue`` table), so that every
server process of one site serves one queue (docs/server.md, "Several processes").

A place is made by :meth:`PlayNow.join` and belongs to whoever holds its
**ticket** (a secret the joining page keeps; the database keeps its SHA-256).
Every process runs :meth:`PlayNow.tick` about once a second; each tick, and
each request that changes the queue, runs in one transaction that holds the
queue's lock (PostgreSQL: a transaction-level advisory lock; SQLite: the
database's write lock), so that two processes never seat one place twice.

A place moves through these states::

    waiting --(a match)--> matched --(everyone confirmed)--> starting --(table made)--> seated
       ^                      |
       +--(someone missed)----+  (the confirmed keep their places; who missed goes to the end,
                                  or leaves the queue on a second miss in a row)

and ``gone`` (left, replaced, missed twice, or its page stopped asking), kept a
while so that its page can read why.  The process that stores the last
confirmation makes the table (a play-now table: a move timer of
:data:`MOVE_SECONDS`, rated when its players asked for rated play) and
hands each place its seat's invite.

A bot account holds a place too (:meth:`PlayNow.join_bot`, through the bot
API; ``queue.bot``): it never makes a table, it takes a bot seat of a
people's match that offers bots (:func:`~.pairing.seat_bots`), is confirmed
from the start, and stays in the queue while its event stream is open
(:meth:`PlayNow.still_here`, from :mod:`sushigo.server.bot_events`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import and_, delete, func, or_, select, text, update
from sqlalchemy.engine import Connection

from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.i18n import _l, _ln, localized
from sushigo.server import ratings
from sushigo.server.accounts import Account
from sushigo.server.replies import Refusal
from sushigo.server.schema import queue_t, ratings_t
from sushigo.server.store import Store, StoreError, one_line
from sushigo.server.tables import TableService
from sushigo.server.tables.model import log

from .pairing import Match, Waiting, pair, seat_bots
from .seating import BOT_ROSTER, MOVE_SECONDS, UNMATCHED, Seating, plays

SIZES: Final[dict[str, tuple[int, ...]]] = {"base": (2, 3, 4, 5), "party": (2, 3, 4, 5, 6, 7, 8)}
"""The table sizes of each edition."""
CONFIRM_SECONDS: Final = 20.0
"""Seconds a matched place has to confirm."""
STALE: Final = 45.0
"""Seconds after which a waiting place whose page stopped asking leaves the queue
(unless its device gets notifications: then it waits with the page closed)."""
KEEP: Final = 600.0
"""Seconds an ended place (seated or gone) is kept for its page to read."""
SEATED_FRESH: Final = 60.0
"""Seconds a seated place is still found by its account (no ticket): the pages that asked see it seated."""
STARTING: Final = 60.0
"""Seconds a match may take to get its table before its places go back to waiting."""
BOT_WAITS: Final = (15, 30, 60, 120, 300)
"""The waits the lobby offers (any from 5 to 600 seconds is taken)."""
PER_ADDRESS: Final = 8
"""Places one address may hold at once."""
MISSES: Final = 2
"""Confirmations missed in a row after which a place leaves the queue."""
PG_LOCK_KEY: Final = 0x73757368695150
"""The PostgreSQL advisory lock that serializes the queue's changes across processes."""
QUEUED: Final = ("waiting", "matched")
"""The states of a place counted as waiting in the lobby."""
HELD: Final = ("waiting", "matched", "starting")
"""The states of a place still in the queue (not yet seated, not gone)."""

REJOINED: Final = _l("you joined the queue again elsewhere")
LEFT: Final = _l("you left the queue")
MISSED: Final = _ln("you did not confirm {n} match in a row", "you did not confirm {n} matches in a row", MISSES)
STOPPED: Final = _l("the page stopped asking")
CLOSED: Final = _l("the bot's event stream closed")
_REASONS: Final = {str(p): p for p in (REJOINED, LEFT, MISSED, STOPPED, CLOSED)}
"""Why a place is ``gone``: the database keeps the English, a status says it in the reader's language."""


class QueueError(Refusal):
    """A refused play-now request: an HTTP ``status`` and a one-line message."""


@dataclass(frozen=True)
class Joining:
    """What a place asks for."""

    edition: str
    menu: str | None = None
    """An official Sushi Go Party! menu, or ``None``: any."""
    sizes: tuple[int, ...] = (2, 3, 4)
    bots_after: float = 30.0
    rated: bool = False
    push: bool = False
    """The page's device gets notifications: the place waits with the page closed."""


def _hash(ticket: str) -> bytes:
    return hashlib.sha256(ticket.encode()).digest()


def _sizes_of(j: Joining) -> tuple[int, ...]:
    """The sizes the place accepts, checked against its edition and menu."""
    if j.edition not in SIZES:
        raise QueueError(400, _l('edition is "base" or "party"'))
    if j.edition == "base" and j.menu is not None:
        raise QueueError(400, _l("the original game has no menu"))
    if j.menu is not None and j.menu not in OFFICIAL_MENUS:
        raise QueueError(400, _l("menu: one of {menus}, or none for any menu", menus=", ".join(OFFICIAL_MENUS)))
    if not j.sizes or any(n not in SIZES[j.edition] for n in j.sizes):
        low, high = SIZES[j.edition][0], SIZES[j.edition][-1]
        raise QueueError(400, _l("sizes: table sizes from {low} to {high}", low=low, high=high))
    sizes = tuple(n for n in sorted(set(j.sizes)) if j.menu is None or plays(j.menu, n))
    if not sizes:
        raise QueueError(400, _l("{menu} cannot be played by {sizes}", menu=j.menu,
                                 sizes=", ".join(map(str, sorted(set(j.sizes))))))
    if not 5 <= j.bots_after <= 600:
        raise QueueError(400, _l("bots_after: from 5 to 600 seconds"))
    return sizes


def _waiting(r: Any) -> Waiting:
    return Waiting(r.id, r.edition, r.menu, frozenset(int(n) for n in r.sizes.split(",")), bool(r.rated),
                   float(r.rating), float(r.joined), float(r.bots_after))


class PlayNow(Seating):
    """Play now's queue for one server process (docs/server.md, "Play now").

    Args:
        store: the database (the queue lives there).
        tables: this process's tables (a match it completes is seated there).
        on_match: called with each matched account's id and its match (to notify its devices).
        tick: seconds between the process's rounds.
        confirm_seconds: seconds a matched place has to confirm.
        stale: seconds after which a waiting place whose page stopped asking leaves the queue.
    """

    def __init__(self, store: Store, tables: TableService, *,
                 on_match: Callable[[str, Match, float], None] | None = None, tick: float = 1.0,
                 confirm_seconds: float = CONFIRM_SECONDS, stale: float = STALE) -> None:
        self.store = store
        self.tables = tables
        self.on_match = on_match
        self.tick_every = tick
        self.confirm_seconds = confirm_seconds
        self.stale = stale
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._random = secrets.SystemRandom()

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._ticking())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(self.tick_every)
            try:
                await self.tick()
            except Exception as e:  # the queue must go on (one line in the log: the next round tries again)
                log.error("play now: a round of the queue failed: %s", one_line(e))

    async def _locked(self, fn: Callable[..., Any], *args: Any, now: float | None = None) -> Any:
        """``fn(conn, now, *args)`` in a transaction holding the queue's lock."""
        def run() -> Any:
            with self.store.transaction() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_LOCK_KEY})
                return fn(conn, time.time() if now is None else now, *args)
        async with self._lock:
            try:
                return await asyncio.to_thread(run)
            except StoreError as e:
                raise QueueError(503, _l("the queue could not be read or stored: {why}", why=str(e))) from None

    # ------------------------------------------------------------------ requests

    async def join(self, joining: Joining, *, account: Account | None, name: str | None,
                   address: str) -> tuple[str, dict[str, Any]]:
        """A new place for ``account`` (signed in) or a guest called ``name``; its ticket and status.
        An account holds one place: joining again ends the one it had."""
        sizes = _sizes_of(joining)
        if account is not None and account.bot:
            raise QueueError(403, _l("a bot account joins play now through the bot API, not as a person"))
        if joining.rated and account is None:
            raise QueueError(401, _l("rated play is for signed-in players: sign in, or play unrated"))
        if account is None and not name:
            raise QueueError(400, _l("a guest needs a name to play"))
        ticket = secrets.token_urlsafe(24)
        row: dict[str, Any] = {"id": secrets.token_urlsafe(12), "ticket_hash": _hash(ticket),
               "account_id": account.id if account else None, "name": account.name if account else name,
               "address": address[:64], "edition": joining.edition, "menu": joining.menu,
               "sizes": ",".join(map(str, sizes)), "rated": int(joining.rated), "bots_after": joining.bots_after,
               "push": int(joining.push), "state": "waiting", "confirmed": 0, "misses": 0}
        status: dict[str, Any] = await self._locked(self._join, row)
        return ticket, status

    def _join(self, conn: Connection, now: float, row: dict[str, Any]) -> dict[str, Any]:
        q = queue_t
        if row["account_id"] is not None:
            old = conn.execute(select(q).where(q.c.account_id == row["account_id"])).first()
            if old is not None:
                self._leave(conn, now, old, REJOINED)
                conn.execute(update(q).where(q.c.id == old.id).values(account_id=None))
            player = ratings.player_of("account", row["account_id"])
            mu = conn.execute(select(ratings_t.c.mu).where(ratings_t.c.player == player,
                                                           ratings_t.c.edition == row["edition"])).scalar()
            row["rating"] = float(ratings.shown(mu if mu is not None else ratings.MU0))
        else:
            held = conn.execute(select(func.count()).select_from(q).where(
                q.c.address == row["address"], q.c.state.in_(HELD))).scalar()
            if (held or 0) >= PER_ADDRESS:
                raise QueueError(429, _ln("this address holds {n} place in the queue already",
                                         "this address holds {n} places in the queue already", PER_ADDRESS))
            row["rating"] = float(ratings.SHOWN0)
        conn.execute(q.insert().values(**row, joined=now, seen=now, changed=now))
        return self._status(conn, now, conn.execute(select(q).where(q.c.id == row["id"])).one())

    async def join_bot(self, joining: Joining, bot: Account) -> dict[str, Any]:
        """A place for the bot account ``bot``, taking a bot seat of a people's match (its
        ``rated``: rated tables too); its status.  Refused while it holds one already."""
        if joining.menu is not None:
            raise QueueError(400, _l("a bot account's place takes any menu: leave menu out"))
        sizes = _sizes_of(joining)
        row: dict[str, Any] = {
            "id": secrets.token_urlsafe(12), "ticket_hash": _hash(secrets.token_urlsafe(24)),
            "account_id": bot.id, "name": bot.name, "address": "", "edition": joining.edition, "menu": None,
            "sizes": ",".join(map(str, sizes)), "rated": int(joining.rated), "bots_after": 600.0, "push": 0,
            "state": "waiting", "confirmed": 0, "misses": 0, "bot": 1}
        status: dict[str, Any] = await self._locked(self._join_bot, row)
        return status

    def _join_bot(self, conn: Connection, now: float, row: dict[str, Any]) -> dict[str, Any]:
        q = queue_t
        held = conn.execute(select(q.c.state).where(q.c.account_id == row["account_id"],
                                                    q.c.state.in_(HELD))).scalar()
        if held is not None:
            raise QueueError(409, _l("this bot holds a place already (waiting); leave it first") if held == "waiting"
                             else _l("this bot holds a place already (matched); leave it first") if held == "matched"
                             else _l("this bot holds a place already (its table is being made); leave it first"))
        return self._join(conn, now, row)

    def still_here(self, bots: Collection[str]) -> None:
        """The event streams of the bot accounts ``bots`` (ids) are open: their places (if any) stay
        in the queue (one statement for every open event stream of a process)."""
        q = queue_t
        with self.store.transaction() as conn:
            conn.execute(update(q).where(q.c.account_id.in_(list(bots)), q.c.bot == 1, q.c.state.in_(HELD))
                         .values(seen=time.time()))

    async def status(self, ticket: str | None, *, account: str | None = None,
                     push: bool | None = None) -> dict[str, Any]:
        """The status of the place ``ticket`` holds (``None``: the signed-in ``account``'s place)
        (``state``: waiting, matched, starting, seated or gone); asking keeps it in the queue.
        ``push``: whether the page's device gets notifications now."""
        status: dict[str, Any] = await self._locked(self._ask, ticket, account, push)
        if "reason" in status:
            status["reason"] = localized(status["reason"])
        return status

    def _ask(self, conn: Connection, now: float, ticket: str | None, account: str | None,
             push: bool | None) -> dict[str, Any]:
        r = self._place(conn, now, ticket, account)
        values: dict[str, Any] = {"seen": now}
        if push is not None:
            values["push"] = int(push)
        conn.execute(update(queue_t).where(queue_t.c.id == r.id).values(**values))
        return self._status(conn, now, r)

    async def confirm(self, ticket: str | None, *, account: str | None = None) -> dict[str, Any]:
        """Confirm a matched place (``ticket``'s, or the signed-in ``account``'s); the last confirmation
        of a match seats it at a new table (made by this process) and answers the seat's invite."""
        members = await self._locked(self._confirm, ticket, account)
        if members:
            await self._seat(members)
        return await self.status(ticket, account=account)

    def _confirm(self, conn: Connection, now: float, ticket: str | None, account: str | None) -> list[Any]:
        r = self._place(conn, now, ticket, account)
        if r.state != "matched":
            raise QueueError(409, _l("this place has no match to confirm") if r.state == "waiting" else
                             _l("this place's table is being made; there is nothing to confirm")
                             if r.state == "starting" else
                             _l("this place has its seat already; there is nothing to confirm")
                             if r.state == "seated" else
                             _l("this place has left the queue; there is nothing to confirm"))
        conn.execute(update(queue_t).where(queue_t.c.id == r.id).values(confirmed=1, seen=now, changed=now))
        members = list(conn.execute(select(queue_t).where(queue_t.c.match_id == r.match_id)
                                    .order_by(queue_t.c.joined, queue_t.c.id)))
        if not all(m.confirmed for m in members):
            return []
        conn.execute(update(queue_t).where(queue_t.c.match_id == r.match_id).values(state="starting", changed=now))
        return members

    async def leave(self, ticket: str | None, *, account: str | None = None, strict: bool = False) -> None:
        """Leave the queue (a match the place was in goes back to waiting, everyone keeping their place).
        ``strict``: refuse (409) a place whose table is being made or made, which it is too late to leave."""
        await self._locked(self._leave_ticket, ticket, account, strict)

    def _leave_ticket(self, conn: Connection, now: float, ticket: str | None, account: str | None,
                      strict: bool) -> None:
        r = self._place(conn, now, ticket, account)
        if strict and r.state not in QUEUED:
            raise QueueError(409, _l("this place's table is being made: too late to leave it")
                             if r.state == "starting" else
                             _l("this place has its seat already: too late to leave it") if r.state == "seated" else
                             _l("this place has left the queue already"))
        self._leave(conn, now, r, LEFT)

    def _leave(self, conn: Connection, now: float, r: Any, reason: str) -> None:
        q = queue_t
        if r.state == "matched":
            conn.execute(update(q).where(q.c.match_id == r.match_id, q.c.id != r.id).values(
                state="waiting", **UNMATCHED, changed=now))
        if r.state in QUEUED:
            conn.execute(update(q).where(q.c.id == r.id).values(state="gone", reason=str(reason), **UNMATCHED,
                                                                changed=now))

    async def counts(self) -> dict[str, int]:
        """How many wait (or are matched) in each edition's queue."""
        def run() -> dict[str, int]:
            q = queue_t
            with self.store.reading() as conn:
                rows = conn.execute(select(q.c.edition, func.count()).where(q.c.state.in_(QUEUED), q.c.bot == 0)
                                    .group_by(q.c.edition))
                found = {str(e): int(n) for e, n in rows}
            return {edition: found.get(edition, 0) for edition in SIZES}
        try:
            return await asyncio.to_thread(run)
        except StoreError as e:
            raise QueueError(503, _l("the queue could not be read: {why}", why=str(e))) from None

    # ------------------------------------------------------------------ the rounds

    async def tick(self, now: float | None = None) -> list[Match]:
        """One round (as at time ``now``, default now): end missed confirmations, drop places nobody
        asks about, pair who waits.  Returns the new matches (each matched account's devices are told)."""
        if not await asyncio.to_thread(self._anyone):
            return []  # an empty queue costs one read a second, no lock and no write
        made: list[tuple[Match, float, list[str]]] = await self._locked(self._round, now=now)
        for match, confirm_by, accounts in made:
            if self.on_match is not None:
                for account in accounts:
                    self.on_match(account, match, confirm_by)
        return [m for m, _, _ in made]

    def _anyone(self) -> bool:
        with self.store.reading() as conn:
            return conn.execute(select(queue_t.c.id).limit(1)).first() is not None

    def _round(self, conn: Connection, now: float) -> list[tuple[Match, float, list[str]]]:
        q = queue_t
        late = list(conn.execute(select(q).where(q.c.state == "matched", q.c.confirm_by < now)))
        for r in late:
            if r.confirmed:  # kept its place
                values: dict[str, Any] = {"state": "waiting", "misses": 0}
            elif r.misses + 1 >= MISSES:
                values = {"state": "gone", "reason": str(MISSED)}
            else:  # to the end of the queue
                values = {"state": "waiting", "joined": now, "misses": r.misses + 1}
            conn.execute(update(q).where(q.c.id == r.id).values(**values, **UNMATCHED, changed=now))
        conn.execute(update(q).where(q.c.state == "starting", q.c.changed < now - STARTING).values(
            state="waiting", **UNMATCHED, changed=now))
        for bot, reason in ((0, str(STOPPED)), (1, str(CLOSED))):
            conn.execute(update(q).where(q.c.state == "waiting", q.c.push == 0, q.c.bot == bot,
                                         q.c.seen < now - self.stale).values(state="gone", reason=reason, changed=now))
        conn.execute(delete(q).where(q.c.state.in_(("gone", "seated")), q.c.changed < now - KEEP))
        rows = {r.id: r for r in conn.execute(select(q).where(q.c.state == "waiting"))}
        made = []
        people = [_waiting(r) for r in rows.values() if not r.bot]
        bots = [_waiting(r) for r in rows.values() if r.bot]
        for match in seat_bots(pair(people, now), bots):
            match_id = secrets.token_urlsafe(12)
            confirm_by = now + self.confirm_seconds
            conn.execute(update(q).where(q.c.id.in_(match.members)).values(
                state="matched", match_id=match_id, players=match.players, confirm_by=confirm_by, confirmed=0,
                changed=now))
            if match.bot_accounts:  # a bot account is ready from the start
                conn.execute(update(q).where(q.c.id.in_(match.bot_accounts)).values(
                    state="matched", match_id=match_id, players=match.players, confirm_by=confirm_by,
                    confirmed=1, changed=now))
            accounts = [rows[m].account_id for m in match.members if rows[m].account_id is not None]
            made.append((match, confirm_by, accounts))
        return made

    # ------------------------------------------------------------------ reading a place

    def _place(self, conn: Connection, now: float, ticket: str | None, account: str | None) -> Any:
        """The place ``ticket`` holds, or (no ticket) the signed-in ``account``'s place while it is
        in the queue or was seated a moment ago (its devices' notification opens the lobby: any
        page of the account confirms it)."""
        q = queue_t
        if ticket is None:
            if account is None:
                raise QueueError(401, _l("say which place: send its ticket, or sign in"))
            r = conn.execute(select(q).where(q.c.account_id == account, or_(
                q.c.state.in_(HELD),
                and_(q.c.state == "seated", q.c.changed > now - SEATED_FRESH)))).first()
            if r is None:
                raise QueueError(404, _l("your account holds no place in the queue"))
            return r
        digest = _hash(ticket)
        r = conn.execute(select(q).where(q.c.ticket_hash == digest)).first()
        if r is None or not hmac.compare_digest(r.ticket_hash, digest):
            raise QueueError(404, _l("no place in the queue holds this ticket (it ended, or was never made)"))
        return r

    def _status(self, conn: Connection, now: float, r: Any) -> dict[str, Any]:
        q = queue_t
        out: dict[str, Any] = {"state": r.state, "edition": r.edition, "menu": r.menu,
                               "sizes": [int(n) for n in r.sizes.split(",")], "rated": bool(r.rated),
                               "name": r.name, "bots_after": r.bots_after}
        if r.state == "waiting":
            out["waited"] = round(now - r.joined, 1)
            out["bots_in"] = round(max(0.0, r.joined + r.bots_after - now), 1)
            out["waiting"] = int(conn.execute(select(func.count()).select_from(q).where(
                q.c.edition == r.edition, q.c.state.in_(QUEUED), q.c.bot == 0)).scalar() or 0)
        elif r.state in ("matched", "starting"):
            members = list(conn.execute(select(q.c.name, q.c.confirmed, q.c.bot).where(
                and_(q.c.match_id == r.match_id, q.c.match_id.is_not(None))).order_by(q.c.joined, q.c.id)))
            people = [m for m in members if not m.bot]
            out.update(players=r.players, people=[m.name for m in people], bots=(r.players or 0) - len(people),
                       bot_accounts=[m.name for m in members if m.bot],
                       confirmed=bool(r.confirmed), ready=sum(1 for m in people if m.confirmed))
            if r.state == "matched":
                out["confirm_in"] = round(max(0.0, (r.confirm_by or now) - now), 1)
        elif r.state == "seated":
            out.update(table=r.table_id, url=r.url)
        else:
            out["reason"] = _REASONS.get(r.reason, r.reason)
        return out


__all__ = ["BOT_ROSTER", "BOT_WAITS", "CONFIRM_SECONDS", "MOVE_SECONDS", "SIZES", "Joining", "PlayNow",
           "QueueError"]
