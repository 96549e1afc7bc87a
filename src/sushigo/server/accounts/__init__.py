"""Player accounts: optional names with a password, their sessions and recovery
codes (docs/server.md, "Accounts").  :mod:`.credentials` says what a name, a
password and a code may be and how each is kept; :mod:`.service` signs up, in
and out, recovers, changes and deletes, under the limits."""

from .credentials import CODES, DELETED_NAME, RESERVED, CredentialError, check_name, check_password
from .service import SESSION_SECONDS, WRONG, Account, AccountError, AccountLimits, Accounts, SignedIn

__all__ = ["CODES", "DELETED_NAME", "RESERVED", "SESSION_SECONDS", "WRONG", "Account", "AccountError",
           "AccountLimits", "Accounts", "CredentialError", "SignedIn", "check_name", "check_password"]
