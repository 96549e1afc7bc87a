"""The bot API's event streams of one server process (docs/bot-api.md, "The event
stream"), fed by one look at the database a second for all of them.

A stream :meth:`BotEvents.follow` s its bot account; while any stream is open, one
task looks about once a second (and at once when a stream opens): which of their
tokens still open their accounts (:meth:`~sushigo.server.accounts.Bots.opening`),
and what the challenges and tables of all those accounts are
(:meth:`~sushigo.server.matchmaking.Challenges.look`), each stream then taking its
own news from it (:func:`~sushigo.server.matchmaking.challenges.news`).  Every
:data:`KEEP` seconds it keeps the followed bots' places in play now.  The cost of
an idle bot is a share of those few queries, not queries of its own
(``benchmarks/bot_streams.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Final

from sushigo.i18n import _l
from sushigo.server.accounts import Account, Bots
from sushigo.server.bot_stream import put_or_end
from sushigo.server.matchmaking import Challenges, PlayNow
from sushigo.server.matchmaking.challenges import news
from sushigo.server.store import one_line
from sushigo.server.tables.model import log

POLL: Final = 1.0
"""Seconds between two looks at the database (challenges and tables of every process)."""
KEEP: Final = 10.0
"""Seconds between two keepings of the followed bots' places in play now."""

OUTBOX: Final = 64
"""Batches a stream holds for a client that does not read; past it the stream ends (it may reconnect)."""

Batch = list[dict[str, Any]] | str
"""What a stream is handed: events to tell, or why it ends (its last line, ``closed``)."""
REVOKED: Final = _l("the token was revoked")
UNREAD: Final = _l("the stream was not read")


@dataclass(eq=False)
class Follower:
    """One open event stream: its bot account, its token's hash, what it has told."""

    account: Account
    digest: bytes
    told: dict[str, str] = field(default_factory=dict)
    batches: asyncio.Queue[Batch] = field(default_factory=lambda: asyncio.Queue(OUTBOX))

    def hand(self, batch: Batch) -> bool:
        """Give the stream ``batch``; whether it goes on (not if it ends, or its client does not read)."""
        return put_or_end(self.batches, batch, UNREAD) and not isinstance(batch, str)


class BotEvents:
    """Every open event stream of this process (one look at the database a second for all)."""

    def __init__(self, challenges: Challenges, bots: Bots, play: PlayNow, *, poll: float = POLL) -> None:
        self.challenges = challenges
        self.bots = bots
        self.play = play
        self.poll = poll
        self.followers: set[Follower] = set()
        self._task: asyncio.Task[None] | None = None
        self._now = asyncio.Event()  # look at once (a stream opened)
        self._kept = 0.0

    @contextlib.asynccontextmanager
    async def follow(self, account: Account, digest: bytes) -> AsyncIterator[Follower]:
        """A stream of ``account``'s events while the block runs (its batches in ``batches``)."""
        follower = Follower(account, digest)
        self.followers.add(follower)
        self._now.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._looking())
        try:
            yield follower
        finally:
            self.followers.discard(follower)

    async def stop(self) -> None:
        """Stop looking (the server stops; its streams end with it)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _looking(self) -> None:
        while self.followers:
            try:
                self._now.clear()
                await self._look(list(self.followers))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._now.wait(), self.poll)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database is away: say nothing this time, look again
                log.error("bot event streams: a look at the database failed: %s", one_line(e))
                await asyncio.sleep(self.poll)

    async def _look(self, followers: list[Follower]) -> None:
        accounts = {f.account.id for f in followers}
        told = {k for f in followers for k in f.told}

        def run() -> tuple[set[bytes], Any]:
            if time.monotonic() - self._kept >= KEEP:  # an open event stream keeps the bot's place in play now
                self._kept = time.monotonic()
                self.play.still_here(accounts)
            return self.bots.opening({f.digest for f in followers}), self.challenges.look(accounts, told)

        opening, look = await asyncio.to_thread(run)
        for f in followers:
            if f not in self.followers:
                continue  # it closed meanwhile
            if f.digest not in opening:
                going = f.hand(REVOKED)
            else:
                try:
                    events = news(look, f.account, f.told)
                except Exception:  # a row it cannot read: this stream says nothing this time, the others do
                    log.exception("bot event streams: the news of %s could not be read", f.account.name)
                    continue
                going = f.hand(events) if events else True
            if not going:
                self.followers.discard(f)  # it ends: nothing more is looked up for it


__all__ = ["KEEP", "OUTBOX", "POLL", "REVOKED", "UNREAD", "BotEvents", "Follower"]
