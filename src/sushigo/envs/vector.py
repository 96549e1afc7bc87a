"""Vector environments on the batch engine: thousands of games per step, for RL training.

Both play the original game on :class:`sushigo.sim.batch.BatchGame` (numpy), so
every game of a batch is at the same turn and every game ends at the same
step; observations are :meth:`~sushigo.sim.batch.BatchGame.observations` (the
layout of :mod:`sushigo.engine.observation`) and the actions the engine's 156 ids.

- :class:`BatchEnv`: every seat of ``num_envs`` games at once (self-play,
  population training): ``reset() -> (obs[B, N, D], mask[B, N, 156])``,
  ``step(actions[B, N]) -> (obs, mask, rewards[B, N], done, info)``.
- :class:`SushiGoVectorEnv`: a ``gymnasium.vector.VectorEnv`` of one learning
  seat per game, the other seats played in batch by ``"random"``,
  ``"learned"`` (the ``learned`` bot's network) or by
  policy functions ``f(obs[B, D], mask[B, 156]) -> actions[B]`` (a frozen copy
  of the learner, say).  It resets every game in the step that ends them
  (``autoreset_mode`` ``SAME_STEP``: the last observations are in
  ``info["final_obs"]``, the scores and winners in ``info["final_info"]``
  as gymnasium's own vector envs put them, and at the top level too).
  The other built-in bots play seat by seat on the engine: train against
  them with :class:`sushigo.envs.gym_env.SushiGoEnv` under
  ``gymnasium.vector.AsyncVectorEnv``.

Rewards come at the end only, as in :mod:`sushigo.envs.sushigo_v0`:
``"margin"``, ``"win"`` or ``"rank"``.

>>> env = BatchEnv(num_players=3, num_envs=5, seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape
((5, 3, 103), (5, 3, 156))
>>> done = False
>>> while not done:
...     obs, mask, rewards, done, info = env.step(env.game.random_actions(env.rng))
>>> rewards.shape, info["scores"].shape, bool(abs(rewards.sum(axis=1)).max() < 1e-4)
((5, 3), (5, 3), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from sushigo.bots.learned import INPUT_SIZE, OPTIONS_AT, ROUND_TWO_AT, SIZE_AT, Policy, shipped_policy
from sushigo.engine.observation import observation_size, padded_positions
from sushigo.engine.rules import Rules
from sushigo.envs.rewards import check_reward
from sushigo.sim.batch import NUM_ACTIONS, BatchGame

Array = np.ndarray[Any, Any]
BatchPolicy = Callable[[Array, Array], Array]
"""``f(observations[B, D], masks[B, 156]) -> actions[B]``: a policy over a batch of seats."""


def batch_rewards(totals: Array, winners: Array, kind: str) -> Array:
    """:func:`sushigo.envs.rewards.final_rewards` over ``[B, N]`` totals and winner flags.

    >>> batch_rewards(np.array([[30, 20, 10]]), np.array([[True, False, False]]), "rank").tolist()
    [[1.0, 0.0, -1.0]]
    """
    totals = np.asarray(totals, dtype=np.float64)
    n = totals.shape[1]
    if check_reward(kind) == "margin":
        out = totals - (totals.sum(axis=1, keepdims=True) - totals) / (n - 1)
    elif kind == "win":
        won = np.asarray(winners, dtype=np.float64)
        out = won / won.sum(axis=1, keepdims=True)
    else:  # rank
        better = (totals[:, None, :] > totals[:, :, None]).sum(axis=2)
        ties = (totals[:, None, :] == totals[:, :, None]).sum(axis=2) - 1
        out = 1.0 - 2.0 * (better + ties / 2) / (n - 1)
    result: Array = out.astype(np.float32)
    return result


def random_policy(rng: np.random.Generator) -> BatchPolicy:
    """A batch policy drawing uniformly among each row's legal actions."""

    def act(obs: Array, mask: Array) -> Array:
        weights = rng.random(mask.shape) * mask
        picked: Array = weights.argmax(axis=1)
        return picked

    return act


def learned_policy(players: int, *, padded: bool = False, policy: Policy | None = None,
                   pass_both_ways: bool = False) -> BatchPolicy:
    """The ``learned`` bot as a batch policy: its network's best legal action for every row.

    ``players``, ``padded`` and ``pass_both_ways`` describe the observations it will get (those
    of a :class:`BatchEnv` with the same settings); ``policy`` defaults to the
    shipped one.  It plays as :class:`sushigo.bots.learned.LearnedBot` does,
    in float32 (a near-tie may fall the other way).
    """
    net = policy if policy is not None else shipped_policy()

    def act(obs: Array, mask: Array) -> Array:
        scores = net.logits_batch(network_inputs(obs, players, padded=padded, pass_both_ways=pass_both_ways))
        picked: Array = np.where(mask, scores, -np.inf).argmax(axis=1)
        return picked

    return act


def network_inputs(obs: Array, players: int, *, padded: bool = False, pass_both_ways: bool = False) -> Array:
    """:func:`sushigo.bots.learned.network_input` for batch observations
    ``[..., D]`` of ``players``-seat tables (``padded``: already in the
    5-player layout) played with or without ``pass_both_ways``: ``float32[..., 167]``.

    >>> network_inputs(np.ones((2, 74)), 2).sum(axis=1).tolist()
    [75.0, 75.0]
    >>> network_inputs(np.ones((1, 74)), 2, pass_both_ways=True)[0, -2:].tolist()
    [1.0, 1.0]
    """
    columns = np.arange(observation_size(5)) if padded else np.array(padded_positions(players))
    x = np.zeros(np.shape(obs)[:-1] + (INPUT_SIZE,), dtype=np.float32)
    x[..., columns] = obs
    x[..., SIZE_AT + players - 2] = 1.0
    if pass_both_ways:
        x[..., OPTIONS_AT] = 1.0
        x[..., OPTIONS_AT + 1] = x[..., ROUND_TWO_AT]  # the second round passes right
    return x


class BatchEnv:
    """Every seat of ``num_envs`` original games in lockstep (see the module docstring).

    Args:
        num_players: 2-5 (or ``rules=Rules(...)`` for ``pass_both_ways``).
        num_envs: games per batch, B.
        reward: ``"margin"`` (default), ``"win"`` or ``"rank"``, given at the last step.
        padded: observations in the 5-player layout (``D = 161``) whatever the table size.
        seed: seeds the decks of every reset (and :attr:`rng`).
    """

    def __init__(self, num_players: int = 4, num_envs: int = 1024, *, reward: str = "margin",
                 padded: bool = False, rules: Rules | None = None, seed: int | None = None) -> None:
        check_reward(reward)
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.rules = rules if rules is not None else Rules(num_players)
        self.players = self.rules.players
        self.num_envs = num_envs
        self.reward = reward
        self.padded = padded
        self.observation_size = observation_size(5 if padded else self.players)
        self.rng = np.random.default_rng(seed)
        """The generator that seeds each batch of decks (also handy for random actions)."""
        self.game = BatchGame(self.rules, num_envs, seed=int(self.rng.integers(1 << 62)))

    def reset(self, seed: int | None = None) -> tuple[Array, Array]:
        """New deals for every game; every seat's observation and legal mask."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.game = BatchGame(self.rules, self.num_envs, seed=int(self.rng.integers(1 << 62)))
        return self.game.observations(padded=self.padded), self.game.legal_mask()

    def step(self, actions: Array) -> tuple[Array, Array, Array, bool, dict[str, Array]]:
        """Every seat's action (``[B, N]``); returns ``(obs, mask, rewards, done, info)``.

        Rewards are 0 until the last step; then ``info`` has ``scores`` and
        ``winners`` (``[B, N]``) and the masks are all False.  An illegal
        action raises ``ValueError`` naming the game and seat.
        """
        game = self.game
        game.step(actions)
        b, n = self.num_envs, self.players
        info: dict[str, Array] = {}
        if game.is_over:
            totals, winners = game.totals(), game.winners()
            rewards = batch_rewards(totals, winners, self.reward)
            info = {"scores": totals, "winners": winners}
            mask = np.zeros((b, n, NUM_ACTIONS), dtype=bool)
        else:
            rewards = np.zeros((b, n), dtype=np.float32)
            mask = game.legal_mask()
        return game.observations(padded=self.padded), mask, rewards, game.is_over, info


class SushiGoVectorEnv(VectorEnv[Any, Any, Any]):
    """One learning seat in each of ``num_envs`` games; batch policies play the other seats.

    Args:
        num_envs: games in the batch, B.
        num_players: 2-5.
        opponents: ``num_players - 1`` batch policies for the other seats in
            seat order: ``"random"``, ``"learned"`` (the shipped network, :func:`learned_policy`)
            or functions ``f(obs[B, D], mask[B, 156]) -> actions[B]``
            (they get their own seats' observations, in the same layout).
        seat: the learning seat (default 0).
        reward, padded: as :class:`BatchEnv`.

    Observations are ``float32[B, D]``, actions ``int[B]``; the legal actions are
    ``info["action_mask"]`` and :meth:`action_masks` (``bool[B, 156]``).

    >>> env = SushiGoVectorEnv(num_envs=8, num_players=4)
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, info["action_mask"].shape
    ((8, 132), (8, 156))
    >>> for _ in range(24):  # 3 rounds of 8 turns
    ...     obs, rewards, terminated, truncated, info = env.step(env.sample_legal())
    >>> bool(terminated.all()), info["scores"].shape, info["final_obs"].shape
    (True, (8, 4), (8, 132))
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int = 256, num_players: int = 4, *,
                 opponents: Sequence[str | BatchPolicy] | None = None, seat: int = 0,
                 reward: str = "margin", padded: bool = False, rules: Rules | None = None) -> None:
        self._batch = BatchEnv(num_players, num_envs, reward=reward, padded=padded, rules=rules)
        n = self._batch.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of a {n}-player game")
        specs = list(opponents) if opponents is not None else ["random"] * (n - 1)
        if len(specs) != n - 1:
            raise ValueError(f"{n - 1} opponents needed for {n} players, got {len(specs)}")
        for spec in specs:
            if not isinstance(spec, str) and not callable(spec):
                raise ValueError(f"an opponent is 'random', 'learned' or a function, not {spec!r}")
            if isinstance(spec, str) and spec not in ("random", "learned"):
                raise ValueError(
                    f"vector-env opponents are 'random', 'learned' or batch policy functions, not {spec!r}; "
                    "play the other built-in bots with sushigo.envs.gym_env.SushiGoEnv")
        self._specs = specs
        self._opponents: list[BatchPolicy] = []
        self.seat = seat
        self.num_envs = num_envs
        d = self._batch.observation_size
        self.single_observation_space = spaces.Box(-100.0, 100.0, shape=(d,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(-100.0, 100.0, shape=(num_envs, d), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, NUM_ACTIONS))
        self._obs: Array = np.zeros((num_envs, n, d), dtype=np.float32)
        self._mask: Array = np.zeros((num_envs, n, NUM_ACTIONS), dtype=bool)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Array, dict[str, Any]]:
        """New games; the learning seat's observations and ``info["action_mask"]``."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        self._reset_rng(seed)
        self._obs, self._mask = self._batch.reset(seed)
        return self._obs[:, self.seat].copy(), {"action_mask": self._mask[:, self.seat].copy()}

    def _reset_rng(self, seed: int | None) -> None:
        if seed is not None or not self._opponents:
            # the random opponents' stream, apart from the decks' (seeded with ``seed`` itself)
            self._np_random = np.random.default_rng(None if seed is None else [seed, 1])
            self._np_random_seed = -1 if seed is None else seed
            n, padded, both = self._batch.players, self._batch.padded, self._batch.rules.pass_both_ways
            self._opponents = [
                s if not isinstance(s, str)
                else random_policy(self._np_random) if s == "random"
                else learned_policy(n, padded=padded, pass_both_ways=both)
                for s in self._specs]

    def action_masks(self) -> Array:
        """``bool[B, 156]``: the learning seat's legal actions in every game."""
        mask: Array = self._mask[:, self.seat].copy()
        return mask

    def sample_legal(self) -> Array:
        """A uniformly random legal action for the learning seat of every game."""
        picked: Array = self._batch.game.random_actions(self.np_random)[:, self.seat]
        return picked

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """The learning seat's actions (``int[B]``); the opponents pick, all reveal.

        An illegal action raises ``ValueError`` naming the game.
        """
        if not self._opponents:
            raise ValueError("call reset() before step()")
        actions = np.asarray(actions)
        b, n = self.num_envs, self._batch.players
        if actions.shape != (b,):
            raise ValueError(f"expected {b} actions (shape ({b},)), got shape {actions.shape}")
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, not {actions.dtype}")
        legal = self._mask[np.arange(b), self.seat, np.clip(actions, 0, NUM_ACTIONS - 1)]
        legal &= (actions >= 0) & (actions < NUM_ACTIONS)
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"illegal action {int(actions[bad])} in game {bad}")
        joint = np.empty((b, n), dtype=np.int64)
        joint[:, self.seat] = actions
        others = [s for s in range(n) if s != self.seat]
        for s, policy in zip(others, self._opponents):
            joint[:, s] = np.asarray(policy(self._obs[:, s], self._mask[:, s])).reshape(-1)
        obs, mask, rewards, done, info = self._batch.step(joint)
        out_info: dict[str, Any] = {}
        if done:
            every = np.ones(b, dtype=bool)
            final = {"scores": info["scores"], "winners": info["winners"], "_scores": every, "_winners": every}
            out_info = {"scores": info["scores"], "winners": info["winners"],
                        "final_obs": obs[:, self.seat].copy(), "_final_obs": every,
                        "final_info": final, "_final_info": every}
            obs, mask = self._batch.reset()
        self._obs, self._mask = obs, mask
        out_info["action_mask"] = mask[:, self.seat].copy()
        terminated = np.full(b, done)
        return (obs[:, self.seat].copy(), rewards[:, self.seat].copy(), terminated,
                np.zeros(b, dtype=bool), out_info)
