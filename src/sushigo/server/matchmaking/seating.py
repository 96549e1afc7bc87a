"""Seating a confirmed play-now match at a new table (a room of :class:`~.queue.PlayNow`).

The people get their seats' invites (their places turn ``seated`` with the
table's address); a bot account's place gets its seat claimed for the account
at once (its event stream then tells it ``gameStart``); the house's bots of
:data:`BOT_ROSTER` nearest the people's rating take the seats left.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from sushigo.engine.menus import OFFICIAL_MENUS, MenuError, check_menu
from sushigo.server import ratings
from sushigo.server.protocol import CreateTable as CreateRequest
from sushigo.server.schema import queue_t, ratings_t
from sushigo.server.store import Store, StoreError
from sushigo.server.tables import TableError, TableService
from sushigo.server.tables.model import log

BOT_ROSTER: Final[dict[str, int]] = {"random": 1000, "greedy": 1350, "learned": 1450, "flatmc": 1550, "ismcts": 1650}
"""The house's bots for play now's seats, with the rating each starts from until rated games rate it
(the random bot is the ratings' anchor: always 1000)."""
MOVE_SECONDS: Final = 90
"""The move timer of a play-now table: a stranger who walks away holds nobody up for long."""
UNMATCHED: Final[dict[str, Any]] = {"match_id": None, "players": None, "confirm_by": None, "confirmed": 0}
"""What a place keeps of a match once it is out of it."""


def plays(menu: str, players: int) -> bool:
    """Whether the official ``menu`` may be played by ``players`` (the engine's :func:`check_menu`)."""
    try:
        check_menu(OFFICIAL_MENUS[menu], players)
    except MenuError:
        return False
    return True


def menus_for(players: int) -> list[str]:
    """The official menus ``players`` may play."""
    return [name for name in OFFICIAL_MENUS if plays(name, players)]


class Seating:
    """How :class:`~.queue.PlayNow` seats a confirmed match (on this process)."""

    store: Store
    tables: TableService
    _random: random.Random
    _locked: Callable[..., Any]

    async def _seat(self, members: Sequence[Any]) -> None:
        """Make the table of a confirmed match and give each place its seat: the people
        an invite each, the bot accounts their seats claimed; house bots for the rest."""
        first = members[0]
        players = int(first.players)
        people = [m for m in members if not m.bot]
        try:
            bots = await asyncio.to_thread(self._bots_near, first.edition,
                                           sum(m.rating for m in people) / len(people), players - len(members))
            seats = ["human"] * len(members) + [f"bot:{b}" for b in bots]
            self._random.shuffle(seats)
            menu = next((m.menu for m in members if m.menu is not None), None)
            if first.edition == "party" and menu is None:
                menu = self._random.choice(menus_for(players))
            req = CreateRequest(edition=first.edition, players=players, seats=seats, menu=menu,
                                rated=bool(first.rated), timer=MOVE_SECONDS)
            table, tokens, _ = await self.tables.create(req)
            humans = table.human_seats
            for seat, m in zip(humans, members):
                if m.bot:
                    await self.tables.claim(table, seat, (m.account_id, m.name), bot=True)
                if m.account_id is None or m.bot:
                    await self.tables.rename(table, seat, m.name)
        except (TableError, StoreError) as e:
            log.error("play now: a match could not be seated: %s", e)
            await self._locked(self._unstart, [m.id for m in members])
            return
        await self._locked(self._seated, table.id, {
            m.id: f"/t/{table.id}" if m.bot else f"/t/{table.id}#seat={tokens[seat]}"
            for seat, m in zip(humans, members)})

    def _seated(self, conn: Connection, now: float, table_id: str, urls: dict[str, str]) -> None:
        for place, url in urls.items():
            conn.execute(update(queue_t).where(queue_t.c.id == place, queue_t.c.state == "starting").values(
                state="seated", table_id=table_id, url=url, changed=now))

    def _unstart(self, conn: Connection, now: float, places: list[str]) -> None:
        conn.execute(update(queue_t).where(queue_t.c.id.in_(places), queue_t.c.state == "starting").values(
            state="waiting", **UNMATCHED, changed=now))

    def _bots_near(self, edition: str, rating: float, count: int) -> list[str]:
        """``count`` bots of the roster nearest ``rating`` (each bot once while the roster lasts)."""
        if count <= 0:
            return []
        names = [ratings.player_of("bot", b) for b in BOT_ROSTER]
        with self.store.reading() as conn:
            rated = {r.player: ratings.shown(r.mu) for r in conn.execute(
                select(ratings_t).where(ratings_t.c.player.in_(names), ratings_t.c.edition == edition,
                                        ratings_t.c.games > 0))}
        known = {b: rated.get(ratings.player_of("bot", b), prior) for b, prior in BOT_ROSTER.items()}
        known["random"] = BOT_ROSTER["random"]  # the anchor
        order = sorted(known, key=lambda b: (abs(known[b] - rating), known[b]))
        return [order[i % len(order)] for i in range(count)]


__all__ = ["BOT_ROSTER", "MOVE_SECONDS", "UNMATCHED", "Seating", "menus_for", "plays"]
