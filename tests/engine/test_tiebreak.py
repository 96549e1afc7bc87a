"""An edition's tie-break read from a stored result (``Edition.tiebreak_of``, what
the server's histories rank by) is its tie-break of the result itself, for
random finished games of both editions; and it decides the winners as the
engine does."""

from __future__ import annotations

import json
import random

import pytest

from sushigo.engine.editions import BASE, PARTY, Edition
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.rules import Rules, RulesError


def _rules(edition: Edition, rng: random.Random) -> Rules:
    if edition is BASE:
        return Rules(rng.randint(2, 5))
    while True:  # a menu some sizes may not play: draw again
        try:
            return Rules.party(rng.randint(2, 8), rng.choice(sorted(OFFICIAL_MENUS)))
        except RulesError:
            continue


@pytest.mark.parametrize("edition", [BASE, PARTY], ids=["base", "party"])
def test_the_stored_results_tiebreak_is_the_results(edition: Edition) -> None:
    rng = random.Random(7)
    for game_no in range(60):
        game = edition.new_game(_rules(edition, rng), seed=game_no)
        game.random_playout(random.Random(game_no))
        result = game.result()
        stored = json.loads(json.dumps(result.to_json()))  # as the server keeps it
        tiebreak = edition.tiebreak_of(stored)
        assert tiebreak == edition.tiebreak(result)
        best = max(zip(result.totals, tiebreak))
        assert sorted(result.winners) == [s for s, k in enumerate(zip(result.totals, tiebreak)) if k == best]
