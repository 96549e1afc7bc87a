"""Engine speed as a ratio to TAG: ``sushigo bench`` and the yardstick in turn on one core.

    python benchmarks/engine_speed.py                      # base game, 4 players, step API
    python benchmarks/engine_speed.py --api playout --players 2
    python benchmarks/engine_speed.py --edition party --menu "Master Menu" --players 8
    python benchmarks/engine_speed.py --engine batch --cpu 0,1 --games 2000000   # compiled kernel

Each round runs ``benchmarks/yardstick.py`` then ``sushigo bench`` (the same
games every round), both pinned to ``--cpu``; the last line is the median of
the pair-by-pair ratios in "x TAG" (games/s / (0.23 x yardstick)).  For the
kernel on two cores the yardstick still runs on one (it is single-threaded):
the ratio then says how many single-core TAGs the two cores are worth.
"""

from __future__ import annotations

import argparse
import sys

from yardstick_pairs import measure, summary


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=None, help="games per run (default by engine)")
    parser.add_argument("--api", choices=("step", "playout"), default="step")
    parser.add_argument("--edition", choices=("base", "party"), default="base")
    parser.add_argument("--menu", default=None)
    parser.add_argument("--engine", choices=("python", "batch"), default="python")
    parser.add_argument("--rounds", type=int, default=5, help="yardstick/bench pairs")
    parser.add_argument("--cpu", default="0", help="cores for taskset (the yardstick uses the first)")
    args = parser.parse_args(argv)
    games = args.games or (1_000_000 if args.engine == "batch" else 3000 if args.edition == "party" else 10_000)
    command = [sys.executable, "-m", "sushigo", "bench", "--players", str(args.players), "--games", str(games),
               "--api", args.api, "--edition", args.edition, "--engine", args.engine]
    if args.menu:
        command += ["--menu", args.menu]
    what = f"{args.edition} {args.players} players, {args.engine} {args.api if args.engine == 'python' else ''}"
    pairs = measure(command, rounds=args.rounds, cpu=args.cpu)
    print(summary(pairs, what.strip() + " games"))


if __name__ == "__main__":
    main(sys.argv[1:])
