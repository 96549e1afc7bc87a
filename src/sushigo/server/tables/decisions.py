"""Decisions: checking a pick (legal, current, not stale), applying it to the
game in memory, storing it before it is acknowledged, taking a hidden pick
back or changing it, and reloading a table from the store after a failed write."""

from __future__ import annotations

import asyncio
import time

from sushigo.engine.editions import action_said, to_record
from sushigo.engine.messages import Seat, from_json, msg
from sushigo.engine.narration import Line
from sushigo.engine.records import dumps as record_dumps
from sushigo.i18n import _l
from sushigo.server.ratings import player_of
from sushigo.server.store import AppendEvent, EventRow, RateGame, SetStatus, StoreError
from sushigo.tournament.ratings import rank_seats

from .base import ServiceBase
from .model import (
    CHANGE,
    FINISHED,
    PLAYING,
    WAITING,
    WITHDRAW,
    Connection,
    LiveTable,
    TableError,
    _ended,
    _retrieve,
    log,
)


def _rated(table: LiveTable) -> RateGame | None:
    """What a finished rated table does to its players' ratings (``None``: it is not rated,
    or a player deleted their account before the end)."""
    if not table.rated or any(s.kind == "human" and s.account is None for s in table.seats):
        return None
    result = table.result  # the finished game's result, as stored with it
    assert result is not None
    ranks = rank_seats(result["totals"], table.edition.tiebreak_of(result))
    players = tuple(player_of("account", s.account) if s.account is not None else player_of("bot", s.bot or "")
                    for s in table.seats)
    return RateGame(table.id, table.rules.edition, players, ranks, time.time())


class Decisions(ServiceBase):
    """Check, apply, store and publish the seats' decisions."""

    def _apply(self, table: LiveTable, seat: int, action: int, by: str = "seat", at: float | None = None) -> None:
        """Apply one decision to the game in memory (no checks beyond the engine's)
        and add what it finished to the log (``by``: who decided, as stored;
        :data:`WITHDRAW` takes a hidden pick back; ``at``: when, as stored)."""
        game = table.game
        at = time.time() if at is None else at
        table.active = max(table.active, at)
        if by in (WITHDRAW, CHANGE):
            game.withdraw(seat)  # the seat's decision is the one it was: same opening, same deadline
            table.seq += 1
            if by == CHANGE:
                table.hidden += 1
                table.changing = seat
            return
        before = set(game.pending_seats)
        if by == "timer":
            words = from_json(action_said(game, action))
            table.log.append(Line.saying("timer", game.round, game.turn,
                                       msg("Time ran out for {seat}: greedy decided for them.", seat=Seat(seat)),
                                       seat=seat, private=msg("Time ran out: greedy chose {choice} for you.",
                                                              choice=words)))
        moved = game.commit(seat, action)
        table.log += table.narrator.update()
        table.seq += 1
        if table.changing == seat:
            table.hidden += 1
            table.changing = None
        for s in game.pending_seats:
            if s not in before or s == seat:
                table.opened[s] = table.public_seq
                table.opened_at[s] = at
        table.moved = table.moved or moved
        if game.is_over:
            table.status = FINISHED
            table.result = game.result().to_json()

    def _check_current(self, table: LiveTable, seat: int, seq: int) -> None:
        """Raise :class:`TableError` unless the game is being played and ``seq``
        (the state ``seat`` decided on) is neither ahead of it nor older than the
        seat's open or hidden decision (for a pick and a withdrawal alike)."""
        if table.status == WAITING:
            raise TableError("not_started", _l("the game starts once every seat is filled"))
        if table.status != PLAYING:
            raise TableError("game_over", _ended(table))
        game = table.game
        if seq > table.public_seq:
            raise TableError("stale", _l("seq {seq} is ahead of the game ({now})",
                                           seq=str(seq), now=str(table.public_seq)))
        if seq < table.opened[seat] and (seat in game.pending_seats or game.has_committed(seat)):
            raise TableError("stale", _l("seq {seq} predates this decision (it opened at {opened})",
                                           seq=str(seq), opened=str(table.opened[seat])))

    def check_pick(self, table: LiveTable, seat: int, seq: int, action: int) -> None:
        """Raise :class:`TableError` unless ``seat`` may decide ``action`` on state ``seq`` now."""
        self._check_current(table, seat, seq)
        game = table.game
        if game.has_committed(seat):  # a change of mind: any pick it could have made, until the reveal
            if action not in game.change_choices(seat):
                raise TableError("illegal", _l("action {action} is not legal now", action=str(action)))
            return
        if seat not in game.pending_seats:
            raise TableError("not_your_turn", _l("the game is not waiting for you"))
        if not game.is_legal(seat, action):
            raise TableError("illegal", _l("action {action} is not legal now", action=str(action)))

    async def pick(self, table: LiveTable, seat: int, seq: int, action: int, *, by: str = "seat",
                   ack: Connection | None = None) -> int:
        """Take a decision, or change the seat's hidden pick to ``action``; return
        its ``seq`` once it is stored (and ``ack`` is told so, with the update that
        shows it where there is one). Raises :class:`TableError`."""
        self.check_pick(table, seat, seq, action)
        if table.game.has_committed(seat):
            if table.game.committed_action(seat) == action:
                await self.writer.barrier()  # the same pick again: acknowledged once it is stored
                if ack is not None:
                    self.acknowledge(ack, table.public_seq, action)
                return table.public_seq
            return await self._decide(table, seat, action, by, change=True, ack=ack)
        return await self._decide(table, seat, action, by, ack=ack)

    async def withdraw(self, table: LiveTable, seat: int, seq: int, *, ack: Connection | None = None) -> int:
        """Take back ``seat``'s hidden pick (until the last seat commits); return
        the ``seq`` once stored.  ``seq``: of the state the seat decided on (an
        older one is stale, as for a pick).  Nobody else learns anything but
        that the seat has not picked any more."""
        self._check_current(table, seat, seq)
        if not table.game.change_choices(seat):  # empty without a hidden pick
            raise TableError("nothing_to_withdraw", _l("you have no hidden pick to take back"))
        return await self._decide(table, seat, None, WITHDRAW, ack=ack)

    async def _decide(self, table: LiveTable, seat: int, action: int | None, by: str, *, change: bool = False,
                      ack: Connection | None = None) -> int:
        """Apply, store and publish one decision (``action`` ``None`` with :data:`WITHDRAW`:
        take the hidden pick back; ``change``: take it back and commit ``action``); ``ack``:
        the socket that sent it, told it is stored in the same update."""
        now = time.time()
        futures = []
        if change or action is None:
            old = table.game.committed_action(seat)
            assert old is not None
            undo = CHANGE if change else WITHDRAW
            self._apply(table, seat, old, undo, now)
            futures.append(self.writer.submit(AppendEvent(table.id, EventRow(table.seq, seat, old, undo, now))))
        if action is not None:
            self._apply(table, seat, action, by, now)
            self.picks += 1
            self._clear_deadline(table, seat)
            futures.append(self.writer.submit(AppendEvent(table.id, EventRow(table.seq, seat, action, by, now))))
        stored, seq = table.seq, table.public_seq
        if table.status == FINISHED:
            record = record_dumps(to_record(table.game, meta=self._meta(table)))
            futures.append(self.writer.submit(SetStatus(table.id, FINISHED, time.time(), table.result, record)))
            rated = _rated(table)
            if rated is not None:
                futures.append(self.writer.submit(rated))
        try:
            for fut in futures:  # in commit order; a gather would cost more on this hot path
                await fut
        except StoreError as e:
            for fut in futures:  # the later ones fail too (same table): retrieve their errors
                fut.add_done_callback(_retrieve)
            log.error("table %s: %s; reloading it from the database", table.id, e)
            await self._reload(table)
            raise TableError("server_error", _l("the pick could not be stored; the table was reloaded")) from None
        if by in ("seat", WITHDRAW) and table.seats[seat].kind == "human":
            table.refresh.add(seat)  # the seat's sockets show its hidden pick (and what it may change it to)
        if table.seq == stored:  # nothing newer is waiting for its commit: publish
            if ack is not None:
                table.acks[ack] = (seq, action)
            self._after_change(table)  # first: it sets the move timer's deadline that the state shows
            self._publish(table)
        elif ack is not None:  # a newer decision publishes once committed; this one is stored now
            self.acknowledge(ack, seq, action)
        return seq

    async def _reload(self, table: LiveTable) -> None:
        """Put the table back to what the database holds, after a write of it failed."""
        if table.reloading:
            return
        table.reloading = True
        try:
            await self.writer.barrier()  # every queued write of this table has now failed or committed
            self.writer.reset(table.id)
            items = await asyncio.to_thread(self.store.load, table_id=table.id)
        finally:
            table.reloading = False
        if not items:
            return
        fresh = self._restore(items[0])
        self._repair(fresh, items[0])
        table.game, table.seq, table.opened, table.kept = fresh.game, fresh.seq, fresh.opened, {}
        table.hidden, table.changing = fresh.hidden, fresh.changing
        table.narrator, table.log, table.log_sent = fresh.narrator, fresh.log, 0
        table.status, table.result, table.moved = fresh.status, fresh.result, True
        self._after_change(table)
        self._publish(table)
