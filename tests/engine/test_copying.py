"""Games, views and results survive copy.deepcopy and pickle, mid-game, in both
editions, on the pure-Python engine and on the compiled one
(scripts/compile_engine.py), and a copy plays on exactly as the original."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from sushigo.engine.base.game import Game
from sushigo.engine.base.view import seat_view
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view
from sushigo.engine.rules import Rules

COPIES: list[Callable[[Any], Any]] = [copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x)), copy.copy]


def _midgame(edition: str, seed: int) -> Game | PartyGame:
    rng = random.Random(seed)
    game: Game | PartyGame
    if edition == "base":
        game = Game(Rules(rng.randint(2, 5)), seed=seed)
    else:
        game = PartyGame(Rules.party(rng.randint(3, 6), "Master Menu"), seed=seed)
    for _ in range(rng.randrange(1, 40)):
        seat = game.pending_seats[0]
        game.commit(seat, rng.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize("edition", ["base", "party"])
@pytest.mark.parametrize("how", range(len(COPIES)))
def test_a_copied_game_plays_on_as_the_original(edition: str, how: int) -> None:
    for seed in range(12):
        game = _midgame(edition, seed)
        twin = COPIES[how](game)
        assert type(twin) is type(game)
        assert twin.history() == game.history()
        assert [twin.legal_actions(s) for s in range(game.players)] == \
            [game.legal_actions(s) for s in range(game.players)]
        if how == 2:  # a shallow copy shares the lists; nothing more to check
            continue
        game.random_playout(random.Random(seed))
        twin.random_playout(random.Random(seed))
        assert twin.result() == game.result()
        assert twin.history() == game.history()


@pytest.mark.parametrize("edition", ["base", "party"])
def test_views_and_results_copy_and_pickle(edition: str) -> None:
    for seed in range(6):
        game = _midgame(edition, seed)
        view = seat_view(game, 0) if isinstance(game, Game) else party_seat_view(game, 0)
        for make in COPIES[:2]:
            assert make(view) == view
            assert make(game.result()) == game.result()
        if isinstance(game, PartyGame):
            played = [p for col in game.collections for p in col]
            again = pickle.loads(pickle.dumps(played))
            assert [(p.card, p.kind, p.turn, p.uid, p.on, p.filled, p.copy) for p in again] == \
                [(p.card, p.kind, p.turn, p.uid, p.on, p.filled, p.copy) for p in played]
