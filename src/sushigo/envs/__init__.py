"""Reinforcement-learning environments (needs the ``rl`` extra: numpy, gymnasium, pettingzoo).

- :mod:`sushigo.envs.sushigo_v0`: PettingZoo, parallel (primary) and AEC;
- :mod:`sushigo.envs.gym_env`: a single-seat Gymnasium environment, the other
  seats played by bots, registered as ``SushiGo-v0``;
- :mod:`sushigo.envs.observation`: the observation layout.
"""
