"""Accounts: signing up, in and out, sessions, recovery codes, a new password,
deleting an account (docs/server.md, "Accounts").

An account is optional: guests play as before.  A password is kept as an
Argon2id hash (argon2-cffi), hashed and checked on worker threads, a few at a
time; a session is a random secret in an HTTP-only cookie of which the
database keeps the SHA-256 only, so a stolen database signs nobody in.
Attempts to sign in (or to prove a password or a recovery code) are counted
per address and per account before the password is checked, so a burst of
parallel guesses is held to the limit too; an attempt that succeeds is not
counted.  A name that has no account costs the same time as a wrong password
(a hash is checked either way) and gets the same answer.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, ParamSpec, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from sushigo.engine.records import dumps as record_dumps
from sushigo.i18n import _l, _ln, message_of
from sushigo.server.ratings import player_of
from sushigo.server.replies import PerHour, Refusal
from sushigo.server.schema import accounts_t, ratings_t, recovery_codes_t, seats_t, sessions_t, tables_t
from sushigo.server.store import Store, StoreError

from .credentials import (
    DELETED_NAME,
    CredentialError,
    check_name,
    check_password,
    name_key,
    new_secret,
    normalize_code,
    recovery_codes,
    secret_hash,
)

P = ParamSpec("P")
T = TypeVar("T")

SESSION_SECONDS: Final = 30 * 86400.0
"""How long a session lasts since it was last used."""

SEEN_EVERY: Final = 3600.0
"""A session's last use is written at most this often (each use would be a write)."""

WRONG: Final = _l("wrong name or password")
"""The one answer to a failed sign-in: it does not say which of the two was wrong."""


class AccountError(Refusal):
    """A refused account request: an HTTP ``status`` and a one-line message
    (``retry_after``: seconds until a rate limit lets the asker try again)."""


@dataclass(frozen=True)
class Account:
    """A signed-up player, as the server shows it."""

    id: str
    name: str
    created: float
    bot: bool = False
    """A bot account: a program plays it, through the bot API (docs/bot-api.md)."""

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "created": self.created, "bot": self.bot}


@dataclass(frozen=True)
class SignedIn:
    """An account and the secret of the session just opened for it (the cookie's value)."""

    account: Account
    secret: str


@dataclass(frozen=True)
class AccountLimits:
    """The limits of docs/server.md, "Accounts"."""

    signups_per_hour: int = 10
    """Accounts one address may make per hour."""
    attempts_per_address: int = 30
    """Password or recovery-code attempts one address may make per ``attempt_window``."""
    attempts_per_account: int = 10
    """Password or recovery-code attempts on one account per ``attempt_window``, from anywhere."""
    attempt_window: float = 900.0
    hashing: int = 2
    """Passwords hashed or checked at once (each takes about 64 MiB and a tenth of a second)."""


class Accounts:
    """The accounts of one site, kept in ``store``'s database.

    ``hasher``: the Argon2 parameters (argon2-cffi's defaults, RFC 9106's
    low-memory choice, unless given; tests pass cheaper ones).  A hash made
    with other parameters is redone when its password next signs in.
    """

    def __init__(self, store: Store, *, hasher: PasswordHasher | None = None,
                 limits: AccountLimits | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.limits = limits = limits or AccountLimits()
        self.signups = PerHour(limits.signups_per_hour)
        self.by_address = PerHour(limits.attempts_per_address, window=limits.attempt_window)
        self.by_account = PerHour(limits.attempts_per_account, window=limits.attempt_window)
        self._hashing: asyncio.Semaphore | None = None
        self._decoy: str | None = None

    # ------------------------------------------------------------------ passwords

    async def _hash(self, password: str) -> str:
        async with self._slot():
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` hashes (``None``: no such
        account: a decoy hash is checked so that the answer takes as long)."""
        if stored is None:
            if self._decoy is None:
                self._decoy = await self._hash(secrets.token_urlsafe(16))
            stored = self._decoy
            password = ""  # never the decoy's

        def check() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

        async with self._slot():
            return await asyncio.to_thread(check) and stored is not self._decoy

    def _slot(self) -> asyncio.Semaphore:
        if self._hashing is None:  # made on the loop that uses it
            self._hashing = asyncio.Semaphore(self.limits.hashing)
        return self._hashing

    # ------------------------------------------------------------------ limits

    def _attempt(self, address: str, key: str) -> tuple[float, float]:
        """Count an attempt on the account ``key`` from ``address`` (before any
        await: concurrent attempts count too), or refuse it (429)."""
        window = self.limits.attempt_window
        at_address = self.by_address.take(address)
        if at_address is None:
            raise AccountError(429, _l("too many attempts from this address; try again within {minutes} minutes",
                                  minutes=f"{window / 60:g}"), retry_after=int(window))
        at_account = self.by_account.take(key)
        if at_account is None:
            self.by_address.give_back(address, at_address)
            raise AccountError(429, _l("too many attempts on this account; try again within {minutes} minutes",
                                  minutes=f"{window / 60:g}"), retry_after=int(window))
        return at_address, at_account

    def _succeeded(self, address: str, key: str, stamps: tuple[float, float]) -> None:
        """An attempt that succeeded is not counted against anyone."""
        self.by_address.give_back(address, stamps[0])
        self.by_account.give_back(key, stamps[1])

    # ------------------------------------------------------------------ the requests

    async def sign_up(self, name: object, password: object, address: str) -> tuple[SignedIn, list[str]]:
        """Make an account and sign it in; its recovery codes (shown this once)."""
        try:
            name = check_name(name)
            password = check_password(password, name)
        except CredentialError as e:
            raise AccountError(400, message_of(e)) from None
        stamp = self.signups.take(address)
        if stamp is None:
            raise AccountError(429, _ln("this address made {n} account in the last hour; try later",
                                        "this address made {n} accounts in the last hour; try later",
                                        self.limits.signups_per_hour), retry_after=3600)
        hashed = await self._hash(password)
        codes = recovery_codes()
        account = Account(secrets.token_urlsafe(12), name, time.time())
        secret = new_secret()
        try:
            made = await asyncio.to_thread(self._insert, account, hashed, codes, secret)
        except StoreError as e:
            self.signups.give_back(address, stamp)
            raise AccountError(503, _l("the account could not be stored: {why}", why=str(e))) from None
        if not made:
            self.signups.give_back(address, stamp)
            raise AccountError(409, _l("the name {name} is taken", name=repr(name)))
        return SignedIn(account, secret), codes

    async def sign_in(self, name: object, password: object, address: str) -> SignedIn:
        """Check a name and password and open a session."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > 4096:
            raise AccountError(400, _l("say the account's name and password"))
        key = name_key(name[:40])
        stamps = self._attempt(address, key)
        found = await self._read(self._by_name, key)
        right = await self._verify(None if found is None else found[1], password)
        if found is None or not right:
            raise AccountError(401, WRONG)
        self._succeeded(address, key, stamps)
        account, stored = found
        if self.hasher.check_needs_rehash(stored):
            rehashed = await self._hash(password)
            await self._write(self._rehashed, account.id, rehashed)
        return SignedIn(account, await self._write(self._open_session, account.id))

    async def account_of(self, secret: str | None) -> Account | None:
        """The account whose session ``secret`` is (``None``: none, expired or ended)."""
        if not secret or len(secret) > 200:
            return None
        return await self._read(self._session, secret_hash(secret))

    async def find(self, name: str) -> Account | None:
        """The account called ``name`` (in any case), or ``None``."""
        if len(name) > 40:
            return None
        found = await self._read(self._by_name, name_key(name))
        return None if found is None else found[0]

    async def sign_out(self, secret: str | None) -> None:
        """End the session ``secret`` (nothing if there is none)."""
        if secret and len(secret) <= 200:
            await self._write(self._end_session, secret_hash(secret))

    async def change_password(self, secret: str | None, current: object, new: object, address: str) -> SignedIn:
        """A signed-in account's new password: every session of it ends, a new one opens here."""
        account, stamps = await self._prove(secret, current, address)
        try:
            new = check_password(new, account.name)
        except CredentialError as e:
            raise AccountError(400, message_of(e)) from None
        self._succeeded(address, name_key(account.name), stamps)
        hashed = await self._hash(new)
        return SignedIn(account, await self._write(self._set_password, account.id, hashed, new_secret()))

    async def recover(self, name: object, code: object, new: object, address: str) -> tuple[SignedIn, int]:
        """Sign in with a recovery code (used up) and set a new password; every
        other session ends.  The recovery codes left."""
        if not isinstance(name, str) or not isinstance(code, str):
            raise AccountError(400, _l("say the account's name and one of its recovery codes"))
        key = name_key(name[:40])
        stamps = self._attempt(address, key)
        found = await self._read(self._by_name, key)
        try:
            new = check_password(new, found[0].name if found else None)
        except CredentialError as e:
            self._succeeded(address, key, stamps)  # refused for what it said, not a guess
            raise AccountError(400, message_of(e)) from None
        left = None if found is None else await self._write(self._use_code, found[0].id,
                                                              secret_hash(normalize_code(code)))
        if found is None or left is None:
            raise AccountError(401, _l("wrong name or recovery code"))
        self._succeeded(address, key, stamps)
        hashed = await self._hash(new)
        secret = await self._write(self._set_password, found[0].id, hashed, new_secret())
        return SignedIn(found[0], secret), left

    async def new_codes(self, secret: str | None, password: object, address: str) -> list[str]:
        """Replace a signed-in account's recovery codes (the password proves it is its owner)."""
        account, stamps = await self._prove(secret, password, address)
        self._succeeded(address, name_key(account.name), stamps)
        codes = recovery_codes()
        await self._write(self._set_codes, account.id, codes)
        return codes

    async def delete(self, secret: str | None, password: object, address: str) -> Account:
        """Delete a signed-in account (the password proves it is its owner): its
        sessions and codes go with it, and its name is free again."""
        account, stamps = await self._prove(secret, password, address)
        self._succeeded(address, name_key(account.name), stamps)
        await self._write(self._delete, account.id)
        return account

    async def signed_in(self, secret: str | None) -> Account:
        """The account signed in with the session ``secret``, or :class:`AccountError` (401)."""
        account = await self.account_of(secret)
        if account is None:
            raise AccountError(401, _l("you are not signed in"))
        return account

    async def owner(self, secret: str | None, password: object, address: str) -> Account:
        """The signed-in account of ``secret``, once ``password`` proves its owner is asking
        (counted as an attempt, given back when it is right)."""
        account, stamps = await self._prove(secret, password, address)
        self._succeeded(address, name_key(account.name), stamps)
        return account

    async def _prove(self, secret: str | None, password: object, address: str) -> tuple[Account, tuple[float, float]]:
        """The signed-in account of ``secret``, once ``password`` is its password."""
        account = await self.signed_in(secret)
        if not isinstance(password, str) or len(password) > 4096:
            raise AccountError(400, _l("say your password"))
        key = name_key(account.name)
        stamps = self._attempt(address, key)
        found = await self._read(self._by_name, key)
        if found is None or found[0].id != account.id or not await self._verify(found[1], password):
            raise AccountError(401, _l("wrong password"))
        return account, stamps

    # ------------------------------------------------------------------ the database

    async def _read(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except StoreError as e:
            raise AccountError(503, _l("the accounts could not be read: {why}", why=str(e))) from None

    async def _write(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except StoreError as e:
            raise AccountError(503, _l("the account could not be stored: {why}", why=str(e))) from None

    def _insert(self, account: Account, hashed: str, codes: list[str], secret: str) -> bool:
        key = name_key(account.name)
        try:
            with self.store.transaction() as conn:
                if conn.execute(select(accounts_t.c.id).where(accounts_t.c.name_key == key)).first():
                    return False
                conn.execute(accounts_t.insert().values(id=account.id, name=account.name, name_key=key,
                                                        password_hash=hashed, created=account.created))
                _insert_codes(conn, account.id, codes)
                _insert_session(conn, account.id, secret, account.created)
        except StoreError:
            if self._by_name(key) is not None:  # another process took the name meanwhile
                return False
            raise
        return True

    def _by_name(self, key: str) -> tuple[Account, str] | None:
        with self.store.reading() as conn:
            r = conn.execute(select(accounts_t).where(accounts_t.c.name_key == key)).first()
        return None if r is None else (Account(r.id, r.name, r.created, bool(r.bot)), r.password_hash)

    def _open_session(self, account_id: str) -> str:
        secret = new_secret()
        with self.store.transaction() as conn:
            _insert_session(conn, account_id, secret, time.time())
        return secret

    def _session(self, token_hash: bytes) -> Account | None:
        now = time.time()
        with self.store.reading() as conn:
            r = conn.execute(select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created, accounts_t.c.bot,
                                    sessions_t.c.seen, sessions_t.c.expires)
                             .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                             .where(sessions_t.c.token_hash == token_hash)).first()
        if r is None or r.expires <= now:
            return None
        if now - r.seen > SEEN_EVERY:
            with self.store.transaction() as conn:
                conn.execute(update(sessions_t).where(sessions_t.c.token_hash == token_hash)
                             .values(seen=now, expires=now + SESSION_SECONDS))
        return Account(r.id, r.name, r.created, bool(r.bot))

    def _end_session(self, token_hash: bytes) -> None:
        with self.store.transaction() as conn:
            conn.execute(delete(sessions_t).where(sessions_t.c.token_hash == token_hash))

    def _rehashed(self, account_id: str, hashed: str) -> None:
        """The same password, hashed anew (with the hasher's current parameters)."""
        with self.store.transaction() as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(password_hash=hashed))

    def _set_password(self, account_id: str, hashed: str, secret: str) -> str:
        """A new password: every session of the account ends and the one of ``secret`` opens."""
        with self.store.transaction() as conn:
            conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(password_hash=hashed))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            _insert_session(conn, account_id, secret, time.time())
        return secret

    def _use_code(self, account_id: str, code_hash: bytes) -> int | None:
        """Use up one recovery code: the codes left, or ``None`` when it is not one of them."""
        with self.store.transaction() as conn:
            gone = conn.execute(delete(recovery_codes_t).where(recovery_codes_t.c.account_id == account_id,
                                                               recovery_codes_t.c.code_hash == code_hash)).rowcount
            if gone != 1:
                return None
            return len(conn.execute(select(recovery_codes_t.c.code_hash)
                                    .where(recovery_codes_t.c.account_id == account_id)).all())

    def _set_codes(self, account_id: str, codes: list[str]) -> None:
        with self.store.transaction() as conn:
            conn.execute(delete(recovery_codes_t).where(recovery_codes_t.c.account_id == account_id))
            _insert_codes(conn, account_id, codes)

    def _delete(self, account_id: str) -> None:
        """The account, its sessions, codes and ratings deleted; its seats anonymous (named
        :data:`DELETED_NAME`, no account), in the finished games' records too."""
        with self.store.transaction() as conn:
            held = conn.execute(select(seats_t.c.table_id, seats_t.c.seat)
                                .where(seats_t.c.account_id == account_id)).all()
            conn.execute(update(seats_t).where(seats_t.c.account_id == account_id)
                         .values(account_id=None, name=DELETED_NAME))
            by_table: dict[str, list[int]] = {}
            for table_id, seat in held:
                by_table.setdefault(table_id, []).append(seat)
            for table_id, seats in by_table.items():
                text = conn.execute(select(tables_t.c.record).where(tables_t.c.id == table_id)).scalar()
                if text is not None:
                    conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                                 .values(record=anonymised(text, seats)))
            conn.execute(delete(ratings_t).where(ratings_t.c.player == player_of("account", account_id)))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            conn.execute(delete(recovery_codes_t).where(recovery_codes_t.c.account_id == account_id))
            conn.execute(delete(accounts_t).where(accounts_t.c.id == account_id))


def anonymised(text: str, seats: list[int]) -> str:
    """A stored game record whose ``meta.names`` call ``seats`` :data:`DELETED_NAME`
    (the rest as it was, written as the server writes records).

    >>> anonymised('{"meta": {"names": ["Ana", "Bo"]}, "players": 2}', [1])
    '{"meta": {"names": ["Ana", "deleted player"]}, "players": 2}'
    """
    record = json.loads(text)
    names = record.get("meta", {}).get("names") if isinstance(record, dict) else None
    if not isinstance(names, list):
        return text
    for seat in seats:
        if 0 <= seat < len(names):
            names[seat] = DELETED_NAME
    return record_dumps(record) + ("\n" if text.endswith("\n") else "")


def _insert_session(conn: Connection, account_id: str, secret: str, now: float) -> None:
    conn.execute(sessions_t.insert().values(token_hash=secret_hash(secret), account_id=account_id, created=now,
                                            seen=now, expires=now + SESSION_SECONDS))


def _insert_codes(conn: Connection, account_id: str, codes: list[str]) -> None:
    conn.execute(recovery_codes_t.insert(),
                 [{"account_id": account_id, "code_hash": secret_hash(normalize_code(c))} for c in codes])


__all__ = ["SESSION_SECONDS", "WRONG", "Account", "AccountError", "AccountLimits", "Accounts", "SignedIn",
           "anonymised"]
