"""Work on the process pool: hints (each seat's estimate of its legal actions,
on tables created with hints) and game analyses ("analyse my game"), with
their queues and per-address limits."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context

from sushigo.analysis.evaluate import DEFAULT_SAMPLES, DecisionEvaluation, evaluate_decision
from sushigo.analysis.game import action_label, action_label_said, plan_analysis
from sushigo.engine.editions import AnyGame, action_text, action_words, replay
from sushigo.engine.editions import seat_view as editions_seat_view
from sushigo.i18n import _l
from sushigo.server.protocol import dump

from .base import ServiceBase
from .model import (
    ANALYSES_PER_ADDRESS,
    ANALYSIS_QUEUE,
    ANALYSIS_SEED,
    FINISHED,
    HINT_QUEUE,
    HINTS_PER_ADDRESS,
    PLAYING,
    AnalysisJob,
    LiveTable,
    TableError,
    log,
)


class Jobs(ServiceBase):
    """Hints and game analyses, computed on the worker pool."""

    def _want_hint(self, table: LiveTable, seat: int) -> None:
        """Start the hint for ``seat``'s open decision unless it has one (or is getting one)."""
        opened = table.opened[seat]
        if table.hinted.get(seat, (-1,))[0] == opened:
            return
        if self.hints_queued >= HINT_QUEUE or self.hints_of[table.owner] >= HINTS_PER_ADDRESS:
            frame = dump({"type": "hint", "round": table.game.round, "turn": table.game.turn, "busy": True,
                          "legal": [action_text(table.game, a) for a in table.game.legal_actions(seat)],
                          "samples": 0, "actions": []})
            table.hinted[seat] = (opened, frame)
            for conn in table.connections_of(seat):
                conn.send(frame)
            return
        table.hinted[seat] = (opened, "")
        self.hints_queued += 1
        self.hints_of[table.owner] += 1
        self._spawn(self._hint(table, seat, opened))

    async def _hint(self, table: LiveTable, seat: int, opened: int) -> None:
        """Value every legal action of the seat's decision from its own view, on the worker
        pool, and send the ``hint`` to that seat's connections only (if still open)."""
        try:
            async with self._analysis_slots:
                game = table.game
                if table.opened[seat] != opened or seat not in game.pending_seats or table.status != PLAYING:
                    return
                view = editions_seat_view(game, seat, world=True)
                job = partial(evaluate_decision, view, samples=DEFAULT_SAMPLES, seed=secrets.randbits(32),
                              time_limit=self.hint_seconds)
                evaluation = await asyncio.get_running_loop().run_in_executor(self._pool(), job)
            if table.game is not game or table.opened[seat] != opened or seat not in game.pending_seats:
                return
            frame = self._hint_frame(game, evaluation)
            table.hinted[seat] = (opened, frame)
            for conn in table.connections_of(seat):
                conn.send(frame)
        except Exception:  # a failed hint must not stop the table
            log.exception("hint at table %s seat %d failed", table.id, seat)
        finally:
            self.hints_queued -= 1
            self.hints_of[table.owner] -= 1
            if self.hints_of[table.owner] <= 0:
                del self.hints_of[table.owner]

    async def analysis(self, table_id: str, seat: int, *, start: bool = False,
                       address: str = "") -> AnalysisJob | None:
        """The analysis of ``seat`` in finished table ``table_id``: from the database if it was
        made before, else the job computing it (``start``: start one if there is none).

        ``None``: nothing asked for yet.  Raises :class:`TableError`: ``no_table``,
        ``not_finished``, ``bad_request`` (no such seat), ``busy`` (the queue is full).
        """
        summary = await self.summary(table_id)
        if summary is None:
            raise TableError("no_table", _l("no table {id}", id=repr(table_id)))
        if summary["status"] != FINISHED:
            raise TableError("not_finished", _l("a game is analysed once it is finished"))
        return await self.record_analysis(table_id, summary["players"], seat, lambda: self.record(table_id),
                                          start=start, address=address)

    async def record_analysis(self, key: str, players: int, seat: int,
                              record: Callable[[], Awaitable[str | None]], *, start: bool = False,
                              address: str = "") -> AnalysisJob | None:
        """The analysis of ``seat`` in the finished game stored under ``key`` (a table's id, or
        an uploaded record's key, see :mod:`sushigo.server.replays`), whose record ``record()`` reads:
        as :meth:`analysis`, which checks that the table is finished first."""
        if not 0 <= seat < players:
            raise TableError("bad_request", _l("seat {seat}: the game has seats 0 to {last}",
                                               seat=str(seat), last=players - 1))
        job = self.analyses.get((key, seat))
        if job is not None and job.status != "failed":
            return job
        stored = await asyncio.to_thread(self.store.analysis, key, seat, self.analysis_samples, ANALYSIS_SEED)
        if stored is not None:
            return AnalysisJob(key, seat, "done", 1, 1, stored)
        if not start:
            return job
        job = self.analyses.get((key, seat))  # asked for meanwhile (the await above)?
        if job is not None and job.status != "failed":
            return job
        working = [j for j in self.analyses.values() if j.status in ("queued", "running")]
        if sum(1 for j in working if j.address == address) >= ANALYSES_PER_ADDRESS:
            raise TableError("rate_limited", _l("this address has a game being analysed already: "
                                                "ask again once it is done"))
        if len(working) >= ANALYSIS_QUEUE:
            raise TableError("busy", _l("the server is analysing other games: try again in a minute"))
        job = self.analyses[(key, seat)] = AnalysisJob(key, seat, address=address)  # before any await: it counts
        text = await record()
        if text is None:
            del self.analyses[(key, seat)]
            raise TableError("no_table", _l("this game has no stored record"))
        self._spawn(self._analyse(job, text))
        return job

    async def _analyse(self, job: AnalysisJob, record: str) -> None:
        """Evaluate every decision of the job's seat on the worker pool, a few at a time
        (each takes a pool slot, so hints wait behind at most those), then store the document."""
        try:
            game = await asyncio.to_thread(replay, json.loads(record))
            plan = await asyncio.to_thread(plan_analysis, game, [job.seat], samples=self.analysis_samples,
                                           seed=ANALYSIS_SEED)
            tasks = plan.tasks
            job.total, job.status = len(tasks), "running"
            results: list[DecisionEvaluation | None] = [None] * len(tasks)
            next_task = iter(range(len(tasks)))
            loop = asyncio.get_running_loop()

            async def worker() -> None:
                for i in next_task:
                    view, samples, seed = tasks[i]
                    async with self._analysis_slots:
                        results[i] = await loop.run_in_executor(
                            self._pool(), partial(evaluate_decision, view, samples=samples, seed=seed))
                    job.done += 1

            await asyncio.gather(*(worker() for _ in range(self.analysis_workers)))
            doc = plan.finish([r for r in results if r is not None]).to_json(lambda a: action_label(game, a),
                                                                             lambda a: action_label_said(game, a))
            await asyncio.to_thread(self.store.save_analysis, job.table_id, job.seat, self.analysis_samples,
                                    ANALYSIS_SEED, doc, time.time())
            job.doc, job.status = doc, "done"
        except Exception:  # a failed analysis must not stop the server; asking again retries
            log.exception("analysis of table %s seat %d failed", job.table_id, job.seat)
            job.status = "failed"

    def _pool(self) -> ProcessPoolExecutor:
        if self._analysis_pool is None:
            self._analysis_pool = ProcessPoolExecutor(self.analysis_workers, mp_context=get_context("spawn"))
        return self._analysis_pool

    @staticmethod
    def _hint_frame(game: AnyGame, ev: DecisionEvaluation) -> str:
        best = ev.best
        return dump({
            "type": "hint", "round": game.round, "turn": game.turn, "busy": False,
            "legal": [action_text(game, a) for a in game.legal_actions(ev.seat)],
            "samples": len(best.margins),
            "actions": [{"action": v.action, "text": action_text(game, v.action),
                         "words": action_words(game, v.action),
                         "words_msg": action_label_said(game, v.action), "margin": round(v.margin, 2),
                         "win": round(v.win, 3), "loss": round(ev.loss(v.action), 2)}
                        for v in ev.values],
        })
