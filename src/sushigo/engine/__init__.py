"""The engine: the exact rules of both editions, standard library only.

Read it from the bottom up:

- what both editions share: :mod:`~sushigo.engine.rules` (player counts,
  hand sizes, every named option), :mod:`~sushigo.engine.errors`,
  :mod:`~sushigo.engine.turns` (phases, the seeded shuffle),
  :mod:`~sushigo.engine.points` (the dumpling table, a seat's points),
  :mod:`~sushigo.engine.names` (suggestions for near names) and
  :mod:`~sushigo.engine.records` (the record file format's common part);
- the two editions, side by side and independent of each other:
  :mod:`sushigo.engine.base` (the original game) and
  :mod:`sushigo.engine.party` (Sushi Go Party!);
- above both: :mod:`~sushigo.engine.editions` (new games, records and score
  sheets of either edition), :mod:`~sushigo.engine.flags` (rules from the
  options a user types) and :mod:`~sushigo.engine.observation` (a seat's
  view as features).

``docs/architecture.md`` draws the layers; ``pyproject.toml`` declares them
and the test suite checks them.
"""


def engine_build() -> str:
    """Which engine this installation runs: ``"compiled"`` (its hot modules built with
    mypyc at install time, hatch_build.py) or ``"pure-Python"`` (no C compiler there,
    or ``SUSHIGO_PURE_PYTHON=1``); both play exactly the same.

    >>> engine_build() in ("compiled", "pure-Python")
    True
    """
    from sushigo.engine.base import game

    return "compiled" if str(game.__file__).endswith((".so", ".pyd")) else "pure-Python"


__all__ = ["engine_build"]
