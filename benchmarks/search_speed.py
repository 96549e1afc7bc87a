"""Search speed: ISMCTS iterations per second on one core.

    python benchmarks/search_speed.py [PLAYERS] [ITERATIONS] [POSITIONS] [EDITION_MENU] [--policy P]

For POSITIONS positions (default 20) taken from seeded games of PLAYERS
seats (default 4) at every stage of a game, runs one ISMCTS search of
ITERATIONS iterations (default 2000) for a seat and reports iterations per
second, for the heuristic and the random playout policy (``--policy``: one
of them).  With a fourth argument (a Party menu, e.g. "Master Menu") it
measures Party positions.  As a ratio to the yardstick on one core:

    python benchmarks/yardstick_pairs.py -- python benchmarks/search_speed.py 4 2000 20 --policy heuristic
"""

from __future__ import annotations

import random
import sys
import time

from sushigo.bots.ismcts import ISMCTSBot
from sushigo.engine.base.view import seat_view
from sushigo.engine.editions import new_game
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view
from sushigo.engine.rules import Rules


def positions(players: int, count: int, menu: str | None) -> list[object]:
    views = []
    for k in range(count):
        rules = Rules.party(players, menu) if menu else Rules(players)
        game = new_game(rules, seed=k)
        rng = random.Random(k)
        stop = rng.randrange(0, 3 * rules.hand_size * players)  # decisions into the game
        for _ in range(stop):
            if game.is_over:
                break
            seat = game.pending_seats[0]
            game.commit(seat, rng.choice(game.legal_actions(seat)))
        if game.is_over or len(game.legal_actions(game.pending_seats[0])) < 2:
            continue
        seat = game.pending_seats[0]
        if isinstance(game, PartyGame):
            views.append(party_seat_view(game, seat, world=True))
        else:
            views.append(seat_view(game, seat, world=True))
    return views


def main(argv: list[str]) -> None:
    policies = ["heuristic", "random"]
    if "--policy" in argv:
        at = argv.index("--policy")
        policies = [argv[at + 1]]
        argv = argv[:at] + argv[at + 2:]
    players = int(argv[0]) if argv else 4
    iterations = int(argv[1]) if len(argv) > 1 else 2000
    count = int(argv[2]) if len(argv) > 2 else 20
    menu = argv[3] if len(argv) > 3 else None
    views = positions(players, count, menu)
    for policy in policies:
        total = 0
        elapsed = 0.0
        for i, view in enumerate(views):
            bot = ISMCTSBot(seed=i, iterations=iterations, policy=policy)
            start = time.perf_counter()
            bot.choose(view)  # type: ignore[arg-type]
            elapsed += time.perf_counter() - start
            total += bot.last_iterations
        where = f"Party {menu!r}" if menu else "base game"
        print(f"{where}, {players} players, {policy} playouts: "
              f"{total / elapsed:,.0f} iterations/s over {len(views)} positions")


if __name__ == "__main__":
    main(sys.argv[1:])
