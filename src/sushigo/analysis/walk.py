"""A finished game's decisions, seat by seat, each with what the seat knew then.

:func:`seat_decisions` replays a game of either edition from its history (the
hands dealt and every move in the order made) and stops at each decision of
one seat, handing out the seat's view at that moment, made with
``world=True`` so that :func:`~sushigo.analysis.evaluate.evaluate_decision`
can sample worlds from it.  The replay deals by hand (``auto_deal=False``):
it knows only what the history says, never the deck's order.

>>> from sushigo.bots import make_bot
>>> from sushigo.bots.base import play_game
>>> game = play_game([make_bot("greedy", s) for s in range(3)], seed=2)
>>> picks = seat_decisions(game, 1)
>>> len(picks), picks[0].kind, (picks[0].round, picks[0].turn)
(27, 'pick', (1, 1))
>>> picks[0].view.hand == game.history()[0][0][1]
True
"""

from __future__ import annotations

from dataclasses import dataclass

from sushigo.bots.base import AnyView, legal_actions_of
from sushigo.engine.editions import AnyGame, seat_view, walk


@dataclass(frozen=True)
class SeatDecision:
    """One decision of a seat: where it was, what the seat saw, what it chose."""

    round: int
    turn: int
    index: int
    """Which of the seat's decisions this turn (0 for the pick, then each later one)."""
    kind: str
    """``"pick"``, or the Party special deciding: ``"chopsticks"``, ``"spoon"``, ``"menu"``, ``"takeout_box"``."""
    view: AnyView
    """The seat's view just before it decided, made with ``world=True``."""
    action: int
    """The action the seat took."""

    @property
    def forced(self) -> bool:
        """Whether the seat had only one legal action (nothing to analyse)."""
        return len(legal_actions_of(self.view)) == 1


def seat_decisions(game: AnyGame, seat: int) -> list[SeatDecision]:
    """Every decision ``seat`` made in ``game`` (finished or not), in order
    (the moments of :func:`sushigo.engine.editions.walk` where it decided)."""
    if not 0 <= seat < game.players:
        raise ValueError(f"there is no seat {seat} in a {game.players}-player game")
    return [SeatDecision(m.round, m.turn, m.index, m.kind, seat_view(m.board, seat, world=True), m.chosen[seat])
            for m in walk(game) if seat in m.chosen and m.turn is not None]


__all__ = ["SeatDecision", "seat_decisions"]
