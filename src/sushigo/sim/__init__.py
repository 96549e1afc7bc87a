"""Fast simulation of the original game, for learning and measuring.

- :mod:`~sushigo.sim.batch`: :class:`~sushigo.sim.batch.BatchGame`, B games in
  lockstep on numpy arrays (the ``rl`` extra).
- :mod:`~sushigo.sim.kernel`: the same rules compiled with numba for whole
  random games (optional; the batch engine uses it when numba is installed).
- :mod:`~sushigo.sim.bench`: the engine speed benchmark behind ``sushigo bench``.

These are second and third copies of the original game's rules, kept equal
to :mod:`sushigo.engine.base` game for game by the tests; their tables
(deck counts, nigiri and dumpling points, maki icons) come from the engine.
"""
