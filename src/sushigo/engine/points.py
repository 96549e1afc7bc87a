"""Scoring pieces both editions share: the dumpling table, the tempura,
sashimi and wasabi values, the shape of a seat's points per category, and of
a round's score explained (:class:`Figure`, :class:`RoundStory`).

>>> DUMPLING_POINTS[3], sum({"tempura": 5, "maki": 3}.values())
(6, 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

DUMPLING_POINTS: Final[tuple[int, ...]] = (0, 1, 3, 6, 10, 15)
"""Points for 0..5 dumplings; five or more score 15 (a lookup, not a running sum)."""

Breakdown = dict[str, int]
"""Points per category, e.g. ``{'tempura': 5, ..., 'maki': 3}``; its sum is the score."""

TEMPURA_PAIR_POINTS: Final = 5
"""Points for each pair of tempura (docs/rules.md §1.5, §2.5)."""
SASHIMI_SET_POINTS: Final = 10
"""Points for each set of three sashimi."""
WASABI_FACTOR: Final = 3
"""A nigiri on a wasabi scores this many times its face value."""

_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(n: int) -> str:
    """``n`` in words up to ten (``'no'`` for 0), in figures above."""
    return _WORDS[n] if n < len(_WORDS) else str(n)


@dataclass(frozen=True, slots=True)
class Figure:
    """One category of one seat's round score: what made it and what it is worth."""

    category: str
    """The breakdown key (``tempura``, ``nigiri``, ``maki``, ...)."""
    count: int
    """The cards of that kind in the collection (roll icons for maki and uramaki)."""
    points: int
    text: str
    """One sentence, e.g. ``'3 sashimi: one set of three, 10'``."""

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "count": self.count, "points": self.points, "text": self.text}


@dataclass(frozen=True, slots=True)
class RoundStory:
    """A round's scoring, explained: each seat's figures and the maki race."""

    figures: tuple[tuple[Figure, ...], ...]
    """By seat, the categories the seat has cards for (in breakdown order)."""
    races: tuple[str, ...]
    """Each race of the round (maki, temaki, uramaki) in one sentence: every
    seat's count and award, in seat order."""

    def to_json(self) -> dict[str, Any]:
        return {"figures": [[f.to_json() for f in seat] for seat in self.figures], "races": list(self.races)}


def sets_figure(kind: str, count: int, size: int, one: str, many: str, points: int) -> Figure:
    """The figure of a card scored by complete sets (tempura pairs, sashimi threes).

    >>> sets_figure("sashimi", 7, 3, "set of three", "sets of three", SASHIMI_SET_POINTS).text
    '7 sashimi: two sets of three, 20'
    """
    sets = count // size
    return Figure(kind, count, sets * points, f"{count} {kind}: {number_word(sets)} {many if sets > 1 else one}, "
                  f"{sets * points}")


def dumpling_figure(count: int) -> Figure:
    """The figure of ``count`` dumplings (both editions' table).

    >>> dumpling_figure(6).text
    '6 dumplings: 15'
    """
    points = DUMPLING_POINTS[min(count, len(DUMPLING_POINTS) - 1)]
    return Figure("dumpling", count, points, f"{count} dumpling{'s' if count != 1 else ''}: {points}")


def nigiri_figure(nigiri: Sequence[tuple[str, int, bool]], empty_wasabi: int) -> Figure | None:
    """The nigiri figure from each nigiri in play order (its name, face value,
    whether it sits on a wasabi) and the wasabi left empty; ``None`` for neither.

    >>> nigiri_figure([("squid", 3, True), ("egg", 1, False)], 1).text
    'squid on wasabi 9, egg 1, one wasabi left empty: 10'
    """
    if not nigiri and not empty_wasabi:
        return None
    points = [face * WASABI_FACTOR if on else face for _, face, on in nigiri]
    parts = [f"{name}{' on wasabi' if on else ''} {p}" for (name, _, on), p in zip(nigiri, points)]
    if empty_wasabi:
        parts.append(f"{number_word(empty_wasabi)} wasabi left empty")
    return Figure("nigiri", len(nigiri), sum(points), f"{', '.join(parts)}: {sum(points)}")


def race_sentence(what: str, counts: Sequence[int], awards: Sequence[int]) -> str:
    """A race in one sentence: every seat's count and award, in seat order.

    >>> race_sentence("maki icons", [5, 3, 3, 2], [6, 1, 1, 0]), race_sentence("maki icons", [0, 0], [0, 0])
    ('maki icons 5, 3, 3, 2: 6, 1, 1, 0', 'nobody has a maki roll: no maki points')
    """
    if what == "maki icons" and not any(counts):
        return "nobody has a maki roll: no maki points"
    return f"{what} {', '.join(map(str, counts))}: {', '.join(map(str, awards))}"
