"""The account routes, ``/api/account/...`` (docs/server.md, "Accounts").

A session is the ``sushigo_session`` cookie: HTTP-only (no script reads it),
``SameSite=Lax`` (another site's page does not send it with a request that
changes anything), ``Secure`` when the request came over HTTPS.  Every
route that changes something takes a JSON body only (a form of another site
cannot send one without a CORS preflight, which this server never grants),
and :class:`~sushigo.server.guard.Guard` refuses it from another site's page
before it gets here.  The service (:mod:`sushigo.server.accounts`) checks and
limits (its :class:`~sushigo.server.accounts.AccountError` is answered by
``routes/errors.py``); these only read bodies and cookies and answer.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request, Response

from sushigo.i18n import _l
from sushigo.server.accounts import SESSION_SECONDS, Account, SignedIn
from sushigo.server.routes.bodies import Credentials, NewPassword, PasswordBody, Recovery, documented
from sushigo.server.routes.deps import AddressOf, SiteOf
from sushigo.server.routes.errors import Refused
from sushigo.server.store import OPEN_STATUSES, StoreError

router = APIRouter()

COOKIE: Final = "sushigo_session"
"""The session cookie's name."""


async def json_only(request: Request) -> None:
    """Refuse (415) a body that is not ``application/json``: a plain form of
    another site's page can send any other type without asking first."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, _l("send the body as JSON (Content-Type: application/json)"))


JsonOnly = Depends(json_only)


def _signed_in(response: Response, request: Request, signed: SignedIn) -> None:
    response.set_cookie(COOKIE, signed.secret, max_age=int(SESSION_SECONDS), path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")


def _signed_out(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")


def _me(account: Account) -> dict[str, Any]:
    return {"account": account.to_json()}


@router.get("/api/account", response_model=None)
async def who(request: Request, site: SiteOf) -> dict[str, Any]:
    """The signed-in account (``{"account": null}``: a guest)."""
    account = await site.accounts.account_of(request.cookies.get(COOKIE))
    return {"account": None if account is None else account.to_json()}


@router.get("/api/account/tables", response_model=None)
async def my_tables(request: Request, site: SiteOf) -> dict[str, Any]:
    """The signed-in account's seats at tables still open (waiting or playing), newest first:
    ``{"tables": [{"table": summary, "seats": [n, ...]}]}``; each opens with ``#as=N``."""
    account = await site.accounts.signed_in(request.cookies.get(COOKIE))
    try:
        return {"tables": await site.service.tables_of_account(account.id, OPEN_STATUSES)}
    except StoreError as e:
        raise Refused(503, _l("the tables could not be read: {why}", why=str(e))) from None


@router.post("/api/account/signup", status_code=201, response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(Credentials))
async def sign_up(body: Annotated[Credentials, Depends(Credentials.read)], request: Request, response: Response,
                  site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    """Make an account and sign in; its recovery codes, shown this once."""
    signed, codes = await site.accounts.sign_up(body.name, body.password, addr)
    _signed_in(response, request, signed)
    return {**_me(signed.account), "recovery_codes": codes}


@router.post("/api/account/signin", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(Credentials))
async def sign_in(body: Annotated[Credentials, Depends(Credentials.read)], request: Request, response: Response,
                  site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    signed = await site.accounts.sign_in(body.name, body.password, addr)
    _signed_in(response, request, signed)
    return _me(signed.account)


@router.post("/api/account/signout", response_model=None)
async def sign_out(request: Request, response: Response, site: SiteOf) -> dict[str, Any]:
    """End this browser's session (a guest's answer is the same)."""
    await site.accounts.sign_out(request.cookies.get(COOKIE))
    _signed_out(response, request)
    return {"account": None}


@router.post("/api/account/password", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(NewPassword))
async def change_password(body: Annotated[NewPassword, Depends(NewPassword.read)], request: Request,
                          response: Response, site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    """A new password: every other session of the account ends."""
    signed = await site.accounts.change_password(request.cookies.get(COOKIE), body.password,
                                                 body.new_password, addr)
    _signed_in(response, request, signed)
    return _me(signed.account)


@router.post("/api/account/recover", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(Recovery))
async def recover(body: Annotated[Recovery, Depends(Recovery.read)], request: Request, response: Response,
                  site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    """Sign in with a recovery code (it is used up) and set a new password."""
    signed, left = await site.accounts.recover(body.name, body.code, body.new_password, addr)
    _signed_in(response, request, signed)
    return {**_me(signed.account), "recovery_codes_left": left}


@router.post("/api/account/codes", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(PasswordBody))
async def new_codes(body: Annotated[PasswordBody, Depends(PasswordBody.read)], request: Request,
                    site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    """New recovery codes in place of the old ones, shown this once."""
    codes = await site.accounts.new_codes(request.cookies.get(COOKIE), body.password, addr)
    return {"recovery_codes": codes}


@router.post("/api/account/delete", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(PasswordBody))
async def delete_account(body: Annotated[PasswordBody, Depends(PasswordBody.read)], request: Request,
                         response: Response, site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    """Delete the signed-in account; its name is free again."""
    gone = await site.accounts.delete(request.cookies.get(COOKIE), body.password, addr)
    site.service.forget_account(gone.id)  # its seats at the tables in memory are anonymous too
    _signed_out(response, request)
    return {"deleted": gone.name, "account": None}


__all__ = ["COOKIE", "router"]
