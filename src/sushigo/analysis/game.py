"""A whole game analysed: every decision of the chosen seats valued, labelled and summed up.

:func:`analyze_game` walks each seat's decisions (:mod:`sushigo.analysis.walk`),
values every legal action of each with
:func:`~sushigo.analysis.evaluate.evaluate_decision` from the seat's view at
that moment, and labels the chosen action by its loss against the best:
``inaccuracy``, ``mistake`` or ``blunder`` at the edition's :data:`THRESHOLDS`
(expected points of final margin; how they were calibrated is in
``docs/analysis.md``).  :meth:`GameAnalysis.to_json` is the
``sushigo-analysis/1`` document ``sushigo analyze --json`` prints.

Each decision gets its own seed, made from ``seed`` and where the decision
stands in the game (round, turn, its place in the turn), so the evaluation
of a decision depends only on what the seat knew then and the seed: not on
the rest of the game, on which other seats are analysed, or on ``jobs``.

>>> from sushigo.bots import make_bot
>>> from sushigo.bots.base import play_game
>>> game = play_game([make_bot("greedy", s) for s in range(2)], seed=5)
>>> report = analyze_game(game, [0], samples=4, seed=1)
>>> seat = report.seats[0]
>>> len(seat.decisions) == sum(1 for d in seat.decisions if d.loss >= 0)
True
>>> report.to_json()["format"], report.to_json()["seats"][0]["seat"]
('sushigo-analysis/1', 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Final

from sushigo.analysis.evaluate import DEFAULT_SAMPLES, DecisionEvaluation, evaluate_decision
from sushigo.analysis.walk import SeatDecision, seat_decisions
from sushigo.bots.base import AnyView
from sushigo.engine.editions import EDITIONS, AnyGame, action_said
from sushigo.engine.messages import from_json, render

ANALYSIS_FORMAT: Final = "sushigo-analysis/1"

LABELS: Final = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """The smallest loss, in expected points of final margin, of each label."""

    inaccuracy: float
    mistake: float
    blunder: float

    def label(self, loss: float, loss_se: float) -> str | None:
        """The label of a decision that lost ``loss`` points (``None``: fine).

        A loss within two standard errors of nothing is never labelled: the
        playouts cannot tell that action from the best.
        """
        if loss <= 2.0 * loss_se:
            return None
        for name in reversed(LABELS):
            if loss >= getattr(self, name):
                return name
        return None

    def to_json(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in LABELS}


THRESHOLDS: Final[dict[str, Thresholds]] = {
    "base": Thresholds(inaccuracy=1.5, mistake=3.0, blunder=5.0),
    "party": Thresholds(inaccuracy=2.5, mistake=5.0, blunder=7.0),
}
"""Per edition, calibrated on the losses of bots of known strength against three ``greedy``
(``benchmarks/analysis_calibration.py``; the numbers are in ``docs/analysis.md``): an
inaccuracy is a loss that fewer than 1 in 10 of the strongest bot's decisions reach
(``ismcts:time=0.1``), a mistake about 1 in 50 of them, a blunder about 1 in 100."""


@dataclass(frozen=True)
class AnalysedDecision:
    """One decision of a seat with every legal action's value and the chosen one's label."""

    round: int
    turn: int
    index: int
    kind: str
    action: int
    evaluation: DecisionEvaluation
    label: str | None
    hand: tuple[str, ...] = ()
    """The seat's hand when it decided (card names, as in records)."""

    @property
    def loss(self) -> float:
        return self.evaluation.loss(self.action)

    @property
    def loss_se(self) -> float:
        return self.evaluation.loss_se(self.action)


@dataclass(frozen=True)
class SeatAnalysis:
    """A seat's analysed decisions (forced ones, with one legal action, left out) and their summary."""

    seat: int
    decisions: tuple[AnalysedDecision, ...]
    forced: int
    """Decisions with only one legal action (not analysed, not counted in the summary)."""

    @property
    def mean_loss(self) -> float:
        """Average points lost per analysed decision."""
        return sum(d.loss for d in self.decisions) / len(self.decisions) if self.decisions else 0.0

    def count(self, label: str) -> int:
        return sum(1 for d in self.decisions if d.label == label)


@dataclass(frozen=True)
class GameAnalysis:
    edition: str
    players: int
    samples: int
    seed: int
    thresholds: Thresholds
    seats: tuple[SeatAnalysis, ...]

    def action_name(self, action: int) -> str:
        """The text form of an action of this game (:meth:`~sushigo.engine.editions.Edition.action_text`)."""
        return EDITIONS[self.edition].action_text(action)

    def to_json(self, words: Callable[[int], str] | None = None,
                said: Callable[[int], Any] | None = None) -> dict[str, Any]:
        """The ``sushigo-analysis/1`` document (``docs/analysis.md``); ``words`` (an action
        in words, e.g. :func:`action_label` of the game) adds the optional keys
        ``played_words``, ``best_words`` and each value's ``words``; ``said`` (the same as a
        message's JSON: :func:`action_label_said`) adds ``played_words_msg``,
        ``best_words_msg`` and each value's ``words_msg``."""
        return {
            "format": ANALYSIS_FORMAT,
            "edition": self.edition,
            "players": self.players,
            "samples": self.samples,
            "seed": self.seed,
            "thresholds": self.thresholds.to_json(),
            "seats": [self._seat_json(s, words, said) for s in self.seats],
        }

    def _seat_json(self, seat: SeatAnalysis, words: Callable[[int], str] | None,
                   said: Callable[[int], Any] | None) -> dict[str, Any]:
        return {
            "seat": seat.seat,
            "summary": {
                "decisions": len(seat.decisions),
                "forced": seat.forced,
                "mean_loss": round(seat.mean_loss, 3),
                **{label: seat.count(label) for label in LABELS},
            },
            "decisions": [self._decision_json(d, words, said) for d in seat.decisions],
        }

    def _decision_json(self, d: AnalysedDecision, words: Callable[[int], str] | None,
                       said: Callable[[int], Any] | None) -> dict[str, Any]:
        ev = d.evaluation
        out: dict[str, Any] = {
            "round": d.round,
            "turn": d.turn,
            "index": d.index,
            "kind": d.kind,
            "hand": list(d.hand),
            "played": self.action_name(d.action),
            "best": self.action_name(ev.best.action),
            "loss": round(d.loss, 3),
            "loss_se": round(d.loss_se, 3),
            "label": d.label,
            "values": [
                {
                    "action": self.action_name(v.action),
                    "margin": round(v.margin, 3),
                    "margin_se": round(v.margin_se, 3),
                    "win": round(v.win, 4),
                    "win_se": round(v.win_se, 4),
                    "loss": round(ev.loss(v.action), 3),
                    "loss_se": round(ev.loss_se(v.action), 3),
                    **({"words": words(v.action)} if words else {}),
                    **({"words_msg": said(v.action)} if said else {}),
                }
                for v in ev.values
            ],
        }
        if words:
            out["played_words"] = words(d.action)
            out["best_words"] = words(ev.best.action)
        if said:
            out["played_words_msg"] = said(d.action)
            out["best_words_msg"] = said(ev.best.action)
        return out


def action_label(game: AnyGame, action: int) -> str:
    """An action of ``game`` in words, as a label (``'Tempura'``, ``'Pass'``, ``'Flip card 2 face down'``).

    >>> from sushigo.engine.party.game import PartyGame
    >>> from sushigo.engine.rules import Rules
    >>> action_label(PartyGame(Rules.party(2, "Dinner for Two"), seed=1), 96)
    'Pass'
    """
    return render(from_json(action_label_said(game, action)))


def action_label_said(game: AnyGame, action: int) -> Any:
    """:func:`action_label` as a message's JSON, for a reader in any language.

    >>> from sushigo.engine.party.game import PartyGame
    >>> from sushigo.engine.rules import Rules
    >>> action_label_said(PartyGame(Rules.party(2, "Dinner for Two"), seed=1), 96)
    {'id': 'Pass', 'params': {}}
    """
    return action_said(game, action, label=True)


def decision_seed(seed: int, decision: SeatDecision) -> int:
    """The seed of one decision's evaluation: from ``seed`` and where the decision stands only."""
    where = f"{seed}/{decision.round}/{decision.turn}/{decision.index}"
    return random.Random(where).getrandbits(63)


def _evaluate(task: tuple[AnyView, int, int]) -> DecisionEvaluation:
    view, samples, seed = task
    return evaluate_decision(view, samples=samples, seed=seed)


@dataclass(frozen=True)
class AnalysisPlan:
    """What :func:`analyze_game` will evaluate: each analysed decision and its
    ``(view, samples, seed)`` task for :func:`~sushigo.analysis.evaluate.evaluate_decision`.

    A caller with its own worker pool (the server) evaluates :attr:`tasks`
    itself and hands the evaluations, in order, to :meth:`finish`.
    """

    edition: str
    players: int
    samples: int
    seed: int
    seats: tuple[int, ...]
    forced: dict[int, int]
    todo: tuple[tuple[int, SeatDecision], ...]

    @property
    def tasks(self) -> list[tuple[AnyView, int, int]]:
        return [(d.view, self.samples, decision_seed(self.seed, d)) for _, d in self.todo]

    def finish(self, evaluations: Sequence[DecisionEvaluation]) -> GameAnalysis:
        """The analysis, from one evaluation per task."""
        if len(evaluations) != len(self.todo):
            raise ValueError(f"{len(evaluations)} evaluations for {len(self.todo)} decisions")
        thresholds = THRESHOLDS[self.edition]
        results: dict[int, list[AnalysedDecision]] = {s: [] for s in self.seats}
        for (s, d), ev in zip(self.todo, evaluations):
            label = thresholds.label(ev.loss(d.action), ev.loss_se(d.action))
            hand = tuple(_card_name(self.edition, c) for c in sorted(d.view.hand or ()))  # in card order
            results[s].append(AnalysedDecision(d.round, d.turn, d.index, d.kind, d.action, ev, label, hand))
        return GameAnalysis(
            edition=self.edition, players=self.players, samples=self.samples, seed=self.seed,
            thresholds=thresholds,
            seats=tuple(SeatAnalysis(s, tuple(results[s]), self.forced[s]) for s in self.seats),
        )


def _card_name(edition: str, card: int) -> str:
    return EDITIONS[edition].card_name(card)


def plan_analysis(game: AnyGame, seats: Sequence[int] | None = None, *, samples: int = DEFAULT_SAMPLES,
                  seed: int = 0) -> AnalysisPlan:
    """The decisions of ``seats`` (default: all) that :func:`analyze_game` evaluates."""
    if samples < 1:
        raise ValueError("samples must be at least 1")
    chosen = list(range(game.players)) if seats is None else list(dict.fromkeys(seats))
    walked = {s: seat_decisions(game, s) for s in chosen}
    return AnalysisPlan(
        edition=game.rules.edition, players=game.players, samples=samples,
        seed=seed, seats=tuple(chosen), forced={s: sum(1 for d in walked[s] if d.forced) for s in chosen},
        todo=tuple((s, d) for s in chosen for d in walked[s] if not d.forced),
    )


def analyze_game(
    game: AnyGame,
    seats: Sequence[int] | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse every decision of ``seats`` (default: all) in ``game``.

    ``samples`` playouts per legal action (the budget), ``jobs`` worker
    processes (1: in this process), ``progress(done, total)`` after each decision.
    """
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    plan = plan_analysis(game, seats, samples=samples, seed=seed)
    tasks = plan.tasks
    evaluations: list[DecisionEvaluation] = []
    if jobs == 1 or len(tasks) < 2:
        for task in tasks:
            evaluations.append(_evaluate(task))
            if progress:
                progress(len(evaluations), len(tasks))
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=get_context("spawn")) as pool:
            for ev in pool.map(_evaluate, tasks):
                evaluations.append(ev)
                if progress:
                    progress(len(evaluations), len(tasks))
    return plan.finish(evaluations)


__all__ = [
    "ANALYSIS_FORMAT",
    "LABELS",
    "THRESHOLDS",
    "AnalysedDecision",
    "AnalysisPlan",
    "GameAnalysis",
    "SeatAnalysis",
    "Thresholds",
    "action_label",
    "action_label_said",
    "analyze_game",
    "decision_seed",
    "plan_analysis",
]
