"""The list helpers of :mod:`sushigo.engine.turns`, against what Python's own
operations give, for every card id of both editions (and face down): the
helpers are written twice over (int loops and a native 64-bit set compiled,
the list's C methods interpreted), and a compiled shift once went wrong past
bit 31, which only ids above 31 (Party's) show."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sushigo.engine.party.cards import FACE_DOWN
from sushigo.engine.turns import distinct, holds, take

IDS = st.integers(0, FACE_DOWN)
HANDS = st.lists(IDS, max_size=12)


@given(HANDS)
def test_distinct_is_the_sorted_set(cards: list[int]) -> None:
    before = list(cards)
    assert distinct(cards) == sorted(set(cards))
    assert cards == before  # the hand is read, not changed


def test_distinct_every_id_alone_and_all_together() -> None:
    for c in range(FACE_DOWN + 1):
        assert distinct([c, c]) == [c]
    everything = list(range(FACE_DOWN, -1, -1))
    assert distinct(everything + everything) == list(range(FACE_DOWN + 1))


@given(HANDS, IDS)
def test_holds_is_in(cards: list[int], card: int) -> None:
    assert holds(cards, card) == (card in cards)


@given(HANDS, IDS)
def test_take_removes_the_first_like_list_remove(cards: list[int], card: int) -> None:
    mine, theirs = list(cards), list(cards)
    if card in cards:
        take(mine, card)
        theirs.remove(card)
        assert mine == theirs
    else:
        with pytest.raises(ValueError):
            take(mine, card)
        assert mine == cards
