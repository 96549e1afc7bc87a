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
from sushigo.engine.messages import N_, Message, Told, Words, msg, told

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
NUM_ROUNDS: Final = 3

HAND_SIZES: Final[Mapping[int, int]] = {2: 10, 3: 9, 4: 8, 5: 7}
"""Cards dealt to each player per round, by player count (docs/rules.md §1.2)."""

PARTY_MIN_PLAYERS: Final = 2
PARTY_MAX_PLAYERS: Final = 8
PARTY_HAND_SIZES: Final[Mapping[int, int]] = {2: 10, 3: 10, 4: 9, 5: 9, 6: 8, 7: 8, 8: 7}
"""Party hand sizes by player count (docs/rules.md §2.3)."""

URAMAKI_SPLITS: Final[dict[str, tuple[int, int, int]]] = {
    "4-4-4": (4, 4, 4),
    "3-5-4": (3, 5, 4),
    "4-5-3": (4, 5, 3),
}
"""Copies of uramaki with 3/4/5 icons, by option value (docs/rules.md §2.1: disputed)."""

class RulesError(ValueError):
    """An impossible rule setting (for instance six players in the base game)."""


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One named rule option of an edition: its record name, its default (the
    official game), the values it takes, and its words for the front ends that
    offer it (the lobby's form draws itself from these, ``GET /api/options``).

    >>> from sushigo.engine.messages import render
    >>> menu_draw = RULE_OPTIONS_BY_NAME["menu_card_draw"]
    >>> menu_draw.kind, menu_draw.default, render(menu_draw.problem(9))
    ('number', 4, 'menu_card_draw must be a whole number from 1 to 8')
    """

    name: str
    edition: str
    default: bool | int | str
    label: str
    """What the option is, in a few words (a form's label)."""
    choices: tuple[tuple[str, str], ...] = ()
    """A choice's values, each with its words (``kind == "choice"``)."""
    low: int = 0
    high: int = 0
    """A number's range (``kind == "number"``)."""

    @property
    def kind(self) -> str:
        """``"switch"`` (true or false), ``"number"`` (a whole number in a range) or ``"choice"``."""
        if isinstance(self.default, bool):
            return "switch"
        return "number" if isinstance(self.default, int) else "choice"

    def problem(self, value: object) -> Message | None:
        """What is wrong with ``value`` for this option, in one line (``None``: nothing)."""
        if self.kind == "switch":
            return None if isinstance(value, bool) else msg("{option} must be true or false", option=self.name)
        if self.kind == "number":
            ok = not isinstance(value, bool) and isinstance(value, int) and self.low <= value <= self.high
            return None if ok else msg("{option} must be a whole number from {low} to {high}", option=self.name,
                                       low=self.low, high=self.high)
        values = [v for v, _ in self.choices]
        return None if value in values else msg("{option} must be one of {values}, not {value}", option=self.name,
                                                values=Words(tuple(values), listing=True), value=repr(value))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "edition": self.edition, "kind": self.kind,
                               "default": self.default, "label": self.label}
        if self.kind == "choice":
            out["choices"] = [{"value": v, "words": w} for v, w in self.choices]
        if self.kind == "number":
            out["min"], out["max"] = self.low, self.high
        return out


RULE_OPTIONS: Final[tuple[RuleOption, ...]] = (
    RuleOption("pass_both_ways", "base", False, N_("Pass both ways (round 2 passes right)")),
    RuleOption("reshuffle", "base", False, N_("Reshuffle every round (house rule)")),
    RuleOption("uramaki_split", "party", "4-4-4", N_("Uramaki split"),
               tuple((k, N_("4-4-4 (default)") if k == "4-4-4" else k) for k in URAMAKI_SPLITS)),
    RuleOption("menu_card_draw", "party", 4, N_("Menu card draws"), low=1, high=8),
    RuleOption("two_player_pudding_penalty", "party", False, N_("Pudding penalty with 2 players")),
    RuleOption("wasabi_colour", "party", "nigiri", N_("Wasabi's colour (tea, soy sauce)"),
               (("nigiri", N_("The nigiri's (default)")), ("own", N_("Its own")))),
)
"""Every named rule option, each a field of :class:`Rules` of the same name (docs/rules.md §3)."""

RULE_OPTIONS_BY_NAME: Final[dict[str, RuleOption]] = {o.name: o for o in RULE_OPTIONS}

WASABI_COLOURS: Final[tuple[str, ...]] = tuple(v for v, _ in RULE_OPTIONS_BY_NAME["wasabi_colour"].choices)
"""Values of the ``wasabi_colour`` rule option (tea and soy sauce count
background colours): ``"nigiri"`` (default) gives the wasabi card the
nigiri's colour, ``"own"`` a colour of its own."""

OPTION_NAMES: Final[tuple[str, ...]] = tuple(o.name for o in RULE_OPTIONS if o.edition == "base")
"""The named rule options of the base game, as spelled in game records."""

PARTY_OPTION_NAMES: Final[tuple[str, ...]] = tuple(o.name for o in RULE_OPTIONS if o.edition == "party")
"""The named rule options of Party (readings the sources leave open; docs/rules.md)."""


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
            raise told(RulesError, "players must be a whole number")
        if self.edition == "party":
            self._check_party()
            return
        if self.edition != "base":
            raise told(RulesError, "unknown edition {edition} (this version knows 'base' and 'party')",
                       edition=repr(self.edition))
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            if self.players > MAX_PLAYERS:
                raise told(RulesError, "the base game is for {low}-{high} players, not {players} "
                           "(Sushi Go Party! seats {party_low}-{party_high})", low=MIN_PLAYERS, high=MAX_PLAYERS,
                           players=self.players, party_low=PARTY_MIN_PLAYERS, party_high=PARTY_MAX_PLAYERS)
            raise told(RulesError, "the base game is for {low}-{high} players, not {players}", low=MIN_PLAYERS,
                       high=MAX_PLAYERS, players=self.players)
        if self.menu:
            raise told(RulesError, "the base game has no menu (menus are for edition 'party')")
        self._check_options()

    def _check_party(self) -> None:
        if not PARTY_MIN_PLAYERS <= self.players <= PARTY_MAX_PLAYERS:
            raise told(RulesError, "Sushi Go Party! is for {low}-{high} players, not {players}",
                       low=PARTY_MIN_PLAYERS, high=PARTY_MAX_PLAYERS, players=self.players)
        if not self.menu:
            raise told(RulesError, "a Party game needs a menu")
        try:
            menu = normalize_menu(self.menu)
            check_menu(menu, self.players)
        except MenuError as exc:
            raise RulesError(*exc.args) from None  # the same message
        object.__setattr__(self, "menu", menu)
        self._check_options()

    def _check_options(self) -> None:
        """Each option of the edition takes one of its values; the other edition's keep their defaults."""
        others = [o for o in RULE_OPTIONS if o.edition != self.edition]
        if any(getattr(self, o.name) != o.default or type(getattr(self, o.name)) is not type(o.default)
               for o in others):
            names = tuple(o.name for o in others)
            if self.edition == "base":
                raise told(RulesError, "{options} are Party options", options=Words(names, listing=True))
            raise told(RulesError, "{options} are base-game options (Party always reshuffles)", options=Words(names))
        for option in RULE_OPTIONS:
            problem = option.problem(getattr(self, option.name)) if option.edition == self.edition else None
            if problem:
                raise RulesError(Told(problem))

    @classmethod
    def party(cls, players: int, menu: str | Sequence[str], **options: Any) -> Rules:
        """Party rules for ``players`` with a menu by name or by items.

        >>> Rules.party(2, "dinner for two").menu[:2]
        ('nigiri', 'uramaki')
        """
        try:
            items = parse_menu(menu)
        except MenuError as exc:
            raise RulesError(*exc.args) from None  # the same message
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
        """The named options as a record's ``options`` object (:data:`RULE_OPTIONS` of the edition)."""
        return {o.name: getattr(self, o.name) for o in RULE_OPTIONS if o.edition == self.edition}

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
            raise told(RulesError, "unknown rule option {option} for edition {edition}", option=repr(unknown[0]),
                       edition=repr(edition))
        if edition != "party":
            for key, value in options.items():
                if not isinstance(value, bool):
                    raise told(RulesError, "option {option} must be true or false", option=repr(key))
            if edition != "base":
                raise told(RulesError, "unknown edition {edition} (this version knows 'base' and 'party')",
                           edition=repr(edition))
            return cls(players, **options)
        if menu is None:
            raise told(RulesError, "a Party game needs a menu")
        return cls.party(players, menu, **options)
