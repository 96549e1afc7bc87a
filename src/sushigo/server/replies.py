"""What every HTTP route of the server shares: the one error shape, and
reading a request body under a size limit (docs/server.md, "HTTP")."""

from __future__ import annotations

import time
from collections import defaultdict, deque
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from sushigo.i18n import _l, localized


class Refusal(Exception):
    """A request a service refuses, whatever route asked: an HTTP ``status``, a one-line
    ``message`` and, when a rate limit refused it, ``retry_after`` seconds (the app answers
    it with :func:`fail`; the accounts', the queue's and the notifications' errors are these)."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def fail(status: int, message: str, **extra: Any) -> JSONResponse:
    """The documented error answer: ``{"error": "one line"}`` (plus ``extra`` keys)."""
    return JSONResponse({"error": localized(message), **extra}, status_code=status)


async def read_body(request: Request, limit: int) -> bytes | JSONResponse:
    """The request's body, or a 413 answer once it is longer than ``limit`` bytes
    (by its Content-Length, or while it streams in without one)."""
    length = request.headers.get("content-length")
    if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > limit):
        return _too_large(limit)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return _too_large(limit)
    return body


class PerHour:
    """At most ``limit`` requests an hour per address (a sliding window of the
    hour's stamps; ``window``: another length, in seconds)."""

    PRUNE_AT: int = 1024
    """Keys counted before the first sweep of those whose window has passed (then twice the keys left):
    a stream of new keys (names guessed, addresses) cannot grow the counts without end."""

    def __init__(self, limit: int, window: float = 3600.0) -> None:
        self.limit = limit
        self.window = window
        self.stamps: dict[str, deque[float]] = defaultdict(deque)
        self._prune_at = self.PRUNE_AT

    def take(self, addr: str) -> float | None:
        """Count one request of ``addr`` and return its stamp, or ``None`` when it is over the limit."""
        now = time.monotonic()
        if len(self.stamps) >= self._prune_at:
            self._prune(now)
        recent = self.stamps[addr]
        while recent and now - recent[0] > self.window:
            recent.popleft()
        if len(recent) >= self.limit:
            return None
        recent.append(now)
        return now

    def give_back(self, addr: str, stamp: float) -> None:
        """Uncount a request that was refused for what it said (it made nothing)."""
        recent = self.stamps.get(addr)
        if recent is not None and stamp in recent:
            recent.remove(stamp)

    def _prune(self, now: float) -> None:
        for key in [k for k, q in self.stamps.items() if not q or now - q[-1] > self.window]:
            del self.stamps[key]
        self._prune_at = max(self.PRUNE_AT, 2 * len(self.stamps))


def _too_large(limit: int) -> JSONResponse:
    return fail(413, _l("the body is larger than {limit} bytes", limit=str(limit)))


class Bucket:
    """A token bucket: ``rate`` a second, bursts of ``burst``."""

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


__all__ = ["Bucket", "PerHour", "Refusal", "fail", "read_body"]
