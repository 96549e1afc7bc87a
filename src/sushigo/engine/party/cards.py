"""The cards of Sushi Go Party! (181 cards, docs/rules.md §2.1).

Party card ids extend the base game's: the cards both editions share keep
their base id (tempura 0 ... pudding 11, except the base game's unnumbered
chopsticks, which Party replaces by three numbered ones), and Party-only cards
take ids 12 and up.  So scoring tables written for the base game (dumplings,
nigiri values) index Party collections directly.

Numbered specials are distinct cards, because their number orders how they
resolve (``chopsticks1`` .. ``takeout_box12``).  Each card belongs to one
*menu item* (the tile on the board: ``nigiri``, ``maki``, ``onigiri``, ...);
a card's background colour is its menu item's, except that the wasabi card
shares the nigiri's colour unless the ``wasabi_colour`` option says ``"own"``
(:func:`colour_of`).

>>> PartyCard.URAMAKI4.name_in_records
'uramaki4'
>>> parse_party_card("Fruit_Watermelon_Orange") is PartyCard.FRUIT_WATERMELON_ORANGE
True
>>> sum(len(cards_of_item(item)) for item in MENU_ITEMS)
45
>>> sum(box_counts().values())
181
"""

from __future__ import annotations

import enum
from typing import Final

from sushigo.engine.errors import UnknownCardError
from sushigo.engine.menus import DESSERTS, MENU_ITEMS
from sushigo.engine.messages import N_, told
from sushigo.engine.names import did_you_mean
from sushigo.engine.rules import URAMAKI_SPLITS


class PartyCard(enum.IntEnum):
    """One card of Sushi Go Party!.  Values are the engine's card ids."""

    TEMPURA = 0
    SASHIMI = 1
    DUMPLING = 2
    MAKI1 = 3
    MAKI2 = 4
    MAKI3 = 5
    EGG = 6
    SALMON = 7
    SQUID = 8
    WASABI = 9
    # 10 is the base game's unnumbered chopsticks: not a Party card.
    PUDDING = 11
    TEMAKI = 12
    URAMAKI3 = 13
    URAMAKI4 = 14
    URAMAKI5 = 15
    EEL = 16
    TOFU = 17
    ONIGIRI_CIRCLE = 18
    ONIGIRI_TRIANGLE = 19
    ONIGIRI_SQUARE = 20
    ONIGIRI_RECTANGLE = 21
    EDAMAME = 22
    MISO_SOUP = 23
    CHOPSTICKS1 = 24
    CHOPSTICKS2 = 25
    CHOPSTICKS3 = 26
    SPOON4 = 27
    SPOON5 = 28
    SPOON6 = 29
    MENU7 = 30
    MENU8 = 31
    MENU9 = 32
    TAKEOUT_BOX10 = 33
    TAKEOUT_BOX11 = 34
    TAKEOUT_BOX12 = 35
    SOY_SAUCE = 36
    TEA = 37
    SPECIAL_ORDER = 38
    GREEN_TEA_ICE_CREAM = 39
    FRUIT_WATERMELON2 = 40
    """Two watermelons."""
    FRUIT_PINEAPPLE2 = 41
    FRUIT_ORANGE2 = 42
    FRUIT_WATERMELON_PINEAPPLE = 43
    FRUIT_WATERMELON_ORANGE = 44
    FRUIT_PINEAPPLE_ORANGE = 45

    @property
    def name_in_records(self) -> str:
        """The card's name in Party game records (lowercase)."""
        return self.name.lower()

    @property
    def label(self) -> str:
        """A human-readable label, e.g. ``'Uramaki (4)'`` or ``'Spoon 5'``."""
        return PARTY_LABELS[self]

    @property
    def item(self) -> str:
        """The menu item (board tile) this card belongs to, e.g. ``'nigiri'``."""
        return ITEM_OF[self]

    @property
    def number(self) -> int:
        """The resolution number printed on chopsticks, spoons, menus and
        takeout boxes (1..12); 0 for every other card."""
        return SPECIAL_NUMBER.get(self, 0)

    def __str__(self) -> str:
        return self.name.lower()


NUM_PARTY_IDS: Final = 46
"""Card ids run 0..45 (id 10 unused); arrays indexed by Party card id have this length."""

FACE_DOWN: Final = 46
"""Pseudo card id of a card flipped face down by a takeout box (worth 2): NUM_PARTY_IDS."""
assert FACE_DOWN == NUM_PARTY_IDS

C = PartyCard


_ITEM_CARDS: Final[dict[str, tuple[tuple[PartyCard, int], ...]]] = {
    "nigiri": ((C.EGG, 4), (C.SALMON, 5), (C.SQUID, 3)),
    "maki": ((C.MAKI1, 4), (C.MAKI2, 5), (C.MAKI3, 3)),
    "temaki": ((C.TEMAKI, 12),),
    # The uramaki split is a rule option (see party.rules); 4/4/4 is the default.
    "uramaki": ((C.URAMAKI3, 4), (C.URAMAKI4, 4), (C.URAMAKI5, 4)),
    "tempura": ((C.TEMPURA, 8),),
    "sashimi": ((C.SASHIMI, 8),),
    "dumpling": ((C.DUMPLING, 8),),
    "eel": ((C.EEL, 8),),
    "tofu": ((C.TOFU, 8),),
    "onigiri": (
        (C.ONIGIRI_CIRCLE, 2), (C.ONIGIRI_TRIANGLE, 2),
        (C.ONIGIRI_SQUARE, 2), (C.ONIGIRI_RECTANGLE, 2),
    ),
    "edamame": ((C.EDAMAME, 8),),
    "miso_soup": ((C.MISO_SOUP, 8),),
    "chopsticks": ((C.CHOPSTICKS1, 1), (C.CHOPSTICKS2, 1), (C.CHOPSTICKS3, 1)),
    "spoon": ((C.SPOON4, 1), (C.SPOON5, 1), (C.SPOON6, 1)),
    "menu": ((C.MENU7, 1), (C.MENU8, 1), (C.MENU9, 1)),
    "takeout_box": ((C.TAKEOUT_BOX10, 1), (C.TAKEOUT_BOX11, 1), (C.TAKEOUT_BOX12, 1)),
    "soy_sauce": ((C.SOY_SAUCE, 3),),
    "tea": ((C.TEA, 3),),
    "special_order": ((C.SPECIAL_ORDER, 3),),
    "wasabi": ((C.WASABI, 3),),
    "pudding": ((C.PUDDING, 15),),
    "green_tea_ice_cream": ((C.GREEN_TEA_ICE_CREAM, 15),),
    "fruit": (
        (C.FRUIT_WATERMELON2, 2), (C.FRUIT_PINEAPPLE2, 2), (C.FRUIT_ORANGE2, 2),
        (C.FRUIT_WATERMELON_PINEAPPLE, 3), (C.FRUIT_WATERMELON_ORANGE, 3),
        (C.FRUIT_PINEAPPLE_ORANGE, 3),
    ),
}

ITEM_OF: Final[dict[PartyCard, str]] = {
    card: item for item, cards in _ITEM_CARDS.items() for card, _ in cards
}
"""The menu item of every Party card."""

SPECIAL_NUMBER: Final[dict[PartyCard, int]] = {
    C.CHOPSTICKS1: 1, C.CHOPSTICKS2: 2, C.CHOPSTICKS3: 3,
    C.SPOON4: 4, C.SPOON5: 5, C.SPOON6: 6,
    C.MENU7: 7, C.MENU8: 8, C.MENU9: 9,
    C.TAKEOUT_BOX10: 10, C.TAKEOUT_BOX11: 11, C.TAKEOUT_BOX12: 12,
}

NIGIRI_IDS: Final = frozenset({int(C.EGG), int(C.SALMON), int(C.SQUID)})
CHOPSTICKS_IDS: Final = frozenset({int(C.CHOPSTICKS1), int(C.CHOPSTICKS2), int(C.CHOPSTICKS3)})
SPOON_IDS: Final = frozenset({int(C.SPOON4), int(C.SPOON5), int(C.SPOON6)})
MENU_IDS: Final = frozenset({int(C.MENU7), int(C.MENU8), int(C.MENU9)})
TAKEOUT_IDS: Final = frozenset({int(C.TAKEOUT_BOX10), int(C.TAKEOUT_BOX11), int(C.TAKEOUT_BOX12)})
DESSERT_IDS: Final = frozenset(int(c) for item in DESSERTS for c, _ in _ITEM_CARDS[item])

URAMAKI_ICONS: Final[dict[int, int]] = {int(C.URAMAKI3): 3, int(C.URAMAKI4): 4, int(C.URAMAKI5): 5}
MAKI_ICONS: Final[dict[int, int]] = {int(C.MAKI1): 1, int(C.MAKI2): 2, int(C.MAKI3): 3}
ONIGIRI_IDS: Final = (int(C.ONIGIRI_CIRCLE), int(C.ONIGIRI_TRIANGLE),
                      int(C.ONIGIRI_SQUARE), int(C.ONIGIRI_RECTANGLE))
FRUIT_ICONS: Final[dict[int, tuple[int, int, int]]] = {
    # (watermelon, pineapple, orange) icons on each fruit card
    int(C.FRUIT_WATERMELON2): (2, 0, 0),
    int(C.FRUIT_PINEAPPLE2): (0, 2, 0),
    int(C.FRUIT_ORANGE2): (0, 0, 2),
    int(C.FRUIT_WATERMELON_PINEAPPLE): (1, 1, 0),
    int(C.FRUIT_WATERMELON_ORANGE): (1, 0, 1),
    int(C.FRUIT_PINEAPPLE_ORANGE): (0, 1, 1),
}

PARTY_LABELS: Final[dict[PartyCard, str]] = {
    C.TEMPURA: N_("Tempura"), C.SASHIMI: N_("Sashimi"), C.DUMPLING: N_("Dumpling"),
    C.MAKI1: N_("Maki (1)"), C.MAKI2: N_("Maki (2)"), C.MAKI3: N_("Maki (3)"),
    C.EGG: N_("Egg nigiri"), C.SALMON: N_("Salmon nigiri"), C.SQUID: N_("Squid nigiri"),
    C.WASABI: N_("Wasabi"), C.PUDDING: N_("Pudding"), C.TEMAKI: N_("Temaki"),
    C.URAMAKI3: N_("Uramaki (3)"), C.URAMAKI4: N_("Uramaki (4)"), C.URAMAKI5: N_("Uramaki (5)"),
    C.EEL: N_("Eel"), C.TOFU: N_("Tofu"),
    C.ONIGIRI_CIRCLE: N_("Onigiri (circle)"), C.ONIGIRI_TRIANGLE: N_("Onigiri (triangle)"),
    C.ONIGIRI_SQUARE: N_("Onigiri (square)"), C.ONIGIRI_RECTANGLE: N_("Onigiri (rectangle)"),
    C.EDAMAME: N_("Edamame"), C.MISO_SOUP: N_("Miso soup"),
    C.CHOPSTICKS1: N_("Chopsticks 1"), C.CHOPSTICKS2: N_("Chopsticks 2"), C.CHOPSTICKS3: N_("Chopsticks 3"),
    C.SPOON4: N_("Spoon 4"), C.SPOON5: N_("Spoon 5"), C.SPOON6: N_("Spoon 6"),
    C.MENU7: N_("Menu 7"), C.MENU8: N_("Menu 8"), C.MENU9: N_("Menu 9"),
    C.TAKEOUT_BOX10: N_("Takeout box 10"), C.TAKEOUT_BOX11: N_("Takeout box 11"),
    C.TAKEOUT_BOX12: N_("Takeout box 12"),
    C.SOY_SAUCE: N_("Soy sauce"), C.TEA: N_("Tea"), C.SPECIAL_ORDER: N_("Special order"),
    C.GREEN_TEA_ICE_CREAM: N_("Green tea ice cream"),
    C.FRUIT_WATERMELON2: N_("Fruit (2 watermelon)"), C.FRUIT_PINEAPPLE2: N_("Fruit (2 pineapple)"),
    C.FRUIT_ORANGE2: N_("Fruit (2 orange)"),
    C.FRUIT_WATERMELON_PINEAPPLE: N_("Fruit (watermelon, pineapple)"),
    C.FRUIT_WATERMELON_ORANGE: N_("Fruit (watermelon, orange)"),
    C.FRUIT_PINEAPPLE_ORANGE: N_("Fruit (pineapple, orange)"),
}

_BY_NAME: Final[dict[str, PartyCard]] = {c.name.lower(): c for c in PartyCard}




def colour_of(card: int, wasabi_colour: str = "nigiri") -> str | None:
    """The background colour of card id ``card`` as the name of its menu item
    (``None`` for a face-down card, which shows no colour).

    >>> colour_of(PartyCard.WASABI), colour_of(PartyCard.WASABI, "own"), colour_of(PartyCard.MAKI2)
    ('nigiri', 'wasabi', 'maki')
    """
    if card == FACE_DOWN:
        return None
    item = ITEM_OF[PartyCard(card)]
    return "nigiri" if item == "wasabi" and wasabi_colour == "nigiri" else item


def parse_party_card(name: str) -> PartyCard:
    """The Party card called ``name`` in records (case-insensitive).

    Raises :class:`~sushigo.engine.errors.UnknownCardError` for anything else.
    """
    if not isinstance(name, str):
        raise told(UnknownCardError, "expected a card name, got {type}", type=type(name).__name__)
    card = _BY_NAME.get(name.strip().lower())
    if card is None:
        # TRANSLATORS: {hint} is a suggestion (" (did you mean 'tempura'?)") or nothing
        raise told(UnknownCardError, "unknown Party card {name}{hint}", name=repr(name),
                   hint=did_you_mean(name, tuple(_BY_NAME)))
    return card


def cards_of_item(item: str, uramaki_split: str = "4-4-4") -> dict[PartyCard, int]:
    """The cards of one menu item and how many of each the box holds."""
    if item == "uramaki":
        three, four, five = URAMAKI_SPLITS[uramaki_split]
        return {C.URAMAKI3: three, C.URAMAKI4: four, C.URAMAKI5: five}
    return dict(_ITEM_CARDS[item])


def box_counts(uramaki_split: str = "4-4-4") -> dict[PartyCard, int]:
    """Every card of the 181-card box with its count."""
    counts: dict[PartyCard, int] = {}
    for item in MENU_ITEMS:
        counts.update(cards_of_item(item, uramaki_split))
    return counts
