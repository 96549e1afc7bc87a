"""The web app: the site's routers, its state, its guard and its one error shape.

:func:`create_app` builds a FastAPI app around one
:class:`~sushigo.server.tables.TableService`; ``sushigo serve`` runs it on
uvicorn.  The routes live in :mod:`sushigo.server.routes`, one router per room
of the site; they only parse, limit and route: rules, hidden information and
persistence live in the service.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from typing import Final
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from sushigo.analysis.evaluate import DEFAULT_SAMPLES
from sushigo.engine.editions import edition_for
from sushigo.engine.messages import Words, msg
from sushigo.i18n import _l, _ln
from sushigo.server.accounts import AccountLimits, Accounts, Bots
from sushigo.server.guard import Guard
from sushigo.server.languages import Language
from sushigo.server.matchmaking import CONFIRM_SECONDS, Challenges, Match, PlayNow
from sushigo.server.push import Notice, Push
from sushigo.server.replies import Refusal
from sushigo.server.routes import (
    accounts,
    botapi,
    bots,
    errors,
    games,
    info,
    notifications,
    pages,
    play,
    players,
    sheets,
    socket,
    tables,
    uploads,
)
from sushigo.server.routes.deps import Limits, Site
from sushigo.server.routes.errors import TABLE_ERROR_STATUS, Refused, table_failed
from sushigo.server.routes.pages import STATIC
from sushigo.server.store import Store
from sushigo.server.tables import HINT_SECONDS, LiveTable, TableError, TableService

DEFAULT_LIMITS: Final = Limits()
DEFAULT_ACCOUNT_LIMITS: Final = AccountLimits()


def normalize_origin(text: str) -> str:
    """An origin as browsers send it: ``scheme://host[:port]``, lower case, no
    default port, no path.  Raises :class:`ValueError` for anything else.

    >>> normalize_origin("HTTPS://Sushi.Example:443/")
    'https://sushi.example'
    >>> normalize_origin("http://[::1]:8000")
    'http://[::1]:8000'
    """
    parts = urlsplit(text.strip())
    try:
        port = parts.port
    except ValueError:
        raise ValueError(_l("bad port in origin {origin}", origin=repr(text))) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(_l("an origin is http(s)://host[:port], not {origin}", origin=repr(text)))
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(_l("an origin has no path, query or user: {origin}", origin=repr(text)))
    scheme, host = parts.scheme.lower(), parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


def create_app(
    db: str = "sqlite:///sushigo.db",
    *,
    allow_origins: tuple[str, ...] = (),
    limits: Limits = DEFAULT_LIMITS,
    prefix: str = "",
    store: Store | None = None,
    idle_limit: float = 7 * 86400.0,
    away_after: float = 60.0,
    janitor_every: float = 300.0,
    hint_seconds: float = HINT_SECONDS,
    analysis_samples: int = DEFAULT_SAMPLES,
    password_hasher: PasswordHasher | None = None,
    account_limits: AccountLimits = DEFAULT_ACCOUNT_LIMITS,
    push_services: tuple[str, ...] = (),
    push_contact: str = "mailto:sushigo@localhost",
    queue_tick: float = 1.0,
    confirm_seconds: float = CONFIRM_SECONDS,
) -> FastAPI:
    """The web app over database URL ``db`` (see ``docs/server.md``).

    ``allow_origins``: the origins whose pages may open table sockets
    (``sushigo serve`` passes its own address and ``--allow-origin``);
    ``prefix``: this process's shard (table ids start with it; see
    "Several processes" in ``docs/server.md``); ``idle_limit``, ``away_after``
    ``janitor_every``, ``hint_seconds`` and ``analysis_samples``: see :class:`~sushigo.server.tables.TableService`;
    ``password_hasher`` and ``account_limits``: the accounts' Argon2 parameters and limits
    (:class:`~sushigo.server.accounts.Accounts`); ``push_services`` and ``push_contact``: the
    push services besides the browsers' and the VAPID contact (:class:`~sushigo.server.push.Push`);
    ``queue_tick`` and ``confirm_seconds``: play now's rounds (:class:`~sushigo.server.matchmaking.PlayNow`).
    """
    store = store if store is not None else Store(db)
    service = TableService(store, prefix=prefix, idle_limit=idle_limit, away_after=away_after,
                           janitor_every=janitor_every, hint_seconds=hint_seconds,
                           analysis_samples=analysis_samples)
    allowed = frozenset(normalize_origin(o) for o in allow_origins)
    push = Push(store, services=push_services, contact=push_contact)
    playnow = PlayNow(store, service, tick=queue_tick, confirm_seconds=confirm_seconds,
                      on_match=lambda account, match, by: push.notify_soon(account, match_notice(match, by)))
    service.on_turn = lambda table, seat: _turn_notice(push, table, seat)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        await push.start()
        await playnow.start()
        try:
            yield
        finally:
            await app.state.site.bot_events.stop()
            await playnow.stop()
            await push.stop()
            await service.stop()
            store.close()

    app = FastAPI(title="sushigo", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    people = Accounts(store, hasher=password_hasher, limits=account_limits)
    app.state.site = Site(service, store, limits, allowed, people, Bots(people), playnow, push,
                          Challenges(store, service, people))
    app.state.service = service
    # cross-site state changes refused, security headers on every answer (server/guard.py)
    app.add_middleware(Guard, allowed=allowed, docs=app.docs_url)
    # the reader's language for every answer: the switch's cookie, else Accept-Language (server/languages.py)
    app.add_middleware(Language)
    # every error answer is {"error": "one line"} (routes/errors.py)
    app.exception_handler(Refused)(errors.refused)
    app.exception_handler(TableError)(errors.table_error)
    app.exception_handler(Refusal)(errors.service_error)  # the accounts', the queue's, the notifications'
    app.exception_handler(StarletteHTTPException)(errors.http_error)
    app.exception_handler(RequestValidationError)(errors.bad_request)
    app.exception_handler(Exception)(errors.internal_error)

    app.include_router(pages.router)  # its /static/words.js before the static files
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    for room in (sheets, info, tables, games, uploads, accounts, bots, botapi, players, play, notifications,
                 socket):
        app.include_router(room.router)
    return app


def match_notice(match: Match, confirm_by: float) -> Notice:
    """What a matched account's devices show: the game and the time to confirm (no one's cards)."""
    seconds = max(1, round(confirm_by - time.time()))
    people = len(match.members)
    game = _l(edition_for(match.edition).title)  # the edition's name, itself a message
    if match.bots == 0:
        body = _ln("{n} player. Confirm within {seconds} s to sit down.",
                   "{n} players. Confirm within {seconds} s to sit down.", people, seconds=seconds)
    else:
        body = _ln("{people} + {n} bot. Confirm within {seconds} s to sit down.",
                   "{people} + {n} bots. Confirm within {seconds} s to sit down.", match.bots, people=people,
                   seconds=seconds)
    return Notice(_l("{game}: your table is ready", game=game), body, "/#play", "sushigo-play")


def _turn_notice(push: Push, table: LiveTable, seat: int) -> None:
    """A turn-based table waits on an account's seat: tell its devices (the names at the table, no cards)."""
    account = table.seats[seat].account
    if account is None:
        return
    others = Words(tuple(s.name or msg("a player") for s in table.seats if s.seat != seat))
    push.notify_soon(account, Notice(_l("{game}: your move", game=_l(edition_for(table.rules).title)),
                                     _l("The table with {others} waits on you.", others=others),
                                     f"/t/{table.id}#as={seat}", f"sushigo-turn-{table.id}"))


__all__ = ["STATIC", "TABLE_ERROR_STATUS", "Limits", "create_app", "normalize_origin", "table_failed"]
