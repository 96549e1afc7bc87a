"""Party menus: which 8 card types a game uses (docs/rules.md §2.2).

A menu is nigiri plus 1 roll, 3 appetizers, 2 specials and 1 dessert.  The
eight official menus are known by name; any other combination is a custom
menu.  Some items are barred at some table sizes.  A menu is part of a
game's settings (:class:`~sushigo.engine.rules.Rules` checks it), so this
module sits with the shared ones, below both editions; the cards of each
item are in :mod:`sushigo.engine.party.cards`.

>>> menu = parse_menu("Sushi Go!")
>>> menu
('nigiri', 'maki', 'tempura', 'sashimi', 'dumpling', 'chopsticks', 'wasabi', 'pudding')
>>> check_menu(parse_menu("party sampler"), 8)
Traceback (most recent call last):
...
sushigo.engine.menus.MenuError: the Menu card can't be used with 7-8 players
>>> parse_menu("temaki, eel, tofu, miso soup, spoon, soy sauce, pudding")[1:4]
('temaki', 'eel', 'tofu')
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Final

from sushigo.engine.messages import N_, Message, Words, msg, nmsg, told
from sushigo.engine.names import did_you_mean

MENU_ITEMS: Final[tuple[str, ...]] = (
    "nigiri",
    "maki", "temaki", "uramaki",
    "tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri", "edamame", "miso_soup",
    "chopsticks", "spoon", "menu", "takeout_box", "soy_sauce", "tea", "special_order", "wasabi",
    "pudding", "green_tea_ice_cream", "fruit",
)
"""The 23 menu tiles (card types), in board order."""

ROLLS: Final = ("maki", "temaki", "uramaki")
APPETIZERS: Final = ("tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri", "edamame", "miso_soup")
SPECIALS: Final = ("chopsticks", "spoon", "menu", "takeout_box", "soy_sauce", "tea", "special_order", "wasabi")
DESSERTS: Final = ("pudding", "green_tea_ice_cream", "fruit")

Menu = tuple[str, ...]
"""The 8 menu items of a game, in board order (nigiri first)."""


class MenuError(ValueError):
    """A menu that is not a valid Party menu (or not for this many players)."""


OFFICIAL_MENUS: Final[dict[str, tuple[str, ...]]] = {
    N_("My First Meal"): ("maki", "tempura", "sashimi", "miso_soup", "wasabi", "tea", "green_tea_ice_cream"),
    N_("Sushi Go!"): ("maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"),
    N_("Party Sampler"): ("temaki", "tempura", "dumpling", "tofu", "wasabi", "menu", "green_tea_ice_cream"),
    N_("Master Menu"): ("temaki", "onigiri", "tofu", "sashimi", "spoon", "takeout_box", "fruit"),
    N_("Points Platter"): ("uramaki", "onigiri", "dumpling", "edamame", "special_order", "tea", "green_tea_ice_cream"),
    N_("Cutthroat Combo"): ("temaki", "eel", "tofu", "miso_soup", "spoon", "soy_sauce", "pudding"),
    N_("Big Banquet"): ("maki", "tempura", "dumpling", "eel", "spoon", "chopsticks", "green_tea_ice_cream"),
    N_("Dinner for Two"): ("uramaki", "onigiri", "tofu", "miso_soup", "menu", "special_order", "fruit"),
}
"""The official suggested menus (docs/rules.md §2.2), nigiri left implicit."""

MENU_SLUGS: Final[dict[str, str]] = {
    re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"): name for name in OFFICIAL_MENUS
}
"""Command-line spellings of the official menus: ``my-first-meal`` ... ``dinner-for-two``."""

RESTRICTIONS: Final[dict[str, tuple[int, ...]]] = {
    "menu": (7, 8),
    "special_order": (7, 8),
    "spoon": (2,),
    "edamame": (2,),
}
"""Items barred at these player counts (docs/rules.md §2.2)."""


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")


def _item(text: str) -> str:
    name = re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")
    aliases = {"miso": "miso_soup", "soy": "soy_sauce", "takeout": "takeout_box",
               "green_tea": "green_tea_ice_cream", "ice_cream": "green_tea_ice_cream",
               "maki_roll": "maki", "nigiris": "nigiri"}
    name = aliases.get(name, name)
    if name not in MENU_ITEMS:
        # TRANSLATORS: {hint} is a suggestion (" (did you mean 'tempura'?)") or nothing
        raise told(MenuError, "unknown menu item {item}{hint}", item=repr(text.strip()),
                   hint=did_you_mean(text, MENU_ITEMS))
    return name


def menu_name(menu: Sequence[str]) -> str | None:
    """The official name of ``menu``, or ``None`` for a custom menu."""
    for name, items in OFFICIAL_MENUS.items():
        if sorted(("nigiri",) + items) == sorted(menu):
            return name
    return None


def menu_label(menu: Sequence[str]) -> str | list[str] | None:
    """A game's menu as summaries show it: its official name, else its items
    (``None`` for the original game, which has no menu).

    >>> menu_label(()), menu_label(OFFICIAL_MENUS["My First Meal"] + ("nigiri",))
    (None, 'My First Meal')
    """
    if not menu:
        return None
    return menu_name(menu) or list(menu)


def parse_menu(text: str | Sequence[str]) -> Menu:
    """A menu from an official name (any case, ``sushi-go`` style works) or
    from its items (a comma-separated string or a list; nigiri may be left out).

    The items are checked for the 1 roll / 3 appetizers / 2 specials /
    1 dessert structure; :func:`check_menu` checks the player count.
    """
    if isinstance(text, str):
        key = _key(text)
        for slug, name in MENU_SLUGS.items():
            if key == slug or key == _key(name):
                return normalize_menu(("nigiri",) + OFFICIAL_MENUS[name])
        if "," not in text:
            close = difflib.get_close_matches(key, [_key(n) for n in OFFICIAL_MENUS], n=1, cutoff=0.75)
            if close:
                raise told(MenuError, "unknown menu {menu} (did you mean {name}?)", menu=repr(text.strip()),
                           name=repr(MENU_SLUGS[close[0]]))
            names = Words(tuple(f"'{n}'" for n in OFFICIAL_MENUS), listing=True)
            # TRANSLATORS: {names} are the official menus' names as the command line takes them (in English)
            raise told(MenuError, "unknown menu {menu}: use one of {names} or list 7 items separated by commas",
                       menu=repr(text.strip()), names=names)
        parts: Sequence[str] = [p for p in text.split(",") if p.strip()]
    else:
        parts = list(text)
        if not all(isinstance(p, str) for p in parts):
            raise told(MenuError, "a menu is a list of item names")
    return normalize_menu([_item(p) for p in parts])


def normalize_menu(items: Sequence[str]) -> Menu:
    """Check the menu's structure and put it in board order (nigiri first)."""
    chosen = [i for i in items if i != "nigiri"]
    if len(set(chosen)) != len(chosen):
        dup = next(i for i in chosen if chosen.count(i) > 1)
        raise told(MenuError, "menu item {item} is listed twice", item=repr(dup))
    for group, want in ((ROLLS, 1), (APPETIZERS, 3), (SPECIALS, 2), (DESSERTS, 1)):
        got = [i for i in chosen if i in group]
        if len(got) != want:
            wanted = nmsg("{n} roll", "{n} rolls", want) if group is ROLLS else \
                nmsg("{n} appetizer", "{n} appetizers", want) if group is APPETIZERS else \
                nmsg("{n} special", "{n} specials", want) if group is SPECIALS else \
                nmsg("{n} dessert", "{n} desserts", want)
            if got:
                # TRANSLATORS: {wanted} is what a menu has of one kind ("1 roll", "3 appetizers"); {items} are the
                # menu items of that kind it has, as the command line names them
                raise told(MenuError, "a menu has {wanted}, this one has {count} ({items})", wanted=wanted,
                           count=len(got), items=Words(tuple(got), listing=True))
            # TRANSLATORS: {wanted} is what a menu has of one kind ("1 roll", "3 appetizers")
            raise told(MenuError, "a menu has {wanted}, this one has {count}", wanted=wanted, count=len(got))
    return ("nigiri",) + tuple(i for i in MENU_ITEMS if i in chosen)


def check_menu(menu: Sequence[str], players: int) -> None:
    """Raise :class:`MenuError` if an item of ``menu`` is barred for ``players``."""
    for item in menu:
        barred = RESTRICTIONS.get(item, ())
        if players in barred:
            what: Message | str = msg("the Menu card") if item == "menu" else \
                msg("special order") if item == "special_order" else item
            if len(barred) > 1:
                # TRANSLATORS: {item} is "the Menu card", "special order" or a menu item's name in records ("spoon")
                raise told(MenuError, "{item} can't be used with {low}-{high} players", item=what, low=barred[0],
                           high=barred[-1])
            # TRANSLATORS: {item} is "the Menu card", "special order" or a menu item's name in records ("spoon")
            raise told(MenuError, "{item} can't be used with {players} players", item=what, players=barred[0])
