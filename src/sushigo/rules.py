"""Rule options and the fixed numbers of the game (RULES.md §1).

A :class:`Rules` value names the table size and every rule option in force.
All options are off by default, which is the official game.

>>> Rules(4).hand_size
8
>>> Rules(3, pass_both_ways=True).pass_step(2)
-1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Mapping

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
NUM_ROUNDS: Final = 3

HAND_SIZES: Final[Mapping[int, int]] = {2: 10, 3: 9, 4: 8, 5: 7}
"""Cards dealt to each player per round, by player count (RULES.md §1.2)."""

OPTION_NAMES: Final[tuple[str, ...]] = ("pass_both_ways", "reshuffle")
"""The named rule options, as spelled in game records."""


class RulesError(ValueError):
    """An impossible rule setting (for instance six players in the base game)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The table size and the rule options of one game.

    Options (all off by default, i.e. the official rules):

    ``pass_both_ways``
        The official variant: rounds 1 and 3 pass left, round 2 passes right.
    ``reshuffle``
        A house rule (not official): before rounds 2 and 3, shuffle every
        non-pudding card, played or undealt, back into one deck and deal from it.
    """

    players: int
    pass_both_ways: bool = False
    reshuffle: bool = False
    edition: str = field(default="base")

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise RulesError("players must be a whole number")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(
                f"the base game is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {self.players}"
            )
        if self.edition != "base":
            raise RulesError(f"unknown edition {self.edition!r} (this version knows 'base')")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat per round (10/9/8/7 for 2/3/4/5 players)."""
        return HAND_SIZES[self.players]

    def pass_step(self, round_number: int) -> int:
        """Where hands go in round ``round_number`` (1-based): +1 to the left, -1 to the right.

        Seat ``s`` hands its cards to seat ``(s + step) % players``.
        """
        if self.pass_both_ways and round_number == 2:
            return -1
        return 1

    def options(self) -> dict[str, bool]:
        """The named options as a record's ``options`` object."""
        return {"pass_both_ways": self.pass_both_ways, "reshuffle": self.reshuffle}

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any] | None = None) -> "Rules":
        """Build rules from a record's ``options`` object (missing keys mean off)."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(f"unknown rule option {unknown[0]!r}")
        for key, value in options.items():
            if not isinstance(value, bool):
                raise RulesError(f"option {key!r} must be true or false")
        return cls(players, **options)
