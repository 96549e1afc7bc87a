"""How long analysing one seat's whole game takes, as `sushigo analyze RECORD --seat 0` does it.

    python benchmarks/analysis_speed.py [base|MENU] [PLAYERS] [SAMPLES] [SEED] [JOBS]

plays a game of ``greedy`` bots (the original game, or Sushi Go Party! on
MENU, e.g. "Master Menu"; 4 players by default), writes its record, and
times :func:`sushigo.analysis.game.analyze_game` on the replayed record for
seat 0 (SAMPLES playouts per action, default 200, the default budget; JOBS
processes, default 1).  Prints the decisions analysed, the seconds they took
and greedy's mean loss per decision, then decisions per second as the last
line (for ``benchmarks/yardstick_pairs.py``, which pins the command to one
core: use JOBS 1 there).
"""

from __future__ import annotations

import sys
import time

from sushigo.analysis import DEFAULT_SAMPLES
from sushigo.analysis.game import analyze_game
from sushigo.bots import make_bot
from sushigo.bots.base import play_game
from sushigo.engine.editions import replay, to_record
from sushigo.engine.rules import Rules


def main(argv: list[str]) -> None:
    edition = argv[0] if argv else "base"
    players = int(argv[1]) if len(argv) > 1 else 4
    samples = int(argv[2]) if len(argv) > 2 else DEFAULT_SAMPLES
    seed = int(argv[3]) if len(argv) > 3 else 7
    jobs = int(argv[4]) if len(argv) > 4 else 1
    rules = Rules(players) if edition == "base" else Rules.party(players, edition)
    record = to_record(play_game([make_bot("greedy", s) for s in range(players)], seed=seed, rules=rules))
    start = time.perf_counter()
    report = analyze_game(replay(record), [0], samples=samples, jobs=jobs)
    spent = time.perf_counter() - start
    seat = report.seats[0]
    n = len(seat.decisions)
    print(f"{edition}, {players} players, {samples} samples an action, {jobs} process(es): {n} decisions of seat 0 "
          f"analysed in {spent:.1f} s; greedy's mean loss {seat.mean_loss:.2f} points a decision")
    print(f"{n / spent:.3f} decisions/s")  # the figure benchmarks/yardstick_pairs.py reads


if __name__ == "__main__":
    main(sys.argv[1:])
