"""The rules a table asks for on the command line (``sushigo play``, ``sushigo tournament``).

One function turns the edition, menu and rule-option flags into
:class:`~sushigo.engine.rules.Rules`, or a one-line :class:`FlagError` that names
the flag at fault.

>>> rules_from_flags(3).options()
{'pass_both_ways': False, 'reshuffle': False}
>>> rules_from_flags(6, edition="party", menu="big banquet").menu[1]
'maki'
>>> rules_from_flags(6, label="6 bots")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
    ...
sushigo.engine.flags.FlagError: 6 bots: the base game is for 2-5 players
(Sushi Go Party! seats 2-8: add --edition party)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from sushigo.engine.menus import MenuError, parse_menu
from sushigo.engine.messages import Message, Param, Words, msg, told, told_of
from sushigo.engine.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PARTY_MAX_PLAYERS,
    PARTY_MIN_PLAYERS,
    RULE_OPTIONS_BY_NAME,
    Rules,
    RulesError,
)

DEFAULT_MENU: Final = "My First Meal"
"""The Party menu when ``--menu`` is not given."""


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


class FlagError(ValueError):
    """Flags that do not make a table; the message is one line."""


def rules_from_flags(
    players: int,
    *,
    edition: str = "base",
    menu: str | None = None,
    pass_both_ways: bool = False,
    reshuffle: bool = False,
    uramaki_split: str | None = None,
    menu_card_draw: int | None = None,
    two_player_pudding_penalty: bool = False,
    wasabi_colour: str | None = None,
    label: str | Message | None = None,
    options: Mapping[str, Any] | None = None,
    keys: bool = False,
) -> Rules:
    """The rules for ``players`` seats from the flags' values, and any rule
    options by name in ``options`` (:data:`~sushigo.engine.rules.RULE_OPTIONS`).

    ``label`` starts a message about the player count (default
    ``"N players"``).  Raises :class:`FlagError`, whose message names the
    flags (``--menu-card-draw``, ``--edition party``) or, with ``keys``, the
    JSON keys of a request that gave the same values (``menu_card_draw``,
    ``edition "party"``).

    >>> rules_from_flags(4, edition="party", options={"menu_card_draw": 3}).menu_card_draw
    3
    >>> rules_from_flags(4, options={"menu_card_draw": 3})
    Traceback (most recent call last):
        ...
    sushigo.engine.flags.FlagError: --menu-card-draw is a Sushi Go Party! option (add --edition party)
    >>> rules_from_flags(4, options={"menu_card_draw": 3}, keys=True)
    Traceback (most recent call last):
        ...
    sushigo.engine.flags.FlagError: menu_card_draw is a Sushi Go Party! option (add edition "party")
    """
    who: Param = label if label is not None else msg("{players} players", players=players)

    def name(option: str) -> str:
        return option if keys else _flag(option)

    party = 'edition "party"' if keys else "--edition party"
    kind = edition.strip().lower()
    if kind not in ("base", "party"):
        raise told(FlagError, "{edition} must be base or party, not {value}", edition=name("edition"),
                   value=repr(edition))
    flags = {"pass_both_ways": pass_both_ways, "reshuffle": reshuffle, "uramaki_split": uramaki_split,
             "menu_card_draw": menu_card_draw, "two_player_pudding_penalty": two_player_pudding_penalty,
             "wasabi_colour": wasabi_colour}
    given: dict[str, Any] = {k: v for k, v in flags.items() if v is not None and v is not False}
    for option, value in (options or {}).items():
        if option not in RULE_OPTIONS_BY_NAME:
            raise told(FlagError, "unknown rule option {option} (one of {options})", option=repr(option),
                       options=Words(tuple(RULE_OPTIONS_BY_NAME), listing=True))
        if option in given:
            raise told(FlagError, "{option} is given twice", option=name(option))
        given[option] = value
    others = [k for k in given if RULE_OPTIONS_BY_NAME[k].edition != kind]
    settings = {k: v for k, v in given.items() if k not in others}
    if kind == "party":
        if others:
            raise told(FlagError, "{option} is a base-game option (Sushi Go Party! always reshuffles and passes left)",
                       option=name(others[0]))
        chosen = menu if menu is not None else DEFAULT_MENU
        try:
            items = parse_menu(chosen)
        except MenuError as e:
            if "unknown menu" in str(e):
                raise FlagError(*e.args) from None  # the same message
            # TRANSLATORS: "--menu 'Sushi Go!': why that menu is not one" ({flag}: --menu, or the JSON key menu)
            raise told(FlagError, "{flag} {menu}: {why}", flag=name("menu"), menu=repr(chosen),
                       why=told_of(e)) from None
        if not PARTY_MIN_PLAYERS <= players <= PARTY_MAX_PLAYERS:
            # TRANSLATORS: {who} is the table's size ("9 players", "9 bots")
            raise told(FlagError, "{who}: Sushi Go Party! is for {low}-{high} players", who=who,
                       low=PARTY_MIN_PLAYERS, high=PARTY_MAX_PLAYERS)
        try:
            return Rules.party(players, items, **settings)
        except RulesError as e:
            # TRANSLATORS: {who} is the table's size ("9 players", "9 bots"); {menu} the menu asked for
            raise told(FlagError, "{who}, menu {menu}: {why}", who=who, menu=repr(chosen), why=told_of(e)) from None
    if menu is not None:
        # TRANSLATORS: {menu} is the flag --menu (or the JSON key menu); {party} how to ask for Sushi Go Party!:
        # --edition party (or edition "party")
        raise told(FlagError, "{menu} is for Sushi Go Party! (add {party})", menu=name("menu"), party=party)
    if others:
        # TRANSLATORS: {option} is a flag (or a JSON key); {party} how to ask for Sushi Go Party!:
        # --edition party (or edition "party")
        raise told(FlagError, "{option} is a Sushi Go Party! option (add {party})", option=name(others[0]),
                   party=party)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        if players > MAX_PLAYERS:
            # TRANSLATORS: {who} is the table's size ("9 players", "9 bots"); {party} how to ask for
            # Sushi Go Party!: --edition party (or edition "party")
            raise told(FlagError, "{who}: the base game is for {low}-{high} players (Sushi Go Party! seats "
                       "{party_low}-{party_high}: add {party})", who=who, low=MIN_PLAYERS, high=MAX_PLAYERS,
                       party_low=PARTY_MIN_PLAYERS, party_high=PARTY_MAX_PLAYERS, party=party)
        # TRANSLATORS: {who} is the table's size ("1 players", "6 bots")
        raise told(FlagError, "{who}: the base game is for {low}-{high} players", who=who, low=MIN_PLAYERS,
                   high=MAX_PLAYERS)
    try:
        return Rules(players, **settings)
    except RulesError as e:
        raise FlagError(*e.args) from None  # the same message


__all__ = ["DEFAULT_MENU", "FlagError", "rules_from_flags"]
