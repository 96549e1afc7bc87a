"""Rule options and the fixed numbers of the game (docs/rules.md §1 and §2.3).

A :class:`Rules` value names the edition, the table size, the Party menu and
every rule option in force.  The defaults are the official game.

>>> Rules(4).hand_size
8
>>> Rules(3, pass_both_ways=True).pass_step(2)
-1
>>> party = Rules.party(6, "Big Banquet")
>>> party.hand_size, party.desserts_per_round
(8, (7, 5, 3))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sushigo.engine.menus import MenuError, check_menu, normalize_menu, parse_menu

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
NUM_ROUNDS: Final = 3

HAND_SIZES: Final[Mapping[int, int]] = {2: 10, 3: 9, 4: 8, 5: 7}
"""Cards dealt to each player per round, by player count (docs/rules.md §1.2)."""

PARTY_MIN_PLAYERS: Final = 2
PARTY_MAX_PLAYERS: Final = 8
PARTY_HAND_SIZES: Final[Mapping[int, int]] = {2: 10, 3: 10, 4: 9, 5: 9, 6: 8, 7: 8, 8: 7}
"""Party hand sizes by player count (docs/rules.md §2.3)."""

OPTION_NAMES: Final[tuple[str, ...]] = ("pass_both_ways", "reshuffle")
"""The named rule options of the base game, as spelled in game records."""

PARTY_OPTION_NAMES: Final[tuple[str, ...]] = (
    "uramaki_split",
    "menu_card_draw",
    "two_player_pudding_penalty",
    "wasabi_colour",
)
"""The named rule options of Party (readings the sources leave open; docs/rules.md)."""


URAMAKI_SPLITS: Final[dict[str, tuple[int, int, int]]] = {
    "4-4-4": (4, 4, 4),
    "3-5-4": (3, 5, 4),
    "4-5-3": (4, 5, 3),
}
"""Copies of uramaki with 3/4/5 icons, by option value (docs/rules.md §2.1: disputed)."""

WASABI_COLOURS: Final[tuple[str, ...]] = ("nigiri", "own")
"""Values of the ``wasabi_colour`` rule option (tea and soy sauce count
background colours): ``"nigiri"`` (default) gives the wasabi card the
nigiri's colour, ``"own"`` a colour of its own."""


class RulesError(ValueError):
    """An impossible rule setting (for instance six players in the base game)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The table size and the rule options of one game.

    Base-game options (all off by default, i.e. the official rules):

    ``pass_both_ways``
        The official variant: rounds 1 and 3 pass left, round 2 passes right.
    ``reshuffle``
        A house rule (not official): before rounds 2 and 3, shuffle every
        non-pudding card, played or undealt, back into one deck and deal from it.

    Party options (``edition="party"``; see :meth:`party`):

    ``menu``
        The 8 menu items (:mod:`sushigo.engine.menus`), nigiri first.
    ``uramaki_split``
        Copies of 3/4/5-icon uramaki: ``"4-4-4"`` (default), ``"3-5-4"`` or
        ``"4-5-3"`` (docs/rules.md §2.1 marks the split disputed).
    ``menu_card_draw``
        Cards a Menu card draws from the deck (default 4; docs/rules.md §2.5 marks
        the Menu card UNVERIFIED).
    ``two_player_pudding_penalty``
        Whether the fewest-pudding penalty applies with 2 players (default
        off, mirroring the base game and temaki; UNVERIFIED).
    ``wasabi_colour``
        The wasabi card's background colour for tea and soy sauce:
        ``"nigiri"`` (default: it shares the nigiri's, as two independent
        card sources give it) or ``"own"`` (a colour of its own).
    """

    players: int
    pass_both_ways: bool = False
    reshuffle: bool = False
    edition: str = field(default="base")
    menu: tuple[str, ...] = ()
    uramaki_split: str = "4-4-4"
    menu_card_draw: int = 4
    two_player_pudding_penalty: bool = False
    wasabi_colour: str = "nigiri"

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise RulesError("players must be a whole number")
        if self.edition == "party":
            self._check_party()
            return
        if self.edition != "base":
            raise RulesError(f"unknown edition {self.edition!r} (this version knows 'base' and 'party')")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            hint = " (Sushi Go Party! seats 2-8)" if self.players > MAX_PLAYERS else ""
            raise RulesError(
                f"the base game is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {self.players}{hint}"
            )
        if self.menu:
            raise RulesError("the base game has no menu (menus are for edition 'party')")
        party_options = (self.uramaki_split, self.menu_card_draw, self.two_player_pudding_penalty,
                         self.wasabi_colour)
        if party_options != ("4-4-4", 4, False, "nigiri"):
            raise RulesError(f"{', '.join(PARTY_OPTION_NAMES)} are Party options")

    def _check_party(self) -> None:
        if not PARTY_MIN_PLAYERS <= self.players <= PARTY_MAX_PLAYERS:
            raise RulesError(
                f"Sushi Go Party! is for {PARTY_MIN_PLAYERS}-{PARTY_MAX_PLAYERS} players, not {self.players}"
            )
        if self.pass_both_ways or self.reshuffle:
            raise RulesError("pass_both_ways and reshuffle are base-game options (Party always reshuffles)")
        if not self.menu:
            raise RulesError("a Party game needs a menu")
        try:
            menu = normalize_menu(self.menu)
            check_menu(menu, self.players)
        except MenuError as exc:
            raise RulesError(str(exc)) from None
        object.__setattr__(self, "menu", menu)
        if self.uramaki_split not in URAMAKI_SPLITS:
            raise RulesError(
                f"uramaki_split must be one of {', '.join(URAMAKI_SPLITS)}, not {self.uramaki_split!r}"
            )
        if (isinstance(self.menu_card_draw, bool) or not isinstance(self.menu_card_draw, int)
                or not 1 <= self.menu_card_draw <= 8):
            raise RulesError("menu_card_draw must be a whole number from 1 to 8")
        if not isinstance(self.two_player_pudding_penalty, bool):
            raise RulesError("two_player_pudding_penalty must be true or false")
        if self.wasabi_colour not in WASABI_COLOURS:
            raise RulesError(
                f"wasabi_colour must be one of {', '.join(WASABI_COLOURS)}, not {self.wasabi_colour!r}"
            )

    @classmethod
    def party(cls, players: int, menu: str | Sequence[str], **options: Any) -> Rules:
        """Party rules for ``players`` with a menu by name or by items.

        >>> Rules.party(2, "dinner for two").menu[:2]
        ('nigiri', 'uramaki')
        """
        try:
            items = parse_menu(menu)
        except MenuError as exc:
            raise RulesError(str(exc)) from None
        return cls(players, edition="party", menu=items, **options)

    @property
    def is_party(self) -> bool:
        """Whether these are Sushi Go Party! rules."""
        return self.edition == "party"

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat per round (base: 10/9/8/7 for 2/3/4/5
        players; Party: 10/10/9/9/8/8/7 for 2..8)."""
        if self.edition == "party":
            return PARTY_HAND_SIZES[self.players]
        return HAND_SIZES[self.players]

    @property
    def desserts_per_round(self) -> tuple[int, int, int]:
        """Party: desserts shuffled into the deck before rounds 1, 2, 3."""
        return (5, 3, 2) if self.players <= 5 else (7, 5, 3)

    def pass_step(self, round_number: int) -> int:
        """Where hands go in round ``round_number`` (1-based): +1 to the left, -1 to the right.

        Seat ``s`` hands its cards to seat ``(s + step) % players``.
        """
        if self.pass_both_ways and round_number == 2:
            return -1
        return 1

    def options(self) -> dict[str, Any]:
        """The named options as a record's ``options`` object."""
        if self.edition == "party":
            return {
                "uramaki_split": self.uramaki_split,
                "menu_card_draw": self.menu_card_draw,
                "two_player_pudding_penalty": self.two_player_pudding_penalty,
                "wasabi_colour": self.wasabi_colour,
            }
        return {"pass_both_ways": self.pass_both_ways, "reshuffle": self.reshuffle}

    @classmethod
    def from_options(
        cls,
        players: int,
        options: Mapping[str, Any] | None = None,
        *,
        edition: str = "base",
        menu: str | Sequence[str] | None = None,
    ) -> Rules:
        """Build rules from a record's ``options`` object (missing keys mean the default)."""
        options = dict(options or {})
        names = PARTY_OPTION_NAMES if edition == "party" else OPTION_NAMES
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise RulesError(f"unknown rule option {unknown[0]!r} for edition {edition!r}")
        if edition != "party":
            for key, value in options.items():
                if not isinstance(value, bool):
                    raise RulesError(f"option {key!r} must be true or false")
            if edition != "base":
                raise RulesError(f"unknown edition {edition!r} (this version knows 'base' and 'party')")
            return cls(players, **options)
        if menu is None:
            raise RulesError("a Party game needs a menu")
        return cls.party(players, menu, **options)
