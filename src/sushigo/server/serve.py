"""Run the web app on uvicorn: ``sushigo serve``.

The listening socket is bound here, before uvicorn starts, so a port in use is
a one-line error and ``--port 0`` picks a free port that is printed.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import sys
from typing import Final, TextIO

from sushigo.analysis.evaluate import DEFAULT_SAMPLES
from sushigo.i18n import _l, localized, message_of
from sushigo.server.store import Store, StoreError


class ServeError(RuntimeError):
    """The server cannot start; the message is one line."""


HEADER_TIMEOUT: Final = 10.0
"""Seconds a connection has to send a request's headers (``--header-timeout``)."""


def with_header_timeout(base: type[asyncio.Protocol], seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` (httptools' or h11's), closing a
    connection that has not sent a whole request's headers within ``seconds``
    of connecting or of starting a later request on a kept-alive connection.
    uvicorn has no such timeout: a client that opens connections and trickles
    or never finishes its headers would hold them, and the process's file
    descriptors, forever.  A connection whose headers arrived is served as
    before; a WebSocket's, once upgraded, is no longer this protocol's."""

    class HeaderTimeout(base):  # type: ignore[valid-type, misc]
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self or self.transport.is_closing():
                self._disarm()  # upgraded to a WebSocket, or closed
            elif self._serving():
                self._disarm()  # the headers are in: the request is being served
            elif self._header_timer is None:
                self._arm()  # a new request begins on a kept-alive connection

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _serving(self) -> bool:
            cycle = getattr(self, "cycle", None)
            return cycle is not None and not cycle.response_complete

        def _arm(self) -> None:
            self._header_timer = self.loop.call_later(seconds, self._timed_out)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _timed_out(self) -> None:
            self._header_timer = None
            if self.transport.get_protocol() is self and not self._serving():
                self.transport.close()

    HeaderTimeout.__name__ = f"HeaderTimeout{base.__name__}"
    return HeaderTimeout


class _OneLineDecodeErrors(logging.Filter):
    """uvicorn logs a text frame that is not UTF-8 with a traceback (it closes the
    socket with 1007, which is right): keep one line per connection instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if (record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError)
                and str(record.msg).startswith("Invalid UTF-8")):
            record.msg, record.args = "a client sent a text frame that is not UTF-8: closed it (1007)", ()
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (raises :class:`ServeError`)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise ServeError(_l("cannot resolve host {host}: {why}", host=repr(host), why=e.strerror)) from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as e:
        sock.close()
        raise ServeError(_l("cannot listen on {host}:{port}: {why}", host=host, port=str(port),
                            why=e.strerror)) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


GC_THRESHOLDS: Final = (10_000, 20, 100)
"""The server's garbage-collector thresholds (CPython's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Collect reference cycles less often: a server keeps many objects alive
    (tables, games, sockets), and with CPython's defaults the collector took
    about a seventh of the server's CPU under load and paused it for up to
    185 ms at a time (200 games, ``benchmarks/server_load.py``); with these
    thresholds it takes about a fortieth, with pauses of at most about 30 ms.
    Cycles are still collected, later."""
    gc.set_threshold(*GC_THRESHOLDS)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "sushigo.db",
    *,
    allow_origins: tuple[str, ...] = (),
    shard: str = "",
    tables_per_hour: int = 30,
    connections_per_address: int = 50,
    trust_proxy: str | None = None,
    idle_limit: float = 7 * 86400.0,
    away_after: float = 60.0,
    analysis_samples: int = DEFAULT_SAMPLES,
    header_timeout: float = HEADER_TIMEOUT,
    push_services: tuple[str, ...] = (),
    push_contact: str = "mailto:sushigo@localhost",
    out: TextIO = sys.stdout,
) -> None:
    """Start the server and block until it is stopped (Ctrl-C or SIGTERM).

    ``trust_proxy``: addresses (comma-separated) of reverse proxies whose
    ``X-Forwarded-For`` header names the client; by default none is trusted.
    """
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    from sushigo.server.app import Limits, create_app, normalize_origin

    try:
        extra_origins = tuple(normalize_origin(o) for o in allow_origins)
    except ValueError as e:
        raise ServeError(_l("--allow-origin: {why}", why=localized(message_of(e)))) from None
    try:
        store = Store(db)
        store.create_schema()
    except StoreError as e:
        raise ServeError(str(e)) from None
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{real_port}"
    limits = Limits(tables_per_hour=tables_per_hour, connections_per_address=connections_per_address)
    app = create_app(db, allow_origins=(address, *extra_origins), prefix=shard, store=store, limits=limits,
                     idle_limit=idle_limit, away_after=away_after, janitor_every=min(300.0, idle_limit / 4),
                     analysis_samples=analysis_samples, push_services=push_services, push_contact=push_contact)
    config = uvicorn.Config(
        app, log_level="warning", ws_max_size=65536, ws_ping_interval=20, ws_ping_timeout=20,
        ws="websockets-sansio",  # pinned: the tests send it raw frames (tests/server/test_raw_frames.py)
        lifespan="on", timeout_graceful_shutdown=3, access_log=False,
        http=with_header_timeout(AutoHTTPProtocol, header_timeout),
        ws_per_message_deflate=False,  # compressing ~3 KB frames costs more CPU than it saves on a LAN
        # the per-address limits use the peer's address; X-Forwarded-For only from a proxy named here
        proxy_headers=trust_proxy is not None, forwarded_allow_ips=trust_proxy or "",
    )
    server = uvicorn.Server(config)
    tune_gc()
    logging.getLogger("uvicorn.error").addFilter(_OneLineDecodeErrors())
    hint = ""
    if host in ("0.0.0.0", "::", ""):  # other machines open it by IP address, or by a name given here
        hint = "; players open it by this machine's IP address, or by a name given with --allow-origin"
    print(f"sushigo serving on {address}/  (games in {store.engine.url.render_as_string()}{hint})",
          file=out, flush=True)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        try:
            import uvloop  # comes with uvicorn[standard]; about a third less CPU per message

            uvloop.run(server.serve(sockets=[sock]))
        except ImportError:
            asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
