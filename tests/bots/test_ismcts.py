"""Search bots (ISMCTS, flat Monte Carlo) and their playout policy.

What is checked: they pick legal actions in both editions, they decide from
the seat's view alone (games that look the same to the seat give the same
search, statistic for statistic), determinization from a view is
consistent with it, budgets and settings work, and the search finds the
obvious good pick in hand-built positions.  Strength is measured in
``benchmarks/bot_strength.py``, not here.
"""

from __future__ import annotations

import dataclasses
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.botspecs import random_commits
from tests.positions import late_round_position as _position

from sushigo import Card, Game, encode
from sushigo.bots import FlatMCBot, ISMCTSBot, make_bot, play_game
from sushigo.bots.base import view_for
from sushigo.bots.ismcts import Node, reward
from sushigo.bots.policy import card_values, heuristic_pick, heuristic_playout
from sushigo.engine.base.view import determinize, sample_world, seat_view
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import determinize_party, party_seat_view, sample_party_world
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

C = Card


def _advance(game: Game, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        if game.is_over:
            return
        game.play([rng.choice(game.legal_actions(s)) for s in range(game.players)])


# ------------------------------------------------------------ determinize


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), turns=st.integers(0, 24))
def test_determinize_is_consistent_with_the_view(seed: int, players: int, turns: int) -> None:
    rng = random.Random(seed)
    game = Game(Rules(players, pass_both_ways=seed % 2 == 0), seed=seed)
    _advance(game, rng, turns)
    if game.is_over:
        return
    seat = rng.randrange(players)
    if seed % 3 == 0:
        game.commit(seat, rng.choice(game.legal_actions(seat)))
    view = seat_view(game, seat, world=True)
    for k in range(3):
        world = determinize(view, random.Random(k))
        world_view = seat_view(world, seat)
        assert [sorted(h) for h in world_view.seen_hands] == [sorted(h) for h in view.seen_hands]
        assert dataclasses.replace(world_view, seen_hands=view.seen_hands) == view
        assert _same_totals(world, game)
        assert len(world.deck) == len(game.deck)
        assert [len(h) for h in world.hands] == [len(h) for h in game.hands]


def _same_totals(a: Game, b: Game) -> bool:
    la, lb = a.card_locations(), b.card_locations()
    total_a = [sum(x) for x in zip(*la.values())]
    total_b = [sum(x) for x in zip(*lb.values())]
    return total_a == total_b and la["collections"] == lb["collections"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), turns=st.integers(0, 24))
def test_the_information_set_depends_on_the_view_alone(seed: int, players: int, turns: int) -> None:
    """Two games that differ only in cards the seat cannot see give worlds
    with the same cards in every place, and the same determinizations."""
    found = _look_alikes(seed, players, turns)
    if found is None:
        return
    game, other, seat = found
    a, b = seat_view(game, seat, world=True), seat_view(other, seat, world=True)
    assert a.world is not None and b.world is not None
    assert _cards_everywhere(a.world) == _cards_everywhere(b.world)
    assert _cards_everywhere(determinize(a, random.Random(3))) == _cards_everywhere(determinize(b, random.Random(3)))


def _look_alikes(seed: int, players: int, turns: int) -> tuple[Game, Game, int] | None:
    """A game ``turns`` random turns in, a seat, and another game that looks the
    same to that seat (its hidden cards dealt afresh); ``None`` if the game ended."""
    rng = random.Random(seed)
    game = Game(players, seed=seed)
    _advance(game, rng, turns)
    if game.is_over:
        return None
    seat = rng.randrange(players)
    return game, sample_world(game, seat, seed=seed + 1), seat


def _cards_everywhere(game: Game) -> tuple[object, ...]:
    """Every card in every place, deals as multisets (their order is not information)."""
    history = [([sorted(h) for h in dealt], turns) for dealt, turns in game.history()]
    return (game.hands, game.deck, game.collections, game.kept_puddings, game.discard, game._pending,
            history, game.round, game.turn, game._rng.getstate(), game.result())


def test_determinize_needs_a_world_view() -> None:
    game = Game(3, seed=1)
    with pytest.raises(ValueError, match="world=True"):
        determinize(seat_view(game, 0), random.Random(0))
    party = PartyGame(Rules.party(3, "Master Menu"), seed=1)
    with pytest.raises(ValueError, match="world=True"):
        determinize_party(party_seat_view(party, 0), random.Random(0))
    assert party_seat_view(party, None, world=True).world is None


def test_views_carry_no_world_unless_asked_and_the_world_is_not_compared() -> None:
    game = Game(4, seed=2)
    plain, rich = seat_view(game, 1), seat_view(game, 1, world=True)
    assert plain.world is None and rich.world is not None
    assert plain == rich
    assert "world" not in repr(rich) and "world" not in rich.to_json()


# ------------------------------------------------- deciding from the view


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), turns=st.integers(0, 20))
def test_search_is_the_same_in_games_that_look_the_same(seed: int, players: int, turns: int) -> None:
    found = _look_alikes(seed, players, turns)
    if found is None:
        return
    game, other, seat = found
    for cls in (ISMCTSBot, FlatMCBot):
        x, y = cls(seed=seed, iterations=60), cls(seed=seed, iterations=60)
        ax = x.choose(seat_view(game, seat, world=True))
        ay = y.choose(seat_view(other, seat, world=True))
        assert ax == ay and x.last_visits == y.last_visits


@pytest.mark.slow
def test_party_search_is_the_same_in_games_that_look_the_same() -> None:
    rng = random.Random(11)
    menus = list(OFFICIAL_MENUS)
    checked = resolving = 0
    for seed in range(40):
        menu = menus[seed % len(menus)]
        players = 4 if "Dinner" not in menu else 2
        game = PartyGame(Rules.party(players, menu), seed=seed)
        random_commits(game, rng, rng.randrange(0, 60), stop_at_resolve=bool(seed % 2))
        if game.is_over:
            continue
        seat = rng.choice(game.pending_seats)
        other = sample_party_world(game, seat, seed=seed + 1)
        x, y = ISMCTSBot(seed=seed, iterations=25), ISMCTSBot(seed=seed, iterations=25)
        assert x.choose(party_seat_view(game, seat, world=True)) == y.choose(
            party_seat_view(other, seat, world=True))
        assert x.last_visits == y.last_visits
        checked += 1
        resolving += game.phase is Phase.RESOLVE
    assert checked > 25 and resolving > 3


def test_search_bots_refuse_views_without_a_world() -> None:
    game = Game(3, seed=4)
    with pytest.raises(ValueError, match="world=True"):
        ISMCTSBot(seed=0, iterations=5).choose(seat_view(game, 0))
    assert ISMCTSBot.wants_world and FlatMCBot.wants_world
    assert view_for(game, 0, ISMCTSBot(0)).world is not None
    assert view_for(game, 0, make_bot("greedy", 0)).world is None


# ---------------------------------------------------------- legality


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), flat=st.booleans(),
       policy=st.sampled_from(["heuristic", "random"]))
def test_search_bots_play_whole_base_games_legally(seed: int, players: int, flat: bool, policy: str) -> None:
    game = Game(Rules(players, pass_both_ways=seed % 2 == 0, reshuffle=seed % 3 == 0), seed=seed)
    cls = FlatMCBot if flat else ISMCTSBot
    bots = [cls(seed=seed + s, iterations=8, policy=policy) for s in range(players)]
    while not game.is_over:
        for s, bot in enumerate(bots):
            view = view_for(game, s, bot)
            action = bot.choose(view)
            assert game.is_legal(s, action)
            game.commit(s, action)


@pytest.mark.slow
@pytest.mark.parametrize("menu", list(OFFICIAL_MENUS))
def test_ismcts_plays_whole_party_games_legally(menu: str) -> None:
    players = 2 if "Dinner" in menu else 5
    game = PartyGame(Rules.party(players, menu), seed=len(menu))
    bots = [ISMCTSBot(seed=s, iterations=6) if s % 2 == 0 else make_bot("random", s) for s in range(players)]
    while not game.is_over:
        for seat in game.pending_seats:
            view = view_for(game, seat, bots[seat])
            action = bots[seat].choose(view)
            assert game.is_legal(seat, action)
            game.commit(seat, action)
    assert len(game.result().rounds) == 3


# ------------------------------------------------- budgets and settings


def test_iteration_budget_and_visit_counts() -> None:
    game = Game(4, seed=8)
    bot = ISMCTSBot(seed=1, iterations=300)
    action = bot.choose(seat_view(game, 2, world=True))
    assert bot.last_iterations == 300 and sum(bot.last_visits.values()) == 300
    assert set(bot.last_visits) == set(game.legal_actions(2))
    assert bot.last_visits[action] == max(bot.last_visits.values())
    assert bot.searches == 1 and bot.total_iterations == 300


def test_a_single_legal_action_is_not_searched() -> None:
    game = Game(2, seed=8)
    game.hands[0] = [C.EGG]
    game.hands[1] = [C.SQUID]
    bot = ISMCTSBot(seed=1, iterations=50)
    assert bot.choose(seat_view(game, 0, world=True)) == encode([C.EGG])
    assert bot.last_iterations == 0 and bot.searches == 0


def test_time_budget_stops_the_search() -> None:
    game = Game(4, seed=9)
    bot = ISMCTSBot(seed=1, time=0.05)
    start = time.perf_counter()
    bot.choose(seat_view(game, 0, world=True))
    elapsed = time.perf_counter() - start
    assert bot.last_iterations >= 8
    assert elapsed < 2.0  # generous: the budget is 0.05 s; this only catches a search that ignores it


def test_settings_from_specs() -> None:
    bot = make_bot("ismcts:time=0.2,c=1.5,policy=random,epsilon=0.3", 4)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.time, bot.iterations, bot.c, bot.policy, bot.epsilon) == (0.2, None, 1.5, "random", 0.3)
    both = make_bot("ismcts:iterations=50,time=3", 4)
    assert isinstance(both, ISMCTSBot) and (both.iterations, both.time) == (50, 3.0)
    default = make_bot("ISMCTS", 4)
    assert isinstance(default, ISMCTSBot) and default.iterations == 1000
    assert isinstance(make_bot("flatmc:iterations=5", 1), FlatMCBot)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("ismcts:iterations=0", "at least 1"),
        ("ismcts:iterations=many", "not a valid int"),
        ("ismcts:time=-1", "positive"),
        ("ismcts:time=inf", "positive"),
        ("ismcts:time=nan", "positive"),
        ("ismcts:c=inf", "c must be"),
        ("ismcts:policy=smart", "heuristic"),
        ("ismcts:depth=3", "no setting 'depth'"),
        ("ismcts:time", "needs a value"),
        ("ismcts:epsilon=2", "between 0 and 1"),
    ],
)
def test_bad_settings_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        make_bot(spec, 0)
    assert "\n" not in str(info.value)


def test_same_seed_same_game() -> None:
    a = play_game([ISMCTSBot(seed=s, iterations=20) for s in range(3)], seed=5)
    b = play_game([ISMCTSBot(seed=s, iterations=20) for s in range(3)], seed=5)
    assert a.history() == b.history()


# ----------------------------------------------------- finding good picks



def test_ismcts_completes_a_sashimi_set_on_the_last_choice() -> None:
    game = _position([C.SASHIMI, C.EGG], [C.SASHIMI, C.SASHIMI, C.MAKI1], [[C.TEMPURA] * 3, [C.EGG] * 3])
    bot = ISMCTSBot(seed=3, iterations=200)
    assert bot.choose(seat_view(game, 0, world=True)) == encode([C.SASHIMI])


def test_ismcts_uses_wasabi_on_squid() -> None:
    game = _position([C.EGG, C.SQUID, C.MAKI1], [C.WASABI, C.TEMPURA, C.DUMPLING], [[C.SALMON] * 3, [C.EGG] * 3])
    bot = ISMCTSBot(seed=3, iterations=300)
    assert bot.choose(seat_view(game, 0, world=True)) == encode([C.SQUID])


def test_flatmc_also_finds_the_sashimi() -> None:
    game = _position([C.SASHIMI, C.EGG], [C.SASHIMI, C.SASHIMI], [[C.TEMPURA] * 2, [C.EGG] * 2])
    assert FlatMCBot(seed=1, iterations=100).choose(seat_view(game, 0, world=True)) == encode([C.SASHIMI])


# ---------------------------------------------------------- the pieces


def test_reward_orders_standings() -> None:
    assert reward((50, 30, 20), (0,), 0) == 1.0
    assert reward((50, 30, 20), (0,), 2) == 0.0
    assert reward((30, 30, 10), (0, 1), 0) == pytest.approx(0.5)
    assert reward((31, 30, 10), (0,), 0) > reward((30, 31, 10), (1,), 0)
    for totals in ([10, 20, 30], [5, 5, 5], [40, 0, 39]):
        for s in range(3):
            assert 0.0 <= reward(tuple(totals), (max(range(3), key=lambda k: totals[k]),), s) <= 1.0


def test_ucb_tries_everything_then_prefers_the_better_action() -> None:
    node = Node()
    rng = random.Random(0)
    tried = {node.select([1, 2, 3], 0.7, rng) for _ in range(1)}
    for a in (1, 2, 3):
        node.update(a, 0.5)
    node.update(2, 1.0)
    node.update(2, 1.0)
    assert tried <= {1, 2, 3}
    assert node.select([1, 2, 3], 0.0, rng) == 2
    # availability: an action legal in few determinizations keeps its exploration bonus small
    node.select([1, 2], 0.7, rng)
    assert node.avail[3] < node.avail[1]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), turns=st.integers(0, 26),
       epsilon=st.sampled_from([0.0, 0.15, 1.0]))
def test_heuristic_policy_picks_are_legal(seed: int, players: int, turns: int, epsilon: float) -> None:
    rng = random.Random(seed)
    game = Game(players, seed=seed)
    while not game.is_over and turns:
        picks = [heuristic_pick(game, s, rng, epsilon) for s in range(players)]
        for s, a in enumerate(picks):
            assert game.is_legal(s, a)
        game.play(picks)
        turns -= 1
    heuristic_playout(game, rng, epsilon)
    assert game.is_over


@pytest.mark.parametrize("players", [2, 3, 5])
def test_heuristic_playout_keeps_a_committed_pick_whichever_seat_made_it(players: int) -> None:
    """A hidden pick of any seat, the last one included, stays; the others pick, the turn is
    revealed and the game is played to its end with nothing left pending."""
    for seat in range(players):
        game = Game(players, seed=seat)
        pick = game.legal_actions(seat)[0]
        game.commit(seat, pick)
        heuristic_playout(game, random.Random(seat), epsilon=0.5)
        assert game.is_over and game.pending_seats == []
        assert game.history()[0][1][0][seat] == pick


def test_heuristic_values() -> None:
    values = card_values([C.SASHIMI, C.TEMPURA, C.SQUID, C.DUMPLING], [C.SASHIMI, C.SASHIMI, C.WASABI], 0, 0)
    assert values[C.SASHIMI] == 10.0 and values[C.SQUID] == 9.0
    assert values[C.DUMPLING] == 1.0
    late = card_values([C.WASABI, C.CHOPSTICKS], [], 0, 0)
    assert late[C.WASABI] == 0.0 and late[C.CHOPSTICKS] == 0.0


def test_heuristic_uses_chopsticks_for_two_good_cards() -> None:
    game = Game(2, seed=0)
    game.hands[0] = [C.SASHIMI, C.SQUID, C.EGG]
    game.collections[0] = [C.CHOPSTICKS, C.SASHIMI, C.SASHIMI, C.WASABI]
    assert heuristic_pick(game, 0, random.Random(0), 0.0) == encode([C.SASHIMI, C.SQUID])


def test_yield_every_hands_the_gil_over_every_n_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's bots search beside its event loop: with ``yield_every`` the search
    sleeps 0 s (releasing the GIL) after every that many iterations, else never."""
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    view = seat_view(Game(4, seed=3), 1, world=True)
    bot = ISMCTSBot(seed=1, iterations=41)
    bot.choose(view)
    assert slept == [] and bot.last_iterations == 41
    bot.yield_every = 4
    bot.choose(view)
    assert slept == [0] * 10  # after iterations 4, 8, ..., 40
