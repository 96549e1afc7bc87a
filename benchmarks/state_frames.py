"""Benchmark: the ``state`` frames of whole games, every seat and a spectator at every moment.

Plays ``--games`` 5-player original-game tables (and ``--party`` Party ones)
with random picks in memory, and after every decision builds the frame of
every seat and the spectator, as a publish does (``StateFrames``).  Prints
frames per second.  Compare against ``benchmarks/yardstick.py`` on one core:

    taskset -c 0 python benchmarks/state_frames.py --games 40
"""

from __future__ import annotations

import argparse
import random
import time

from sushigo.engine.editions import new_game
from sushigo.engine.flags import rules_from_flags
from sushigo.server.tables import PLAYING, WAITING, LiveTable, Seat, StateFrames


def one_game(players: int, seed: int, party: bool) -> int:
    flags = {"edition": "party", "menu": "My First Meal"} if party else {}
    rules = rules_from_flags(players, label="bench", **flags)  # type: ignore[arg-type]
    seats = [Seat(i, "human", None, f"P{i}", None) for i in range(players)]
    table = LiveTable(id="t", created=0.0, rules=rules, seed=seed, timer=None, status=WAITING,
                      seats=seats, game=new_game(rules, seed=seed), opened=[0] * players)
    table.status = PLAYING
    game, rng, frames = table.game, random.Random(seed), 0
    while not game.is_over:
        seat = rng.choice(sorted(game.pending_seats))
        game.commit(seat, rng.choice(game.legal_actions(seat)))
        table.seq += 1
        built = StateFrames(table)
        for s in [None, *range(players)]:
            built.text(s)
            frames += 1
    return frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--party", type=int, default=0, help="Party games besides (My First Meal)")
    args = parser.parse_args()
    start = time.perf_counter()
    frames = sum(one_game(5, g, False) for g in range(args.games))
    frames += sum(one_game(5, g, True) for g in range(args.party))
    took = time.perf_counter() - start
    print(f"{frames} frames in {took:.2f} s: {frames / took:,.0f} frames/s")


if __name__ == "__main__":
    main()
