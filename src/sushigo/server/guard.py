"""What keeps other sites' pages from acting through a visitor's browser
(docs/server.md, "Cross-site requests and the pages' headers").

:class:`Guard` is the app's outermost middleware of its own: it refuses a
state-changing request (POST, PUT, PATCH, DELETE) that a browser sent from a
page of another origin, with the API's one error shape, and adds the security
headers to every HTTP answer: a Content-Security-Policy that runs scripts from
the package's own files only (no inline script, no inline style), refuses
every frame (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``), plus
``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: same-origin``.

:func:`origin_allowed` is the one origin rule, shared with the table
WebSocket's handshake (``_origin_ok`` in ``server/routes/socket.py``).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
from collections.abc import Mapping
from typing import Final, TypeVar
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sushigo.i18n import _l, localized

UNSAFE_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that may change something: each must come from no browser page, or one of ours."""

POLICY: Final = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                 "font-src 'self'; connect-src 'self'{sockets}; object-src 'none'; base-uri 'self'; "
                 "form-action 'self'; frame-ancestors 'none'")
"""The pages' Content-Security-Policy; ``{sockets}`` names the WebSocket of the
request's own host (``'self'`` covers it in current browsers, not in older ones)."""

DOCS_POLICY: Final = ("default-src 'none'; script-src https://cdn.jsdelivr.net{scripts}; "
                      "style-src https://cdn.jsdelivr.net 'unsafe-inline'; "
                      "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; "
                      "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The policy of FastAPI's OpenAPI page (``/api/docs``): Swagger UI from its
CDN, and the page's inline scripts by their hashes, computed from what is sent."""

HEADERS: Final[Mapping[str, str]] = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""The headers every answer carries besides the Content-Security-Policy."""

_R = TypeVar("_R", bound=Response)

_HOST: Final = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
_INLINE_SCRIPT: Final = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def origin_allowed(origin: str | None, host: str, allowed: frozenset[str]) -> bool:
    """Whether a browser page of ``origin`` may act on this server, reached as ``host``.

    No origin: not a browser page (bots, scripts), allowed.  Otherwise one of
    the server's public origins exactly (scheme, host and port, as browsers
    write them), or ``http://`` plus the request's own Host when that host is
    an IP address or ``localhost``: a page this very server sent.  A DNS name
    is never taken from the Host header, since any page whose name is pointed
    at the server would pass (DNS rebinding).

    >>> mine = frozenset({"https://sushi.example"})
    >>> origin_allowed("https://sushi.example", "sushi.example", mine)
    True
    >>> origin_allowed("http://192.168.1.5:8000", "192.168.1.5:8000", mine)
    True
    >>> origin_allowed("http://evil.example", "evil.example", mine), origin_allowed("null", "x", mine)
    (False, False)
    """
    if origin is None or origin in allowed:
        return True
    if origin != f"http://{host}":
        return False
    name = urlsplit(origin).hostname or ""
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _origin_of(url: str) -> str | None:
    """The origin a browser would send for a page at ``url`` (None: not an http(s) URL)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


def cross_site(headers: Headers, allowed: frozenset[str]) -> str | None:
    """Why a state-changing request must be refused as another site's (one line), or None.

    The ``Origin`` decides when there is one: every current browser sends it
    with a POST, PUT, PATCH or DELETE, a form's or a ``text/plain`` fetch's
    alike.  Without it, ``Sec-Fetch-Site: cross-site`` or ``same-site``, or a
    ``Referer`` of another origin, mark another page's request; a request with
    none of these is no browser page's (curl, scripts, bots) and goes on.
    """
    host = headers.get("host", "")
    origin = headers.get("origin")
    if origin is not None:
        if origin_allowed(origin, host, allowed):
            return None
        return _l("cross-site request refused: a page of {page} may not change anything here "
                  "(the server's own pages and its --allow-origin origins may)", page=repr(origin[:100]))
    site = headers.get("sec-fetch-site")
    if site in ("cross-site", "same-site"):
        return _l("cross-site request refused: it comes from another site's page (Sec-Fetch-Site: {site})",
                  site=site)
    referer = headers.get("referer")
    page = _origin_of(referer) if referer is not None else None
    if page is not None and not origin_allowed(page, host, allowed):
        return _l("cross-site request refused: a page of {page} may not change anything here "
                  "(the server's own pages and its --allow-origin origins may)", page=repr(page[:100]))
    return None


def policy(host: str = "") -> str:
    """The pages' Content-Security-Policy for a request to ``host`` (its Host header)."""
    sockets = f" ws://{host} wss://{host}" if _HOST.fullmatch(host) else ""
    return POLICY.format(sockets=sockets)


def docs_policy(body: bytes) -> str:
    """The OpenAPI page's policy: its inline scripts allowed by their SHA-256, nothing else inline."""
    hashes = "".join(" 'sha256-" + base64.b64encode(hashlib.sha256(s).digest()).decode() + "'"
                     for s in _INLINE_SCRIPT.findall(body))
    return DOCS_POLICY.format(scripts=hashes)


def secure(response: _R) -> _R:
    """``response`` with the security headers (for an answer sent outside :class:`Guard`)."""
    response.headers.setdefault("Content-Security-Policy", policy())
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class Guard:
    """ASGI middleware: cross-site state changes refused (403), security headers on every answer.

    ``allowed``: the origins whose pages may act (normalized as
    :func:`sushigo.server.app.normalize_origin` does); ``docs``: the path of
    FastAPI's OpenAPI page, which gets :data:`DOCS_POLICY` (None: no such page).
    WebSockets pass untouched: their handshake checks the same rule itself.
    """

    def __init__(self, app: ASGIApp, allowed: frozenset[str] = frozenset(), docs: str | None = None) -> None:
        self.app = app
        self.allowed = allowed
        self.docs = docs

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        csp = policy(headers.get("host", ""))
        if scope["method"] in UNSAFE_METHODS:
            why = cross_site(headers, self.allowed)
            if why is not None:
                refusal = JSONResponse({"error": localized(why)}, status_code=403,
                                       headers={"Content-Security-Policy": csp, **HEADERS})
                await refusal(scope, receive, send)
                return
        if self.docs is not None and (scope["path"] == self.docs or scope["path"].startswith(self.docs + "/")):
            await self._docs(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                out.setdefault("Content-Security-Policy", csp)
                for name, value in HEADERS.items():
                    out.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_secured)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The OpenAPI page, held until its whole body is here (a few KB) so its scripts can be hashed."""
        start: Message | None = None
        body: list[bytes] = []

        async def hold(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            out = MutableHeaders(scope=start)
            out["Content-Security-Policy"] = docs_policy(b"".join(body))
            for name, value in HEADERS.items():
                out.setdefault(name, value)
            await send(start)
            await send({"type": "http.response.body", "body": b"".join(body), "more_body": False})

        await self.app(scope, receive, hold)


__all__ = ["DOCS_POLICY", "HEADERS", "POLICY", "UNSAFE_METHODS", "Guard", "cross_site", "docs_policy",
           "origin_allowed", "policy", "secure"]
