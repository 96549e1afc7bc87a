"""The words and colours both terminal games show for cards, one table for both
editions (the original game's cards are Party cards of the same name).

>>> CARD_SHORT[PartyCard.MAKI2], style_of(PartyCard.MAKI2), style_of(PartyCard.SPOON4)
('Maki 2', 'red', 'cyan')
>>> base_label(Card.SQUID), base_style(Card.WASABI)
('Squid', 'bright_green')
"""

from __future__ import annotations

from typing import Final

from sushigo.engine.base.cards import Card
from sushigo.engine.messages import N_
from sushigo.engine.party.cards import PartyCard

C = PartyCard

CARD_SHORT: Final[dict[PartyCard, str]] = {
    C.TEMPURA: N_("Tempura"), C.SASHIMI: N_("Sashimi"), C.DUMPLING: N_("Dumpling"),
    C.MAKI1: N_("Maki 1"), C.MAKI2: N_("Maki 2"), C.MAKI3: N_("Maki 3"),
    C.EGG: N_("Egg"), C.SALMON: N_("Salmon"), C.SQUID: N_("Squid"), C.WASABI: N_("Wasabi"),
    C.PUDDING: N_("Pudding"), C.TEMAKI: N_("Temaki"),
    C.URAMAKI3: N_("Uramaki 3"), C.URAMAKI4: N_("Uramaki 4"), C.URAMAKI5: N_("Uramaki 5"),
    C.EEL: N_("Eel"), C.TOFU: N_("Tofu"),
    C.ONIGIRI_CIRCLE: N_("Onigiri circle"), C.ONIGIRI_TRIANGLE: N_("Onigiri triangle"),
    C.ONIGIRI_SQUARE: N_("Onigiri square"), C.ONIGIRI_RECTANGLE: N_("Onigiri rectangle"),
    C.EDAMAME: N_("Edamame"), C.MISO_SOUP: N_("Miso soup"),
    C.CHOPSTICKS1: N_("Chopsticks 1"), C.CHOPSTICKS2: N_("Chopsticks 2"), C.CHOPSTICKS3: N_("Chopsticks 3"),
    C.SPOON4: N_("Spoon 4"), C.SPOON5: N_("Spoon 5"), C.SPOON6: N_("Spoon 6"),
    C.MENU7: N_("Menu 7"), C.MENU8: N_("Menu 8"), C.MENU9: N_("Menu 9"),
    C.TAKEOUT_BOX10: N_("Takeout box 10"), C.TAKEOUT_BOX11: N_("Takeout box 11"),
    C.TAKEOUT_BOX12: N_("Takeout box 12"),
    C.SOY_SAUCE: N_("Soy sauce"), C.TEA: N_("Tea"), C.SPECIAL_ORDER: N_("Special order"),
    C.GREEN_TEA_ICE_CREAM: N_("Green tea"),
    C.FRUIT_WATERMELON2: N_("Fruit 2 melon"), C.FRUIT_PINEAPPLE2: N_("Fruit 2 pine"),
    C.FRUIT_ORANGE2: N_("Fruit 2 orange"), C.FRUIT_WATERMELON_PINEAPPLE: N_("Fruit melon+pine"),
    C.FRUIT_WATERMELON_ORANGE: N_("Fruit melon+orange"), C.FRUIT_PINEAPPLE_ORANGE: N_("Fruit pine+orange"),
}
"""Short labels used on screen (at most 18 characters), in English: message ids, shown as
``_(CARD_SHORT[card])`` (:mod:`sushigo.i18n`); a player types the record names."""

ITEM_STYLE: Final[dict[str, str]] = {
    "nigiri": "yellow", "maki": "red", "temaki": "red", "uramaki": "red",
    "tempura": "magenta", "sashimi": "green", "dumpling": "blue", "eel": "bright_blue",
    "tofu": "bright_white", "onigiri": "bright_yellow", "edamame": "bright_green",
    "miso_soup": "yellow", "wasabi": "bright_green", "pudding": "bright_magenta",
    "green_tea_ice_cream": "bright_magenta", "fruit": "bright_magenta",
}
"""Colours by menu item (specials not listed are cyan)."""


def style_of(card: PartyCard) -> str:
    """The colour a Party card is drawn in (its menu item's)."""
    return ITEM_STYLE.get(card.item, "cyan")


def _party_twin(card: Card) -> PartyCard:
    # the original game's chopsticks carry no number; Party's first chopsticks is its twin
    return PartyCard.CHOPSTICKS1 if card is Card.CHOPSTICKS else PartyCard[card.name]


def base_label(card: Card) -> str:
    """The label of an original-game card (its Party twin's, less the chopsticks' number), in English."""
    return N_("Chopsticks") if card is Card.CHOPSTICKS else CARD_SHORT[_party_twin(card)]


def base_style(card: Card) -> str:
    """The colour of an original-game card (its Party twin's)."""
    return style_of(_party_twin(card))
