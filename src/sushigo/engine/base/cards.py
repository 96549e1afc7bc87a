"""The cards of Sushi Go! (the original 108-card edition).

Cards are small integers (:class:`Card` is an :class:`enum.IntEnum`) so the
engine can keep hands and collections as plain lists of ints.  Their public
names are the lowercase strings of the game-record format
(``docs/spec/game-record.md``).

>>> Card.MAKI2.name_in_records
'maki2'
>>> parse_card("squid") is Card.SQUID
True
>>> sum(DECK_COUNTS.values())
108
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

from sushigo.engine.errors import UnknownCardError
from sushigo.engine.messages import N_, told
from sushigo.engine.names import did_you_mean


class Card(enum.IntEnum):
    """One card type of the base game.  The values are the engine's card ids."""

    TEMPURA = 0
    SASHIMI = 1
    DUMPLING = 2
    MAKI1 = 3
    """Maki roll with one roll icon."""
    MAKI2 = 4
    """Maki roll with two roll icons."""
    MAKI3 = 5
    """Maki roll with three roll icons."""
    EGG = 6
    """Egg nigiri, 1 point (3 on wasabi)."""
    SALMON = 7
    """Salmon nigiri, 2 points (6 on wasabi)."""
    SQUID = 8
    """Squid nigiri, 3 points (9 on wasabi)."""
    WASABI = 9
    CHOPSTICKS = 10
    PUDDING = 11

    @property
    def name_in_records(self) -> str:
        """The card's name in game records and on the command line."""
        return CARD_NAMES[self]

    @property
    def label(self) -> str:
        """A human-readable label, e.g. ``'Maki (2)'`` or ``'Salmon nigiri'``."""
        return CARD_LABELS[self]

    def __str__(self) -> str:
        return CARD_NAMES[self]


NUM_CARD_TYPES: Final = len(Card)
"""Number of distinct card types in the base game (12)."""

CARD_NAMES: Final[tuple[str, ...]] = (
    "tempura", "sashimi", "dumpling", "maki1", "maki2", "maki3",
    "egg", "salmon", "squid", "wasabi", "chopsticks", "pudding",
)
"""Record names, indexed by card id."""

CARD_LABELS: Final[tuple[str, ...]] = (
    N_("Tempura"), N_("Sashimi"), N_("Dumpling"), N_("Maki (1)"), N_("Maki (2)"), N_("Maki (3)"),
    N_("Egg nigiri"), N_("Salmon nigiri"), N_("Squid nigiri"), N_("Wasabi"), N_("Chopsticks"),
    N_("Pudding"),
)

_BY_NAME: Final[dict[str, Card]] = {name: Card(i) for i, name in enumerate(CARD_NAMES)}

DECK_COUNTS: Final[dict[Card, int]] = {
    Card.TEMPURA: 14,
    Card.SASHIMI: 14,
    Card.DUMPLING: 14,
    Card.MAKI1: 6,
    Card.MAKI2: 12,
    Card.MAKI3: 8,
    Card.EGG: 5,
    Card.SALMON: 10,
    Card.SQUID: 5,
    Card.WASABI: 6,
    Card.CHOPSTICKS: 4,
    Card.PUDDING: 10,
}
"""How many copies of each card the 108-card deck holds (docs/rules.md §1.1)."""

DECK_COUNT_LIST: Final[tuple[int, ...]] = tuple(DECK_COUNTS[Card(i)] for i in range(NUM_CARD_TYPES))
""":data:`DECK_COUNTS` as a tuple indexed by card id."""

DECK_SIZE: Final = sum(DECK_COUNT_LIST)

MAKI_ICONS: Final[tuple[int, ...]] = (0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0)
"""Roll icons on each card type, indexed by card id."""

NIGIRI_POINTS: Final[tuple[int, ...]] = (0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0)
"""Face value of each nigiri (0 for other cards), indexed by card id."""

NIGIRI: Final = frozenset({Card.EGG, Card.SALMON, Card.SQUID})
MAKI: Final = frozenset({Card.MAKI1, Card.MAKI2, Card.MAKI3})

ScoreCategory = str
"""A key of a score breakdown: one of :data:`ROUND_CATEGORIES` or ``'pudding'``."""

ROUND_CATEGORIES: Final[tuple[str, ...]] = ("tempura", "sashimi", "dumpling", "nigiri", "maki")
"""Round score categories, in display order.  ``nigiri`` includes wasabi
bonuses; ``maki`` is the most/second-most roll award."""


def parse_card(name: str) -> Card:
    """The card called ``name`` in records (case-insensitive, surrounding spaces ignored).

    Raises :class:`UnknownCardError` for anything else, with a suggestion when
    the name is nearly right.

    >>> parse_card(" Maki3 ")
    <Card.MAKI3: 5>
    >>> parse_card("tempora")
    Traceback (most recent call last):
    ...
    sushigo.engine.errors.UnknownCardError: unknown card 'tempora' (did you mean 'tempura'?)
    """
    if not isinstance(name, str):
        raise told(UnknownCardError, "expected a card name, got {type}", type=type(name).__name__)
    card = _BY_NAME.get(name.strip().lower())
    if card is None:
        # TRANSLATORS: {hint} is a suggestion (" (did you mean 'tempura'?)") or nothing
        raise told(UnknownCardError, "unknown card {name}{hint}", name=repr(name),
                   hint=did_you_mean(name, CARD_NAMES))
    return card


def full_deck() -> list[int]:
    """The 108 card ids of the base game, grouped by type (unshuffled)."""
    deck: list[int] = []
    for card_id, count in enumerate(DECK_COUNT_LIST):
        deck.extend([card_id] * count)
    return deck


def count_cards(cards: Iterable[int]) -> list[int]:
    """A count vector (indexed by card id) of ``cards``."""
    counts = [0] * NUM_CARD_TYPES
    for c in cards:
        counts[c] += 1
    return counts
