"""The table WebSocket ``/ws/tables/{id}``: protocol ``sushigo-ws/3``
(``docs/server.md``, "WebSocket protocol").

The route checks the handshake (its origin, the address's open sockets), finds
the table and then reads the client's messages one by one, under a token
bucket and a limit on refused messages; each goes to the table service.
Frames to the client go out in order through a bounded queue
(:class:`_Socket`): one that does not read is dropped and may reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import Final

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from sushigo.i18n import _l, _ln, message_of
from sushigo.server.accounts import Account, AccountError
from sushigo.server.guard import origin_allowed
from sushigo.server.protocol import (
    PROTOCOL,
    Chat,
    HandOver,
    Hello,
    Mute,
    Pick,
    Ping,
    ProtocolError,
    React,
    Rematch,
    Rename,
    Withdraw,
    clean_name,
    dump,
    error,
    parse_client,
)
from sushigo.server.replies import Bucket
from sushigo.server.routes.accounts import COOKIE
from sushigo.server.routes.deps import AddressOf, Limits, SiteOf
from sushigo.server.store import OPEN_STATUSES
from sushigo.server.tables import SEAT_TAKEN, LiveTable, TableError, TableService

router = APIRouter()


@dataclass(frozen=True)
class _Close:
    """A close frame queued behind the frames before it."""

    code: int
    reason: str


_DROP: Final = _Close(1013, "")
"""Closes a client that does not read (its queue is full); it can reconnect."""


class _Socket:
    """One WebSocket watching a table: frames go out, in order, through a bounded queue."""

    def __init__(self, ws: WebSocket, limit: int) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.version = 2
        """The protocol version of the client's ``hello`` (3: one ``update`` per event)."""
        self.queue: asyncio.Queue[str | _Close] = asyncio.Queue(limit)
        self.dropped = False
        self.closing: int | None = None
        """The close code the server decided on (its close frame is queued)."""

    def send(self, text: str) -> None:
        self._put(text)

    def close(self, code: int, reason: str) -> None:
        """Close the socket once every frame queued before is sent."""
        self._put(_Close(code, reason))

    def _put(self, item: str | _Close) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:  # a client that does not read: drop it, it can reconnect
            self.dropped = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(item if isinstance(item, _Close) else _DROP)

    async def pump(self) -> None:
        while True:
            item = await self.queue.get()
            if isinstance(item, _Close):
                with contextlib.suppress(Exception):
                    await self.ws.close(code=item.code, reason=item.reason)
                return
            await self.ws.send_text(item)


def _origin_ok(ws: WebSocket, allowed: frozenset[str]) -> bool:
    """Whether a handshake's ``Origin`` may open a table socket: the rule of
    :func:`sushigo.server.guard.origin_allowed`, which the state-changing HTTP
    requests follow too (no Origin: not a browser, accepted; a browser's must be
    one of the server's public origins, or its own IP address or localhost).
    """
    return origin_allowed(ws.headers.get("origin"), ws.headers.get("host", ""), allowed)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str, site: SiteOf, addr: AddressOf) -> None:
    service, limits, sockets = site.service, site.limits, site.sockets
    if not _origin_ok(ws, site.allowed):
        await ws.close(code=1008, reason="origin not allowed")
        return
    if sockets[addr] >= limits.connections_per_address:
        await ws.close(code=1008, reason="too many connections from this address")
        return
    sockets[addr] += 1  # before any await: concurrent handshakes count too
    try:
        try:
            table = await service.find(table_id)
        except TableError as e:
            await ws.accept()
            await ws.send_text(error(e.code, message_of(e)))
            await ws.close(code=1008, reason=str(e))
            return
        await ws.accept()
        try:  # the account signed in on this browser, if any: its seats open without their secrets
            account = await site.accounts.account_of(ws.cookies.get(COOKIE))
        except AccountError:
            account = None
        await _serve_socket(ws, table, service, limits, account)
    finally:
        sockets[addr] -= 1
        if sockets[addr] <= 0:
            del sockets[addr]


async def _serve_socket(ws: WebSocket, table: LiveTable, service: TableService, limits: Limits,
                        account: Account | None = None) -> None:
    sock = _Socket(ws, limits.outbox)
    bucket = Bucket(limits.rate, limits.burst)
    refused, window = 0, time.monotonic()
    joined = False
    pump = asyncio.get_running_loop().create_task(sock.pump())

    async def refuse(code: str, message: str) -> bool:
        """Send the error; after too many refusals, tell the client and close (True)."""
        nonlocal refused
        refused += 1
        sock.send(error(code, message))
        if refused < limits.flood_close:
            return False
        sock.send(error("rate_limited", _ln(
            "{n} message refused within {seconds} s: the server closes this connection",
            "{n} messages refused within {seconds} s: the server closes this connection",
            refused, seconds=f"{limits.flood_window:g}")))
        sock.close(1008, "too many refused messages")
        sock.closing = 1008
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(pump), timeout=5)
        return True

    try:
        while True:
            if pump.done():
                return
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                text = data.decode("utf-8", "replace") if len(data) <= 4096 else "x" * 4097
            if time.monotonic() - window > limits.flood_window:
                refused, window = 0, time.monotonic()
            if not bucket.take():
                if await refuse("rate_limited", _l("more than {rate} messages a second (bursts of {burst}): "
                                                   "this message was not read",
                                                   rate=f"{limits.rate:g}", burst=str(limits.burst))):
                    return
                continue
            try:
                msg = parse_client(text)
                if isinstance(msg, Hello):
                    if joined:
                        raise ProtocolError("bad_message", _l("hello was already sent"))
                    seat, name, secret = await _hello_seat(service, table, msg, account)
                    await service.settled(table)  # show only what is committed
                    # from here on no await until the state is queued: welcome, then state, first
                    sock.seat = seat
                    sock.version = msg.v
                    welcome = {"type": "welcome", "table": table.id, "seat": seat,
                               "seq": table.public_seq, "protocol": PROTOCOL}
                    if secret is not None:
                        welcome["token"] = secret
                    sock.send(dump(welcome))
                    joined = True
                    service.attach(table, sock)  # the state and the whole log, then the chat and the seats
                    if name is not None and sock.seat is not None and table.status in OPEN_STATUSES:
                        await service.rename(table, sock.seat, name)
                elif not joined:
                    raise ProtocolError("hello_first", _l("send hello first"))
                elif isinstance(msg, Pick):
                    if sock.seat is None:
                        raise ProtocolError("not_your_turn", _l("spectators cannot pick"))
                    await service.pick(table, sock.seat, msg.seq, msg.action, ack=sock)
                elif isinstance(msg, Withdraw):
                    if sock.seat is None:
                        raise ProtocolError("not_your_turn", _l("spectators cannot pick"))
                    await service.withdraw(table, sock.seat, msg.seq, ack=sock)
                elif isinstance(msg, Chat):
                    await service.say(table, sock.seat, text=msg.text)
                elif isinstance(msg, React):
                    await service.say(table, sock.seat, reaction=msg.reaction)
                elif isinstance(msg, Mute):
                    await service.mute(table, sock.seat, msg.seat, msg.muted)
                elif isinstance(msg, HandOver):
                    if sock.seat is None:
                        raise ProtocolError("not_seated", _l("spectators cannot hand a seat to a bot"))
                    await service.hand_over(table, sock.seat, msg.seat)
                elif isinstance(msg, Rematch):
                    new, token, creator = await service.claim_rematch(table, sock.seat)
                    frame = {"type": "rematch", "table": new.id, "seat": sock.seat, "token": token,
                             "url": f"/t/{new.id}#seat={token}"}
                    if creator is not None:
                        frame["creator"] = creator
                    sock.send(dump(frame))
                elif isinstance(msg, Rename):
                    if sock.seat is None:
                        raise ProtocolError("bad_name", _l("spectators have no name"))
                    if table.seats[sock.seat].account is not None:
                        raise ProtocolError("bad_name", _l("a signed-in player's name is their account's"))
                    await service.rename(table, sock.seat, clean_name(msg.name))
                elif isinstance(msg, Ping):
                    sock.send(dump({"type": "pong"}))
            except (ProtocolError, TableError) as e:
                if await refuse(e.code, message_of(e)):
                    return
    except WebSocketDisconnect:
        return
    finally:
        if joined:
            service.detach(table, sock)
        else:
            service.forget_if_idle(table)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
        code = 1013 if sock.dropped else sock.closing
        if ws.application_state == WebSocketState.CONNECTED and code is not None:
            with contextlib.suppress(Exception):
                await ws.close(code=code)


async def _hello_seat(service: TableService, table: LiveTable, msg: Hello,
                      account: Account | None) -> tuple[int | None, str | None, str | None]:
    """The seat a hello takes (``None``: spectator), the name it sets, if
    any, and the seat's new secret when an invite claimed it.  ``account``:
    the one signed in on the socket's browser: an invite it opens claims the
    seat for it, and a hello naming one of its seats (no token) takes it."""
    seat, secret = None, None
    name = clean_name(msg.name) if msg.name is not None and msg.token is not None else None  # before a claim
    if msg.token is not None:
        seat, how = service.seat_of(table, msg.token)
        if how == "spent":
            raise ProtocolError("seat_taken", SEAT_TAKEN)
        if seat is None:
            raise ProtocolError("bad_token", _l("this seat token does not belong to this table"))
        if how == "invite" and table.status in OPEN_STATUSES:  # an ended table is read-only: nothing to bind
            secret = await service.claim(table, seat, None if account is None else (account.id, account.name),
                                         bot=account is not None and account.bot)
    elif msg.seat is not None:
        if account is None:
            raise ProtocolError("not_signed_in", _l("sign in to take your account's seat (or send its token)"))
        seat = service.seat_of_account(table, msg.seat, account.id)
    if seat is not None and table.seats[seat].account_name is not None:
        name = table.seats[seat].account_name  # an account's seat bears its name
    return seat, name, secret


__all__ = ["router"]
