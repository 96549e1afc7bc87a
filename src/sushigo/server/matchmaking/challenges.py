"""Challenges to bot accounts (docs/bot-api.md, "Challenges"), kept in the
database (the ``challenges`` table) so that every server process serves them.

An account (a person signed in, or a bot with its token) challenges a bot
account to a table: edition, menu, size, move time, rated or not.  The bot
hears of it on its event stream and accepts or declines; the challenger may
cancel it while it is open, and it expires after :data:`LIFE` seconds.
Accepting makes the table on the process that took the call: the challenger's
and the bot's seats are their accounts' (claimed and named at once), any other
seat is a house bot's (:data:`HOUSE_BOT`), and both accounts find the table in
their lists (a person's lobby, a bot's event stream).

A challenge moves through these states::

    open --(the bot accepts)--> starting --(table made)--> accepted
      |
      +--> declined | cancelled | expired

Only one call moves a challenge out of ``open``: the move is one ``UPDATE``
that requires ``open`` (two accepts at once make one table).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import func, select, update

from sushigo.engine.flags import FlagError, rules_from_flags
from sushigo.engine.messages import nmsg
from sushigo.engine.rules import RulesError
from sushigo.i18n import _l, _ln, localized, message_of
from sushigo.server.accounts import Account, Accounts
from sushigo.server.protocol import TIMER_RANGE
from sushigo.server.protocol import CreateTable as CreateRequest
from sushigo.server.replies import Refusal
from sushigo.server.schema import accounts_t, challenges_t, seats_t, tables_t
from sushigo.server.store import OPEN_STATUSES, Store, StoreError
from sushigo.server.tables import TableError, TableService
from sushigo.server.tables.model import log

from .queue import SIZES
from .seating import menus_for

STARTING: Final = 60.0
"""Seconds a challenge may stay ``starting`` (its table being made); past that the process that
accepted it stopped on the way, and the challenge reads ``expired``."""
LIFE: Final = 300.0
"""Seconds an open challenge waits for the bot's answer."""
MAX_OPEN: Final = 5
"""Open challenges one account has made at once."""
HOUSE_BOT: Final = "greedy"
"""The bot that takes the seats of a challenge's table beyond the challenger's and the bot's."""
DEFAULT_TIMER: Final = 60
"""Seconds per move at a challenge's table when the challenge names none."""


_ANSWERED: Final = {
    "accepted": _l("the challenge was accepted: only an open one can be answered"),
    "declined": _l("the challenge was declined: only an open one can be answered"),
    "cancelled": _l("the challenge was cancelled: only an open one can be answered"),
    "expired": _l("the challenge expired: only an open one can be answered"),
    "starting": _l("the challenge's table is being made: only an open challenge can be answered"),
}
"""Why a bot can't answer a challenge, by its state: each a whole sentence (a language
agrees its words with "challenge" its own way)."""
_CANCELLED: Final = {
    "accepted": _l("the challenge was accepted: only an open one can be cancelled"),
    "declined": _l("the challenge was declined: only an open one can be cancelled"),
    "cancelled": _l("the challenge was cancelled: only an open one can be cancelled"),
    "expired": _l("the challenge expired: only an open one can be cancelled"),
    "starting": _l("the challenge's table is being made: only an open challenge can be cancelled"),
}
"""Why a challenger can't cancel a challenge, by its state."""


class ChallengeError(Refusal):
    """A challenge refused: the status and one line for the answer."""


class Challenges:
    """Making, answering and reading challenges, for one server process."""

    def __init__(self, store: Store, tables: TableService, accounts: Accounts) -> None:
        self.store = store
        self.tables = tables
        self.accounts = accounts
        self._random = random.Random()

    # ------------------------------------------------------------------ making and answering

    async def make(self, challenger: Account, bot_name: str, *, edition: str, players: int, menu: str | None,
                   timer: int | None, rated: bool) -> dict[str, Any]:
        """Challenge the bot account ``bot_name``; the challenge as :meth:`get` shows it."""
        bot = await self.accounts.find(bot_name)
        if bot is None or not bot.bot:
            raise ChallengeError(404, _l("no bot account is called {name}", name=repr(bot_name[:40])))
        if bot.id == challenger.id:
            raise ChallengeError(400, _l("a bot cannot challenge itself"))
        if players not in SIZES.get(edition, ()):
            raise ChallengeError(400, _l("players: {edition} tables seat {low} to {high}", edition=edition,
                                    low=SIZES[edition][0], high=SIZES[edition][-1])
                                 if edition in SIZES else _l('edition: "base" or "party"'))
        if edition == "party" and menu is None:
            menu = self._random.choice(menus_for(players))
        try:
            rules_from_flags(players, edition=edition, menu=menu, label=nmsg("{n} seat", "{n} seats", players),
                             keys=True)
        except (FlagError, RulesError) as e:
            raise ChallengeError(400, message_of(e)) from None
        timer = DEFAULT_TIMER if timer is None else timer
        if not TIMER_RANGE[0] <= timer <= TIMER_RANGE[1]:
            raise ChallengeError(400, _l("timer: {low} to {high} seconds per move",
                                         low=str(TIMER_RANGE[0]), high=str(TIMER_RANGE[1])))
        now = time.time()
        row = {"id": secrets.token_urlsafe(9), "challenger_id": challenger.id, "bot_id": bot.id,
               "settings": json.dumps({"edition": edition, "players": players, "menu": menu, "timer": timer,
                                       "rated": rated}),
               "state": "open", "reason": None, "table_id": None, "created": now, "changed": now}
        if not await self._db(self._insert, row):
            raise ChallengeError(429, _ln("at most {n} open challenge at once: cancel one or wait for answers",
                                          "at most {n} open challenges at once: cancel one or wait for answers",
                                          MAX_OPEN))
        return _shown({**row, "challenger_name": challenger.name, "challenger_bot": challenger.bot,
                       "bot_name": bot.name})

    def _insert(self, row: dict[str, Any]) -> bool:
        c = challenges_t
        with self.store.transaction() as conn:
            # the challenger's row locked first (PostgreSQL): two challenges at once take turns counting
            conn.execute(select(accounts_t.c.id).where(accounts_t.c.id == row["challenger_id"]).with_for_update())
            held = conn.execute(select(func.count()).select_from(c).where(
                c.c.challenger_id == row["challenger_id"], c.c.state == "open", c.c.created > row["created"] - LIFE))
            if (held.scalar() or 0) >= MAX_OPEN:
                return False
            conn.execute(c.insert().values(**row))
        return True

    async def cancel(self, account: Account, challenge_id: str) -> dict[str, Any]:
        """The challenger takes back an open challenge."""
        return await self._end(account, challenge_id, "cancelled", None, who="challenger_id")

    async def decline(self, bot: Account, challenge_id: str, reason: str | None) -> dict[str, Any]:
        """The bot declines an open challenge (``reason``: one line the challenger reads)."""
        return await self._end(bot, challenge_id, "declined", reason, who="bot_id")

    async def accept(self, bot: Account, challenge_id: str) -> dict[str, Any]:
        """The bot accepts: the table is made on this process, both seats claimed for their accounts."""
        await self._move(bot, challenge_id, "starting", None, who="bot_id")
        row = await self._read_row(challenge_id)
        settings = json.loads(row.settings)
        players = int(settings["players"])
        seats = ["human", "human"] + [f"bot:{HOUSE_BOT}"] * (players - 2)
        self._random.shuffle(seats)
        try:
            req = CreateRequest(edition=settings["edition"], players=players, seats=seats, menu=settings["menu"],
                                rated=bool(settings["rated"]), timer=int(settings["timer"]))
            table, _, _ = await self.tables.create(req)
            humans = table.human_seats
            self._random.shuffle(humans)
            people = ((row.challenger_id, row.challenger_name, bool(row.challenger_bot)),
                      (row.bot_id, row.bot_name, True))
            for seat, (account_id, name, is_bot) in zip(humans, people):
                await self.tables.claim(table, seat, (account_id, name), bot=is_bot)
                await self.tables.rename(table, seat, name)  # the second name starts the game
        except (TableError, StoreError) as e:
            log.error("a challenge's table could not be made: %s", e)
            await self._db(self._set, challenge_id, "starting", {"state": "open"})
            raise ChallengeError(503, _l("the table could not be made; try again")) from None
        await self._db(self._set, challenge_id, "starting", {"state": "accepted", "table_id": table.id})
        return await self.get(bot, challenge_id)

    async def _end(self, account: Account, challenge_id: str, state: str, reason: str | None, *,
                   who: str) -> dict[str, Any]:
        await self._move(account, challenge_id, state, reason, who=who)
        return await self.get(account, challenge_id)

    async def _move(self, account: Account, challenge_id: str, state: str, reason: str | None, *, who: str) -> None:
        """Move an open challenge of ``account`` (as ``who``: the challenger or the bot) to ``state``."""
        values: dict[str, Any] = {"state": state}
        if reason is not None:
            values["reason"] = reason
        if not await self._db(self._set, challenge_id, "open", values, getattr(challenges_t.c, who) == account.id):
            row = await self._mine(account, challenge_id)  # 404 unless it is the account's
            bot = who == "bot_id"
            if getattr(row, who) != account.id:
                raise ChallengeError(403, _l("only the challenge's bot may answer it") if bot else
                                     _l("only the challenge's challenger may cancel it"))
            state = _shown(row._asdict())["state"]
            raise ChallengeError(409, (_ANSWERED if bot else _CANCELLED).get(state) or
                                 _l("the challenge is {state}: only an open one can be changed", state=state))

    def _set(self, challenge_id: str, state: str, values: dict[str, Any], *where: Any) -> bool:
        c = challenges_t
        now = time.time()
        if state == "open":
            where = (*where, c.c.created > now - LIFE)
        with self.store.transaction() as conn:
            return bool(conn.execute(update(c).where(c.c.id == challenge_id, c.c.state == state, *where)
                                     .values(changed=now, **values)).rowcount)

    # ------------------------------------------------------------------ reading

    async def get(self, account: Account, challenge_id: str) -> dict[str, Any]:
        """The challenge, for its challenger or its bot (anyone else: 404)."""
        return _shown((await self._mine(account, challenge_id))._asdict())

    async def _mine(self, account: Account, challenge_id: str) -> Any:
        """The challenge's row with its accounts' names, when ``account`` is its challenger or its bot; else 404."""
        row = await self._read_row(challenge_id[:40])
        if row is None or account.id not in (row.challenger_id, row.bot_id):
            raise ChallengeError(404, _l("no challenge of yours has this id"))
        return row

    async def _read_row(self, challenge_id: str) -> Any:
        return await self._db(self._row, challenge_id)

    def _row(self, challenge_id: str) -> Any:
        with self.store.reading() as conn:
            return conn.execute(_joined().where(challenges_t.c.id == challenge_id)).first()

    def events(self, bot: Account, told: dict[str, str]) -> list[dict[str, Any]]:
        """What the bot's event stream has not told yet (:func:`news` of a :meth:`look` for it alone)."""
        return news(self.look([bot.id], told), bot, told)

    def look(self, bots: Collection[str], told: Collection[str]) -> Look:
        """One look at the database for the event streams of the bot accounts ``bots`` (ids), which
        told of the challenges and tables ``told`` (ids): what :func:`news` needs, for all of them."""
        c, t, s = challenges_t, tables_t, seats_t
        now = time.time()
        bots, told = list(bots), list(told)
        with self.store.reading() as conn:
            open_to = conn.execute(_joined().where(c.c.bot_id.in_(bots), c.c.state == "open",
                                                   c.c.created > now - LIFE)).all()
            declined = conn.execute(_joined().where(c.c.challenger_id.in_(bots), c.c.state == "declined",
                                                    c.c.changed > now - LIFE)).all()
            ended = conn.execute(select(c.c.id, c.c.state, c.c.created, c.c.changed).where(
                c.c.id.in_(told), c.c.state != "open")).all() if told else []
            games = conn.execute(select(t.c.id, t.c.edition, t.c.players, t.c.rules, t.c.status, s.c.seat,
                                        s.c.account_id)
                                 .join(s, s.c.table_id == t.c.id)
                                 .where(s.c.account_id.in_(bots), t.c.status.in_(OPEN_STATUSES))).all()
            over = conn.execute(select(t.c.id, t.c.status).where(t.c.id.in_(told),
                                                                  t.c.status.not_in(OPEN_STATUSES))).all() \
                if told else []
        return Look(open_to=_by(open_to, "bot_id"), declined=_by(declined, "challenger_id"),
                    games=_by(games, "account_id"),
                    ended={r.id: _state(r.state, r.created, r.changed) for r in ended},
                    over={r.id: r.status for r in over})

    # ------------------------------------------------------------------ the database, off the event loop

    async def _db(self, fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        except StoreError as e:
            raise ChallengeError(503, _l("the challenges could not be read or stored: {why}", why=str(e))) from None


def _joined() -> Any:
    """Challenges with their challenger's and bot's names."""
    c = challenges_t
    who, bot = accounts_t.alias("who"), accounts_t.alias("bot")
    return (select(c, who.c.name.label("challenger_name"), who.c.bot.label("challenger_bot"),
                   bot.c.name.label("bot_name"))
            .join(who, who.c.id == c.c.challenger_id).join(bot, bot.c.id == c.c.bot_id))


@dataclass(frozen=True)
class Look:
    """What the database said, at one look, to the event streams of some bot accounts."""

    open_to: dict[str, list[Any]]
    """Per bot account: the open challenges to it (rows with the accounts' names)."""
    declined: dict[str, list[Any]]
    """Per bot account: its own challenges declined in the last :data:`LIFE` seconds."""
    games: dict[str, list[Any]]
    """Per bot account: its seats at tables waiting or playing."""
    ended: dict[str, str]
    """Challenges told of that are no longer open: their state now."""
    over: dict[str, str]
    """Tables told of that ended: their status."""


def _by(rows: Sequence[Any], key: str) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for r in rows:
        out.setdefault(getattr(r, key), []).append(r)
    return out


def news(look: Look, bot: Account, told: dict[str, str]) -> list[dict[str, Any]]:
    """What the bot's event stream has not told yet (``told``: each challenge's or
    table's id and what the stream said of it last; updated): its open challenges
    (``challenge``), those that stopped being open (``challengeCanceled``), its own
    challenges declined (``challengeDeclined``), its tables that started
    (``gameStart``: a seat is its account's at an open table) and ended (``gameFinish``)."""
    out: list[dict[str, Any]] = []
    to_it = look.open_to.get(bot.id, [])
    for r in to_it:
        if r.id not in told:
            told[r.id] = "challenge"
            out.append({"type": "challenge", "challenge": _shown(r._asdict())})
    still = {r.id for r in to_it}
    for k in [k for k, v in told.items() if v == "challenge"]:
        state = look.ended.get(k, "expired")  # still "open" in the table but past its life: expired
        if k in still or state == "starting":
            continue
        del told[k]  # not open any more: it never comes back (a stream keeps no more than it needs)
        if state != "accepted":  # an accepted one is told by its gameStart
            out.append({"type": "challengeCanceled", "challenge": {"id": k, "state": state}})
    for r in look.declined.get(bot.id, []):
        if told.get(r.id) != "declined":
            told[r.id] = "declined"
            out.append({"type": "challengeDeclined", "challenge": _shown(r._asdict())})
    for r in look.games.get(bot.id, []):
        if r.id not in told:
            told[r.id] = "game"
            rules = json.loads(r.rules)
            out.append({"type": "gameStart", "game": {
                "id": r.id, "seat": r.seat, "edition": r.edition, "players": r.players,
                "rated": bool(rules.get("rated")), "stream": f"/api/bot/game/{r.id}/stream"}})
    for k in [k for k, v in told.items() if v == "game" and k in look.over]:
        del told[k]  # ended: it never comes back
        out.append({"type": "gameFinish", "game": {"id": k, "status": look.over[k]}})
    return out


_STOPPED: Final = _l("the server stopped while making the table; challenge again")


def _state(state: str, created: float, changed: float) -> str:
    """What a challenge stored as ``state`` is now: an open one past its life, or one
    starting for longer than a table takes to make, is ``expired``."""
    if (state == "open" and created <= time.time() - LIFE) or (state == "starting" and
                                                                changed <= time.time() - STARTING):
        return "expired"
    return state


def _shown(row: dict[str, Any]) -> dict[str, Any]:
    """A challenge as the API shows it, from its row with its accounts' names (:func:`_joined`)."""
    state = _state(row["state"], row["created"], row["changed"])
    if state == "expired" and row["state"] == "starting":
        row = {**row, "reason": _STOPPED}
    out = {"id": row["id"], "challenger": {"name": row["challenger_name"], "bot": bool(row["challenger_bot"])},
           "bot": row["bot_name"],
           **json.loads(row["settings"]), "state": state, "created": row["created"],
           "expires": row["created"] + LIFE}
    if row.get("reason"):
        out["reason"] = localized(row["reason"])  # a bot's line as written; the server's in the reader's language
    if row.get("table_id"):
        out["table"] = row["table_id"]
        out["url"] = f"/t/{row['table_id']}"
    return out


__all__ = ["DEFAULT_TIMER", "HOUSE_BOT", "LIFE", "MAX_OPEN", "ChallengeError", "Challenges", "Look", "news"]
