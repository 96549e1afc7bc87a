"""The one walk through a game's history (``sushigo.engine.editions.walk``):
its moments replay the game, each seat decides where its record says, the
story it tells is the live narrator's, and an unfinished game ends "now"."""

from __future__ import annotations

import random

import pytest

from sushigo.engine.editions import AnyGame, new_game, story_of, walk
from sushigo.engine.rules import Rules

from .test_narration import _party_tables, _play

TABLES = [Rules(n) for n in (2, 3, 5)] + _party_tables()[::3]


def _decisions(game: AnyGame) -> int:
    """Decisions in the game's history: every pick, and every Party decision after a reveal."""
    total = 0
    for _dealt, turns in game.history():
        for moves in turns:
            total += len(moves)
    return total


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.edition}-{r.players}-{'-'.join(r.menu[:2])}")
def test_the_moments_of_a_game_are_its_history_in_order(rules: Rules) -> None:
    for seed in range(4):
        game, lines = _play(rules, seed)
        moments = list(walk(game, narrate=True))
        assert [line for m in moments for line in m.told] == lines == story_of(game)
        assert sum(len(m.chosen) for m in moments) == _decisions(game)
        ends = [m for m in moments if m.turn is None]
        assert [m.kind for m in ends] == ["round_end", "round_end", "end"] and [m.round for m in ends] == [1, 2, 3]
        picks = [m for m in moments if m.kind == "pick"]
        assert all(sorted(m.chosen) == list(range(rules.players)) and m.index == 0 for m in picks)
        seen = 0
        for m in walk(game):
            for seat, action in m.chosen.items():
                if not m.board.has_committed(seat):
                    assert action in m.board.legal_actions(seat), (m.round, m.turn, seat)
                    seen += 1
        assert seen == _decisions(game)


@pytest.mark.parametrize("rules", [Rules(4), Rules.party(4, "Master Menu")], ids=["base", "party"])
def test_an_unfinished_game_ends_now(rules: Rules) -> None:
    game = new_game(rules, seed=3)
    rng = random.Random(3)
    for _ in range(13):
        seat = game.pending_seats[0]
        game.commit(seat, rng.choice(game.legal_actions(seat)))
    moments = list(walk(game))
    assert moments[-1].kind == "now" and moments[-1].turn is None
    assert moments[-1].board.round == game.round
