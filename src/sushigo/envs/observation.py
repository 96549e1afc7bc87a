"""Observations as flat float32 arrays, built from a seat's view only.

Every seat-indexed block is *rotated* so that position 0 is the observing
seat, 1 the next seat to its left (the one it passes to in a left round), and
so on.  ``K`` is the number of card kinds: 12 in the original game (card ids
of :mod:`sushigo.cards`), 47 in Party (the 46 card ids of
:mod:`sushigo.party.cards` plus one for a face-down card).  ``N`` is the
number of players.

=================  ==========  ===============================================
block              size        contents
=================  ==========  ===============================================
hand               K           own hand, count per kind
collections        N x K       every seat's collection this round, count per kind
waiting wasabi     N           wasabi with no nigiri on it yet, per seat
puddings           N           puddings kept (Party: dessert cards kept)
scores             N           points from finished rounds (÷ 10)
round              3           one-hot
turn               1           turn ÷ hand size
hand sizes         N           cards in each seat's hand ÷ hand size
known hands        N x K       cards known to be in each seat's hand now: the
                               hands this seat has seen this round (position 0
                               repeats the own hand)
picked             N           1 where a seat has committed its hidden pick
decision (Party)   5           one-hot: none, chopsticks, spoon, menu, takeout box
=================  ==========  ===============================================

>>> from sushigo import Game
>>> from sushigo.view import seat_view
>>> obs = encode(seat_view(Game(4, seed=1), 0))
>>> obs.shape == (observation_size(4, "base"),), float(obs[:12].sum())
(True, 8.0)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from sushigo.cards import NUM_CARD_TYPES, Card
from sushigo.party.cards import FACE_DOWN, NUM_PARTY_IDS, PartyCard
from sushigo.party.view import PartySeatView
from sushigo.scoring import wasabi_pairs
from sushigo.view import SeatView

_WASABI: Final = int(Card.WASABI)
_P_WASABI: Final = int(PartyCard.WASABI)
_DECISIONS: Final = ("chopsticks", "spoon", "menu", "takeout_box")


def kinds(edition: str) -> int:
    """``K``: card kinds in an observation of this edition."""
    return NUM_CARD_TYPES if edition == "base" else NUM_PARTY_IDS + 1


def observation_size(players: int, edition: str = "base") -> int:
    """Length of the observation vector."""
    k, n = kinds(edition), players
    return k + n * k + n + n + n + 3 + 1 + n + n * k + n + (5 if edition == "party" else 0)


def encode(view: SeatView | PartySeatView) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The observation of ``view`` (a seat's view; spectators have no observation)."""
    if view.seat is None:
        raise ValueError("a spectator's view has no observation")
    party = isinstance(view, PartySeatView)
    edition = "party" if party else "base"
    n, k, me = view.players, kinds(edition), view.seat
    order = [(me + i) % n for i in range(n)]
    hand_size = max(1, view.rules.hand_size)
    out = np.zeros(observation_size(n, edition), dtype=np.float32)
    at = 0

    def counts(cards: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
        return np.bincount(np.fromiter((int(c) for c in cards), dtype=np.int64), minlength=k)[:k].astype(np.float32)

    out[at:at + k] = counts(view.hand or ())
    at += k
    if isinstance(view, PartySeatView):
        pcols = view.collections
        for s in order:
            out[at:at + k] = counts(FACE_DOWN if p.kind == FACE_DOWN else p.kind for p in pcols[s])
            at += k
        for s in order:
            out[at] = sum(p.kind == _P_WASABI for p in pcols[s]) - sum(p.on_wasabi for p in pcols[s])
            at += 1
        for s in order:
            out[at] = len(view.desserts[s])
            at += 1
    else:
        cols = view.collections
        for s in order:
            out[at:at + k] = counts(cols[s])
            at += k
        for s in order:
            out[at] = sum(c == _WASABI for c in cols[s]) - len(wasabi_pairs(cols[s]))
            at += 1
        for s in order:
            out[at] = view.puddings[s]
            at += 1
    rounds = view.result.rounds
    for s in order:
        out[at] = sum(r[s] for r in rounds) / 10.0
        at += 1
    out[at + min(view.round, 3) - 1] = 1.0
    at += 3
    out[at] = view.turn / hand_size
    at += 1
    for s in order:
        out[at] = view.hand_sizes[s] / hand_size
        at += 1
    for s in order:
        known = view.hand if s == me else view.known_cards[s]
        out[at:at + k] = counts(known or ())
        at += k
    for s in order:
        out[at] = float(view.picked[s])
        at += 1
    if isinstance(view, PartySeatView):
        d = view.decision
        out[at + (0 if d is None or d.seat != me else 1 + _DECISIONS.index(d.kind))] = 1.0
        at += 5
    assert at == out.size
    return out
