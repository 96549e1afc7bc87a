"""Bot accounts, ``/api/account/bot`` and ``/api/account/tokens`` (the owner, signed in),
and the bot API's ``/api/bot/...`` (the bot, with ``Authorization: Bearer TOKEN``;
docs/bot-api.md).  :class:`~sushigo.server.accounts.Bots` checks and keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from sushigo.i18n import _l
from sushigo.server.accounts import Account
from sushigo.server.accounts.credentials import secret_hash
from sushigo.server.replies import Bucket
from sushigo.server.routes.accounts import COOKIE, JsonOnly
from sushigo.server.routes.bodies import NewToken, PasswordBody, TokenId, documented
from sushigo.server.routes.deps import AddressOf, SiteOf
from sushigo.server.routes.errors import Refused

router = APIRouter()


@dataclass(frozen=True)
class BotCall:
    """A call of the bot API: the bot account its token opens, and the token's hash (its limits' key)."""

    account: Account
    key: bytes


async def bot_call(request: Request, site: SiteOf) -> BotCall:
    """The bot account whose API token the request carries (``Authorization: Bearer TOKEN``), or 401;
    429 past the token's calls a second (:attr:`~sushigo.server.routes.deps.Limits.bot_rate`)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    bot = await site.bots.bot_of(token) if scheme.lower() == "bearer" else None
    if bot is None:
        raise Refused(401, _l("send a bot account's API token: Authorization: Bearer TOKEN "
                              "(a revoked one opens nothing)"))
    key = secret_hash(token)
    bucket = site.bot_calls.get(key)
    if bucket is None:
        bucket = site.bot_calls[key] = Bucket(site.limits.bot_rate, site.limits.bot_burst)
    if not bucket.take():
        raise Refused(429, _l("more than {rate} calls a second with this token (bursts of {burst}): slow down",
                              rate=f"{site.limits.bot_rate:g}", burst=str(site.limits.bot_burst)))
    return BotCall(bot, key)


BotCallOf = Annotated[BotCall, Depends(bot_call)]


def _secret(request: Request) -> str | None:
    return request.cookies.get(COOKIE)


@router.post("/api/account/bot", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(PasswordBody))
async def make_bot(body: Annotated[PasswordBody, Depends(PasswordBody.read)], request: Request, site: SiteOf,
                   addr: AddressOf) -> dict[str, Any]:
    """Make the signed-in account a bot account (one that has not played yet; the password proves the owner)."""
    account = await site.bots.make_bot(_secret(request), body.password, addr)
    return {"account": account.to_json()}


@router.get("/api/account/tokens", response_model=None)
async def tokens(request: Request, site: SiteOf) -> dict[str, Any]:
    """The signed-in account's API tokens (their ids, labels and dates; never a token)."""
    return {"tokens": await site.bots.tokens(_secret(request))}


@router.post("/api/account/tokens", status_code=201, response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(NewToken))
async def new_token(body: Annotated[NewToken, Depends(NewToken.read)], request: Request, site: SiteOf,
                    addr: AddressOf) -> dict[str, Any]:
    """A new API token of the signed-in bot account, shown this once."""
    return await site.bots.new_token(_secret(request), body.password, body.label, addr)


@router.post("/api/account/tokens/revoke", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(TokenId))
async def revoke(body: Annotated[TokenId, Depends(TokenId.read)], request: Request, site: SiteOf) -> dict[str, Any]:
    """Revoke one of the signed-in account's tokens (it opens nothing from now on)."""
    if not await site.bots.revoke(_secret(request), body.id):
        raise Refused(404, _l("your account has no token with this id"))
    return {"revoked": body.id}


@router.get("/api/bot/account", response_model=None)
async def bot_itself(call: BotCallOf) -> dict[str, Any]:
    """The bot account the token opens."""
    return {"account": call.account.to_json()}


__all__ = ["BotCall", "BotCallOf", "bot_call", "router"]
