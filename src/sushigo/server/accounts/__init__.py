"""Player accounts: optional names with a password, their sessions and recovery
codes (docs/server.md, "Accounts").  :mod:`.credentials` says what a name, a
password and a code may be and how each is kept; :mod:`.service` signs up, in
and out, recovers, changes and deletes, under the limits; :mod:`.bots` makes bot
accounts and their API tokens."""

from .bots import MAX_TOKENS, TOKEN_PREFIX, Bots
from .credentials import CODES, DELETED_NAME, RESERVED, CredentialError, check_name, check_password
from .service import SESSION_SECONDS, WRONG, Account, AccountError, AccountLimits, Accounts, SignedIn

__all__ = ["CODES", "DELETED_NAME", "MAX_TOKENS", "RESERVED", "SESSION_SECONDS", "TOKEN_PREFIX", "WRONG", "Account",
           "AccountError", "AccountLimits", "Accounts", "Bots", "CredentialError", "SignedIn", "check_name",
           "check_password"]
