"""The scorekeeper's routes: score a physical table's sheet, and keep it.

``POST /api/score`` scores a score sheet (docs/spec/game-record.md) and
answers exactly what ``sushigo score`` prints; ``?explain=true`` adds the
engine's explanations (:func:`sushigo.engine.sheets.explain_sheet`).
``POST /api/score/setup`` answers what the page offers for a setup.
``/api/sheets`` keeps sheets on the server: anyone with the id reads one,
only the edit token given at creation saves it.  The page is ``/score``
(``static/scorekeeper.html``); see "Scorekeeper" in docs/server.md.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from sushigo.engine.editions import score_sheet
from sushigo.engine.records import RecordError
from sushigo.engine.sheets import explain_sheet, setup, where_of
from sushigo.i18n import _l, _ln, message_of
from sushigo.server.routes.bodies import MAX_SHEET, NewSheet, SavedSheet, decode_json, documented, read_limited
from sushigo.server.routes.deps import SHEETS_PER_HOUR, AddressOf, SiteOf
from sushigo.server.routes.errors import Refused
from sushigo.server.store import StoreError
from sushigo.server.tables import hash_token

router = APIRouter()

_SHEET_BODY = {"requestBody": {"required": True, "description": "a score sheet (docs/spec/game-record.md)",
                               "content": {"application/json": {"schema": {"type": "object"}}}}}


async def _sheet(request: Request) -> Any:
    """A score or setup request's JSON: the sheet (the engine reads it)."""
    return decode_json(await read_limited(request, MAX_SHEET))


async def _scored(fn: Callable[[Any], dict[str, Any]], data: Any) -> dict[str, Any]:
    try:
        return await asyncio.to_thread(fn, data)
    except RecordError as e:
        raise Refused(400, message_of(e), where=where_of(e)) from None  # the engine's line
    except RecursionError:
        raise Refused(400, _l("the score sheet is nested too deeply")) from None


@router.post("/api/score", response_model=None, openapi_extra=_SHEET_BODY)
async def score(request: Request, explain: bool = False) -> dict[str, Any]:
    """Score a score sheet: ``sushigo score``'s JSON; with ``explain``, plus ``explain``."""
    data = await _sheet(request)  # read once ``explain`` is known good

    def run(d: Any) -> dict[str, Any]:
        if not explain:
            return score_sheet(d).to_json()
        story = explain_sheet(d)
        return {**story["result"], "explain": {k: v for k, v in story.items() if k != "result"}}

    return await _scored(run, data)


@router.post("/api/score/setup", response_model=None, openapi_extra=_SHEET_BODY)
async def score_setup(request: Request) -> dict[str, Any]:
    """What the scorekeeper offers for a sheet's setup (players, edition, menu, options)."""
    return await _scored(setup, await _sheet(request))


@router.post("/api/sheets", status_code=201, response_model=None, openapi_extra=documented(NewSheet))
async def create_sheet(request: Request, site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    stamp = site.sheets_made.take(addr)  # before any await: concurrent requests count too
    if stamp is None:
        raise Refused(429, _ln("this address created {n} sheet in the last hour; try later",
                               "this address created {n} sheets in the last hour; try later", SHEETS_PER_HOUR))
    try:
        sheet = (await NewSheet.read(request)).sheet
    except Refused:
        site.sheets_made.give_back(addr, stamp)  # refused for what it said: it made nothing
        raise
    sheet_id, token = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
    try:
        await asyncio.to_thread(site.store.create_sheet, sheet_id, hash_token(token), sheet, time.time())
    except StoreError as e:
        site.sheets_made.give_back(addr, stamp)
        raise Refused(503, _l("the sheet could not be stored: {why}", why=str(e))) from None
    return {"id": sheet_id, "token": token, "version": 1, "view": f"/score/{sheet_id}",
            "edit": f"/score/{sheet_id}#edit={token}"}


@router.get("/api/sheets/{sheet_id}", response_model=None)
async def get_sheet(sheet_id: str, site: SiteOf) -> dict[str, Any]:
    try:
        row = await asyncio.to_thread(site.store.sheet, sheet_id[:40])
    except StoreError as e:
        raise Refused(503, _l("the sheet could not be read: {why}", why=str(e))) from None
    if row is None:
        raise Refused(404, _l("no sheet {id}", id=repr(sheet_id[:40])))
    return {"id": row.id, "version": row.version, "updated": row.updated, "sheet": row.data}


@router.put("/api/sheets/{sheet_id}", response_model=None, openapi_extra=documented(SavedSheet))
async def save_sheet(sheet_id: str, body: Annotated[SavedSheet, Depends(SavedSheet.read)],
                     site: SiteOf) -> dict[str, Any]:
    store = site.store
    try:
        row = await asyncio.to_thread(store.sheet, sheet_id[:40])
        if row is None:
            raise Refused(404, _l("no sheet {id}", id=repr(sheet_id[:40])))
        if not hmac.compare_digest(row.token_hash, hash_token(body.token[:200])):
            raise Refused(403, _l("this is not the sheet's edit token (the link you were given to keep score)"))
        version = await asyncio.to_thread(store.save_sheet, row.id, body.sheet, time.time())
    except StoreError as e:
        raise Refused(503, _l("the sheet could not be stored: {why}", why=str(e))) from None
    return {"id": row.id, "version": version}


__all__ = ["MAX_SHEET", "SHEETS_PER_HOUR", "router"]
