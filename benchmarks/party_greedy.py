"""Greedy's strength in Sushi Go Party!: one greedy bot against random bots.

    python benchmarks/party_greedy.py [GAMES] [PLAYERS] ["Menu;Menu..."]

For every official menu (or the ones given), plays GAMES games at PLAYERS
seats (default 500 and 4), greedy's seat rotating, and prints greedy's win
rate (a shared win counts as a share) and its mean lead over the best
opponent.  A random bot would win 1/PLAYERS of the games.
"""

from __future__ import annotations

import sys
import time

from sushigo.bots import GreedyBot, RandomBot, play_game
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.rules import Rules, RulesError


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 500
    players = int(argv[1]) if len(argv) > 1 else 4
    menus = argv[2].split(";") if len(argv) > 2 else list(OFFICIAL_MENUS)
    for menu in menus:
        try:
            rules = Rules.party(players, menu)
        except RulesError as e:
            print(f"{menu:18s} skipped: {e}")
            continue
        start = time.perf_counter()
        wins = 0.0
        lead = 0
        for g in range(games):
            seat = g % players
            bots = [GreedyBot(seed=g) if s == seat else RandomBot(seed=1000 * g + s) for s in range(players)]
            result = play_game(bots, seed=g, rules=rules).result()
            if seat in result.winners:
                wins += 1 / len(result.winners)
            lead += result.totals[seat] - max(t for s, t in enumerate(result.totals) if s != seat)
        print(f"{menu:18s} greedy win rate {wins / games:.1%}  mean lead {lead / games:+.1f}  "
              f"({games} games, {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
