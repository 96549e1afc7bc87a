"""A seat's information set as JSON (sushigo.engine.worlds): the same view back, nothing hidden in it,
the same search, and a clear error for anything that is not a world."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.botspecs import random_commits

from sushigo.bots import ISMCTSBot
from sushigo.engine.base.game import Game
from sushigo.engine.base.view import SeatView, sample_world
from sushigo.engine.editions import AnyGame, AnyView, seat_view
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import sample_party_world
from sushigo.engine.rules import Rules
from sushigo.engine.worlds import WorldError, world_document, world_view

MENUS = sorted(OFFICIAL_MENUS)


def base_game(seed: int, players: int, turns: int) -> Game | None:
    rng = random.Random(seed)
    game = Game(Rules(players, pass_both_ways=bool(seed % 2)), seed=seed)
    for _ in range(turns):
        if game.is_over:
            return None
        game.play([rng.choice(game.legal_actions(s)) for s in range(players)])
    for s in range(players):  # some seats already picked this turn, hidden
        if not game.is_over and rng.random() < 0.4:
            game.commit(s, rng.choice(game.legal_actions(s)))
    return None if game.is_over else game


def party_game(seed: int, steps: int) -> PartyGame | None:
    menu = MENUS[seed % len(MENUS)]
    game = PartyGame(Rules.party(2 if "Dinner" in menu else 3 + seed % 3, menu), seed=seed)
    random_commits(game, random.Random(seed), steps, stop_at_resolve=bool(seed % 3 == 0))
    return None if game.is_over else game


def over_the_wire(game: AnyGame, seat: int, *, world: bool = False) -> AnyView:
    return world_view(json.loads(json.dumps(world_document(game, seat))), world=world)


def same_view(a: AnyView, b: AnyView) -> None:
    """Equal, but for the card order of the hands a base seat held earlier this round."""
    if isinstance(a, SeatView) and isinstance(b, SeatView):
        assert [sorted(h) for h in a.seen_hands] == [sorted(h) for h in b.seen_hands]
        a = a.__class__(**{**{f: getattr(a, f) for f in a.__dataclass_fields__}, "seen_hands": b.seen_hands})
    assert a == b


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), turns=st.integers(0, 30))
def test_a_base_seat_gets_its_view_back(seed: int, players: int, turns: int) -> None:
    game = base_game(seed, players, turns)
    if game is None:
        return
    for seat in range(players):
        if game.legal_actions(seat):
            same_view(over_the_wire(game, seat), seat_view(game, seat))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_a_party_seat_gets_its_view_back_mid_turn_too(seed: int, steps: int) -> None:
    game = party_game(seed, steps)
    if game is None:
        return
    for seat in game.pending_seats:
        assert over_the_wire(game, seat) == seat_view(game, seat)


def _shuffled_earlier_deals(game: AnyGame, rng: random.Random) -> None:
    """Reorder the cards of every finished round's deal: the seat cannot tell the difference."""
    for r in range(len(game._history) - 1):
        dealt, turns = game._history[r]
        mixed = [list(h) for h in dealt]
        for h in mixed:
            rng.shuffle(h)
        game._history[r] = ([type(h)(m) for h, m in zip(dealt, mixed)], turns)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), turns=st.integers(0, 30))
def test_games_that_look_the_same_to_a_base_seat_give_the_same_document(seed: int, players: int,
                                                                        turns: int) -> None:
    game = base_game(seed, players, turns)
    if game is None:
        return
    seat = seed % players
    other = sample_world(game, seat, seed=seed + 1)  # every card the seat has not seen dealt afresh
    _shuffled_earlier_deals(other, random.Random(seed))
    mine, theirs = world_document(game, seat), world_document(other, seat)
    assert {**mine, "picked": None} == {**theirs, "picked": None}  # the world took back others' hidden picks


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_games_that_look_the_same_to_a_party_seat_give_the_same_document(seed: int, steps: int) -> None:
    game = party_game(seed, steps)
    if game is None:
        return
    seat = game.pending_seats[-1]
    other = sample_party_world(game, seat, seed=seed + 1)
    _shuffled_earlier_deals(other, random.Random(seed))
    mine, theirs = world_document(game, seat), world_document(other, seat)
    assert {**mine, "picked": None} == {**theirs, "picked": None}  # the world took back others' hidden picks


def test_the_document_names_no_seed_and_no_card_the_seat_has_not_seen() -> None:
    game = Game(4, seed=123)
    game.play([game.legal_actions(s)[0] for s in range(4)])
    doc = world_document(game, 2)
    assert doc["state"]["seed"] is None and doc["format"] == "sushigo-world/1"
    unseen = [h for s, h in enumerate(game.hands) if s not in (2, 1)]  # seat 2 held seat 1's hand (passing left)
    theirs = json.dumps(world_document(sample_world(game, 2, seed=9), 2))
    assert json.dumps(doc) == theirs and any(unseen)


@pytest.mark.parametrize("edition", ["base", "party"])
def test_a_search_bot_decides_as_it_would_at_the_table(edition: str) -> None:
    decided = 0
    for seed in range(12):
        game = base_game(seed, 2 + seed % 4, seed % 9) if edition == "base" else party_game(seed, 7 * seed)
        if game is None:
            continue
        seat = game.pending_seats[0]
        here = ISMCTSBot(seed=seed, iterations=40).choose(seat_view(game, seat, world=True))
        away = ISMCTSBot(seed=seed, iterations=40).choose(over_the_wire(game, seat, world=True))
        assert here == away
        decided += 1
    assert decided >= 8


def _nested(depth: int) -> list[Any]:
    """A list of a list of ... ``depth`` deep."""
    out: list[Any] = []
    for _ in range(depth - 1):
        out = [out]
    return out


def _doc() -> dict[str, Any]:
    game = PartyGame(Rules.party(3, "Master Menu"), seed=4)
    random_commits(game, random.Random(4), 20)
    return json.loads(json.dumps(world_document(game, game.pending_seats[0])))


def _without(key: str) -> dict[str, Any]:
    doc = _doc()
    del doc["state"][key]
    return doc


def _state(key: str, value: Any) -> dict[str, Any]:
    doc = _doc()
    doc["state"][key] = value
    return doc


@pytest.mark.parametrize(("doc", "says"), [
    ([], "format"),
    ({"format": "sushigo-record/1"}, "format"),
    ({**_doc(), "edition": "chess"}, "edition"),
    ({**_doc(), "players": "3"}, "players"),
    ({**_doc(), "menu": ["nope"]}, "the world's rules"),
    ({**_doc(), "seat": 7}, "seat must be one of 0 to 2"),
    ({**_doc(), "picked": [True]}, "picked"),
    (_without("hands"), "exactly the keys"),
    (_state("deck", {"__class__": "os.system"}), "the world's deck: unreadable value"),
    (_state("_rng", {"random": [3, ["x"], None]}), "the world's _rng: a random generator's state"),
    (_state("_decision", {"decision": [1, 2, 3, 4, 5, 6]}), "the world's _decision"),
    (_state("hands", [7, 7, 7]), "the world is not a game the engine can play"),
    (_state("deck", _nested(25)), "nests at most 20 deep"),
])
def test_anything_else_is_refused_in_one_line(doc: Any, says: str) -> None:
    with pytest.raises(WorldError, match=says) as e:
        world_view(doc)
    assert "\n" not in str(e.value)
