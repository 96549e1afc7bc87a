"""What a route is given: the app's :class:`Site` (its service, limits and
counters), the asker's address, and the ``?seat=N`` of a request."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Annotated, Final

from fastapi import Depends
from starlette.requests import HTTPConnection

from sushigo.i18n import _l
from sushigo.server.accounts import Accounts, Bots
from sushigo.server.bot_events import BotEvents
from sushigo.server.matchmaking import Challenges, PlayNow
from sushigo.server.push import Push
from sushigo.server.replays import Charge, ReplayService
from sushigo.server.replies import Bucket, PerHour
from sushigo.server.routes.errors import Refused
from sushigo.server.store import Store
from sushigo.server.tables import TableService

SHEETS_PER_HOUR: Final = 60
"""Sheets one address may create per hour."""


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
    places_per_hour: int = 120
    """Places in play now's queue one address may take per hour."""
    bot_rate: float = 20.0
    """Calls a second one API token may make to the bot API (token bucket refill)."""
    bot_burst: int = 60
    """The bot API's token bucket size, per API token."""
    bot_streams: int = 8
    """Streams (events and games together) one API token holds open at once."""


@dataclass
class Site:
    """Everything the routes share, kept on ``app.state.site``: the table
    service, the store, the limits, the accounts and the counters behind them."""

    service: TableService
    store: Store
    limits: Limits
    allowed: frozenset[str]
    """The origins whose pages may act here (normalized, see :func:`sushigo.server.app.normalize_origin`)."""
    accounts: Accounts
    """The players' accounts (docs/server.md, "Accounts")."""
    bots: Bots
    """Bot accounts and their API tokens (docs/bot-api.md)."""
    play: PlayNow
    """Play now's queue (docs/server.md, "Play now")."""
    push: Push
    """The devices' notifications (docs/server.md, "Notifications")."""
    challenges: Challenges
    """Challenges to bot accounts (docs/bot-api.md, "Challenges")."""
    replays: ReplayService = field(init=False)
    tables_made: PerHour = field(init=False)
    """Tables created, per address."""
    uploads: PerHour = field(init=False)
    """Records uploaded to the replay viewer, per address."""
    documents: PerHour = field(init=False)
    """Replay documents computed, per address (a minute's window)."""
    invites: PerHour = field(init=False)
    """New invites made, per table."""
    sheets_made: PerHour = field(init=False)
    """Score sheets kept, per address."""
    sockets: defaultdict[str, int] = field(init=False)
    """Open table sockets, per address."""
    places: PerHour = field(init=False)
    """Places taken in play now's queue, per address."""
    bot_calls: dict[bytes, Bucket] = field(init=False)
    """The bot API's token buckets, per API token (its hash)."""
    bot_streams: defaultdict[bytes, int] = field(init=False)
    """Open bot API streams, per API token (its hash)."""
    bot_events: BotEvents = field(init=False)
    """The bot API's event streams of this process (one look at the database a second for all)."""

    def __post_init__(self) -> None:
        limits = self.limits
        self.replays = ReplayService(self.service, self.store)
        self.tables_made = PerHour(limits.tables_per_hour)
        self.uploads = PerHour(limits.uploads_per_hour)
        self.documents = PerHour(limits.replays_per_minute, window=60.0)
        self.invites = PerHour(limits.invites_per_hour)
        self.sheets_made = PerHour(SHEETS_PER_HOUR)
        self.sockets = defaultdict(int)
        self.places = PerHour(limits.places_per_hour)
        self.bot_calls = {}
        self.bot_streams = defaultdict(int)
        self.bot_events = BotEvents(self.challenges, self.bots, self.play)

    def charge(self, address: str) -> Charge:
        """Counts a replay document computed for ``address`` (one kept from before is not)."""
        return lambda: self.documents.take(address) is not None


async def site(conn: HTTPConnection) -> Site:
    """The app's :class:`Site` (a dependency of every route that needs it)."""
    found = conn.app.state.site
    assert isinstance(found, Site)
    return found


async def address(conn: HTTPConnection) -> str:
    """The asker's IP address (``?`` when the server does not know it)."""
    return conn.client.host if conn.client is not None else "?"


SiteOf = Annotated[Site, Depends(site)]
AddressOf = Annotated[str, Depends(address)]

SAY_WHICH_SEAT: Final = _l("say which seat: ?seat=N (POST: {\"seat\": N}), from 0")


async def viewer(seat: str | None = None) -> int | None:
    """A replay's ``?seat=N``: a seat number, ASCII digits (absent or empty: the spectator's view)."""
    if seat is None or seat == "":
        return None
    if not (seat.isascii() and seat.isdigit()) or len(seat) > 3:
        raise Refused(400, _l("?seat=N is a seat number, from 0 (leave it out for the spectator's view)"))
    return int(seat)


async def analysed_seat(seat: str | None = None) -> int:
    """A table analysis's ``?seat=N`` (Python's integer syntax, as it always took)."""
    try:
        return int(seat) if seat is not None else _no_seat()
    except ValueError:
        return _no_seat()


async def analysed_upload_seat(seat: str | None = None) -> int:
    """An uploaded record's analysis ``?seat=N``: ASCII digits, like a replay's, and required."""
    if seat is None or seat == "" or not (seat.isascii() and seat.isdigit()) or len(seat) > 3:
        return _no_seat()
    return int(seat)


def _no_seat() -> int:
    raise Refused(400, SAY_WHICH_SEAT)


__all__ = ["SAY_WHICH_SEAT", "SHEETS_PER_HOUR", "AddressOf", "Limits", "Site", "SiteOf", "address",
           "analysed_seat", "analysed_upload_seat", "site", "viewer"]
