"""Random full games of the original Sushi Go! compiled with numba: the fast path of
``sushigo bench --engine batch`` (used when numba is installed).

One compiled function plays G games from start to end, in chunks of
:data:`CHUNK` games with a seeded xorshift64* generator each, on all cores (``numba.prange``): shuffle, deal, every
seat's uniformly random legal pick (chopsticks pairs included, drawn as
:meth:`sushigo.sim.batch.BatchGame.random_actions` draws them), reveal, pass,
score, puddings, winners.  A hand is its card counts and two bitmasks, the
types it holds (:data:`HELD`) and the types it holds twice or more (:data:`PAIRS`):
a pick is then a table lookup (:data:`sushigo.engine.base.game.TYPE_SETS`, the
engine's own table of legal picks) instead of a scan, and the hand's counts,
masks and all pass on together.  With ``record=True`` it also returns every deal and
every pick, which ``tests/sim/test_batch.py`` replays through the engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sushigo.engine.base.cards import DECK_COUNT_LIST, DECK_SIZE, MAKI_ICONS, NIGIRI_POINTS, NUM_CARD_TYPES, Card
from sushigo.engine.base.game import TYPE_SETS
from sushigo.engine.base.scoring import MAKI_POINTS, PUDDING_POINTS
from sushigo.engine.points import DUMPLING_POINTS, SASHIMI_SET_POINTS, TEMPURA_PAIR_POINTS, WASABI_FACTOR
from sushigo.engine.rules import HAND_SIZES, NUM_ROUNDS

# The engine's numbers, as plain ints the compiler folds into the code.
C = NUM_CARD_TYPES
_LAST = DECK_SIZE - 1
_TEMPURA = int(Card.TEMPURA)
_SASHIMI = int(Card.SASHIMI)
_DUMPLING = int(Card.DUMPLING)
_WASABI = int(Card.WASABI)
_CHOPSTICKS = int(Card.CHOPSTICKS)
_PUDDING = int(Card.PUDDING)
_MAX_DUMPLINGS = len(DUMPLING_POINTS) - 1
_MAKI_FIRST, _MAKI_SECOND = MAKI_POINTS
_DECK_COUNTS = np.array(DECK_COUNT_LIST, dtype=np.int64)
_DUMPLINGS = np.array(DUMPLING_POINTS, dtype=np.int64)
_NIGIRI = np.array(NIGIRI_POINTS, dtype=np.int64)
_ICONS = np.array(MAKI_ICONS, dtype=np.int64)
HELD = C
"""Column of a hand row: the bitmask of the card types it holds (bit ``c``: card id ``c``)."""
PAIRS = C + 1
"""Column of a hand row: the bitmask of the card types it holds at least twice."""
_COUNT = np.array([len(ids) for ids in TYPE_SETS], dtype=np.int64)
_NTH = np.array([list(ids) + [0] * (C - len(ids)) for ids in TYPE_SETS], dtype=np.int64)
_kernel: Any = None
CHUNK = 256
"""Games per generator (each chunk of games has its own, so results do not depend on the thread count)."""


def _compile() -> Any:
    import numba

    @numba.njit(cache=True, inline="always")
    def below(st: Any, bound: int) -> Any:  # pragma: no cover - compiled
        """A uniform integer in [0, bound) from a xorshift64* generator (state ``st[0]``)."""
        x = st[0]
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        st[0] = x
        r = (x * np.uint64(2685821657736338717)) >> np.uint64(32)
        return np.int64((r * np.uint64(bound)) >> np.uint64(32))

    @numba.njit(cache=True)
    def one_game(g: int, n: int, hand: int, both_ways: bool, counts: Any, record: bool,
                 deals: Any, picks: Any, totals: Any, winners: Any, dumplings: Any, nigiri_points: Any,
                 icons_of: Any, kinds: Any, nth: Any, deck: Any, hands: Any, passed: Any, cols: Any,
                 free: Any, nig: Any, pudd: Any, score: Any, acts: Any, icons: Any,
                 st: Any) -> None:  # pragma: no cover - compiled
        if True:
            k = 0
            for c in range(C):
                for _ in range(counts[c]):
                    deck[k] = c
                    k += 1
            for i in range(_LAST, 0, -1):
                j = below(st, i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            pudd[:] = 0
            score[:] = 0
            pos = 0
            for r in range(NUM_ROUNDS):
                hands[:, :] = 0
                cols[:, :] = 0
                free[:] = 0
                nig[:] = 0
                for s in range(n):
                    for i in range(hand):
                        c = deck[pos]
                        pos += 1
                        hands[s, c] += 1
                        if record:
                            deals[g, r, s, i] = c
                for s in range(n):
                    held = 0
                    pairs = 0
                    for c in range(C):
                        held |= (1 << c) * (hands[s, c] > 0)
                        pairs |= (1 << c) * (hands[s, c] > 1)
                    hands[s, HELD] = held
                    hands[s, PAIRS] = pairs
                step = -1 if (both_ways and r == 1) else 1
                for t in range(hand):
                    for s in range(n):
                        held = hands[s, HELD]
                        pairs = hands[s, PAIRS]
                        d = kinds[held]
                        chop = cols[s, _CHOPSTICKS] > 0 and hand - t >= 2
                        total = d + (d * (d - 1) + kinds[pairs] if chop else 0)
                        x = below(st, total)
                        if x < d:
                            acts[s] = nth[held, x]
                        else:
                            # the pairs (a, b) in order of a, then b; a held once pairs with d - 1 others
                            x -= d
                            a = 0
                            for i in range(d):
                                a = nth[held, i]
                                w = d - 1 + ((pairs >> a) & 1)
                                if x < w:
                                    break
                                x -= w
                            others = held & ~((1 << a) * (1 - ((pairs >> a) & 1)))
                            acts[s] = C + C * a + nth[others, x]
                        if record:
                            picks[g, r, t, s] = acts[s]
                    for s in range(n):
                        act = acts[s]
                        two = act >= C
                        first = (act - C) // C if two else act
                        for m in range(2 if two else 1):
                            c = first if m == 0 else (act - C) % C
                            left = hands[s, c] - 1
                            hands[s, c] = left
                            hands[s, HELD] &= ~((1 << c) * (left == 0))
                            hands[s, PAIRS] &= ~((1 << c) * (left == 1))
                            cols[s, c] += 1
                            # without branches: a wasabi frees a place, a nigiri takes one if any is free
                            v = nigiri_points[c]
                            on = (v > 0) & (free[s] > 0)
                            free[s] += (c == _WASABI) - on
                            nig[s] += v * (1 + (WASABI_FACTOR - 1) * on)
                        if two:
                            cols[s, _CHOPSTICKS] -= 1
                            back = hands[s, _CHOPSTICKS] + 1
                            hands[s, _CHOPSTICKS] = back
                            hands[s, HELD] |= 1 << _CHOPSTICKS
                            hands[s, PAIRS] |= (1 << _CHOPSTICKS) * (back >= 2)
                    for s in range(n):
                        to = (s + step) % n
                        for c in range(C + 2):
                            passed[to, c] = hands[s, c]
                    hands, passed = passed, hands
                top = 0
                for s in range(n):
                    icons[s] = 0
                    for c in range(C):
                        icons[s] += icons_of[c] * cols[s, c]
                    top = max(top, icons[s])
                    score[s] += (cols[s, _TEMPURA] // 2 * TEMPURA_PAIR_POINTS
                                 + cols[s, _SASHIMI] // 3 * SASHIMI_SET_POINTS
                                 + dumplings[min(cols[s, _DUMPLING], _MAX_DUMPLINGS)] + nig[s])
                    pudd[s] += cols[s, _PUDDING]
                if top > 0:
                    nfirst = 0
                    for s in range(n):
                        if icons[s] == top:
                            nfirst += 1
                    for s in range(n):
                        if icons[s] == top:
                            score[s] += _MAKI_FIRST // nfirst
                    if nfirst == 1:
                        second = 0
                        for s in range(n):
                            if icons[s] < top:
                                second = max(second, icons[s])
                        if second > 0:
                            nsec = 0
                            for s in range(n):
                                if icons[s] == second:
                                    nsec += 1
                            for s in range(n):
                                if icons[s] == second:
                                    score[s] += _MAKI_SECOND // nsec
            most = pudd.max()
            fewest = pudd.min()
            if most != fewest:
                nm = 0
                nf = 0
                for s in range(n):
                    if pudd[s] == most:
                        nm += 1
                    if pudd[s] == fewest:
                        nf += 1
                for s in range(n):
                    if pudd[s] == most:
                        score[s] += PUDDING_POINTS // nm
                    if n > 2 and pudd[s] == fewest:
                        score[s] -= PUDDING_POINTS // nf
            best = score.max()
            mostp = -1
            for s in range(n):
                if score[s] == best:
                    mostp = max(mostp, pudd[s])
            for s in range(n):
                totals[g, s] = score[s]
                winners[g, s] = score[s] == best and pudd[s] == mostp

    @numba.njit(cache=True, parallel=True)
    def play(n: int, games: int, seed: int, hand: int, both_ways: bool, counts: Any, record: bool,
             deals: Any, picks: Any, totals: Any, winners: Any, dumplings: Any, nigiri_points: Any,
             icons_of: Any, kinds: Any, nth: Any) -> None:  # pragma: no cover - compiled
        chunks = (games + CHUNK - 1) // CHUNK
        for ch in numba.prange(chunks):
            # one generator per chunk (splitmix64 of seed and chunk): the same games on any core count
            z = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(ch + 1) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            st = np.empty(1, np.uint64)
            st[0] = (z ^ (z >> np.uint64(31))) | np.uint64(1)
            deck = np.empty(_LAST + 1, np.int32)
            hands = np.zeros((n, C + 2), np.int32)
            passed = np.zeros((n, C + 2), np.int32)
            cols = np.zeros((n, C), np.int32)
            free = np.zeros(n, np.int32)
            nig = np.zeros(n, np.int32)
            pudd = np.zeros(n, np.int32)
            score = np.zeros(n, np.int32)
            acts = np.zeros(n, np.int32)
            icons = np.zeros(n, np.int32)
            for g in range(ch * CHUNK, min(games, (ch + 1) * CHUNK)):
                one_game(g, n, hand, both_ways, counts, record, deals, picks, totals, winners, dumplings,
                         nigiri_points, icons_of, kinds, nth, deck, hands, passed, cols, free, nig, pudd, score,
                         acts, icons, st)

    return play


def random_games(players: int, games: int, seed: int = 0, *, pass_both_ways: bool = False,
                 record: bool = False) -> dict[str, Any]:
    """Play ``games`` random games; returns ``totals`` ``[G, N]`` and ``winners``
    (and with ``record``, ``deals`` ``[G, 3, N, H]`` and ``picks`` ``[G, 3, H, N]``)."""
    global _kernel
    if _kernel is None:
        _kernel = _compile()
    hand = HAND_SIZES[players]
    deals = np.zeros((games if record else 1, NUM_ROUNDS, players, hand), np.int64)
    picks = np.zeros((games if record else 1, NUM_ROUNDS, hand, players), np.int64)
    totals = np.zeros((games, players), np.int64)
    winners = np.zeros((games, players), np.bool_)
    _kernel(players, games, seed, hand, pass_both_ways, _DECK_COUNTS, record, deals, picks, totals, winners,
            _DUMPLINGS, _NIGIRI, _ICONS, _COUNT, _NTH)
    out: dict[str, Any] = {"totals": totals, "winners": winners}
    if record:
        out.update(deals=deals, picks=picks)
    return out
