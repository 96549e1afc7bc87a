"""envs/party_vector: lockstep Party games and the fast network inputs, checked against the seat views."""

from __future__ import annotations

import random

import pytest
from tests.sheet_samples import random_menu

from sushigo.bots.learned import PARTY_INPUT_SIZE, party_network_input
from sushigo.engine.menus import OFFICIAL_MENUS, RESTRICTIONS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view
from sushigo.engine.rules import Rules
from sushigo.envs.party_vector import PartyBatch, party_inputs


def _rules(rng: random.Random) -> Rules:
    players = rng.randint(2, 8)
    while True:
        menu = list(rng.choice(list(OFFICIAL_MENUS.values()))) if rng.random() < 0.5 else random_menu(rng)
        if not any(players in RESTRICTIONS.get(item, ()) for item in menu):
            return Rules.party(players, menu)


@pytest.mark.slow
def test_fast_inputs_equal_the_inputs_of_the_seat_views() -> None:
    """Every menu kind, every table size, every phase: the same list as the view's, for every waiting seat
    and for seats the game does not wait for."""
    rng = random.Random(7)
    checked = 0
    for g in range(120):
        game = PartyGame(_rules(rng), seed=g)
        while not game.is_over:
            d = game.decision
            seats = [d.seat] if d else list(game.pending_seats)
            if rng.random() < 0.25:
                everyone = list(range(game.players))
                assert party_inputs(game, everyone) == [party_network_input(party_seat_view(game, s))
                                                        for s in everyone]
                checked += len(everyone)
            s = seats[0] if d else rng.choice(seats)
            game.commit(s, rng.choice(game.legal_actions(s)))
        assert party_inputs(game, [0]) == [party_network_input(party_seat_view(game, 0))]
    assert checked > 3000


def test_a_batch_plays_every_game_to_its_end_asking_each_waiting_seat() -> None:
    rng = random.Random(1)
    games = [PartyGame(_rules(rng), seed=s) for s in range(6)]
    twins = [PartyGame(g.rules, seed=s) for s, g in enumerate(games)]
    batch = PartyBatch(games)
    while not batch.is_over:
        waiting = batch.waiting()
        assert waiting and len(set(waiting)) == len(waiting)
        for i, s in waiting:
            assert games[i].legal_actions(s)
        legal = batch.legal_actions(waiting)
        inputs = batch.inputs(waiting)
        assert all(len(x) == PARTY_INPUT_SIZE for x in inputs)
        assert inputs == [party_inputs(games[i], [s])[0] for i, s in waiting]
        actions = [rng.choice(options) for options in legal]
        batch.act(waiting, actions)
        for (i, s), a in zip(waiting, actions):  # the same moves on games stepped alone
            twins[i].commit(s, a)
    assert [g.result() for g in games] == [t.result() for t in twins]


def test_a_batch_refuses_games_that_do_not_deal_themselves() -> None:
    game = PartyGame(Rules.party(3, "Sushi Go!"), auto_deal=False)
    with pytest.raises(ValueError, match="deal themselves"):
        PartyBatch([game]).waiting()
