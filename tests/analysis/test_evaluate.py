"""evaluate_decision: every legal action valued from the seat's view alone, reproducibly,
with the best action's loss 0 and hand-built clear choices valued at the right size."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tests.positions import late_round_position

from sushigo import Card, Game, encode
from sushigo.analysis import evaluate_decision
from sushigo.engine.base.view import sample_world, seat_view
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view, sample_party_world
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

C = Card


def test_every_legal_action_is_valued_best_first_with_the_best_losing_nothing() -> None:
    game = Game(4, seed=9)
    view = seat_view(game, 2, world=True)
    ev = evaluate_decision(view, samples=20, seed=3)
    assert sorted(v.action for v in ev.values) == sorted(game.legal_actions(2))
    losses = [ev.loss(v.action) for v in ev.values]
    assert losses == sorted(losses)
    assert ev.loss(ev.best.action) == 0.0 and ev.loss_se(ev.best.action) == 0.0
    for v in ev.values:
        assert len(v.margins) == 20 and v.margin == pytest.approx(sum(v.margins) / 20)
        assert 0.0 <= v.win <= 1.0 and v.margin_se >= 0.0
        assert ev.loss(v.action) >= 0.0


def test_a_seed_reproduces_the_evaluation_and_another_seed_samples_other_worlds() -> None:
    view = seat_view(Game(3, seed=2), 1, world=True)
    first = evaluate_decision(view, samples=12, seed=5)
    assert evaluate_decision(view, samples=12, seed=5) == first
    assert evaluate_decision(view, samples=12, seed=6) != first


def test_the_sashimi_that_completes_a_set_is_best_by_about_nine_points() -> None:
    """Two sashimi down, sashimi or egg in hand: the sashimi scores 10, the egg 1
    (the other card goes to a neighbour with no sashimi, where it is worth 1 or 0)."""
    game = late_round_position([C.SASHIMI, C.EGG], [C.SASHIMI, C.SASHIMI, C.MAKI1],
                               [[C.TEMPURA] * 3, [C.EGG] * 3])
    ev = evaluate_decision(seat_view(game, 0, world=True), samples=100, seed=1)
    assert ev.best.action == encode([C.SASHIMI])
    loss = ev.loss(encode([C.EGG]))
    assert 7.0 <= loss <= 11.0 and ev.loss_se(encode([C.EGG])) < 1.0


def test_the_dumpling_that_makes_five_beats_an_egg_by_about_four_points() -> None:
    """Four dumplings (10 points) down: a fifth makes 15, an egg nigiri is worth 1; the
    card passed on is worth 1 to the neighbour either way (a first dumpling or an egg)."""
    game = late_round_position([C.DUMPLING, C.EGG], [C.DUMPLING] * 4, [[C.TEMPURA] * 4, [C.SALMON] * 4])
    ev = evaluate_decision(seat_view(game, 0, world=True), samples=60, seed=2)
    assert ev.best.action == encode([C.DUMPLING])
    assert ev.loss(encode([C.EGG])) == pytest.approx(4.0, abs=0.5)


def test_clearly_worse_actions_stop_being_sampled_and_contenders_go_on() -> None:
    """After 32 samples the egg (4 points worse every time) gets no more playouts; the loss
    is the mean of the paired differences over the samples both have."""
    game = late_round_position([C.DUMPLING, C.EGG], [C.DUMPLING] * 4, [[C.TEMPURA] * 4, [C.SALMON] * 4])
    ev = evaluate_decision(seat_view(game, 0, world=True), samples=100, seed=2)
    dumpling, egg = ev.value(encode([C.DUMPLING])), ev.value(encode([C.EGG]))
    assert (len(dumpling.margins), len(egg.margins)) == (100, 32)
    assert ev.loss(egg.action) == pytest.approx(sum(d - e for d, e in zip(dumpling.margins, egg.margins)) / 32)
    # a whole hand: the best is sampled in full, every action at least 32 times, losses in order
    full = evaluate_decision(seat_view(Game(4, seed=9), 1, world=True), samples=140, seed=1)
    assert len(full.best.margins) == 140 and all(len(v.margins) in (32, 64, 128, 140) for v in full.values)
    losses = [full.loss(v.action) for v in full.values]
    assert losses == sorted(losses) and losses[0] == 0.0


@pytest.mark.parametrize("seed", range(6))
def test_two_games_that_look_the_same_to_the_seat_are_evaluated_the_same(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rng.randint(2, 5), seed=seed)
    for _ in range(rng.randrange(12)):
        game.play([rng.choice(game.legal_actions(s)) for s in range(game.players)])
    seat = rng.randrange(game.players)
    other = sample_world(game, seat, seed=seed + 1)  # the hidden cards dealt again
    a = evaluate_decision(seat_view(game, seat, world=True), samples=6, seed=seed)
    b = evaluate_decision(seat_view(other, seat, world=True), samples=6, seed=seed)
    assert a == b


@pytest.mark.slow
def test_party_picks_and_decisions_after_the_reveal_are_evaluated_from_the_view_alone() -> None:
    """Random Party games (3-6 players, every official menu but Dinner for Two): at some picks and
    at every decision after the reveal, the legal actions are valued, and a world that looks the
    same to the seat gives the same evaluation."""
    kinds = []
    for seed in range(8):
        rng = random.Random(seed)
        menu = [m for name, m in OFFICIAL_MENUS.items() if name != "Dinner for Two"][seed % 7]
        game = PartyGame(Rules.party(rng.randint(3, 6), list(menu)), seed=seed)
        checked = 0
        while not game.is_over:
            seat = game.pending_seats[0]
            legal = game.legal_actions(seat)
            if checked < 5 and len(legal) > 1 and (game.phase is Phase.RESOLVE or rng.random() < 0.05):
                ev = evaluate_decision(party_seat_view(game, seat, world=True), samples=4, seed=seed)
                assert sorted(v.action for v in ev.values) == sorted(legal)
                other = sample_party_world(game, seat, random.Random(seed))
                assert evaluate_decision(party_seat_view(other, seat, world=True), samples=4, seed=seed) == ev
                kinds.append(game.phase)
                checked += 1
            game.commit(seat, rng.choice(legal))
    assert Phase.RESOLVE in kinds and Phase.PICK in kinds and len(kinds) > 20


def test_bad_budgets_and_views_without_a_world_are_refused() -> None:
    game = Game(3, seed=0)
    with pytest.raises(ValueError, match="at least 1"):
        evaluate_decision(seat_view(game, 0, world=True), samples=0)
    with pytest.raises(ValueError, match="world=True"):
        evaluate_decision(seat_view(game, 0))
    ev = evaluate_decision(seat_view(game, 0, world=True), samples=2)
    with pytest.raises(ValueError, match="not one of this decision's legal actions"):
        ev.loss(10_000)
    assert dataclasses.is_dataclass(ev)


def test_a_time_limit_stops_early_on_the_same_worlds() -> None:
    view = seat_view(Game(4, seed=5), 0, world=True)
    hurried = evaluate_decision(view, samples=50, seed=2, time_limit=1e-9)
    assert all(len(v.margins) == 2 for v in hurried.values)  # at least two samples, then the time is up
    assert hurried == evaluate_decision(view, samples=2, seed=2)
    assert evaluate_decision(view, samples=3, seed=2, time_limit=60.0) == evaluate_decision(view, samples=3, seed=2)
    with pytest.raises(ValueError, match="time_limit"):
        evaluate_decision(view, samples=3, time_limit=0)
