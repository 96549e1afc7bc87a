"""The site's HTML pages (lobby, table, replay viewer, scorekeeper, account, player, leaderboards),
``/static/words.js``, the engine's words for the pages' scripts, and ``/i18n/{lang}.json``, a
language's catalog for them.

The pages are the package's static files (:data:`STATIC`), sent with
``Cache-Control: no-cache`` in the reader's language (:func:`page_language`: the ``lang``
cookie the language switch sets, else the browser's ``Accept-Language``): their text
translated (:func:`sushigo.i18n.pages.translate_html`) and ``<html lang>`` set, which the
scripts read (``i18n.js``); their scripts ask the API for everything else.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from sushigo.engine.editions import EDITIONS
from sushigo.engine.guide import card_words
from sushigo.i18n import LANGUAGES, page_catalog, translations
from sushigo.i18n.pages import translate_html
from sushigo.server.languages import scope_language

STATIC: Final = resources.files("sushigo.server") / "static"
"""The pages' own files, served under ``/static``."""

_FRESH: Final = {"Cache-Control": "no-cache"}

router = APIRouter(include_in_schema=False)


def page_language(request: Request) -> str:
    """The language to answer ``request`` in (:func:`sushigo.server.languages.scope_language`)."""
    return scope_language(request.scope)


@cache
def translated_page(name: str, lang: str) -> str:
    """Page ``name`` in ``lang``."""
    return translate_html((STATIC / name).read_text(encoding="utf-8"), translations(lang), lang)


def _page(name: str, request: Request) -> Response:
    lang = page_language(request)
    return Response(translated_page(name, lang), media_type="text/html",
                    headers={**_FRESH, "Vary": "Accept-Language, Cookie", "Content-Language": lang})


@cache
def catalog_json(lang: str) -> bytes:
    """:func:`sushigo.i18n.page_catalog` of ``lang`` as JSON."""
    return json.dumps(page_catalog(lang), ensure_ascii=False, sort_keys=True).encode()


@router.get("/i18n/{lang}.json")
async def catalog(lang: str) -> Response:
    """A language's catalog for the pages' scripts (``i18n.js``); 404 for a language sushigo does not speak."""
    if lang not in LANGUAGES:
        return Response(json.dumps({"detail": f"no language {lang[:12]!r}"}), status_code=404,
                        media_type="application/json")
    return Response(catalog_json(lang), media_type="application/json", headers=_FRESH)


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
async def lobby_page(request: Request) -> Response:
    return _page("index.html", request)


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker that shows Web Push notifications (served from the root: its scope is the site)."""
    return FileResponse(str(STATIC / "sw.js"), media_type="text/javascript", headers=_FRESH)


@router.get("/account")
async def account_page(request: Request) -> Response:
    return _page("account.html", request)


@router.get("/ratings")
async def ratings_page(request: Request) -> Response:
    return _page("ratings.html", request)


@router.get("/u/{name}")
async def player_page(name: str, request: Request) -> Response:
    return _page("player.html", request)


@router.get("/score")
async def scorekeeper_page(request: Request) -> Response:
    return _page("scorekeeper.html", request)


@router.get("/score/{sheet_id}")
async def sheet_page(sheet_id: str, request: Request) -> Response:
    return _page("scorekeeper.html", request)


@router.get("/t/{table_id}")
async def table_page(table_id: str, request: Request) -> Response:
    return _page("table.html", request)


@router.get("/t/{table_id}/replay")
async def table_replay_page(table_id: str, request: Request) -> Response:
    return _page("replay.html", request)


@router.get("/replay")
async def upload_page(request: Request) -> Response:
    return _page("replay.html", request)


@router.get("/replay/{upload_id}")
async def upload_replay_page(upload_id: str, request: Request) -> Response:
    return _page("replay.html", request)


__all__ = ["STATIC", "page_language", "router", "translated_page", "words_module"]
