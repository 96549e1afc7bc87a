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
from sushigo.engine.party.cards import PartyCard

C = PartyCard

CARD_SHORT: Final[dict[PartyCard, str]] = {
    C.TEMPURA: "Tempura", C.SASHIMI: "Sashimi", C.DUMPLING: "Dumpling",
    C.MAKI1: "Maki 1", C.MAKI2: "Maki 2", C.MAKI3: "Maki 3",
    C.EGG: "Egg", C.SALMON: "Salmon", C.SQUID: "Squid", C.WASABI: "Wasabi",
    C.PUDDING: "Pudding", C.TEMAKI: "Temaki",
    C.URAMAKI3: "Uramaki 3", C.URAMAKI4: "Uramaki 4", C.URAMAKI5: "Uramaki 5",
    C.EEL: "Eel", C.TOFU: "Tofu",
    C.ONIGIRI_CIRCLE: "Onigiri circle", C.ONIGIRI_TRIANGLE: "Onigiri triangle",
    C.ONIGIRI_SQUARE: "Onigiri square", C.ONIGIRI_RECTANGLE: "Onigiri rectangle",
    C.EDAMAME: "Edamame", C.MISO_SOUP: "Miso soup",
    C.CHOPSTICKS1: "Chopsticks 1", C.CHOPSTICKS2: "Chopsticks 2", C.CHOPSTICKS3: "Chopsticks 3",
    C.SPOON4: "Spoon 4", C.SPOON5: "Spoon 5", C.SPOON6: "Spoon 6",
    C.MENU7: "Menu 7", C.MENU8: "Menu 8", C.MENU9: "Menu 9",
    C.TAKEOUT_BOX10: "Takeout box 10", C.TAKEOUT_BOX11: "Takeout box 11",
    C.TAKEOUT_BOX12: "Takeout box 12",
    C.SOY_SAUCE: "Soy sauce", C.TEA: "Tea", C.SPECIAL_ORDER: "Special order",
    C.GREEN_TEA_ICE_CREAM: "Green tea",
    C.FRUIT_WATERMELON2: "Fruit 2 melon", C.FRUIT_PINEAPPLE2: "Fruit 2 pine",
    C.FRUIT_ORANGE2: "Fruit 2 orange", C.FRUIT_WATERMELON_PINEAPPLE: "Fruit melon+pine",
    C.FRUIT_WATERMELON_ORANGE: "Fruit melon+orange", C.FRUIT_PINEAPPLE_ORANGE: "Fruit pine+orange",
}
"""Short labels used on screen (at most 18 characters)."""

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
    """The label of an original-game card (its Party twin's, less the chopsticks' number)."""
    return "Chopsticks" if card is Card.CHOPSTICKS else CARD_SHORT[_party_twin(card)]


def base_style(card: Card) -> str:
    """The colour of an original-game card (its Party twin's)."""
    return style_of(_party_twin(card))
