"""The integer action encoding (base game).

Every pick a seat can make is one integer in ``range(NUM_ACTIONS)``:

==============  =================================  ===========================
action id       pick                               example
==============  =================================  ===========================
``0 .. 11``     one card, id = card id             ``7`` = salmon
``12 .. 155``   two cards with chopsticks,         ``12 + 12*9 + 6 = 126`` =
                ``12 + 12*first + second``         wasabi, then egg
==============  =================================  ===========================

Pairs are *ordered*: the two cards are placed in the order given, which
matters for wasabi (``wasabi, egg`` puts the egg on that wasabi; ``egg,
wasabi`` does not) and for which of two nigiri fills an empty wasabi.  Pairs
whose order changes nothing (``tempura, sashimi`` and ``sashimi, tempura``)
are still two distinct, equally legal actions.

>>> encode((Card.WASABI, Card.EGG))
126
>>> decode(126)
(<Card.WASABI: 9>, <Card.EGG: 6>)
>>> action_name(126)
'wasabi+egg'
>>> parse_action("salmon")
7
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from sushigo.engine.base.cards import NUM_CARD_TYPES, Card, parse_card
from sushigo.engine.errors import InvalidActionError
from sushigo.engine.messages import told

Action = int
"""An action id in ``range(NUM_ACTIONS)``."""

Pick = tuple[Card, ...]
"""The cards of one pick: one card, or two in play order (chopsticks)."""

NUM_SINGLE_ACTIONS: Final = NUM_CARD_TYPES
NUM_ACTIONS: Final = NUM_CARD_TYPES + NUM_CARD_TYPES * NUM_CARD_TYPES
"""Size of the action space of the base game (156)."""

_DECODED: Final[tuple[Pick, ...]] = tuple(
    [(Card(a),) for a in range(NUM_CARD_TYPES)]
    + [(Card(a), Card(b)) for a in range(NUM_CARD_TYPES) for b in range(NUM_CARD_TYPES)]
)
_CARD_IDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(int(c) for c in pick) for pick in _DECODED
)


def encode(cards: Sequence[int]) -> Action:
    """The action id of a pick of one card or two ordered cards."""
    if len(cards) == 1:
        (a,) = cards
        if 0 <= a < NUM_CARD_TYPES:
            return int(a)
    elif len(cards) == 2:
        a, b = cards
        if 0 <= a < NUM_CARD_TYPES and 0 <= b < NUM_CARD_TYPES:
            return NUM_CARD_TYPES + NUM_CARD_TYPES * int(a) + int(b)
    raise told(InvalidActionError, "a pick is one or two cards, not {cards}", cards=repr(list(cards)))


def decode(action: Action) -> Pick:
    """The cards of action ``action``, in play order."""
    if not 0 <= action < NUM_ACTIONS:
        raise told(InvalidActionError, "action {action} is outside 0..{last}", action=action, last=NUM_ACTIONS - 1)
    return _DECODED[action]


def card_ids(action: Action) -> tuple[int, ...]:
    """Like :func:`decode` but plain ints (no enum), for hot loops."""
    return _CARD_IDS[action]


def is_chopsticks_pair(action: Action) -> bool:
    """Whether ``action`` takes two cards (uses chopsticks)."""
    return action >= NUM_CARD_TYPES


def action_name(action: Action) -> str:
    """Text form: card names joined by ``+``, e.g. ``'wasabi+egg'``."""
    return "+".join(c.name_in_records for c in decode(action))


def parse_action(text: str) -> Action:
    """Parse the text form of :func:`action_name` (``'squid'``, ``'wasabi+egg'``)."""
    parts = text.replace(",", "+").split("+")
    return encode([parse_card(p) for p in parts])
