"""The site's HTML pages (lobby, table, replay viewer, scorekeeper, account, player, leaderboards) and
``/static/words.js``, the engine's words for the pages' scripts.

The pages are the package's static files (:data:`STATIC`), sent with
``Cache-Control: no-cache``; their scripts ask the API for everything else.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from sushigo.engine.editions import EDITIONS
from sushigo.engine.guide import card_words

STATIC: Final = resources.files("sushigo.server") / "static"
"""The pages' own files, served under ``/static``."""

_FRESH: Final = {"Cache-Control": "no-cache"}

router = APIRouter(include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(str(STATIC / name), headers=_FRESH)


@cache
def words_module() -> str:
    """``words.js``: the engine's card labels, menu items and scoring lines, and what each edition is
    called (``editions``: ``title``, ``tiebreak``), as one ES module export."""
    words = {**card_words(), "editions": {e.name: e.words() for e in EDITIONS.values()}}
    return "export const WORDS = " + json.dumps(words, sort_keys=True) + ";\n"


@router.get("/static/words.js")
async def words() -> Response:
    """The engine's words for cards.js (one source for the page's words): ``import { WORDS } from "./words.js"``."""
    return Response(words_module(), media_type="text/javascript", headers=_FRESH)


@router.get("/")
async def lobby_page() -> Response:
    return _page("index.html")


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker that shows Web Push notifications (served from the root: its scope is the site)."""
    return FileResponse(str(STATIC / "sw.js"), media_type="text/javascript", headers=_FRESH)


@router.get("/account")
async def account_page() -> Response:
    return _page("account.html")


@router.get("/ratings")
async def ratings_page() -> Response:
    return _page("ratings.html")


@router.get("/u/{name}")
async def player_page(name: str) -> Response:
    return _page("player.html")


@router.get("/score")
async def scorekeeper_page() -> Response:
    return _page("scorekeeper.html")


@router.get("/score/{sheet_id}")
async def sheet_page(sheet_id: str) -> Response:
    return _page("scorekeeper.html")


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> Response:
    return _page("table.html")


@router.get("/t/{table_id}/replay")
async def table_replay_page(table_id: str) -> Response:
    return _page("replay.html")


@router.get("/replay")
async def upload_page() -> Response:
    return _page("replay.html")


@router.get("/replay/{upload_id}")
async def upload_replay_page(upload_id: str) -> Response:
    return _page("replay.html")


__all__ = ["STATIC", "router", "words_module"]
