"""Web Push notifications (docs/server.md, "Notifications"): the server tells a
player's devices that a play-now table is ready or that a turn-based table waits
on them, with the browser's page closed.

The standard's parts: the server signs each message with its **VAPID** key
(RFC 8292), made once and kept in the database (``site_keys``) so that every
process of one site signs alike; a device subscribes through its browser's push
service with the server's public key, sends the subscription (an endpoint URL
and two keys) to ``POST /api/push/subscribe``, and the server encrypts each
message to that device (RFC 8291, ``aes128gcm``) and posts it to the endpoint
(pywebpush).  A subscription belongs to the signed-in account that sent it; it
is deleted when the device turns notifications off, when the push service says
it is gone (404, 410), or with the account.

An endpoint is a URL the server will post to, given by a browser: only the
browsers' push services (:data:`PUSH_SERVICES`, over HTTPS) are accepted,
plus hosts the operator names (``--push-service``), so that a subscription
cannot make the server post to its own network.

What a notification says is public: the table's edition and the players' names,
never a card.

>>> endpoint_problem("https://fcm.googleapis.com/fcm/send/abc", frozenset())
>>> endpoint_problem("http://127.0.0.1:9/x", frozenset())
'the endpoint is not a push service this server posts to'
>>> endpoint_problem("http://127.0.0.1:9/x", frozenset({"127.0.0.1:9"}))
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from sqlalchemy import delete, func, select

from sushigo.i18n import DEFAULT, Phrase, _l, speaker
from sushigo.server.replies import Refusal
from sushigo.server.schema import push_subscriptions_t, site_keys_t
from sushigo.server.store import Store, StoreError, one_line
from sushigo.server.tables.model import log

PUSH_SERVICES: Final = ("fcm.googleapis.com", "android.googleapis.com", "updates.push.services.mozilla.com",
                        ".push.apple.com", ".notify.windows.com")
"""The push services of the browsers (a leading dot: any host under it), reached over HTTPS."""
MAX_DEVICES: Final = 10
"""Subscriptions one account keeps (a new one past it replaces the oldest)."""
TTL: Final = 3600
"""Seconds a push service keeps a message for a device that is offline."""
SEND_TIMEOUT: Final = 10.0
KEY_NAME: Final = "vapid"


class PushError(Refusal):
    """A refused notifications request: an HTTP ``status`` and a one-line message."""


@dataclass(frozen=True)
class Notice:
    """One notification: what the device shows and the page a click opens (same site)."""

    title: str
    body: str
    """Both :class:`~sushigo.i18n.Phrase` s, said in each device's language."""
    url: str
    tag: str
    """Notifications of one tag replace each other (one per table, one for play now)."""

    def payload(self, lang: str | None = None) -> str:
        """The push message for a device whose page speaks ``lang`` (``None``: English)."""
        said = speaker(lang or DEFAULT)
        return json.dumps({"title": said.text(self.title), "body": said.text(self.body), "url": self.url,
                           "tag": self.tag})


def endpoint_problem(endpoint: str, extra: frozenset[str]) -> Phrase | None:
    """Why the server will not post to ``endpoint`` (``None``: it will). ``extra``: the
    ``host:port`` the operator added, reached over HTTP or HTTPS."""
    try:
        parts = urlsplit(endpoint)
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:
        return _l("the endpoint is not a URL")
    if parts.username or parts.password or not host:
        return _l("the endpoint is not a URL")
    named = f"{host}:{port or {'http': 80, 'https': 443}.get(parts.scheme, 0)}"
    if parts.scheme in ("http", "https") and named in extra:
        return None
    known = any(host == s or (s.startswith(".") and host.endswith(s)) for s in PUSH_SERVICES)
    if parts.scheme != "https" or port not in (None, 443) or not known:
        return _l("the endpoint is not a push service this server posts to")
    return None


def _device(endpoint: str) -> str:
    """A subscription's key: the SHA-256 of its endpoint (hex)."""
    return hashlib.sha256(endpoint.encode()).hexdigest()


class Push:
    """The notifications of one server process (its VAPID key, the devices, the sending).

    Args:
        store: the database (subscriptions and the key live there).
        services: ``host:port`` of push services to accept besides the browsers'
            (``--push-service``; a test's push service on the loopback).
        contact: the ``sub`` claim of the VAPID signature, a ``mailto:`` or
            ``https:`` address push services may write to about this server.
    """

    def __init__(self, store: Store, *, services: tuple[str, ...] = (), contact: str = "mailto:sushigo@localhost",
                 timeout: float = SEND_TIMEOUT) -> None:
        self.store = store
        self.services = frozenset(s.lower() for s in services)
        self.contact = contact
        self.timeout = timeout
        self._vapid: Any = None
        self.public_key = ""
        """The VAPID public key, as a page's ``applicationServerKey`` (base64url, uncompressed point)."""
        self._tasks: set[asyncio.Task[int]] = set()
        self.sent = 0
        """Messages the push services accepted since the start."""

    async def start(self) -> None:
        """Load the site's VAPID key, or make and keep it (the first process of a site does)."""
        pem = await asyncio.to_thread(self._key)
        from cryptography.hazmat.primitives import serialization
        from py_vapid import Vapid02
        from py_vapid.utils import b64urlencode

        self._vapid = Vapid02.from_pem(pem.encode())
        raw = self._vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                  serialization.PublicFormat.UncompressedPoint)
        self.public_key = b64urlencode(raw)

    def _key(self) -> str:
        with self.store.reading() as conn:
            found = conn.execute(select(site_keys_t.c.value).where(site_keys_t.c.name == KEY_NAME)).scalar()
        if found is not None:
            return str(found)
        from py_vapid import Vapid02

        made = Vapid02()
        made.generate_keys()
        pem = str(made.private_pem().decode())
        try:
            with self.store.transaction() as conn:
                conn.execute(site_keys_t.insert().values(name=KEY_NAME, value=pem, created=time.time()))
            return pem
        except StoreError:  # another process kept its key first: everyone signs with that one
            with self.store.reading() as conn:
                return str(conn.execute(select(site_keys_t.c.value)
                                        .where(site_keys_t.c.name == KEY_NAME)).scalar_one())

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------ devices

    async def subscribe(self, account_id: str, subscription: dict[str, Any], lang: str | None = None) -> None:
        """Keep a device's subscription for ``account_id`` (the one a browser's ``PushSubscription.toJSON()``
        gives), its notices in ``lang``; :class:`PushError` when it is not one."""
        endpoint = subscription.get("endpoint")
        keys = subscription.get("keys")
        if not isinstance(endpoint, str) or not isinstance(keys, dict):
            raise PushError(400, _l('the body is a push subscription: {"endpoint": URL, "keys": {"p256dh": KEY, '
                                    '"auth": KEY}}'))
        p256dh, auth = keys.get("p256dh"), keys.get("auth")
        if not isinstance(p256dh, str) or not isinstance(auth, str) or not 40 <= len(p256dh) <= 200 \
                or not 10 <= len(auth) <= 100:
            raise PushError(400, _l("the subscription's keys are not a browser's (p256dh and auth, base64url)"))
        if len(endpoint) > 2000:
            raise PushError(400, _l("the endpoint is longer than 2000 characters"))
        problem = endpoint_problem(endpoint, self.services)
        if problem is not None:
            raise PushError(400, problem)
        await asyncio.to_thread(self._keep, account_id, endpoint, p256dh, auth, lang)

    def _keep(self, account_id: str, endpoint: str, p256dh: str, auth: str, lang: str | None) -> None:
        key = _device(endpoint)
        t = push_subscriptions_t
        with self.store.transaction() as conn:
            conn.execute(delete(t).where(t.c.id == key))  # a device that signs into another account moves to it
            conn.execute(t.insert().values(id=key, account_id=account_id, endpoint=endpoint, p256dh=p256dh,
                                           auth=auth, created=time.time(), lang=lang))
            ids = [r.id for r in conn.execute(select(t.c.id).where(t.c.account_id == account_id)
                                              .order_by(t.c.created.desc(), t.c.id))]
            if len(ids) > MAX_DEVICES:
                conn.execute(delete(t).where(t.c.id.in_(ids[MAX_DEVICES:])))

    async def unsubscribe(self, account_id: str, endpoint: str | None) -> int:
        """Forget the account's device at ``endpoint`` (``None``: every device of the account); how many."""
        def run() -> int:
            t = push_subscriptions_t
            q = delete(t).where(t.c.account_id == account_id)
            if endpoint is not None:
                q = q.where(t.c.id == _device(endpoint))
            with self.store.transaction() as conn:
                return int(conn.execute(q).rowcount or 0)
        return await asyncio.to_thread(run)

    async def devices(self, account_id: str, endpoint: str | None = None) -> tuple[int, bool]:
        """How many devices of the account get notifications, and whether ``endpoint`` is one of them."""
        def run() -> tuple[int, bool]:
            t = push_subscriptions_t
            with self.store.reading() as conn:
                count = conn.execute(select(func.count()).select_from(t).where(t.c.account_id == account_id)).scalar()
                here = endpoint is not None and conn.execute(select(t.c.id).where(
                    t.c.account_id == account_id,
                    t.c.id == _device(endpoint))).first() is not None
            return int(count or 0), bool(here)
        return await asyncio.to_thread(run)

    # ------------------------------------------------------------------ sending

    def notify_soon(self, account_id: str, notice: Notice) -> None:
        """Send ``notice`` to every device of the account, in the background (failures are logged)."""
        if self._vapid is None:
            return
        task = asyncio.get_running_loop().create_task(self.notify(account_id, notice))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def notify(self, account_id: str, notice: Notice) -> int:
        """Send ``notice`` to every device of the account now; how many push services accepted it."""
        def read() -> list[Any]:
            t = push_subscriptions_t
            with self.store.reading() as conn:
                return list(conn.execute(select(t).where(t.c.account_id == account_id)))
        try:
            rows = await asyncio.to_thread(read)
        except StoreError as e:
            log.error("notifications of an account could not be read: %s", e)
            return 0
        if not rows:
            return 0
        import aiohttp

        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout)) as session:
            results = await asyncio.gather(*(self._send(session, row, notice) for row in rows))
        return sum(results)

    async def _send(self, session: Any, row: Any, notice: Notice) -> int:
        from pywebpush import WebPushException, webpush_async

        info = {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}}
        try:
            await webpush_async(info, notice.payload(row.lang), vapid_private_key=self._vapid,
                                vapid_claims={"sub": self.contact}, ttl=TTL, timeout=self.timeout,
                                aiohttp_session=session)
        except WebPushException as e:
            status = getattr(e.response, "status", None)
            if status in (404, 410):  # the device unsubscribed or the subscription expired
                await asyncio.to_thread(self._forget, row.id)
            else:
                log.warning("a push service refused a notification: %s", one_line(e))
            return 0
        except Exception as e:  # a push service down or unreachable: the next notice tries again
            log.warning("a notification could not be sent: %s", one_line(e))
            return 0
        self.sent += 1
        return 1

    def _forget(self, subscription_id: str) -> None:
        with self.store.transaction() as conn:
            conn.execute(delete(push_subscriptions_t).where(push_subscriptions_t.c.id == subscription_id))


__all__ = ["MAX_DEVICES", "PUSH_SERVICES", "Notice", "Push", "PushError", "endpoint_problem"]
