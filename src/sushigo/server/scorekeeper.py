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
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from sushigo.engine.editions import score_sheet
from sushigo.engine.records import RecordError, parse_json
from sushigo.engine.sheets import explain_sheet, setup, sheet_rules, where_of
from sushigo.server.replies import PerHour, fail, read_body
from sushigo.server.store import Store, StoreError
from sushigo.server.tables import hash_token

MAX_SHEET: Final = 65536
"""Largest body of a score or sheet request (bytes)."""
SHEETS_PER_HOUR: Final = 60
"""Sheets one address may create per hour."""


async def _json(request: Request) -> Any:
    """The request's JSON, or a JSONResponse that says why not."""
    body = await read_body(request, MAX_SHEET)
    if isinstance(body, JSONResponse):
        return body
    try:
        return parse_json(body, "the body")
    except RecordError as e:
        return fail(400, str(e))


async def _scored(fn: Callable[[Any], dict[str, Any]], data: Any) -> dict[str, Any] | JSONResponse:
    try:
        return await asyncio.to_thread(fn, data)
    except RecordError as e:
        return fail(400, str(e), where=where_of(e))
    except RecursionError:
        return fail(400, "the score sheet is nested too deeply")


def _check_sheet(data: Any) -> str | None:
    """Why ``data`` can't be kept as a sheet (its setup must be readable), or None."""
    if not isinstance(data, dict):
        return "the sheet must be a JSON object (docs/spec/game-record.md)"
    try:
        sheet_rules(data)
    except RecordError as e:
        return str(e)
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list) or len(rounds) > 3:
        return "rounds: a score sheet has 1 to 3 rounds"
    return None


def add_routes(app: FastAPI, store: Store) -> None:
    """Add the score and sheet routes to ``app`` (sheets kept in ``store``)."""
    created_by = PerHour(SHEETS_PER_HOUR)

    @app.post("/api/score", response_model=None)
    async def score(request: Request, explain: bool = False) -> dict[str, Any] | JSONResponse:
        """Score a score sheet: ``sushigo score``'s JSON; with ``explain``, plus ``explain``."""
        data = await _json(request)
        if isinstance(data, JSONResponse):
            return data

        def run(d: Any) -> dict[str, Any]:
            if not explain:
                return score_sheet(d).to_json()
            story = explain_sheet(d)
            return {**story["result"], "explain": {k: v for k, v in story.items() if k != "result"}}

        return await _scored(run, data)

    @app.post("/api/score/setup", response_model=None)
    async def score_setup(request: Request) -> dict[str, Any] | JSONResponse:
        """What the scorekeeper offers for a sheet's setup (players, edition, menu, options)."""
        data = await _json(request)
        if isinstance(data, JSONResponse):
            return data
        return await _scored(setup, data)

    @app.post("/api/sheets", status_code=201, response_model=None)
    async def create_sheet(request: Request) -> dict[str, Any] | JSONResponse:
        addr = request.client.host if request.client else "?"
        stamp = created_by.take(addr)  # before any await: concurrent requests count too
        if stamp is None:
            return fail(429, f"this address created {SHEETS_PER_HOUR} sheets in the last hour; try later")
        data = await _json(request)
        if isinstance(data, JSONResponse):
            created_by.give_back(addr, stamp)  # refused for what it said: it made nothing
            return data
        sheet = data.get("sheet") if isinstance(data, dict) else None
        problem = _check_sheet(sheet)
        if problem is not None:
            created_by.give_back(addr, stamp)
            return fail(400, f"sheet: {problem}")
        assert isinstance(sheet, dict)
        sheet_id, token = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        try:
            await asyncio.to_thread(store.create_sheet, sheet_id, hash_token(token), sheet, time.time())
        except StoreError as e:
            created_by.give_back(addr, stamp)
            return fail(503, f"the sheet could not be stored: {e}")
        return {"id": sheet_id, "token": token, "version": 1, "view": f"/score/{sheet_id}",
                "edit": f"/score/{sheet_id}#edit={token}"}

    @app.get("/api/sheets/{sheet_id}", response_model=None)
    async def get_sheet(sheet_id: str) -> dict[str, Any] | JSONResponse:
        try:
            row = await asyncio.to_thread(store.sheet, sheet_id[:40])
        except StoreError as e:
            return fail(503, f"the sheet could not be read: {e}")
        if row is None:
            return fail(404, f"no sheet {sheet_id[:40]!r}")
        return {"id": row.id, "version": row.version, "updated": row.updated, "sheet": row.data}

    @app.put("/api/sheets/{sheet_id}", response_model=None)
    async def save_sheet(sheet_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        data = await _json(request)
        if isinstance(data, JSONResponse):
            return data
        if not isinstance(data, dict) or not isinstance(data.get("token"), str) or "sheet" not in data:
            return fail(400, 'the body is {"token": EDIT_TOKEN, "sheet": SHEET}')
        problem = _check_sheet(data["sheet"])
        if problem is not None:
            return fail(400, f"sheet: {problem}")
        try:
            row = await asyncio.to_thread(store.sheet, sheet_id[:40])
            if row is None:
                return fail(404, f"no sheet {sheet_id[:40]!r}")
            if not hmac.compare_digest(row.token_hash, hash_token(data["token"][:200])):
                return fail(403, "this is not the sheet's edit token (the link you were given to keep score)")
            version = await asyncio.to_thread(store.save_sheet, row.id, data["sheet"], time.time())
        except StoreError as e:
            return fail(503, f"the sheet could not be stored: {e}")
        return {"id": row.id, "version": version}


__all__ = ["MAX_SHEET", "SHEETS_PER_HOUR", "add_routes"]
