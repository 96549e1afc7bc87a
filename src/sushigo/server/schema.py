"""The database's tables, as SQLAlchemy Core ``metadata`` (the newest schema revision:
:mod:`sushigo.server.migrations` brings a database to it; :mod:`sushigo.server.store` reads and writes it)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, ForeignKey, Integer, LargeBinary, MetaData, String, Table, Text

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("edition", String(8), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rules", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("timer", Integer, nullable=True),
    Column("status", String(10), nullable=False, index=True),
    Column("finished", Float, nullable=True),
    Column("result", Text, nullable=True),
    Column("record", Text, nullable=True),
)

seats_t = Table(
    "seats",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(200), nullable=True),
    Column("name", String(100), nullable=True),
    Column("token_hash", LargeBinary(32), nullable=True),
    Column("account_id", String(40), nullable=True, index=True),
)
"""``account_id``: the account that claimed the seat while signed in (``None``: a guest's seat, or a bot's)."""

events_t = Table(
    "events",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("by", String(8), nullable=False),
    Column("at", Float, nullable=False),
)

happenings_t = Table(
    "happenings",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("at", Float, nullable=False),
    Column("data", Text, nullable=False),
)

sheets_t = Table(
    "sheets",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("token_hash", LargeBinary(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("data", Text, nullable=False),
)

analyses_t = Table(
    "analyses",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("samples", Integer, primary_key=True),
    Column("seed", BigInteger, primary_key=True),
    Column("created", Float, nullable=False),
    Column("data", Text, nullable=False),
)

uploads_t = Table(
    "uploads",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("record", Text, nullable=False),
)


accounts_t = Table(
    "accounts",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(20), nullable=False),
    Column("name_key", String(20), nullable=False, unique=True),
    Column("password_hash", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("bot", Integer, nullable=False, server_default="0"),
)
"""Player accounts: the name as written, the name as compared (lower case: one
account per name whatever its case), the Argon2 hash of the password, and whether
it is a bot account (a program plays it, through the bot API)."""

sessions_t = Table(
    "sessions",
    metadata,
    Column("token_hash", LargeBinary(32), primary_key=True),
    Column("account_id", String(40), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
)
"""Signed-in browsers: the SHA-256 of each session cookie's secret, never the secret."""

recovery_codes_t = Table(
    "recovery_codes",
    metadata,
    Column("account_id", String(40), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("code_hash", LargeBinary(32), primary_key=True),
)
"""An account's unused recovery codes (SHA-256 of each; a used one is deleted)."""


ratings_t = Table(
    "ratings",
    metadata,
    Column("player", String(240), primary_key=True),
    Column("edition", String(8), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
"""Each rated player's rating per edition (``player``: ``account:ID`` or ``bot:SPEC``;
:mod:`sushigo.server.ratings`)."""

rating_changes_t = Table(
    "rating_changes",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(240), nullable=False, index=True),
    Column("edition", String(8), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rank", Float, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
)
"""What each rated game did to each seat's rating: the history behind every rating."""


queue_t = Table(
    "queue",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("ticket_hash", LargeBinary(32), nullable=False, unique=True),
    Column("account_id", String(40), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, unique=True),
    Column("name", String(100), nullable=False),
    Column("address", String(64), nullable=False),
    Column("edition", String(8), nullable=False),
    Column("menu", String(100), nullable=True),
    Column("sizes", String(40), nullable=False),
    Column("rated", Integer, nullable=False),
    Column("rating", Float, nullable=False),
    Column("bots_after", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("push", Integer, nullable=False),
    Column("state", String(10), nullable=False, index=True),
    Column("match_id", String(40), nullable=True, index=True),
    Column("players", Integer, nullable=True),
    Column("confirm_by", Float, nullable=True),
    Column("confirmed", Integer, nullable=False),
    Column("misses", Integer, nullable=False),
    Column("changed", Float, nullable=False),
    Column("table_id", String(40), nullable=True),
    Column("url", String(200), nullable=True),
    Column("reason", String(200), nullable=True),
    Column("bot", Integer, nullable=False, server_default="0"),
)
"""Play now's queue (:mod:`sushigo.server.matchmaking`): one row per place, whoever
holds its ticket (SHA-256 kept, never the ticket); shared by every server process.
``bot``: a bot account's place, which only fills the bot seats of people's matches."""

push_subscriptions_t = Table(
    "push_subscriptions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("account_id", String(40), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("created", Float, nullable=False),
    Column("lang", String(8), nullable=True),
)
"""The devices that asked for Web Push notifications, per account (``id``: the SHA-256
of the endpoint; ``lang``: the language of the page that asked, which its notices are
written in (``NULL``: English); :mod:`sushigo.server.push`)."""

site_keys_t = Table(
    "site_keys",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""Keys the server made for itself and keeps (the VAPID key that signs its Web Push messages)."""


api_tokens_t = Table(
    "api_tokens",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("token_hash", LargeBinary(32), nullable=False, unique=True),
    Column("account_id", String(40), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("label", String(60), nullable=False),
    Column("created", Float, nullable=False),
    Column("used", Float, nullable=True),
)
"""Bot accounts' API tokens: the SHA-256 of each (shown once, never kept), its public id
and label (:mod:`sushigo.server.accounts.bots`)."""

challenges_t = Table(
    "challenges",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("challenger_id", String(40), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("bot_id", String(40), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("settings", Text, nullable=False),
    Column("state", String(12), nullable=False),
    Column("reason", String(200), nullable=True),
    Column("table_id", String(40), nullable=True),
    Column("created", Float, nullable=False),
    Column("changed", Float, nullable=False),
)
"""Challenges to bot accounts: who challenged which bot to what table (``settings``, JSON), and
how it stands (open, accepted with its table, declined, cancelled, expired;
:mod:`sushigo.server.matchmaking.challenges`)."""


__all__ = [
    "accounts_t",
    "analyses_t",
    "api_tokens_t",
    "challenges_t",
    "events_t",
    "happenings_t",
    "metadata",
    "push_subscriptions_t",
    "queue_t",
    "rating_changes_t",
    "ratings_t",
    "recovery_codes_t",
    "seats_t",
    "sessions_t",
    "sheets_t",
    "site_keys_t",
    "tables_t",
    "uploads_t",
]
