"""The PettingZoo and Gymnasium environments: API tests, seeds, and the game
they play checked against the engine."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import sushigo.envs.gym_env  # noqa: F401  (registers SushiGo-v0)
from sushigo.engine.base.view import seat_view
from sushigo.engine.editions import (
    new_game,
    replay,
)
from sushigo.envs import sushigo_v0
from sushigo.envs.observation import encode, kinds
from sushigo.envs.rewards import final_rewards

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CONFIGS: list[dict[str, Any]] = [
    {"num_players": 2},
    {"num_players": 4},
    {"num_players": 5, "pass_both_ways": True, "reshuffle": True},
    {"num_players": 4, "edition": "party", "menu": "Master Menu"},
    {"num_players": 8, "edition": "party", "menu": "Big Banquet"},
]


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda k: "-".join(str(v) for v in k.values()))
def test_pettingzoo_api_and_seed_tests_pass(kwargs: dict[str, Any]) -> None:
    parallel_api_test(sushigo_v0.parallel_env(**kwargs), num_cycles=200)
    parallel_seed_test(lambda: sushigo_v0.parallel_env(**kwargs), num_cycles=200)
    api_test(sushigo_v0.env(**kwargs), num_cycles=200)
    seed_test(lambda: sushigo_v0.env(**kwargs), num_cycles=200)


def _play(env: Any, seed: int, rng: random.Random) -> tuple[list[tuple[int, int]], dict[str, Any], dict[str, float]]:
    """Random legal play through the parallel env; return (seat, action) in commit order."""
    obs, _ = env.reset(seed=seed)
    moves: list[tuple[int, int]] = []
    total = dict.fromkeys(env.possible_agents, 0.0)
    infos: dict[str, Any] = {}
    while env.agents:
        acts = {}
        for i, a in enumerate(env.possible_agents):
            legal = np.flatnonzero(obs[a]["action_mask"])
            if legal.size:
                acts[a] = int(rng.choice(list(legal)))
                moves.append((i, acts[a]))
        obs, rewards, _, _, infos = env.step(acts)
        for a, r in rewards.items():
            total[a] += r
    return moves, infos, total


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda k: "-".join(str(v) for v in k.values()))
def test_episodes_are_the_engines_games(kwargs: dict[str, Any]) -> None:
    """The env's game equals the engine's for the same seed and decisions; the
    record replays to the same scores; rewards follow the chosen rule."""
    for reward in ("margin", "win", "rank"):
        env = sushigo_v0.parallel_env(**kwargs, reward=reward)
        for seed in range(3):
            moves, infos, total = _play(env, seed, random.Random(seed))
            game = new_game(env.unwrapped.rules, seed=seed)
            for seat, action in moves:
                game.commit(seat, action)
            result = game.result()
            assert game.is_over
            assert infos["player_0"]["scores"] == list(result.totals)
            assert infos["player_0"]["winners"] == list(result.winners)
            assert list(replay(env.unwrapped.record()).result().totals) == list(result.totals)
            expected = final_rewards(result.totals, result.winners, reward)
            assert [total[a] for a in env.possible_agents] == pytest.approx(expected)
            if reward == "margin":
                assert sum(expected) == pytest.approx(0.0)
            if reward == "win":
                assert sum(expected) == pytest.approx(1.0)


def test_observation_layout_matches_the_table() -> None:
    """Hand counts first, then collections rotated so that the observer is first."""
    game = new_game(4, seed=9)
    rng = random.Random(2)
    for _ in range(3):  # three turns in
        game.play([rng.choice(game.legal_actions(s)) for s in range(4)])
    k = kinds("base")
    for seat in range(4):
        obs = encode(seat_view(game, seat))
        assert list(obs[:k]) == [sum(int(c) == t for c in game.hand(seat)) for t in range(k)]
        for pos in range(4):
            other = (seat + pos) % 4
            block = obs[k + pos * k:k + (pos + 1) * k]
            assert list(block) == [sum(int(c) == t for c in game.collection(other)) for t in range(k)]


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = sushigo_v0.parallel_env(num_players=3)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    acts["player_1"] = illegal
    _, rewards, terms, _, infos = env.step(acts)
    assert rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}
    assert all(terms.values()) and env.agents == []
    assert infos["player_0"]["illegal_action"] == ["player_1"]
    strict = sushigo_v0.parallel_env(num_players=3, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(acts)


@pytest.mark.parametrize("kwargs", [
    {"num_players": 4},
    {"num_players": 3, "opponents": ["random", "ismcts:iterations=20"], "seat": 2},
    {"num_players": 5, "edition": "party", "menu": "Points Platter"},
])
def test_gymnasium_env_passes_check_env_and_masks_are_the_legal_actions(kwargs: dict[str, Any]) -> None:
    env = gymnasium.make("SushiGo-v0", **kwargs).unwrapped
    check_env(env)
    _obs, info = env.reset(seed=4)
    done = False
    rng = random.Random(0)
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and (mask == info["action_mask"].astype(bool)).all()
        game = env._par.game
        assert sorted(np.flatnonzero(mask)) == sorted(game.legal_actions(env.seat))
        _obs, _reward, done, _truncated, info = env.step(int(rng.choice(list(np.flatnonzero(mask)))))
    assert len(info["scores"]) == kwargs["num_players"]
    assert list(replay(env.record()).result().totals) == info["scores"]
