"""Sushi Go! as a PettingZoo environment (``sushigo_v0``), both editions.

``parallel_env(num_players=N)`` is the primary API: one ``step`` takes the
action of every seat that has to decide (in the original game, every seat's
simultaneous pick).  ``env(num_players=N)`` is the same game as an AEC
environment (PettingZoo's ``parallel_to_aec``).  Agents are ``player_0`` ..
``player_{N-1}`` (seat order).

- Observation per agent: ``{"observation": float32[...], "action_mask": int8[A]}``
  (layout: :mod:`sushigo.envs.observation`; built from the seat's view only).
- Actions: the engine's integer encoding, ``Discrete(156)`` in the original game
  (chopsticks pairs included, :mod:`sushigo.engine.base.actions`), ``Discrete(161)`` in Party
  (:mod:`sushigo.engine.party.actions`).  An agent with nothing to decide has an
  all-zero mask and its action is ignored (in Party, while a special resolves,
  only one seat decides).
- Rewards, at the end only (``reward=``): ``"margin"`` (own total minus the
  mean of the others', the default), ``"win"`` (1 shared among the winners, 0
  otherwise) or ``"rank"`` (from +1 for first to -1 for last, ties averaged).
- The last ``infos`` carry ``scores`` and ``winners``;
  ``env.unwrapped.record()`` returns the episode's game record.
- An illegal action (one the mask rules out) ends the episode, as in
  PettingZoo's classic games and pgx: the offender gets ``illegal_reward``
  (-1), the others 0, and every ``infos`` entry names the offenders under
  ``illegal_action``.  ``illegal="raise"`` raises :class:`IllegalActionError` instead.

>>> env = parallel_env(num_players=3)
>>> obs, infos = env.reset(seed=1)
>>> sorted(obs) == env.agents, obs["player_0"]["action_mask"].shape
(True, (156,))
>>> while env.agents:
...     acts = {a: int(obs[a]["action_mask"].nonzero()[0][0]) for a in env.agents}
...     obs, rewards, terms, truncs, infos = env.step(acts)
>>> len(infos["player_0"]["scores"]), env.unwrapped.record()["format"]
(3, 'sushigo-record/1')
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from sushigo.engine.editions import AnyGame, edition_for, new_game, seat_view, to_record
from sushigo.engine.errors import IllegalActionError
from sushigo.engine.flags import rules_from_flags
from sushigo.engine.rules import Rules
from sushigo.envs.observation import encode, observation_size
from sushigo.envs.rewards import check_reward, final_rewards


class raw_parallel_env(ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """The parallel environment (see the module docstring for its contract)."""

    metadata = {"name": "sushigo_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(
        self,
        num_players: int = 4,
        *,
        edition: str = "base",
        menu: str | None = None,
        pass_both_ways: bool = False,
        reshuffle: bool = False,
        reward: str = "margin",
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        rules: Rules | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules if rules is not None else rules_from_flags(
            num_players, edition=edition, menu=menu, pass_both_ways=pass_both_ways, reshuffle=reshuffle)
        self.reward = check_reward(reward)
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal must be 'terminate' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        of_rules = edition_for(self.rules)
        self._edition = of_rules.name
        self._num_actions = of_rules.num_actions
        self._obs_size = observation_size(n, self._edition)
        self.game: AnyGame | None = None
        self._seed: int | None = None
        # each agent's spaces, built on first use and then the same objects (as PettingZoo asks);
        # kept on the env so that they go with it (functools.cache on the methods would keep every env alive)
        self._observation_space_of: dict[str, spaces.Dict] = {}
        self._action_space_of: dict[str, spaces.Discrete] = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        space = self._observation_space_of.get(agent)
        if space is None:
            space = spaces.Dict({
                "observation": spaces.Box(-100.0, 100.0, shape=(self._obs_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8),
            })
            self._observation_space_of[agent] = space
        return space

    def action_space(self, agent: str) -> spaces.Discrete:
        space = self._action_space_of.get(agent)
        if space is None:
            space = spaces.Discrete(self._num_actions)
            self._action_space_of[agent] = space
        return space

    def _observe(self, seat: int) -> dict[str, Any]:
        game = self.game
        assert game is not None
        view = seat_view(game, seat)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        mask[list(view.legal_actions)] = 1
        return {"observation": encode(view), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 63) if self._seed is None else self._seed + 1
        self._seed = seed
        self.game = new_game(self.rules, seed=seed)
        self.agents = list(self.possible_agents)
        obs = {a: self._observe(i) for i, a in enumerate(self.agents)}
        return obs, {a: {} for a in self.agents}

    def step(self, actions: dict[str, int]) -> tuple[
            dict[str, dict[str, Any]], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        game = self.game
        if game is None or not self.agents:
            raise RuntimeError("call reset() before step()")
        pending = list(game.pending_seats)
        offenders = []
        for seat in pending:
            agent = self.possible_agents[seat]
            action = actions.get(agent)
            if action is None or not game.is_legal(seat, int(action)):
                if self.illegal == "raise":
                    raise IllegalActionError(f"{agent}: action {action} is not legal (see the action mask)")
                offenders.append(agent)
        if offenders:
            return self._end_illegally(offenders)
        for seat in pending:
            game.commit(seat, int(actions[self.possible_agents[seat]]))
        over = game.is_over
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over:
            result = game.result()
            for a, r in zip(self.possible_agents, final_rewards(result.totals, result.winners, self.reward)):
                rewards[a] = float(r)
            for a in self.agents:
                infos[a] = {"scores": list(result.totals), "winners": list(result.winners)}
        obs = {a: self._observe(i) for i, a in enumerate(self.possible_agents) if a in self.agents}
        terms = dict.fromkeys(self.agents, over)
        truncs = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _end_illegally(self, offenders: list[str]) -> tuple[
            dict[str, dict[str, Any]], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        obs = {a: self._observe(i) for i, a in enumerate(self.possible_agents) if a in self.agents}
        rewards = {a: (self.illegal_reward if a in offenders else 0.0) for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {"illegal_action": list(offenders)} for a in self.agents}
        terms = dict.fromkeys(self.agents, True)
        truncs = dict.fromkeys(self.agents, False)
        self.agents = []
        return obs, rewards, terms, truncs, infos

    def record(self) -> dict[str, Any]:
        """The game record of the current episode (``docs/spec/game-record.md``)."""
        if self.game is None:
            raise RuntimeError("call reset() first")
        return to_record(self.game, meta={"env": "sushigo_v0"})

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The concatenated observations of every seat (a global, non-hidden view for critics)."""
        return np.concatenate([self._observe(i)["observation"] for i in range(len(self.possible_agents))])

    def render(self) -> str | None:
        if self.game is None:
            return None
        text = repr(self.game) + " scores " + str(self.game.scores())
        return text

    def close(self) -> None:
        pass


def parallel_env(num_players: int = 4, **kwargs: Any) -> raw_parallel_env:
    """The parallel environment: one step = every pending seat's decision."""
    return raw_parallel_env(num_players, **kwargs)


def env(num_players: int = 4, **kwargs: Any) -> Any:
    """The AEC environment: the same game, one agent at a time (``parallel_to_aec``)."""
    return parallel_to_aec(raw_parallel_env(num_players, **kwargs))
