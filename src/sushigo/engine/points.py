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

from sushigo.engine.messages import Message, Param, Words, label, msg, nmsg, render

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


@dataclass(frozen=True, slots=True)
class Figure:
    """One category of one seat's round score: what made it and what it is worth."""

    category: str
    """The breakdown key (``tempura``, ``nigiri``, ``maki``, ...)."""
    count: int
    """The cards of that kind in the collection (roll icons for maki and uramaki)."""
    points: int
    message: Message
    """What made it, e.g. ``3 sashimi: 1 set of three, 10`` (:attr:`text` in English)."""

    @property
    def text(self) -> str:
        """:attr:`message` in English, e.g. ``'3 sashimi: 1 set of three, 10'``."""
        return render(self.message)

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "count": self.count, "points": self.points, "text": self.text,
                "msg": self.message.to_json()}


@dataclass(frozen=True, slots=True)
class RoundStory:
    """A round's scoring, explained: each seat's figures and the maki race."""

    figures: tuple[tuple[Figure, ...], ...]
    """By seat, the categories the seat has cards for (in breakdown order)."""
    races: tuple[Message, ...]
    """Each race of the round (maki, temaki, uramaki) in one sentence: every
    seat's count and award, in seat order."""

    def to_json(self) -> dict[str, Any]:
        """The figures and the races in English (``races``: each a phrase), with
        their messages (``races_msg``) for front ends that render other languages."""
        return {"figures": [[f.to_json() for f in seat] for seat in self.figures],
                "races": [render(r) for r in self.races], "races_msg": [r.to_json() for r in self.races]}


def listed(numbers: Sequence[Param]) -> Words:
    """Numbers (or words) in a plain list: ``5, 3, 3``."""
    return Words(tuple(numbers), listing=True)


def signed(points: int) -> str:
    """An award with its sign (``+6``, ``-3``; ``0``)."""
    return f"{points:+d}" if points else "0"


SET_SIZES: Final = {"tempura": 2, "sashimi": 3, "green_tea_ice_cream": 4}
"""The cards scored by complete sets, and a set's size."""


def sets_figure(kind: str, count: int, points_per_set: int) -> Figure:
    """The figure of a card scored by complete sets (tempura pairs, sashimi threes,
    green tea ice cream fours).

    >>> sets_figure("sashimi", 7, SASHIMI_SET_POINTS).text, sets_figure("tempura", 1, TEMPURA_PAIR_POINTS).text
    ('7 sashimi: 2 sets of three, 20', '1 tempura: no pair, 0')
    """
    sets = count // SET_SIZES[kind]
    points = sets * points_per_set
    if kind == "tempura":
        said = (nmsg("{count} tempura: {n} pair, {points}", "{count} tempura: {n} pairs, {points}", sets,
                     count=count, points=points) if sets else
                msg("{count} tempura: no pair, {points}", count=count, points=points))
    elif kind == "sashimi":
        said = (nmsg("{count} sashimi: {n} set of three, {points}", "{count} sashimi: {n} sets of three, {points}",
                     sets, count=count, points=points) if sets else
                msg("{count} sashimi: no set of three, {points}", count=count, points=points))
    else:
        said = (nmsg("{count} green tea ice cream: {n} set of four, {points}",
                     "{count} green tea ice cream: {n} sets of four, {points}", sets, count=count, points=points)
                if sets else msg("{count} green tea ice cream: no set of four, {points}", count=count, points=points))
    return Figure(kind, count, points, said)


def dumpling_figure(count: int) -> Figure:
    """The figure of ``count`` dumplings (both editions' table).

    >>> dumpling_figure(6).text
    '6 dumplings: 15'
    """
    points = DUMPLING_POINTS[min(count, len(DUMPLING_POINTS) - 1)]
    return Figure("dumpling", count, points, nmsg("{n} dumpling: {points}", "{n} dumplings: {points}", count,
                                                  points=points))


NIGIRI_WORDS: Final = {"egg": label("egg"), "salmon": label("salmon"), "squid": label("squid")}
"""Each nigiri's name in a figure (its record name, translated on its own)."""


def nigiri_figure(nigiri: Sequence[tuple[str, int, bool]], empty_wasabi: int) -> Figure | None:
    """The nigiri figure from each nigiri in play order (its record name, face value,
    whether it sits on a wasabi) and the wasabi left empty; ``None`` for neither.

    >>> nigiri_figure([("squid", 3, True), ("egg", 1, False)], 1).text
    'squid on wasabi 9, egg 1, 1 wasabi left empty: 10'
    """
    if not nigiri and not empty_wasabi:
        return None
    points = [face * WASABI_FACTOR if on else face for _, face, on in nigiri]
    parts: list[Param] = [msg("{nigiri} on wasabi {points}", nigiri=NIGIRI_WORDS[name], points=p) if on else
                          msg("{nigiri} {points}", nigiri=NIGIRI_WORDS[name], points=p)
                          for (name, _, on), p in zip(nigiri, points)]
    if empty_wasabi:
        parts.append(nmsg("{n} wasabi left empty", "{n} wasabi left empty", empty_wasabi))
    return Figure("nigiri", len(nigiri), sum(points), msg("{parts}: {points}", parts=listed(parts),
                                                          points=sum(points)))


def maki_said(icons: int, place: Message, award: int) -> Message:
    """A seat's maki figure: its icons, its place in the race and its award."""
    return nmsg("{n} maki icon: {place}, {points}", "{n} maki icons: {place}, {points}", icons, place=place,
                points=award)


def race_sentence(what: str, counts: Sequence[int], awards: Sequence[int]) -> Message:
    """A race in one phrase: every seat's count and award, in seat order (``what``:
    ``maki icons`` or ``temaki cards``).

    >>> render(race_sentence("maki icons", [5, 3, 3, 2], [6, 1, 1, 0]))
    'maki icons 5, 3, 3, 2: 6, 1, 1, 0'
    >>> render(race_sentence("maki icons", [0, 0], [0, 0]))
    'nobody has a maki roll: no maki points'
    """
    if what == "maki icons" and not any(counts):
        return msg("nobody has a maki roll: no maki points")
    if what == "temaki cards":
        return msg("temaki cards {counts}: {awards}", counts=listed(counts), awards=listed(awards))
    return msg("maki icons {counts}: {awards}", counts=listed(counts), awards=listed(awards))
