"""A seat's view as a flat list of numbers: the observation of the RL environments.

Standard library only, so the ``learned`` bot computes it anywhere;
:func:`sushigo.envs.observation.encode` is the same list as a float32 numpy
array, and :meth:`sushigo.sim.batch.BatchGame.observations` builds it for whole
batches.  It reads a seat's view only (:mod:`sushigo.engine.base.view`,
:mod:`sushigo.engine.party.view`), so it holds nothing the seat may not know.

Every seat-indexed block is *rotated* so that position 0 is the observing
seat, 1 the next seat to its left (the one it passes to in a left round), and
so on.  ``K`` is the number of card kinds: 12 in the original game (card ids
of :mod:`sushigo.engine.base.cards`), 47 in Party (the 46 card ids of
:mod:`sushigo.engine.party.cards` plus one for a face-down card).  ``N`` is the
number of players.

=================  ==========  ===============================================
block              size        contents
=================  ==========  ===============================================
hand               K           own hand, count per kind
collections        N x K       every seat's collection this round, count per kind
waiting wasabi     N           wasabi with no nigiri on it yet, per seat
puddings           N           puddings kept, this round's included (Party:
                               dessert cards kept)
scores             N           points from finished rounds (÷ 10)
round              3           one-hot
turn               1           turn ÷ hand size
hand sizes         N           cards in each seat's hand ÷ hand size
known hands        N x K       cards known to be in each seat's hand now: the
                               hands this seat has seen this round (position 0
                               repeats the own hand); of a hand not seen yet,
                               the chopsticks put back into it
picked             N           1 where a seat has committed its hidden pick
decision (Party)   5           one-hot: none, chopsticks, spoon, menu, takeout box
=================  ==========  ===============================================

:func:`padded_positions` places the layout of an ``N``-player table inside the
layout of the largest table, so one network can read every table size.

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> obs = features(seat_view(Game(4, seed=1), 0))
>>> len(obs) == observation_size(4, "base"), sum(obs[:12])
(True, 8.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from sushigo.engine.base.cards import NUM_CARD_TYPES, Card
from sushigo.engine.base.scoring import wasabi_pairs
from sushigo.engine.base.view import SeatView
from sushigo.engine.messages import told
from sushigo.engine.party.cards import FACE_DOWN, NUM_PARTY_IDS, PartyCard
from sushigo.engine.party.view import PartySeatView

_WASABI: Final = int(Card.WASABI)
_P_WASABI: Final = int(PartyCard.WASABI)
DECISIONS: Final = ("chopsticks", "spoon", "menu", "takeout_box")
"""The Party decisions of the one-hot ``decision`` block (after "none")."""

MAX_PLAYERS: Final = {"base": 5, "party": 8}
"""The largest table of each edition (the layout :func:`padded_positions` maps into)."""


def kinds(edition: str) -> int:
    """``K``: card kinds in an observation of this edition (``'base'`` or ``'party'``)."""
    if edition not in MAX_PLAYERS:
        raise told(ValueError, "edition must be 'base' or 'party', not {edition}", edition=repr(edition))
    return NUM_CARD_TYPES if edition == "base" else NUM_PARTY_IDS + 1


def _blocks(players: int, edition: str) -> list[tuple[int, int]]:
    """(seats, width) of each block in order; seats 0 marks a block that is not per seat."""
    k, n = kinds(edition), players
    blocks = [(0, k), (n, k), (n, 1), (n, 1), (n, 1), (0, 3), (0, 1), (n, 1), (n, k), (n, 1)]
    return blocks + ([(0, 5)] if edition == "party" else [])


BLOCK_NAMES: Final = ("hand", "collections", "waiting wasabi", "puddings", "scores", "round", "turn",
                      "hand sizes", "known hands", "picked", "decision")
"""The blocks of an observation, in order (the table above; ``decision`` in Party only)."""


def block_start(name: str, players: int, edition: str = "base") -> int:
    """Where block ``name`` (:data:`BLOCK_NAMES`) starts in an ``players``-seat observation.

    >>> block_start("hand", 4), block_start("round", 5)
    (0, 87)
    """
    blocks = _blocks(players, edition)
    index = BLOCK_NAMES.index(name)
    if index >= len(blocks):
        # TRANSLATORS: {edition}: base or party; {name}: a block of numbers of an observation ("decision")
        raise told(ValueError, "a {edition} observation has no {name} block", edition=edition, name=name)
    return sum(max(seats, 1) * width for seats, width in blocks[:index])


def observation_size(players: int, edition: str = "base") -> int:
    """Length of the observation of an ``players``-seat table.

    >>> observation_size(4), observation_size(4, "party"), observation_size(5)
    (132, 452, 161)
    """
    return sum(max(seats, 1) * width for seats, width in _blocks(players, edition))


def padded_positions(players: int, edition: str = "base") -> list[int]:
    """Where each entry of an ``players``-seat observation goes in the layout of
    the largest table (:data:`MAX_PLAYERS`); the seats a smaller table lacks stay 0.

    >>> pos = padded_positions(2)
    >>> len(pos), pos[:13], pos[12 + 24]
    (74, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 72)
    """
    big = MAX_PLAYERS[edition]
    if not 2 <= players <= big:
        # TRANSLATORS: {edition}: base or party; the layout of an observation's numbers
        raise told(ValueError, "the {edition} layout has 2 to {most} seats, not {players}", edition=edition, most=big,
                   players=players)
    out: list[int] = []
    at = 0
    for (seats, width), (big_seats, _) in zip(_blocks(players, edition), _blocks(big, edition)):
        if seats == 0:
            out.extend(range(at, at + width))
            at += width
            continue
        out.extend(range(at, at + seats * width))
        at += big_seats * width
    return out


def _counts(cards: Iterable[int], k: int) -> list[float]:
    out = [0.0] * k
    for c in cards:
        out[c] += 1.0
    return out


def features(view: SeatView | PartySeatView) -> list[float]:
    """The observation of ``view`` (a seat's view; spectators have no observation)."""
    if view.seat is None:
        raise told(ValueError, "a spectator's view has no observation")
    party = isinstance(view, PartySeatView)
    n, k, me = view.players, kinds("party" if party else "base"), view.seat
    order = [(me + i) % n for i in range(n)]
    hand_size = max(1, view.rules.hand_size)
    out = _counts((int(c) for c in view.hand or ()), k)
    if isinstance(view, PartySeatView):
        pcols = view.collections
        for s in order:
            out += _counts((FACE_DOWN if p.kind == FACE_DOWN else int(p.kind) for p in pcols[s]), k)
        out += [float(sum(p.kind == _P_WASABI for p in pcols[s]) - sum(p.on_wasabi for p in pcols[s]))
                for s in order]
        out += [float(len(view.desserts[s])) for s in order]
    else:
        cols = view.collections
        for s in order:
            out += _counts((int(c) for c in cols[s]), k)
        out += [float(cols[s].count(Card.WASABI) - len(wasabi_pairs(cols[s]))) for s in order]
        out += [float(view.puddings[s]) for s in order]
    rounds = view.result.rounds
    out += [sum(r[s] for r in rounds) / 10.0 for s in order]
    one_hot = [0.0, 0.0, 0.0]
    one_hot[min(view.round, 3) - 1] = 1.0
    out += one_hot
    out.append(view.turn / hand_size)
    out += [view.hand_sizes[s] / hand_size for s in order]
    for s in order:
        known = view.hand if s == me else view.known_cards[s]
        out += _counts((int(c) for c in known or ()), k)
    out += [float(view.picked[s]) for s in order]
    if isinstance(view, PartySeatView):
        d = view.decision
        decision = [0.0] * 5
        decision[0 if d is None or d.seat != me else 1 + DECISIONS.index(d.kind)] = 1.0
        out += decision
    return out
