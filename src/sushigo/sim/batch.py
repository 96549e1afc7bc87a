"""A batch engine: B games of the original Sushi Go! in lockstep, on numpy arrays.

Needs numpy (the ``rl`` extra).  Every game of a batch has the same players
and rules, so all of them are at the same round and turn; one :meth:`BatchGame.step`
takes every seat's pick in every game (the engine's action ids, chopsticks
pairs included) and reveals them.  Hands and collections are count vectors
``[B, N, 12]`` (the order of a hand does not matter to play or score; the
order of a collection matters only for wasabi, which is tracked as it fills).
It gives exactly the engine's scores for the same deals and picks
(``tests/sim/test_batch.py`` checks 10,000 games).  The ``reshuffle`` house rule
is not supported.

>>> import numpy as np
>>> batch = BatchGame(4, 3, seed=1)
>>> rng = np.random.default_rng(0)
>>> while not batch.is_over:
...     batch.step(batch.random_actions(rng))
>>> batch.totals().shape, batch.winners().shape
((3, 4), (3, 4))
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from sushigo.engine.base.cards import DECK_COUNT_LIST, MAKI_ICONS, NIGIRI_POINTS, NUM_CARD_TYPES, Card
from sushigo.engine.base.scoring import MAKI_POINTS, PUDDING_POINTS
from sushigo.engine.observation import observation_size, padded_positions
from sushigo.engine.points import DUMPLING_POINTS, SASHIMI_SET_POINTS, TEMPURA_PAIR_POINTS, WASABI_FACTOR
from sushigo.engine.rules import NUM_ROUNDS, Rules

C: Final = NUM_CARD_TYPES
NUM_ACTIONS: Final = C + C * C
_TEMPURA, _SASHIMI, _DUMPLING = int(Card.TEMPURA), int(Card.SASHIMI), int(Card.DUMPLING)
_WASABI, _CHOP, _PUDDING = int(Card.WASABI), int(Card.CHOPSTICKS), int(Card.PUDDING)
_NIGIRI = np.array(NIGIRI_POINTS, dtype=np.int16)
_ICONS = np.array(MAKI_ICONS, dtype=np.int16)
_DUMPLINGS = np.array(DUMPLING_POINTS, dtype=np.int16)
_DECK = np.repeat(np.arange(C, dtype=np.int8), DECK_COUNT_LIST)

Array = np.ndarray[Any, Any]


class BatchGame:
    """``games`` games of ``rules`` (or a player count) played in lockstep.

    Args:
        rules: base-game rules or a player count (2-5); ``pass_both_ways`` is honoured.
        games: the batch size B.
        seed: seed of the numpy generator that shuffles the decks.
        deals: instead of shuffling, the deck order of every game (``[B, 108]``
            card ids): round r deals the next ``N * H`` cards, seat s getting
            cards ``s*H .. s*H+H-1`` of that slice.
    """

    def __init__(self, rules: Rules | int, games: int, *, seed: int | None = None,
                 deals: Array | None = None) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules(rules)
        if self.rules.is_party or self.rules.reshuffle:
            raise ValueError("the batch engine plays the original game without the reshuffle house rule")
        self.players = n = self.rules.players
        self.games = b = games
        self.hand_size = self.rules.hand_size
        if deals is None:
            rng = np.random.default_rng(seed)
            deals = rng.permuted(np.broadcast_to(_DECK, (b, _DECK.size)), axis=1)
        self.deck = np.ascontiguousarray(deals, dtype=np.int8)
        self.hands = np.zeros((b, n, C), dtype=np.int8)
        self.collections = np.zeros((b, n, C), dtype=np.int8)
        self.free_wasabi = np.zeros((b, n), dtype=np.int8)
        self.nigiri = np.zeros((b, n), dtype=np.int16)
        self.puddings = np.zeros((b, n), dtype=np.int16)
        self.round_scores = np.zeros((3, b, n), dtype=np.int16)
        self.public_chopsticks = np.zeros((b, n), dtype=np.int8)
        """Chopsticks put back into the hand each seat holds (public: they left a
        collection) and not taken out since, ``[B, N]``."""
        self.round = 1
        self.turn = 1
        self.is_over = False
        self._pos = 0
        self._bi = np.repeat(np.arange(b), n)
        self._si = np.tile(np.arange(n), b)
        self._deal()

    # ------------------------------------------------------------------ state

    def _deal(self) -> None:
        n, h = self.players, self.hand_size
        cards = self.deck[:, self._pos:self._pos + n * h].reshape(self.games, n, h)
        self._pos += n * h
        self.dealt = cards.copy()
        """The hands dealt this round, ``[B, N, H]`` card ids (for checks and records)."""
        self.hands[:] = (cards[:, :, :, None] == np.arange(C, dtype=np.int8)).sum(axis=2, dtype=np.int8)
        self.collections[:] = 0
        self.free_wasabi[:] = 0
        self.nigiri[:] = 0
        self.public_chopsticks[:] = 0

    def legal_mask(self) -> Array:
        """``bool[B, N, 156]``: the legal actions of every seat in every game."""
        held = self.hands > 0
        chop = self._chopsticks().reshape(self.games, self.players)
        pairs = held[:, :, :, None] & held[:, :, None, :]
        eye = np.eye(C, dtype=bool)
        pairs &= ~eye | (self.hands >= 2)[:, :, :, None]
        pairs &= chop[:, :, None, None]
        return np.concatenate([held, pairs.reshape(self.games, self.players, C * C)], axis=2)

    def _chopsticks(self) -> Array:
        """``bool[B*N]``: the seat may play two cards this turn."""
        return ((self.collections[:, :, _CHOP] > 0) & (self.hand_size - self.turn >= 1)).reshape(-1)

    def random_actions(self, rng: np.random.Generator) -> Array:
        """A uniformly random legal action for every seat (``int16[B, N]``).

        Uniform over the legal actions, as over :meth:`legal_mask`, but
        computed from the hand counts without building the 156-wide mask.
        """
        h = self.hands.reshape(-1, C).astype(np.int32)
        held = h > 0
        double = h >= 2
        d = held.sum(axis=1)
        chop = self._chopsticks()
        weight = np.where(chop[:, None], held * (d[:, None] - 1) + double, 0)  # pairs starting with a
        total = d + weight.sum(axis=1)
        k = (rng.random(d.size) * total).astype(np.int32)
        single = k < d
        # the k-th held card type
        first_single = (np.cumsum(held, axis=1) <= k[:, None]).sum(axis=1)
        # a pair: its first card by weight, then a uniform valid second card
        j = k - d
        cumw = np.cumsum(weight, axis=1)
        a = np.minimum((cumw <= j[:, None]).sum(axis=1), C - 1)
        rank = j - (cumw[np.arange(d.size), a] - weight[np.arange(d.size), a])
        valid = held.copy()
        rows = np.arange(d.size)
        valid[rows, a] = double[rows, a]
        b = np.minimum((np.cumsum(valid, axis=1) <= rank[:, None]).sum(axis=1), C - 1)
        actions = np.where(single, first_single, C + C * a + b)
        out: Array = actions.reshape(self.games, self.players).astype(np.int16)
        return out

    # ------------------------------------------------------------------ play

    def step(self, actions: Array) -> None:
        """Reveal one pick per seat per game (``[B, N]`` action ids) and pass the hands.

        Raises ``ValueError`` (naming the first game and seat) if any action is illegal.
        """
        if self.is_over:
            raise ValueError("the games are over")
        actions = np.asarray(actions)
        if actions.shape != (self.games, self.players):
            raise ValueError(f"expected actions of shape ({self.games}, {self.players}), got {actions.shape}")
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, not {actions.dtype}")
        actions = actions.astype(np.int64).reshape(-1)
        inside = (actions >= 0) & (actions < NUM_ACTIONS)
        pair = actions >= C
        first = np.where(pair, (actions - C) // C, actions) % C
        second = np.where(pair, (actions - C) % C, 0)
        h = self.hands.reshape(-1, C)
        rows = np.arange(actions.size)
        have_first = h[rows, first] > 0
        have_second = np.where(first == second, h[rows, first] >= 2, h[rows, second] > 0)
        legal = inside & have_first & (~pair | (self._chopsticks() & have_second))
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"illegal action {int(actions[bad])} in game {bad // self.players}, "
                             f"seat {bad % self.players}")
        second = np.where(pair, second, -1)
        self._place(first, np.ones(actions.size, dtype=bool))
        self._place(second, pair)
        public = self.public_chopsticks.reshape(-1)
        for taken in (first == _CHOP, second == _CHOP):  # a picked chopsticks may be a public one
            public -= (taken & (public > 0)).astype(np.int8)
        if pair.any():  # the chopsticks used go back into the hand that is passed on
            bi, si = self._bi[pair], self._si[pair]
            self.collections[bi, si, _CHOP] -= 1
            self.hands[bi, si, _CHOP] += 1
            public += pair.astype(np.int8)
        step = self.rules.pass_step(self.round)
        self.hands = np.roll(self.hands, step, axis=1)
        self.public_chopsticks = np.roll(self.public_chopsticks, step, axis=1)
        if self.turn == self.hand_size:
            self._end_round()
        else:
            self.turn += 1

    def _place(self, cards: Array, where: Array) -> None:
        bi, si, c = self._bi[where], self._si[where], cards[where]
        self.hands[bi, si, c] -= 1
        self.collections[bi, si, c] += 1
        wasabi = c == _WASABI
        self.free_wasabi[bi[wasabi], si[wasabi]] += 1
        pts = _NIGIRI[c]
        nigiri = pts > 0
        bn, sn, pn = bi[nigiri], si[nigiri], pts[nigiri]
        on = self.free_wasabi[bn, sn] > 0
        self.free_wasabi[bn[on], sn[on]] -= 1
        self.nigiri[bn, sn] += np.where(on, WASABI_FACTOR * pn, pn)

    def _end_round(self) -> None:
        col = self.collections.astype(np.int16)
        score = (col[:, :, _TEMPURA] // 2 * TEMPURA_PAIR_POINTS + col[:, :, _SASHIMI] // 3 * SASHIMI_SET_POINTS
                 + _DUMPLINGS[np.minimum(col[:, :, _DUMPLING], len(DUMPLING_POINTS) - 1)] + self.nigiri)
        score += maki_awards(col @ _ICONS)
        self.round_scores[self.round - 1] = score
        self.puddings += col[:, :, _PUDDING]
        if self.round == NUM_ROUNDS:
            self.is_over = True
            return
        self.round += 1
        self.turn = 1
        self._deal()

    def observations(self, *, padded: bool = False) -> Array:
        """``float32[B, N, D]``: every seat's observation, as
        :func:`sushigo.engine.observation.features` lays it out for the engine's view
        (``D = observation_size(N)``).  ``padded=True`` places it in the layout of
        a 5-player table (:func:`sushigo.engine.observation.padded_positions`, ``D = 161``),
        which one network can read at every table size.

        >>> batch = BatchGame(3, 2, seed=0)
        >>> batch.observations().shape, batch.observations(padded=True).shape
        ((2, 3, 103), (2, 3, 161))
        """
        b, n, h = self.games, self.players, self.hand_size
        rot = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n  # [observer, position] -> seat
        hands = self.hands.astype(np.float32)
        over = self.is_over
        step = self.rules.pass_step(self.round)
        seen = (step * np.arange(n)) % n <= self.turn - 1  # positions whose hand passed through the observer
        known = np.where(seen[None, None, :, None], hands[:, rot],
                         np.where(np.arange(C) == _CHOP, self.public_chopsticks[:, rot, None], 0))
        finished = self.round - 1 + int(over)
        scores = self.round_scores[:finished].sum(axis=0, dtype=np.float32) / 10.0
        puddings = self.puddings + (0 if over else self.collections[:, :, _PUDDING])
        rounds = np.zeros(3, dtype=np.float32)
        rounds[min(self.round, 3) - 1] = 1.0
        parts = [
            hands,
            self.collections[:, rot].reshape(b, n, n * C),
            self.free_wasabi[:, rot],
            puddings[:, rot],
            scores[:, rot],
            np.broadcast_to(rounds, (b, n, 3)),
            np.full((b, n, 1), (self.turn + int(over)) / h),
            hands.sum(axis=2)[:, rot] / h,
            known.reshape(b, n, n * C),
            np.zeros((b, n, n)),  # picks are made all at once: no hidden pick is committed yet
        ]
        obs = np.concatenate([np.asarray(p, dtype=np.float32) for p in parts], axis=2)
        if over:  # as the engine's view after the game: no hand or collection, all in the scores
            obs[:, :, :C + n * C + n] = 0.0
        if not padded:
            return obs
        out = np.zeros((b, n, observation_size(5)), dtype=np.float32)
        out[:, :, padded_positions(n)] = obs
        return out

    @property
    def nbytes(self) -> int:
        """Bytes held by the batch's arrays (decks, hands, collections, scores)."""
        arrays = (self.deck, self.hands, self.collections, self.free_wasabi, self.nigiri,
                  self.puddings, self.round_scores, self.dealt, self._bi, self._si,
                  self.public_chopsticks)
        return int(sum(a.nbytes for a in arrays))

    # ------------------------------------------------------------------ results

    def totals(self) -> Array:
        """``int16[B, N]``: round scores plus, once over, the pudding adjustment."""
        totals: Array = self.round_scores.sum(axis=0)
        if self.is_over:
            totals = totals + pudding_awards(self.puddings)
        return totals

    def winners(self) -> Array:
        """``bool[B, N]``: highest total, then most puddings; still tied means shared."""
        totals = self.totals()
        tied = totals == totals.max(axis=1, keepdims=True)
        most = np.where(tied, self.puddings, -1).max(axis=1, keepdims=True)
        won: Array = tied & (self.puddings == most)
        return won


def maki_awards(icons: Array) -> Array:
    """:func:`sushigo.engine.base.scoring.maki_awards` over ``[B, N]`` icon totals."""
    top = icons.max(axis=1, keepdims=True)
    first = (icons == top) & (top > 0)
    nfirst = first.sum(axis=1, keepdims=True)
    awards = np.where(first, MAKI_POINTS[0] // np.maximum(nfirst, 1), 0)
    rest = np.where(first | (icons <= 0), 0, icons)
    second_value = rest.max(axis=1, keepdims=True)
    second = (icons == second_value) & (second_value > 0) & (nfirst == 1)
    nsecond = second.sum(axis=1, keepdims=True)
    return (awards + np.where(second, MAKI_POINTS[1] // np.maximum(nsecond, 1), 0)).astype(np.int16)


def pudding_awards(puddings: Array) -> Array:
    """:func:`sushigo.engine.base.scoring.pudding_awards` over ``[B, N]`` pudding counts."""
    most = puddings.max(axis=1, keepdims=True)
    fewest = puddings.min(axis=1, keepdims=True)
    differ = most != fewest
    leaders = (puddings == most) & differ
    awards = np.where(leaders, PUDDING_POINTS // np.maximum(leaders.sum(axis=1, keepdims=True), 1), 0)
    if puddings.shape[1] > 2:
        trailers = (puddings == fewest) & differ
        awards = awards - np.where(trailers, PUDDING_POINTS // np.maximum(trailers.sum(axis=1, keepdims=True), 1), 0)
    return awards.astype(np.int16)


def run_batch_bench(players: int, games: int, seed: int | None = 0, batch_size: int = 10_000
                    ) -> tuple[int, float, int]:
    """Play ``games`` random legal games in batches; return (games, seconds, state bytes of one batch).

    Each batch shuffles its decks and plays every seat's uniformly random legal
    action (chopsticks pairs included) until the games end, then scores them.
    """
    import time

    rng = np.random.default_rng(seed)
    done, state_bytes = 0, 0
    start = time.perf_counter()
    while done < games:
        size = min(batch_size, games - done)
        batch = BatchGame(players, size, seed=int(rng.integers(1 << 62)))
        while not batch.is_over:
            batch.step(batch.random_actions(rng))
        batch.totals()
        batch.winners()
        state_bytes = max(state_bytes, batch.nbytes)
        done += size
    return done, time.perf_counter() - start, state_bytes
