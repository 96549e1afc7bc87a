"""Property tests over thousands of random games (all player counts and options).

Every game is played by a random legal policy that mixes ``play()`` and
``commit()`` (in random seat order) and uses chopsticks often.  The checks
use bookkeeping kept independently of the engine (collections and puddings
rebuilt from the picks) and the pure scoring functions.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policies import random_actions
from sushigo import Card, Game, Rules
from sushigo.engine.base.actions import NUM_ACTIONS, card_ids
from sushigo.engine.base.cards import DECK_COUNT_LIST, full_deck
from sushigo.engine.base.game import total_cards
from sushigo.engine.base.scoring import maki_awards, maki_icons, pudding_awards, score_collection, winners
from sushigo.engine.base.view import seat_view, spectator_view
from sushigo.engine.editions import replay, to_record

CH = int(Card.CHOPSTICKS)
P = int(Card.PUDDING)
FULL = Counter(full_deck())

GAMES = st.tuples(
    st.integers(2, 5),                 # players
    st.booleans(),                     # pass_both_ways
    st.booleans(),                     # reshuffle
    st.integers(0, 2**32 - 1),         # seed of the deal
    st.integers(0, 2**32 - 1),         # seed of the policy
)
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


def pick_actions(game: Game, rnd: random.Random) -> list[int]:
    return random_actions(game, rnd, 0.5)


def advance(game: Game, actions: list[int], rnd: random.Random) -> None:
    """One turn, by play() or by commit() in a random seat order."""
    if rnd.random() < 0.5:
        game.play(actions)
    else:
        order = list(range(game.players))
        rnd.shuffle(order)
        for i, s in enumerate(order):
            done = game.commit(s, actions[s])
            assert done is (i == game.players - 1)


def physical_count(game: Game) -> Counter:
    """Every card where it physically lies (without the engine's card_locations)."""
    c = Counter(game.deck)
    c.update(game.discard)
    for h in game.hands:
        c.update(h)
    for col in game.collections:
        c.update(col)
    c[P] += sum(game.kept_puddings)
    return c


def simulate(players, pbw, reshuffle, deal_seed, policy_seed, on_turn=None):
    """Play a random game; check the per-turn invariants; return game and bookkeeping."""
    rules = Rules(players, pass_both_ways=pbw, reshuffle=reshuffle)
    game = Game(rules, seed=deal_seed)
    rnd = random.Random(policy_seed)
    k = rules.hand_size
    mine = [[] for _ in range(players)]         # collections rebuilt from the picks
    puddings = [0] * players
    round_cols = []
    while not game.is_over:
        before = [len(h) for h in game.hands]
        rnd_before, turn_before = game.round, game.turn
        assert before == [k - turn_before + 1] * players
        actions = pick_actions(game, rnd)
        if on_turn:
            on_turn(game, actions)
        advance(game, actions, rnd)
        for s, a in enumerate(actions):
            cards = card_ids(a)
            if len(cards) == 2:
                assert CH in mine[s]
                mine[s].remove(CH)
            mine[s].extend(cards)
        # conservation after every turn
        assert physical_count(game) == FULL
        assert total_cards(game) == list(DECK_COUNT_LIST)
        if game.round == rnd_before and not game.is_over:
            # all hands the same size, each one card smaller, chopsticks turns included
            assert [len(h) for h in game.hands] == [b - 1 for b in before]
            assert game.turn == turn_before + 1
            assert [sorted(c) for c in game.collections] == [sorted(c) for c in mine]
        else:
            assert turn_before == k
            round_cols.append(mine)
            for s in range(players):
                puddings[s] += mine[s].count(P)
            mine = [[] for _ in range(players)]
            assert game.collections == [[] for _ in range(players)]
            assert game.kept_puddings == puddings
            if not game.is_over:
                assert game.round == rnd_before + 1 and game.turn == 1
                assert [len(h) for h in game.hands] == [k] * players
                if reshuffle:
                    assert game.discard == []
                    assert len(game.deck) == 108 - sum(puddings) - players * k
                else:
                    assert len(game.deck) == 108 - game.round * players * k
    assert len(round_cols) == 3
    return game, round_cols, puddings


@pytest.mark.slow
@settings(max_examples=1500, **SETTINGS)
@given(GAMES)
def test_invariants_and_scores(params):
    game, round_cols, puddings = simulate(*params)
    players = params[0]
    result = game.result()
    # round scores from the pure scoring functions and the rebuilt collections
    expected_rounds = []
    for r, cols in enumerate(round_cols):
        awards = maki_awards([maki_icons(c) for c in cols])
        line = []
        for s, cards in enumerate(cols):
            b = score_collection(cards)
            b["maki"] = awards[s]
            assert game.round_breakdowns[r][s] == b
            line.append(sum(b.values()))
        expected_rounds.append(tuple(line))
    assert result.rounds == tuple(expected_rounds)
    assert result.puddings == tuple(puddings)
    assert result.pudding == tuple(pudding_awards(puddings))
    totals = [sum(r[s] for r in expected_rounds) + result.pudding[s] for s in range(players)]
    assert list(result.totals) == totals
    assert list(result.winners) == winners(totals, puddings)
    assert game.scores() == totals
    # no hand survives the game; every dealt card was played
    assert all(h == [] for h in game.hands)


@pytest.mark.slow
@settings(max_examples=800, **SETTINGS)
@given(GAMES)
def test_record_round_trip_and_replay(params):
    game, _, _ = simulate(*params)
    record = to_record(game)
    text = json.dumps(record)
    again = replay(json.loads(text))
    assert again.is_over
    assert again.result() == game.result()
    assert again.history() == game.history()
    record2 = to_record(again)
    expected = dict(record)
    meta = expected.pop("meta")
    assert meta == {"seed": params[3]}
    assert record2 == expected
    assert json.loads(json.dumps(record2)) == record2
    # the result stored in the record is what replay reports
    assert record["result"]["totals"] == list(game.result().totals)


@pytest.mark.slow
@settings(max_examples=500, **SETTINGS)
@given(GAMES)
def test_views_never_show_unseen_cards(params):
    players = params[0]
    state = {}

    def on_turn(game, actions):
        if game.turn == 1:
            state["pile_at"] = list(range(players))
            state["held"] = [{s} for s in range(players)]
        else:
            step = game.pass_step
            new = [0] * players
            for s in range(players):
                new[(s + step) % players] = state["pile_at"][s]
            state["pile_at"] = new
            for s in range(players):
                state["held"][s].add(new[s])
        pile_at, held = state["pile_at"], state["held"]
        for viewer in range(players):
            view = seat_view(game, viewer)
            assert list(view.hand) == game.hands[viewer]
            for k in range(players):
                if pile_at[k] in held[viewer]:
                    assert list(view.known_hands[k]) == game.hands[k]
                else:
                    assert view.known_hands[k] is None
                    assert set(view.known_cards[k]) <= {Card.CHOPSTICKS}
                    assert len(view.known_cards[k]) <= game.hands[k].count(CH)
        spec = spectator_view(game)
        assert spec.hand is None and spec.known_hands == (None,) * players
        for k in range(players):
            assert set(spec.known_cards[k]) <= {Card.CHOPSTICKS}
            assert len(spec.known_cards[k]) <= game.hands[k].count(CH)

    simulate(*params, on_turn=on_turn)


@pytest.mark.slow
@settings(max_examples=200, **SETTINGS)
@given(GAMES)
def test_legal_actions_agree_with_mask_and_check(params):
    def on_turn(game, actions):
        for s in range(game.players):
            legal = game.legal_actions(s)
            mask = game.legal_action_mask(s)
            assert [a for a in range(NUM_ACTIONS) if mask[a]] == legal
            assert [a for a in range(NUM_ACTIONS) if game.is_legal(s, a)] == legal
            hand = Counter(game.hands[s])
            for a in legal:
                assert Counter(card_ids(a)) <= hand

    simulate(*params, on_turn=on_turn)


@settings(max_examples=300, **SETTINGS)
@given(GAMES, st.integers(0, 30))
def test_clone_then_same_moves_same_game(params, cut):
    players, pbw, reshuffle, deal_seed, policy_seed = params
    game = Game(Rules(players, pass_both_ways=pbw, reshuffle=reshuffle), seed=deal_seed)
    rnd = random.Random(policy_seed)
    for _ in range(cut):
        if game.is_over:
            break
        game.play(pick_actions(game, rnd))
    clone = game.clone()
    while not game.is_over:
        acts = pick_actions(game, rnd)
        game.play(acts)
        clone.play(acts)
    assert clone.result() == game.result()
    assert to_record(clone) == to_record(game)
