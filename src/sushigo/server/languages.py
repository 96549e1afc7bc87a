"""The reader's language, for every request and socket: the ``lang`` cookie of the pages'
language switch, else the browser's ``Accept-Language``, else English.

:class:`Language` (a middleware) sets it for whatever answers the request
(:func:`sushigo.i18n.use`), so the server's one-line errors and messages,
written ``_("...")``, come in the reader's language; a program that sends
neither header (a bot) reads English.

>>> reader_language("theme=dark; lang=fr", "de"), reader_language(None, "ja-JP,en;q=0.5"), reader_language("", "")
('fr', 'ja', 'en')
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from sushigo.i18n import DEFAULT, LANGUAGES, from_accept_language, use

LANGUAGE_COOKIE: Final = "lang"
"""The cookie the pages' language switch sets (a code of :data:`sushigo.i18n.LANGUAGES`)."""


def reader_language(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request with these ``Cookie`` and ``Accept-Language`` headers."""
    if cookie:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(cookie)
        except CookieError:
            jar = SimpleCookie()
        chosen = jar.get(LANGUAGE_COOKIE)
        if chosen is not None and chosen.value in LANGUAGES:
            return chosen.value
    return from_accept_language(accept_language) or DEFAULT


def scope_language(scope: Scope) -> str:
    """The language of an HTTP request's or a socket's scope."""
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())
               if k in (b"cookie", b"accept-language")}
    return reader_language(headers.get("cookie"), headers.get("accept-language"))


class Language:
    """Sets the reader's language for each request and socket (an ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            use(scope_language(scope))
        await self.app(scope, receive, send)


__all__ = ["LANGUAGE_COOKIE", "Language", "reader_language", "scope_language"]
