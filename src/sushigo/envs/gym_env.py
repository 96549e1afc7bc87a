"""A single-seat Gymnasium environment: you play one seat, bots play the others.

Registered as ``SushiGo-v0`` (``gymnasium.make("SushiGo-v0", opponents=[...])``
after ``import sushigo.envs.gym_env``).  The observation is the flat array of
:mod:`sushigo.envs.observation`; the action space the engine's integer
encoding.  :meth:`SushiGoEnv.action_masks` (and ``info["action_mask"]``) give
the legal actions, for masked policies such as sb3-contrib's MaskablePPO.
The opponents are built-in bot specs (``"greedy"``, ``"ismcts:time=0.1"``) or
any objects with ``choose(view)``; each decides from its own seat's view.
Rewards as in :mod:`sushigo.envs.sushigo_v0` (at the end; an illegal action
ends the episode with ``illegal_reward``).

>>> env = SushiGoEnv(num_players=3, opponents=["greedy", "random"])
>>> obs, info = env.reset(seed=0)
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][0])
...     obs, reward, done, truncated, info = env.step(action)
>>> len(info["scores"])
3
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from sushigo.bots import make_bot
from sushigo.bots.base import Player, view_for
from sushigo.engine.editions import to_record
from sushigo.envs.rewards import final_rewards
from sushigo.envs.sushigo_v0 import raw_parallel_env


class SushiGoEnv(gymnasium.Env[Any, int]):
    """One learning seat (``seat``, default 0) against bots."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        num_players: int = 4,
        *,
        opponents: Sequence[str | Player] | None = None,
        seat: int = 0,
        reward: str = "margin",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        self._par = raw_parallel_env(num_players, reward=reward, **rules)
        n = self._par.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of a {n}-player game")
        specs = list(opponents) if opponents is not None else ["greedy"] * (n - 1)
        if len(specs) != n - 1:
            raise ValueError(f"{n - 1} opponents needed for {n} players, got {len(specs)}")
        self.seat = seat
        self._specs = specs
        self._bots: dict[int, Any] = {}
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        box = self._par.observation_space("player_0")["observation"]
        self.observation_space = spaces.Box(-100.0, 100.0, shape=box.shape, dtype=np.float32)
        n_actions = int(self._par.action_space("player_0").n)
        self.action_space = spaces.Discrete(n_actions)  # type: ignore[assignment]
        self._mask = np.zeros(n_actions, dtype=np.int8)

    def _make_bots(self, seed: int) -> None:
        others = [s for s in range(self._par.rules.players) if s != self.seat]
        self._bots = {}
        for i, (s, spec) in enumerate(zip(others, self._specs)):
            self._bots[s] = make_bot(spec, seed=seed * 31 + i) if isinstance(spec, str) else spec

    def _advance(self) -> None:
        """Let the bots decide until the learning seat has to, or the game ends."""
        game = self._par.game
        assert game is not None
        while not game.is_over:  # bots that pick alongside us commit too (hidden until the reveal)
            bots = [s for s in game.pending_seats if s != self.seat and not game.has_committed(s)]
            if not bots:
                return
            for s in bots:
                game.commit(s, self._bots[s].choose(view_for(game, s, self._bots[s])))

    def _obs(self) -> tuple[Any, dict[str, Any]]:
        o = self._par._observe(self.seat)
        self._mask = o["action_mask"]
        return o["observation"], {"action_mask": self._mask.copy()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(1 << 62))
        self._par.reset(seed=game_seed)
        self._make_bots(game_seed)
        self._advance()
        return self._obs()

    def action_masks(self) -> Any:
        """Legal actions now as booleans (the MaskablePPO convention)."""
        return self._mask.astype(bool)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        game = self._par.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.is_over:
            raise RuntimeError("the episode is over; call reset()")
        if not game.is_legal(self.seat, int(action)):
            obs, info = self._obs()
            info["illegal_action"] = True
            self._par.game = None
            return obs, float(self.illegal_reward), True, False, info
        game.commit(self.seat, int(action))
        self._advance()
        obs, info = self._obs()
        if game.is_over:
            result = game.result()
            reward = final_rewards(result.totals, result.winners, self._par.reward)[self.seat]
            info.update(scores=list(result.totals), winners=list(result.winners))
            return obs, float(reward), True, False, info
        return obs, 0.0, False, False, info

    def record(self) -> dict[str, Any]:
        """The game record of the current episode."""
        if self._par.game is None:
            raise RuntimeError("no game to record")
        return to_record(self._par.game, meta={"env": "SushiGo-v0", "seat": self.seat})

    def render(self) -> str | None:
        return self._par.render()



gymnasium.register(id="SushiGo-v0", entry_point="sushigo.envs.gym_env:SushiGoEnv",
                   vector_entry_point="sushigo.envs.vector:SushiGoVectorEnv")
