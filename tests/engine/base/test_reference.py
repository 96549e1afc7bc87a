"""The engine agrees with an independent re-implementation of the rules
(tests/reference.py) over thousands of random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies import random_actions
from reference import check_game
from sushigo import Game, Rules


def play_random(game: Game, rng: random.Random) -> None:
    """Random legal play that uses chopsticks often, via play() or commit()."""
    n = game.players
    while not game.is_over:
        actions = random_actions(game, rng, 0.5)
        if rng.random() < 0.5:
            game.play(actions)
        else:
            order = list(range(n))
            rng.shuffle(order)
            for s in order:
                game.commit(s, actions[s])


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(
    st.integers(2, 5), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1)
)
def test_engine_matches_the_reference(players: int, both_ways: bool, reshuffle: bool, seed: int, policy: int) -> None:
    game = Game(Rules(players, pass_both_ways=both_ways, reshuffle=reshuffle), seed=seed)
    play_random(game, random.Random(policy))
    check_game(game)


def test_random_playout_matches_the_reference() -> None:
    rng = random.Random(5)
    for i in range(300):
        game = Game(Rules(rng.randint(2, 5), pass_both_ways=i % 2 == 0), seed=i)
        game.random_playout(rng)
        check_game(game)
