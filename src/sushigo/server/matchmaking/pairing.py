"""Who plays whom: the queue's pairing rule, on plain values (no database, no clock).

:func:`pair` takes everyone waiting and the time, and answers the tables to
seat now.  The oldest entry chooses first: it gets the largest table of a size
it accepts that the queue can fill with people now; while it has waited less
than :data:`GATHER` seconds only a full table of its largest size forms at
once; once it has waited its own ``bots_after`` seconds, the seats nobody
fills go to bots, at the largest size everyone at the table accepts.

Accounts that play rated games are matched by rating: two of them sit
together only while their ratings are within both their windows
(:func:`window`, wider the longer they wait), nearest first.  Everyone else is
taken in the order they came, whatever their play.  Two entries of Sushi Go
Party! sit together when their menus agree (``None``: any menu).

Bot accounts wait apart: they never make a table, they take the bot seats of
the people's (:func:`seat_bots`), nearest the people's rating first.

>>> a = Waiting("a", "base", None, frozenset({2, 3}), False, 1500, 0.0, 30.0)
>>> b = Waiting("b", "base", None, frozenset({2, 3}), False, 1500, 1.0, 30.0)
>>> pair([a, b], now=2.0)  # a's largest size is 3: it waits a little for a third
[]
>>> [(m.members, m.players, m.bots) for m in pair([a, b], now=GATHER + 1)]
[(('a', 'b'), 2, 0)]
>>> [(m.members, m.players, m.bots) for m in pair([a], now=31.0)]
[(('a',), 3, 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

GATHER: Final = 10.0
"""Seconds the oldest entry waits for a full table before a smaller one of people forms."""
RATING_WINDOW: Final = 150.0
"""Shown-rating points two rated players may be apart at first."""
RATING_WIDENS: Final = 10.0
"""Points the window widens per second of waiting."""


@dataclass(frozen=True)
class Waiting:
    """One place in the queue."""

    id: str
    edition: str
    menu: str | None
    """Sushi Go Party!'s menu the entry asked for (``None``: any menu; always ``None`` for the original)."""
    sizes: frozenset[int]
    """Table sizes (players, bots included) the entry accepts."""
    rated: bool
    """A signed-in player asking for a rated game (matched by rating, with rated players only)."""
    rating: float
    """The entry's shown rating in its edition (1500 for guests)."""
    joined: float
    """Its place: when it joined (or went back to the end of the queue)."""
    bots_after: float
    """Seconds after which the seats nobody fills go to bots."""


@dataclass(frozen=True)
class Match:
    """A table to seat: its people (queue ids, oldest first) and how many bots fill it."""

    members: tuple[str, ...]
    edition: str
    menu: str | None
    players: int
    bots: int
    rated: bool
    rating: float
    """The people's mean rating (what the bots are chosen near)."""
    bot_accounts: tuple[str, ...] = ()
    """The places of bot accounts taking bot seats (counted in ``bots``; the house's bots take the rest)."""


def window(waited: float) -> float:
    """How far apart (shown points) a rated entry that waited ``waited`` seconds accepts a rival."""
    return RATING_WINDOW + RATING_WIDENS * max(0.0, waited)


def _menu_of(group: Sequence[Waiting]) -> str | None:
    return next((w.menu for w in group if w.menu is not None), None)


def _fits(group: Sequence[Waiting], other: Waiting, now: float) -> bool:
    """Whether ``other`` may join ``group`` (same kind of game, menu, and rating windows)."""
    first = group[0]
    if other.edition != first.edition or other.rated != first.rated:
        return False
    menu = _menu_of(group)
    if menu is not None and other.menu is not None and other.menu != menu:
        return False
    if first.rated:
        for w in group:
            gap = abs(w.rating - other.rating)
            if gap > window(now - w.joined) or gap > window(now - other.joined):
                return False
    return True


def _group(first: Waiting, others: Sequence[Waiting], size: int, now: float) -> list[Waiting]:
    """``first`` and as many of ``others`` (in their order) as fit, up to ``size`` people accepting ``size``."""
    group = [first]
    for other in others:
        if len(group) == size:
            break
        if size in other.sizes and _fits(group, other, now):
            group.append(other)
    return group


def pair(entries: Sequence[Waiting], now: float) -> list[Match]:
    """The tables to seat now from ``entries`` (everyone waiting), oldest entry first."""
    queue = sorted(entries, key=lambda w: (w.joined, w.id))
    taken: set[str] = set()
    matches: list[Match] = []
    for first in queue:
        if first.id in taken:
            continue
        waited = now - first.joined
        others = [w for w in queue if w.id not in taken and w.id != first.id]
        if first.rated:  # nearest rating first, then the oldest
            others.sort(key=lambda w: (abs(w.rating - first.rating), w.joined, w.id))
        chosen: list[Waiting] | None = None
        players = 0
        for size in sorted(first.sizes, reverse=True):
            group = _group(first, others, size, now)
            full = len(group) == size
            if full and (size == max(first.sizes) or waited >= GATHER):
                chosen, players = group, size
                break
        if chosen is None and waited >= first.bots_after:
            best: list[Waiting] = [first]
            for size in sorted(first.sizes, reverse=True):
                group = _group(first, others, size, now)
                if len(group) > len(best):
                    best = group
            common = set(first.sizes).intersection(*(w.sizes for w in best))
            chosen, players = best, max(common)
        if chosen is None:
            continue
        taken.update(w.id for w in chosen)
        matches.append(Match(
            members=tuple(w.id for w in sorted(chosen, key=lambda w: (w.joined, w.id))),
            edition=first.edition, menu=_menu_of(chosen), players=players, bots=players - len(chosen),
            rated=first.rated, rating=sum(w.rating for w in chosen) / len(chosen)))
    return matches


def seat_bots(matches: Sequence[Match], bots: Sequence[Waiting]) -> list[Match]:
    """``matches`` with their bot seats given to the waiting bot accounts ``bots`` that take
    them (the edition, a size they accept, and a rated table only if they play rated ones:
    a bot account's ``rated`` means "rated tables too"), nearest the people's rating first,
    each once.

    >>> people = Match(("p",), "base", None, 3, 2, False, 1500.0)
    >>> deep = Waiting("d", "base", None, frozenset({2, 3}), False, 1600.0, 0.0, 600.0)
    >>> [(m.bots, m.bot_accounts) for m in seat_bots([people], [deep])]
    [(2, ('d',))]
    """
    free = sorted(bots, key=lambda w: (w.joined, w.id))
    seated: list[Match] = []
    for m in matches:
        fits = [b for b in free if b.edition == m.edition and m.players in b.sizes and (b.rated or not m.rated)]
        fits.sort(key=lambda b: (abs(b.rating - m.rating), b.joined, b.id))
        chosen = [b.id for b in fits[:m.bots]]
        free = [b for b in free if b.id not in chosen]
        seated.append(replace(m, bot_accounts=tuple(chosen)) if chosen else m)
    return seated


__all__ = ["GATHER", "RATING_WIDENS", "RATING_WINDOW", "Match", "Waiting", "pair", "seat_bots", "window"]
