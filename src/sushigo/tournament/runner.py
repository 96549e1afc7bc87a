"""Play a tournament's games, locally in processes or on Ray, and collect them.

The game function (:func:`~sushigo.tournament.play.play_scheduled`) is the same on every backend and
depends only on the :class:`~sushigo.tournament.schedule.ScheduledGame` and
the rules, so the same seed gives the same games however they are spread.
Built-in bots are made afresh for each game with ``make_bot(spec, seed)``;
external ``cmd:`` bots are kept alive per worker process (one program serves
many games), reseeded before each game, and closed when the worker ends.

>>> result = run_tournament(["greedy", "random"], games=2, seed=5, workers=1)
>>> [g.seats for g in result.games]
[('greedy', 'random'), ('random', 'greedy')]
>>> result.games[0].deal_seed == result.games[1].deal_seed
True
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Final

from sushigo.bots import make_bot
from sushigo.engine.rules import Rules, RulesError
from sushigo.i18n import _l, message_of
from sushigo.tournament._ray import run_ray
from sushigo.tournament.play import ChunkOutcome, close_external_bots, play_chunk
from sushigo.tournament.results import GameResult, TournamentResult
from sushigo.tournament.schedule import ScheduledGame, TournamentError, one_line, schedule

BACKENDS: Final = ("local", "ray")
"""The ways to run the games: ``local`` processes or a ``ray`` cluster."""

MAX_CHUNK: Final = 25
"""Most games one task plays before reporting back (for progress and balance)."""

Progress = Callable[[int, int], None]
"""A progress callback: ``progress(games_done, games_total)``."""


# ------------------------------------------------------------- one game


# ------------------------------------------------------------- backends


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def chunked(games: Sequence[ScheduledGame], workers: int) -> list[list[ScheduledGame]]:
    """Split games into tasks: about 8 per worker, at most :data:`MAX_CHUNK` games each."""
    size = max(1, min(MAX_CHUNK, len(games) // (workers * 8)))
    return [list(games[i:i + size]) for i in range(0, len(games), size)]


def _run_local(
    chunks: list[list[ScheduledGame]],
    rules: Rules,
    time_limit: float | None,
    keep_records: bool,
    workers: int,
    on_chunk: Callable[[ChunkOutcome], None],
) -> None:
    if workers <= 1 or len(chunks) <= 1:
        try:
            for chunk in chunks:
                on_chunk(play_chunk(chunk, rules, time_limit, keep_records))
        finally:
            close_external_bots()
        return
    import multiprocessing

    # spawn: workers start clean (no copy of the caller's threads or bots).
    pool = ProcessPoolExecutor(min(workers, len(chunks)), mp_context=multiprocessing.get_context("spawn"),
                               initializer=_ignore_interrupts)
    try:
        pending: set[Future[ChunkOutcome]] = {
            pool.submit(play_chunk, chunk, rules, time_limit, keep_records) for chunk in chunks
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                on_chunk(future.result())
    except BaseException as e:
        # don't wait for the games under way (a search bot may take minutes)
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(e, BrokenProcessPool):
            raise TournamentError(_l("a worker process died ({why})", why=message_of(e)), usage=False) from None
        raise
    pool.shutdown(wait=True)


def _ignore_interrupts() -> None:
    """Pool workers leave Ctrl-C to the main process, which stops them."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def check_bots(specs: Sequence[str], time_limit: float | None) -> None:
    """Make each bot once, to report a bad spec or setting as a one-line
    :class:`TournamentError` (an external bot starts its program only when first asked)."""
    for spec in specs:
        if not isinstance(spec, str) or not spec.strip():
            raise TournamentError(_l("a bot spec must be a name such as 'greedy', not {spec}", spec=repr(spec)))
        try:
            make_bot(spec, 0, timeout=time_limit).close()
        except (ValueError, TypeError) as e:
            # TRANSLATORS: {spec}: a bot spec such as 'greedy'; {why}: what is wrong with it
            raise TournamentError(_l("bot {spec}: {why}", spec=repr(spec), why=one_line(e))) from None


def run_tournament(
    specs: Sequence[str],
    *,
    games: int = 100,
    seed: int | None = None,
    rules: Rules | None = None,
    workers: int | None = None,
    backend: str = "local",
    duplicate: bool = True,
    time_limit: float | None = None,
    keep_records: bool = True,
    ray_address: str | None = None,
    progress: Progress | None = None,
    on_games: Callable[[list[GameResult]], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games between the bots ``specs`` (one seat each) and return them.

    Args:
        specs: bot specs (``'greedy'``, ``'ismcts:time=0.2'``, ``'cmd:python3 bot.py'``);
            the same spec may be listed twice.
        games: how many games (seats rotate; see :mod:`~sushigo.tournament.schedule`).
        seed: the tournament seed (``None``: a random one, kept in the result).
        rules: the rules of every game (default: the base game for ``len(specs)``).
        workers: processes (local) or CPUs (a Ray started here); default: all cores.
            ``1`` plays in this process.
        backend: ``'local'`` or ``'ray'`` (needs ``pip install 'sushigo[ray]'``).
        duplicate: share each set's deal between its games (duplicate deals).
        time_limit: seconds per decision for external bots (``make_bot(..., timeout=)``).
        keep_records: keep every game's record (for ``--out``; costs memory and time).
        ray_address: a Ray cluster to connect to (default: a local Ray, or the
            one this process is already connected to).
        progress: called as ``progress(done, total)`` as games finish.
        on_games: called with each batch of finished games as it arrives (in
            no particular order), before a failing game's error is raised:
            to save games as they come.

    Raises :class:`~sushigo.tournament.schedule.TournamentError` (one line)
    for bad settings, or when a game fails.
    """
    specs = list(specs)
    if len(specs) < 2:
        raise TournamentError(_l("a tournament needs 2 or more bots, not {count}", count=len(specs)))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        # TRANSLATORS: games (a setting's name, as it is): how many games the tournament plays
        raise TournamentError(_l("games must be a whole number of 1 or more, not {games}", games=repr(games)))
    if backend not in BACKENDS:
        raise TournamentError(_l("unknown backend {backend} (choose from: {choices})", backend=repr(backend),
                                 choices=", ".join(BACKENDS)))
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        # TRANSLATORS: workers (a setting's name, as it is): how many processes play the games
        raise TournamentError(_l("workers must be a whole number of 1 or more, not {workers}", workers=repr(workers)))
    if time_limit is not None and not time_limit > 0:
        raise TournamentError(_l("the time limit must be more than 0 seconds, not {time_limit}",
                                 time_limit=repr(time_limit)))
    if rules is None:
        try:
            rules = Rules(len(specs))
        except RulesError as e:
            # TRANSLATORS: {count} (2 or more): how many bots were listed; {why}: why the rules refuse that many
            raise TournamentError(_l("{count} bots: {why}", count=len(specs), why=message_of(e))) from None
    elif rules.players != len(specs):
        raise TournamentError(_l("{count} bots for a {players}-player game: list one bot per seat",
                                 count=len(specs), players=rules.players))
    check_bots(specs, time_limit)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    workers = workers if workers is not None else default_workers()

    todo = schedule(specs, games, seed=seed, duplicate=duplicate)
    chunks = chunked(todo, workers)
    results: list[GameResult] = []

    def on_chunk(outcome: ChunkOutcome) -> None:
        results.extend(outcome.results)
        if on_games is not None and outcome.results:
            on_games(list(outcome.results))
        if outcome.error is not None:
            raise TournamentError(outcome.error, usage=False)
        if progress is not None:
            progress(len(results), games)

    start = time.perf_counter()
    if backend == "ray":
        run_ray(chunks, rules, time_limit, keep_records, workers, ray_address, on_chunk)
    else:
        _run_local(chunks, rules, time_limit, keep_records, workers, on_chunk)
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r.game)
    return TournamentResult(
        specs=tuple(specs),
        seed=seed,
        rules=rules,
        duplicate=duplicate,
        backend=backend,
        workers=workers,
        time_limit=time_limit,
        games=results,
        seconds=seconds,
    )
