"""Rules: player counts, hand sizes, pass direction and options (docs/rules.md §1.2, §1.3, §1.7, §1.10)."""

from __future__ import annotations

import dataclasses

import pytest

from sushigo import Game
from sushigo.engine.rules import HAND_SIZES, NUM_ROUNDS, OPTION_NAMES, Rules, RulesError

HAND = {2: 10, 3: 9, 4: 8, 5: 7}  # docs/rules.md §1.2
USED_PER_GAME = {2: 60, 3: 81, 4: 96, 5: 105}  # docs/rules.md §1.2


@pytest.mark.parametrize(("players", "size"), sorted(HAND.items()))
def test_hand_sizes(players, size):
    assert Rules(players).hand_size == size
    assert HAND_SIZES[players] == size
    game = Game(players, seed=0)
    assert [len(h) for h in game.hands] == [size] * players


@pytest.mark.parametrize("players", [-1, 0, 1, 6, 7, 10])
def test_bad_player_counts_rejected(players):
    with pytest.raises(RulesError):
        Rules(players)
    with pytest.raises(RulesError):
        Game(players)


@pytest.mark.parametrize("players", [True, False, 3.0, "3", None])
def test_player_count_must_be_int(players):
    with pytest.raises(RulesError):
        Rules(players)


def test_rules_error_is_value_error():
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize(("players", "used"), sorted(USED_PER_GAME.items()))
def test_cards_used_per_game_fit_in_deck(players, used):
    assert NUM_ROUNDS == 3
    assert players * Rules(players).hand_size * 3 == used
    assert used <= 108
    # and the engine can actually deal all three rounds from one shuffled deck
    game = Game(players, seed=players)
    dealt = 0
    while not game.is_over:
        if game.turn == 1:
            dealt += sum(len(h) for h in game.hands)
        game.play([game.legal_actions(s)[0] for s in range(players)])
    assert dealt == used
    assert len(game.deck) == 108 - used


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pass_left_always_by_default(players):
    rules = Rules(players)
    assert [rules.pass_step(r) for r in (1, 2, 3)] == [1, 1, 1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pass_both_ways_round_two_right(players):
    rules = Rules(players, pass_both_ways=True)
    assert [rules.pass_step(r) for r in (1, 2, 3)] == [1, -1, 1]


def test_default_options_off():
    rules = Rules(4)
    assert rules.pass_both_ways is False
    assert rules.reshuffle is False
    assert rules.edition == "base"
    assert rules.options() == {"pass_both_ways": False, "reshuffle": False}
    assert set(OPTION_NAMES) == {"pass_both_ways", "reshuffle"}


def test_unknown_edition_rejected():
    with pytest.raises(RulesError):
        Rules(4, edition="party")


@pytest.mark.parametrize(
    "options",
    [
        None,
        {},
        {"pass_both_ways": True},
        {"reshuffle": True},
        {"pass_both_ways": False, "reshuffle": True},
        {"pass_both_ways": True, "reshuffle": True},
    ],
)
def test_from_options(options):
    rules = Rules.from_options(3, options)
    expected = {"pass_both_ways": False, "reshuffle": False}
    expected.update(options or {})
    assert rules.options() == expected
    assert rules.players == 3
    assert Rules.from_options(3, rules.options()) == rules


@pytest.mark.parametrize(
    "options",
    [
        {"pass_both_way": True},
        {"dummy": True},
        {"edition": "base"},
        {"pass_both_ways": 1},
        {"reshuffle": "true"},
        {"reshuffle": None},
    ],
)
def test_from_options_rejects(options):
    with pytest.raises(RulesError):
        Rules.from_options(3, options)


def test_from_options_bad_players():
    with pytest.raises(RulesError):
        Rules.from_options(6, {})


def test_rules_are_frozen_and_hashable():
    rules = Rules(3, pass_both_ways=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 4  # type: ignore[misc]
    assert hash(rules) == hash(Rules(3, pass_both_ways=True))
    assert rules != Rules(3)


def test_every_rule_option_is_a_field_of_rules_with_its_default_and_values() -> None:
    """RULE_OPTIONS (what the lobby's form draws and records write) and Rules agree:
    each option is a field of the same name whose default is the option's, each
    edition's options() are its options, and every value an option lists is taken."""
    from dataclasses import fields

    from sushigo.engine.rules import RULE_OPTIONS, RuleOption

    defaults = {f.name: f.default for f in fields(Rules)}
    for option in RULE_OPTIONS:
        assert isinstance(option, RuleOption) and defaults[option.name] == option.default, option.name
    assert list(Rules(3).options()) == [o.name for o in RULE_OPTIONS if o.edition == "base"]
    assert list(Rules.party(3, "Sushi Go!").options()) == [o.name for o in RULE_OPTIONS if o.edition == "party"]
    for option in RULE_OPTIONS:
        values = ([True, False] if option.kind == "switch" else
                  list(range(option.low, option.high + 1)) if option.kind == "number" else
                  [v for v, _ in option.choices])
        for value in values:
            rules = (Rules.party(3, "Sushi Go!", **{option.name: value}) if option.edition == "party"
                     else Rules(3, **{option.name: value}))
            assert rules.options()[option.name] == value and option.problem(value) is None
        bad = "maybe" if option.kind != "choice" else "none of them"
        assert option.problem(bad) is not None
        with pytest.raises(RulesError, match=option.name):
            if option.edition == "party":
                Rules.party(3, "Sushi Go!", **{option.name: bad})
            else:
                Rules(3, **{option.name: bad})
