"""The one error answer of every route: ``{"error": "one line"}`` and a status
(``docs/server.md``, "HTTP").

A route refuses a request by raising :class:`Refused` (or letting a
:class:`~sushigo.server.tables.TableError` out, answered with its status from
:data:`TABLE_ERROR_STATUS`); :func:`sushigo.server.app.create_app` installs the
handlers below, which turn those, FastAPI's own errors (unknown routes and
methods, a query value of the wrong type) and a server bug into that answer.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request

from sushigo.i18n import _l, localized, message_of
from sushigo.server.guard import secure
from sushigo.server.replies import Refusal, fail
from sushigo.server.tables import TableError

TABLE_ERROR_STATUS: Final[dict[str, int]] = {
    "bad_request": 400, "not_creator": 403, "no_table": 404, "not_waiting": 409, "wrong_process": 409,
    "game_over": 409, "not_finished": 409, "rate_limited": 429, "busy": 503,
}
"""The HTTP status of a :class:`TableError` a route answers with (others: 503)."""


class Refused(Exception):
    """A request a route refuses: the answer is :func:`~sushigo.server.replies.fail`'s
    (``status``, the one-line ``message``, and ``extra`` keys)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(status, message)
        self.answer = fail(status, message, **extra)

    @classmethod
    def by(cls, answer: JSONResponse) -> Refused:
        """The refusal answered with ``answer``, a :func:`~sushigo.server.replies.fail` answer
        made elsewhere (:func:`~sushigo.server.replies.read_body`'s 413)."""
        refused = cls(answer.status_code, "")
        refused.answer = answer
        return refused


def table_failed(e: TableError) -> JSONResponse:
    """The error answer for a :class:`TableError` (its one-line message, its status)."""
    return fail(TABLE_ERROR_STATUS.get(e.code, 503), message_of(e))


async def refused(request: Request, exc: Refused) -> JSONResponse:
    return exc.answer


async def table_error(request: Request, exc: TableError) -> JSONResponse:
    if request.scope["type"] != "http":  # a socket answers in frames (routes/socket.py)
        raise exc
    return table_failed(exc)


async def service_error(request: Request, exc: Refusal) -> JSONResponse:
    """A request a service refused (an account's, the queue's, the notifications'): its status
    and line (``Retry-After`` when a limit refused it)."""
    answer = fail(exc.status, exc.message)
    if exc.retry_after is not None:
        answer.headers["Retry-After"] = str(exc.retry_after)
    return answer


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """Every error answer has the one documented shape, ``{"error": "one line"}``."""
    path = " ".join(request.url.path[:100].split())
    message = _l("no such page or route: {path}", path=path) if exc.status_code == 404 else \
        _l("{method} is not allowed on {path}", method=request.method[:10], path=path) if exc.status_code == 405 else \
        str(exc.detail)  # another status's detail, as Starlette or a route gave it
    return JSONResponse({"error": localized(message)}, status_code=exc.status_code, headers=exc.headers)


async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A query or path value FastAPI could not read: where, and why, in one line."""
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ())) or "request"
    return fail(400, _l("{where}: {why}", where=where, why=" ".join(str(first.get("msg", "invalid")).split())))


async def internal_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug of the server's: the answer keeps the shape (the log has the traceback)."""
    return secure(fail(500, _l("internal server error")))  # sent outside Guard


__all__ = ["TABLE_ERROR_STATUS", "Refused", "bad_request", "http_error", "internal_error", "refused", "service_error",
           "table_error", "table_failed"]
