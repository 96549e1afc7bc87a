"""Scoring: rounds, the maki award, puddings and winners (docs/rules.md §1.6-§1.9).

Every function here is pure and works from collections alone, so any score
the engine reports can be recomputed and explained.

>>> from sushigo.engine.base.cards import Card as C
>>> score_collection([C.TEMPURA, C.TEMPURA, C.WASABI, C.SQUID])
{'tempura': 5, 'sashimi': 0, 'dumpling': 0, 'nigiri': 9, 'maki': 0}
>>> maki_awards([5, 3, 3, 2])
[6, 1, 1, 0]
>>> pudding_awards([3, 1, 1, 0])
[6, 0, 0, -6]
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, SupportsIndex

from sushigo.engine.base.cards import MAKI_ICONS, NIGIRI_POINTS, ROUND_CATEGORIES, Card
from sushigo.engine.copies import by_fields
from sushigo.engine.points import DUMPLING_POINTS, SASHIMI_SET_POINTS, TEMPURA_PAIR_POINTS, WASABI_FACTOR, Breakdown

_TEMPURA: Final = int(Card.TEMPURA)
_SASHIMI: Final = int(Card.SASHIMI)
_DUMPLING: Final = int(Card.DUMPLING)
_WASABI: Final = int(Card.WASABI)
_EGG: Final = int(Card.EGG)
_SQUID: Final = int(Card.SQUID)
_PUDDING: Final = int(Card.PUDDING)

MAKI_POINTS: Final[tuple[int, int]] = (6, 3)
"""The maki award for most and second-most roll icons (split when tied)."""
PUDDING_POINTS: Final = 6
"""The pudding award for most (+) and fewest (-) puddings at the end (split when tied)."""


def dumpling_points(count: int) -> int:
    """Points for ``count`` dumplings: 1, 3, 6, 10, then 15 for five or more."""
    return DUMPLING_POINTS[count if count < 5 else 5]


def nigiri_points(cards: Iterable[int]) -> int:
    """Nigiri points of a collection in play order.

    A nigiri played while an empty wasabi lies in the collection goes on it and
    scores triple; each wasabi takes one nigiri.  Which empty wasabi fills
    first (oldest, by this project's ruling) does not change the points.
    """
    points = 0
    empty_wasabi = 0
    for c in cards:
        value = NIGIRI_POINTS[c]
        if value:
            if empty_wasabi:
                empty_wasabi -= 1
                points += WASABI_FACTOR * value
            else:
                points += value
        elif c == _WASABI:
            empty_wasabi += 1
    return points


def wasabi_pairs(cards: Sequence[int]) -> dict[int, int]:
    """Which nigiri sits on which wasabi: ``{nigiri position: wasabi position}``.

    Positions index ``cards`` (a collection in play order); the oldest empty
    wasabi fills first.

    >>> wasabi_pairs([Card.WASABI, Card.WASABI, Card.EGG, Card.SQUID, Card.SALMON])
    {2: 0, 3: 1}
    """
    pairs: dict[int, int] = {}
    empty: list[int] = []
    for i, c in enumerate(cards):
        if c == _WASABI:
            empty.append(i)
        elif NIGIRI_POINTS[c] and empty:
            pairs[i] = empty.pop(0)
    return pairs


def maki_icons(cards: Iterable[int]) -> int:
    """Total roll icons on the maki cards of ``cards``."""
    icons = 0
    for c in cards:
        icons += MAKI_ICONS[c]
    return icons


def score_collection(cards: Sequence[int]) -> Breakdown:
    """One seat's round score without the maki award (``maki`` is 0 here).

    ``cards`` is the collection in play order; puddings, wasabi and
    chopsticks score nothing during the round.
    """
    return _score(cards if isinstance(cards, list) else list(cards), 0)


def _score(cards: list[int], maki: int) -> Breakdown:
    """:func:`score_collection` with the maki award given: one pass over the cards
    (what the game scores at every round's end, so written for the compiled engine)."""
    tempura = sashimi = dumpling = nigiri = wasabi = 0
    for c in cards:
        if c == _TEMPURA:
            tempura += 1
        elif c == _SASHIMI:
            sashimi += 1
        elif c == _DUMPLING:
            dumpling += 1
        elif c == _WASABI:
            wasabi += 1
        elif _EGG <= c <= _SQUID:
            if wasabi:  # an empty wasabi lies there: this nigiri goes on it
                wasabi -= 1
                nigiri += WASABI_FACTOR * NIGIRI_POINTS[c]
            else:
                nigiri += NIGIRI_POINTS[c]
    return {
        "tempura": TEMPURA_PAIR_POINTS * (tempura // 2),
        "sashimi": SASHIMI_SET_POINTS * (sashimi // 3),
        "dumpling": DUMPLING_POINTS[dumpling if dumpling < 5 else 5],
        "nigiri": nigiri,
        "maki": maki,
    }


def maki_awards(icons: Sequence[SupportsIndex]) -> list[int]:
    """The maki award for each seat from its roll-icon total (docs/rules.md §1.6).

    Seats need at least one icon to take part.  Most icons scores 6; a tie for
    most splits 6 (remainder dropped) and cancels second place.  With one
    leader, the next-highest total scores 3, split the same way.

    >>> maki_awards([3, 3, 3, 2])
    [2, 2, 2, 0]
    >>> maki_awards([4, 0, 0])
    [6, 0, 0]
    """
    return _maki_awards(_ints(icons))


def _maki_awards(icons: list[int]) -> list[int]:
    # Explicit loops: the game awards maki at every round's end (compiled, a third
    # of the time the comprehensions and max() took).
    n = len(icons)
    awards = [0] * n
    top = second = tops = seconds = 0
    for k in icons:
        if k > top:
            second, seconds = top, tops
            top, tops = k, 1
        elif k == top:
            tops += 1
        elif k > second:
            second, seconds = k, 1
        elif k == second:
            seconds += 1
    if top <= 0:
        return awards
    if tops > 1:  # a tie for most splits the first award and cancels the second
        share = MAKI_POINTS[0] // tops
        for s in range(n):
            if icons[s] == top:
                awards[s] = share
        return awards
    share = MAKI_POINTS[1] // seconds if second > 0 else 0
    for s in range(n):
        k = icons[s]
        if k == top:
            awards[s] = MAKI_POINTS[0]
        elif k == second and second > 0:
            awards[s] = share
    return awards


def pudding_awards(puddings: Sequence[SupportsIndex]) -> list[int]:
    """End-of-game pudding adjustment for each seat (docs/rules.md §1.8).

    Most puddings: +6 split among the tied (remainder dropped).  Fewest
    (zero included): -6 split the same way, except in a 2-player game.  If
    everyone has the same count nobody gains or loses.

    >>> pudding_awards([2, 2, 0, 0, 0])
    [3, 3, -2, -2, -2]
    >>> pudding_awards([0, 4])
    [0, 6]
    """
    return _pudding_awards(_ints(puddings))


def _pudding_awards(puddings: list[int]) -> list[int]:
    n = len(puddings)
    awards = [0] * n
    most = max(puddings)
    fewest = min(puddings)
    if most == fewest:
        return awards
    leaders = [s for s in range(n) if puddings[s] == most]
    for s in leaders:
        awards[s] += PUDDING_POINTS // len(leaders)
    if n > 2:
        trailers = [s for s in range(n) if puddings[s] == fewest]
        for s in trailers:
            awards[s] -= PUDDING_POINTS // len(trailers)
    return awards


def winners(totals: Sequence[SupportsIndex], puddings: Sequence[SupportsIndex]) -> list[int]:
    """Winning seats: highest total, then most puddings; still tied means shared.

    >>> winners([30, 30, 12], [2, 1, 5])
    [0]
    >>> winners([30, 30, 12], [1, 1, 5])
    [0, 1]
    """
    return _winners(_ints(totals), _ints(puddings))


def _winners(totals: list[int], puddings: list[int]) -> list[int]:
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    most = max(puddings[s] for s in tied)
    return [s for s in tied if puddings[s] == most]


def _ints(values: Sequence[SupportsIndex]) -> list[int]:
    """Plain ints (numpy integers welcome: the batch engine's tests compare with these rules)."""
    return [operator.index(v) for v in values]


def score_round(collections: Sequence[Sequence[int]]) -> list[Breakdown]:
    """Every seat's round breakdown, maki award included, from the collections."""
    cols = [c if isinstance(c, list) else list(c) for c in collections]
    awards = _maki_awards([maki_icons(c) for c in cols])
    return [_score(cols[s], awards[s]) for s in range(len(cols))]


@dataclass(frozen=True, slots=True)
class Result:
    """The score sheet of a game (or of the rounds scored so far).

    ``rounds[r][s]`` is seat ``s``'s total in round ``r``; ``breakdown[r][s]``
    explains it per category.  ``pudding`` is the end-of-game adjustment (all
    zero until three rounds are scored), ``puddings`` the pudding counts.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)  # copy and pickle, compiled too

    rounds: tuple[tuple[int, ...], ...]
    breakdown: tuple[tuple[Breakdown, ...], ...]
    puddings: tuple[int, ...]
    pudding: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def from_breakdowns(
        cls,
        breakdown: Sequence[Sequence[Breakdown]],
        puddings: Sequence[int],
        *,
        final: bool,
    ) -> Result:
        """Assemble a result; the pudding adjustment applies when ``final``."""
        n = len(puddings)
        rounds = tuple(tuple(sum(line.values()) for line in rnd) for rnd in breakdown)
        pudding = tuple(pudding_awards(puddings)) if final else (0,) * n
        totals = tuple(sum(r[s] for r in rounds) + pudding[s] for s in range(n))
        return cls(
            rounds=rounds,
            breakdown=tuple(tuple(dict(line) for line in rnd) for rnd in breakdown),
            puddings=tuple(puddings),
            pudding=pudding,
            totals=totals,
            winners=tuple(winners(totals, puddings)),
        )

    def to_json(self) -> dict[str, Any]:
        """The result object of the record spec, plus ``breakdown`` and ``puddings``."""
        return {
            "rounds": [list(r) for r in self.rounds],
            "pudding": list(self.pudding),
            "totals": list(self.totals),
            "winners": list(self.winners),
            "puddings": list(self.puddings),
            "breakdown": [[dict(line) for line in rnd] for rnd in self.breakdown],
        }


__all__ = [
    "DUMPLING_POINTS",
    "ROUND_CATEGORIES",
    "Breakdown",
    "Result",
    "dumpling_points",
    "maki_awards",
    "maki_icons",
    "nigiri_points",
    "pudding_awards",
    "score_collection",
    "score_round",
    "wasabi_pairs",
    "winners",
]
