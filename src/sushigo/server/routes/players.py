"""A player's profile, history and ratings, ``/api/players/{name}``, and the
leaderboards, ``/api/ratings/{edition}`` (docs/server.md, "Accounts" and "Ratings").

Anyone may read a player's profile and finished games, as anyone may read a
finished table; a private table's game shows only to the player themself
(signed in).  Games in progress never show: only finished tables are listed
and exported.  ``/records`` is every finished game's record, one per line
(JSON Lines): each line is a record ``sushigo replay`` accepts.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from sqlalchemy import select

from sushigo.engine.editions import EDITIONS
from sushigo.i18n import _l
from sushigo.server import ratings
from sushigo.server.accounts import Account, AccountError
from sushigo.server.routes.accounts import COOKIE
from sushigo.server.routes.deps import SiteOf
from sushigo.server.routes.errors import Refused
from sushigo.server.schema import accounts_t
from sushigo.server.store import Store, StoreError
from sushigo.server.tables import FINISHED, summary_of
from sushigo.tournament.ratings import rank_seats

router = APIRouter()
log = logging.getLogger("sushigo.server")

T = TypeVar("T")

BOARDS: Final = ("people", "bots")
"""The leaderboards of an edition: people's accounts, bot accounts (docs/bot-api.md); the house bots are on both."""
PAGE: Final = 50
"""Games a history answer lists at most (``before`` pages on)."""


async def _player(site: Any, name: str) -> Account:
    account = await site.accounts.find(name)
    if account is None:
        raise Refused(404, _l("no player {name}", name=repr(name[:40])))
    assert isinstance(account, Account)
    return account


async def _is_self(site: Any, request: Request, account: Account) -> bool:
    try:
        asker = await site.accounts.account_of(request.cookies.get(COOKIE))
    except AccountError:
        return False
    return asker is not None and asker.id == account.id


def _game(loaded: Any, seats: list[int]) -> dict[str, Any]:
    """One finished game as a history lists it."""
    summary = summary_of(loaded)
    seat = seats[0]
    result = loaded.row.result or {}
    edition, totals = EDITIONS[loaded.row.edition], result.get("totals")
    place = rank_seats(totals, edition.tiebreak_of(result))[seat] if totals and edition.tiebreak_key in result else None
    return {
        "table": summary["id"], "edition": summary["edition"], "menu": summary["menu"],
        "players": summary["players"], "created": summary["created"], "finished": loaded.row.finished,
        "seat": seat, "names": [s["name"] for s in summary["seats"]], "totals": totals,
        "winners": result.get("winners"), "place": place, "private": summary["private"],
        "seeded": summary["seeded"], "hints": summary["hints"],
        "replay": f"/t/{summary['id']}/replay#pov={seat}", "record": f"/api/tables/{summary['id']}/record",
    }


def _reading(store: Store, fn: Callable[..., T], *args: Any) -> T:
    with store.reading() as conn:
        return fn(conn, *args)


async def _read(site: Any, fn: Callable[..., T], *args: Any) -> T:
    try:
        return await asyncio.to_thread(_reading, site.store, fn, *args)
    except StoreError as e:
        raise Refused(503, _l("the ratings could not be read: {why}", why=str(e))) from None


@router.get("/api/players/{name}", response_model=None)
async def profile(name: str, site: SiteOf) -> dict[str, Any]:
    """A player's name, since when they have their account, their rating per edition and
    its history (after each rated game, oldest first)."""
    account = await _player(site, name)
    player = ratings.player_of("account", account.id)
    rated = await _read(site, ratings.ratings_of, player)
    history = {edition: await _read(site, ratings.history_of, player, edition) for edition in rated}
    return {"name": account.name, "created": account.created, "bot": account.bot, "ratings": rated,
            "history": history}


@router.get("/api/ratings/{edition}", response_model=None)
async def leaderboard(edition: str, site: SiteOf, players: int | None = None, board: str = "people"
                      ) -> dict[str, Any]:
    """The best ratings of an edition (of players who played rated games of ``players`` seats):
    the people's board, or the bot accounts' (``board=bots``); the house bots are on both."""
    if edition not in EDITIONS:
        raise Refused(404, _l("no edition {edition}: {editions}", edition=repr(edition[:20]),
                              editions=", ".join(sorted(EDITIONS))))
    if players is not None and not 2 <= players <= 8:
        raise Refused(400, _l("players is 2 to 8"))
    if board not in BOARDS:
        raise Refused(400, _l("board is {people} or {bots}", people=BOARDS[0], bots=BOARDS[1]))
    rows = await _read(site, functools.partial(ratings.leaderboard, bots=board == "bots"), edition, players)
    ids = [r["player"].split(":", 1)[1] for r in rows if r["player"].startswith("account:")]
    names = await _read(site, _account_names, ids)
    found = []
    for r in rows:
        kind, who = r.pop("player").split(":", 1)
        if kind == "account" and who not in names:
            continue  # deleted meanwhile
        entry = {"name": names[who] if kind == "account" else who, "kind": kind,
                 "anchor": ratings.player_of(kind, who) == ratings.ANCHOR, **r}
        if kind == "account" and board == "bots":
            entry["bot"] = True  # a bot account
        found.append(entry)
    return {"edition": edition, "players": players, "board": board, "ratings": found}


def _account_names(conn: Any, ids: list[str]) -> dict[str, str]:
    if not ids:
        return {}
    q = select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(ids))
    return {r.id: r.name for r in conn.execute(q)}


@router.get("/api/players/{name}/games", response_model=None)
async def history(name: str, request: Request, site: SiteOf, edition: str | None = None,
                  players: int | None = None, before: float | None = None) -> dict[str, Any]:
    """A player's finished games, newest first, ``PAGE`` at a time (``before``: the
    ``created`` of the last one listed), filtered by ``edition`` and ``players``."""
    if edition is not None and edition not in EDITIONS:
        raise Refused(400, _l("edition is one of {editions}", editions=", ".join(sorted(EDITIONS))))
    if players is not None and not 2 <= players <= 8:
        raise Refused(400, _l("players is 2 to 8"))
    account = await _player(site, name)
    mine = await _is_self(site, request, account)
    try:
        found = await asyncio.to_thread(site.store.tables_of_account, account.id, (FINISHED,), PAGE + 1,
                                        edition=edition, players=players, before=before)
    except StoreError as e:
        raise Refused(503, _l("the games could not be read: {why}", why=str(e))) from None
    games = [_game(loaded, seats) for loaded, seats in found]
    more = len(games) > PAGE
    games = [g for g in games[:PAGE] if mine or not g["private"]]
    changes = await _read(site, ratings.changes_of, ratings.player_of("account", account.id),
                          [g["table"] for g in games])
    for g in games:
        g["rating_change"] = changes.get(g["table"])
    return {"name": account.name, "games": games, "more": more}


@router.get("/api/players/{name}/records", response_model=None)
async def records(name: str, request: Request, site: SiteOf) -> StreamingResponse:
    """Every finished game's record, oldest first, one per line (JSON Lines)."""
    account = await _player(site, name)
    texts = site.store.records_of_account(account.id, private=await _is_self(site, request, account))

    async def lines() -> AsyncIterator[bytes]:
        while True:
            try:
                item = await asyncio.to_thread(next, texts, None)
            except StoreError as e:  # the answer has begun: it ends here, short
                log.error("the records of %s could not be read: %s", account.name, e)
                return
            if item is None:
                return
            yield (json.dumps(json.loads(item[1]), ensure_ascii=False, separators=(",", ":")) + "\n").encode()

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="sushigo-{account.name}.jsonl"'})


__all__ = ["BOARDS", "PAGE", "router"]
