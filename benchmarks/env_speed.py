"""Episodes per second of the PettingZoo parallel environment (random legal play).

    python benchmarks/env_speed.py [PLAYERS] [EPISODES]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from sushigo.envs import sushigo_v0


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    episodes = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    env = sushigo_v0.parallel_env(num_players=players)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    for seed in range(episodes):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, *_ = env.step(acts)
            steps += 1
    elapsed = time.perf_counter() - start
    print(f"{players} players: {episodes / elapsed:.0f} episodes/s, {steps / elapsed:.0f} parallel steps/s "
          f"({steps * players / elapsed:.0f} agent decisions/s)")


if __name__ == "__main__":
    main()
