"""Notifications, ``/api/push/...`` (docs/server.md, "Notifications"): the
server's VAPID public key, and a signed-in account's devices turning Web Push
notifications on and off.  The sending is :class:`~sushigo.server.push.Push`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from sushigo.i18n import _l, current
from sushigo.server.accounts import Account
from sushigo.server.routes.accounts import COOKIE, JsonOnly
from sushigo.server.routes.bodies import EndpointBody, SubscriptionBody, documented
from sushigo.server.routes.deps import Site, SiteOf
from sushigo.server.routes.errors import Refused

router = APIRouter()


async def _account(request: Request, site: Site) -> Account:
    account = await site.accounts.account_of(request.cookies.get(COOKIE))
    if account is None:
        raise Refused(401, _l("sign in to get notifications (they go to your account's devices)"))
    return account


@router.get("/api/push/key", response_model=None)
async def key(site: SiteOf) -> dict[str, Any]:
    """The server's VAPID public key: a page's ``applicationServerKey``."""
    return {"key": site.push.public_key}


@router.post("/api/push/subscribe", status_code=201, response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(SubscriptionBody))
async def subscribe(body: Annotated[SubscriptionBody, Depends(SubscriptionBody.read)], request: Request,
                    site: SiteOf) -> dict[str, Any]:
    """This device gets the account's notifications (the body is its browser's push subscription)."""
    account = await _account(request, site)
    await site.push.subscribe(account.id, {"endpoint": body.endpoint, "keys": body.keys}, current().lang)
    devices, _ = await site.push.devices(account.id)
    return {"on": True, "devices": devices}


@router.post("/api/push/unsubscribe", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(EndpointBody))
async def unsubscribe(body: Annotated[EndpointBody, Depends(EndpointBody.read)], request: Request,
                      site: SiteOf) -> dict[str, Any]:
    """This device (``endpoint``), or every device of the account (``null``), gets no more notifications."""
    account = await _account(request, site)
    removed = await site.push.unsubscribe(account.id, body.endpoint)
    devices, _ = await site.push.devices(account.id)
    return {"on": False, "removed": removed, "devices": devices}


@router.post("/api/push/status", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(EndpointBody))
async def status(body: Annotated[EndpointBody, Depends(EndpointBody.read)], request: Request,
                 site: SiteOf) -> dict[str, Any]:
    """Whether this device (``endpoint``) gets the account's notifications, and how many devices do."""
    account = await _account(request, site)
    devices, here = await site.push.devices(account.id, body.endpoint)
    return {"on": here, "devices": devices}


__all__ = ["router"]
