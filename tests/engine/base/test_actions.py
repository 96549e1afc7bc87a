"""The integer action encoding: 12 single cards + 144 ordered chopsticks pairs = 156 ids."""

from __future__ import annotations

import pytest

from sushigo.engine.base.actions import (
    NUM_ACTIONS,
    action_name,
    card_ids,
    decode,
    encode,
    is_chopsticks_pair,
    parse_action,
)
from sushigo.engine.base.cards import CARD_NAMES, Card
from sushigo.engine.errors import InvalidActionError, UnknownCardError


def test_action_space_size():
    assert NUM_ACTIONS == 156 == 12 + 12 * 12


@pytest.mark.parametrize("action", range(156))
def test_round_trip(action):
    cards = decode(action)
    assert encode(cards) == action
    assert encode([int(c) for c in cards]) == action
    assert card_ids(action) == tuple(int(c) for c in cards)
    assert all(isinstance(c, Card) for c in cards)
    name = action_name(action)
    assert parse_action(name) == action
    assert name == "+".join(CARD_NAMES[c] for c in cards)
    assert is_chopsticks_pair(action) == (len(cards) == 2)


def test_all_ids_distinct_picks():
    picks = {decode(a) for a in range(NUM_ACTIONS)}
    assert len(picks) == 156
    singles = [a for a in range(NUM_ACTIONS) if len(decode(a)) == 1]
    assert singles == list(range(12))


@pytest.mark.parametrize(
    ("cards", "action"),
    [
        ((Card.TEMPURA,), 0),
        ((Card.SALMON,), 7),
        ((Card.PUDDING,), 11),
        ((Card.TEMPURA, Card.TEMPURA), 12),
        ((Card.WASABI, Card.EGG), 126),          # 12 + 12*9 + 6
        ((Card.EGG, Card.WASABI), 12 + 12 * 6 + 9),
        ((Card.PUDDING, Card.PUDDING), 155),
        ((Card.CHOPSTICKS, Card.SQUID), 12 + 12 * 10 + 8),
    ],
)
def test_known_ids(cards, action):
    assert encode(cards) == action
    assert decode(action) == cards


def test_order_matters():
    assert encode((Card.WASABI, Card.EGG)) != encode((Card.EGG, Card.WASABI))
    assert action_name(126) == "wasabi+egg"


@pytest.mark.parametrize(
    ("text", "action"),
    [("squid", 8), ("wasabi+egg", 126), ("Wasabi+Egg", 126), ("wasabi,egg", 126),
     (" wasabi + egg ", 126), ("maki3", 5)],
)
def test_parse_action_forms(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize("bad", [-1, 156, 157, 1000, -156])
def test_decode_invalid(bad):
    with pytest.raises(InvalidActionError):
        decode(bad)


@pytest.mark.parametrize("bad", [(), (0, 0, 0), (12,), (-1,), (0, 12), (-1, 0), (3, 4, 5, 6)])
def test_encode_invalid(bad):
    with pytest.raises(InvalidActionError):
        encode(bad)


@pytest.mark.parametrize("bad", ["", "egg+", "+egg", "egg+egg+egg", "maki4"])
def test_parse_action_invalid(bad):
    with pytest.raises((InvalidActionError, UnknownCardError)):
        parse_action(bad)


def test_errors_are_value_errors():
    assert issubclass(InvalidActionError, ValueError)
