"""A fast playout policy for Sushi Go Party!: every decision of a seat in microseconds.

The Party cousin of :mod:`sushigo.bots.policy`.  Search bots play thousands
of games to the end for each decision, so the policy that plays them cannot
afford the ``greedy`` bot's full estimate (a few hundred µs a decision).
:func:`party_heuristic_action` reads one seat's own hand, its collection,
its kept desserts and, for the races, the public collections of a game (a
determinized copy, never the real game), and values each card by what it
adds now, with unfinished sets counted at a rough chance of finishing them
in the picks left (:meth:`Seat.value`).  It never looks at another seat's
hand, hidden pick or the deck, so seats can be asked one at a time while
picks stay simultaneous.

Every decision has a rule:

* the pick: the card worth most (a special order: the best thing to copy);
* chopsticks: the best card of the hand, when it is worth at least
  :data:`USE_THRESHOLD`, else keep them;
* spoon: ask for the menu card worth most when it is worth at least
  :data:`SPOON_THRESHOLD` or the round is nearly over, else keep it;
* a Menu draw: the drawn card worth most;
* a takeout box: flip, one at a time, cards worth less than a face-down
  card's 2 points (a lone eel, an egg off wasabi, a third tofu, and near
  the round's end a lone tempura, a sashimi short of three, an empty wasabi
  or an unused chopsticks or spoon).

With probability ``epsilon`` a seat picks at random instead, which keeps
playouts varied.

>>> import random
>>> from sushigo.engine.rules import Rules
>>> from sushigo.engine.party.game import PartyGame
>>> from sushigo.engine.party.cards import PartyCard as C
>>> game = PartyGame(Rules.party(3, "Master Menu"), seed=0)
>>> game.hands[0] = [int(C.TOFU), int(C.SASHIMI), int(C.TEMAKI)]
>>> C(party_heuristic_action(game, 0, random.Random(1), epsilon=0.0)).name  # a temaki lead beats one tofu
'TEMAKI'
>>> party_heuristic_playout(game, random.Random(2))
>>> game.is_over
True
"""

from __future__ import annotations

import random
from typing import Final

from sushigo.engine.party.actions import COPY_BASE, COPY_FACE_DOWN, COPY_ON_WASABI, FLIP_BASE, MAX_FLIP, PASS
from sushigo.engine.party.cards import FACE_DOWN, FRUIT_ICONS, PartyCard
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.scoring import FRUIT_POINTS
from sushigo.engine.turns import Phase

C = PartyCard

USE_THRESHOLD: Final = 2.5
"""Chopsticks take a second card worth at least this; below it they wait for a better turn."""
SPOON_THRESHOLD: Final = 4.0
"""A spoon asks for a card worth at least this (any card once two picks or fewer remain)."""

_TEMPURA: Final = int(C.TEMPURA)
_SASHIMI: Final = int(C.SASHIMI)
_DUMPLING: Final = int(C.DUMPLING)
_MAKI1: Final = int(C.MAKI1)
_MAKI3: Final = int(C.MAKI3)
_EGG: Final = int(C.EGG)
_SALMON: Final = int(C.SALMON)
_SQUID: Final = int(C.SQUID)
_WASABI: Final = int(C.WASABI)
_PUDDING: Final = int(C.PUDDING)
_TEMAKI: Final = int(C.TEMAKI)
_URAMAKI3: Final = int(C.URAMAKI3)
_URAMAKI5: Final = int(C.URAMAKI5)
_EEL: Final = int(C.EEL)
_TOFU: Final = int(C.TOFU)
_ONIGIRI1: Final = int(C.ONIGIRI_CIRCLE)
_ONIGIRI4: Final = int(C.ONIGIRI_RECTANGLE)
_EDAMAME: Final = int(C.EDAMAME)
_MISO: Final = int(C.MISO_SOUP)
_CHOPSTICKS1: Final = int(C.CHOPSTICKS1)
_SPOON6: Final = int(C.SPOON6)
_MENU7: Final = int(C.MENU7)
_MENU9: Final = int(C.MENU9)
_TAKEOUT10: Final = int(C.TAKEOUT_BOX10)
_TAKEOUT12: Final = int(C.TAKEOUT_BOX12)
_SOY: Final = int(C.SOY_SAUCE)
_TEA: Final = int(C.TEA)
_SO: Final = int(C.SPECIAL_ORDER)
_ICE: Final = int(C.GREEN_TEA_ICE_CREAM)
_FRUIT1: Final = int(C.FRUIT_WATERMELON2)
_SIZE: Final = FACE_DOWN + 1
_DUMPLING_GAIN: Final = (1.0, 2.0, 3.0, 4.0, 5.0)
_NIGIRI_FACE: Final = {_EGG: 1.0, _SALMON: 2.0, _SQUID: 3.0}
_ON_WASABI: Final = (_EGG, _SALMON, _SQUID)
_FRUIT_TOP: Final = len(FRUIT_POINTS) - 1
_PICK: Final = Phase.PICK
_RESOLVE: Final = Phase.RESOLVE
_OVER: Final = Phase.OVER


class Seat:
    """What one seat's decision looks at: its collection's counts and its desserts.

    ``left`` is the picks left this round, the one being made included.
    """

    __slots__ = ("counts", "empty_wasabi", "game", "left", "seat", "size")

    def __init__(self, game: PartyGame, seat: int, left: int) -> None:
        self.game = game
        self.seat = seat
        self.left = left
        counts = [0] * _SIZE
        empty = 0
        col = game.collections[seat]
        for p in col:
            k = p.kind
            counts[k] += 1
            if k == _WASABI and not p.filled:
                empty += 1
        self.counts = counts
        self.empty_wasabi = empty
        self.size = len(col)

    def _pudding(self) -> float:
        game = self.game
        seat = self.seat
        mine = game.desserts[seat].count(_PUDDING) + self.counts[_PUDDING]
        others = max(
            (game.desserts[s].count(_PUDDING) + sum(1 for p in game.collections[s] if p.kind == _PUDDING)
             for s in range(game.players) if s != seat),
            default=0,
        )
        gap = mine - others
        return 3.0 if -1 <= gap <= 0 else 1.5

    def _fruit(self, card: int) -> float:
        icons = [0, 0, 0]
        for k in self.game.desserts[self.seat]:
            f = FRUIT_ICONS.get(k)
            if f is not None:
                icons[0] += f[0]
                icons[1] += f[1]
                icons[2] += f[2]
        for k in range(_FRUIT1, _FRUIT1 + 6):
            n = self.counts[k]
            if n:
                f = FRUIT_ICONS[k]
                icons[0] += n * f[0]
                icons[1] += n * f[1]
                icons[2] += n * f[2]
        gain = 0.0
        for i, add in enumerate(FRUIT_ICONS[card]):
            if add:
                before = icons[i]
                gain += FRUIT_POINTS[min(before + add, _FRUIT_TOP)] - FRUIT_POINTS[min(before, _FRUIT_TOP)]
        return gain

    def _edamame(self) -> float:
        game = self.game
        others = sum(
            1 for s in range(game.players)
            if s != self.seat and any(p.kind == _EDAMAME for p in game.collections[s])
        )
        return float(min(4, others)) + (0.5 if others < game.players - 1 else 0.0)

    def value(self, card: int) -> float:
        """What adding ``card`` to the collection now is worth (see the module doc)."""
        counts = self.counts
        left = self.left
        later = min(1.0, (left - 1) / 6.0) if left > 1 else 0.0
        if card in _NIGIRI_FACE:
            return _NIGIRI_FACE[card] * (3.0 if self.empty_wasabi else 1.0)
        if card == _TEMPURA:
            return 5.0 if counts[_TEMPURA] % 2 else 2.5 * later
        if card == _SASHIMI:
            r = counts[_SASHIMI] % 3
            return 10.0 if r == 2 else (4.0 * later if r == 1 else 2.5 * later * later)
        if card == _DUMPLING:
            k = counts[_DUMPLING]
            return _DUMPLING_GAIN[k] if k < 5 else 0.0
        if _MAKI1 <= card <= _MAKI3:
            return float(card - _MAKI1 + 1)
        if card == _WASABI:
            return 4.0 * later if left > 2 else 0.0
        if card == _TEMAKI:
            return 2.0
        if _URAMAKI3 <= card <= _URAMAKI5:
            return 0.9 * (card - _URAMAKI3 + 3)
        if card == _EEL:
            n = counts[_EEL]
            return 10.0 * later - 3.0 if n == 0 else (10.0 if n == 1 else 0.0)
        if card == _TOFU:
            n = counts[_TOFU]
            return 2.0 if n == 0 else (4.0 if n == 1 else (-6.0 if n == 2 else 0.0))
        if _ONIGIRI1 <= card <= _ONIGIRI4:
            if counts[card]:
                return 1.0
            shapes = (counts[_ONIGIRI1] > 0) + (counts[_ONIGIRI1 + 1] > 0) + (counts[_ONIGIRI1 + 2] > 0) \
                + (counts[_ONIGIRI4] > 0)
            return float(2 * shapes + 1)
        if card == _EDAMAME:
            return self._edamame()
        if card == _MISO:
            return 2.2
        if _CHOPSTICKS1 <= card <= _SPOON6:
            if left <= 3:
                return 0.0
            waiting = sum(counts[_CHOPSTICKS1:_SPOON6 + 1])
            return 3.0 * later * (0.3 if waiting else 1.0)
        if _MENU7 <= card <= _MENU9:
            return 4.0
        if _TAKEOUT10 <= card <= _TAKEOUT12:
            return 0.6 * self.size
        if card == _SOY:
            return 2.0
        if card == _TEA:
            return 1.0 + 0.3 * self.size
        if card == _PUDDING:
            return self._pudding()
        if card == _ICE:
            n = self.game.desserts[self.seat].count(_ICE) + counts[_ICE]
            return 12.0 if n % 4 == 3 else 2.5
        if card >= _FRUIT1 and card < _FRUIT1 + 6:
            return self._fruit(card)
        return 0.0  # a special order with nothing to copy

    def action_value(self, action: int) -> float:
        """The worth of a play action: a card, or a special order's copy."""
        if action < COPY_BASE:
            return self.value(action)
        if action == COPY_FACE_DOWN:
            return 2.0
        if action >= COPY_ON_WASABI:
            return 3.0 * _NIGIRI_FACE[_ON_WASABI[action - COPY_ON_WASABI]]
        kind = action - COPY_BASE
        if kind in _NIGIRI_FACE:
            return _NIGIRI_FACE[kind]  # a copy not placed on the wasabi
        return self.value(kind)

    def best(self, actions: list[int]) -> tuple[int, float]:
        """The play action worth most and its worth."""
        best = actions[0]
        top = -1e9
        for a in actions:
            v = self.action_value(a)
            if v > top:
                best, top = a, v
        return best, top

    def flip(self) -> int:
        """The takeout box's next flip (a position action), or ``PASS``."""
        game = self.game
        counts = self.counts
        turn = game.turn
        late = self.left <= 2
        for i, p in enumerate(game.collections[self.seat][:MAX_FLIP]):
            if p.turn >= turn:
                continue
            k = p.kind
            if (
                (k == _EGG and p.on < 0)
                or (k == _EEL and counts[_EEL] == 1)
                or (k == _TOFU and counts[_TOFU] >= 3)
                or (late and (
                    (k == _TEMPURA and counts[_TEMPURA] % 2)
                    or (k == _SASHIMI and counts[_SASHIMI] % 3)
                    or (k == _WASABI and not p.filled)
                    or _CHOPSTICKS1 <= k <= _SPOON6
                ))
            ):
                return FLIP_BASE + i
        return PASS


def party_heuristic_action(game: PartyGame, seat: int, rng: random.Random, epsilon: float = 0.15) -> int:
    """A quick, mostly greedy action for ``seat``, whose decision the game waits for (see the module doc)."""
    if game._phase is _PICK:
        hand = game.hands[seat]
        actions = game._play_actions(seat, hand)
        if len(actions) == 1:
            return actions[0]
        if rng.random() < epsilon:
            return actions[int(rng.random() * len(actions))]
        return Seat(game, seat, len(hand)).best(actions)[0]
    d = game._decision
    assert d is not None and d.seat == seat and game._phase is _RESOLVE
    actions = game.legal_actions(seat)
    if len(actions) == 1:
        return actions[0]
    if rng.random() < epsilon:
        return actions[int(rng.random() * len(actions))]
    kind = d.kind
    here = Seat(game, seat, len(game.hands[seat]) + 1)
    if kind == "takeout_box":
        return here.flip()
    if kind == "menu":
        return here.best(actions)[0]
    plays = [a for a in actions if a != PASS]
    action, worth = here.best(plays)
    if kind == "chopsticks":
        return action if worth >= USE_THRESHOLD else PASS
    return action if worth >= SPOON_THRESHOLD or here.left <= 3 else PASS


def party_heuristic_playout(game: PartyGame, rng: random.Random, epsilon: float = 0.15) -> None:
    """Play ``game`` (one that deals itself) to its end with :func:`party_heuristic_action` for every seat.

    Seats that committed a hidden pick this turn keep it.
    """
    players = range(game.players)
    while game._phase is not _OVER:
        if game._phase is _PICK:
            if game._npending:
                for s in game.pending_seats:
                    game.commit(s, party_heuristic_action(game, s, rng, epsilon))
                continue
            game._reveal([party_heuristic_action(game, s, rng, epsilon) for s in players])
        elif game._phase is _RESOLVE:
            d = game._decision
            assert d is not None
            game._decide(party_heuristic_action(game, d.seat, rng, epsilon))
        else:
            raise ValueError("party_heuristic_playout needs a game that deals itself")


__all__ = ["SPOON_THRESHOLD", "USE_THRESHOLD", "Seat", "party_heuristic_action", "party_heuristic_playout"]
