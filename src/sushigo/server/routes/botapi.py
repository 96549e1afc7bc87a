"""The bot API (docs/bot-api.md): a bot account's event stream and game streams
(lines of JSON, ``application/x-ndjson``), its calls (pick, withdraw, chat,
accept or decline a challenge, take a place in play now), and challenges,
which people make too.

Every ``/api/bot/...`` route takes the bot's API token
(:func:`~sushigo.server.routes.bots.bot_call`: 401 without one, 429 past its
calls a second); a token holds at most
:attr:`~sushigo.server.routes.deps.Limits.bot_streams` streams open at once.
A game's stream and calls go to the process that runs its table (the id's
first letter, like ``/ws/tables/``): another answers 409 ``wrong_process``.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse

from sushigo.i18n import _l, _ln, localized, message_of
from sushigo.server.accounts import Account
from sushigo.server.bot_events import REVOKED
from sushigo.server.bot_stream import BotStream, action_of
from sushigo.server.matchmaking import Joining
from sushigo.server.routes.accounts import COOKIE, JsonOnly
from sushigo.server.routes.bodies import (
    BotChat,
    BotPick,
    BotQueueBody,
    BotSeq,
    ChallengeBody,
    DeclineBody,
    documented,
)
from sushigo.server.routes.bots import BotCall, BotCallOf, bot_call
from sushigo.server.routes.deps import Site, SiteOf
from sushigo.server.routes.errors import TABLE_ERROR_STATUS, Refused
from sushigo.server.tables import LiveTable, TableError

router = APIRouter()

KEEP_ALIVE: Final = 10.0
"""Seconds between two empty lines of an idle stream (a client that reads none for long may reconnect)."""
NDJSON: Final = "application/x-ndjson"
BOT_ERROR_STATUS: Final[dict[str, int]] = {
    **TABLE_ERROR_STATUS, "stale": 409, "not_your_turn": 409, "not_started": 409, "nothing_to_withdraw": 409,
    "no_chat": 409, "illegal": 400, "bad_message": 400, "chat_rate": 429, "not_your_seat": 404,
}
"""The HTTP status of each refusal of a game call (its ``code`` goes with the line)."""


def _closed(reason: str) -> str:
    """A stream's last line: why it ends (in the reader's language: a bot reads English)."""
    return json.dumps({"type": "closed", "reason": localized(reason)}) + "\n"


async def _still_opens(site: Site, call: BotCall) -> bool:
    try:
        return await site.bots.still_opens(call.key)
    except Exception:  # the database is away: the token was good a moment ago
        return True


def _refused(e: TableError) -> Refused:
    return Refused(BOT_ERROR_STATUS.get(e.code, 503), message_of(e), code=e.code)


# ------------------------------------------------------------------ streams


def _streamed(site: Site, call: BotCall, lines: AsyncIterator[str]) -> StreamingResponse:
    """The lines as a stream holding one of the token's stream slots (429 when it holds them all).

    The slot is taken here, before any await (parallel requests count each other), and given
    back once: when the lines end or are closed, or when a stream that never started is dropped.
    """
    if site.bot_streams[call.key] >= site.limits.bot_streams:
        raise Refused(429, _ln("this token holds {n} stream open already: close one first",
                               "this token holds {n} streams open already: close one first", site.limits.bot_streams))
    site.bot_streams[call.key] += 1
    held = [True]

    def give_back() -> None:
        if held[0]:
            held[0] = False
            site.bot_streams[call.key] -= 1
            if site.bot_streams[call.key] <= 0:
                del site.bot_streams[call.key]

    async def body() -> AsyncIterator[str]:
        try:
            async for line in lines:
                yield line
        finally:
            give_back()
    stream = body()
    weakref.finalize(stream, give_back)
    return StreamingResponse(stream, media_type=NDJSON, headers={"Cache-Control": "no-store",
                                                                 "X-Accel-Buffering": "no"})


@router.get("/api/bot/stream/event", response_model=None)
async def event_stream(call: BotCallOf, site: SiteOf) -> StreamingResponse:
    """The bot's events, a line each: challenges to it, its tables' starts and ends."""
    async def lines() -> AsyncIterator[str]:
        async with site.bot_events.follow(call.account, call.key) as follower:
            while True:
                try:
                    batch = await asyncio.wait_for(follower.batches.get(), KEEP_ALIVE)
                except TimeoutError:
                    yield "\n"
                    continue
                if isinstance(batch, str):  # the token was revoked, or the client did not read
                    yield _closed(batch)
                    return
                for event in batch:
                    yield json.dumps(event) + "\n"
    return _streamed(site, call, lines())


async def _seat_table(site: Site, bot: Account, table_id: str) -> tuple[LiveTable, int]:
    """The table ``table_id`` this process runs and the bot's seat there (404, 409 otherwise)."""
    try:
        table = await site.service.find(table_id)
    except TableError as e:
        raise _refused(e) from None
    seats = [s.seat for s in table.seats if s.account == bot.id]
    if not seats:
        site.service.forget_if_idle(table)
        raise Refused(404, _l("your bot has no seat at this table"), code="not_your_seat")
    return table, seats[0]


@router.get("/api/bot/game/{table_id}/stream", response_model=None)
async def game_stream(table_id: str, call: BotCallOf, site: SiteOf, world: bool = False) -> StreamingResponse:
    """The bot's seat at a table: a ``game`` line, then its ``pick`` messages, the chat it may read, ``end``.

    ``?world=true``: each ``pick`` also carries ``world``, the seat's information set
    (:func:`~sushigo.engine.worlds.world_document`), for the built-in bots of ``sushigo bot-connect``.
    """
    table, seat = await _seat_table(site, call.account, table_id)
    service = site.service
    await service.settled(table)
    stream = BotStream(table, seat, world=world)
    first = {"type": "game", "game": table.id, "seat": seat, "protocol": "sushigo-bot/1",
             "table": table.summary()}

    async def lines() -> AsyncIterator[str]:
        service.attach(table, stream)  # the seat is present while the stream is open
        try:
            yield json.dumps(first) + "\n"
            stream.look()  # an open decision or an ended table, now
            while True:
                try:
                    line = await asyncio.wait_for(stream.lines.get(), KEEP_ALIVE)
                except TimeoutError:
                    line = ""
                if line is None:
                    return
                if not await _still_opens(site, call):
                    yield _closed(REVOKED)
                    return
                yield line + "\n"
        finally:
            service.detach(table, stream)
    return _streamed(site, call, lines())


# ------------------------------------------------------------------ a game's calls


async def _game_call(site: Site, call: BotCall, table_id: str,
                     act: Callable[[LiveTable, int], Awaitable[Any]]) -> Any:
    """``act`` on the bot's seat at the table; a refusal is answered with its status and ``code``."""
    table, seat = await _seat_table(site, call.account, table_id)
    try:
        return await act(table, seat)  # an ended table: game_over
    except TableError as e:
        raise _refused(e) from None
    finally:
        site.service.forget_if_idle(table)  # an ended table read back for this call only


@router.post("/api/bot/game/{table_id}/pick", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(BotPick))
async def pick(table_id: str, body: Annotated[BotPick, Depends(BotPick.read)], call: BotCallOf,
               site: SiteOf) -> dict[str, Any]:
    """The seat's decision: one of the ``legal`` entries of its ``pick`` message; answered once stored."""
    return {"seq": await _game_call(site, call, table_id, lambda table, seat: site.service.pick(
        table, seat, body.seq, action_of(table, seat, body.pick)))}


@router.post("/api/bot/game/{table_id}/withdraw", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(BotSeq))
async def withdraw(table_id: str, body: Annotated[BotSeq, Depends(BotSeq.read)], call: BotCallOf,
                   site: SiteOf) -> dict[str, Any]:
    """Take back the seat's hidden pick (until the last seat commits)."""
    return {"seq": await _game_call(site, call, table_id,
                                    lambda table, seat: site.service.withdraw(table, seat, body.seq))}


@router.post("/api/bot/game/{table_id}/chat", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(BotChat))
async def chat(table_id: str, body: Annotated[BotChat, Depends(BotChat.read)], call: BotCallOf,
               site: SiteOf) -> dict[str, Any]:
    """A line in the table's chat, from the bot's seat."""
    await _game_call(site, call, table_id, lambda table, seat: site.service.say(table, seat, text=body.text))
    return {"said": True}


# ------------------------------------------------------------------ challenges


async def _challenger(request: Request, site: Site) -> Account:
    """Who challenges: a bot with its token, else the account signed in on the browser (401: neither)."""
    if request.headers.get("authorization"):
        return (await bot_call(request, site)).account
    return await site.accounts.signed_in(request.cookies.get(COOKIE))


@router.post("/api/challenge/{name}", status_code=201, response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(ChallengeBody))
async def challenge(name: str, body: Annotated[ChallengeBody, Depends(ChallengeBody.read)], request: Request,
                    site: SiteOf) -> dict[str, Any]:
    """Challenge the bot account ``name`` (a person signed in, or a bot with its token)."""
    who = await _challenger(request, site)
    found = await site.challenges.make(who, name, edition=body.edition,
                                       players=body.players, menu=body.menu, timer=body.timer, rated=body.rated)
    return {"challenge": found}


@router.get("/api/challenge/{challenge_id}", response_model=None)
async def challenge_status(challenge_id: str, request: Request, site: SiteOf) -> dict[str, Any]:
    """A challenge, for its challenger or its bot: its state, and its table once accepted."""
    return {"challenge": await site.challenges.get(await _challenger(request, site), challenge_id)}


@router.post("/api/challenge/{challenge_id}/cancel", response_model=None, dependencies=[JsonOnly])
async def cancel(challenge_id: str, request: Request, site: SiteOf) -> dict[str, Any]:
    """The challenger takes back an open challenge."""
    return {"challenge": await site.challenges.cancel(await _challenger(request, site), challenge_id)}


@router.post("/api/bot/challenge/{challenge_id}/accept", response_model=None, dependencies=[JsonOnly])
async def accept(challenge_id: str, call: BotCallOf, site: SiteOf) -> dict[str, Any]:
    """The bot accepts: the table is made (its ``gameStart`` follows on the event stream)."""
    return {"challenge": await site.challenges.accept(call.account, challenge_id)}


@router.post("/api/bot/challenge/{challenge_id}/decline", response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(DeclineBody))
async def decline(challenge_id: str, body: Annotated[DeclineBody, Depends(DeclineBody.read)], call: BotCallOf,
                  site: SiteOf) -> dict[str, Any]:
    """The bot declines, with a reason the challenger reads (optional)."""
    reason = None if body.reason is None else " ".join(body.reason.split())[:200] or None
    return {"challenge": await site.challenges.decline(call.account, challenge_id, reason)}


# ------------------------------------------------------------------ play now


@router.post("/api/bot/queue", status_code=201, response_model=None, dependencies=[JsonOnly],
             openapi_extra=documented(BotQueueBody))
async def join_queue(body: Annotated[BotQueueBody, Depends(BotQueueBody.read)], call: BotCallOf,
                     site: SiteOf) -> dict[str, Any]:
    """A place in play now's queue: the bot takes a bot seat of a people's match (``gameStart`` tells it)."""
    joining = Joining(edition=body.edition, menu=body.menu, sizes=tuple(body.sizes), rated=body.rated)
    return await site.play.join_bot(joining, call.account)


@router.get("/api/bot/queue", response_model=None)
async def queue_status(call: BotCallOf, site: SiteOf) -> dict[str, Any]:
    """The bot's place in play now (404 when it holds none)."""
    return await site.play.status(None, account=call.account.id)


@router.post("/api/bot/queue/leave", response_model=None, dependencies=[JsonOnly])
async def leave_queue(call: BotCallOf, site: SiteOf) -> dict[str, Any]:
    """Leave play now's queue (a match the bot was in goes back to waiting and is seated again without it);
    409 once its table is being made or made."""
    await site.play.leave(None, account=call.account.id, strict=True)
    return {"left": True}


__all__ = ["BOT_ERROR_STATUS", "KEEP_ALIVE", "router"]
