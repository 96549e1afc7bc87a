"""Cards: the 108-card deck of the original edition (docs/rules.md §1.1) and card names."""

from __future__ import annotations

import pytest

from sushigo.engine.base.cards import (
    CARD_NAMES,
    DECK_COUNT_LIST,
    DECK_COUNTS,
    DECK_SIZE,
    MAKI,
    MAKI_ICONS,
    NIGIRI,
    NIGIRI_POINTS,
    NUM_CARD_TYPES,
    Card,
    count_cards,
    full_deck,
    parse_card,
)
from sushigo.engine.errors import UnknownCardError

# docs/rules.md §1.1, typed in again here (not copied from the engine) as the oracle.
EXPECTED_COUNTS = {
    "tempura": 14,
    "sashimi": 14,
    "dumpling": 14,
    "maki1": 6,
    "maki2": 12,
    "maki3": 8,
    "salmon": 10,
    "squid": 5,
    "egg": 5,
    "pudding": 10,
    "wasabi": 6,
    "chopsticks": 4,
}


def test_twelve_card_types():
    assert NUM_CARD_TYPES == 12
    assert len(Card) == 12
    assert sorted(CARD_NAMES) == sorted(EXPECTED_COUNTS)


@pytest.mark.parametrize(("name", "count"), sorted(EXPECTED_COUNTS.items()))
def test_deck_count_per_card(name, count):
    card = parse_card(name)
    assert DECK_COUNTS[card] == count
    assert DECK_COUNT_LIST[card] == count
    assert full_deck().count(card) == count


def test_deck_has_108_cards():
    assert DECK_SIZE == 108
    assert len(full_deck()) == 108
    assert sum(DECK_COUNTS.values()) == 108
    assert sum(DECK_COUNT_LIST) == 108
    assert count_cards(full_deck()) == list(DECK_COUNT_LIST)


def test_maki_icons_total_54():
    # 6 one-icon + 12 two-icon + 8 three-icon = 6 + 24 + 24 = 54 icons (§1.1)
    assert sum(MAKI_ICONS[c] for c in full_deck()) == 54
    assert MAKI_ICONS[Card.MAKI1] == 1
    assert MAKI_ICONS[Card.MAKI2] == 2
    assert MAKI_ICONS[Card.MAKI3] == 3
    assert {Card(c) for c in range(12) if MAKI_ICONS[c]} == set(MAKI)


def test_nigiri_face_values():
    assert NIGIRI_POINTS[Card.EGG] == 1
    assert NIGIRI_POINTS[Card.SALMON] == 2
    assert NIGIRI_POINTS[Card.SQUID] == 3
    assert {Card(c) for c in range(12) if NIGIRI_POINTS[c]} == set(NIGIRI)


def test_no_party_or_promo_cards():
    # Guide 001: no Party or promo cards (e.g. soy sauce) in this format.
    for name in ("soy_sauce", "soy sauce", "soysauce", "uramaki3", "temaki", "eel", "tofu",
                 "green_tea_ice_cream", "miso_soup", "spoon", "menu", "takeout_box"):
        with pytest.raises(UnknownCardError):
            parse_card(name)


@pytest.mark.parametrize("card", list(Card))
def test_name_round_trip(card):
    name = card.name_in_records
    assert name == CARD_NAMES[card]
    assert str(card) == name
    assert parse_card(name) is card
    assert parse_card(name.upper()) is card
    assert parse_card(f"  {name.title()}\t") is card
    assert isinstance(card.label, str) and card.label


def test_record_names_are_the_spec_names():
    # docs/spec/game-record.md, "Card names (base game)", in card-id order
    assert CARD_NAMES == (
        "tempura", "sashimi", "dumpling", "maki1", "maki2", "maki3",
        "egg", "salmon", "squid", "wasabi", "chopsticks", "pudding",
    )
    assert len(set(CARD_NAMES)) == 12


@pytest.mark.parametrize(
    "bad",
    ["", " ", "maki", "maki4", "maki0", "nigiri", "tempuras", "wasabi!", "salmon nigiri",
     "maki 2", "puddin", "chopstick", "0", "7"],
)
def test_parse_unknown_names(bad):
    with pytest.raises(UnknownCardError) as info:
        parse_card(bad)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("bad", [None, 3, 3.0, b"egg", ["egg"], Card.EGG.value])
def test_parse_non_strings(bad):
    with pytest.raises(UnknownCardError):
        parse_card(bad)


def test_unknown_card_error_is_value_error():
    assert issubclass(UnknownCardError, ValueError)


def test_count_cards():
    assert count_cards([]) == [0] * 12
    assert count_cards([Card.EGG, Card.EGG, Card.PUDDING]) == [0] * 6 + [2] + [0] * 4 + [1]


def test_full_deck_is_fresh_list():
    a = full_deck()
    a.clear()
    assert len(full_deck()) == 108
