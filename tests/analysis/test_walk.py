"""seat_decisions: a finished game's decisions of one seat, each with exactly the view the
seat had then, found again from the game's history (and from its record)."""

from __future__ import annotations

import pytest

from sushigo import Game
from sushigo.analysis import evaluate_decision
from sushigo.analysis.walk import seat_decisions
from sushigo.bots import make_bot
from sushigo.bots.base import view_for
from sushigo.engine.base.view import seat_view
from sushigo.engine.editions import replay, to_record
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view
from sushigo.engine.rules import Rules

# Two custom menus with every kind of decision after the reveal between them.
SPECIALS_MENUS = (
    ["nigiri", "maki", "tempura", "sashimi", "miso_soup", "chopsticks", "spoon", "pudding"],
    ["nigiri", "maki", "tempura", "sashimi", "dumpling", "menu", "takeout_box", "pudding"],
)


def _play_watching(game: Game | PartyGame, seat: int, seed: int) -> list[tuple[int, str, object, int]]:
    """Play ``game`` with greedy bots, keeping (round, kind, view with world, action) at each decision of ``seat``."""
    bots = [make_bot("greedy", seed + s) for s in range(game.players)]
    seen = []
    while not game.is_over:
        pending = list(game.pending_seats)
        if seat in pending:  # its view before anyone commits (a pick is simultaneous)
            if isinstance(game, PartyGame):
                d = game.decision
                kind = d.kind if d is not None else "pick"
                full = party_seat_view(game, seat, world=True)
            else:
                kind, full = "pick", seat_view(game, seat, world=True)
        for s in pending:
            view = view_for(game, s, bots[s])
            action = bots[s].choose(view)
            if s == seat:
                seen.append((game.round, kind, full, action))
            game.commit(s, action)
    return seen


@pytest.mark.parametrize("players,seat,seed", [(2, 0, 1), (4, 3, 2), (5, 1, 3)])
def test_base_decisions_are_the_seats_views_and_choices(players: int, seat: int, seed: int) -> None:
    game = Game(players, seed=seed)
    seen = _play_watching(game, seat, seed)
    walked = seat_decisions(game, seat)
    assert [(d.round, d.kind, d.view, d.action) for d in walked] == seen
    assert [d.turn for d in walked[: game.rules.hand_size]] == list(range(1, game.rules.hand_size + 1))
    again = seat_decisions(replay(to_record(game)), seat)  # from the record, dealt by hand
    assert [(d.view, d.action) for d in again] == [(d.view, d.action) for d in walked]


@pytest.mark.parametrize("players,menu,seed", [
    (4, "Master Menu", 1), (5, "Party Sampler", 2), (3, "Points Platter", 3), (6, "Big Banquet", 4),
    (4, "Cutthroat Combo", 5), (2, "Dinner for Two", 6),
])
def test_party_decisions_include_every_decision_after_the_reveal(players: int, menu: str, seed: int) -> None:
    game = PartyGame(Rules.party(players, menu), seed=seed)
    seen = _play_watching(game, 0, seed)
    walked = seat_decisions(game, 0)
    assert [(d.round, d.kind, d.view, d.action) for d in walked] == seen
    again = seat_decisions(replay(to_record(game)), 0)
    assert [(d.view, d.action) for d in again] == [(d.view, d.action) for d in walked]


def test_every_kind_of_party_decision_is_found() -> None:
    """Chopsticks, spoon, menu and takeout box decisions: over a few games the seat meets each."""
    kinds: set[str] = set()
    for seed in range(4):
        for menu in SPECIALS_MENUS:
            game = PartyGame(Rules.party(4, menu), seed=seed)
            seen = _play_watching(game, 1, seed)
            walked = seat_decisions(game, 1)
            assert [(d.kind, d.view, d.action) for d in walked] == [(k, v, a) for _, k, v, a in seen]
            kinds |= {d.kind for d in walked}
    assert kinds == {"pick", "chopsticks", "spoon", "menu", "takeout_box"}


def test_a_replayed_records_views_evaluate_as_the_live_games() -> None:
    """The walk deals by hand, the live game dealt itself: the same seed gives the same
    evaluation, since the evaluation reads only the view."""
    for game in (Game(4, seed=11), PartyGame(Rules.party(4, "Master Menu"), seed=11)):
        seen = _play_watching(game, 2, 11)
        walked = seat_decisions(replay(to_record(game)), 2)
        for i in (0, 5, len(walked) - 3):
            assert walked[i].view == seen[i][2]
            assert evaluate_decision(walked[i].view, samples=6, seed=i) == \
                evaluate_decision(seen[i][2], samples=6, seed=i)  # type: ignore[arg-type]


def test_no_such_seat() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        seat_decisions(Game(4, seed=1), 4)
