"""analyze_game: whole games analysed seat by seat, labelled, summed up, reproducible, and
blind to everything the seat could not see when it decided."""

from __future__ import annotations

import random

import pytest

from sushigo import Game
from sushigo.analysis.game import ANALYSIS_FORMAT, LABELS, THRESHOLDS, Thresholds, analyze_game
from sushigo.bots import make_bot
from sushigo.bots.base import play_game, view_for
from sushigo.engine.base.actions import parse_action
from sushigo.engine.base.view import sample_world
from sushigo.engine.editions import AnyGame
from sushigo.engine.party.actions import parse_party_action
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import sample_party_world
from sushigo.engine.rules import Rules


def finish(game: AnyGame, seed: int) -> AnyGame:
    bots = [make_bot("greedy", seed + s) for s in range(game.players)]
    while not game.is_over:
        for s in list(game.pending_seats):
            game.commit(s, bots[s].choose(view_for(game, s, bots[s])))
    return game


@pytest.fixture(scope="module")
def base_game() -> Game:
    return play_game([make_bot("greedy", s) for s in range(3)], seed=21)


@pytest.fixture(scope="module")
def party_game() -> PartyGame:
    game = play_game([make_bot("greedy", s) for s in range(3)], seed=22, rules=Rules.party(3, "Party Sampler"))
    assert isinstance(game, PartyGame)
    return game


def test_thresholds_label_by_loss_unless_within_noise() -> None:
    t = Thresholds(inaccuracy=1.0, mistake=2.5, blunder=5.0)
    assert [t.label(x, 0.1) for x in (0.0, 0.99, 1.0, 2.49, 2.5, 4.99, 5.0, 30.0)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert t.label(3.0, 1.6) is None and t.label(3.0, 1.4) == "mistake"  # 2 standard errors
    for edition in ("base", "party"):
        th = THRESHOLDS[edition]
        assert 0 < th.inaccuracy < th.mistake < th.blunder


@pytest.mark.parametrize("which", ["base", "party"])
def test_every_unforced_decision_is_analysed_and_summed_up(which: str, base_game: Game,
                                                           party_game: PartyGame) -> None:
    game: AnyGame = base_game if which == "base" else party_game
    report = analyze_game(game, [2], samples=6, seed=3)
    (seat,) = report.seats
    assert seat.seat == 2 and report.edition == which
    assert seat.decisions and seat.forced >= 3  # at least the last card of each round
    for d in seat.decisions:
        assert len(d.evaluation.values) > 1
        assert d.loss == d.evaluation.loss(d.action) >= 0.0
        assert d.label == THRESHOLDS[which].label(d.loss, d.loss_se)
    assert seat.mean_loss == pytest.approx(sum(d.loss for d in seat.decisions) / len(seat.decisions))
    assert sum(seat.count(x) for x in LABELS) == sum(1 for d in seat.decisions if d.label)
    if which == "party":
        assert {d.kind for d in seat.decisions} >= {"pick"}


def test_reproducible_and_the_same_whichever_seats_or_processes(base_game: Game) -> None:
    alone = analyze_game(base_game, [1], samples=5, seed=8)
    assert analyze_game(base_game, [1], samples=5, seed=8) == alone
    together = analyze_game(base_game, [0, 1], samples=5, seed=8, jobs=2)
    assert together.seats[1] == alone.seats[0]
    assert analyze_game(base_game, [1], samples=5, seed=9) != alone
    progress: list[tuple[int, int]] = []
    analyze_game(base_game, [0], samples=2, progress=lambda done, total: progress.append((done, total)))
    assert progress[-1][0] == progress[-1][1] == len(progress)


@pytest.mark.slow
@pytest.mark.parametrize("which,seed", [("base", 1), ("base", 2), ("party", 3), ("party", 4)])
def test_records_that_look_the_same_to_the_seat_evaluate_its_decisions_the_same(which: str, seed: int) -> None:
    """Two games that differ only in what seat 1 could not see (the other hands, the deck) up to
    round 1 turn 3 give the same evaluation of every decision seat 1 made until then."""
    rules = Rules.party(4, "Master Menu") if which == "party" else Rules(4)
    game = play_game([make_bot("random", s) for s in range(4)], seed=seed, rules=rules)
    # Replay the same game to round 1, turn 3, then swap in another world consistent with seat 1's view.
    first: AnyGame = PartyGame(rules, seed=seed) if which == "party" else Game(rules, seed=seed)
    bots = [make_bot("random", s) for s in range(4)]
    while (first.round, first.turn) < (1, 3):
        for s in list(first.pending_seats):
            first.commit(s, bots[s].choose(view_for(first, s, bots[s])))
    rng = random.Random(seed)
    other = sample_party_world(first, 1, rng) if isinstance(first, PartyGame) else sample_world(first, 1, rng)
    assert other.hands != first.hands
    finish(first, seed)
    finish(other, seed + 50)
    del game
    a = analyze_game(first, [1], samples=5, seed=seed).seats[0]
    b = analyze_game(other, [1], samples=5, seed=seed).seats[0]
    early = [d for d in a.decisions if (d.round, d.turn) < (1, 3)]
    assert early and early == [d for d in b.decisions if (d.round, d.turn) < (1, 3)]


@pytest.mark.parametrize("which", ["base", "party"])
def test_the_json_document(which: str, base_game: Game, party_game: PartyGame) -> None:
    game: AnyGame = base_game if which == "base" else party_game
    report = analyze_game(game, [0, 2], samples=4, seed=1)
    doc = report.to_json()
    assert doc["format"] == ANALYSIS_FORMAT and doc["edition"] == which
    assert (doc["players"], doc["samples"], doc["seed"]) == (3, 4, 1)
    assert doc["thresholds"] == THRESHOLDS[which].to_json()
    parse = parse_party_action if which == "party" else parse_action
    for seat_doc, seat in zip(doc["seats"], report.seats):
        assert seat_doc["seat"] == seat.seat
        assert seat_doc["summary"]["decisions"] == len(seat.decisions) == len(seat_doc["decisions"])
        for d_doc, d in zip(seat_doc["decisions"], seat.decisions):
            assert (d_doc["round"], d_doc["turn"], d_doc["kind"], d_doc["label"]) == (d.round, d.turn, d.kind, d.label)
            assert d_doc["hand"] == list(d.hand) and len(d.hand) >= 2  # not forced: 2 cards or more
            assert parse(d_doc["played"]) == d.action
            assert parse(d_doc["best"]) == d.evaluation.best.action
            assert [parse(v["action"]) for v in d_doc["values"]] == [v.action for v in d.evaluation.values]
            assert d_doc["values"][0]["loss"] == 0.0
            assert d_doc["loss"] == round(d.loss, 3)


def test_bad_arguments(base_game: Game) -> None:
    with pytest.raises(ValueError, match="samples"):
        analyze_game(base_game, samples=0)
    with pytest.raises(ValueError, match="jobs"):
        analyze_game(base_game, jobs=0)
    with pytest.raises(ValueError, match="no seat 3"):
        analyze_game(base_game, [3])
