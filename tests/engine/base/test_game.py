"""The state machine: turns, passing, chopsticks, wasabi, rounds and scores (docs/rules.md §1.3-§1.10).

Most tests deal exact hands (``Game(rules, auto_deal=False)`` + ``deal``) so
that every situation of the rules can be set up on purpose.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from policies import random_actions
from sushigo import Card, Game, GameOverError, IllegalActionError, Phase, Rules, encode
from sushigo.engine.base.actions import NUM_ACTIONS, decode
from sushigo.engine.base.cards import DECK_COUNT_LIST, count_cards
from sushigo.engine.base.game import total_cards
from sushigo.engine.editions import to_record
from sushigo.engine.errors import DealError, InvalidActionError

T, SA, D = Card.TEMPURA, Card.SASHIMI, Card.DUMPLING
M1, M2, M3 = Card.MAKI1, Card.MAKI2, Card.MAKI3
E, SL, SQ = Card.EGG, Card.SALMON, Card.SQUID
W, CH, P = Card.WASABI, Card.CHOPSTICKS, Card.PUDDING

FILLER_ORDER = [T, SA, D, M2, M3, M1, SL, P, E, SQ, W, CH]


def fill(players: int, prefixes, used=None):
    """Hands that start with ``prefixes[s]`` and are filled up with harmless cards."""
    k = Rules(players).hand_size
    left = list(DECK_COUNT_LIST)
    for c in used or []:
        left[c] -= 1
    hands = []
    for s in range(players):
        prefix = list(prefixes[s]) if s < len(prefixes) else []
        for c in prefix:
            left[c] -= 1
            assert left[c] >= 0, f"test setup uses too many {c}"
        hands.append(prefix)
    for hand in hands:
        for c in FILLER_ORDER:
            while len(hand) < k and left[c] > 0:
                left[c] -= 1
                hand.append(c)
        assert len(hand) == k
    return hands


def dealt(players: int, prefixes, **options) -> Game:
    game = Game(Rules(players, **options), auto_deal=False)
    game.deal(fill(players, prefixes))
    return game


def first_legal(game: Game) -> list[int]:
    return [game.legal_actions(s)[0] for s in range(game.players)]


def play_cards(game: Game, picks) -> None:
    """One turn; ``picks[s]`` is a card or a tuple of two cards (chopsticks)."""
    actions = []
    for pick in picks:
        cards = pick if isinstance(pick, tuple) else (pick,)
        actions.append(encode(cards))
    game.play(actions)


def snapshot(game: Game):
    return (
        game.phase, game.round, game.turn,
        [list(h) for h in game.hands], [list(c) for c in game.collections],
        list(game.deck), list(game.discard), list(game.kept_puddings),
        [game.has_committed(s) for s in range(game.players)],
        [game.committed_action(s) for s in range(game.players)],
        game.history(), game.round_breakdowns,
    )


def finish_round(game: Game) -> None:
    r = game.round
    while game.round == r and not game.is_over and game.phase is Phase.PICK:
        game.play(first_legal(game))


# ================================================================ turn structure

def test_new_game_state():
    game = Game(4, seed=1)
    assert game.phase is Phase.PICK
    assert (game.round, game.turn) == (1, 1)
    assert not game.is_over
    assert game.collections == [[], [], [], []]
    assert game.kept_puddings == [0, 0, 0, 0]
    assert len(game.deck) == 108 - 32
    assert game.discard == []
    assert total_cards(game) == list(DECK_COUNT_LIST)
    assert game.pending_seats == [0, 1, 2, 3]


def test_unshuffled_game_waits_for_deal():
    game = Game(3, auto_deal=False)
    assert game.phase is Phase.DEAL
    assert len(game.deck) == 108
    assert game.legal_actions(0) == []
    with pytest.raises(IllegalActionError):
        game.commit(0, 0)
    with pytest.raises(IllegalActionError):
        game.play([0, 0, 0])


def test_simultaneous_reveal_with_commit():
    game = dealt(3, [[SQ], [W], [E]])
    before = snapshot(game)
    assert game.commit(0, SQ) is False
    # nothing is revealed or moved before the last seat has picked
    assert game.collections == [[], [], []]
    assert game.hands == before[3]
    assert game.pending_seats == [1, 2]
    assert game.has_committed(0) and not game.has_committed(1)
    assert game.committed_action(0) == SQ
    assert game.legal_actions(0) == []
    assert game.commit(2, E) is False
    assert game.collections == [[], [], []]
    assert game.commit(1, W) is True
    # all three revealed at once, then passed
    assert game.collections == [[SQ], [W], [E]]
    assert game.turn == 2
    assert game.pending_seats == [0, 1, 2]
    assert [game.committed_action(s) for s in range(3)] == [None, None, None]


def test_commit_twice_rejected():
    game = dealt(3, [[SQ, E], [W], [E]])
    game.commit(0, SQ)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.commit(0, E)
    assert snapshot(game) == before


def test_play_after_partial_commit_rejected():
    game = dealt(3, [[SQ], [W], [E]])
    game.commit(0, SQ)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.play([SQ, W, E])
    assert snapshot(game) == before


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pass_left(players):
    game = Game(players, seed=11 * players)
    for _ in range(3):
        old = [list(h) for h in game.hands]
        actions = first_legal(game)
        game.play(actions)
        for s in range(players):
            rest = Counter(old[s])
            rest.subtract(decode(actions[s]))
            # seat s's remaining hand goes to the seat on its left, (s + 1) % n
            assert Counter(game.hands[(s + 1) % players]) == +rest
            assert game.passes_to(s) == (s + 1) % players
            assert game.receives_from(s) == (s - 1) % players


def test_pass_left_exact_hands():
    game = dealt(3, [[SQ, W], [E, E], [D, D]])
    play_cards(game, [SQ, E, D])
    assert game.hands[1][:1] == [W] and Counter(game.hands[1])[W] == 1
    assert Counter(game.hands[2])[E] == 1
    assert Counter(game.hands[0])[D] >= 1
    assert game.hands[1] == fill(3, [[SQ, W], [E, E], [D, D]])[0][1:]


def _play_to_round(game: Game, r: int) -> None:
    while game.round < r:
        game.play(first_legal(game))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pass_both_ways(players):
    game = Game(Rules(players, pass_both_ways=True), seed=5)
    for rnd, step in ((1, 1), (2, -1), (3, 1)):
        _play_to_round(game, rnd)
        assert game.round == rnd and game.turn == 1
        assert game.pass_step == step
        old = [list(h) for h in game.hands]
        actions = first_legal(game)
        game.play(actions)
        for s in range(players):
            rest = Counter(old[s])
            rest.subtract(decode(actions[s]))
            assert Counter(game.hands[(s + step) % players]) == +rest
            assert game.passes_to(s) == (s + step) % players


def test_default_passes_left_in_round_two():
    game = Game(Rules(4), seed=9)
    _play_to_round(game, 2)
    assert game.pass_step == 1
    old = [list(h) for h in game.hands]
    actions = first_legal(game)
    game.play(actions)
    for s in range(4):
        rest = Counter(old[s])
        rest.subtract(decode(actions[s]))
        assert Counter(game.hands[(s + 1) % 4]) == +rest


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_hand_shrinks_by_one_per_turn(players):
    game = Game(players, seed=3)
    k = Rules(players).hand_size
    for t in range(1, k + 1):
        assert game.turn == t
        assert [len(h) for h in game.hands] == [k - t + 1] * players
        game.play(first_legal(game))
    assert game.round == 2 and game.turn == 1


def test_last_card_forced():
    game = dealt(2, [[CH], []])
    play_cards(game, [CH, game.hands[1][0]])
    for _ in range(8):
        game.play(first_legal(game))
    assert game.turn == 10
    for s in range(2):
        assert len(game.hands[s]) == 1
        # only the single card, even with chopsticks in the collection
        assert game.legal_actions(s) == [game.hands[s][0]]
    assert CH in game.collections[0]
    a = game.hands[0][0]
    with pytest.raises(IllegalActionError):
        game.commit(0, encode((a, a)))


# ===================================================================== chopsticks

def test_chopsticks_taken_this_turn_cannot_be_used_this_turn():
    game = dealt(3, [[CH, T, T, SQ]])
    # turn 1: no chopsticks in the collection yet, so no pair is legal
    assert all(a < 12 for a in game.legal_actions(0))
    with pytest.raises(IllegalActionError):
        game.commit(0, encode((CH, T)))
    with pytest.raises(IllegalActionError):
        game.commit(0, encode((T, T)))
    assert not game.can_use_chopsticks(0)
    play_cards(game, [CH, game.hands[1][0], game.hands[2][0]])
    # turn 2: the chopsticks lay there before this turn
    assert game.can_use_chopsticks(0)
    assert any(a >= 12 for a in game.legal_actions(0))
    assert not game.can_use_chopsticks(1)
    assert all(a < 12 for a in game.legal_actions(1))


def test_chopsticks_return_to_passed_hand_and_travel_on():
    # seat 0 takes chopsticks on turn 1; turn 2 it holds seat 2's old hand
    game = dealt(3, [[CH], [T], [SQ, W]])
    play_cards(game, [CH, T, SQ])
    assert W in game.hands[0]
    before_len = len(game.hands[0])
    w_then = game.hands[0][0] if game.hands[0][0] != W else game.hands[0][1]
    play_cards(game, [(W, w_then), game.hands[1][0], game.hands[2][0]])
    # the used chopsticks left the collection and went into the hand seat 0 passed on
    assert game.collections[0] == [W, w_then]
    assert CH in game.hands[1]
    assert len(game.hands[1]) == before_len - 1
    assert [len(h) for h in game.hands] == [7, 7, 7]
    # the next seat (seat 1) can take it and use it on a later turn
    play_cards(game, [game.hands[0][0], CH, game.hands[2][0]])
    assert game.collections[1][-1] == CH
    assert game.can_use_chopsticks(1)
    assert total_cards(game) == list(DECK_COUNT_LIST)


def test_chopsticks_not_discarded():
    game = dealt(2, [[CH, SQ, E]])
    play_cards(game, [CH, game.hands[1][0]])
    hand = game.hands[0]
    a, b = hand[0], hand[1]
    game.play([encode((a, b)), game.hands[1][0]])
    assert game.discard == []
    assert game.hands[1].count(CH) == 1
    assert CH not in game.collections[0]


def test_one_chopsticks_per_turn_with_two_in_collection():
    game = dealt(2, [[CH, T, T, T, T], [CH, D, D, D, D]])
    # 2 players: turn 1 seat 0 takes CH from its hand; turn 2 it holds seat 1's hand
    play_cards(game, [CH, D])
    play_cards(game, [CH, T])
    assert game.collections[0] == [CH, CH]
    hand = list(game.hands[0])
    actions = game.legal_actions(0)
    # at most two cards per pick: the encoding has no three-card action at all
    assert all(len(decode(a)) <= 2 for a in actions)
    game.play([encode((T, T)), game.hands[1][0]])
    # exactly one chopsticks went back into the passed hand, one stays
    assert game.collections[0].count(CH) == 1
    assert game.hands[1].count(CH) == Counter(hand)[CH] + 1
    assert game.collections[0] == [CH, T, T]
    # and the remaining one can be used on a later turn
    assert game.can_use_chopsticks(0)
    assert [len(h) for h in game.hands] == [7, 7]


def test_chopsticks_needs_two_cards_in_hand():
    game = dealt(2, [[CH], []])
    play_cards(game, [CH, game.hands[1][0]])
    while game.turn < 10:
        assert game.can_use_chopsticks(0)
        game.play(first_legal(game))
    assert not game.can_use_chopsticks(0)
    assert all(a < 12 for a in game.legal_actions(0))
    last = game.hands[0][0]
    for other in range(12):
        assert not game.is_legal(0, encode((last, other)))


def test_chopsticks_can_take_chopsticks():
    game = dealt(2, [[CH, T], [CH, SA]])
    play_cards(game, [CH, SA])
    # seat 0 now holds seat 1's old hand, which has a chopsticks
    assert CH in game.hands[0]
    action = encode((CH, D)) if D in game.hands[0] else encode((CH, game.hands[0][-1]))
    assert game.is_legal(0, action)
    second = decode(action)[1]
    game.play([action, game.hands[1][0]])
    assert game.collections[0] == [CH, second]  # the new chopsticks lies there, the old went back
    assert game.hands[1].count(CH) == 1
    assert total_cards(game) == list(DECK_COUNT_LIST)


def test_chopsticks_pair_needs_both_cards():
    game = dealt(2, [[CH, SQ], [T, D]])
    play_cards(game, [CH, T])
    hand = game.hands[0]
    assert hand.count(SQ) == 0
    with pytest.raises(IllegalActionError):
        game.commit(0, encode((SQ, hand[0])))
    single = [c for c in set(hand) if hand.count(c) == 1]
    assert single
    with pytest.raises(IllegalActionError):
        game.commit(0, encode((single[0], single[0])))
    double = [c for c in set(hand) if hand.count(c) >= 2]
    assert double
    assert game.is_legal(0, encode((double[0], double[0])))


def test_chopsticks_as_last_card_kept_and_scores_zero():
    # 2p: seat 0 picks from hand A on odd turns, from hand B on even turns; its
    # forced last card (turn 10, from B) is the chopsticks seat 1 never took.
    picks0 = [T, D, T, D, T, D, T, D, T, CH]
    picks1 = [D, T, D, T, D, T, D, T, D, T]
    game = Game(2, auto_deal=False)
    game.deal(_hands_for(picks0, picks1))
    for t in range(10):
        if t == 9:
            assert game.hands[0] == [CH]
            assert game.legal_actions(0) == [CH]
        game.play([picks0[t], picks1[t]])
    assert game.round == 2
    # kept in the collection (so it went to the discard with it) and scores 0:
    # seat 0 = 5 tempura (10) + 4 dumplings (10) + chopsticks (0) = 20
    assert game.round_breakdowns[0][0] == {"tempura": 10, "sashimi": 0, "dumpling": 10, "nigiri": 0, "maki": 0}
    assert game.round_breakdowns[0][1] == {"tempura": 10, "sashimi": 0, "dumpling": 15, "nigiri": 0, "maki": 0}
    assert game.result().rounds == ((20, 25),)
    assert game.discard.count(CH) == 1


# ========================================================================= wasabi

def play_script(hands, picks0, picks1) -> Game:
    """A 2-player round dealt ``hands``; ``picksN[t]`` is a card or a pair (chopsticks)."""
    game = Game(2, auto_deal=False)
    game.deal(hands)
    for t in range(10):
        actions = []
        for s, pick in enumerate((picks0[t], picks1[t])):
            action = encode(pick if isinstance(pick, tuple) else (pick,))
            assert game.is_legal(s, action), (t + 1, s, pick, game.hands[s])
            actions.append(action)
        game.play(actions)
    assert game.round == 2
    return game


def test_wasabi_then_nigiri_tripled_and_mandatory():
    # seat 0: wasabi (turn 1), egg (turn 3), squid (turn 5).  The egg must go on
    # the wasabi: the wasabi cannot be saved for the squid.
    picks0 = [W, T, E, T, SQ, T, T, T, T, T]
    picks1 = [D] * 10
    game = play_script(_hands_for(picks0, picks1), picks0, picks1)
    assert game.round_breakdowns[0][0] == {"tempura": 15, "sashimi": 0, "dumpling": 0, "nigiri": 3 + 3, "maki": 0}


def test_nigiri_before_wasabi_not_tripled():
    picks0 = [SQ, T, W, T, T, T, T, T, T, T]
    picks1 = [D] * 10
    game = play_script(_hands_for(picks0, picks1), picks0, picks1)
    assert game.round_breakdowns[0][0]["nigiri"] == 3


# Chopsticks scripts (2 players).  Hand A (seat 0's deal) and B; seat 0 takes
# chopsticks on turn 1 and uses them on turn 3 from A, which gets the
# chopsticks back; seat 1 takes that chopsticks from A later.
@pytest.mark.parametrize(
    ("pair", "nigiri"),
    [
        ((W, E), 3 + 3),   # wasabi then egg: egg tripled (3), later squid plain (3)
        ((E, W), 1 + 9),   # egg then wasabi: egg plain (1), the wasabi takes the later squid (9)
    ],
)
def test_chopsticks_wasabi_egg_order(pair, nigiri):
    a = [CH, E, W, SQ, T, T, D, D, D, D]
    b = [D] * 5 + [T] * 5
    picks0 = [CH, T, pair, T, SQ, T, T, T, T, T]
    picks1 = [D, D, D, CH, D, D, D, D, D, D]
    game = Game(2, auto_deal=False)
    game.deal([a, b])
    for t in range(3):
        game.play([encode(p if isinstance(p, tuple) else (p,)) for p in (picks0[t], picks1[t])])
    assert game.collections[0] == [T, *pair]
    assert CH in game.hands[1]  # the hand seat 0 passed holds the chopsticks again
    game = play_script([a, b], picks0, picks1)
    assert game.round_breakdowns[0][0] == {"tempura": 15, "sashimi": 0, "dumpling": 0, "nigiri": nigiri, "maki": 0}
    assert game.round_breakdowns[0][1] == {"tempura": 0, "sashimi": 0, "dumpling": 15, "nigiri": 0, "maki": 0}


@pytest.mark.parametrize(
    ("pair", "nigiri"),
    [
        ((SL, SQ), 6 + 3),   # two nigiri, one empty wasabi: the first in order goes on it
        ((SQ, SL), 9 + 2),
    ],
)
def test_chopsticks_two_nigiri_one_wasabi(pair, nigiri):
    a = [CH, W, SL, SQ, T, T, D, D, D, D]
    b = [D] * 5 + [T] * 5
    picks0 = [CH, T, W, T, pair, T, T, T, T, T]
    picks1 = [D, D, D, D, D, CH, D, D, D, D]
    game = play_script([a, b], picks0, picks1)
    assert game.round_breakdowns[0][0] == {"tempura": 15, "sashimi": 0, "dumpling": 0, "nigiri": nigiri, "maki": 0}


def test_oldest_wasabi_filled_first():
    from sushigo.engine.base.scoring import wasabi_pairs

    picks0 = [W, T, W, T, E, T, SQ, T, T, T]
    picks1 = [D] * 10
    game = Game(2, auto_deal=False)
    game.deal(_hands_for(picks0, picks1))
    for t in range(9):
        game.play([picks0[t], picks1[t]])
    col = game.collections[0]
    assert col == [W, T, W, T, E, T, SQ, T, T]
    assert wasabi_pairs(col) == {4: 0, 6: 2}
    game.play([picks0[9], picks1[9]])
    assert game.round_breakdowns[0][0]["nigiri"] == 3 + 9


# ================================================================ between rounds

def test_no_reshuffle_round_two_from_remaining_pile():
    game = Game(4, seed=21)
    pile = list(game.deck)
    finish_round(game)
    assert game.round == 2 and game.turn == 1
    dealt2 = Counter(c for h in game.hands for c in h)
    # round 2 is dealt from the top of the pile left after round 1's deal
    assert dealt2 == Counter(pile[-32:])
    assert game.deck == pile[:-32]
    # discards never come back
    finish_round(game)
    assert len(game.deck) == 108 - 96
    assert total_cards(game) == list(DECK_COUNT_LIST)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_reshuffle_conservation_between_rounds(players):
    game = Game(players, seed=100 + players)
    k = Rules(players).hand_size
    round_cols = []
    while not game.is_over:
        if game.turn == game.rules.hand_size:  # last turn: remember collections after it
            game.play(first_legal(game))
            history = game.history()[-1]
            round_cols.append(history)
            continue
        game.play(first_legal(game))
    hist = game.history()
    dealt_all = Counter(c for dealt, _ in hist for h in dealt for c in h)
    assert sum(dealt_all.values()) == 3 * players * k
    for c, n in dealt_all.items():
        assert n <= DECK_COUNT_LIST[c]
    # everything dealt ends in the discard pile or the kept puddings
    kept = Counter({P: sum(game.kept_puddings)})
    assert Counter(game.discard) + kept == dealt_all
    assert Counter(game.deck) + dealt_all == Counter({Card(c): n for c, n in enumerate(DECK_COUNT_LIST)})


def test_puddings_carry_over_other_cards_discarded():
    game = dealt(3, [[P, P, T], [P, SQ], [D]])
    play_cards(game, [P, P, D])
    play_cards(game, [game.hands[0][0], game.hands[1][0], game.hands[2][0]])
    hands_before = fill(3, [[P, P, T], [P, SQ], [D]])
    while game.round == 1:
        game.play(first_legal(game))
    assert game.phase is Phase.DEAL
    assert game.collections == [[], [], []]
    round1 = [c for h in hands_before for c in h]
    puddings_dealt = round1.count(P)
    assert sum(game.kept_puddings) == puddings_dealt
    assert P not in game.discard
    assert Counter(game.discard) == Counter(c for c in round1 if c != P)
    assert game.puddings() == game.kept_puddings
    # the kept puddings still count after round 2 is dealt
    game.deal(fill(3, [], used=round1))
    assert game.puddings() == game.kept_puddings
    assert game.collections == [[], [], []]


def test_deal_from_remaining_pile_only():
    # 2p: round 1 deals all 14 tempura; without reshuffle no tempura can be dealt again
    r1 = [[T] * 10, [T] * 4 + [SA] * 6]
    game = Game(2, auto_deal=False)
    game.deal(r1)
    finish_round(game)
    with pytest.raises(DealError):
        game.deal([[T] + [SA] * 8 + [D], [D] * 10])
    game.deal([[SA] * 8 + [D] * 2, [D] * 10])
    assert game.phase is Phase.PICK


def test_reshuffle_option_brings_discards_back():
    r1 = [[T] * 10, [T] * 4 + [SA] * 6]
    game = Game(Rules(2, reshuffle=True), auto_deal=False)
    game.deal(r1)
    finish_round(game)
    assert game.discard == []
    assert len(game.deck) == 108
    game.deal([[T] * 10, [T] * 4 + [SA] * 6])  # the same tempura again
    assert game.phase is Phase.PICK


def test_reshuffle_keeps_puddings_out():
    r1 = [[P] * 10, [T] * 10]
    game = Game(Rules(2, reshuffle=True), auto_deal=False)
    game.deal(r1)
    finish_round(game)
    assert game.kept_puddings == [5, 5]
    assert count_cards(game.deck)[P] == 0
    assert len(game.deck) == 98
    with pytest.raises(DealError):
        game.deal([[P] + [T] * 9, [T] * 5 + [SA] * 5])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_reshuffle_auto_deal(players):
    game = Game(Rules(players, reshuffle=True), seed=7)
    k = Rules(players).hand_size
    while not game.is_over:
        game.play(first_legal(game))
        assert total_cards(game) == list(DECK_COUNT_LIST)
        if game.turn == 1 and game.round > 1:
            assert game.discard == []
            assert len(game.deck) == 108 - sum(game.kept_puddings) - players * k


def test_deal_errors():
    game = Game(3, auto_deal=False)
    with pytest.raises(DealError):
        game.deal(fill(2, []))  # two hands for three players
    with pytest.raises(DealError):
        game.deal([h[:-1] for h in fill(3, [])])  # hands one card short
    with pytest.raises(DealError):
        game.deal([[SQ] * 9, [T] * 9, [D] * 9])  # 9 squid, the deck has 5
    assert game.phase is Phase.DEAL and len(game.deck) == 108
    game.deal(fill(3, []))
    with pytest.raises(DealError):
        game.deal(fill(3, []))  # not waiting for a deal
    with pytest.raises(DealError):
        Game(3, seed=1).deal(fill(3, []))


@pytest.mark.parametrize("bad", [-1, 12, 99, "tempura", None, 1.5])
def test_deal_rejects_non_cards_and_changes_nothing(bad):
    # Game.deal promises DealError for a deal the deck cannot provide; a value
    # that is not a card id must not be half-dealt (e.g. -1 used to index the
    # pudding count, pass the check and corrupt the draw pile).
    game = Game(2, auto_deal=False)
    with pytest.raises(DealError):
        game.deal([[T] * 9 + [bad], [SA] * 10])
    assert game.phase is Phase.DEAL
    assert Counter(game.deck) == Counter({Card(c): n for c, n in enumerate(DECK_COUNT_LIST)})
    game.deal([[T] * 10, [SA] * 10])
    assert game.phase is Phase.PICK


# ====================================================================== scoring

# A complete 2-player game worked by hand.  In 2p seat 0 picks from hand A on
# odd turns and from hand B on even turns (seat 1 the other way round), so the
# hands are: A = seat 0's odd picks + seat 1's even picks, B = the rest.
HAND_GAME = [
    (   # round 1
        [W, T, SQ, T, M3, D, D, P, E, CH],        # seat 0, turn by turn (CH is its forced last card)
        [SA, SA, SA, M2, M2, SL, W, SL, P, P],    # seat 1
    ),
    (   # round 2
        [D, SQ, D, SQ, D, SQ, D, SQ, D, M1],
        [T, SA, T, SA, T, SA, T, M1, T, M1],
    ),
    (   # round 3
        [W, E, P, SL, P, SL, P, T, T, T],
        [M3, M3, D, SA, SA, D, SA, D, CH, SL],
    ),
]
# Round 1: seat 0: tempura 2 -> 5, wasabi+squid 9, egg 1, dumplings 2 -> 3, maki 3
#          icons (second -> 3), chopsticks 0: 5 + 10 + 3 + 3 = 21.
#          seat 1: sashimi 3 -> 10, salmon 2 + (wasabi) salmon 6 = 8, maki 4 icons
#          (most -> 6): 10 + 8 + 6 = 24.  Puddings 1 / 2.
# Round 2: seat 0: dumplings 5 -> 15, 4 squid 12, maki 1 icon (second -> 3) = 30.
#          seat 1: tempura 5 -> 10, sashimi 3 -> 10, maki 2 icons (most -> 6) = 26.
# Round 3: seat 0: wasabi+egg 3, salmon 2 + 2, tempura 3 -> 5, puddings 3 = 12.
#          seat 1: maki 6 icons, only one with maki -> 6, sashimi 3 -> 10,
#          dumplings 3 -> 6, salmon 2, chopsticks 0 = 24.
# Puddings 4 / 2 -> +6 / 0 (no penalty in 2 players).
# Totals: 21+30+12+6 = 69, 24+26+24 = 74 -> seat 1 wins.
HAND_ROUNDS = ((21, 24), (30, 26), (12, 24))
HAND_TOTALS = (69, 74)


def _hands_for(picks0, picks1):
    a = [picks0[t] for t in range(0, 10, 2)] + [picks1[t] for t in range(1, 10, 2)]
    b = [picks1[t] for t in range(0, 10, 2)] + [picks0[t] for t in range(1, 10, 2)]
    return [a, b]


def _play_hand_game(use_commit: bool = False) -> Game:
    game = Game(2, auto_deal=False)
    for picks0, picks1 in HAND_GAME:
        game.deal(_hands_for(picks0, picks1))
        for t in range(10):
            assert picks0[t] in game.hands[0] and picks1[t] in game.hands[1]
            if use_commit:
                game.commit(1, picks1[t])
                game.commit(0, picks0[t])
            else:
                game.play([picks0[t], picks1[t]])
    return game


def test_hand_worked_game_round_scores():
    game = _play_hand_game()
    assert game.is_over and game.phase is Phase.OVER
    result = game.result()
    assert result.rounds == HAND_ROUNDS
    b = game.round_breakdowns
    assert b[0][0] == {"tempura": 5, "sashimi": 0, "dumpling": 3, "nigiri": 10, "maki": 3}
    assert b[0][1] == {"tempura": 0, "sashimi": 10, "dumpling": 0, "nigiri": 8, "maki": 6}
    assert b[1][0] == {"tempura": 0, "sashimi": 0, "dumpling": 15, "nigiri": 12, "maki": 3}
    assert b[1][1] == {"tempura": 10, "sashimi": 10, "dumpling": 0, "nigiri": 0, "maki": 6}
    assert b[2][0] == {"tempura": 5, "sashimi": 0, "dumpling": 0, "nigiri": 7, "maki": 0}
    assert b[2][1] == {"tempura": 0, "sashimi": 10, "dumpling": 6, "nigiri": 2, "maki": 6}


def test_hand_worked_game_final_scores():
    game = _play_hand_game()
    result = game.result()
    assert result.puddings == (4, 2)
    assert game.kept_puddings == [4, 2]
    assert result.pudding == (6, 0)
    assert result.totals == HAND_TOTALS
    assert result.winners == (1,)
    assert game.scores() == list(HAND_TOTALS)


def test_scores_during_game():
    game = Game(2, auto_deal=False)
    picks0, picks1 = HAND_GAME[0]
    game.deal(_hands_for(picks0, picks1))
    assert game.result().rounds == ()
    assert game.scores() == [0, 0]
    for t in range(10):
        game.play([picks0[t], picks1[t]])
    assert game.phase is Phase.DEAL
    assert game.result().rounds == (HAND_ROUNDS[0],)
    assert game.result().pudding == (0, 0)  # pudding only at game end
    assert game.scores() == list(HAND_ROUNDS[0])
    assert game.puddings() == [1, 2]


def test_commit_path_equals_play_path():
    a = _play_hand_game(use_commit=False)
    b = _play_hand_game(use_commit=True)
    assert a.history() == b.history()
    assert a.result() == b.result()
    assert to_record(a) == to_record(b)


def test_game_over_rejects_moves():
    game = _play_hand_game()
    assert game.legal_actions(0) == []
    assert game.pending_seats == []
    with pytest.raises(GameOverError):
        game.play([0, 0])
    with pytest.raises(GameOverError):
        game.commit(0, 0)
    assert not game.is_legal(0, 0)
    with pytest.raises(DealError):
        game.deal([[T] * 10, [T] * 10])


# ================================================================= commit / play

def _random_game_commit_vs_play(players, seed, options):
    rules = Rules(players, **options)
    rnd = random.Random(seed)
    a = Game(rules, seed=seed)
    b = Game(rules, seed=seed)
    while not a.is_over:
        actions = [rnd.choice(a.legal_actions(s)) for s in range(players)]
        a.play(actions)
        order = list(range(players))
        rnd.shuffle(order)
        for i, s in enumerate(order):
            assert b.commit(s, actions[s]) is (i == players - 1)
        assert snapshot(a) == snapshot(b)
    return a, b


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"pass_both_ways": True}, {"reshuffle": True}])
def test_commit_equals_play_random(players, options):
    for seed in range(5):
        a, b = _random_game_commit_vs_play(players, seed, options)
        assert a.result() == b.result()
        assert to_record(a) == to_record(b)


def test_illegal_commit_leaves_state_unchanged():
    game = dealt(3, [[SQ, T], [W], [E]])
    game.commit(1, W)
    before = snapshot(game)
    missing = next(c for c in range(12) if c not in game.hands[0])
    with pytest.raises(IllegalActionError):
        game.commit(0, missing)
    with pytest.raises(IllegalActionError):
        game.commit(0, encode((SQ, T)))  # no chopsticks in the collection
    with pytest.raises(IllegalActionError):
        game.commit(5, SQ)  # no such seat
    with pytest.raises(InvalidActionError):
        game.commit(0, NUM_ACTIONS)
    with pytest.raises(InvalidActionError):
        game.commit(0, -1)
    with pytest.raises(InvalidActionError):
        game.commit(0, "squid")  # type: ignore[arg-type]
    assert snapshot(game) == before
    game.commit(0, SQ)
    game.commit(2, E)
    assert game.collections == [[SQ], [W], [E]]


def test_illegal_play_leaves_state_unchanged():
    game = dealt(3, [[SQ], [W], [E]])
    before = snapshot(game)
    missing = next(c for c in range(12) if c not in game.hands[2])
    with pytest.raises(IllegalActionError) as info:
        game.play([SQ, W, missing])
    assert "2" in str(info.value)
    with pytest.raises(IllegalActionError):
        game.play([SQ, W])  # too few picks
    with pytest.raises(IllegalActionError):
        game.play([SQ, W, E, E])
    assert snapshot(game) == before


def test_numpy_like_ints_accepted():
    class Index:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return int(self.v)

    game = dealt(3, [[SQ], [W], [E]])
    game.play([Index(SQ), Index(W), Index(E)])
    assert game.collections == [[SQ], [W], [E]]
    assert all(type(c) is int for col in game.collections for c in col)


# ============================================================== determinism etc.

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_determinism(players):
    def run(seed):
        game = Game(Rules(players, reshuffle=players == 3), seed=seed)
        rnd = random.Random(seed)
        states = []
        while not game.is_over:
            game.play([rnd.choice(game.legal_actions(s)) for s in range(players)])
            states.append(snapshot(game))
        return game, states

    a, sa = run(42)
    b, sb = run(42)
    assert sa == sb
    assert to_record(a) == to_record(b)
    assert a.result() == b.result()
    deals = {tuple(tuple(h) for h in Game(players, seed=s).hands) for s in range(10)}
    assert len(deals) == 10


def test_rng_argument():
    a = Game(3, rng=random.Random(5))
    b = Game(3, rng=random.Random(5))
    assert a.hands == b.hands


def test_legal_actions_mask_and_is_legal_agree():
    rnd = random.Random(0)
    checked_pairs = 0
    for seed in range(40):
        players = 2 + seed % 4
        game = Game(Rules(players, pass_both_ways=seed % 2 == 1), seed=seed)
        while not game.is_over:
            for s in range(players):
                legal = game.legal_actions(s)
                mask = game.legal_action_mask(s)
                assert len(mask) == NUM_ACTIONS
                assert legal == sorted(legal) and len(set(legal)) == len(legal)
                assert [a for a in range(NUM_ACTIONS) if mask[a]] == legal
                assert [a for a in range(NUM_ACTIONS) if game.is_legal(s, a)] == legal
                assert game.legal_picks(s) == [decode(a) for a in legal]
                # oracle: what docs/rules.md allows
                hand = Counter(game.hands[s])
                chop = CH in game.collections[s] and len(game.hands[s]) >= 2
                expected = sorted(
                    [c for c in range(12) if hand[c]]
                    + ([12 + 12 * a + b for a in range(12) for b in range(12)
                        if hand[a] and hand[b] and (a != b or hand[a] >= 2)] if chop else [])
                )
                assert legal == expected
                checked_pairs += chop
            # prefer chopsticks pairs so that they happen often
            game.play(random_actions(game, rnd, 0.5))
    assert checked_pairs > 50


def test_clone_independence():
    game = Game(4, seed=8)
    rnd = random.Random(1)
    for _ in range(5):
        game.play([rnd.choice(game.legal_actions(s)) for s in range(4)])
    game.commit(2, game.legal_actions(2)[0])
    clone = game.clone()
    assert snapshot(clone) == snapshot(game)
    before = snapshot(game)
    # play the clone to the end: the original does not change
    while not clone.is_over:
        for s in clone.pending_seats:
            clone.commit(s, clone.legal_actions(s)[-1])
    assert snapshot(game) == before
    # and the other way round
    clone2 = game.clone()
    before2 = snapshot(clone2)
    for s in game.pending_seats:
        game.commit(s, game.legal_actions(s)[0])
    assert snapshot(clone2) == before2


def test_clone_replays_identically_including_future_deals():
    game = Game(Rules(3, reshuffle=True), seed=13)
    game.play(first_legal(game))
    clone = game.clone()
    while not game.is_over:
        acts = first_legal(game)
        game.play(acts)
        clone.play(acts)
        assert snapshot(game) == snapshot(clone)
    assert game.result() == clone.result()


def test_history_matches_actions():
    game = Game(3, seed=4)
    dealt0 = [tuple(h) for h in game.hands]
    played = []
    while game.round == 1:
        acts = first_legal(game)
        played.append(acts)
        game.play(acts)
    hist = game.history()
    assert hist[0][0] == dealt0
    assert hist[0][1] == played
    assert len(hist) == 2 and hist[1][1] == []


def test_repr():
    game = Game(3, seed=1)
    assert "3 players" in repr(game)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playout_matches_turn_by_turn_play(players):
    # Game.random_playout documents that it plays exactly the game that
    # play([legal[int(rng.random() * len(legal))] ...]) would, turn by turn.
    for seed in range(5):
        rules = Rules(players, pass_both_ways=seed % 2 == 0, reshuffle=seed % 3 == 0)
        a = Game(rules, seed=seed)
        b = Game(rules, seed=seed)
        a.random_playout(random.Random(seed))
        rnd = random.Random(seed)
        while not b.is_over:
            acts = []
            for s in range(players):
                legal = b.legal_actions(s)
                acts.append(legal[int(rnd.random() * len(legal))])
            b.play(acts)
        assert a.is_over
        assert to_record(a) == to_record(b)
        assert total_cards(a) == list(DECK_COUNT_LIST)


def test_random_playout_keeps_committed_picks_and_finishes() -> None:
    """A rollout from a half-committed turn keeps those picks (regression:
    it used to commit later seats into the next turn and crash)."""
    import random as _random

    for seed in range(200):
        game = Game(3, seed=seed)
        committed = game.legal_actions(2)[0]
        game.commit(2, committed)
        game.random_playout(_random.Random(seed))
        assert game.is_over
        assert game.pending_seats == []
        assert game.history()[0][1][0][2] == committed


def test_round_collections_of_finished_and_current_rounds() -> None:
    import random as _random

    from sushigo.engine.base.scoring import score_round as _score_round

    rng = _random.Random(8)
    for seed in range(40):
        game = Game(rng.randint(2, 5), seed=seed)
        while not game.is_over:
            current = game.round
            assert game.round_collections(current) == [game.collection(s) for s in range(game.players)]
            game.play([rng.choice(game.legal_actions(s)) for s in range(game.players)])
            if game.round != current or game.is_over:
                finished = game.round_collections(current)
                assert _score_round(finished) == game.round_breakdowns[current - 1]
                # every turn adds one card net (a chopsticks pair puts one back)
                assert all(len(c) == game.rules.hand_size for c in finished)
        with pytest.raises(ValueError):
            game.round_collections(4)


def test_playing_a_clone_leaves_the_original_rounds_alone():
    """Regression: the list of finished rounds was shared, so a clone played
    to the end appended its rounds to the original's."""
    game = Game(3, seed=1)
    clone = game.clone()
    clone.random_playout(random.Random(2))
    assert game.round == 1 and game.round_breakdowns == []
    with pytest.raises(ValueError):
        game.round_collections(2)
    assert len(clone.round_breakdowns) == 3
