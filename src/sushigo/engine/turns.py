"""How a game moves, the same in both editions: the phases a game waits in,
and the seeded shuffle that fixes every deal.

>>> import random
>>> cards = list(range(5))
>>> shuffle(cards, random.Random(1))
>>> sorted(cards) == list(range(5))
True
"""

from __future__ import annotations

import enum
import random
from typing import Final


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` in place (Fisher-Yates driven by ``rng.random()``).

    This fixes how a seed maps to a deal; it is part of the engine's
    reproducibility contract (golden games depend on it).  The bias of
    ``int(random() * n)`` is below 2**-45 for n <= 108.
    """
    random_ = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(random_() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


_DISTINCT: Final[dict[int, tuple[int, ...]]] = {}
"""Card ids by set of card ids (bit ``c`` for id ``c``), kept as they are met: they are few."""


def distinct(cards: list[int]) -> tuple[int, ...]:
    """The card ids among ``cards``, each once, ascending: what
    ``tuple(sorted(set(cards)))`` gives, faster (the legal picks of a hand;
    a list, which compiled code walks without the iterator protocol).

    >>> distinct([7, 1, 7, 3])
    (1, 3, 7)
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    ids = _DISTINCT.get(mask)
    if ids is None:
        if len(_DISTINCT) >= 1 << 16:
            _DISTINCT.clear()
        ids = _DISTINCT[mask] = tuple(c for c in range(mask.bit_length()) if mask >> c & 1)
    return ids


class Phase(enum.Enum):
    """What the game is waiting for."""

    DEAL = "deal"
    """Waiting for :meth:`Game.deal` (only for games made with ``auto_deal=False``)."""
    PICK = "pick"
    """Waiting for the seats' picks."""
    RESOLVE = "resolve"
    """Party only: one seat decides while specials resolve (chopsticks, spoon, menu, takeout box)."""
    DRAW = "draw"
    """Party only: waiting for the cards a menu draws (games made with ``auto_deal=False``)."""
    OVER = "over"
    """Three rounds scored; :meth:`Game.result` is final."""
