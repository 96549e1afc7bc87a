"""The odds both greedy bots reason with (:mod:`sushigo.bots.greedy` for the
original game, :mod:`sushigo.bots.party_greedy` for Party): how likely a set
is finished in the picks left, what a most/fewest race is worth, and the
choice of the best-valued action.

>>> completion_chance(1, 0, 0.13), race_value(0, [3, 3], lambda t: [6 if t[0] > max(t[1:]) else 0], 0)
(0.0, 0.0)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from sushigo.engine.base.actions import Action

TAKE_RATE: Final = 0.25
"""Chance that the bot takes a wanted card when a hand it picks from holds one
(it competes with the other cards in that hand)."""

WASABI_BONUS: Final = 5.0
"""Expected extra points of a nigiri placed on a wasabi (twice its face value;
with a wasabi waiting the bot goes for salmon and squid, so about 2.5 * 2)."""


@functools.lru_cache(maxsize=4096)
def completion_chance(need: int, picks: int, freq: float) -> float:
    """Chance of taking at least ``need`` more cards of a kind in ``picks`` picks.

    The hands still to come hold ``picks``, ``picks - 1``, ... 1 cards; a hand
    of ``h`` cards holds the kind with chance ``1 - (1 - freq) ** h``, and the
    bot takes it then with chance :data:`TAKE_RATE`.

    >>> completion_chance(1, 0, 0.13)
    0.0
    >>> 0 < completion_chance(2, 6, 0.13) < completion_chance(1, 6, 0.13) < 1
    True
    """
    if need <= 0:
        return 1.0
    if need > picks:
        return 0.0
    dist = [1.0] + [0.0] * need  # dist[k]: chance of k successes so far (k == need absorbs)
    for h in range(picks, 0, -1):
        p = TAKE_RATE * (1.0 - (1.0 - freq) ** h)
        nxt = [0.0] * (need + 1)
        nxt[need] = dist[need]
        for k in range(need):
            nxt[k] += dist[k] * (1.0 - p)
            nxt[k + 1] += dist[k] * p
        dist = nxt
    return dist[need]


def race_value(
    mine: int,
    others: Sequence[int],
    award: Callable[[Sequence[int]], list[int]],
    spread: int,
) -> float:
    """Expected award of a seat with ``mine`` against ``others`` in a most/fewest race.

    ``award`` maps every seat's total (this seat first) to their awards
    (:func:`~sushigo.engine.base.scoring.maki_awards`, :func:`~sushigo.engine.base.scoring.pudding_awards`).
    The seat's final lead is uncertain by up to ``spread`` either way
    (triangular weights); ``spread=0`` is the award as things stand.

    >>> from sushigo.engine.base.scoring import maki_awards
    >>> race_value(5, [3, 3], maki_awards, 0)
    6.0
    >>> race_value(0, [3, 3], maki_awards, 0)
    0.0
    """
    total = 0.0
    weights = 0
    for offset in range(-spread, spread + 1):
        w = spread + 1 - abs(offset)
        total += w * award([max(0, mine + offset), *others])[0]
        weights += w
    return total / weights


def best_action(actions: Sequence[Action], values: Callable[[], Mapping[Action, float]], rng: random.Random) -> Action:
    """The action of highest value (``values`` is asked only when there is a choice);
    ties broken by ``rng``.

    >>> best_action([3, 4, 5], lambda: {3: 1.0, 4: 2.0, 5: 2.0}, random.Random(0)) in (4, 5)
    True
    """
    if len(actions) == 1:
        return actions[0]
    found = values()
    best = max(found.values())
    top = [a for a in actions if found[a] >= best - 1e-9]
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]
