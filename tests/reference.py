"""An independent, deliberately plain re-implementation of docs/rules.md §1, used
as an oracle: it re-plays a game from its dealt hands and picks alone and
scores it without any of the engine's scoring code.

Written from the rules text, not from the engine; keep it that way (no
imports from sushigo except the action decoder and the Game it checks).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sushigo.engine.base.actions import decode

TEMPURA, SASHIMI, DUMPLING, MAKI1, MAKI2, MAKI3, EGG, SALMON, SQUID, WASABI, CHOPSTICKS, PUDDING = range(12)
DECK = Counter({TEMPURA: 14, SASHIMI: 14, DUMPLING: 14, MAKI1: 6, MAKI2: 12, MAKI3: 8,
                EGG: 5, SALMON: 10, SQUID: 5, WASABI: 6, CHOPSTICKS: 4, PUDDING: 10})
HAND_SIZE = {2: 10, 3: 9, 4: 8, 5: 7}
NIGIRI = {EGG: 1, SALMON: 2, SQUID: 3}
ICONS = {MAKI1: 1, MAKI2: 2, MAKI3: 3}


def collection_points(collection: list[int]) -> int:
    """Tempura, sashimi, dumplings, nigiri (wasabi in play order); no maki."""
    counts = Counter(collection)
    points = 5 * (counts[TEMPURA] // 2) + 10 * (counts[SASHIMI] // 3)
    points += [0, 1, 3, 6, 10, 15][min(counts[DUMPLING], 5)]
    empty_wasabi = 0
    for card in collection:
        if card == WASABI:
            empty_wasabi += 1
        elif card in NIGIRI:
            if empty_wasabi:
                empty_wasabi -= 1
                points += 3 * NIGIRI[card]
            else:
                points += NIGIRI[card]
    return points


def maki_points(icons: list[int]) -> list[int]:
    out = [0] * len(icons)
    players = [s for s in range(len(icons)) if icons[s] > 0]
    if not players:
        return out
    top = max(icons[s] for s in players)
    first = [s for s in players if icons[s] == top]
    if len(first) > 1:
        for s in first:
            out[s] = 6 // len(first)
        return out
    out[first[0]] = 6
    rest = [s for s in players if icons[s] < top]
    if rest:
        runner_up = max(icons[s] for s in rest)
        second = [s for s in rest if icons[s] == runner_up]
        for s in second:
            out[s] = 3 // len(second)
    return out


def pudding_points(puddings: list[int]) -> list[int]:
    out = [0] * len(puddings)
    if max(puddings) == min(puddings):
        return out
    most = [s for s in range(len(puddings)) if puddings[s] == max(puddings)]
    for s in most:
        out[s] += 6 // len(most)
    if len(puddings) > 2:
        fewest = [s for s in range(len(puddings)) if puddings[s] == min(puddings)]
        for s in fewest:
            out[s] -= 6 // len(fewest)
    return out


def check_game(game: Any) -> None:
    """Re-play ``game`` (a finished sushigo Game) from its history and assert
    every rule and every score."""
    n = game.players
    rules = game.rules
    history = game.history()
    assert len(history) == 3
    kept = [0] * n
    rounds = []
    dealt_so_far: Counter[int] = Counter()
    for number, (dealt, turns) in enumerate(history, start=1):
        assert all(len(hand) == HAND_SIZE[n] for hand in dealt)
        deal = Counter(card for hand in dealt for card in hand)
        if rules.reshuffle:
            available = DECK.copy()
            available[PUDDING] -= sum(kept)
            assert all(deal[c] <= available[c] for c in deal), "reshuffled deal too large"
        else:
            dealt_so_far += deal
            assert all(dealt_so_far[c] <= DECK[c] for c in dealt_so_far), "deal exceeds deck"
        hands = [list(hand) for hand in dealt]
        collections: list[list[int]] = [[] for _ in range(n)]
        step = -1 if rules.pass_both_ways and number == 2 else 1
        assert len(turns) == HAND_SIZE[n]
        for actions in turns:
            for seat, action in enumerate(actions):
                cards = [int(c) for c in decode(action)]
                hand = hands[seat]
                for card in cards:
                    assert card in hand, "picked a card not in hand"
                    hand.remove(card)
                if len(cards) == 2:
                    assert CHOPSTICKS in collections[seat], "chopsticks not in front of the seat"
                    collections[seat].remove(CHOPSTICKS)
                    hand.append(CHOPSTICKS)
                collections[seat].extend(cards)
            hands = [hands[(seat - step) % n] for seat in range(n)]
            assert len({len(hand) for hand in hands}) == 1
        assert all(not hand for hand in hands)
        base = [collection_points(c) for c in collections]
        maki = maki_points([sum(ICONS.get(card, 0) for card in c) for c in collections])
        rounds.append([a + b for a, b in zip(base, maki)])
        for seat in range(n):
            kept[seat] += collections[seat].count(PUDDING)
    pudding = pudding_points(kept)
    totals = [sum(r[s] for r in rounds) + pudding[s] for s in range(n)]
    best = max(totals)
    tied = [s for s in range(n) if totals[s] == best]
    most = max(kept[s] for s in tied)
    winners = [s for s in tied if kept[s] == most]
    result = game.result()
    assert [list(r) for r in result.rounds] == rounds
    assert list(result.pudding) == pudding
    assert list(result.totals) == totals
    assert list(result.winners) == winners
