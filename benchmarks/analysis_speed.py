"""How long analysing one seat's whole game takes: every decision of seat 0 in a greedy game.

    python benchmarks/analysis_speed.py [base|MENU] [PLAYERS] [SAMPLES] [SEED]

plays a game of ``greedy`` bots (the original game, or Sushi Go Party! on
MENU, e.g. "Master Menu"; 4 players by default) and evaluates every decision
of seat 0 that has more than one legal action with
:func:`sushigo.analysis.evaluate_decision` (SAMPLES playouts per action,
default 200, the default budget), from seat 0's view.  Prints the number of
decisions, the seconds they took and greedy's mean loss per decision, then
decisions per second as the last line (for ``benchmarks/yardstick_pairs.py``).
"""

from __future__ import annotations

import sys
import time

from sushigo import Game
from sushigo.analysis import DEFAULT_SAMPLES, evaluate_decision
from sushigo.bots import make_bot
from sushigo.bots.base import view_for
from sushigo.engine.base.view import seat_view
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view
from sushigo.engine.rules import Rules


def main(argv: list[str]) -> None:
    edition = argv[0] if argv else "base"
    players = int(argv[1]) if len(argv) > 1 else 4
    samples = int(argv[2]) if len(argv) > 2 else DEFAULT_SAMPLES
    seed = int(argv[3]) if len(argv) > 3 else 7
    party = edition != "base"
    game: Game | PartyGame = PartyGame(Rules.party(players, edition), seed=seed) if party else Game(players, seed=seed)
    bots = [make_bot("greedy", s) for s in range(players)]
    decisions, loss, spent = 0, 0.0, 0.0
    while not game.is_over:
        for s in list(game.pending_seats):
            view = view_for(game, s, bots[s])
            action = bots[s].choose(view)
            if s == 0 and len(view.legal_actions) > 1:
                start = time.perf_counter()
                world = party_seat_view(game, 0, world=True) if isinstance(game, PartyGame) \
                    else seat_view(game, 0, world=True)
                ev = evaluate_decision(world, samples=samples, seed=decisions)
                spent += time.perf_counter() - start
                loss += ev.loss(action)
                decisions += 1
            game.commit(s, action)
    print(f"{edition}, {players} players, {samples} samples an action: {decisions} decisions of seat 0 "
          f"analysed in {spent:.1f} s; greedy's mean loss {loss / max(decisions, 1):.2f} points a decision")
    print(f"{decisions / spent:.3f} decisions/s")  # the figure benchmarks/yardstick_pairs.py reads


if __name__ == "__main__":
    main(sys.argv[1:])
