"""Play now's pairing rule on plain values (sushigo.server.matchmaking.pairing)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sushigo.server.matchmaking.pairing import GATHER, RATING_WINDOW, Waiting, pair, window


def w(id: str, *, edition: str = "base", menu: str | None = None, sizes: tuple[int, ...] = (2, 3, 4),
      rated: bool = False, rating: float = 1500, joined: float = 0.0, bots_after: float = 30.0) -> Waiting:
    return Waiting(id, edition, menu, frozenset(sizes), rated, rating, joined, bots_after)


def shape(now: float, *entries: Waiting) -> list[tuple[tuple[str, ...], int, int]]:
    return [(m.members, m.players, m.bots) for m in pair(list(entries), now)]


def test_a_full_table_of_the_largest_size_forms_at_once() -> None:
    assert shape(0.5, w("a", sizes=(3,)), w("b", sizes=(2, 3)), w("c", sizes=(3, 4))) == [(("a", "b", "c"), 3, 0)]


def test_a_smaller_table_of_people_forms_once_the_oldest_waited_a_little() -> None:
    people = (w("a", joined=0.0), w("b", joined=1.0))
    assert shape(GATHER - 0.1, *people) == []
    assert shape(GATHER, *people) == [(("a", "b"), 2, 0)]


def test_bots_fill_the_seats_nobody_takes_after_the_chosen_wait_at_the_largest_size_all_accept() -> None:
    alone = w("a", sizes=(2, 3, 4), bots_after=15)
    assert shape(14.9, alone) == []
    assert shape(15.0, alone) == [(("a",), 4, 3)]
    # two people who accept 2-4 and 3 only: a table of 3, one bot, once the first's wait is over
    assert shape(30.0, w("a", sizes=(3,), bots_after=30), w("b", sizes=(2, 3, 4), joined=29.0)) == [
        (("a", "b"), 3, 1)]


def test_sizes_nobody_shares_keep_people_apart() -> None:
    assert shape(GATHER + 1, w("a", sizes=(2,)), w("b", sizes=(3,), joined=0.5)) == []


def test_the_oldest_chooses_first_and_later_ones_wait_their_turn() -> None:
    queue = [w("d", joined=3.0, sizes=(2,)), w("a", joined=0.0, sizes=(2,)), w("b", joined=1.0, sizes=(2,)),
             w("c", joined=2.0, sizes=(2,))]
    assert shape(4.0, *queue) == [(("a", "b"), 2, 0), (("c", "d"), 2, 0)]


def test_editions_menus_and_rated_play_are_separate_queues() -> None:
    assert shape(0.0, w("a", sizes=(2,)), w("b", sizes=(2,), edition="party")) == []
    assert shape(0.0, w("a", sizes=(2,), rated=True), w("b", sizes=(2,))) == []
    party: dict[str, Any] = {"edition": "party", "sizes": (3,)}
    assert shape(0.0, w("a", menu="Master Menu", **party), w("b", menu="Big Banquet", **party),
                 w("c", **party)) == []  # "any menu" sits with one of them, never with both
    found = pair([w("a", menu="Master Menu", **party), w("b", **party), w("c", **party)], 0.0)
    assert [(m.members, m.menu) for m in found] == [(("a", "b", "c"), "Master Menu")]


def test_rated_players_sit_with_the_nearest_rating_and_the_window_widens_with_waiting() -> None:
    a = w("a", rated=True, rating=1500, sizes=(2,))
    near, far = w("n", rated=True, rating=1600, sizes=(2,), joined=0.5), w("f", rated=True, rating=1900, sizes=(2,))
    assert shape(1.0, a, far, near) == [(("a", "n"), 2, 0)]
    gap = 1900 - 1500
    assert window(0) == RATING_WINDOW
    wait = (gap - RATING_WINDOW) / 10.0  # the window widens 10 points a second
    assert shape(wait - 1, a, far) == []
    assert shape(wait + 0.1, a, far) == [(("a", "f"), 2, 0)]


def test_guests_sit_in_the_order_they_came_whatever_their_rating() -> None:
    assert shape(0.0, w("a", sizes=(2,), rating=900), w("b", sizes=(2,), rating=2400, joined=0.1),
                 w("c", sizes=(2,), rating=1500, joined=0.2)) == [(("a", "b"), 2, 0)]


entries = st.lists(st.builds(
    Waiting, id=st.uuids().map(str), edition=st.sampled_from(["base", "party"]),
    menu=st.sampled_from([None, None, "Master Menu", "Big Banquet"]),
    sizes=st.frozensets(st.integers(2, 5), min_size=1), rated=st.booleans(), rating=st.floats(800, 2400),
    joined=st.floats(0, 100), bots_after=st.sampled_from([15.0, 30.0, 60.0])), max_size=30)


@settings(max_examples=300, deadline=None)
@given(entries, st.floats(0, 200))
def test_every_match_is_one_everyone_at_it_accepts(queue: list[Waiting], now: float) -> None:
    queue = [w if w.edition == "party" else Waiting(w.id, w.edition, None, w.sizes, w.rated, w.rating, w.joined,
                                                    w.bots_after) for w in queue]
    by_id = {x.id: x for x in queue}
    seated: list[str] = []
    for m in pair(queue, now):
        people = [by_id[i] for i in m.members]
        seated += m.members
        assert m.players == len(people) + m.bots and 1 <= len(people) <= m.players
        assert all(m.players in p.sizes for p in people)
        assert len({(p.edition, p.rated) for p in people}) == 1
        assert all(p.menu in (None, m.menu) for p in people)
        if m.bots:  # bots only for a table one of whose people waited as long as they chose
            assert any(now - p.joined >= p.bots_after for p in people)
        if m.rated:
            for p in people:
                for q in people:
                    assert abs(p.rating - q.rating) <= window(now - p.joined) + 1e-9
    assert len(seated) == len(set(seated))  # nobody twice
