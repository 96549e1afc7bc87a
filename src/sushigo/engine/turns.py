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
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # mypyc's native integers; plain ints when interpreted (no runtime import)
    from mypy_extensions import i64


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


COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (mypyc): the list helpers below loop over ints
where that is faster compiled, and call the list's own C methods where it is not."""


def holds(cards: list[int], card: int) -> bool:
    """``card in cards``, compiled as a loop of int comparisons (``in`` on a list
    asks each element for a rich comparison: the playout's most frequent question
    is whether chopsticks lie in a collection).

    >>> holds([3, 1], 1), holds([3, 1], 2)
    (True, False)
    """
    if not COMPILED:
        return card in cards
    for c in cards:  # noqa: SIM110 (a generator is slower compiled)
        if c == card:
            return True
    return False


def take(cards: list[int], card: int) -> None:
    """``cards.remove(card)``, compiled as int comparisons (see :func:`holds`).

    >>> cards = [3, 1, 3]
    >>> take(cards, 3)
    >>> cards
    [1, 3]
    """
    if not COMPILED:
        cards.remove(card)
        return
    for i in range(len(cards)):
        if cards[i] == card:
            cards.pop(i)
            return
    raise ValueError(f"{card} is not among the cards")


_BIT: Final = tuple(1 << c for c in range(63))
"""``_BIT[c] == 1 << c`` (compiled, a native 64-bit shift of a constant 1 is a C int's)."""
_BIT_INDEX: Final = tuple(next((c for c in range(63) if (1 << c) % 67 == r), -1) for r in range(67))
"""``_BIT_INDEX[(1 << c) % 67] == c``: the powers of two below 2**63 differ modulo 67."""


def distinct(cards: list[int]) -> list[int]:
    """The card ids among ``cards``, each once, ascending: what
    ``sorted(set(cards))`` gives, faster for a hand (compiled, a native 64-bit
    set of the ids, which are below 63, read lowest bit first).

    >>> distinct([7, 1, 7, 3])
    [1, 3, 7]
    """
    if not COMPILED:
        return sorted(set(cards))
    mask: i64 = 0
    for c in cards:
        mask |= _BIT[c]
    ids = []
    while mask:
        low = mask & -mask
        ids.append(_BIT_INDEX[low % 67])
        mask ^= low
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
