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
    label: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Rules:
    """The rules for ``players`` seats from the flags' values, and any rule
    options by name in ``options`` (:data:`~sushigo.engine.rules.RULE_OPTIONS`).

    ``label`` starts a message about the player count (default
    ``"N players"``).  Raises :class:`FlagError`.

    >>> rules_from_flags(4, edition="party", options={"menu_card_draw": 3}).menu_card_draw
    3
    >>> rules_from_flags(4, options={"menu_card_draw": 3})
    Traceback (most recent call last):
        ...
    sushigo.engine.flags.FlagError: --menu-card-draw is a Sushi Go Party! option (add --edition party)
    """
    who = label if label is not None else f"{players} players"
    kind = edition.strip().lower()
    if kind not in ("base", "party"):
        raise FlagError(f"--edition must be base or party, not {edition!r}")
    flags = {"pass_both_ways": pass_both_ways, "reshuffle": reshuffle, "uramaki_split": uramaki_split,
             "menu_card_draw": menu_card_draw, "two_player_pudding_penalty": two_player_pudding_penalty,
             "wasabi_colour": wasabi_colour}
    given: dict[str, Any] = {k: v for k, v in flags.items() if v is not None and v is not False}
    for name, value in (options or {}).items():
        if name not in RULE_OPTIONS_BY_NAME:
            raise FlagError(f"unknown rule option {name!r} (one of {', '.join(RULE_OPTIONS_BY_NAME)})")
        if name in given:
            raise FlagError(f"{_flag(name)} is given twice")
        given[name] = value
    others = [k for k in given if RULE_OPTIONS_BY_NAME[k].edition != kind]
    settings = {k: v for k, v in given.items() if k not in others}
    if kind == "party":
        if others:
            raise FlagError(f"{_flag(others[0])} is a base-game option "
                            "(Sushi Go Party! always reshuffles and passes left)")
        chosen = menu if menu is not None else DEFAULT_MENU
        try:
            items = parse_menu(chosen)
        except MenuError as e:
            raise FlagError(str(e) if "unknown menu" in str(e) else f"--menu {chosen!r}: {e}") from None
        if not PARTY_MIN_PLAYERS <= players <= PARTY_MAX_PLAYERS:
            raise FlagError(f"{who}: Sushi Go Party! is for {PARTY_MIN_PLAYERS}-{PARTY_MAX_PLAYERS} players")
        try:
            return Rules.party(players, items, **settings)
        except RulesError as e:
            raise FlagError(f"{who}, menu {chosen!r}: {e}") from None
    if menu is not None:
        raise FlagError("--menu is for Sushi Go Party! (add --edition party)")
    if others:
        raise FlagError(f"{_flag(others[0])} is a Sushi Go Party! option (add --edition party)")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        hint = f" (Sushi Go Party! seats 2-{PARTY_MAX_PLAYERS}: add --edition party)" if players > MAX_PLAYERS else ""
        raise FlagError(f"{who}: the base game is for {MIN_PLAYERS}-{MAX_PLAYERS} players{hint}")
    try:
        return Rules(players, **settings)
    except RulesError as e:
        raise FlagError(str(e)) from None


__all__ = ["DEFAULT_MENU", "FlagError", "rules_from_flags"]
