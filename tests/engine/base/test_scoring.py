"""Scoring (docs/rules.md §1.5-§1.9 and the guides' worked examples).

Every expected value here is typed in from the rule tables or worked by hand;
none is computed by the engine's own code.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sushigo.engine.base.cards import Card as C
from sushigo.engine.base.scoring import (
    Result,
    dumpling_points,
    maki_awards,
    maki_icons,
    nigiri_points,
    pudding_awards,
    score_collection,
    score_round,
    wasabi_pairs,
    winners,
)
from sushigo.engine.points import DUMPLING_POINTS

T, SA, D = C.TEMPURA, C.SASHIMI, C.DUMPLING
M1, M2, M3 = C.MAKI1, C.MAKI2, C.MAKI3
E, SL, SQ = C.EGG, C.SALMON, C.SQUID
W, CH, P = C.WASABI, C.CHOPSTICKS, C.PUDDING


def total(cards) -> int:
    return sum(score_collection(cards).values())


# ------------------------------------------------------------------ tempura

@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 0), (2, 5), (3, 5), (4, 10), (5, 10), (6, 15),
                                           (7, 15), (8, 20), (14, 35)])
def test_tempura(n, points):
    line = score_collection([T] * n)
    assert line["tempura"] == points
    assert total([T] * n) == points


# ------------------------------------------------------------------ sashimi

@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 0), (2, 0), (3, 10), (4, 10), (5, 10),
                                           (6, 20), (7, 20), (8, 20), (9, 30)])
def test_sashimi(n, points):
    assert score_collection([SA] * n)["sashimi"] == points
    assert total([SA] * n) == points


# ----------------------------------------------------------------- dumpling

DUMPLINGS = [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 15), (7, 15), (10, 15), (14, 15)]


@pytest.mark.parametrize(("n", "points"), DUMPLINGS)
def test_dumplings_lookup_not_sum(n, points):
    # 7 dumplings score 15 (a lookup), not 1+3+6+10+15+15+15 or any running sum
    assert dumpling_points(n) == points
    assert score_collection([D] * n)["dumpling"] == points
    assert total([D] * n) == points


def test_dumpling_table_constant():
    assert tuple(DUMPLING_POINTS) == (0, 1, 3, 6, 10, 15)


# ------------------------------------------------------------------- nigiri

@pytest.mark.parametrize(("card", "plain", "tripled"), [(E, 1, 3), (SL, 2, 6), (SQ, 3, 9)])
def test_nigiri_alone_and_on_wasabi(card, plain, tripled):
    assert score_collection([card])["nigiri"] == plain
    assert score_collection([W, card])["nigiri"] == tripled
    assert total([W, card]) == tripled


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ([W], 0),                       # wasabi alone scores 0
        ([W, W, W], 0),
        ([SQ, W], 3),                   # nigiri before wasabi is never tripled
        ([E, W, SQ], 1 + 9),            # the later squid takes the wasabi
        ([W, E, SQ], 3 + 3),            # mandatory: the egg takes it; no saving for squid
        ([W, SQ, E], 9 + 1),
        ([W, E, W, SQ], 3 + 9),         # two wasabi, two nigiri
        ([W, W, E, SQ], 3 + 9),         # both wasabi already down
        ([W, W, SL, SL, SL], 6 + 6 + 2),
        ([W, SL, SL, W], 6 + 2),        # trailing wasabi stays empty
        ([SL, SL, SL], 6),
        ([E, E, E, E, E], 5),
        ([W, SQ, W, SQ, W, SQ], 27),
        ([CH, W, CH, SQ], 9),           # chopsticks in between change nothing
        ([W, T, D, SA, M3, P, E], 3),   # non-nigiri cards do not fill a wasabi
    ],
)
def test_nigiri_play_order(cards, points):
    assert nigiri_points(cards) == points
    assert score_collection(cards)["nigiri"] == points


def test_wasabi_pairs_oldest_first():
    # docs/rules.md §1.5, a decision: the oldest empty wasabi fills first
    assert wasabi_pairs([W, W, E, SQ, SL]) == {2: 0, 3: 1}
    assert wasabi_pairs([E, W, SQ]) == {2: 1}
    assert wasabi_pairs([W, E, W, SQ]) == {1: 0, 3: 2}
    assert wasabi_pairs([SQ, SL, E]) == {}
    assert wasabi_pairs([W, W, W, SQ]) == {3: 0}


def test_wasabi_chopsticks_pair_order():
    # Ruling §1.6: the two cards of a chopsticks pick are placed in the chosen order
    assert nigiri_points([W, E]) == 3        # "wasabi+egg": egg goes on that wasabi
    assert nigiri_points([E, W]) == 1        # "egg+wasabi": egg first, not tripled
    assert nigiri_points([W, SQ, SL]) == 9 + 2   # two nigiri, one wasabi: the first in order
    assert nigiri_points([W, SL, SQ]) == 6 + 3


# --------------------------------------------------------- zero-point cards

def test_zero_point_cards():
    for cards in ([CH], [CH, CH, CH], [W], [P], [P, P, P], [CH, W, P]):
        assert total(cards) == 0
    assert total([]) == 0
    assert score_collection([]) == {"tempura": 0, "sashimi": 0, "dumpling": 0, "nigiri": 0, "maki": 0}


def test_maki_not_scored_by_score_collection():
    # the maki award depends on the whole table; score_collection reports 0
    assert score_collection([M3, M3, M2])["maki"] == 0
    assert maki_icons([M3, M3, M2, M1, T, E]) == 9
    assert maki_icons([]) == 0


def test_breakdown_keys():
    assert list(score_collection([T])) == ["tempura", "sashimi", "dumpling", "nigiri", "maki"]


# --------------------------------------------------------------- guide 001

def test_guide_001_example_collection_scores_21():
    # Guide 001: "two tempura, three sashimi, two dumplings and one squid nigiri
    # scores 21 before any maki award": 5 + 10 + 3 + 3.
    cards = [T, SA, D, T, SA, SQ, D, SA]
    line = score_collection(cards)
    assert line == {"tempura": 5, "sashimi": 10, "dumpling": 3, "nigiri": 3, "maki": 0}
    assert sum(line.values()) == 21


def test_guide_001_sets():
    # Guide 001: three tempura score 5, four score 10; one or two sashimi 0,
    # four or five 10, six 20; 1/3/6/10/15 dumplings; egg 1, salmon 2, squid 3,
    # on wasabi 3/6/9; unfilled wasabi and unused chopsticks zero.
    assert total([T, T, T]) == 5 and total([T] * 4) == 10
    assert total([SA]) == 0 and total([SA, SA]) == 0
    assert total([SA] * 4) == 10 and total([SA] * 5) == 10 and total([SA] * 6) == 20
    assert [total([D] * n) for n in range(1, 6)] == [1, 3, 6, 10, 15]
    assert [total([x]) for x in (E, SL, SQ)] == [1, 2, 3]
    assert [total([W, x]) for x in (E, SL, SQ)] == [3, 6, 9]
    assert total([W, CH]) == 0


def test_guide_000_example_collection():
    # Guide 000: "A Wasabi card without Nigiri = 0", nigiri table squid 3/9,
    # salmon 2/6, egg 1/3; sets of 2 tempura = 5; 3 sashimi = 10.
    cards = [T, T, W, SQ, SA, SA, SA, W]
    assert score_collection(cards) == {"tempura": 5, "sashimi": 10, "dumpling": 0, "nigiri": 9, "maki": 0}


def test_scoring_doctest_example():
    assert score_collection([T, T, W, SQ]) == {"tempura": 5, "sashimi": 0, "dumpling": 0, "nigiri": 9, "maki": 0}


# --------------------------------------------------------------------- maki

@pytest.mark.parametrize(
    ("icons", "awards"),
    [
        ([5, 3, 3, 2], [6, 1, 1, 0]),       # §1.7 / guide 001
        ([3, 3, 3, 2], [2, 2, 2, 0]),       # §1.7
        ([4, 4, 3], [3, 3, 0]),             # §1.7: a tie for first cancels second
        ([2, 2, 2, 2, 2], [1, 1, 1, 1, 1]), # §1.7: five tied -> 1 each
        ([0, 0, 0], [0, 0, 0]),             # nobody has maki -> nothing (guide 001)
        ([0, 0], [0, 0]),
        ([0, 7, 0, 0], [0, 6, 0, 0]),       # only one player has maki -> 6, no second
        ([1, 0], [6, 0]),
        ([4, 0, 0], [6, 0, 0]),
        ([6, 2, 0, 0, 0], [6, 3, 0, 0, 0]), # 0-icon players are not "second"
        ([6, 0, 2], [6, 0, 3]),
        ([9, 5], [6, 3]),
        ([5, 5], [3, 3]),                   # guide 002: two tied for most get 3 each
        ([5, 5, 5, 5], [1, 1, 1, 1]),       # floor(6/4)
        ([5, 5, 5, 5, 0], [1, 1, 1, 1, 0]),
        ([5, 5, 5, 1, 1], [2, 2, 2, 0, 0]), # tie for first: no second award at all
        ([8, 3, 3], [6, 1, 1]),             # guide 002: two tied for second get 1 each
        ([8, 3, 3, 3], [6, 1, 1, 1]),
        ([8, 3, 3, 3, 3], [6, 0, 0, 0, 0]), # floor(3/4) = 0
        ([8, 1, 1, 1, 1], [6, 0, 0, 0, 0]),
        ([8, 4, 3, 2, 1], [6, 3, 0, 0, 0]), # third place and lower get nothing
        ([1, 2, 3, 4, 5], [0, 0, 0, 3, 6]),
    ],
)
def test_maki_awards(icons, awards):
    assert maki_awards(icons) == awards


def test_maki_counts_icons_not_cards():
    # one maki3 (3 icons) beats two maki1 (2 icons)
    lines = score_round([[M3], [M1, M1], []])
    assert [line["maki"] for line in lines] == [6, 3, 0]


def test_score_round_adds_maki_award():
    cols = [
        [T, T, M3, M2],        # 5 + maki 5 icons
        [M2, M1, W, SQ],       # 9 + maki 3 icons
        [M2, M1, D],           # 1 + maki 3 icons
        [M2, E],               # 1 + maki 2 icons
    ]
    lines = score_round(cols)
    assert [line["maki"] for line in lines] == [6, 1, 1, 0]
    assert [sum(line.values()) for line in lines] == [11, 10, 2, 1]


def test_score_round_nobody_has_maki():
    lines = score_round([[T, T], [E], [W]])
    assert [line["maki"] for line in lines] == [0, 0, 0]


# ------------------------------------------------------------------ pudding

@pytest.mark.parametrize(
    ("puddings", "awards"),
    [
        ([3, 1, 1, 0], [6, 0, 0, -6]),
        ([2, 2, 0, 0, 0], [3, 3, -2, -2, -2]),
        ([3, 0, 0, 0, 0], [6, -1, -1, -1, -1]),    # 4 tied for fewest lose 1 each
        ([5, 0, 0, 0], [6, -2, -2, -2]),
        ([2, 2, 2, 2, 0], [1, 1, 1, 1, -6]),       # floor(6/4) for most
        ([1, 0, 0], [6, -3, -3]),                  # guide 002: two tied for least lose 3
        ([4, 4, 1], [3, 3, -6]),
        ([0, 2, 5], [-6, 0, 6]),                   # fewest with zero puddings
        ([1, 2, 3], [-6, 0, 6]),                   # fewest need not be zero
        ([2, 2, 2], [0, 0, 0]),                    # all equal -> nobody gains or loses
        ([0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
        ([3, 3, 3, 3], [0, 0, 0, 0]),
        ([0, 4], [0, 6]),                          # 2 players: no penalty
        ([4, 0], [6, 0]),
        ([1, 0], [6, 0]),
        ([3, 3], [0, 0]),                          # 2 players equal -> 0
        ([0, 0], [0, 0]),
    ],
)
def test_pudding_awards(puddings, awards):
    assert pudding_awards(puddings) == awards


# ------------------------------------------------------------------ winners

@pytest.mark.parametrize(
    ("totals", "puddings", "expected"),
    [
        ([30, 20, 10], [0, 5, 5], [0]),           # highest total wins, puddings irrelevant
        ([30, 30, 12], [2, 1, 5], [0]),           # tie -> most puddings among the tied
        ([30, 30, 12], [1, 2, 5], [1]),
        ([30, 30, 12], [1, 1, 5], [0, 1]),        # still tied -> shared winners
        ([7, 7, 7, 7], [0, 0, 0, 0], [0, 1, 2, 3]),
        ([5, 9, 9, 9], [9, 1, 3, 3], [2, 3]),     # the non-tied 9-pudding seat does not count
        ([0, 0], [0, 0], [0, 1]),
    ],
)
def test_winners(totals, puddings, expected):
    assert winners(totals, puddings) == expected


def test_result_final_applies_pudding():
    # two rounds' breakdowns written by hand, three players
    zero = {"tempura": 0, "sashimi": 0, "dumpling": 0, "nigiri": 0, "maki": 0}
    r1 = [dict(zero, tempura=10), dict(zero, nigiri=9, maki=6), dict(zero, dumpling=15)]
    r2 = [dict(zero, maki=3), dict(zero), dict(zero, sashimi=10)]
    r3 = [dict(zero), dict(zero, tempura=5), dict(zero)]
    result = Result.from_breakdowns([r1, r2, r3], [2, 0, 1], final=True)
    assert result.rounds == ((10, 15, 15), (3, 0, 10), (0, 5, 0))
    assert result.pudding == (6, -6, 0)
    assert result.totals == (19, 14, 25)
    assert result.winners == (2,)
    assert result.puddings == (2, 0, 1)
    js = result.to_json()
    assert js["rounds"] == [[10, 15, 15], [3, 0, 10], [0, 5, 0]]
    assert js["pudding"] == [6, -6, 0]
    assert js["totals"] == [19, 14, 25]
    assert js["winners"] == [2]
    partial = Result.from_breakdowns([r1], [2, 0, 1], final=False)
    assert partial.pudding == (0, 0, 0)
    assert partial.totals == (10, 15, 15)


def test_result_tie_broken_by_puddings_after_adjustment():
    zero = {"tempura": 0, "sashimi": 0, "dumpling": 0, "nigiri": 0, "maki": 0}
    # round scores 20 / 14 ; puddings 0 / 3 -> 2p: +6 for seat 1, no penalty -> 20 / 20
    rounds = [[dict(zero, tempura=20), dict(zero, tempura=14)]] * 3
    result = Result.from_breakdowns(rounds, [0, 3], final=True)
    assert result.totals == (60, 48)
    rounds = [[dict(zero, tempura=10), dict(zero, tempura=8)]] * 3
    result = Result.from_breakdowns(rounds, [0, 3], final=True)
    assert result.totals == (30, 30)
    assert result.winners == (1,)


# --------------------------------------------------------------- properties

CARDS = st.sampled_from(list(C))


def _nigiri_oracle(cards) -> int:
    empty = []
    points = 0
    face = {E: 1, SL: 2, SQ: 3}
    for c in cards:
        if c == W:
            empty.append(c)
        elif c in face:
            points += face[c] * (3 if empty else 1)
            if empty:
                empty.pop()
    return points


@settings(max_examples=300, deadline=None)
@given(st.lists(CARDS, max_size=12), st.randoms(use_true_random=False))
def test_permutation_keeping_wasabi_nigiri_order_keeps_score(cards, rnd):
    # Only the relative order of wasabi and nigiri matters; everything else
    # scores by counts.  Shuffle the other cards among the other positions and
    # interleave them anywhere.
    wn = [c for c in cards if c in (W, E, SL, SQ)]
    rest = [c for c in cards if c not in (W, E, SL, SQ)]
    rnd.shuffle(rest)
    slots = sorted(rnd.sample(range(len(cards)), len(wn)))
    out, it_wn, it_rest = [], iter(wn), iter(rest)
    for i in range(len(cards)):
        out.append(next(it_wn) if i in slots else next(it_rest))
    assert sorted(out) == sorted(cards)
    assert score_collection(out) == score_collection(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(CARDS, max_size=14))
def test_collection_score_matches_oracle(cards):
    counts = {c: cards.count(c) for c in C}
    line = score_collection(cards)
    assert line["tempura"] == 5 * (counts[T] // 2)
    assert line["sashimi"] == 10 * (counts[SA] // 3)
    assert line["dumpling"] == [0, 1, 3, 6, 10, 15][min(counts[D], 5)]
    assert line["nigiri"] == _nigiri_oracle(cards)
    face = counts[E] + 2 * counts[SL] + 3 * counts[SQ]
    assert face <= line["nigiri"] <= 3 * face
    assert line["maki"] == 0
    # tripled nigiri = those with a pair in wasabi_pairs
    pairs = wasabi_pairs(cards)
    assert len(pairs) <= counts[W]
    assert len(set(pairs.values())) == len(pairs)
    assert all(cards[w] == W and w < n for n, w in pairs.items())


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=2, max_size=5))
def test_maki_award_properties(icons):
    awards = maki_awards(icons)
    assert len(awards) == len(icons)
    assert 0 <= sum(awards) <= 9
    assert all(a in (0, 1, 2, 3, 6) for a in awards)
    for i, n in enumerate(icons):
        if n == 0:
            assert awards[i] == 0
    # more icons never earn less
    for i in range(len(icons)):
        for j in range(len(icons)):
            if icons[i] > icons[j]:
                assert awards[i] >= awards[j]
            if icons[i] == icons[j]:
                assert awards[i] == awards[j]
    # the award depends on the multiset of totals, not the seating
    perm = list(range(len(icons)))
    random.Random(sum(icons)).shuffle(perm)
    shuffled = maki_awards([icons[p] for p in perm])
    assert shuffled == [awards[p] for p in perm]
    if any(icons):
        assert sum(awards) >= 1


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 10), min_size=2, max_size=5))
def test_pudding_award_properties(puddings):
    awards = pudding_awards(puddings)
    most, fewest = max(puddings), min(puddings)
    for p, a in zip(puddings, awards):
        if most == fewest:
            assert a == 0
        elif p == most:
            assert a == 6 // puddings.count(most)
        elif p == fewest:
            assert a == (0 if len(puddings) == 2 else -(6 // puddings.count(fewest)))
        else:
            assert a == 0
    if len(puddings) == 2:
        assert min(awards) >= 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(CARDS, max_size=10), min_size=2, max_size=5))
def test_score_round_is_collection_plus_maki(collections):
    lines = score_round(collections)
    awards = maki_awards([maki_icons(c) for c in collections])
    for cards, line, award in zip(collections, lines, awards):
        expected = score_collection(cards)
        expected["maki"] = award
        assert line == expected
