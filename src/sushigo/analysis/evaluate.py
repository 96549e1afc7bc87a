"""What each legal action of a decision is worth, estimated from the seat's view alone.

For every legal action of the seat's decision, :func:`evaluate_decision`
plays ``samples`` games to their end and averages the outcome:

* each sample deals the cards the seat cannot see at random, consistently
  with its view (:func:`~sushigo.engine.base.view.determinize`,
  :func:`~sushigo.engine.party.view.determinize_party`), so the estimate
  never reads a hidden card: two games that look the same to the seat give
  the same evaluation for the same seed;
* the seat plays the action; every other decision, its own later ones
  included, comes from the search bots' fast playout policy
  (:mod:`sushigo.bots.policy`, :mod:`sushigo.bots.party_policy`), picks
  committed one seat at a time so simultaneous picks stay simultaneous;
* the outcome is the seat's final **margin**, its total minus the best
  other seat's, and its **win share** (1/k for a win shared by k).

Every action is played out on the same sampled worlds with the same
playout randomness (common random numbers), so the differences between
actions are much more precise than each mean: :meth:`DecisionEvaluation.loss`
and its standard error come from the paired differences.

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> game = Game(3, seed=4)
>>> ev = evaluate_decision(seat_view(game, 0, world=True), samples=8, seed=1)
>>> sorted(v.action for v in ev.values) == sorted(game.legal_actions(0))
True
>>> ev.loss(ev.best.action), ev.values[0] is ev.best
(0.0, True)
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Final

from sushigo.bots.base import AnyView, legal_actions_of
from sushigo.bots.party_policy import party_heuristic_playout
from sushigo.bots.policy import heuristic_playout
from sushigo.engine.editions import by_game, edition_for

DEFAULT_SAMPLES: Final = 200
"""Playouts per legal action when a budget is not given."""

PRUNE_AT: Final = (32, 64, 128)
"""After this many samples, an action whose loss against the best so far is more than
:data:`PRUNE_MARGIN` points plus three standard errors gets no more playouts: the budget goes
to the actions that might be best (and the decision's label does not hinge on the rest)."""

PRUNE_MARGIN: Final = 1.0

EPSILON: Final = 0.15
"""The playout policy's chance of a random choice (as the search bots' default)."""


@dataclass(frozen=True)
class ActionValue:
    """One legal action's estimate: means over ``len(margins)`` playouts, with standard errors."""

    action: int
    margin: float
    """Expected final score margin: the seat's total minus the best other seat's."""
    margin_se: float
    win: float
    """Expected win share (a win shared by k counts 1/k)."""
    win_se: float
    margins: tuple[float, ...]
    """The margin of each playout, sample by sample: sample i is played on the same world
    for every action.  An action dropped as clearly worse has fewer (see :data:`PRUNE_AT`)."""


@dataclass(frozen=True)
class DecisionEvaluation:
    """Every legal action's :class:`ActionValue`: the best (highest margin) first, then by loss."""

    seat: int
    values: tuple[ActionValue, ...]

    @property
    def best(self) -> ActionValue:
        return self.values[0]

    def value(self, action: int) -> ActionValue:
        for v in self.values:
            if v.action == action:
                return v
        raise ValueError(f"action {action} is not one of this decision's legal actions")

    def loss(self, action: int) -> float:
        """Expected points ``action`` gives up against the best action (0 for the best): the
        mean of the paired per-sample differences, over the samples both actions have."""
        return _paired_loss(self.best, self.value(action))

    def loss_se(self, action: int) -> float:
        """The standard error of :meth:`loss`, from the paired per-sample differences."""
        diffs = [b - a for b, a in zip(self.best.margins, self.value(action).margins)]
        return _se(diffs)


def _paired_loss(best: ActionValue, other: ActionValue) -> float:
    diffs = [b - a for b, a in zip(best.margins, other.margins)]
    return sum(diffs) / len(diffs) if diffs else 0.0


def _se(xs: list[float] | tuple[float, ...]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


def _outcome(totals: tuple[int, ...], winners: tuple[int, ...] | list[int], seat: int) -> tuple[float, float]:
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    share = 1.0 / len(winners) if seat in winners else 0.0
    return float(totals[seat] - best_other), share


def _playout(view: AnyView, seat: int, action: int, world_rng: random.Random,
             rng: random.Random) -> tuple[float, float]:
    """(margin, win share) of one world sampled from ``view`` with ``world_rng``, the seat playing
    ``action`` first (so no other seat's pick can depend on it), the playout policy the rest."""
    world = edition_for(view).determinize(view, world_rng)
    world.commit(seat, action)
    by_game(world, base=lambda g: heuristic_playout(g, rng, EPSILON),
            party=lambda g: party_heuristic_playout(g, rng, EPSILON))
    result = world.result()
    return _outcome(tuple(result.totals), result.winners, seat)


def evaluate_decision(view: AnyView, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                      time_limit: float | None = None) -> DecisionEvaluation:
    """Every legal action of the seat's decision, valued by ``samples`` playouts each (see the module doc).

    ``view`` is a seat's view made with ``world=True`` (``seat_view``, ``party_seat_view``);
    ``seed`` makes the result reproducible.  With ``time_limit`` (seconds) the
    sampling stops early when the time is up, after at least two samples of
    every action: each action always gets the same worlds, and a run that
    stopped after n samples equals ``evaluate_decision(view, samples=n, seed=seed)``.
    Actions clearly worse than the best get no more playouts after :data:`PRUNE_AT` samples.
    """
    if samples < 1:
        raise ValueError("samples must be at least 1")
    if time_limit is not None and not time_limit > 0:
        raise ValueError("time_limit must be a positive number of seconds")
    if view.world is None or view.seat is None:
        raise ValueError("evaluate_decision needs a seat's view made with world=True")
    seat = view.seat
    actions = legal_actions_of(view)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    margins: list[list[float]] = [[] for _ in actions]
    wins: list[list[float]] = [[] for _ in actions]
    active = list(range(len(actions)))
    for i in range(samples):
        if deadline is not None and i >= 2 and time.monotonic() > deadline:
            break
        if i in PRUNE_AT and len(active) > 1:
            active = _contenders(active, margins)
        s = random.Random(f"{seed}/{i}").getrandbits(64)
        for k in active:
            margin, win = _playout(view, seat, actions[k], random.Random(s), random.Random(s ^ 0x5EED))
            margins[k].append(margin)
            wins[k].append(win)
    values = [
        ActionValue(action=action, margin=sum(m) / len(m), margin_se=_se(m), win=sum(w) / len(w), win_se=_se(w),
                    margins=tuple(m))
        for action, m, w in zip(actions, margins, wins)
    ]
    full = max(len(v.margins) for v in values)
    best = max((v for v in values if len(v.margins) == full), key=lambda v: v.margin)
    values.sort(key=lambda v: (v is not best, _paired_loss(best, v), -v.margin))
    return DecisionEvaluation(seat=seat, values=tuple(values))


def _contenders(active: list[int], margins: list[list[float]]) -> list[int]:
    """The actions still worth sampling: all but those clearly worse than the best so far."""
    best = max(active, key=lambda k: sum(margins[k]) / len(margins[k]))
    keep = []
    for k in active:
        diffs = [b - a for b, a in zip(margins[best], margins[k])]
        if k == best or sum(diffs) / len(diffs) - 3.0 * _se(diffs) <= PRUNE_MARGIN:
            keep.append(k)
    return keep


__all__ = [
    "DEFAULT_SAMPLES", "EPSILON", "PRUNE_AT", "PRUNE_MARGIN", "ActionValue", "DecisionEvaluation", "evaluate_decision",
]
