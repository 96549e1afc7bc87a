"""Tournaments: many games between bots, with rotating seats and duplicate deals.

The bots listed form the table (one seat each).  Seats rotate game by game
and, by default, the ``n`` games of each set share one deal, so every bot
plays every seat of the same deck (:mod:`~sushigo.tournament.schedule`).
Games run in local processes or on Ray (:mod:`~sushigo.tournament.runner`),
and are summarized per bot with confidence intervals and openskill ratings
(:mod:`~sushigo.tournament.summary`).  ``sushigo tournament`` is the command
line; ``docs/tournaments.md`` the guide.

>>> from sushigo.tournament import run_tournament
>>> result = run_tournament(["greedy", "random", "random"], games=3, seed=1, workers=1)
>>> [g.seats[0] for g in result.games]
['greedy', 'random', 'random']
>>> summary = result.summary()
>>> [b.games for b in summary.bots], round(sum(b.wins for b in summary.bots), 9)
([3, 3, 3], 3.0)
"""

from sushigo.tournament.play import close_external_bots, play_scheduled
from sushigo.tournament.ratings import Rating, rank_seats, wilson_interval
from sushigo.tournament.results import BotSummary, GameResult, TournamentResult, TournamentSummary, summarize
from sushigo.tournament.runner import BACKENDS, run_tournament
from sushigo.tournament.schedule import ScheduledGame, TournamentError, derive_seed, schedule, scheduled_game
from sushigo.tournament.store import read_games, save_results

__all__ = [
    "BACKENDS",
    "BotSummary",
    "GameResult",
    "Rating",
    "ScheduledGame",
    "TournamentError",
    "TournamentResult",
    "TournamentSummary",
    "close_external_bots",
    "derive_seed",
    "play_scheduled",
    "rank_seats",
    "read_games",
    "run_tournament",
    "save_results",
    "schedule",
    "scheduled_game",
    "summarize",
    "wilson_interval",
]
