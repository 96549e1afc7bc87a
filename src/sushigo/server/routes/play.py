"""Play now, ``/api/play/...`` (docs/server.md, "Play now"): take a place in the
queue, ask how it goes, confirm a match, leave.  A place is its ticket's: the
join answers the ticket once, and every other route takes it in its JSON body
(never in a URL, which logs and histories keep); a signed-in
player may name no ticket: their account's place (so a notification opens the
lobby on any of their devices and it confirms).  The queue itself is
:class:`~sushigo.server.matchmaking.PlayNow`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.i18n import _l, _ln, localized, message_of
from sushigo.server.matchmaking import CONFIRM_SECONDS, Joining
from sushigo.server.matchmaking.queue import BOT_WAITS, SIZES
from sushigo.server.protocol import ProtocolError, clean_name
from sushigo.server.routes.accounts import COOKIE, JsonOnly
from sushigo.server.routes.bodies import JoinBody, TicketBody, documented
from sushigo.server.routes.deps import AddressOf, Site, SiteOf
from sushigo.server.routes.errors import Refused

router = APIRouter()


Ticket = Annotated[TicketBody, Depends(TicketBody.read)]


async def _account_of(request: Request, site: Site, body: TicketBody) -> str | None:
    """The signed-in account, asked only when the body names no ticket (its place is the account's)."""
    if body.ticket is not None:
        return None
    account = await site.accounts.account_of(request.cookies.get(COOKIE))
    return None if account is None else account.id


@router.get("/api/play", response_model=None)
async def queue(site: SiteOf) -> dict[str, Any]:
    """How many wait in each edition's queue, and what a place may ask for."""
    return {"waiting": await site.play.counts(), "sizes": SIZES, "bot_waits": list(BOT_WAITS),
            "menus": list(OFFICIAL_MENUS), "confirm_seconds": CONFIRM_SECONDS}


@router.post("/api/play/join", status_code=201, response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(JoinBody))
async def join(body: Annotated[JoinBody, Depends(JoinBody.read)], request: Request, site: SiteOf,
               addr: AddressOf) -> dict[str, Any]:
    """A place in the queue: its ticket (shown this once) and its status."""
    account = await site.accounts.account_of(request.cookies.get(COOKIE))
    try:
        name = clean_name(body.name) if account is None and body.name is not None else None
    except ProtocolError as e:
        raise Refused(400, _l("name: {why}", why=localized(message_of(e)))) from None
    stamp = site.places.take(addr)  # before the await: concurrent requests count too
    if stamp is None:
        raise Refused(429, _ln("this address took {n} place in the queue in the last hour; try later",
                               "this address took {n} places in the queue in the last hour; try later",
                               site.limits.places_per_hour))
    joining = Joining(edition=body.edition, menu=body.menu, sizes=tuple(body.sizes), bots_after=float(body.bots_after),
                      rated=body.rated, push=body.push)
    try:
        ticket, status = await site.play.join(joining, account=account, name=name, address=addr)
    except Exception:
        site.places.give_back(addr, stamp)
        raise
    return {"ticket": ticket, **status}


@router.post("/api/play/status", response_model=None, dependencies=[JsonOnly], openapi_extra=documented(TicketBody))
async def status(body: Ticket, request: Request, site: SiteOf) -> dict[str, Any]:
    """The place's status; a page asks about once a second (a place nobody asks about leaves the queue)."""
    return await site.play.status(body.ticket, account=await _account_of(request, site, body), push=body.push)


@router.post("/api/play/confirm", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(TicketBody))
async def confirm(body: Ticket, request: Request, site: SiteOf) -> dict[str, Any]:
    """Confirm the place's match; once everyone has, the answer (or the next status) has the seat's invite."""
    return await site.play.confirm(body.ticket, account=await _account_of(request, site, body))


@router.post("/api/play/leave", response_model=None, dependencies=[JsonOnly], openapi_extra=documented(TicketBody))
async def leave(body: Ticket, request: Request, site: SiteOf) -> dict[str, Any]:
    """Leave the queue (a match the place was in goes back to waiting, the others keeping their places)."""
    await site.play.leave(body.ticket, account=await _account_of(request, site, body))
    return {"state": "gone"}


__all__ = ["router"]
