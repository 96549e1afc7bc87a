"""Strength of one bot against a field: win rate with a 95% confidence interval.

    python benchmarks/bot_strength.py BOT OPPONENT GAMES [PLAYERS] [WORKERS] [MENU] [--both-ways]

plays GAMES games of PLAYERS seats (default 4): BOT against PLAYERS-1 copies
of OPPONENT, BOT sitting at each seat in turn on the same deal (duplicate
deals), on WORKERS processes (default 2).  With MENU, Sushi Go Party! on
that menu; with ``--both-ways``, the original game with the
``pass_both_ways`` option.  A shared win counts 1/k.  Prints
one line per completed block of games and a final summary, e.g.

    python benchmarks/bot_strength.py ismcts:time=1 greedy 400
    python benchmarks/bot_strength.py greedy random 1000
    python benchmarks/bot_strength.py learned greedy 1000 4 2 --both-ways
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

from sushigo.bots import make_bot, play_game
from sushigo.engine.rules import Rules
from sushigo.tournament.ratings import wilson_interval as wilson


def one_game(args: tuple[str, str, int, int, str | None, bool]) -> tuple[float, int, float, int, int]:
    """(win share, score, mean opponent score, searches, search iterations) of game ``g``."""
    spec, opponent, players, g, menu, both_ways = args
    deal, seat = divmod(g, players)
    bots = [make_bot(opponent, 1000 * g + s) for s in range(players)]
    bots[seat] = make_bot(spec, 1000 * g + seat)
    rules = Rules.party(players, menu) if menu else Rules(players, pass_both_ways=both_ways)
    game = play_game(bots, seed=deal, rules=rules)
    result = game.result()
    share = 1 / len(result.winners) if seat in result.winners else 0.0
    others = [t for s, t in enumerate(result.totals) if s != seat]
    bot = bots[seat]
    searches = getattr(bot, "searches", 0)
    return share, result.totals[seat], sum(others) / len(others), searches, getattr(bot, "total_iterations", 0)


def main(argv: list[str]) -> None:
    both_ways = "--both-ways" in argv
    argv = [a for a in argv if a != "--both-ways"]
    if len(argv) < 3 or (both_ways and len(argv) > 5):
        raise SystemExit(__doc__)
    spec, opponent, games = argv[0], argv[1], int(argv[2])
    players = int(argv[3]) if len(argv) > 3 else 4
    workers = int(argv[4]) if len(argv) > 4 else 2
    menu = argv[5] if len(argv) > 5 else None
    start = time.perf_counter()
    wins = 0.0
    scores = 0
    opp = 0.0
    n = 0
    searches = iterations = 0
    with ProcessPoolExecutor(workers) as pool:
        jobs = [(spec, opponent, players, g, menu, both_ways) for g in range(games)]
        for share, score, other, k, its in pool.map(one_game, jobs, chunksize=1):
            n += 1
            searches += k
            iterations += its
            wins += share
            scores += score
            opp += other
            if n % 50 == 0 or n == games:
                lo, hi = wilson(wins, n)
                print(
                    f"{n:5d} games  win rate {wins / n:.3f} [{lo:.3f}, {hi:.3f}]  "
                    f"mean score {scores / n:.1f} vs {opp / n:.1f}  ({time.perf_counter() - start:.0f} s)",
                    flush=True,
                )
    lo, hi = wilson(wins, n)
    if searches:
        print(f"search: {iterations / searches:.0f} iterations per searched decision ({searches} decisions)")
    print(
        f"{spec} vs {players - 1} x {opponent}, {players} players{f', {menu}' if menu else ''}"
        f"{', passing both ways' if both_ways else ''}, {n} games: "
        f"win rate {wins / n:.3f} (95% CI {lo:.3f}-{hi:.3f}; fair share {1 / players:.3f}), "
        f"mean score {scores / n:.1f} vs {opp / n:.1f}, {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except ValueError as exc:  # a bad count, bot spec or menu: one line, no traceback
        raise SystemExit(f"error: {exc}") from None
