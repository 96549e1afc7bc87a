"""The web app: lobby routes, the table WebSocket and the page's static files.

:func:`create_app` builds a FastAPI app around one
:class:`~sushigo.server.tables.TableService`; ``sushigo serve`` runs it on
uvicorn.  The transport only parses, limits and routes: rules, hidden
information and persistence live in the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from sushigo.analysis.evaluate import DEFAULT_SAMPLES
from sushigo.bots import BOTS
from sushigo.engine.flags import DEFAULT_MENU
from sushigo.engine.guide import card_words, demonstrations, dishes, how_to_play
from sushigo.engine.menus import MENU_ITEMS, OFFICIAL_MENUS
from sushigo.engine.records import RecordError, parse_json
from sushigo.server import scorekeeper
from sushigo.server.guard import Guard, origin_allowed, secure
from sushigo.server.protocol import (
    MAX_CHAT,
    MAX_NAME,
    PROTOCOL,
    REACTIONS,
    TIMER_RANGE,
    Chat,
    HandOver,
    Hello,
    Mute,
    Pick,
    Ping,
    ProtocolError,
    React,
    Rematch,
    Rename,
    Withdraw,
    clean_name,
    dump,
    error,
    parse_client,
    parse_create,
)
from sushigo.server.replays import ReplayService
from sushigo.server.replies import PerHour, fail, read_body
from sushigo.server.store import OPEN_STATUSES, Store, StoreError
from sushigo.server.tables import HINT_SECONDS, SEAT_TAKEN, LiveTable, TableError, TableService

log = logging.getLogger("sushigo.server")

STATIC: Final = resources.files("sushigo.server") / "static"


@dataclass(frozen=True)
class Limits:
    """Abuse limits (``docs/server.md``)."""

    rate: float = 20.0
    """Messages a second one connection may send (token bucket refill)."""
    burst: int = 40
    """Token bucket size."""
    flood_close: int = 100
    """Refused messages (rate-limited or malformed) within ``flood_window`` seconds after
    which the connection is told (``rate_limited``) and closed (code 1008)."""
    flood_window: float = 10.0
    connections_per_address: int = 50
    tables_per_hour: int = 30
    """Tables one address may create per hour."""
    max_body: int = 16384
    """Largest create-table body (bytes)."""
    max_record: int = 262144
    """Largest uploaded game record (bytes; a whole 8-player Party game's is about 10 KB)."""
    uploads_per_hour: int = 60
    """Game records one address may upload to the replay viewer per hour."""
    invites_per_hour: int = 20
    """New invites a table's creator may make for its seats per hour (each is stored and told to the table)."""
    replays_per_minute: int = 60
    """Replay documents the server computes for one address per minute (one it
    keeps from before costs nothing and is not counted)."""
    outbox: int = 256
    """Frames queued for a slow client before it is dropped."""


class _Bucket:
    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(frozen=True)
class _Close:
    """A close frame queued behind the frames before it."""

    code: int
    reason: str


_DROP: Final = _Close(1013, "")
"""Closes a client that does not read (its queue is full); it can reconnect."""


class _Socket:
    """One WebSocket watching a table: frames go out, in order, through a bounded queue."""

    def __init__(self, ws: WebSocket, limit: int) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | _Close] = asyncio.Queue(limit)
        self.dropped = False
        self.closing: int | None = None
        """The close code the server decided on (its close frame is queued)."""

    def send(self, text: str) -> None:
        self._put(text)

    def close(self, code: int, reason: str) -> None:
        """Close the socket once every frame queued before is sent."""
        self._put(_Close(code, reason))

    def _put(self, item: str | _Close) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:  # a client that does not read: drop it, it can reconnect
            self.dropped = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(item if isinstance(item, _Close) else _DROP)

    async def pump(self) -> None:
        while True:
            item = await self.queue.get()
            if isinstance(item, _Close):
                with contextlib.suppress(Exception):
                    await self.ws.close(code=item.code, reason=item.reason)
                return
            await self.ws.send_text(item)


def _address(scope_client: Any) -> str:
    return scope_client.host if scope_client is not None else "?"


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
        raise ValueError(f"bad port in origin {text!r}") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"an origin is http(s)://host[:port], not {text!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"an origin has no path, query or user: {text!r}")
    scheme, host = parts.scheme.lower(), parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


TABLE_ERROR_STATUS: Final[dict[str, int]] = {
    "bad_request": 400, "not_creator": 403, "no_table": 404, "not_waiting": 409, "wrong_process": 409,
    "game_over": 409, "not_finished": 409, "rate_limited": 429, "busy": 503,
}
"""The HTTP status of a :class:`TableError` a route answers with (others: 503)."""


def table_failed(e: TableError) -> JSONResponse:
    """The error answer for a :class:`TableError` (its one-line message, its status)."""
    return fail(TABLE_ERROR_STATUS.get(e.code, 503), str(e))


def _origin_ok(ws: WebSocket, allowed: frozenset[str]) -> bool:
    """Whether a handshake's ``Origin`` may open a table socket: the rule of
    :func:`sushigo.server.guard.origin_allowed`, which the state-changing HTTP
    requests follow too (no Origin: not a browser, accepted; a browser's must be
    one of the server's public origins, or its own IP address or localhost).
    """
    return origin_allowed(ws.headers.get("origin"), ws.headers.get("host", ""), allowed)


def create_app(
    db: str = "sqlite:///sushigo.db",
    *,
    allow_origins: tuple[str, ...] = (),
    limits: Limits = Limits(),
    prefix: str = "",
    store: Store | None = None,
    idle_limit: float = 7 * 86400.0,
    away_after: float = 60.0,
    janitor_every: float = 300.0,
    hint_seconds: float = HINT_SECONDS,
    analysis_samples: int = DEFAULT_SAMPLES,
) -> FastAPI:
    """The web app over database URL ``db`` (see ``docs/server.md``).

    ``allow_origins``: the origins whose pages may open table sockets
    (``sushigo serve`` passes its own address and ``--allow-origin``);
    ``prefix``: this process's shard (table ids start with it; see
    "Several processes" in ``docs/server.md``); ``idle_limit``, ``away_after``
    ``janitor_every``, ``hint_seconds`` and ``analysis_samples``: see :class:`~sushigo.server.tables.TableService`.
    """
    store = store if store is not None else Store(db)
    service = TableService(store, prefix=prefix, idle_limit=idle_limit, away_after=away_after,
                           janitor_every=janitor_every, hint_seconds=hint_seconds,
                           analysis_samples=analysis_samples)
    allowed = frozenset(normalize_origin(o) for o in allow_origins)
    sockets_per_address: dict[str, int] = defaultdict(int)
    created = PerHour(limits.tables_per_hour)
    uploaded = PerHour(limits.uploads_per_hour)
    documents = PerHour(limits.replays_per_minute, window=60.0)
    invited = PerHour(limits.invites_per_hour)  # per table
    replays = ReplayService(service, store)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            store.close()

    app = FastAPI(title="sushigo", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.service = service
    # cross-site state changes refused, security headers on every answer (server/guard.py)
    app.add_middleware(Guard, allowed=allowed, docs=app.docs_url)
    words_js = "window.SushiWords = " + json.dumps(card_words(), sort_keys=True) + ";\n"

    @app.get("/static/words.js", include_in_schema=False)
    async def words() -> Response:
        """The engine's card labels and scoring lines for cards.js (one source for the page's words)."""
        return Response(words_js, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Every error answer has the one documented shape, ``{"error": "one line"}``."""
        path = " ".join(request.url.path[:100].split())
        message = {404: f"no such page or route: {path}",
                   405: f"{request.method[:10]} is not allowed on {path}"}.get(exc.status_code, str(exc.detail))
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        """A bug of the server's: the answer keeps the shape (the log has the traceback)."""
        return secure(fail(500, "internal server error"))  # sent outside Guard

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())) or "request"
        return fail(400, f"{where}: {' '.join(str(first.get('msg', 'invalid')).split())}")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/score", include_in_schema=False)
    async def scorekeeper_page() -> Response:
        return FileResponse(str(STATIC / "scorekeeper.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/score/{sheet_id}", include_in_schema=False)
    async def sheet_page(sheet_id: str) -> Response:
        return FileResponse(str(STATIC / "scorekeeper.html"), headers={"Cache-Control": "no-cache"})

    scorekeeper.add_routes(app, store)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return FileResponse(str(STATIC / "table.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}/replay", include_in_schema=False)
    async def table_replay_page(table_id: str) -> Response:
        return FileResponse(str(STATIC / "replay.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/replay", include_in_schema=False)
    async def upload_page() -> Response:
        return FileResponse(str(STATIC / "replay.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/replay/{upload_id}", include_in_schema=False)
    async def upload_replay_page(upload_id: str) -> Response:
        return FileResponse(str(STATIC / "replay.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "bots": sorted(BOTS),
            "menus": {name: list(items) for name, items in OFFICIAL_MENUS.items()},
            "default_menu": DEFAULT_MENU,
            "menu_items": list(MENU_ITEMS),
            "editions": {"base": [2, 5], "party": [2, 8]},
            "max_name": MAX_NAME,
            "timer": list(TIMER_RANGE),
            "max_chat": MAX_CHAT,
            "reactions": REACTIONS,
            "away_after": service.away_after,
            "idle_limit": service.idle_limit,
        }

    @app.get("/api/stats")
    async def stats() -> dict[str, Any]:
        """Counters of this process since it started (for operators and the load benchmark)."""
        return {
            "tables_in_memory": len(service.tables),
            "connections": sum(len(t.connections) for t in service.tables.values()),
            "decisions": service.picks,
            "write_batches": service.writer.batches,
            "writes": service.writer.ops,
            "database": service.store.kind,
        }

    @app.post("/api/tables", status_code=201, response_model=None)
    async def create_table(request: Request) -> dict[str, Any] | JSONResponse:
        addr = _address(request.client)
        body = await read_body(request, limits.max_body)
        if isinstance(body, JSONResponse):
            return body
        now = created.take(addr)  # before the await: concurrent requests count too
        if now is None:
            return fail(429, f"this address created {limits.tables_per_hour} tables in the last hour; try later")
        try:
            req = parse_create(body)
            table, tokens, creator = await service.create(req, address=addr)
        except (ProtocolError, TableError) as e:
            created.give_back(addr, now)
            return fail(400, str(e))
        except StoreError as e:
            created.give_back(addr, now)
            return fail(503, f"the table could not be stored: {e}")
        out_seats: list[dict[str, Any]] = []
        for s in table.seats:
            if s.kind == "human":
                out_seats.append({"seat": s.seat, "kind": "human", "invite": f"/t/{table.id}#seat={tokens[s.seat]}"})
            else:
                out_seats.append({"seat": s.seat, "kind": "bot", "bot": s.bot, "name": s.name})
        return {"id": table.id, "spectate": f"/t/{table.id}", "seats": out_seats, "creator": creator,
                "table": table.summary()}

    async def creator_body(request: Request, keys: set[str], shape: str) -> dict[str, Any] | JSONResponse:
        """A creator's JSON body with exactly ``keys`` (``creator`` a token), else a 400 saying ``shape``."""
        body = await read_body(request, 1024)
        if isinstance(body, JSONResponse):
            return body
        try:
            data = parse_json(body or b"null", "the body")
        except RecordError as e:
            return fail(400, str(e))
        token = data.get("creator") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(token, str) or not 0 < len(token) <= 128 or set(data) != keys:
            return fail(400, f"the body is {shape}")
        return data

    @app.post("/api/tables/{table_id}/cancel", response_model=None)
    async def cancel_table(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        data = await creator_body(request, {"creator"},
                                  '{"creator": TOKEN}, the creator token the table was created with')
        if isinstance(data, JSONResponse):
            return data
        try:
            table = await service.cancel(table_id[:64], data["creator"])
        except TableError as e:
            return table_failed(e)
        return table.summary()

    @app.post("/api/tables/{table_id}/invite", response_model=None)
    async def reinvite(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        data = await creator_body(request, {"creator", "seat"},
                                  '{"creator": TOKEN, "seat": N}: the creator token and a human seat, from 0')
        if isinstance(data, JSONResponse):
            return data
        seat = data["seat"]
        if type(seat) is not int:
            return fail(400, '"seat" is a seat number, from 0')
        now = invited.take(table_id[:64])  # before the await: concurrent requests count too
        if now is None:
            return fail(429, f"this table's creator made {limits.invites_per_hour} new invites in the last hour; "
                             "try later")
        try:
            token = await service.reinvite(table_id[:64], data["creator"], seat)
        except TableError as e:
            invited.give_back(table_id[:64], now)
            return table_failed(e)
        return {"seat": seat, "invite": f"/t/{table_id[:64]}#seat={token}"}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        return {"tables": await service.listing()}

    @app.get("/api/tables/{table_id}", response_model=None)
    async def get_table(table_id: str) -> dict[str, Any] | JSONResponse:
        summary = await service.summary(table_id[:64])
        if summary is None:
            return fail(404, f"no table {table_id[:64]!r}")
        return summary

    @app.get("/api/tables/{table_id}/rules", response_model=None)
    async def get_rules(table_id: str) -> dict[str, Any] | JSONResponse:
        rules = await service.rules_of(table_id[:64])
        if rules is None:
            return fail(404, f"no table {table_id[:64]!r}")
        return {"edition": rules.edition, "how_to_play": how_to_play(rules),
                "dishes": [d.to_json() for d in dishes(rules)],
                "demonstrations": [d.to_json() for d in demonstrations(rules)]}

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def get_record(table_id: str) -> Response:
        summary = await service.summary(table_id[:64])
        if summary is None:
            return fail(404, f"no table {table_id[:64]!r}")
        if summary["status"] not in ("finished", "abandoned"):
            return fail(409, "the record is available once the game is over (it shows every hand)")
        text = await service.record(table_id)
        if text is None:
            return fail(404, "this game has no stored record")
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="sushigo-{table_id}.json"'})

    async def _analysis(table_id: str, seat: str | int | None, start: bool,
                        address: str = "") -> dict[str, Any] | JSONResponse:
        try:
            n = int(seat) if seat is not None and not isinstance(seat, bool) else None
        except ValueError:
            n = None
        if n is None:
            return fail(400, "say which seat: ?seat=N (POST: {\"seat\": N}), from 0")
        try:
            job = await service.analysis(table_id[:64], n, start=start, address=address)
        except TableError as e:
            return table_failed(e)
        if job is None:
            return {"table": table_id[:64], "seat": n, "status": "none", "done": 0, "total": 0, "analysis": None}
        return job.to_json()

    @app.get("/api/tables/{table_id}/analysis", response_model=None)
    async def get_analysis(table_id: str, seat: str | None = None) -> dict[str, Any] | JSONResponse:
        return await _analysis(table_id, seat, start=False)

    async def _seat_body(request: Request) -> int | JSONResponse:
        """The seat of an analysis request's body ``{"seat": N}``."""
        body = await read_body(request, 1024)
        if isinstance(body, JSONResponse):
            return body
        try:
            data = json.loads(body or b"null")
        except (ValueError, UnicodeDecodeError, RecursionError):
            return fail(400, "the body is not JSON")
        if not isinstance(data, dict) or set(data) != {"seat"} or not isinstance(data["seat"], int) \
                or isinstance(data["seat"], bool):
            return fail(400, 'the body is {"seat": N}, the seat to analyse (from 0)')
        return int(data["seat"])

    @app.post("/api/tables/{table_id}/analysis", status_code=202, response_model=None)
    async def start_analysis(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        seat = await _seat_body(request)
        if isinstance(seat, JSONResponse):
            return seat
        return await _analysis(table_id, seat, start=True, address=_address(request.client))

    def _seat_of(seat: str | None) -> int | JSONResponse | None:
        """``?seat=N`` of a replay (absent or empty: the spectator's)."""
        if seat is None or seat == "":
            return None
        if not (seat.isascii() and seat.isdigit()) or len(seat) > 3:
            return fail(400, "?seat=N is a seat number, from 0 (leave it out for the spectator's view)")
        return int(seat)

    def _charge(request: Request) -> Callable[[], bool]:
        """Counts a replay document computed for the request's address (cached ones are not)."""
        addr = _address(request.client)
        return lambda: documents.take(addr) is not None

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    async def table_replay(table_id: str, request: Request, seat: str | None = None) -> dict[str, Any] | JSONResponse:
        n = _seat_of(seat)
        if isinstance(n, JSONResponse):
            return n
        try:
            return await replays.of_table(table_id[:64], n, _charge(request))
        except TableError as e:
            return table_failed(e)

    @app.post("/api/replays", status_code=201, response_model=None)
    async def upload_record(request: Request) -> dict[str, Any] | JSONResponse:
        addr = _address(request.client)
        body = await read_body(request, limits.max_record)
        if isinstance(body, JSONResponse):
            return body
        now = uploaded.take(addr)
        if now is None:
            return fail(429, f"this address uploaded {limits.uploads_per_hour} records in the last hour; try later")
        try:
            _rid, summary = await replays.upload(body)
        except TableError as e:
            uploaded.give_back(addr, now)
            return fail(400, str(e))
        except StoreError as e:
            uploaded.give_back(addr, now)
            return fail(503, f"the record could not be stored: {e}")
        return summary

    def _upload_id(upload_id: str) -> str | JSONResponse:
        if len(upload_id) != 20 or any(c not in "0123456789abcdef" for c in upload_id):
            return fail(404, f"no uploaded record {upload_id[:64]!r}")
        return upload_id

    @app.get("/api/replays/{upload_id}", response_model=None)
    async def upload_replay(upload_id: str, request: Request, seat: str | None = None) -> dict[str, Any] | JSONResponse:
        rid, n = _upload_id(upload_id), _seat_of(seat)
        if isinstance(rid, JSONResponse):
            return rid
        if isinstance(n, JSONResponse):
            return n
        try:
            return await replays.of_upload(rid, n, _charge(request))
        except TableError as e:
            return table_failed(e)

    @app.get("/api/replays/{upload_id}/record", response_model=None)
    async def upload_record_text(upload_id: str) -> Response:
        rid = _upload_id(upload_id)
        if isinstance(rid, JSONResponse):
            return rid
        text = await replays.record(rid)
        if text is None:
            return fail(404, f"no uploaded record {rid!r}")
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="sushigo-{rid}.json"'})

    async def _upload_analysis(upload_id: str, seat: str | int | None, start: bool,
                               address: str = "") -> dict[str, Any] | JSONResponse:
        rid = _upload_id(upload_id)
        if isinstance(rid, JSONResponse):
            return rid
        n = seat if isinstance(seat, int) else _seat_of(seat)
        if not isinstance(n, int):
            return fail(400, "say which seat: ?seat=N (POST: {\"seat\": N}), from 0")
        try:
            job = await replays.upload_analysis(rid, n, start=start, address=address)
        except TableError as e:
            return table_failed(e)
        if job is None:
            return {"table": None, "upload": rid, "seat": n, "status": "none", "done": 0, "total": 0,
                    "analysis": None}
        return {**job.to_json(), "table": None, "upload": rid}

    @app.get("/api/replays/{upload_id}/analysis", response_model=None)
    async def get_upload_analysis(upload_id: str, seat: str | None = None) -> dict[str, Any] | JSONResponse:
        return await _upload_analysis(upload_id, seat, start=False)

    @app.post("/api/replays/{upload_id}/analysis", status_code=202, response_model=None)
    async def start_upload_analysis(upload_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        seat = await _seat_body(request)
        if isinstance(seat, JSONResponse):
            return seat
        return await _upload_analysis(upload_id, seat, start=True, address=_address(request.client))

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        addr = _address(ws.client)
        if not _origin_ok(ws, allowed):
            await ws.close(code=1008, reason="origin not allowed")
            return
        if sockets_per_address[addr] >= limits.connections_per_address:
            await ws.close(code=1008, reason="too many connections from this address")
            return
        sockets_per_address[addr] += 1  # before any await: concurrent handshakes count too
        try:
            table = service.get(table_id) or await service.revive(table_id[:64])
            if table is None:
                elsewhere = await service.summary(table_id[:64])
                code, reason = (("no_table", "no such table") if elsewhere is None else
                                ("wrong_process", "this table is served by another server process"))
                await ws.accept()
                await ws.send_text(error(code, reason))
                await ws.close(code=1008, reason=reason)
                return
            await ws.accept()
            await _serve_socket(ws, table)
        finally:
            sockets_per_address[addr] -= 1
            if sockets_per_address[addr] <= 0:
                del sockets_per_address[addr]

    async def _serve_socket(ws: WebSocket, table: LiveTable) -> None:
        sock = _Socket(ws, limits.outbox)
        bucket = _Bucket(limits.rate, limits.burst)
        refused, window = 0, time.monotonic()
        joined = False
        pump = asyncio.get_running_loop().create_task(sock.pump())

        async def refuse(code: str, message: str) -> bool:
            """Send the error; after too many refusals, tell the client and close (True)."""
            nonlocal refused
            refused += 1
            sock.send(error(code, message))
            if refused < limits.flood_close:
                return False
            sock.send(error("rate_limited", f"{refused} messages refused within {limits.flood_window:g} s: "
                                            "the server closes this connection"))
            sock.close(1008, "too many refused messages")
            sock.closing = 1008
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(pump), timeout=5)
            return True

        try:
            while True:
                if pump.done():
                    return
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    text = data.decode("utf-8", "replace") if len(data) <= 4096 else "x" * 4097
                if time.monotonic() - window > limits.flood_window:
                    refused, window = 0, time.monotonic()
                if not bucket.take():
                    if await refuse("rate_limited", f"more than {limits.rate:g} messages a second "
                                                    f"(bursts of {limits.burst}): this message was not read"):
                        return
                    continue
                try:
                    msg = parse_client(text)
                    if isinstance(msg, Hello):
                        if joined:
                            raise ProtocolError("bad_message", "hello was already sent")
                        seat, name, secret = await _hello_seat(table, msg)
                        await service.settled(table)  # show only what is committed
                        # from here on no await until the state is queued: welcome, then state, first
                        sock.seat = seat
                        welcome = {"type": "welcome", "table": table.id, "seat": seat,
                                   "seq": table.public_seq, "protocol": PROTOCOL}
                        if secret is not None:
                            welcome["token"] = secret
                        sock.send(dump(welcome))
                        joined = True
                        sock.send(service.state_message(table, sock.seat))
                        service.attach(table, sock)  # then the whole log, then the seats
                        if name is not None and sock.seat is not None and table.status in OPEN_STATUSES:
                            await service.rename(table, sock.seat, name)
                    elif not joined:
                        raise ProtocolError("hello_first", "send hello first")
                    elif isinstance(msg, Pick):
                        if sock.seat is None:
                            raise ProtocolError("not_your_turn", "spectators cannot pick")
                        seq = await service.pick(table, sock.seat, msg.seq, msg.action)
                        sock.send(dump({"type": "ack", "seq": seq, "action": msg.action}))
                    elif isinstance(msg, Withdraw):
                        if sock.seat is None:
                            raise ProtocolError("not_your_turn", "spectators cannot pick")
                        seq = await service.withdraw(table, sock.seat, msg.seq)
                        sock.send(dump({"type": "ack", "seq": seq, "action": None}))
                    elif isinstance(msg, Chat):
                        await service.say(table, sock.seat, text=msg.text)
                    elif isinstance(msg, React):
                        await service.say(table, sock.seat, reaction=msg.reaction)
                    elif isinstance(msg, Mute):
                        await service.mute(table, sock.seat, msg.seat, msg.muted)
                    elif isinstance(msg, HandOver):
                        if sock.seat is None:
                            raise ProtocolError("not_seated", "spectators cannot hand a seat to a bot")
                        await service.hand_over(table, sock.seat, msg.seat)
                    elif isinstance(msg, Rematch):
                        new, token, creator = await service.claim_rematch(table, sock.seat)
                        frame = {"type": "rematch", "table": new.id, "seat": sock.seat, "token": token,
                                 "url": f"/t/{new.id}#seat={token}"}
                        if creator is not None:
                            frame["creator"] = creator
                        sock.send(dump(frame))
                    elif isinstance(msg, Rename):
                        if sock.seat is None:
                            raise ProtocolError("bad_name", "spectators have no name")
                        await service.rename(table, sock.seat, clean_name(msg.name))
                    elif isinstance(msg, Ping):
                        sock.send(dump({"type": "pong"}))
                except (ProtocolError, TableError) as e:
                    if await refuse(e.code, str(e)):
                        return
        except WebSocketDisconnect:
            return
        finally:
            if joined:
                service.detach(table, sock)
            else:
                service.forget_if_idle(table)
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
            code = 1013 if sock.dropped else sock.closing
            if ws.application_state == WebSocketState.CONNECTED and code is not None:
                with contextlib.suppress(Exception):
                    await ws.close(code=code)

    async def _hello_seat(table: LiveTable, msg: Hello) -> tuple[int | None, str | None, str | None]:
        """The seat a hello takes (``None``: spectator), the name it sets, if
        any, and the seat's new secret when an invite claimed it."""
        seat, secret = None, None
        name = clean_name(msg.name) if msg.name is not None and msg.token is not None else None  # before a claim
        if msg.token is not None:
            seat, how = service.seat_of(table, msg.token)
            if how == "spent":
                raise ProtocolError("seat_taken", SEAT_TAKEN)
            if seat is None:
                raise ProtocolError("bad_token", "this seat token does not belong to this table")
            if how == "invite" and table.status in OPEN_STATUSES:  # an ended table is read-only: nothing to bind
                secret = await service.claim(table, seat)
        return seat, name, secret

    return app
