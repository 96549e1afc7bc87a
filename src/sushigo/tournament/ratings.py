"""Ranks, confidence intervals and skill ratings for tournament results.

>>> rank_seats([40, 31, 40, 12], [1, 0, 1, 3])
(1.5, 3.0, 1.5, 4.0)
>>> lo, hi = wilson_interval(7, 10)
>>> round(lo, 3), round(hi, 3)
(0.397, 0.892)
>>> [round(x, 2) for x in mean_interval([30, 40, 50])]
[28.68, 51.32]
>>> a, b = openskill_ratings(2, [(0, 1), (0, 1), (1, 0)], [(1.0, 2.0)] * 3)
>>> a.mu > 25 > b.mu, a.ordinal == a.mu - 3 * a.sigma
(True, True)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

Z95: Final = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def rank_seats(totals: Sequence[int], tiebreak: Sequence[int]) -> tuple[float, ...]:
    """Each seat's rank, 1 = best: by total score, then by ``tiebreak``
    (puddings in the base game, dessert cards in Party, as the winner is
    decided); seats still tied share the average of their places."""
    keys = list(zip(totals, tiebreak))
    ranks = []
    for key in keys:
        better = sum(1 for other in keys if other > key)
        tied = sum(1 for other in keys if other == key)
        ranks.append(better + (tied + 1) / 2)
    return tuple(ranks)


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a rate of ``successes / n`` (shared wins may be fractional).

    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if n <= 0:
        raise ValueError("a rate needs n > 0")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denominator
    low = 0.0 if p <= 0 else max(0.0, center - half)
    high = 1.0 if p >= 1 else min(1.0, center + half)
    return (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float] | None:
    """The normal-approximation 95% interval of the mean (``None`` under 2 values)."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill (Plackett-Luce) rating: skill ``mu`` with uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative single number: ``mu - 3 * sigma``."""
        return self.mu - 3 * self.sigma


def openskill_ratings(
    bots: int, seatings: Sequence[Sequence[int]], ranks: Sequence[Sequence[float]]
) -> list[Rating]:
    """Rate ``bots`` players from games in order: game ``t`` seats bot
    ``seatings[t][s]`` at seat ``s``, which finished with rank ``ranks[t][s]``
    (1 = best, ties equal).  Every game updates the Plackett-Luce ratings of
    everyone at the table; the result depends only on the games and their order.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=str(k)) for k in range(bots)]
    for seating, rank in zip(seatings, ranks):
        teams = [[current[k]] for k in seating]
        rated = model.rate(teams, ranks=[float(r) for r in rank])
        for k, team in zip(seating, rated):
            current[k] = team[0]
    return [Rating(float(r.mu), float(r.sigma)) for r in current]
