"""The batch environments (``sushigo.envs.vector``) against the engine: rewards,
episodes, observations, masks and opponents, replayed game by game on
:class:`sushigo.engine.base.game.Game` with the same deals and picks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from sushigo.engine.base.game import Game  # noqa: E402
from sushigo.engine.base.view import seat_view  # noqa: E402
from sushigo.engine.observation import observation_size, padded_positions  # noqa: E402
from sushigo.engine.rules import Rules  # noqa: E402
from sushigo.envs.observation import encode  # noqa: E402
from sushigo.envs.rewards import final_rewards  # noqa: E402
from sushigo.envs.vector import BatchEnv, SushiGoVectorEnv, batch_rewards, random_policy  # noqa: E402

Array = Any
KINDS = ("margin", "win", "rank")


# ------------------------------------------------------------------ helpers


def _deal_engines(engines: list[Game], dealt: Array) -> None:
    """Deal every engine game its row of ``dealt`` (``[B, N, H]`` card ids)."""
    for g, game in enumerate(engines):
        game.deal([[int(c) for c in dealt[g, s]] for s in range(dealt.shape[1])])


def _engine_winner_flags(game: Game) -> list[bool]:
    winners = set(game.result().winners)
    return [s in winners for s in range(game.players)]


def _round_offset(players: int) -> int:
    """Index of the round one-hot in an unpadded observation (hand, collections,
    wasabi, puddings, scores come first)."""
    return 12 + 12 * players + 3 * players


def _lowest_legal(obs: Array, mask: Array) -> Array:
    """A batch policy: the lowest legal action id of every row."""
    out: Array = mask.argmax(axis=1)
    return out


# ------------------------------------------------------------------ batch_rewards


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_batch_rewards_equal_final_rewards_row_by_row(players: int) -> None:
    """3,000 rows of totals drawn from a narrow range (many ties), winners from
    the engine's tie-break on random puddings or random non-empty sets: every
    kind of reward equals :func:`final_rewards` of each row."""
    rng = np.random.default_rng(players)
    rows = 3000
    totals = rng.integers(-6, 12, size=(rows, players))
    puddings = rng.integers(0, 3, size=(rows, players))
    tied = totals == totals.max(axis=1, keepdims=True)
    most = np.where(tied, puddings, -1).max(axis=1, keepdims=True)
    winners = tied & (puddings == most)
    random_sets = rng.random((rows, players)) < 0.4
    random_sets[np.arange(rows), rng.integers(0, players, rows)] = True  # never empty
    winners[rows // 2:] = random_sets[rows // 2:]
    assert (winners.sum(axis=1) > 1).any()  # shared wins are exercised
    assert (np.sort(totals, axis=1)[:, 1:] == np.sort(totals, axis=1)[:, :-1]).any()  # ties too
    for kind in KINDS:
        got = batch_rewards(totals, winners, kind)
        assert got.shape == (rows, players) and got.dtype == np.float32
        expected = np.array([final_rewards([int(t) for t in totals[r]],
                                           [int(s) for s in np.flatnonzero(winners[r])], kind)
                             for r in range(rows)])
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6, err_msg=kind)


def test_batch_rewards_refuse_an_unknown_kind() -> None:
    """An unknown reward kind raises ValueError naming the valid ones, in
    ``batch_rewards`` and in both environments' constructors."""
    totals, winners = np.array([[3, 1]]), np.array([[True, False]])
    with pytest.raises(ValueError, match=r"margin, win, rank.*'score'"):
        batch_rewards(totals, winners, "score")
    with pytest.raises(ValueError, match="reward must be one of"):
        BatchEnv(3, 4, reward="score")
    with pytest.raises(ValueError, match="reward must be one of"):
        SushiGoVectorEnv(4, 3, reward="score")
    with pytest.raises(ValueError, match="num_envs"):
        BatchEnv(3, 0)


def test_random_policy_picks_only_legal_actions_and_all_of_them() -> None:
    """``random_policy`` draws within each row's mask and reaches every legal
    action of a row over many draws."""
    rng = np.random.default_rng(0)
    mask = rng.random((50, 156)) < 0.05
    mask[:, 7] = True
    policy = random_policy(np.random.default_rng(1))
    seen = np.zeros_like(mask)
    for _ in range(400):
        picks = policy(np.zeros((50, 3)), mask)
        assert picks.shape == (50,)
        assert mask[np.arange(50), picks].all()
        seen[np.arange(50), picks] = True
    assert (seen == mask).all()


# ------------------------------------------------------------------ BatchEnv


@pytest.mark.parametrize("players,pass_both_ways,reward",
                         [(2, False, "margin"), (3, True, "win"), (4, False, "rank"), (5, True, "margin")])
def test_batch_env_episodes_are_the_engines_games(players: int, pass_both_ways: bool, reward: str) -> None:
    """A full episode of 24 games with random legal picks, replayed on the
    engine from ``env.game.dealt``: masks and every seat's observations equal
    the engine's at every step; rewards are 0 and ``done`` False until the last
    of ``3 * hand_size`` steps; then the masks are all False, ``scores`` and
    ``winners`` are the engine's and the rewards its ``final_rewards``."""
    rules = Rules(players, pass_both_ways=pass_both_ways)
    games = 24
    env = BatchEnv(rules=rules, num_envs=games, reward=reward, seed=players)
    obs, mask = env.reset()
    d = observation_size(players)
    assert env.players == players and env.observation_size == d
    assert obs.shape == (games, players, d) and obs.dtype == np.float32
    assert mask.shape == (games, players, 156) and mask.dtype == bool
    engines = [Game(rules, auto_deal=False) for _ in range(games)]
    steps = 3 * rules.hand_size
    for step in range(1, steps + 1):
        if env.game.turn == 1:
            _deal_engines(engines, env.game.dealt)
        for g, game in enumerate(engines):
            for s in range(players):
                assert list(mask[g, s]) == game.legal_action_mask(s), (step, g, s)
                assert (obs[g, s] == encode(seat_view(game, s))).all(), (step, g, s)
        actions = env.game.random_actions(env.rng)
        obs, mask, rewards, done, info = env.step(actions)
        for g, game in enumerate(engines):
            game.play([int(a) for a in actions[g]])
        assert rewards.shape == (games, players) and rewards.dtype == np.float32
        if step < steps:
            assert done is False and info == {}
            assert (rewards == 0).all()
            assert not any(game.is_over for game in engines)
    assert done is True
    assert all(game.is_over for game in engines)
    assert not mask.any() and mask.shape == (games, players, 156)
    for g, game in enumerate(engines):
        result = game.result()
        assert [int(t) for t in info["scores"][g]] == list(result.totals)
        assert [bool(w) for w in info["winners"][g]] == _engine_winner_flags(game)
        expected = final_rewards(list(result.totals), list(result.winners), reward)
        np.testing.assert_allclose(rewards[g], expected, rtol=1e-6, atol=1e-6)
        for s in range(players):  # the observation after the last reveal too
            assert (obs[g, s] == encode(seat_view(game, s))).all()
    with pytest.raises(ValueError, match="over"):
        env.step(actions)


def test_batch_env_same_seed_same_episodes() -> None:
    """Two environments with the same seed, and ``reset(seed=)`` twice, give
    identical observations, masks and rewards; another seed other deals."""

    def episode(env: BatchEnv, seed: int | None) -> list[Array]:
        obs, mask = env.reset(seed=seed)
        out = [obs, mask]
        done = False
        while not done:
            obs, mask, rewards, done, _ = env.step(env.game.random_actions(env.rng))
            out += [obs, mask, rewards]
        return out

    a, b = BatchEnv(3, 20, seed=11), BatchEnv(3, 20, seed=11)
    first, second = episode(a, None), episode(b, None)
    assert len(first) == len(second) == 2 + 3 * 3 * Rules(3).hand_size
    assert all((x == y).all() and x.dtype == y.dtype for x, y in zip(first, second))
    again = [episode(a, 5), episode(a, 5), episode(BatchEnv(3, 20), 5)]
    for other in again[1:]:
        assert all((x == y).all() for x, y in zip(again[0], other))
    assert not (episode(a, 6)[0] == again[0][0]).all()
    assert not (episode(a, None)[0] == again[0][0]).all()  # an unseeded reset moves on


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_batch_env_padded_observations_are_the_five_player_layout(players: int) -> None:
    """``padded=True``: D = 161 at every table size, holding the unpadded
    observation (same seed, same picks) at ``padded_positions`` and 0 elsewhere."""
    plain = BatchEnv(players, 10, seed=3)
    padded = BatchEnv(players, 10, seed=3, padded=True)
    assert padded.observation_size == 161
    po, pm = padded.reset()
    uo, um = plain.reset()
    positions = padded_positions(players)
    done = False
    while True:
        assert po.shape == (10, players, 161) and po.dtype == np.float32
        assert (po[:, :, positions] == uo).all() and (pm == um).all()
        assert np.delete(po, positions, axis=2).sum() == 0
        assert uo[:, :, :12].sum() > 0 or done
        if done:
            break
        actions = plain.game.random_actions(plain.rng)
        uo, um, ur, done, _ = plain.step(actions)
        po, pm, pr, _, _ = padded.step(actions)
        assert (ur == pr).all()


def test_batch_env_refuses_an_illegal_action_naming_game_and_seat() -> None:
    """A card not in seat 1's hand of game 2 raises ValueError naming both."""
    env = BatchEnv(4, 5, seed=2)
    _, mask = env.reset()
    actions = env.game.random_actions(env.rng)
    actions[2, 1] = int(np.flatnonzero(~mask[2, 1, :12])[0])
    with pytest.raises(ValueError, match="game 2, seat 1"):
        env.step(actions)


# ------------------------------------------------------------------ SushiGoVectorEnv


def test_vector_env_spaces_shapes_and_dtypes() -> None:
    """Observations ``float32[B, D]`` inside ``observation_space``, masks
    ``bool[B, 156]`` in ``info`` and ``action_masks()``, SAME_STEP autoreset,
    padded D = 161."""
    env = SushiGoVectorEnv(num_envs=16, num_players=3)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.num_envs == 16
    assert env.single_observation_space.shape == (observation_size(3),)
    assert env.observation_space.shape == (16, observation_size(3))
    assert env.single_action_space == spaces.Discrete(156) and env.action_space.shape == (16,)
    obs, info = env.reset(seed=0)
    assert obs.shape == (16, observation_size(3)) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (16, 156) and info["action_mask"].dtype == bool
    assert (env.action_masks() == info["action_mask"]).all()
    for _ in range(5):
        actions = env.sample_legal()
        assert env.action_space.contains(actions.astype(np.int64))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)
        assert rewards.shape == (16,) and rewards.dtype == np.float32
        assert terminated.shape == truncated.shape == (16,) and terminated.dtype == bool
    padded = SushiGoVectorEnv(num_envs=4, num_players=2, padded=True)
    pobs, _ = padded.reset(seed=0)
    assert pobs.shape == (4, 161) and padded.single_observation_space.shape == (161,)
    assert padded.observation_space.contains(pobs)


@pytest.mark.parametrize("players,seat", [(2, 1), (3, 2), (4, 0), (5, 3)])
def test_vector_env_against_lowest_legal_opponents_is_the_engines_game(players: int, seat: int) -> None:
    """Opponents that always take the lowest legal action, the learner random
    legal picks: replayed on the engine (the engine choosing the opponents'
    picks itself), the learner's observations and masks equal the engine's view
    of its seat at every step, rewards are 0 until the last step, which ends
    every game, returns ``scores``/``winners`` equal to the engine's, rewards
    ``batch_rewards`` of them, ``final_obs`` the last view, and observations of
    new games at round 1, turn 1."""
    games = 16
    rules = Rules(players)
    h = rules.hand_size
    env = SushiGoVectorEnv(num_envs=games, num_players=players, seat=seat, reward="rank",
                           opponents=[_lowest_legal] * (players - 1))
    obs, info = env.reset(seed=players)
    engines = [Game(rules, auto_deal=False) for _ in range(games)]
    steps = 3 * h
    for step in range(1, steps + 1):
        if env._batch.game.turn == 1:
            _deal_engines(engines, env._batch.game.dealt)
        for g, game in enumerate(engines):
            assert list(info["action_mask"][g]) == game.legal_action_mask(seat), (step, g)
            assert (obs[g] == encode(seat_view(game, seat))).all(), (step, g)
        assert (env.action_masks() == info["action_mask"]).all()
        actions = env.sample_legal()
        obs, rewards, terminated, truncated, info = env.step(actions)
        for g, game in enumerate(engines):
            joint = [game.legal_action_mask(s).index(True) for s in range(players)]
            joint[seat] = int(actions[g])
            game.play(joint)
        assert not truncated.any()
        if step < steps:
            assert not terminated.any() and (rewards == 0).all()
            assert "final_obs" not in info and "scores" not in info
    assert terminated.all()
    assert info["_final_obs"].all() and info["final_obs"].shape == (games, observation_size(players))
    for g, game in enumerate(engines):
        assert game.is_over
        assert [int(t) for t in info["scores"][g]] == list(game.result().totals)
        assert [bool(w) for w in info["winners"][g]] == _engine_winner_flags(game)
        assert (info["final_obs"][g] == encode(seat_view(game, seat))).all()
        expected = final_rewards(list(game.result().totals), list(game.result().winners), "rank")
        assert rewards[g] == pytest.approx(expected[seat], abs=1e-6)
    np.testing.assert_array_equal(rewards, batch_rewards(info["scores"], info["winners"], "rank")[:, seat])
    # the returned observations are the first of new games (SAME_STEP autoreset)
    off = _round_offset(players)
    assert (obs[:, off:off + 3] == [1.0, 0.0, 0.0]).all()
    assert np.allclose(obs[:, off + 3], 1.0 / h)
    assert (obs[:, :12].sum(axis=1) == h).all()
    assert env._batch.game.round == 1 and env._batch.game.turn == 1 and not env._batch.game.is_over
    fresh = [Game(rules, auto_deal=False) for _ in range(games)]
    _deal_engines(fresh, env._batch.game.dealt)
    for g, game in enumerate(fresh):
        assert (obs[g] == encode(seat_view(game, seat))).all()
        assert list(info["action_mask"][g]) == game.legal_action_mask(seat)
    assert not (obs == info["final_obs"]).all()
    # and the next episode plays on
    obs, rewards, terminated, _, info = env.step(env.sample_legal())
    assert not terminated.any() and (rewards == 0).all() and env._batch.game.turn == 2


def test_vector_env_opponents_see_their_own_seats() -> None:
    """Policy opponents are called, once per step, with their own seats'
    observations (padded like the learner's) and masks, as the batch engine
    had them before the step; a ``"random"`` opponent between them plays legal
    picks; a pair picked by an opponent is applied (chopsticks return)."""
    players, seat, games = 4, 2, 24
    calls: dict[int, list[tuple[Array, Array]]] = {0: [], 1: []}

    def recorder(k: int) -> Callable[[Array, Array], Array]:
        pick = random_policy(np.random.default_rng(100 + k))

        def act(obs: Array, mask: Array) -> Array:
            calls[k].append((obs.copy(), mask.copy()))
            return pick(obs, mask)

        return act

    env = SushiGoVectorEnv(num_envs=games, num_players=players, seat=seat, padded=True,
                           opponents=[recorder(0), "random", recorder(1)])
    env.reset(seed=9)
    opponent_seats = {0: 0, 1: 3}  # recorder k plays seat opponent_seats[k]
    steps = 3 * Rules(players).hand_size
    for step in range(steps):
        before_obs = env._batch.game.observations(padded=True)
        before_mask = env._batch.game.legal_mask()
        hands = env._batch.game.hands.copy()
        env.step(env.sample_legal())
        for k, s in opponent_seats.items():
            assert len(calls[k]) == step + 1
            got_obs, got_mask = calls[k][-1]
            assert got_obs.shape == (games, 161) and got_mask.shape == (games, 156)
            assert (got_obs == before_obs[:, s]).all()
            assert (got_mask == before_mask[:, s]).all()
            assert (got_mask[:, :12] == (hands[:, s] > 0)).all()  # the mask matches its own hand
            assert (got_obs[:, :12] == hands[:, s]).all()
    assert not (calls[0][0][0] == calls[1][0][0]).all()  # different seats, different views


def test_vector_env_recorded_opponent_picks_replay_on_the_engine() -> None:
    """Random batch-policy opponents whose picks are recorded (chopsticks pairs
    included): the engine, replaying the learner's and the recorded picks on the
    same deals, ends with the scores the environment reports."""
    players, seat, games = 3, 1, 20
    picks: list[list[Array]] = [[], []]

    def recorder(k: int) -> Callable[[Array, Array], Array]:
        pick = random_policy(np.random.default_rng(k))

        def act(obs: Array, mask: Array) -> Array:
            out = pick(obs, mask)
            picks[k].append(out.copy())
            return out

        return act

    env = SushiGoVectorEnv(num_envs=games, num_players=players, seat=seat, reward="win",
                           opponents=[recorder(0), recorder(1)])
    env.reset(seed=4)
    engines = [Game(Rules(players), auto_deal=False) for _ in range(games)]
    terminated = np.zeros(games, dtype=bool)
    step = 0
    while not terminated.any():
        if env._batch.game.turn == 1:
            _deal_engines(engines, env._batch.game.dealt)
        actions = env.sample_legal()
        _, rewards, terminated, _, info = env.step(actions)
        for g, game in enumerate(engines):
            game.play([int(picks[0][step][g]), int(actions[g]), int(picks[1][step][g])])
        step += 1
    assert step == 3 * Rules(players).hand_size
    assert any(int(p.max()) >= 12 for p in picks[0] + picks[1])  # pairs were played
    for g, game in enumerate(engines):
        assert [int(t) for t in info["scores"][g]] == list(game.result().totals)
        assert rewards[g] == pytest.approx(final_rewards(list(game.result().totals),
                                                         list(game.result().winners), "win")[seat])


def test_vector_env_refuses_bad_configurations() -> None:
    """Wrong opponent count, an engine bot name and a seat outside the table
    raise ValueError with a message saying what is wrong."""
    with pytest.raises(ValueError, match="3 opponents needed for 4 players, got 2"):
        SushiGoVectorEnv(4, 4, opponents=["random", "random"])
    with pytest.raises(ValueError, match="3 opponents needed for 4 players, got 4"):
        SushiGoVectorEnv(4, 4, opponents=["random"] * 4)
    with pytest.raises(ValueError, match=r"not 'greedy'.*SushiGoEnv"):
        SushiGoVectorEnv(4, 3, opponents=["random", "greedy"])
    for seat in (-1, 3):
        with pytest.raises(ValueError, match=f"seat {seat} is not a seat of a 3-player game"):
            SushiGoVectorEnv(4, 3, seat=seat)


def test_vector_env_refuses_illegal_actions_and_step_before_reset() -> None:
    """``step`` before ``reset`` raises; an illegal learner action (a card not
    held, out of range, or a pair without chopsticks) raises ValueError naming
    the game and changes nothing (the opponents are not even asked), so a
    legal step afterwards plays turn 1."""
    asked: list[int] = []

    def counting(obs: Array, mask: Array) -> Array:
        asked.append(1)
        return _lowest_legal(obs, mask)

    env = SushiGoVectorEnv(num_envs=6, num_players=3, opponents=["random", counting])
    with pytest.raises(ValueError, match="reset"):
        env.step(np.zeros(6, dtype=np.int64))
    _, info = env.reset(seed=1)
    mask = info["action_mask"]
    legal = env.sample_legal()
    bad = legal.copy()
    bad[3] = int(np.flatnonzero(~mask[3, :12])[0])
    with pytest.raises(ValueError, match=f"illegal action {bad[3]} in game 3"):
        env.step(bad)
    for value in (156, -1, 12 + 12 * int(legal[4]) + int(legal[4])):
        bad = legal.copy()
        bad[4] = value
        with pytest.raises(ValueError, match="in game 4"):
            env.step(bad)
    with pytest.raises(ValueError, match="expected 6 actions"):
        env.step(legal[:5])
    assert env._batch.game.turn == 1 and env._batch.game.round == 1 and not asked
    assert (env.action_masks() == mask).all()
    env.step(legal)
    assert env._batch.game.turn == 2 and len(asked) == 1


def test_vector_env_same_seed_same_trajectories() -> None:
    """``reset(seed=s)`` twice (and on a fresh env, and ``seed=[s]``) gives the
    same observations, masks, rewards and scores over two episodes (through the
    autoreset) with ``sample_legal`` and random opponents; another seed differs."""
    steps = 2 * 3 * Rules(2).hand_size

    def trajectory(env: SushiGoVectorEnv, seed: Any) -> list[Array]:
        obs, info = env.reset(seed=seed)
        out = [obs, info["action_mask"]]
        for _ in range(steps):
            obs, rewards, terminated, _, info = env.step(env.sample_legal())
            out += [obs, info["action_mask"], rewards, terminated]
            if terminated.any():
                out += [info["scores"], info["final_obs"]]
        return out

    env = SushiGoVectorEnv(num_envs=16, num_players=2)
    first = trajectory(env, 5)
    assert len(first) == 2 + 4 * steps + 2 * 2  # two episodes ended
    for other in (trajectory(env, 5), trajectory(SushiGoVectorEnv(num_envs=16, num_players=2), 5),
                  trajectory(env, [5])):
        assert len(other) == len(first)
        assert all((x == y).all() for x, y in zip(first, other))
    different = trajectory(env, 6)
    assert not all((x == y).all() for x, y in zip(first, different))
    # seeded once, later unseeded resets carry on deterministically (decks and opponents)
    a, b = SushiGoVectorEnv(num_envs=16, num_players=2), SushiGoVectorEnv(num_envs=16, num_players=2)
    trajectory(a, 7), trajectory(b, 7)
    then_a, then_b = trajectory(a, None), trajectory(b, None)
    assert all((x == y).all() for x, y in zip(then_a, then_b))
    assert not (then_a[0] == trajectory(SushiGoVectorEnv(num_envs=16, num_players=2), 7)[0]).all()


@pytest.mark.slow
@pytest.mark.parametrize("players,padded", [(2, False), (4, True), (5, False)])
def test_learned_opponents_play_as_the_learned_bot(players: int, padded: bool) -> None:
    """``learned_policy`` picks, for every seat of 16 games at every turn, the
    action the ``learned`` bot picks from the engine's view (or, at a float32
    near-tie, one whose plain-Python score is within 1e-3 of the best)."""
    from sushigo.bots.learned import LearnedBot, network_input, shipped_policy
    from sushigo.engine.base.game import Game
    from sushigo.engine.base.view import seat_view
    from sushigo.envs.vector import learned_policy

    env = BatchEnv(players, 16, padded=padded, seed=players)
    obs, mask = env.reset()
    act = learned_policy(players, padded=padded)
    bot, policy = LearnedBot(seed=0), shipped_policy()
    engines = [Game(env.rules, auto_deal=False) for _ in range(16)]
    done, same, total = False, 0, 0
    while not done:
        if env.game.turn == 1:
            for g, game in enumerate(engines):
                game.deal([[int(c) for c in env.game.dealt[g, s]] for s in range(players)])
        actions = np.stack([act(obs[:, s], mask[:, s]) for s in range(players)], axis=1)
        for g, game in enumerate(engines):
            for s in range(players):
                view = seat_view(game, s)
                mine = bot.choose(view)
                total += 1
                same += mine == actions[g, s]
                if mine != actions[g, s]:
                    legal = list(view.legal_actions)
                    scores = dict(zip(legal, policy.logits(network_input(view), legal)))
                    assert scores[int(actions[g, s])] >= scores[mine] - 1e-3
            game.play([int(a) for a in actions[g]])
        obs, mask, _, done, _ = env.step(actions)
    assert same >= 0.99 * total


def test_a_vector_env_against_learned_opponents() -> None:
    env = SushiGoVectorEnv(64, 4, opponents=["learned", "learned", "random"])
    env.reset(seed=3)
    for _ in range(24):
        _, rewards, terminated, _, _info = env.step(env.sample_legal())
    assert terminated.all()
    # a random seat among two learned bots and a random one finishes below the table's mean
    assert rewards.mean() < 0


def test_actions_of_the_wrong_type_or_shape_are_refused_in_one_line() -> None:
    env = BatchEnv(3, 4, seed=0)
    _, _mask = env.reset()
    good = env.game.random_actions(env.rng).astype(np.int64)
    for bad, message in [(good.astype(float), "must be integers"), (good.reshape(-1), "shape"),
                         (good.T, "shape"), (good.astype(str), "must be integers")]:
        with pytest.raises(ValueError, match=message) as info:
            env.step(bad)
        assert "\n" not in str(info.value)
    venv = SushiGoVectorEnv(4, 3)
    venv.reset(seed=0)
    legal = venv.sample_legal()
    for bad, message in [(legal.astype(float), "must be integers"), (legal.reshape(2, 2), "shape"),
                         (legal[:3], "shape"), (np.array(["a"] * 4), "must be integers")]:
        with pytest.raises(ValueError, match=message):
            venv.step(bad)
    with pytest.raises(ValueError, match="'random', 'learned' or a function, not 1"):
        SushiGoVectorEnv(4, 3, opponents=[1, "random"])  # type: ignore[list-item]


def test_reading_the_seed_keeps_the_generator_and_final_info_follows_gymnasium() -> None:
    picks = []
    for read_seed in (False, True):
        venv = SushiGoVectorEnv(4, 3)
        venv.reset(seed=0)
        if read_seed:
            assert venv.np_random_seed == 0
        picks.append(venv.sample_legal().tolist())
    assert picks[0] == picks[1]
    venv = SushiGoVectorEnv(8, 2)
    venv.reset(seed=1)
    for _ in range(3 * 10):
        _, _, terminated, _, info = venv.step(venv.sample_legal())
    assert terminated.all() and info["_final_info"].all() and info["_final_obs"].all()
    assert (info["final_info"]["scores"] == info["scores"]).all()
    assert (info["final_info"]["winners"] == info["winners"]).all()


def test_make_vec_gives_the_batch_env_or_a_vector_of_single_envs() -> None:
    import gymnasium

    import sushigo.envs.gym_env  # noqa: F401  (registers SushiGo-v0)

    batch = gymnasium.make_vec("SushiGo-v0", num_envs=8, num_players=3, opponents=["learned", "random"])
    assert isinstance(batch, SushiGoVectorEnv) and batch.num_envs == 8
    obs, info = batch.reset(seed=0)
    assert obs.shape == (8, 103) and info["action_mask"].shape == (8, 156)
    sync = gymnasium.make_vec("SushiGo-v0", num_envs=2, vectorization_mode="sync", num_players=3,
                              opponents=["greedy", "random"])
    obs, info = sync.reset(seed=0)
    assert obs.shape == (2, 103) and info["action_mask"].shape == (2, 156)
    with pytest.raises(ValueError, match="not 'greedy'"):
        gymnasium.make_vec("SushiGo-v0", num_envs=2, num_players=3, opponents=["greedy", "random"])
