"""The OpenSpiel game ``python_sushigo``: OpenSpiel's own random simulation
test, and random games checked against the engine (deal, scores, rewards,
observations, information states)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from sushigo.engine.base.actions import NUM_ACTIONS  # noqa: E402
from sushigo.engine.base.cards import DECK_COUNT_LIST, NUM_CARD_TYPES, Card, count_cards  # noqa: E402
from sushigo.engine.base.game import Game  # noqa: E402
from sushigo.engine.base.view import sample_world, seat_view  # noqa: E402
from sushigo.engine.editions import replay  # noqa: E402
from sushigo.engine.errors import IllegalActionError  # noqa: E402
from sushigo.engine.observation import features, observation_size  # noqa: E402
from sushigo.engine.rules import Rules, RulesError  # noqa: E402
from sushigo.envs import openspiel as so  # noqa: E402

CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "pass_both_ways": True},
    {"players": 4, "reward": "win"},
    {"players": 5, "reward": "rank"},
    {"players": 3, "reshuffle": True},
]


def _id(params: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("params", CONFIGS, ids=_id)
def test_openspiel_random_sim_test_passes(params: dict[str, Any]) -> None:
    pyspiel.random_sim_test(so.load_game(**params), num_sims=2, serialize=True, verbose=False)


def test_the_turn_based_conversion_passes_random_sim_test() -> None:
    game = pyspiel.convert_to_turn_based(so.load_game(players=3))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _expected_outcomes(state: Any, rules: Rules, dealt_before: list[int], drawn: list[int]) -> list[int]:
    """Copies of each kind left to draw, computed without the adapter: the full
    deck minus every card dealt so far; with reshuffle, minus the puddings
    kept and this round's draws only (everything else went back)."""
    if rules.reshuffle:
        gone = count_cards(drawn)
        gone[Card.PUDDING] += sum(state.engine.kept_puddings)
    else:
        gone = count_cards(dealt_before + drawn)
    return [DECK_COUNT_LIST[c] - gone[c] for c in range(NUM_CARD_TYPES)]


def _play(params: dict[str, Any], seed: int) -> None:
    """One random game through pyspiel, checking every node, then replayed on the engine."""
    game = so.load_game(**params)
    rules, reward = game.rules, game.reward
    n, k = rules.players, rules.hand_size
    rng = random.Random(seed)
    state = game.new_initial_state()
    dealt: list[list[list[int]]] = []  # [round][seat] hands, as drawn
    turns: list[list[list[int]]] = []  # [round][turn] picks
    all_drawn: list[int] = []
    drawn: list[int] = []
    infostates: list[str] = [""] * n
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            expected = _expected_outcomes(state, rules, all_drawn, drawn)
            left = sum(expected)
            assert [c for c, _ in outcomes] == [c for c in range(NUM_CARD_TYPES) if expected[c]]
            assert all(p == pytest.approx(expected[c] / left) for c, p in outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            kinds, probs = zip(*outcomes)
            card = rng.choices(kinds, probs)[0]
            state.apply_action(card)
            drawn.append(card)
            if len(drawn) == n * k:
                dealt.append([drawn[s * k:(s + 1) * k] for s in range(n)])
                turns.append([])
                assert [list(h) for h in state.engine.hands] == dealt[-1]  # seat 0's hand drawn first
                all_drawn += drawn
                drawn = []
            continue
        assert state.is_simultaneous_node()
        engine = state.engine
        for p in range(n):
            view = seat_view(engine, p)
            assert state.legal_actions(p) == engine.legal_actions(p)
            obs = np.asarray(state.observation_tensor(p), np.float32)
            assert np.array_equal(obs, np.asarray(features(view), np.float32))
            assert json.loads(state.observation_string(p)) == view.to_json()
            info = state.information_state_string(p)
            assert info.startswith(infostates[p])  # perfect recall: nothing is ever forgotten
            infostates[p] = info
            world = sample_world(engine, p, seed=seed + p)  # hidden cards redealt: nothing leaks
            assert so.information_state_string(world, p) == info
        picks = [rng.choice(state.legal_actions(p)) for p in range(n)]
        state.apply_actions(picks)
        turns[-1].append(picks)
    assert state.move_number() == game.max_game_length()
    assert len(dealt) == 3 and all(len(t) == k for t in turns)

    engine = Game(rules, auto_deal=False)
    for hands, picks_of_round in zip(dealt, turns):
        engine.deal(hands)
        for picks in picks_of_round:
            engine.play(picks)
    result = engine.result()
    assert engine.is_over and result == state.engine.result()
    returns = state.returns()
    assert returns == so.final_rewards(result.totals, result.winners, reward)
    assert sum(returns) == pytest.approx(game.utility_sum())
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    assert replay(state.record()).result() == result


@pytest.mark.parametrize("params", CONFIGS, ids=_id)
def test_random_games_match_the_engine(params: dict[str, Any]) -> None:
    _play(params, seed=len(_id(params)))


def _dealt_state(params: dict[str, Any]) -> Any:
    state = so.load_game(**params).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_game_type_and_info() -> None:
    game = so.load_game()
    gtype = game.get_type()
    assert gtype.short_name == "python_sushigo"
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gtype.min_num_players, gtype.max_num_players) == (2, 5)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == NUM_CARD_TYPES
    assert game.max_game_length() == 3 * 8 * 5
    assert game.observation_tensor_shape() == [observation_size(4)]
    win = so.load_game(players=2, reward="win")
    assert win.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (win.utility_sum(), win.min_utility(), win.max_utility()) == (1.0, 0.0, 1.0)
    assert so.load_game(reward="rank").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert str(pyspiel.load_game("python_sushigo(players=5,pass_both_ways=True)")) == (
        "python_sushigo(pass_both_ways=True,players=5,reshuffle=False,reward=margin)")


@pytest.mark.parametrize(
    ("params", "error", "match"),
    [
        ({"players": 6}, RulesError, "2-5 players"),
        ({"players": 1}, RulesError, "2-5 players"),
        ({"reward": "x"}, ValueError, "reward must be one of"),
        ({"colour": "red"}, pyspiel.SpielError, "Unknown parameter"),
    ],
)
def test_parameters_are_validated(params: dict[str, Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        so.load_game(**params)


def test_an_illegal_pick_raises_and_changes_nothing() -> None:
    state = _dealt_state({"players": 3})
    before, history = str(state), state.history()
    illegal = next(c for c in range(NUM_CARD_TYPES) if c not in state.legal_actions(1))
    picks = [state.legal_actions(0)[0], illegal, state.legal_actions(2)[0]]
    with pytest.raises(IllegalActionError, match="seat 1"):
        state.apply_actions(picks)
    with pytest.raises(IllegalActionError, match="chopsticks"):
        state.apply_actions([NUM_CARD_TYPES + 1] * 3)  # a chopsticks pair with none played
    with pytest.raises(ValueError, match="chance nodes"):
        state.apply_action(state.legal_actions(0)[0])
    assert (str(state), state.history()) == (before, history)
    state.apply_actions([state.legal_actions(p)[0] for p in range(3)])  # still playable


def test_an_impossible_chance_outcome_raises() -> None:
    state = so.load_game(players=2).new_initial_state()
    for _ in range(DECK_COUNT_LIST[Card.CHOPSTICKS]):
        state.apply_action(int(Card.CHOPSTICKS))
    assert int(Card.CHOPSTICKS) not in [c for c, _ in state.chance_outcomes()]
    with pytest.raises(ValueError, match="not a card left"):
        state.apply_action(int(Card.CHOPSTICKS))
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal tempura"


def test_strings_and_observers() -> None:
    state = _dealt_state({"players": 2})
    assert state.action_to_string(0, 12 + 12 * 9 + 6) == "wasabi+egg"
    assert str(state).startswith("round 1, turn 1\nseat 0: hand [")
    assert state.information_state_string(1).splitlines() == [
        "seat 1 of 2",
        "r1t1 hand=" + ",".join(c.name_in_records for c in state.engine.hand(1)),
    ]
    game = state.get_game()
    with pytest.raises(ValueError, match="SINGLE_PLAYER"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                         private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    assert list(observer.dict) == ["observation"]
    assert np.array_equal(observer.tensor, np.asarray(features(seat_view(state.engine, 1)), np.float32))


def test_the_order_cards_are_drawn_in_is_not_part_of_the_information_state() -> None:
    states = []
    for order in (1, -1):
        state = so.load_game(players=2).new_initial_state()
        hand = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9][::order]
        rest = [9, 9, 10, 10, 11, 11, 0, 0, 1, 1]
        for card in hand + rest:
            state.apply_action(card)
        states.append(state)
    assert states[0].information_state_string(0) == states[1].information_state_string(0)
    with pytest.raises(ValueError, match="ask legal_actions\\(player\\) for each seat"):
        states[0].legal_actions()


def test_openspiels_rl_environment_plays_it() -> None:
    """OpenSpiel's RL loop (chance sampled inside, every seat acting at once)
    plays whole games; the final rewards are the engine's margins."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("python_sushigo", players=3)
    assert env.observation_spec()["info_state"] == (observation_size(3),)
    rng = random.Random(0)
    for _ in range(3):
        ts = env.reset()
        steps = 0
        while not ts.last():
            ts = env.step([rng.choice(ts.observations["legal_actions"][p]) for p in range(3)])
            steps += 1
        assert steps == 27
        result = env.get_state.engine.result()
        assert ts.rewards == so.final_rewards(result.totals, result.winners, "margin")
