"""The engine's errors, one set for both editions.

Each is a subclass of a built-in (``ValueError`` or ``RuntimeError``), so a
caller can catch the built-in; the message is one line that says what is
wrong.  Record and rule errors live with their modules:
:class:`~sushigo.engine.records.RecordError`,
:class:`~sushigo.engine.rules.RulesError`,
:class:`~sushigo.engine.menus.MenuError`.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import SupportsIndex

from sushigo.engine.messages import told


class IllegalActionError(ValueError):
    """A pick the rules do not allow for that seat now (the message says why)."""


class GameOverError(RuntimeError):
    """An action on a game that has already ended."""


class DealError(ValueError):
    """A deal the deck cannot provide (wrong sizes, or more copies than exist)."""


class InvalidActionError(ValueError):
    """Not an action of the encoding at all (as opposed to an illegal one)."""


class UnknownCardError(ValueError):
    """A card name that is not a card of this edition."""


def as_action(action: SupportsIndex) -> int:
    """An action as a plain int (numpy integers welcome); anything else is
    an :class:`InvalidActionError`.

    >>> as_action(True), as_action(7)
    (1, 7)
    """
    try:
        return operator.index(action)
    except TypeError:
        raise told(InvalidActionError, "an action is an int, not {type}", type=type(action).__name__) from None


def as_actions(actions: Sequence[SupportsIndex]) -> list[int]:
    """Every action of ``actions`` as a plain int (:func:`as_action`)."""
    return [a if type(a) is int else as_action(a) for a in actions]
