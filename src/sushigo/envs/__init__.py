"""Reinforcement-learning environments (needs the ``rl`` extra: numpy, gymnasium, pettingzoo).

- :mod:`sushigo.envs.sushigo_v0`: PettingZoo, parallel (primary) and AEC;
- :mod:`sushigo.envs.gym_env`: a single-seat Gymnasium environment, the other
  seats played by bots, registered as ``SushiGo-v0``;
- :mod:`sushigo.envs.vector`: vector environments on the batch engine
  (every seat of thousands of games per step, or one seat per game as a
  ``gymnasium.vector.VectorEnv``);
- :mod:`sushigo.envs.openspiel`: the original game as an OpenSpiel
  simultaneous-move game, ``python_sushigo`` (the ``openspiel`` extra);
- :mod:`sushigo.envs.observation`: observations as numpy arrays (the layout is
  :mod:`sushigo.engine.observation`); :mod:`sushigo.envs.rewards`: the reward kinds.
"""
