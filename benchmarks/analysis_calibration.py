"""How much bots of known strength lose per decision: the data behind the analysis labels.

    python benchmarks/analysis_calibration.py [base|party] [GAMES] [SAMPLES] [JOBS] [BOTS]

plays GAMES 4-player games per bot (default 16; the original game, or Sushi
Go Party! on the official 4-player menus in turn), the bot (BOTS, default
``random,greedy,learned,ismcts:time=0.1``) in seat 0 against three
``greedy``, so every bot is judged at the same kind of table; analyses every
decision of seat 0 with SAMPLES playouts per action (default 200) on JOBS
processes (default 2), and prints, per bot, the mean loss per decision, quantiles of
the loss and the share of decisions each label of
:data:`sushigo.analysis.game.THRESHOLDS` gets.  docs/analysis.md says how
the thresholds were chosen from these numbers.
"""

from __future__ import annotations

import sys
import time

from sushigo.analysis.game import LABELS, THRESHOLDS, analyze_game
from sushigo.bots import make_bot
from sushigo.bots.base import play_game
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.rules import Rules

CUTS = (0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7, 10)
MENUS = [name for name in OFFICIAL_MENUS if name != "Dinner for Two"]


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str]) -> None:
    edition = argv[0] if argv else "base"
    games = int(argv[1]) if len(argv) > 1 else 16
    samples = int(argv[2]) if len(argv) > 2 else 200
    jobs = int(argv[3]) if len(argv) > 3 else 2
    bots = (argv[4] if len(argv) > 4 else "random,greedy,learned,ismcts:time=0.1").split(",")
    thresholds = THRESHOLDS[edition]
    print(f"{edition}: {games} four-player games a bot (seat 0, against three greedy), {samples} samples an action; "
          f"thresholds {thresholds.to_json()}")
    print("bot                decisions  mean loss   q50   q75   q90   q95   q99   "
          + "  ".join(f"{x:>10}" for x in LABELS))
    for bot in bots:
        losses: list[float] = []
        labels = dict.fromkeys(LABELS, 0)
        start = time.perf_counter()
        for g in range(games):
            rules = Rules.party(4, MENUS[g % len(MENUS)]) if edition == "party" else Rules(4)
            seats = [make_bot(bot, 100 * g)] + [make_bot("greedy", 100 * g + s) for s in range(1, 4)]
            game = play_game(seats, seed=1000 + g, rules=rules)
            report = analyze_game(game, [0], samples=samples, seed=g, jobs=jobs)
            for seat in report.seats:
                for d in seat.decisions:
                    losses.append(d.loss)
                    if d.label:
                        labels[d.label] += 1
        n = len(losses)
        qs = "  ".join(f"{quantile(losses, q):4.1f}" for q in (0.5, 0.75, 0.9, 0.95, 0.99))
        shares = "  ".join(f"{100 * labels[x] / n:9.1f}%" for x in LABELS)
        print(f"{bot:<18} {n:>9}  {sum(losses) / n:9.2f}  {qs}  {shares}   ({time.perf_counter() - start:.0f} s)",
              flush=True)
        at = "  ".join(f">={x:g}: {100 * sum(1 for v in losses if v >= x) / n:.1f}%" for x in CUTS)
        print(f"{'':<18} share of decisions losing {at}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
