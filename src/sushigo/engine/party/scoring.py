"""Scoring for Sushi Go Party! (docs/rules.md §2.5-§2.10).

Pure functions over Party card ids (see :mod:`sushigo.engine.party.cards`), in the
style of :mod:`sushigo.engine.base.scoring`.  Unlike the base game, every tie for a roll
or pudding award gives the *full* points to each tied seat.

>>> from sushigo.engine.party.cards import PartyCard as C
>>> party_maki_awards([5, 5, 3, 1])
[6, 6, 3, 0]
>>> score_party_round(
...     [[C.WASABI, C.SQUID, C.TEMPURA, C.TEMPURA, C.MAKI3], [C.EGG, C.MAKI1]], [3, 0],
...     ("nigiri", "maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"),
...     [0, 0], 0)  # doctest: +NORMALIZE_WHITESPACE
[{'nigiri': 9, 'maki': 6, 'tempura': 5, 'sashimi': 0, 'dumpling': 0},
 {'nigiri': 1, 'maki': 3, 'tempura': 0, 'sashimi': 0, 'dumpling': 0}]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from sushigo.engine.party.cards import (
    FACE_DOWN,
    FRUIT_ICONS,
    MAKI_ICONS,
    NUM_PARTY_IDS,
    ONIGIRI_IDS,
    URAMAKI_ICONS,
    PartyCard,
    colour_of,
)
from sushigo.engine.points import DUMPLING_POINTS, SASHIMI_SET_POINTS, TEMPURA_PAIR_POINTS, WASABI_FACTOR, Breakdown
from sushigo.engine.rules import WASABI_COLOURS

C = PartyCard

MAKI_PLACES_SMALL: Final = (6, 3)
"""Maki points for 1st and 2nd place with 2-5 seats."""
MAKI_PLACES_LARGE: Final = (6, 4, 2)
"""Maki points for 1st, 2nd and 3rd place with 6-8 seats."""
URAMAKI_PLACES: Final = (8, 5, 2)
"""Uramaki points for the 1st, 2nd and 3rd seat to reach 10 icons."""
URAMAKI_TARGET: Final = 10
"""Uramaki icons needed to score in the race."""
ONIGIRI_SET_POINTS: Final = (0, 1, 4, 9, 16)
"""Points for one set of 0..4 different onigiri shapes."""
FRUIT_POINTS: Final = (-2, 0, 1, 3, 6, 10)
"""Points for 0..5+ icons of one fruit type."""
NIGIRI_FACE: Final[dict[int, int]] = {int(C.EGG): 1, int(C.SALMON): 2, int(C.SQUID): 3}
"""Face value of each nigiri."""

_COLOURS: Final[dict[str, tuple[str | None, ...]]] = {
    option: tuple(
        colour_of(i, option) if i == FACE_DOWN or i in set(PartyCard) else None
        for i in range(NUM_PARTY_IDS + 1)
    )
    for option in WASABI_COLOURS
}
"""Background colour by card id (``None`` for FACE_DOWN), per ``wasabi_colour`` option."""

_TEMPURA: Final = int(C.TEMPURA)
_SASHIMI: Final = int(C.SASHIMI)
_DUMPLING: Final = int(C.DUMPLING)
_EEL: Final = int(C.EEL)
_TOFU: Final = int(C.TOFU)
_MISO_SOUP: Final = int(C.MISO_SOUP)
_EDAMAME: Final = int(C.EDAMAME)
_TEMAKI: Final = int(C.TEMAKI)
_ONIGIRI: Final = tuple(sorted(ONIGIRI_IDS))
_NIGIRI_FACE: Final = tuple(NIGIRI_FACE.items())
_MAKI_ICONS: Final = tuple(MAKI_ICONS.items())
_URAMAKI_ICONS: Final = tuple(URAMAKI_ICONS.items())

_SCORED_SPECIALS: Final = ("takeout_box", "tea", "soy_sauce")

FACE_DOWN_POINTS: Final = 2
"""What a card a takeout box turned face down scores at the round's end."""
_APPETIZERS: Final = ("tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri", "edamame", "miso_soup")
_ROLLS: Final = ("maki", "temaki", "uramaki")


def _places_by_distinct(values: Sequence[int], places: Sequence[int]) -> list[int]:
    """Award ``places`` to the distinct positive values, highest first; ties full."""
    awards = [0] * len(values)
    bound = -1  # the value of the place before (-1: none yet)
    for place in places:
        best = 0
        for v in values:
            if v > best and (bound < 0 or v < bound):
                best = v
        if best <= 0:
            break
        for i, v in enumerate(values):
            if v == best:
                awards[i] = place
        bound = best
    return awards


def party_maki_awards(icons: Sequence[int]) -> list[int]:
    """Maki award per seat from its icon total (docs/rules.md §2.6).

    Seats need at least one icon.  With 2-5 seats 1st scores 6 and 2nd 3;
    with 6-8 seats 1st 6, 2nd 4, 3rd 2.  Places go to distinct totals, so
    every tied seat gets the full points and a tie never cancels the next
    place.

    >>> party_maki_awards([5, 5, 3, 1])
    [6, 6, 3, 0]
    >>> party_maki_awards([7, 0, 7, 4, 4, 2])
    [6, 0, 6, 4, 4, 2]
    >>> party_maki_awards([0, 0])
    [0, 0]
    """
    places = MAKI_PLACES_LARGE if len(icons) >= 6 else MAKI_PLACES_SMALL
    return _places_by_distinct(icons, places)


def _most_fewest(counts: Sequence[int], points: int, penalty: bool) -> list[int]:
    """+points to every seat with the most (>= 1), -points to every seat with
    the fewest when ``penalty``; nothing at all when every count is equal."""
    awards = [0] * len(counts)
    if not counts:
        return awards
    most, fewest = max(counts), min(counts)
    if most == fewest:
        return awards
    for s, n in enumerate(counts):
        if n == most and most >= 1:
            awards[s] += points
        elif n == fewest and penalty:
            awards[s] -= points
    return awards


def temaki_awards(counts: Sequence[int]) -> list[int]:
    """Temaki award per seat from its temaki card count (docs/rules.md §2.6).

    Most cards (at least one) +4, fewest (zero included) -4; every tied seat
    gets the full amount.  With 2 seats nobody loses points.  DECISION: when
    every seat has the same count, nobody gains or loses (as for puddings).

    >>> temaki_awards([3, 3, 1, 0])
    [4, 4, 0, -4]
    >>> temaki_awards([2, 0])
    [4, 0]
    >>> temaki_awards([1, 1, 1])
    [0, 0, 0]
    """
    return _most_fewest(counts, 4, len(counts) > 2)


def uramaki_race(icons: Sequence[int], claimed: int) -> tuple[list[int], int]:
    """Uramaki race points at the end of a turn, and the new claimed count.

    ``icons`` is every seat's uramaki icon total now; ``claimed`` how many
    of the three places (8/5/2) are already taken this round.  Seats with at
    least 10 icons score, more icons first; tied seats each get the full
    points of the next unclaimed place and the places after it are skipped
    (``claimed`` advances by the size of the tie, capped at 3).  Once all
    three places are taken, seats reaching 10 score 0.

    >>> uramaki_race([10, 12, 3], 0)
    ([5, 8, 0], 2)
    >>> uramaki_race([11, 11, 10], 0)
    ([8, 8, 2], 3)
    >>> uramaki_race([10, 0], 3)
    ([0, 0], 3)
    """
    points = [0] * len(icons)
    for total in sorted({n for n in icons if n >= URAMAKI_TARGET}, reverse=True):
        tied = [s for s, n in enumerate(icons) if n == total]
        value = URAMAKI_PLACES[claimed] if claimed < len(URAMAKI_PLACES) else 0
        for s in tied:
            points[s] = value
        claimed = min(claimed + len(tied), len(URAMAKI_PLACES))
    return points, claimed


def uramaki_round_end(icons: Sequence[int], claimed: int) -> list[int]:
    """Round-end uramaki points: the seat(s) with the most remaining icons
    (at least one) score the next unclaimed place (8, 5, 2, or 0 when all
    three are claimed); ties all get the full points.

    >>> uramaki_round_end([4, 9, 9], 1)
    [0, 5, 5]
    >>> uramaki_round_end([4, 0], 0)
    [8, 0]
    >>> uramaki_round_end([7, 3], 3)
    [0, 0]
    """
    most = max(icons, default=0)
    value = URAMAKI_PLACES[claimed] if claimed < len(URAMAKI_PLACES) else 0
    return [value if most >= 1 and n == most else 0 for n in icons]


def eel_points(n: int) -> int:
    """Eel: none 0, one -3, two or more 7.

    >>> [eel_points(n) for n in range(4)]
    [0, -3, 7, 7]
    """
    return 0 if n <= 0 else -3 if n == 1 else 7


def tofu_points(n: int) -> int:
    """Tofu: one 2, two 6, three or more 0.

    >>> [tofu_points(n) for n in range(5)]
    [0, 2, 6, 0, 0]
    """
    return 2 if n == 1 else 6 if n == 2 else 0


def onigiri_points(cards: Iterable[int]) -> int:
    """Onigiri points: sets of different shapes score 1/4/9/16 for 1-4 shapes.

    A decision (docs/rules.md §2.7): the shapes are partitioned greedily into the
    largest distinct-shape sets (which is also the best partition).

    >>> from sushigo.engine.party.cards import PartyCard as C
    >>> onigiri_points([C.ONIGIRI_CIRCLE, C.ONIGIRI_CIRCLE, C.ONIGIRI_SQUARE, C.ONIGIRI_TRIANGLE])
    10
    """
    return _onigiri(_count(cards))


def _onigiri(counts: list[int]) -> int:
    """:func:`onigiri_points` from cards counted by id: the k-th set holds every
    shape with at least k cards."""
    shapes = [counts[shape] for shape in _ONIGIRI]
    points = 0
    for k in range(1, max(shapes) + 1):
        points += ONIGIRI_SET_POINTS[(shapes[0] >= k) + (shapes[1] >= k) + (shapes[2] >= k) + (shapes[3] >= k)]
    return points


def edamame_awards(counts: Sequence[int]) -> list[int]:
    """Edamame points per seat: each card scores 1 per *other* seat with any
    edamame, at most 4 per card (so a lone edamame player scores 0).

    >>> edamame_awards([2, 1, 0, 3])
    [4, 2, 0, 6]
    >>> edamame_awards([1, 0, 0])
    [0, 0, 0]
    """
    having = sum(1 for n in counts if n > 0)
    return [n * min(4, having - 1) if n > 0 else 0 for n in counts]


def colour_counts(cards: Iterable[int], wasabi_colour: str = "nigiri") -> Counter[str]:
    """Cards per background colour; face-down cards have none.  With
    ``wasabi_colour="nigiri"`` (the default) wasabi counts as a nigiri colour.

    >>> from sushigo.engine.party.cards import PartyCard as C
    >>> sorted(colour_counts([C.WASABI, C.EGG, C.TEA]).items())
    [('nigiri', 2), ('tea', 1)]
    >>> sorted(colour_counts([C.WASABI, C.EGG, C.TEA], "own").items())
    [('nigiri', 1), ('tea', 1), ('wasabi', 1)]
    """
    table = _COLOURS[wasabi_colour]
    return Counter(colour for c in cards if (colour := table[c]) is not None)


def tea_points(cards: Sequence[int], wasabi_colour: str = "nigiri") -> int:
    """Tea points of one seat: each tea scores 1 per card in the seat's largest
    group of cards sharing a background colour (teas included, face-down
    cards excluded).

    >>> from sushigo.engine.party.cards import PartyCard as C, FACE_DOWN
    >>> tea_points([C.TEA, C.EGG, C.SQUID, C.SALMON, C.MAKI1, FACE_DOWN, FACE_DOWN])
    3
    >>> tea_points([C.TEA, C.TEA])
    4
    >>> tea_points([C.TEA, C.WASABI, C.SQUID]), tea_points([C.TEA, C.WASABI, C.SQUID], "own")
    (2, 1)
    """
    teas = sum(1 for c in cards if c == C.TEA)
    if not teas:
        return 0
    return teas * max(colour_counts(cards, wasabi_colour).values())


def soy_sauce_awards(collections: Sequence[Sequence[int]], wasabi_colour: str = "nigiri") -> list[int]:
    """Soy sauce points per seat: 4 per soy sauce if the seat has the most (or
    tied most) distinct background colours of all seats.

    >>> from sushigo.engine.party.cards import PartyCard as C
    >>> soy_sauce_awards([[C.SOY_SAUCE, C.EGG], [C.TOFU, C.EEL], [C.SOY_SAUCE, C.EEL, C.EEL]])
    [4, 0, 4]
    >>> soy_sauce_awards([[C.SOY_SAUCE, C.WASABI, C.EGG], [C.SOY_SAUCE, C.TOFU, C.EEL]])
    [0, 4]
    >>> soy_sauce_awards([[C.SOY_SAUCE, C.WASABI, C.EGG], [C.SOY_SAUCE, C.TOFU, C.EEL]], "own")
    [4, 4]
    """
    colours = [len(colour_counts(cards, wasabi_colour)) for cards in collections]
    most = max(colours, default=0)
    return [
        4 * sum(1 for c in cards if c == C.SOY_SAUCE) if n == most else 0
        for cards, n in zip(collections, colours)
    ]


def score_party_round(
    collections: Sequence[Sequence[int]],
    tripled: Sequence[int],
    menu_items: Sequence[str],
    uramaki_scored: Sequence[int],
    uramaki_claimed: int,
    wasabi_colour: str = "nigiri",
) -> list[Breakdown]:
    """Every seat's round breakdown (docs/rules.md §2.5-2.8).

    ``collections[s]`` holds seat ``s``'s effective cards at round end (special
    orders as the card they copy, FACE_DOWN for flipped cards); ``tripled[s]``
    the face value of its nigiri on wasabi; ``uramaki_scored[s]`` its race
    points this round, and ``uramaki_claimed`` the places already taken;
    ``wasabi_colour`` the rule option for tea and soy sauce.

    Keys, in order: ``nigiri``; the roll; the appetizers in ``menu_items``
    order; then ``takeout_box``, ``tea`` and ``soy_sauce`` when on the menu.
    Other specials and desserts score nothing here.
    """
    counts = [_count(cards) for cards in collections]
    n_seats = len(collections)
    lines: list[Breakdown] = [
        {"nigiri": _icons(cnt, _NIGIRI_FACE) + (WASABI_FACTOR - 1) * tripled[s]}
        for s, cnt in enumerate(counts)
    ]
    for item in menu_items:
        if item == "maki":
            awards = party_maki_awards([_icons(cnt, _MAKI_ICONS) for cnt in counts])
        elif item == "temaki":
            awards = temaki_awards([cnt[_TEMAKI] for cnt in counts])
        elif item == "uramaki":
            end = uramaki_round_end([_icons(cnt, _URAMAKI_ICONS) for cnt in counts], uramaki_claimed)
            awards = [uramaki_scored[s] + end[s] for s in range(n_seats)]
        else:
            continue
        for s in range(n_seats):
            lines[s][item] = awards[s]
    for item in menu_items:
        if item not in _APPETIZERS:
            continue
        if item == "edamame":
            awards = edamame_awards([cnt[_EDAMAME] for cnt in counts])
        else:
            awards = [_appetizer_points(item, cnt) for cnt in counts]
        for s in range(n_seats):
            lines[s][item] = awards[s]
    for item in _SCORED_SPECIALS:
        if item not in menu_items:
            continue
        if item == "takeout_box":
            awards = [FACE_DOWN_POINTS * cnt[FACE_DOWN] for cnt in counts]
        elif item == "tea":
            awards = [tea_points(cards, wasabi_colour) for cards in collections]
        else:
            awards = soy_sauce_awards(collections, wasabi_colour)
        for s in range(n_seats):
            lines[s][item] = awards[s]
    return lines


def _count(cards: Iterable[int]) -> list[int]:
    """How many of each card id (and of FACE_DOWN), by id."""
    counts = [0] * (NUM_PARTY_IDS + 1)
    for c in cards:
        counts[c] += 1
    return counts


def _icons(counts: list[int], icons: tuple[tuple[int, int], ...]) -> int:
    """The total of ``icons`` (``(card id, points or roll icons)`` pairs) over the counted cards."""
    total = 0
    for c, n in icons:
        total += n * counts[c]
    return total


def _appetizer_points(item: str, counts: list[int]) -> int:
    """One seat's points for an appetizer other than edamame (``counts``: cards by id)."""
    if item == "tempura":
        return TEMPURA_PAIR_POINTS * (counts[_TEMPURA] // 2)
    if item == "sashimi":
        return SASHIMI_SET_POINTS * (counts[_SASHIMI] // 3)
    if item == "dumpling":
        return DUMPLING_POINTS[min(counts[_DUMPLING], 5)]
    if item == "eel":
        return eel_points(counts[_EEL])
    if item == "tofu":
        return tofu_points(counts[_TOFU])
    if item == "onigiri":
        return _onigiri(counts)
    if item == "miso_soup":
        return 3 * counts[_MISO_SOUP]
    raise ValueError(f"not an appetizer: {item!r}")


def fruit_points(cards: Iterable[int]) -> int:
    """Fruit points: each fruit type scores by its icon count
    (0 -2, 1 0, 2 1, 3 3, 4 6, 5+ 10).

    >>> from sushigo.engine.party.cards import PartyCard as C
    >>> fruit_points([])
    -6
    >>> fruit_points([C.FRUIT_WATERMELON2, C.FRUIT_WATERMELON_ORANGE])
    1
    """
    return sum(fruit_type_points(cards))


def fruit_type_points(cards: Iterable[int]) -> list[int]:
    """The points of each fruit type (watermelon, pineapple, orange) by its icons.

    >>> from sushigo.engine.party.cards import PartyCard as C
    >>> fruit_type_points([C.FRUIT_WATERMELON2, C.FRUIT_WATERMELON_ORANGE])
    [3, -2, 0]
    """
    return [FRUIT_POINTS[min(n, len(FRUIT_POINTS) - 1)] for n in fruit_icons(cards)]


def fruit_icons(cards: Iterable[int]) -> list[int]:
    """Watermelon, pineapple and orange icons on the fruit cards of ``cards``.

    >>> from sushigo.engine.party.cards import PartyCard as C
    >>> fruit_icons([C.FRUIT_WATERMELON2, C.FRUIT_WATERMELON_ORANGE])
    [3, 0, 1]
    """
    icons = [0, 0, 0]
    for c in cards:
        for i, n in enumerate(FRUIT_ICONS.get(c, (0, 0, 0))):
            icons[i] += n
    return icons


def green_tea_points(n: int) -> int:
    """Green tea ice cream: 12 per complete set of 4.

    >>> [green_tea_points(n) for n in (3, 4, 8, 9)]
    [0, 12, 24, 24]
    """
    return 12 * (n // 4)


def party_pudding_awards(counts: Sequence[int], two_player_penalty: bool = False) -> list[int]:
    """Party pudding per seat: most +6, fewest (zero included) -6, full points
    to every tied seat; all equal scores nothing.  With 2 seats nobody loses
    unless ``two_player_penalty`` (a decision, docs/rules.md §2.8).

    >>> party_pudding_awards([3, 3, 0, 0])
    [6, 6, -6, -6]
    >>> party_pudding_awards([1, 0])
    [6, 0]
    >>> party_pudding_awards([1, 0], two_player_penalty=True)
    [6, -6]
    """
    return _most_fewest(counts, 6, len(counts) > 2 or two_player_penalty)


def score_desserts(
    desserts: Sequence[Sequence[int]],
    dessert_item: str,
    two_player_penalty: bool = False,
) -> list[Breakdown]:
    """End-of-game dessert points per seat, as ``{dessert_item: points}``.

    >>> score_desserts([[39] * 5, [39] * 8], "green_tea_ice_cream")
    [{'green_tea_ice_cream': 12}, {'green_tea_ice_cream': 24}]
    """
    if dessert_item == "pudding":
        points = party_pudding_awards(
            [sum(1 for c in cards if c == C.PUDDING) for cards in desserts], two_player_penalty)
    elif dessert_item == "green_tea_ice_cream":
        points = [green_tea_points(sum(1 for c in cards if c == C.GREEN_TEA_ICE_CREAM))
                  for cards in desserts]
    elif dessert_item == "fruit":
        points = [fruit_points(cards) for cards in desserts]
    else:
        raise ValueError(f"not a dessert: {dessert_item!r}")
    return [{dessert_item: p} for p in points]


def party_winners(totals: Sequence[int], dessert_cards: Sequence[int]) -> list[int]:
    """Winning seats: highest total, then most dessert cards; else shared.

    >>> party_winners([40, 40, 12], [3, 5, 9])
    [1]
    >>> party_winners([40, 40, 12], [5, 5, 9])
    [0, 1]
    """
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    most = max(dessert_cards[s] for s in tied)
    return [s for s in tied if dessert_cards[s] == most]


__all__ = [
    "FACE_DOWN_POINTS",
    "FRUIT_POINTS",
    "MAKI_PLACES_LARGE",
    "MAKI_PLACES_SMALL",
    "NIGIRI_FACE",
    "ONIGIRI_SET_POINTS",
    "URAMAKI_PLACES",
    "URAMAKI_TARGET",
    "colour_counts",
    "edamame_awards",
    "eel_points",
    "fruit_icons",
    "fruit_points",
    "fruit_type_points",
    "green_tea_points",
    "onigiri_points",
    "party_maki_awards",
    "party_pudding_awards",
    "party_winners",
    "score_desserts",
    "score_party_round",
    "soy_sauce_awards",
    "tea_points",
    "temaki_awards",
    "tofu_points",
    "uramaki_race",
    "uramaki_round_end",
]
