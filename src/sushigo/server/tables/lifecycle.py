"""The service's life cycle: starting (tables of this shard restored from the
store, repaired where a write failed), the janitor that abandons idle tables,
stopping, ending a table, ended tables read back to be watched, and the glue
every room stores through (happenings, a record's meta)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sushigo.bots import make_bot
from sushigo.engine.editions import new_game, to_record
from sushigo.engine.records import dumps as record_dumps
from sushigo.engine.rules import RulesError
from sushigo.i18n import _l
from sushigo.server.store import OPEN_STATUSES, AddHappening, HappeningRow, LoadedTable, SetStatus, StoreError

from .base import ServiceBase
from .model import (
    ABANDONED,
    BOT_DEADLINE,
    BOT_LIMITS,
    FINISHED,
    PLAYING,
    STAND_IN,
    WAITING,
    LiveTable,
    TableError,
    _restored_seat,
    _rules_of,
    _stored_settings,
    log,
    name_bots,
)


class LifeCycle(ServiceBase):
    """Start, sweep, stop; restore tables from the store and recall their happenings."""

    async def start(self) -> None:
        """Open the database, resume every unfinished game of this shard, start the writer."""
        await asyncio.to_thread(self.store.create_schema)
        loaded = await asyncio.to_thread(self.store.load, unfinished_only=True, prefix=self.prefix or None)
        for item in loaded:
            try:
                table = self._restore(item)
            except (ValueError, RulesError) as e:  # a row this version cannot play
                log.error("table %s cannot be resumed: %s", item.id, e)
                continue
            self.tables[table.id] = table
        self.writer.start()
        for item in loaded:
            if item.id in self.tables:
                self._repair(self.tables[item.id], item)
        await self.sweep()  # tables idle for too long are not resumed
        for table in self.tables.values():
            self._after_change(table)
        self._spawn(self._janitor())

    async def _janitor(self) -> None:
        while True:
            await asyncio.sleep(self.janitor_every)
            try:
                await self.sweep()
            except Exception:  # the janitor must go on
                log.exception("janitor round failed")

    async def sweep(self, now: float | None = None) -> list[str]:
        """Mark every waiting or playing table idle for :attr:`idle_limit` seconds
        abandoned (stored with its partial record) and drop it from memory;
        return their ids."""
        now = time.time() if now is None else now
        ended = []
        for table in list(self.tables.values()):
            # a turn-based table may wait a whole move limit, twice over, for its players
            patience = max(self.idle_limit, 2 * (table.timer or 0)) if table.turn_based else self.idle_limit
            if table.status in OPEN_STATUSES and now - table.active >= patience:
                record = record_dumps(to_record(table.game, meta=self._meta(table)))
                try:
                    await self.writer.submit(SetStatus(table.id, ABANDONED, now, None, record))
                except StoreError as e:
                    log.error("table %s could not be marked abandoned: %s", table.id, e)
                    continue
                self._end(table, ABANDONED)
                ended.append(table.id)
        return ended

    def _end(self, table: LiveTable, status: str) -> None:
        """A table that will not be played (cancelled or abandoned): tell its watchers, stop its clocks, forget it."""
        table.status = status
        table.moved = True
        for _, _, handle in table.deadlines.values():
            handle.cancel()
        table.deadlines.clear()
        self._publish(table)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    def _repair(self, table: LiveTable, item: LoadedTable) -> None:
        """Store what a failed write left out: the end of a game whose last event was
        stored, or the start of a table whose every seat was named."""
        if table.status == FINISHED and item.row.status != FINISHED:
            record = record_dumps(to_record(table.game, meta=self._meta(table)))
            self.writer.submit(SetStatus(table.id, FINISHED, time.time(), table.result, record))
        elif table.status == WAITING and all(x.name is not None for x in table.seats if x.kind == "human"):
            table.status = PLAYING  # named but not started: the start was not stored
            table.moved = True
            self.writer.submit(SetStatus(table.id, PLAYING))

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for table in self.tables.values():
            for _, _, handle in table.deadlines.values():
                handle.cancel()
            for bot in [*table.bots.values(), *table.stand_ins.values()]:
                bot.close()
        await self.writer.stop()
        self.bot_threads.shutdown(wait=False, cancel_futures=True)
        if self._analysis_pool is not None:
            self._analysis_pool.shutdown(wait=True, cancel_futures=True)  # a running hint ends within hint_seconds

    def _restore(self, item: LoadedTable) -> LiveTable:
        row = item.row
        rules = _rules_of(row)
        settings = _stored_settings(row, item.happenings)
        creator = row.rules.get("creator")
        table = LiveTable(
            id=row.id, created=row.created, rules=rules, seed=row.seed, timer=row.timer,
            status=row.status, seats=[_restored_seat(s, row) for s in item.seats],
            game=new_game(rules, seed=row.seed), opened=[0] * rules.players,
            seeded=bool(row.rules.get("seeded")), learn=settings["learn"], private=settings["private"],
            chat=settings["chat"], chat_spectators=settings["chat_spectators"], hints=settings["hints"],
            rated=settings["rated"], turn_based=settings["turn_based"],
            creator_hash=bytes.fromhex(creator) if isinstance(creator, str) else None,
            rematch=settings["rematch"], rematch_of=settings["rematch_of"],
        )
        self._make_bots(table)
        happenings = list(item.happenings)
        table.happened = max((h.n for h in happenings), default=0)
        for ev in item.events:  # with the happenings in the order they came
            if ev.seq != table.seq + 1:
                raise ValueError(f"event {ev.seq} follows {table.seq}")
            while happenings and happenings[0].at <= ev.at:
                self._recall(table, happenings.pop(0))
            self._apply(table, ev.seat, ev.action, ev.by, ev.at)
        for h in happenings:
            self._recall(table, h)
        now = time.time()
        if table.started is None and table.status == PLAYING:  # sushigo 0.5 or earlier did not store the start
            table.started = now
            table.opened_at = [now if o == 0 else at for o, at in zip(table.opened, table.opened_at)]
        for s in table.seats:
            if s.kind == "human":
                s.away_since = now  # nobody is connected to a table just loaded
        table.moved = True
        table.log_sent = len(table.log)  # a watcher is sent the whole log when it attaches
        return table

    def _recall(self, table: LiveTable, h: HappeningRow) -> None:
        """Apply a stored happening to a table being loaded."""
        table.active = max(table.active, h.at)
        if h.kind == "start":
            table.started = h.at
            table.opened_at = [h.at] * table.rules.players
        elif h.kind in ("chat", "react"):
            table.talk.append(h)
        elif h.kind == "mute" and h.seat is not None:
            muted = table.mutes.setdefault(h.seat, set())
            (muted.add if h.data.get("muted") else muted.discard)(int(h.data["seat"]))
        elif h.kind == "stand_in" and h.seat is not None:
            self._seat_bot(table, h.seat, str(h.data.get("bot", STAND_IN)), h.data.get("by"))
        elif h.kind == "back" and h.seat is not None:
            self._seat_player(table, h.seat, h.at)
        elif h.kind in ("claim", "invite") and h.seat is not None:
            s = table.seats[h.seat]
            if s.invite_hash is not None:
                s.spent.append(s.invite_hash)
            s.invite_hash = bytes.fromhex(h.data["invite"]) if h.kind == "invite" else None
            if "replaced" in h.data:
                s.spent.append(bytes.fromhex(h.data["replaced"]))

    def _make_bots(self, table: LiveTable) -> None:
        name_bots(table.seats)
        for s in table.seats:
            if s.kind == "bot" and s.bot is not None:
                bot = table.bots[s.seat] = make_bot(s.bot, seed=(table.seed + 7919 * (s.seat + 1)) % (1 << 63))
                if getattr(bot, "wants_world", False):
                    table.think[s.seat] = min(getattr(bot, "time", None) or BOT_DEADLINE, BOT_LIMITS["time"])

    def _happening(self, table: LiveTable, kind: str, seat: int | None, data: dict[str, Any],
                   at: float | None = None) -> tuple[HappeningRow, asyncio.Future[None]]:
        """Store one happening (numbered now, so in order); the future resolves once it is committed."""
        table.happened += 1
        row = HappeningRow(table.happened, kind, seat, time.time() if at is None else at, data)
        table.active = max(table.active, row.at)
        return row, self.writer.submit(AddHappening(table.id, row))

    def _meta(self, table: LiveTable) -> dict[str, Any]:
        meta: dict[str, Any] = {"seed": table.seed, "table": table.id,
                                "names": [s.name for s in table.seats],
                                "date": time.strftime("%Y-%m-%d", time.gmtime(table.created))}
        if table.seeded:
            meta["seeded"] = True  # the creator chose the seed (and so could know every hand)
        return meta

    def forget_if_idle(self, table: LiveTable) -> None:
        """Drop an ended table nobody watches from memory (the database keeps it; see :meth:`revive`)."""
        if table.status not in OPEN_STATUSES and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def settled(self, table: LiveTable, tries: int = 20) -> None:
        """Wait until every decision the table shows in memory is committed (for a joining socket)."""
        for _ in range(tries):
            seq = table.seq
            await self.writer.barrier()
            if table.seq == seq:
                return

    async def find(self, table_id: str) -> LiveTable:
        """The table ``table_id`` as this process runs it (an ended one read back, :meth:`revive`);
        :class:`TableError` ``no_table``, or ``wrong_process`` when another process runs it."""
        table = self.tables.get(table_id) or await self.revive(table_id[:64])
        if table is None:
            if await self.summary(table_id[:64]) is None:
                raise TableError("no_table", _l("no such table"))
            raise TableError("wrong_process", _l("this table is served by another server process"))
        return table

    async def revive(self, table_id: str) -> LiveTable | None:
        """An ended table (finished, cancelled or abandoned), read back from the
        database so that it can be watched again.

        Any process may serve an ended table (no decision changes it any more);
        ``None`` if there is no such ended table.
        """
        items = await asyncio.to_thread(self.store.load, table_id=table_id)
        if not items or items[0].row.status in OPEN_STATUSES:
            return None
        if table_id in self.tables:
            return self.tables[table_id]
        table = self._restore(items[0])
        self.tables[table_id] = table
        return table
