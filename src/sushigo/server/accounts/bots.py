"""Bot accounts and their API tokens (docs/bot-api.md, "Bot accounts").

An account that has not played yet may become a **bot account**: a program
plays it, and it is marked as a bot wherever its name shows.  A bot account
has API tokens (at most :data:`MAX_TOKENS`): each is 32 random bytes shown
once, kept as its SHA-256, named by a public id and a label, and revoked by
its owner (signed in) at any time; a revoked token opens nothing from the
next request on.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Collection
from typing import Any, Final

from sqlalchemy import delete, func, select, update

from sushigo.i18n import _l, _ln
from sushigo.server.ratings import player_of
from sushigo.server.schema import accounts_t, api_tokens_t, queue_t, ratings_t, seats_t

from .credentials import secret_hash
from .service import Account, AccountError, Accounts

TOKEN_PREFIX: Final = "sgb_"
"""Every API token starts with it (a secret scanner can find one that leaked)."""
MAX_TOKENS: Final = 5
"""API tokens one bot account holds at once."""
USED_EVERY: Final = 60.0
"""Seconds between two updates of a token's "last used" stamp."""


class Bots:
    """Making bot accounts and their tokens, over :class:`~.service.Accounts`."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = accounts.store

    async def make_bot(self, secret: str | None, password: object, address: str) -> Account:
        """Make the signed-in account a bot account (its password proves the owner asks); only an
        account that has not played (no seat, no rating, no place in the queue) may."""
        account = await self.accounts.owner(secret, password, address)
        if account.bot:
            raise AccountError(409, _l("this account is a bot account already"))
        if not await self.accounts._write(self._make_bot, account.id):
            raise AccountError(409, _l("an account that has played cannot become a bot: make a new account for "
                                       "your bot"))
        return Account(account.id, account.name, account.created, True)

    def _make_bot(self, account_id: str) -> bool:
        with self.store.transaction() as conn:
            for table, column, who in ((seats_t, seats_t.c.account_id, account_id),
                                       (queue_t, queue_t.c.account_id, account_id),
                                       (ratings_t, ratings_t.c.player, player_of("account", account_id))):
                if conn.execute(select(func.count()).select_from(table).where(column == who)).scalar():
                    return False
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(bot=1))
        return True

    async def new_token(self, secret: str | None, password: object, label: object, address: str) -> dict[str, Any]:
        """A new API token of the signed-in bot account: ``{"id", "token", "label", "created"}``, the
        token shown this once."""
        if not isinstance(label, str) or not 1 <= len(label.strip()) <= 60:
            raise AccountError(400, _l("label: 1 to 60 characters, to tell your tokens apart"))
        account = await self.accounts.owner(secret, password, address)
        if not account.bot:
            raise AccountError(403, _l("only a bot account has API tokens: make this account a bot first"))
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = {"id": secrets.token_urlsafe(9), "token_hash": secret_hash(token), "account_id": account.id,
               "label": label.strip(), "created": time.time(), "used": None}
        if not await self.accounts._write(self._insert_token, row):
            raise AccountError(409, _ln("a bot account holds {n} token at most: revoke one first",
                                        "a bot account holds {n} tokens at most: revoke one first", MAX_TOKENS))
        return {"id": row["id"], "token": token, "label": row["label"], "created": row["created"]}

    def _insert_token(self, row: dict[str, Any]) -> bool:
        t = api_tokens_t
        with self.store.transaction() as conn:
            # the account's row locked first (PostgreSQL): two requests at once take turns counting
            conn.execute(select(accounts_t.c.id).where(accounts_t.c.id == row["account_id"]).with_for_update())
            held = conn.execute(select(func.count()).select_from(t).where(t.c.account_id == row["account_id"]))
            if (held.scalar() or 0) >= MAX_TOKENS:
                return False
            conn.execute(t.insert().values(**row))
        return True

    async def tokens(self, secret: str | None) -> list[dict[str, Any]]:
        """The signed-in account's tokens: ``[{"id", "label", "created", "used"}]`` (never a token)."""
        account = await self.accounts.signed_in(secret)

        def read() -> list[dict[str, Any]]:
            t = api_tokens_t
            with self.store.reading() as conn:
                return [{"id": r.id, "label": r.label, "created": r.created, "used": r.used}
                        for r in conn.execute(select(t).where(t.c.account_id == account.id).order_by(t.c.created))]
        return await self.accounts._read(read)

    async def revoke(self, secret: str | None, token_id: str) -> bool:
        """Revoke one of the signed-in account's tokens; whether it had it."""
        account = await self.accounts.signed_in(secret)

        def run() -> bool:
            t = api_tokens_t
            with self.store.transaction() as conn:
                gone = conn.execute(delete(t).where(t.c.id == token_id, t.c.account_id == account.id)).rowcount
            return bool(gone)
        return await self.accounts._write(run)

    async def bot_of(self, token: str | None) -> Account | None:
        """The bot account an API token opens (``None``: no token, a wrong or revoked one)."""
        if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        return await self.accounts._read(self._bot_of, secret_hash(token))

    async def still_opens(self, digest: bytes) -> bool:
        """Whether the token whose SHA-256 is ``digest`` still opens its bot account (not revoked,
        the account not deleted): an open stream asks before it tells the bot anything more."""
        return await self.accounts._read(self._bot_of, digest) is not None

    def opening(self, digests: Collection[bytes]) -> set[bytes]:
        """Which of the tokens whose SHA-256 are ``digests`` still open their bot accounts (one
        query for every open event stream of a process; :meth:`still_opens` for one)."""
        t, a = api_tokens_t, accounts_t
        with self.store.reading() as conn:
            return {bytes(r.token_hash) for r in conn.execute(
                select(t.c.token_hash).join(a, a.c.id == t.c.account_id).where(
                    t.c.token_hash.in_(list(digests)), a.c.bot == 1))}

    def _bot_of(self, digest: bytes) -> Account | None:
        t, a = api_tokens_t, accounts_t
        with self.store.reading() as conn:
            r = conn.execute(select(a.c.id, a.c.name, a.c.created, a.c.bot, t.c.id.label("token_id"), t.c.used)
                             .join(a, a.c.id == t.c.account_id).where(t.c.token_hash == digest)).first()
        if r is None or not r.bot:
            return None
        now = time.time()
        if r.used is None or now - r.used > USED_EVERY:
            with self.store.transaction() as conn:
                conn.execute(update(t).where(t.c.id == r.token_id).values(used=now))
        return Account(r.id, r.name, r.created, True)


__all__ = ["MAX_TOKENS", "TOKEN_PREFIX", "Bots"]
