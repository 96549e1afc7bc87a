"""Engine speed benchmark: random legal games with the engine's own API.

``sushigo bench --players 4 --games 20000`` (or ``python -m sushigo.sim.bench``)
plays full games in one process, each seat picking uniformly at random among
its legal actions (chopsticks pairs included), and reports games per second.

>>> stats = run_bench(players=3, games=20, seed=1)
>>> stats.games
20
>>> run_bench(players=6, games=3, seed=1, edition="party", menu="Big Banquet").games
3

With ``edition="party"`` the games are Sushi Go Party! games on ``menu``
(default ``"Sushi Go!"``): ``api="step"`` commits a random legal action for
every pending seat (picks, then the decisions of chopsticks, spoons, menus
and takeout boxes), ``api="playout"`` uses ``PartyGame.random_playout``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from sushigo.engine.base.game import Game
from sushigo.engine.editions import EDITIONS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class BenchResult:
    players: int
    games: int
    seconds: float
    picks: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def run_bench(
    players: int = 4,
    games: int = 10_000,
    seed: int | None = 0,
    *,
    pass_both_ways: bool = False,
    reshuffle: bool = False,
    api: str = "step",
    edition: str = "base",
    menu: str | None = None,
) -> BenchResult:
    """Play ``games`` random legal games; the clock covers dealing, legal-move
    generation, the random choice, validation, reveal, passing and scoring.

    ``api="step"`` drives the public per-decision API (``legal_actions`` for
    every seat, then ``play``); ``api="playout"`` uses
    :meth:`~sushigo.engine.base.game.Game.random_playout`, the engine's rollout loop.
    Both play the very same games for the same seed.
    """
    if api not in ("step", "playout"):
        raise ValueError(f"unknown api {api!r} (step or playout)")
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r} (base or party)")

    def base() -> BenchResult:
        rules = Rules(players, pass_both_ways=pass_both_ways, reshuffle=reshuffle)
        return _run_base_bench(players, games, seed, api, rules)

    def party() -> BenchResult:
        return _run_party_bench(players, games, seed, api, menu if menu is not None else "Sushi Go!")

    return EDITIONS[edition].select(base, party)()


def _run_base_bench(players: int, games: int, seed: int | None, api: str, rules: Rules) -> BenchResult:
    rng = random.Random(seed)
    random_ = rng.random
    seats = range(players)
    picks = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Game(rules, rng=rng)
        if api == "playout":
            game.random_playout(rng)
            picks += players * rules.hand_size * 3
            continue
        legal = game.legal_actions
        play = game.play
        while not game.is_over:
            turn = []
            for s in seats:
                actions = legal(s)
                turn.append(actions[int(random_() * len(actions))])
            play(turn)
            picks += players
    seconds = time.perf_counter() - start
    return BenchResult(players=players, games=games, seconds=seconds, picks=picks)


def _run_party_bench(players: int, games: int, seed: int | None, api: str, menu: str) -> BenchResult:
    """Party games (Sushi Go Party!); ``picks`` counts every committed action."""
    rules = Rules.party(players, menu)
    rng = random.Random(seed)
    random_ = rng.random
    picks = 0
    start = time.perf_counter()
    for _ in range(games):
        game = PartyGame(rules, rng=rng)
        if api == "playout":
            game.random_playout(rng)
            picks += players * rules.hand_size * 3
            continue
        legal = game.legal_actions
        commit = game.commit
        while not game.is_over:
            for s in game.pending_seats:
                actions = legal(s)
                commit(s, actions[int(random_() * len(actions))])
                picks += 1
    seconds = time.perf_counter() - start
    return BenchResult(players=players, games=games, seconds=seconds, picks=picks)


def profile_bench(
    players: int,
    games: int,
    seed: int | None,
    top: int = 15,
    api: str = "step",
    edition: str = "base",
    menu: str | None = None,
) -> str:
    """A cProfile summary (by own time) of :func:`run_bench`, as text."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    run_bench(players, games, seed, api=api, edition=edition, menu=menu)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


if __name__ == "__main__":  # pragma: no cover
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    g = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    r = run_bench(n, g)
    print(f"{r.games_per_second:.1f} games/s")
