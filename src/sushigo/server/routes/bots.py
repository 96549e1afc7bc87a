"""Bot accounts, ``/api/account/bot`` and ``/api/account/tokens`` (the owner, signed in),
and the bot API's ``/api/bot/...`` (the bot, with ``Authorization: Bearer TOKEN``;
docs/bot-api.md).  :class:`~sushigo.server.accounts.Bots` checks and keeps."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from sushigo.server.accounts import Account
from sushigo.server.routes.accounts import COOKIE, JsonOnly
from sushigo.server.routes.bodies import NewToken, PasswordBody, TokenId, documented
from sushigo.server.routes.deps import AddressOf, SiteOf
from sushigo.server.routes.errors import Refused

router = APIRouter()


async def bot_account(request: Request, site: SiteOf) -> Account:
    """The bot account whose API token the request carries (``Authorization: Bearer TOKEN``), or 401."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    bot = await site.bots.bot_of(token.strip()) if scheme.lower() == "bearer" else None
    if bot is None:
        raise Refused(401, "send a bot account's API token: Authorization: Bearer TOKEN (a revoked one opens nothing)")
    return bot


BotAccount = Annotated[Account, Depends(bot_account)]


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
        raise Refused(404, "your account has no token with this id")
    return {"revoked": body.id}


@router.get("/api/bot/account", response_model=None)
async def bot_itself(bot: BotAccount) -> dict[str, Any]:
    """The bot account the token opens."""
    return {"account": bot.to_json()}


__all__ = ["BotAccount", "bot_account", "router"]
