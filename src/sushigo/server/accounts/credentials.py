"""What an account is known by: its name, its password (kept as an Argon2
hash), its session cookies and its recovery codes (kept as SHA-256 hashes:
they are random and long, so a fast hash is enough; a password is not).

>>> check_name("Sashimi_99")
'Sashimi_99'
>>> check_name("Greedy")
Traceback (most recent call last):
...
sushigo.server.accounts.credentials.CredentialError: the name 'Greedy' is reserved
>>> len(recovery_codes()), len(recovery_codes()[0])
(10, 14)
>>> normalize_code(" abcd-EFGH-2345 ") == normalize_code("ABCDEFGH2345")
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Final

from sushigo.bots import BOTS
from sushigo.i18n import _l

NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
"""An account's name: 3 to 20 ASCII letters, digits, ``_`` or ``-``, the first a letter or digit."""

RESERVED: Final = frozenset({"admin", "administrator", "deleted", "guest", "moderator", "root", "sushigo",
                             "system", *(name.lower() for name in BOTS)})
"""Names nobody may take: the built-in bots' (their ratings stand on the same scale) and the site's own."""

DELETED_NAME: Final = "deleted player"
"""The name a deleted account's seats bear from then on, at every table and in every record."""

PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
"""A password's length, in characters (longer ones would only cost the hasher)."""

CODES: Final = 10
"""Recovery codes an account gets at a time (each works once)."""

_CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Upper-case letters and digits a person cannot confuse (no I, O, 0 or 1): 5 bits a character."""

_CODE_LENGTH: Final = 12
"""Characters of a recovery code (60 bits), written in three groups of four."""


class CredentialError(ValueError):
    """A name, password or code that cannot be used; the message says why, in one line."""


def check_name(name: object) -> str:
    """``name`` if an account may have it, else :class:`CredentialError`."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise CredentialError(_l("a name is 3 to 20 letters (a-z, A-Z), digits, _ or -, starting with a letter "
                                 "or a digit"))
    if name.lower() in RESERVED:
        raise CredentialError(_l("the name {name} is reserved", name=repr(name)))
    return name


def name_key(name: str) -> str:
    """What two names are compared by: one account per name whatever its case."""
    return name.lower()


def check_password(password: object, name: str | None = None) -> str:
    """``password`` if an account may have it (8 to 256 characters, not the
    account's name), else :class:`CredentialError`."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise CredentialError(_l("a password is {min} to {max} characters", min=PASSWORD_MIN, max=PASSWORD_MAX))
    if name is not None and password.lower() == name.lower():
        raise CredentialError(_l("a password cannot be the account's name"))
    return password


def new_secret() -> str:
    """A session cookie's secret: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def secret_hash(secret: str) -> bytes:
    """SHA-256 of a session secret or a normalized recovery code (what the database keeps)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).digest()


def recovery_codes() -> list[str]:
    """:data:`CODES` new recovery codes, written ``ABCD-EFGH-JKLM``."""
    out = []
    for _ in range(CODES):
        raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))
        out.append("-".join(raw[i:i + 4] for i in range(0, _CODE_LENGTH, 4)))
    return out


def normalize_code(code: str) -> str:
    """A recovery code as typed, in the form it was hashed in: no spaces or dashes, upper case."""
    return "".join(c for c in code.upper() if c not in " -\t")[:64]


__all__ = ["CODES", "DELETED_NAME", "NAME", "PASSWORD_MAX", "PASSWORD_MIN", "RESERVED", "CredentialError", "check_name",
           "check_password", "name_key", "new_secret", "normalize_code", "recovery_codes", "secret_hash"]
