"""Throughput of the batch environments (random legal play, observations and masks built every step).

    python benchmarks/vector_env_speed.py [PLAYERS] [NUM_ENVS] [EPISODES] [--padded]

``BatchEnv``: every seat of NUM_ENVS games per step (observations
``[B, N, D]`` and masks ``[B, N, 156]``); ``SushiGoVectorEnv``: one seat per
game, random opponents.  Prints games/s and agent decisions/s for each.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from sushigo.envs.vector import BatchEnv, SushiGoVectorEnv


def main(argv: list[str]) -> None:
    padded = "--padded" in argv
    args = [a for a in argv if a != "--padded"]
    players = int(args[0]) if args else 4
    num_envs = int(args[1]) if len(args) > 1 else 1024
    episodes = int(args[2]) if len(args) > 2 else 20
    env = BatchEnv(players, num_envs, padded=padded, seed=0)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    steps = 0
    for _ in range(episodes):
        obs, mask = env.reset()
        done = False
        while not done:
            obs, mask, _rewards, done, _info = env.step(env.game.random_actions(rng))
            steps += 1
    elapsed = time.perf_counter() - start
    games = episodes * num_envs
    print(f"BatchEnv {players}p B={num_envs}{' padded' if padded else ''}: {games / elapsed:,.0f} games/s, "
          f"{steps * num_envs * players / elapsed:,.0f} agent decisions/s "
          f"(obs {obs.nbytes / 2**20:.1f} MiB + masks {mask.nbytes / 2**20:.1f} MiB per step)")
    venv = SushiGoVectorEnv(num_envs, players, padded=padded)
    venv.reset(seed=0)
    start = time.perf_counter()
    steps = 0
    while steps < episodes * 3 * env.rules.hand_size:
        venv.step(venv.sample_legal())
        steps += 1
    elapsed = time.perf_counter() - start
    print(f"SushiGoVectorEnv {players}p B={num_envs}: {episodes * num_envs / elapsed:,.0f} games/s, "
          f"{steps * num_envs / elapsed:,.0f} learner steps/s")


if __name__ == "__main__":
    main(sys.argv[1:])
