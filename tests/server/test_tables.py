"""The table service itself (``sushigo.server.tables``), driven directly on one
event loop, so that a test can put two things in exactly the order a race
would: what no socket test can time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from sushigo.server.protocol import parse_create
from sushigo.server.store import Store
from sushigo.server.tables import LiveTable, TableService


class Watcher:
    """A connection of the service's: it keeps what it is sent."""

    def __init__(self, seat: int | None, version: int = 2) -> None:
        self.seat = seat
        self.version = version
        self.frames: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.frames.append({"type": "close", "code": code, "reason": reason})


async def _settle(service: TableService) -> None:
    """Until every task the service started has ended (bots deciding, their
    picks stored), the janitor aside."""
    while True:
        busy = [t for t in service._tasks if "_janitor" not in repr(t.get_coro())]
        if not busy:
            return
        await asyncio.wait(busy)


@contextlib.asynccontextmanager
async def _service(tmp_path: Path) -> AsyncIterator[TableService]:
    """A started service on a SQLite file whose away players may be handed over at once."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    service = TableService(store, away_after=0.0)
    await service.start()
    try:
        yield service
    finally:
        await service.stop()
        store.close()


async def _two_player_table(service: TableService, **options: Any) -> tuple[LiveTable, list[Watcher]]:
    body = {"players": 2, "seats": ["human", "human"], **options}
    table, _tokens, _creator = await service.create(parse_create(json.dumps(body).encode()))
    watchers = [Watcher(0), Watcher(1)]
    for w, name in zip(watchers, ("Ana", "Bo"), strict=True):
        service.attach(table, w)
        await service.rename(table, w.seat, name)  # type: ignore[arg-type]
    assert table.status == "playing"
    return table, watchers


def test_a_returning_player_never_leaves_their_seat_without_a_bot(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    """The race of issue 37: a stand-in's task is started, and before it runs the
    player is back (their seat is theirs again). The task must release the seat,
    so that the next hand-over has a bot that plays (the table never waits forever)."""

    async def main() -> None:
        async with _service(tmp_path) as service:
            table, (_ana, bo) = await _two_player_table(service)
            service.detach(table, bo)
            await service.hand_over(table, 0, 1)  # Bo is away: the stand-in plays for him
            await _settle(service)
            assert table.game.has_committed(1)  # it picked for Bo
            await service.pick(table, 0, table.seq, table.game.legal_actions(0)[0])
            # the turn is revealed: the stand-in's task for Bo's next pick is
            # started, and in the same moment, before it runs, Bo is back
            assert 1 in table.busy and 1 in table.stand_ins
            service.attach(table, bo)
            assert 1 not in table.stand_ins
            await _settle(service)
            assert 1 not in table.busy  # the task released the seat
            assert not table.game.has_committed(1)  # and decided nothing for Bo, who is back
            # Bo leaves again and is handed over again: a bot plays for him
            service.detach(table, bo)
            await service.hand_over(table, 0, 1)
            await _settle(service)
            assert table.game.has_committed(1)

    with caplog.at_level(logging.ERROR, logger="sushigo.server"):
        asyncio.run(main())
    assert not caplog.records, [r.getMessage() for r in caplog.records]


def test_a_bot_that_fails_is_one_line_in_the_log_and_the_table_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        async with _service(tmp_path) as service:
            table, (_ana, bo) = await _two_player_table(service)
            service.detach(table, bo)
            real = service._seat_bot

            def broken_stand_in(table: LiveTable, seat: int, bot: str, by: int | None) -> None:
                real(table, seat, bot, by)

                def choose(view: Any) -> int:
                    raise RuntimeError("a bug\nover two lines")
                table.stand_ins[seat].choose = choose  # type: ignore[method-assign]

            service._seat_bot = broken_stand_in  # type: ignore[method-assign]
            await service.hand_over(table, 0, 1)
            await _settle(service)
            assert table.game.has_committed(1) and 1 not in table.busy  # a random legal pick instead

    with caplog.at_level(logging.ERROR, logger="sushigo.server"):
        asyncio.run(main())
    [record] = caplog.records
    assert record.exc_info is None and "\n" not in record.getMessage()
    assert "the bot at seat 1 failed (RuntimeError: a bug over two lines)" in record.getMessage()


def test_a_table_of_heavy_bots_does_not_delay_another_tables_bot(tmp_path: Path) -> None:
    """Issue 37: three ``ismcts:iterations=20000`` bots (seconds each) started
    first must not hold the bot of another table, whose deadline is 0.3 s: each
    search bot thinks in its own thread until its own deadline, so the light
    table's bot has decided before any heavy one (with two shared threads it
    waited behind them).  And the event loop is not starved meanwhile: the
    searching threads hand it the GIL (``yield_every``; without it CPython left
    it waiting 0.7-1.6 s at a time while three searches ran)."""

    async def until(done: Any) -> None:
        while not done():
            await asyncio.sleep(0.01)

    async def main() -> None:
        async with _service(tmp_path) as service:
            heavy_spec = "bot:ismcts:iterations=20000"
            heavy, _, _ = await service.create(parse_create(json.dumps(
                {"players": 4, "seats": ["human", heavy_spec, heavy_spec, heavy_spec]}).encode()))
            light, _, _ = await service.create(parse_create(json.dumps(
                {"players": 2, "seats": ["human", "bot:ismcts:time=0.3"]}).encode()))
            assert heavy.think == {1: 2.0, 2: 2.0, 3: 2.0} and light.think == {1: 0.3}
            for table in (heavy, light):  # the heavy table's bots start thinking first
                service.attach(table, Watcher(0))
                await service.rename(table, 0, "Ana")
            finished: list[str] = []
            gaps = [0.0]

            async def tick() -> None:  # how long the loop goes without running a task that asked for 20 ms
                while True:
                    before = time.monotonic()
                    await asyncio.sleep(0.02)
                    gaps.append(time.monotonic() - before)

            ticker = asyncio.create_task(tick())

            async def watch(name: str, table: LiveTable, seats: range) -> None:
                await until(lambda: any(table.game.has_committed(s) for s in seats))
                finished.append(name)

            await asyncio.wait_for(asyncio.gather(watch("heavy", heavy, range(1, 4)),
                                                  watch("light", light, range(1, 2))), timeout=60)
            assert finished == ["light", "heavy"]  # before any heavy bot decided
            await until(lambda: all(heavy.game.has_committed(s) for s in range(1, 4)))
            ticker.cancel()
            assert max(gaps) < 0.75, max(gaps)
            assert all(0 < heavy.bots[s].last_iterations < 20000 for s in (1, 2, 3))  # type: ignore[attr-defined]
            await _settle(service)

    asyncio.run(main())
