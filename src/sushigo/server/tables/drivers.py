"""Who decides for a seat besides its human: the bots of bot seats (search bots
think on threads with a deadline), the move timer (the greedy bot decides when
time runs out), and stand-ins that play for a player who is away until they
come back (hand over, take the seat back)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, Final

from sushigo.bots import make_bot
from sushigo.bots.base import Bot, view_for
from sushigo.bots.greedy import GreedyBot
from sushigo.engine.messages import Seat, msg
from sushigo.engine.narration import Line
from sushigo.i18n import Phrase, _l
from sushigo.server.store import StoreError

from .base import ServiceBase
from .model import BOT_DEADLINE, PLAYING, STAND_IN, LiveTable, TableError, _one_line, _retrieve, log

TURN_FRESH: Final = 60.0
"""Seconds after a decision opened within which its seat's player is still told of it (not after a restart)."""


class Drivers(ServiceBase):
    """Bots, move timers and stand-ins: whatever decides for a seat that its player does not."""

    def _seat_bot(self, table: LiveTable, seat: int, bot: str, by: int | None) -> None:
        """Let ``bot`` play for human ``seat`` (in memory) and tell it in the log."""
        s = table.seats[seat]
        s.stand_in = bot
        table.stand_ins[seat] = make_bot(bot, seed=(table.seed + 104729 * (seat + 1)) % (1 << 63))
        game = table.game
        turn = None if game.is_over else game.turn
        table.log.append(Line.saying("stand_in", game.round, turn, msg("{seat} is away: {bot} plays for them.",
                                                                     seat=Seat(seat), bot=bot), seat=seat))

    def _seat_player(self, table: LiveTable, seat: int, at: float) -> None:
        """The seat is its player's again; a timer gives them the full time for the decision at hand."""
        s = table.seats[seat]
        s.stand_in = None
        table.opened_at[seat] = max(table.opened_at[seat], at)
        bot = table.stand_ins.pop(seat, None)
        if bot is not None:
            bot.close()
        game = table.game
        turn = None if game.is_over else game.turn
        table.log.append(Line.saying("back", game.round, turn, msg("{seat} is back and plays again.", seat=Seat(seat)),
                                   seat=seat))

    def may_hand_over(self, table: LiveTable, seat: int, now: float | None = None) -> Phrase | None:
        """Why human ``seat`` cannot be handed to a bot now (``None``: it can)."""
        if table.status != PLAYING:
            return _l("the game is not being played")
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            return _l("seat {seat} is not a player's seat", seat=str(seat))
        s = table.seats[seat]
        if s.stand_in is not None:
            return _l("a bot already plays for seat {seat}", seat=str(seat))
        if s.connections or s.away_since is None:
            return _l("seat {seat}'s player is at the table", seat=str(seat))
        if seat not in table.game.pending_seats:
            return _l("the table is not waiting for seat {seat}", seat=str(seat))
        gone = (time.time() if now is None else now) - s.away_since
        if gone < self.away_after:
            return _l("seat {seat}'s player left {gone} s ago; wait {left} s more", seat=str(seat),
                      gone=f"{gone:.0f}", left=f"{self.away_after - gone:.0f}")
        return None

    async def hand_over(self, table: LiveTable, by: int | None, seat: int, *, forced: bool = False) -> None:
        """Hand human ``seat``, whose player is away, to the greedy bot (stored
        first); it returns to the player when they reconnect.  ``by``: the seat
        that asked (``None``: the move timer)."""
        if by is not None and (by == seat or table.seats[by].kind != "human"):
            raise TableError("not_allowed", _l("only another player of the table can hand a seat to a bot"))
        why = None if forced else self.may_hand_over(table, seat)
        if why is not None:
            raise TableError("not_allowed", why)
        try:
            await self._happening(table, "stand_in", seat, {"bot": STAND_IN, "by": by})[1]
        except StoreError:
            raise TableError("server_error", _l("the hand-over could not be stored; try again")) from None
        if table.seats[seat].stand_in is not None or table.seats[seat].connections:
            return  # the player came back meanwhile (that return is stored after this)
        self._seat_bot(table, seat, STAND_IN, by)
        self._clear_deadline(table, seat)
        self._publish_log(table)
        self.broadcast_seats(table)
        self._after_change(table)

    def _take_seat_back(self, table: LiveTable, seat: int) -> None:
        """The player of a seat a bot plays for is back: the seat is theirs again."""
        row, stored = self._happening(table, "back", seat, {})
        stored.add_done_callback(_retrieve)
        self._seat_player(table, seat, row.at)
        self._publish_log(table)
        self._after_change(table)

    def _after_change(self, table: LiveTable) -> None:
        """Start bots for pending bot seats and timers for pending human seats."""
        if table.status != PLAYING:
            return
        for seat in table.game.pending_seats:
            if seat in table.bots or seat in table.stand_ins:
                if seat not in table.busy:
                    table.busy.add(seat)
                    self._spawn(self._run_bot(table, seat))
                continue
            if table.hints:
                self._want_hint(table, seat)
            if table.timer is not None:
                current = table.deadlines.get(seat)
                if current is None or current[0] != table.opened[seat]:
                    if current is not None:
                        current[2].cancel()
                    if table.turn_based:
                        self._turn_waits(table, seat)
                    # counted from when the decision opened: a restart or a withdrawn pick does not reset it
                    when = table.opened_at[seat] + table.timer
                    loop = asyncio.get_running_loop()
                    handle = loop.call_later(max(0.0, when - time.time()), self._on_timeout, table, seat,
                                             table.opened[seat])
                    table.deadlines[seat] = (table.opened[seat], when, handle)

    def _turn_waits(self, table: LiveTable, seat: int) -> None:
        """A turn-based table's decision opened for human ``seat``: an account's seat that nobody
        watches is told through :attr:`on_turn` (once: a restart tells again only a decision that
        opened less than :data:`TURN_FRESH` seconds before)."""
        s = table.seats[seat]
        fresh = time.time() - table.opened_at[seat] < TURN_FRESH
        if self.on_turn is not None and s.account is not None and s.connections == 0 and fresh:
            self.on_turn(table, seat)

    def _clear_deadline(self, table: LiveTable, seat: int) -> None:
        current = table.deadlines.pop(seat, None)
        if current is not None:
            current[2].cancel()

    def _on_timeout(self, table: LiveTable, seat: int, opened: int) -> None:
        if table.deadlines.get(seat, (None,))[0] != opened:
            return
        table.deadlines.pop(seat, None)
        self._spawn(self._timer_decides(table, seat, opened))

    async def _timer_decides(self, table: LiveTable, seat: int, opened: int) -> None:
        """The greedy bot decides for ``seat`` if the decision that timed out is still open;
        a seat whose player is away is handed to it until they return.

        Checked here, in the task, with no await before the decision is applied:
        a pick the seat made meanwhile wins, and the timer never takes its next turn.
        """
        if table.status != PLAYING or seat not in table.game.pending_seats or table.opened[seat] != opened:
            return
        s = table.seats[seat]
        if s.connections == 0 and s.stand_in is None:
            await self._quietly(self.hand_over(table, None, seat, forced=True))
            return
        action = GreedyBot(seed=table.seq).choose(view_for(table.game, seat, None))
        await self._decide_quietly(table, seat, action, "timer")

    async def _decide_quietly(self, table: LiveTable, seat: int, action: int, by: str) -> None:
        await self._quietly(self._decide(table, seat, action, by))

    @staticmethod
    async def _quietly(coro: Any) -> None:
        try:
            await coro
        except TableError:
            pass

    async def _run_bot(self, table: LiveTable, seat: int) -> None:
        """Let the bot that holds ``seat`` decide while the table waits on it.

        Whatever happens, the task releases the seat (``busy``) and, when
        another bot holds the seat by then (the player came back and left
        again while this one thought), starts that one: a seat is never left
        waiting with nobody to play it."""
        bot = table.bots.get(seat) or table.stand_ins.get(seat)
        retry = False
        try:
            while (bot is not None and table.status == PLAYING and seat in table.game.pending_seats
                   and (table.bots.get(seat) or table.stand_ins.get(seat)) is bot):
                game, opened = table.game, table.opened[seat]
                view = view_for(game, seat, bot)
                if getattr(bot, "wants_world", False):
                    loop = asyncio.get_running_loop()
                    deadline = time.monotonic() + table.think.get(seat, BOT_DEADLINE)
                    action = await loop.run_in_executor(self.bot_threads, _think, bot, view, deadline)
                    if table.game is not game or table.opened[seat] != opened:
                        continue  # the table was reloaded meanwhile (or its player is back): think again
                else:
                    action = bot.choose(view)
                if not game.is_legal(seat, action):
                    raise ValueError(f"bot {bot.name} chose illegal action {action}")
                await self._decide(table, seat, action, "bot")
        except TableError as e:
            retry = e.code == "server_error"
        except Exception as e:  # a bot bug must not stop the table: play a random legal action
            log.error("table %s: the bot at seat %d failed (%s); a random legal action instead",
                      table.id, seat, _one_line(e))
            legal = table.game.legal_actions(seat)
            if legal and table.status == PLAYING and seat in table.game.pending_seats:
                await self._decide_quietly(table, seat, random.Random(table.seq).choice(legal), "bot")
        finally:
            table.busy.discard(seat)
            holder = table.bots.get(seat) or table.stand_ins.get(seat)
            if holder is not None and holder is not bot and not retry:
                self._after_change(table)  # another bot holds the seat now: it plays
        if retry:  # its pick was not stored and the table reloaded: try again shortly
            asyncio.get_running_loop().call_later(1.0, self._after_change, table)


def _think(bot: Bot, view: Any, deadline: float) -> int:
    """A search bot's decision, ended by ``deadline`` (``time.monotonic()``),
    however long the bot waited for its thread: it thinks what is left, and lets
    the event loop have the GIL every 4 iterations (``yield_every``)."""
    bot.time = max(deadline - time.monotonic(), 0.001)  # type: ignore[attr-defined]
    bot.yield_every = 4  # type: ignore[attr-defined]
    return bot.choose(view)
