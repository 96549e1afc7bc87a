"""Bots: the interface, legality over whole games, greedy's judgement, hidden information."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botspecs import fast_bot
from sushigo import Card, Game, encode
from sushigo.bots import (
    BOTS,
    Bot,
    GreedyBot,
    NoLegalActionError,
    Player,
    RandomBot,
    make_bot,
    play_game,
)
from sushigo.bots.base import view_for
from sushigo.bots.estimates import completion_chance, race_value
from sushigo.engine.base.actions import is_chopsticks_pair
from sushigo.engine.base.scoring import maki_awards
from sushigo.engine.base.view import SeatView, sample_world, seat_view
from sushigo.engine.rules import Rules

C = Card


# ---------------------------------------------------------------- registry


def test_registry_names_and_make_bot() -> None:
    assert set(BOTS) == {"random", "greedy", "ismcts", "flatmc", "learned"}
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot(" Greedy ", None), GreedyBot)
    for name in BOTS:
        bot = make_bot(name, 3)
        assert bot.name == name
        assert isinstance(bot, Player)


@pytest.mark.parametrize("spec", ["clever", "", "greedy2"])
def test_unknown_bot_lists_the_names(spec: str) -> None:
    with pytest.raises(ValueError, match="unknown bot") as info:
        make_bot(spec, 0)
    assert "greedy" in str(info.value) and "random" in str(info.value)


def test_bot_base_class_is_abstract() -> None:
    with pytest.raises(TypeError):
        Bot(0)  # type: ignore[abstract]


# ------------------------------------------------------------ legality


def _play_checked(game: Game, bots: Sequence[Bot]) -> int:
    """Play ``game`` to the end through commit(); every pick must be legal.  Returns chopsticks pairs."""
    pairs = 0
    while not game.is_over:
        for seat, bot in enumerate(bots):
            view = view_for(game, seat, bot)
            action = bot.choose(view)
            assert action in view.legal_actions
            assert game.is_legal(seat, action)
            pairs += is_chopsticks_pair(action)
            game.commit(seat, action)
    return pairs


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    kinds=st.lists(st.sampled_from(sorted(BOTS)), min_size=2, max_size=5),
    both_ways=st.booleans(),
    reshuffle=st.booleans(),
)
def test_bots_only_pick_legal_actions(
    seed: int, kinds: list[str], both_ways: bool, reshuffle: bool
) -> None:
    game = Game(Rules(len(kinds), pass_both_ways=both_ways, reshuffle=reshuffle), seed=seed)
    bots = [fast_bot(k, seed + i) for i, k in enumerate(kinds)]
    _play_checked(game, bots)
    assert game.is_over


@pytest.mark.slow
def test_both_bots_use_chopsticks_in_real_games() -> None:
    used = dict.fromkeys(BOTS, 0)
    for seed in range(30):
        for name in BOTS:
            if used[name] or (name in ("ismcts", "flatmc") and seed % 3):
                continue  # once is enough; search bots: at most 10 games (and slower)
            players = 2 + seed % 4
            used[name] += _play_checked(Game(players, seed=seed), [fast_bot(name, seed + s) for s in range(players)])
    assert all(n > 0 for n in used.values()), used


def test_no_legal_action_raises_a_clear_error() -> None:
    game = Game(3, seed=1)
    game.commit(0, game.legal_actions(0)[0])
    view = seat_view(game, 0, world=True)
    assert view.legal_actions == ()
    for name in BOTS:
        with pytest.raises(NoLegalActionError, match="nothing to pick"):
            make_bot(name, 0).choose(view)


@pytest.mark.slow
def test_seeded_bots_are_reproducible() -> None:
    for name in BOTS:
        a = play_game([fast_bot(name, 10 + s) for s in range(4)], seed=99)
        b = play_game([fast_bot(name, 10 + s) for s in range(4)], seed=99)
        assert a.history() == b.history()


def test_random_bot_covers_every_legal_action() -> None:
    game = Game(2, seed=0)
    game.hands[0] = [C.TEMPURA, C.SASHIMI, C.EGG, C.WASABI]
    game.collections[0] = [C.CHOPSTICKS]
    view = seat_view(game, 0)
    bot = RandomBot(seed=5)
    seen = {bot.choose(view) for _ in range(2000)}
    assert seen == set(view.legal_actions)


def test_play_game_checks_the_seat_count() -> None:
    with pytest.raises(ValueError, match="3 bots for a 4-player game"):
        play_game([RandomBot(s) for s in range(3)], rules=Rules(4))


# --------------------------------------------------- hidden information


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), turns=st.integers(0, 20),
       both_ways=st.booleans())
def test_bots_decide_from_the_view_alone(seed: int, players: int, turns: int, both_ways: bool) -> None:
    """Two games that differ only in what a seat cannot see give it the same view,
    and a seeded bot then makes the same pick in both, under either passing rule."""
    rng = random.Random(seed)
    game = Game(Rules(players, pass_both_ways=both_ways), seed=seed)
    for _ in range(turns):
        if game.is_over:
            break
        game.play([rng.choice(game.legal_actions(s)) for s in range(players)])
    if game.is_over:
        return
    seat = rng.randrange(players)
    world = sample_world(game, seat, seed=seed + 1)
    view, world_view = seat_view(game, seat, world=True), seat_view(world, seat, world=True)
    # sample_world may list the cards of earlier hands in another order; as sets they agree.
    assert [sorted(h) for h in view.seen_hands] == [sorted(h) for h in world_view.seen_hands]
    assert dataclasses.replace(world_view, seen_hands=view.seen_hands) == view
    for name in BOTS:
        assert fast_bot(name, seed).choose(view) == fast_bot(name, seed).choose(world_view)


def test_bot_is_given_nothing_but_a_frozen_view() -> None:
    game = Game(4, seed=3)
    view = seat_view(game, 1)
    assert isinstance(view, SeatView)
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]
    # The view holds no reference to the game, so a bot cannot reach hidden hands.
    assert all(not isinstance(getattr(view, f), Game) for f in view.__dataclass_fields__)
    action = GreedyBot(seed=0).choose(view)
    assert action in game.legal_actions(1)


# ------------------------------------------------ greedy's judgement


def situation(
    hand: Sequence[Card],
    collection: Sequence[Card] = (),
    *,
    players: int = 4,
    others: Sequence[Sequence[Card]] = (),
    round_number: int = 1,
    kept_puddings: Sequence[int] | None = None,
) -> SeatView:
    """Seat 0's view of a hand-built position (turn 1 bookkeeping, any hand size)."""
    game = Game(players, seed=0)
    game.round = round_number
    game.hands[0] = [int(c) for c in hand]
    game.collections[0] = [int(c) for c in collection]
    for seat, cards in enumerate(others, start=1):
        game.collections[seat] = [int(c) for c in cards]
    if kept_puddings is not None:
        game.kept_puddings = list(kept_puddings)
    return seat_view(game, 0)


def greedy_pick(view: SeatView) -> tuple[Card, ...]:
    from sushigo.engine.base.actions import decode

    return decode(GreedyBot(seed=0).choose(view))


def test_greedy_puts_a_squid_on_wasabi_rather_than_an_egg() -> None:
    view = situation([C.EGG, C.SQUID, C.EGG, C.DUMPLING, C.MAKI1], [C.WASABI])
    assert greedy_pick(view) == (C.SQUID,)


def test_greedy_prefers_salmon_on_wasabi_to_a_tempura_pair() -> None:
    # 6 points on the wasabi beat completing the pair (5); without a wasabi it is the other way.
    assert greedy_pick(situation([C.TEMPURA, C.SALMON], [C.WASABI, C.TEMPURA])) == (C.SALMON,)
    assert greedy_pick(situation([C.TEMPURA, C.SALMON], [C.TEMPURA])) == (C.TEMPURA,)
    # A squid played before the wasabi did not fill it, so the salmon still goes on it.
    assert greedy_pick(situation([C.TEMPURA, C.SALMON], [C.SQUID, C.TEMPURA, C.WASABI])) == (C.SALMON,)


def test_greedy_completes_a_sashimi_triple() -> None:
    view = situation([C.SQUID, C.SASHIMI, C.TEMPURA, C.SALMON, C.MAKI3, C.DUMPLING], [C.SASHIMI, C.SASHIMI])
    assert greedy_pick(view) == (C.SASHIMI,)


def test_greedy_completes_a_tempura_pair() -> None:
    view = situation([C.EGG, C.TEMPURA, C.MAKI1], [C.TEMPURA, C.SALMON])
    assert greedy_pick(view) == (C.TEMPURA,)


def test_greedy_takes_the_fifth_dumpling() -> None:
    view = situation([C.SALMON, C.DUMPLING, C.EGG], [C.DUMPLING] * 4)
    assert greedy_pick(view) == (C.DUMPLING,)


def test_greedy_wants_wasabi_early_and_not_late() -> None:
    early = situation([C.WASABI, C.EGG, C.EGG, C.TEMPURA, C.TEMPURA, C.SASHIMI, C.MAKI1, C.DUMPLING])
    assert greedy_pick(early) == (C.WASABI,)
    late = situation([C.WASABI, C.EGG])
    assert greedy_pick(late) == (C.EGG,)


def test_greedy_plays_wasabi_then_squid_with_chopsticks() -> None:
    view = situation([C.SQUID, C.WASABI, C.EGG, C.MAKI1, C.TEMPURA], [C.CHOPSTICKS])
    assert greedy_pick(view) == (C.WASABI, C.SQUID)


def test_greedy_does_not_waste_chopsticks_on_nothing() -> None:
    """Two poor cards do not beat keeping the chopsticks for later while many picks remain."""
    hand = [C.MAKI1, C.EGG, C.MAKI1, C.EGG, C.MAKI1, C.EGG, C.EGG]
    view = situation(hand, [C.CHOPSTICKS], players=5)
    assert greedy_pick(view) in {(C.EGG,), (C.MAKI1,)}
    values = GreedyBot().action_values(view)
    assert values[encode([C.EGG])] > values[encode([C.EGG, C.EGG])]


def test_greedy_chopsticks_worth_nothing_at_the_end_of_a_round() -> None:
    values = GreedyBot().action_values(situation([C.CHOPSTICKS, C.EGG]))
    assert values[encode([C.EGG])] > values[encode([C.CHOPSTICKS])]


def test_greedy_wins_the_maki_race_at_the_end_of_a_round() -> None:
    others = [[C.MAKI3, C.MAKI2], [C.EGG], []]
    view = situation([C.MAKI3, C.EGG], [C.MAKI3], others=others)
    # 3 + 3 = 6 icons beat 5 alone (6 points); the egg leaves it second (1 + 3 points).
    assert greedy_pick(view) == (C.MAKI3,)


def test_greedy_ignores_a_hopeless_maki_race_late() -> None:
    others = [[C.MAKI3, C.MAKI3, C.MAKI3], [C.MAKI3, C.MAKI3, C.MAKI2], [C.EGG]]
    view = situation([C.MAKI1, C.SALMON], [], others=others)
    assert greedy_pick(view) == (C.SALMON,)


def test_greedy_values_pudding_more_in_the_last_round() -> None:
    def pudding_gain(round_number: int, hand_size: int) -> float:
        hand = [C.PUDDING, C.EGG] + [C.MAKI1] * (hand_size - 2)
        view = situation(hand, round_number=round_number, kept_puddings=[0, 1, 1, 1])
        values = GreedyBot().action_values(view)
        return values[encode([C.PUDDING])] - values[encode([C.EGG])]

    assert pudding_gain(3, 2) > pudding_gain(1, 7) > 0
    # Escaping the fewest-pudding penalty on the last real pick is worth more than an egg.
    assert greedy_pick(situation([C.PUDDING, C.EGG], round_number=3, kept_puddings=[0, 1, 1, 1])) == (
        C.PUDDING,
    )


def test_greedy_breaks_ties_with_its_own_rng() -> None:
    view = situation([C.TEMPURA, C.SASHIMI, C.EGG], [C.CHOPSTICKS])
    values = GreedyBot().action_values(view)
    a, b = encode([C.TEMPURA, C.SASHIMI]), encode([C.SASHIMI, C.TEMPURA])
    assert values[a] == values[b]
    picks = {GreedyBot(seed=s).choose(view) for s in range(40)}
    best = max(values.values())
    assert picks <= {x for x, v in values.items() if v >= best - 1e-9}
    assert len({GreedyBot(seed=7).choose(view) for _ in range(5)}) == 1


def test_completion_chance_and_race_value_shapes() -> None:
    assert completion_chance(1, 0, 0.2) == 0.0
    assert completion_chance(0, 0, 0.2) == 1.0
    assert completion_chance(1, 9, 0.2) > completion_chance(1, 3, 0.2) > completion_chance(2, 3, 0.2)
    assert race_value(7, [4, 2], maki_awards, 0) == 6.0
    assert race_value(4, [7, 2], maki_awards, 0) == 3.0
    wide = race_value(4, [7, 2], maki_awards, 3)
    assert 0 < wide < 6


def test_greedy_clearly_beats_random() -> None:
    players, games, wins = 4, 80, 0
    for g in range(games):
        seat = g % players
        bots: list[Bot] = [GreedyBot(g) if s == seat else RandomBot(1000 * g + s) for s in range(players)]
        result = play_game(bots, seed=g).result()
        wins += seat in result.winners
    assert wins / games > 0.75
