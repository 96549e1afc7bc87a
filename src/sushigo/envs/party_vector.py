"""Many Sushi Go Party! games stepped in lockstep, for training the Party ``learned`` policy.

There is no numpy batch engine for Party: :class:`PartyBatch` steps ordinary
:class:`~sushigo.engine.party.game.PartyGame` objects together, so that a
caller can evaluate one network on every waiting seat of every game at once.
:func:`party_inputs` builds those seats' network inputs straight from a game,
several seats at a time, about five times faster than a
:func:`~sushigo.engine.party.view.party_seat_view` per seat; it is the same
list as :func:`sushigo.bots.learned.party_network_input` of the seat's view
(tests check it on thousands of positions), so it holds nothing the seat may
not know.

>>> import random
>>> from sushigo.engine.rules import Rules
>>> from sushigo.engine.party.game import PartyGame
>>> batch = PartyBatch([PartyGame(Rules.party(3, menu="Sushi Go!"), seed=s) for s in range(2)])
>>> rng = random.Random(0)
>>> while not batch.is_over:
...     waiting = batch.waiting()
...     batch.act(waiting, [rng.choice(legal) for legal in batch.legal_actions(waiting)])
>>> [len(g.result().totals) for g in batch.games]
[3, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from sushigo.bots.learned import (
    PARTY_INPUT_SIZE,
    PARTY_MENU_AT,
    PARTY_SIZE_AT,
    PARTY_URAMAKI_AT,
    menu_cards,
)
from sushigo.engine.observation import DECISIONS, MAX_PLAYERS, block_start
from sushigo.engine.party.actions import PASS, played_card
from sushigo.engine.party.cards import CHOPSTICKS_IDS, FACE_DOWN, PartyCard
from sushigo.engine.party.game import PartyGame, on_face_up_wasabi
from sushigo.engine.turns import Phase

_BIG: Final = MAX_PLAYERS["party"]
_K: Final = FACE_DOWN + 1
_WASABI: Final = int(PartyCard.WASABI)


def _at(name: str) -> int:
    return block_start(name, _BIG, "party")


_COLLECTIONS, _WAITING, _DESSERTS, _SCORES = _at("collections"), _at("waiting wasabi"), _at("puddings"), _at("scores")
_ROUND, _TURN, _HAND_SIZES, _KNOWN, _DECISION = (_at("round"), _at("turn"), _at("hand sizes"),
                                                _at("known hands"), _at("decision"))


def _unheld_known(game: PartyGame) -> tuple[int, list[list[int]]]:
    """``(r, extra)``: hands have moved ``r`` seats this round, and ``extra[s]`` are
    the cards known to be in seat ``s``'s hand to a seat that never held it (the
    chopsticks and spoons put back into it, less the cards taken since), the
    replay of :func:`~sushigo.engine.party.view.known_hand_cards` done once for every viewer."""
    n = game.players
    _, turns = game._history[-1]
    in_progress = game._phase is Phase.RESOLVE or game._phase is Phase.DRAW
    rotations = len(turns) - (1 if in_progress else 0)
    extra: list[list[int]] = [[] for _ in range(n)]
    if not game._waiting_specials:
        return rotations, extra
    for i, moves in enumerate(turns):
        for m in moves:
            if m.action == PASS or (m.via != -1 and m.special < 0):
                continue
            if m.via == -1 or m.via in CHOPSTICKS_IDS:
                holder, back = m.seat, m.special
            elif m.giver >= 0:
                holder, back = m.giver, m.special
            else:
                continue
            card = played_card(m.action)
            if card in extra[holder]:
                extra[holder].remove(card)
            if back >= 0:
                extra[holder].append(back)
        if i == len(turns) - 1 and in_progress:
            break
        extra = extra[-1:] + extra[:-1]
    return rotations, extra


def party_inputs(game: PartyGame, seats: Sequence[int]) -> list[list[float]]:
    """:func:`~sushigo.bots.learned.party_network_input` of each of ``seats``' views of ``game``."""
    n = game.players
    rules = game.rules
    hand_size = max(1, rules.hand_size)
    counts = []
    waiting = []
    for col in game.collections:
        c = [0.0] * _K
        for p in col:
            c[p.kind] += 1.0
        counts.append(c)
        waiting.append(float(sum(p.kind == _WASABI for p in col) - sum(on_face_up_wasabi(col))))
    desserts = [float(len(d)) for d in game.desserts]
    scores = [sum(sum(rnd[s].values()) for rnd in game._breakdowns) / 10.0 for s in range(n)]
    sizes = [len(h) / hand_size for h in game.hands]
    hands = []
    for h in game.hands:
        c = [0.0] * _K
        for card in h:
            c[card] += 1.0
        hands.append(c)
    live = bool(game._history) and game._phase is not Phase.DEAL and game._phase is not Phase.OVER
    rotations, extra = _unheld_known(game) if live else (0, [[] for _ in range(n)])
    extras = []
    for cards in extra:
        c = [0.0] * _K
        for card in cards:
            c[card] += 1.0
        extras.append(c)
    menu = menu_cards(rules.menu, rules.uramaki_split)
    d = game._decision if game._phase is Phase.RESOLVE else None
    round_at = _ROUND + min(game.round, 3) - 1
    turn = game.turn / hand_size
    out = []
    for me in seats:
        x = [0.0] * PARTY_INPUT_SIZE
        x[:_K] = hands[me]
        for i in range(n):
            s = (me + i) % n
            at = _COLLECTIONS + i * _K
            x[at:at + _K] = counts[s]
            x[_WAITING + i] = waiting[s]
            x[_DESSERTS + i] = desserts[s]
            x[_SCORES + i] = scores[s]
            x[_HAND_SIZES + i] = sizes[s]
            if i and live:
                at = _KNOWN + i * _K
                x[at:at + _K] = hands[s] if (s - me) % n <= rotations else extras[s]
        if live:
            x[_KNOWN:_KNOWN + _K] = hands[me]
        x[round_at] = 1.0
        x[_TURN] = turn
        x[_DECISION + (0 if d is None or d.seat != me else 1 + DECISIONS.index(d.kind))] = 1.0
        x[PARTY_SIZE_AT + n - 2] = 1.0
        for card in menu:
            x[PARTY_MENU_AT + card] = 1.0
        x[PARTY_URAMAKI_AT] = game.uramaki_claimed / 3.0
        out.append(x)
    return out


class PartyBatch:
    """Party games stepped together: ask :meth:`waiting` which seats must act,
    then :meth:`act` with one action for each (see the module docstring).

    Every game must deal itself (``auto_deal``, the default).
    """

    def __init__(self, games: Sequence[PartyGame]) -> None:
        self.games = list(games)

    @property
    def is_over(self) -> bool:
        """Whether every game has ended."""
        return all(g.is_over for g in self.games)

    def waiting(self) -> list[tuple[int, int]]:
        """``(game index, seat)`` of every seat a game waits for now: every seat
        that has not picked in the pick, the deciding seat while specials resolve."""
        out: list[tuple[int, int]] = []
        for i, g in enumerate(self.games):
            if g._phase is Phase.PICK:
                out.extend((i, s) for s in g.pending_seats)
            elif g._phase is Phase.RESOLVE:
                d = g._decision
                assert d is not None
                out.append((i, d.seat))
            elif g._phase is not Phase.OVER:
                raise ValueError("PartyBatch needs games that deal themselves")
        return out

    def inputs(self, waiting: Sequence[tuple[int, int]]) -> list[list[float]]:
        """The network input of each waiting seat (:func:`party_inputs`)."""
        by_game: dict[int, list[int]] = {}
        for i, s in waiting:
            by_game.setdefault(i, []).append(s)
        rows = {}
        for i, seats in by_game.items():
            for s, x in zip(seats, party_inputs(self.games[i], seats)):
                rows[i, s] = x
        return [rows[key] for key in waiting]

    def legal_actions(self, waiting: Sequence[tuple[int, int]]) -> list[list[int]]:
        """The legal actions of each waiting seat."""
        return [self.games[i].legal_actions(s) for i, s in waiting]

    def act(self, waiting: Sequence[tuple[int, int]], actions: Sequence[int]) -> None:
        """Play one action for each seat of ``waiting`` (as :meth:`waiting` returned it)."""
        for (i, s), a in zip(waiting, actions):
            self.games[i].commit(s, a)


__all__ = ["PartyBatch", "party_inputs"]
