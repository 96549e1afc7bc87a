"""Play a tournament's games, locally in processes or on Ray, and collect them.

The game function (:func:`play_scheduled`) is the same on every backend and
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

import atexit
import dataclasses
import os
import random
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Final, Sequence, cast

from sushigo.bots import EXTERNAL_PREFIX, Bot, Player, make_bot, play_game
from sushigo.party.game import PartyResult
from sushigo.record import to_record
from sushigo.rules import Rules, RulesError
from sushigo.tournament.ratings import rank_seats
from sushigo.tournament.schedule import ScheduledGame, TournamentError, derive_seed, schedule

if TYPE_CHECKING:
    from sushigo.tournament.summary import TournamentSummary

BACKENDS: Final = ("local", "ray")
"""The ways to run the games: ``local`` processes or a ``ray`` cluster."""

MAX_CHUNK: Final = 25
"""Most games one task plays before reporting back (for progress and balance)."""

Progress = Callable[[int, int], None]
"""A progress callback: ``progress(games_done, games_total)``."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One played game: the schedule's facts, the outcome, and optionally the record.

    Per-seat tuples (``seats``, ``bot_index``, ``bot_seeds``, ``totals``,
    ``ranks``) are in seat order, ``winners`` holds seats; use
    :meth:`seat_of` to go from a listed bot to its seat.
    """

    game: int
    set: int
    deal_seed: int
    seats: tuple[str, ...]
    bot_index: tuple[int, ...]
    bot_seeds: tuple[int, ...]
    totals: tuple[int, ...]
    """Final scores by seat."""
    winners: tuple[int, ...]
    """Winning seats (several when the win is shared)."""
    ranks: tuple[float, ...]
    """Ranks by seat, 1 = best; ties share the average place."""
    incidents: tuple[dict[str, Any], ...] = ()
    """What external bots reported in this game (timeouts, bad replies...):
    their incident fields plus ``game_index``, ``bot`` (listed index) and ``name`` (spec)."""
    record: dict[str, Any] | None = field(default=None, repr=False)
    """The game record (:func:`sushigo.record.to_record`), when kept."""

    def seat_of(self, bot: int) -> int:
        """The seat of listed bot ``bot``."""
        return self.bot_index.index(bot)

    def win_share(self, bot: int) -> float:
        """``1/k`` if listed bot ``bot`` is one of ``k`` winners, else 0."""
        return 1 / len(self.winners) if self.seat_of(bot) in self.winners else 0.0

    def to_json(self, rules: Rules) -> dict[str, Any]:
        """The game's line in ``games.jsonl`` (see ``docs/tournaments.md``)."""
        return {
            "game": self.game,
            "set": self.set,
            "deal_seed": self.deal_seed,
            "edition": rules.edition,
            "menu": list(rules.menu) if rules.is_party else None,
            "players": len(self.seats),
            "seats": list(self.seats),
            "bot_index": list(self.bot_index),
            "bot_seeds": list(self.bot_seeds),
            "totals": list(self.totals),
            "winners": list(self.winners),
            "ranks": list(self.ranks),
            "incidents": [dict(i) for i in self.incidents],
            "record": self.record,
        }


@dataclass(frozen=True)
class TournamentResult:
    """The games of a tournament, in game order, with the settings that made them."""

    specs: tuple[str, ...]
    """The listed bots, in order (one seat each)."""
    seed: int
    rules: Rules
    duplicate: bool
    backend: str
    workers: int
    time_limit: float | None
    games: list[GameResult]
    seconds: float = 0.0
    """Wall-clock time of the run."""

    def summary(self) -> TournamentSummary:
        """Per-bot results, confidence intervals and ratings (:mod:`~sushigo.tournament.summary`)."""
        from sushigo.tournament.summary import summarize

        return summarize(self)

    def settings(self) -> dict[str, Any]:
        """The run's settings, as saved in ``summary.json``."""
        return {
            "seed": self.seed,
            "games": len(self.games),
            "players": len(self.specs),
            "edition": self.rules.edition,
            "menu": list(self.rules.menu) if self.rules.is_party else None,
            "options": self.rules.options(),
            "duplicate": self.duplicate,
            "backend": self.backend,
            "workers": self.workers,
            "time_limit": self.time_limit,
        }


# ------------------------------------------------------------- one game


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an external program (``cmd:COMMAND``)."""
    return spec.strip().lower().startswith(EXTERNAL_PREFIX)


_EXTERNAL_BOTS: dict[tuple[str, float | None, int], Bot] = {}
"""This process's live external bots, by (spec, time limit, listed index).  A
bot is made with a seed derived from the tournament seed and its index (the
program sees it as ``SUSHIGO_BOT_SEED``) and reseeded before every game."""
_closer_registered = False


def _external_bot(spec: str, time_limit: float | None, bot: int, seed: int) -> Bot:
    global _closer_registered
    key = (spec, time_limit, bot)
    found = _EXTERNAL_BOTS.get(key)
    if found is None:
        if not _closer_registered:
            # atexit for the main process and Ray workers; multiprocessing's
            # finalizers for pool workers, which leave with os._exit.
            from multiprocessing import util

            atexit.register(close_external_bots)
            util.Finalize(None, close_external_bots, exitpriority=10)
            _closer_registered = True
        found = _EXTERNAL_BOTS[key] = make_bot(spec, seed, timeout=time_limit)
    return found


def close_external_bots() -> None:
    """Close the external bots this process keeps (called when a worker ends)."""
    while _EXTERNAL_BOTS:
        _, bot = _EXTERNAL_BOTS.popitem()
        try:
            bot.close()
        except Exception:  # noqa: BLE001 - closing must not stop the others
            pass


def _incident_json(incident: Any, game: int, bot: int, spec: str) -> dict[str, Any]:
    to_json = getattr(incident, "to_json", None)
    if callable(to_json):
        fields = dict(to_json())
    elif dataclasses.is_dataclass(incident) and not isinstance(incident, type):
        fields = dataclasses.asdict(incident)
    elif isinstance(incident, dict):
        fields = dict(incident)
    else:
        fields = {"kind": "incident", "detail": str(incident)}
    out: dict[str, Any] = {"game_index": game, "bot": bot, "name": spec}
    for key, value in fields.items():
        plain = value is None or isinstance(value, (bool, int, float, str))
        out.setdefault(str(key), value if plain else str(value))
    return out


def play_scheduled(
    game: ScheduledGame, rules: Rules, *, time_limit: float | None = None, keep_record: bool = True
) -> GameResult:
    """Play one scheduled game and return its result (the same on every backend)."""
    bots: list[Bot] = []
    fresh: list[Bot] = []
    try:
        for spec, k, seed in zip(game.seats, game.bot_index, game.bot_seeds):
            if is_external(spec):
                bot = _external_bot(spec, time_limit, k, derive_seed(game.tournament_seed, "external", k))
                bot.rng.seed(seed)
            else:
                bot = make_bot(spec, seed, timeout=time_limit)
                fresh.append(bot)
            bots.append(bot)
        marks = [len(getattr(b, "incidents", ())) for b in bots]
        # cast: mypy doesn't match Bot's ClassVar ``name`` with Player's attribute.
        played = play_game(cast("list[Player]", bots), seed=game.deal_seed, rules=rules, game_id=game.game_id)
    finally:
        for bot in fresh:
            bot.close()
    result = played.result()
    tiebreak = result.dessert_cards if isinstance(result, PartyResult) else result.puddings
    incidents = tuple(
        _incident_json(incident, game.game, k, spec)
        for bot, mark, k, spec in zip(bots, marks, game.bot_index, game.seats)
        for incident in list(getattr(bot, "incidents", ()))[mark:]
    )
    record = None
    if keep_record:
        meta = {
            "bots": list(game.seats),
            "names": list(game.seats),
            "bot_seeds": list(game.bot_seeds),
            "tournament": {"seed": game.tournament_seed, "game": game.game, "set": game.set},
        }
        record = to_record(played, meta=meta)
    return GameResult(
        game=game.game,
        set=game.set,
        deal_seed=game.deal_seed,
        seats=game.seats,
        bot_index=game.bot_index,
        bot_seeds=game.bot_seeds,
        totals=tuple(result.totals),
        winners=tuple(result.winners),
        ranks=rank_seats(result.totals, tiebreak),
        incidents=incidents,
        record=record,
    )


@dataclass(frozen=True, slots=True)
class ChunkOutcome:
    """What one task sends back: its games, or the one-line error that stopped it."""

    results: list[GameResult]
    error: str | None = None


def play_chunk(
    games: Sequence[ScheduledGame], rules: Rules, time_limit: float | None, keep_records: bool
) -> ChunkOutcome:
    """Play ``games`` in order (one task of a backend); errors come back as text."""
    results = []
    for game in games:
        try:
            results.append(play_scheduled(game, rules, time_limit=time_limit, keep_record=keep_records))
        except Exception as e:  # noqa: BLE001 - reported to the caller as one line
            message = " ".join(str(e).split()) or type(e).__name__
            return ChunkOutcome(results, f"game {game.game} ({', '.join(game.seats)}): {message}")
    return ChunkOutcome(results)


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
            raise TournamentError(f"a worker process died ({e})", usage=False) from None
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
            raise TournamentError(f"a bot spec must be a name such as 'greedy', not {spec!r}")
        try:
            make_bot(spec, 0, timeout=time_limit).close()
        except (ValueError, TypeError) as e:
            raise TournamentError(f"bot {spec!r}: {' '.join(str(e).split())}") from None


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
        raise TournamentError(f"a tournament needs 2 or more bots, not {len(specs)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"games must be a whole number of 1 or more, not {games!r}")
    if backend not in BACKENDS:
        raise TournamentError(f"unknown backend {backend!r} (choose from: {', '.join(BACKENDS)})")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise TournamentError(f"workers must be a whole number of 1 or more, not {workers!r}")
    if time_limit is not None and not time_limit > 0:
        raise TournamentError(f"the time limit must be more than 0 seconds, not {time_limit!r}")
    if rules is None:
        try:
            rules = Rules(len(specs))
        except RulesError as e:
            raise TournamentError(f"{len(specs)} bots: {e}") from None
    elif rules.players != len(specs):
        raise TournamentError(f"{len(specs)} bots for a {rules.players}-player game: list one bot per seat")
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
        from sushigo.tournament._ray import run_ray

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
