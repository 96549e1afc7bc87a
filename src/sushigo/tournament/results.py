"""What a tournament produced: each game's result, the whole run, and what it
says about each bot (wins, scores, ranks, ratings, incidents).

Plain data and pure computation; :mod:`~sushigo.tournament.runner` makes
these, :mod:`~sushigo.tournament.store` saves them and
:mod:`~sushigo.tournament.summary` prints them.

>>> from sushigo.tournament import run_tournament
>>> summary = run_tournament(["greedy", "random"], games=4, seed=3, workers=1,
...                          keep_records=False).summary()
>>> [(b.name, b.games) for b in summary.bots]
[('greedy', 4), ('random', 4)]
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sushigo.engine.rules import Rules
from sushigo.tournament.lines import to_line
from sushigo.tournament.ratings import Rating, mean_interval, openskill_ratings, wilson_interval


@dataclass(frozen=True, slots=True)
class GameResult:
    """One played game: the schedule's facts, the outcome, and optionally the record.

    Per-seat tuples (``seats``, ``bot_index``, ``bot_seeds``, ``totals``,
    ``ranks``) are in seat order, ``winners`` holds seats; use
    :meth:`seat_of` to go from a listed bot to its seat.
    """

    game: int
    set: int
    deal_seed: int
    seats: tuple[str, ...]
    bot_index: tuple[int, ...]
    bot_seeds: tuple[int, ...]
    totals: tuple[int, ...]
    """Final scores by seat."""
    winners: tuple[int, ...]
    """Winning seats (several when the win is shared)."""
    ranks: tuple[float, ...]
    """Ranks by seat, 1 = best; ties share the average place."""
    incidents: tuple[dict[str, Any], ...] = ()
    """What external bots reported in this game (timeouts, bad replies...):
    their incident fields plus ``game_index``, ``bot`` (listed index) and ``name`` (spec)."""
    record: dict[str, Any] | None = field(default=None, repr=False)
    """The game record (:func:`sushigo.engine.editions.to_record`), when kept."""

    def seat_of(self, bot: int) -> int:
        """The seat of listed bot ``bot``."""
        return self.bot_index.index(bot)

    def win_share(self, bot: int) -> float:
        """``1/k`` if listed bot ``bot`` is one of ``k`` winners, else 0."""
        return 1 / len(self.winners) if self.seat_of(bot) in self.winners else 0.0

    def to_json(self, rules: Rules) -> dict[str, Any]:
        """The game's line in ``games.jsonl`` (the schema of :mod:`sushigo.tournament.lines`)."""
        return to_line(self, rules)


@dataclass(frozen=True)
class TournamentResult:
    """The games of a tournament, in game order, with the settings that made them."""

    specs: tuple[str, ...]
    """The listed bots, in order (one seat each)."""
    seed: int
    rules: Rules
    duplicate: bool
    backend: str
    workers: int
    time_limit: float | None
    games: list[GameResult]
    seconds: float = 0.0
    """Wall-clock time of the run."""

    def summary(self) -> TournamentSummary:
        """Per-bot results, confidence intervals and ratings (:func:`summarize`)."""
        return summarize(self)

    def settings(self) -> dict[str, Any]:
        """The run's settings, as saved in ``summary.json``."""
        return {
            "seed": self.seed,
            "games": len(self.games),
            "players": len(self.specs),
            "edition": self.rules.edition,
            "menu": list(self.rules.menu) or None,  # Sushi Go Party!'s
            "options": self.rules.options(),
            "duplicate": self.duplicate,
            "backend": self.backend,
            "workers": self.workers,
            "time_limit": self.time_limit,
        }


@dataclass(frozen=True, slots=True)
class BotSummary:
    """One listed bot's results over the tournament."""

    index: int
    """Its place in the list of bots."""
    name: str
    """Its spec, as listed."""
    games: int
    wins: float
    """Games won, a win shared by ``k`` seats counting ``1/k``."""
    win_rate: float
    win_rate_ci: tuple[float, float]
    """95% Wilson interval of the win rate."""
    mean_score: float
    mean_score_ci: tuple[float, float] | None
    """95% interval of the mean score (normal approximation; ``None`` for one game)."""
    mean_rank: float
    """Mean finishing place, 1 = first; tied seats share the average place."""
    rating: Rating
    """openskill Plackett-Luce rating from every game's ranking, in game order."""
    incidents: dict[str, int] = field(default_factory=dict)
    """External-bot incidents by kind."""

    def to_json(self) -> dict[str, Any]:
        """Its entry in the ``--json`` summary (the first five keys are fixed)."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": plain_number(self.wins),
            "win_rate": self.win_rate,
            "mean_score": self.mean_score,
            "ci95": {
                "win_rate": list(self.win_rate_ci),
                "mean_score": list(self.mean_score_ci) if self.mean_score_ci is not None else None,
            },
            "mean_rank": self.mean_rank,
            "rating": {"mu": self.rating.mu, "sigma": self.rating.sigma, "ordinal": self.rating.ordinal},
            "incidents": dict(self.incidents),
        }


def plain_number(x: float) -> float | int:
    """``x`` as an int when it is whole (for JSON and tables: 3, not 3.0)."""
    return int(x) if float(x).is_integer() else x


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """The per-bot summaries (in listed order) and the incidents of a tournament."""

    bots: tuple[BotSummary, ...]
    seed: int
    games: int
    incidents: tuple[dict[str, Any], ...] = ()
    """Every external-bot incident, in game order."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``{"bots": [...], "seed": S, "games": N}``."""
        return {"bots": [b.to_json() for b in self.bots], "seed": self.seed, "games": self.games}


def summarize(result: TournamentResult) -> TournamentSummary:
    """Summarize ``result`` bot by bot (see :class:`BotSummary`)."""
    n = len(result.specs)
    games = result.games
    ratings = openskill_ratings(n, [g.bot_index for g in games], [g.ranks for g in games])
    incidents = tuple(i for g in games for i in g.incidents)
    bots = []
    for k, spec in enumerate(result.specs):
        seats = [g.seat_of(k) for g in games]
        scores = [float(g.totals[s]) for g, s in zip(games, seats)]
        wins = sum((Fraction(1, len(g.winners)) for g, s in zip(games, seats) if s in g.winners), Fraction(0))
        played = len(games)
        kinds = Counter(str(i.get("kind", "incident")) for i in incidents if i.get("bot") == k)
        bots.append(
            BotSummary(
                index=k,
                name=spec,
                games=played,
                wins=float(wins),
                win_rate=float(wins / played) if played else 0.0,
                win_rate_ci=wilson_interval(float(wins), played),
                mean_score=statistics.fmean(scores) if scores else 0.0,
                mean_score_ci=mean_interval(scores),
                mean_rank=statistics.fmean(g.ranks[s] for g, s in zip(games, seats)) if games else 0.0,
                rating=ratings[k],
                incidents=dict(sorted(kinds.items())),
            )
        )
    return TournamentSummary(bots=tuple(bots), seed=result.seed, games=len(games), incidents=incidents)
