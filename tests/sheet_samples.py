"""Score sheets of both editions for the tests, written from random played games.

A played game's collections, written as a score sheet, must score exactly as
the engine scored the game: that makes any number of realistic sheets (with
wasabi, special orders, face-down cards and uramaki races) whose right answer
is known.  Used by the engine's sheet tests, the score route's and the
scorekeeper page's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sushigo.engine.base.game import Game
from sushigo.engine.menus import APPETIZERS, DESSERTS, OFFICIAL_MENUS, ROLLS, SPECIALS
from sushigo.engine.party.cards import FACE_DOWN, PartyCard
from sushigo.engine.party.game import PartyGame, Played
from sushigo.engine.rules import Rules, RulesError

C = PartyCard


def allowed(players: int, menu: Any) -> Rules | None:
    """The Party rules of this table, or None when the menu is not allowed at that size."""
    try:
        return Rules.party(players, menu)
    except RulesError:
        return None


def random_menu(rng: random.Random) -> list[str]:
    """A custom menu: a roll, three appetizers, two specials and a dessert (nigiri is added)."""
    return (
        [rng.choice(ROLLS)] + rng.sample(APPETIZERS, 3) + rng.sample(SPECIALS, 2) + [rng.choice(DESSERTS)]
    )


def sheet_text(p: Played, col: Sequence[Played] = ()) -> str:
    """How a score sheet writes card ``p`` of collection ``col``: a card sitting on a
    wasabi a takeout box flipped later is plain (``egg+face_down`` for a nigiri, a
    plain copy for a special order); a flipped nigiri keeps its face-up wasabi used
    (``face_down+wasabi``)."""
    wasabi = next((q for q in col if q.uid == p.on), None) if p.on >= 0 else None
    flipped = wasabi is not None and wasabi.kind == FACE_DOWN
    if p.kind == FACE_DOWN:
        return "face_down+wasabi" if wasabi is not None and not flipped else "face_down"
    if p.copy:
        on = "+wasabi" if p.on >= 0 and not flipped else ""
        return f"special_order>{C(p.kind).name_in_records}{on}"
    return C(p.card).name_in_records + ("+face_down" if flipped else "")


def base_sheet(rng: random.Random) -> tuple[dict[str, Any], Game]:
    """A base sheet of 1-3 rounds of a random game (the game, for its scores)."""
    players = rng.randint(2, 5)
    game = Game(Rules(players), seed=rng.randrange(10**9))
    game.random_playout(random.Random(rng.randrange(10**9)))
    rounds = rng.randint(1, 3)
    return {"players": players,
            "rounds": [[[c.name_in_records for c in col] for col in game.round_collections(r)]
                       for r in range(1, rounds + 1)]}, game


def party_sheet(rng: random.Random) -> tuple[dict[str, Any], PartyGame]:
    """A Party sheet of 1-3 rounds of a random game on an official or custom menu."""
    while True:
        players = rng.randint(2, 8)
        menu: Any = rng.choice(list(OFFICIAL_MENUS)) if rng.random() < 0.6 else random_menu(rng)
        rules = allowed(players, menu)
        if rules is not None:
            break
    game = PartyGame(rules, seed=rng.randrange(10**9))
    game.random_playout(random.Random(rng.randrange(10**9)))
    rounds = rng.randint(1, 3)
    sheet: dict[str, Any] = {
        "edition": "party", "players": players, "menu": list(rules.menu), "options": rules.options(),
        "rounds": [[[sheet_text(p, col) for p in col] for col in game.round_collections(r)]
                   for r in range(1, rounds + 1)]}
    if "uramaki" in rules.menu:
        sheet["uramaki"] = game.round_race_points[:rounds]
    return sheet, game


def random_sheet(rng: random.Random) -> dict[str, Any]:
    """A sheet of either edition (half each)."""
    return (base_sheet(rng) if rng.random() < 0.5 else party_sheet(rng))[0]
