"""The dishes of a table (sushigo.engine.guide): every menu item has its line and
an example, its cards exist, and the examples' points are the engine's."""

from __future__ import annotations

import re

import pytest

from sushigo.engine.base.cards import parse_card
from sushigo.engine.guide import BASE_DISHES, dishes, how_to_play
from sushigo.engine.menus import MENU_ITEMS, OFFICIAL_MENUS
from sushigo.engine.party.cards import parse_party_card
from sushigo.engine.party.scoring import party_pudding_awards
from sushigo.engine.rules import Rules


def test_the_original_game_has_its_eight_dishes_with_real_cards() -> None:
    assert [d.item for d in dishes(Rules(3))] == [
        "tempura", "sashimi", "dumpling", "maki", "nigiri", "wasabi", "chopsticks", "pudding"]
    for d in BASE_DISHES:
        assert d.rule.endswith(".") and d.example and re.search(r"\d", d.example)
        for card in d.cards:
            parse_card(card)


@pytest.mark.parametrize("menu", list(OFFICIAL_MENUS))
def test_every_official_menu_lists_its_eight_items(menu: str) -> None:
    rules = Rules.party(2 if menu == "Dinner for Two" else 4, menu)
    got = dishes(rules)
    assert [d.item for d in got] == list(rules.menu)
    assert len({d.name for d in got}) == 8


def test_every_item_of_the_board_has_a_line_an_example_and_real_cards() -> None:
    from sushigo.engine.guide import _party_dishes

    for item in MENU_ITEMS:
        d = _party_dishes(Rules.party(4, "Master Menu"))[item]
        assert d.item == item and d.rule.endswith(".") and d.example
        for card in d.cards:
            parse_party_card(card)


def test_the_examples_points_follow_the_rules_options() -> None:
    from sushigo.engine.guide import _party_dishes

    plain = _party_dishes(Rules.party(2, "Dinner for Two"))["pudding"]
    harsh = _party_dishes(Rules.party(2, "Dinner for Two", two_player_pudding_penalty=True))["pudding"]
    assert "no penalty with two players" in plain.rule and "no penalty" not in harsh.rule
    awards = party_pudding_awards([3, 1, 2])
    assert plain.example.endswith(", ".join(f"{a:+d}" if a else "0" for a in awards))
    assert "draw 5 cards" in _party_dishes(Rules.party(4, "Party Sampler", menu_card_draw=5))["menu"].rule.lower()


def test_how_to_play_says_the_passing_and_the_tiebreak() -> None:
    assert "right in round 2" in how_to_play(Rules(4, pass_both_ways=True))[0]
    assert "puddings" in how_to_play(Rules(4))[-1]
    assert "dessert cards" in how_to_play(Rules.party(4, "Master Menu"))[-1]
