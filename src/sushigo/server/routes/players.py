"""A player's profile and history: ``/api/players/{name}`` (docs/server.md, "Accounts").

Anyone may read a player's profile and finished games, as anyone may read a
finished table; a private table's game shows only to the player themself
(signed in).  Games in progress never show: only finished tables are listed
and exported.  ``/records`` is every finished game's record, one per line
(JSON Lines): each line is a record ``sushigo replay`` accepts.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from sushigo.engine.editions import EDITIONS
from sushigo.server.accounts import Account, AccountError
from sushigo.server.routes.accounts import COOKIE
from sushigo.server.routes.deps import SiteOf
from sushigo.server.routes.errors import Refused
from sushigo.server.store import StoreError
from sushigo.server.tables import FINISHED, summary_of
from sushigo.tournament.ratings import rank_seats

router = APIRouter()
log = logging.getLogger("sushigo.server")

PAGE: Final = 50
"""Games a history answer lists at most (``before`` pages on)."""


async def _player(site: Any, name: str) -> Account:
    try:
        account = await site.accounts.find(name)
    except AccountError as e:
        raise Refused(e.status, e.message) from None
    if account is None:
        raise Refused(404, f"no player {name[:40]!r}")
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
    tiebreak = result.get(EDITIONS[loaded.row.edition].tiebreak_name.lower())
    totals = result.get("totals")
    place = rank_seats(totals, tiebreak)[seat] if isinstance(totals, list) and isinstance(tiebreak, list) else None
    return {
        "table": summary["id"], "edition": summary["edition"], "menu": summary["menu"],
        "players": summary["players"], "created": summary["created"], "finished": loaded.row.finished,
        "seat": seat, "names": [s["name"] for s in summary["seats"]], "totals": totals,
        "winners": result.get("winners"), "place": place, "private": summary["private"],
        "seeded": summary["seeded"], "hints": summary["hints"],
        "replay": f"/t/{summary['id']}/replay#pov={seat}", "record": f"/api/tables/{summary['id']}/record",
    }


@router.get("/api/players/{name}", response_model=None)
async def profile(name: str, site: SiteOf) -> dict[str, Any]:
    """A player's name and since when they have their account."""
    account = await _player(site, name)
    return {"name": account.name, "created": account.created}


@router.get("/api/players/{name}/games", response_model=None)
async def history(name: str, request: Request, site: SiteOf, edition: str | None = None,
                  players: int | None = None, before: float | None = None) -> dict[str, Any]:
    """A player's finished games, newest first, ``PAGE`` at a time (``before``: the
    ``created`` of the last one listed), filtered by ``edition`` and ``players``."""
    if edition is not None and edition not in EDITIONS:
        raise Refused(400, f"edition is one of {', '.join(sorted(EDITIONS))}")
    if players is not None and not 2 <= players <= 8:
        raise Refused(400, "players is 2 to 8")
    account = await _player(site, name)
    mine = await _is_self(site, request, account)
    try:
        found = await asyncio.to_thread(site.store.tables_of_account, account.id, (FINISHED,), PAGE + 1,
                                        edition=edition, players=players, before=before)
    except StoreError as e:
        raise Refused(503, f"the games could not be read: {e}") from None
    games = [_game(loaded, seats) for loaded, seats in found]
    more = len(games) > PAGE
    games = [g for g in games[:PAGE] if mine or not g["private"]]
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


__all__ = ["PAGE", "router"]
