"""Taking back a hidden pick (``withdraw``) in both editions.

Oracle: a game where seats commit, take back and commit again, in random
orders, ends exactly as the game where each seat committed only the pick that
was revealed (same history, scores and record).
"""

from __future__ import annotations

import random

import pytest

from sushigo.engine.editions import AnyGame, new_game, to_record
from sushigo.engine.errors import IllegalActionError
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.records import dumps
from sushigo.engine.rules import Rules, RulesError
from sushigo.engine.turns import Phase


def _rules(rnd: random.Random) -> Rules:
    players = rnd.randint(2, 5)
    if rnd.random() < 0.5:
        return Rules(players)
    menus = sorted(OFFICIAL_MENUS)
    rnd.shuffle(menus)
    for menu in menus:
        try:
            return Rules.party(players, menu)
        except RulesError:  # a menu whose items this many players cannot use
            continue
    raise AssertionError(f"no official menu for {players} players")


def _play_with_changes(rules: Rules, seed: int, rnd: random.Random) -> tuple[AnyGame, AnyGame, int]:
    """Play ``rules`` with picks changed at random, and beside it the game of
    only the picks revealed; return both and how many picks were taken back."""
    game, plain = new_game(rules, seed=seed), new_game(rules, seed=seed)
    withdrawn = 0
    while not game.is_over:
        pending = game.pending_seats
        if game.phase is not Phase.PICK:  # a Party special's decision, made in the open
            seat = pending[0]
            action = rnd.choice(game.legal_actions(seat))
            with pytest.raises(IllegalActionError):
                game.withdraw(seat)
            game.commit(seat, action)
            plain.commit(seat, action)
            continue
        order = pending[:]
        rnd.shuffle(order)
        for seat in order[:-1]:
            legal = game.legal_actions(seat)
            game.commit(seat, rnd.choice(legal))
            if rnd.random() < 0.5:
                # a seat that committed this turn changes its mind: pending again, same choices
                back = rnd.choice([s for s in order if game.has_committed(s)])
                before = game.committed_action(back)
                assert game.withdraw(back) == before
                withdrawn += 1
                assert back in game.pending_seats and not game.has_committed(back)
                game.commit(back, rnd.choice(game.legal_actions(back)))
        final = {s: game.committed_action(s) for s in order[:-1]}
        final[order[-1]] = rnd.choice(game.legal_actions(order[-1]))
        for s in sorted(final):
            plain.commit(s, final[s])
        game.commit(order[-1], final[order[-1]])
    return game, plain, withdrawn


@pytest.mark.parametrize("seed", range(300))
def test_changed_picks_end_as_if_only_revealed_ones_were_made(seed: int) -> None:
    rnd = random.Random(seed)
    rules = _rules(rnd)
    game, plain, withdrawn = _play_with_changes(rules, seed, rnd)
    assert withdrawn > 0
    assert game.scores() == plain.scores()
    assert dumps(to_record(game)) == dumps(to_record(plain))


@pytest.mark.parametrize("rules", [Rules(3), Rules.party(3, "my first meal")], ids=["base", "party"])
def test_withdraw_needs_a_hidden_pick(rules: Rules) -> None:
    game = new_game(rules, seed=5)
    with pytest.raises(IllegalActionError, match="no hidden pick"):
        game.withdraw(0)
    with pytest.raises(IllegalActionError, match="no seat 7"):
        game.withdraw(7)
    game.commit(0, game.legal_actions(0)[0])
    game.withdraw(0)
    with pytest.raises(IllegalActionError, match="no hidden pick"):
        game.withdraw(0)  # taken back already
    for s in range(3):
        game.commit(s, game.legal_actions(s)[0])
    # the turn was revealed: nothing is hidden any more
    with pytest.raises(IllegalActionError):
        game.withdraw(2)
    assert game.turn == 2 or game.phase is not Phase.PICK


@pytest.mark.parametrize("rules", [Rules(2), Rules.party(2, "my first meal")], ids=["base", "party"])
def test_the_reveal_shows_the_changed_pick(rules: Rules) -> None:
    def turn(seat0: list[int], seat1: int) -> str:
        """The record after seat 0 commits each of ``seat0`` in turn (taking back all but the last)."""
        game = new_game(rules, seed=11)
        for i, action in enumerate(seat0):
            if i:
                game.withdraw(0)
            game.commit(0, action)
        game.commit(1, seat1)
        return dumps(to_record(game))

    game = new_game(rules, seed=11)
    legal0, other = game.legal_actions(0), game.legal_actions(1)[0]
    first, second = legal0[0], legal0[-1]
    assert first != second
    changed = turn([first, second], other)
    assert changed == turn([second], other)
    assert changed != turn([first], other)


@pytest.mark.parametrize("seed", range(40))
def test_change_choices_are_the_legal_actions_before_the_commit(seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game(_rules(rnd), seed=seed)
    while not game.is_over:
        seat = game.pending_seats[0]
        legal = game.legal_actions(seat)
        assert game.change_choices(seat) == []
        game.commit(seat, rnd.choice(legal))
        if game.phase is Phase.PICK and game.has_committed(seat):
            assert game.change_choices(seat) == legal
            assert game.committed_action(seat) in legal  # asking changed nothing
            assert seat not in game.pending_seats
