"""Copy and pickle for the engine's games, views and results, the same on the
pure-Python engine and on the compiled one (scripts/compile_engine.py).

A class compiled with mypyc is made only through ``__init__``, and a compiled
frozen dataclass cannot be filled in after it is made, so the default
``copy``/``pickle`` protocol fails there.  Each class says how it is rebuilt:

- a frozen dataclass from its fields (:func:`by_fields`);
- a game from its rules and the values of its slots (:func:`by_slots`), made
  empty first with ``cls(rules, _shell=True)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any


def by_fields(obj: Any) -> tuple[Any, ...]:
    """``__reduce__`` of a dataclass: its class called with its fields, in order."""
    return (type(obj), tuple(getattr(obj, f.name) for f in fields(obj)))


def by_slots(obj: Any, names: Iterable[str]) -> tuple[Any, ...]:
    """``__reduce__`` of a game: its class, its rules and the values of ``names``."""
    return (_rebuilt, (type(obj), obj.rules, {name: getattr(obj, name) for name in names}))


def _rebuilt(cls: Any, rules: Any, state: dict[str, Any]) -> Any:
    obj = cls(rules, _shell=True)
    for name, value in state.items():
        setattr(obj, name, value)
    return obj
