"""Bots in Sushi Go Party!: legality in every menu, greedy's judgement, hidden information."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from botspecs import fast_bot, random_commits
from sheet_samples import random_menu
from sushigo.bots import BOTS, Bot, GreedyBot, NoLegalActionError, PartyGreedyBot, RandomBot, make_bot, play_game
from sushigo.bots.base import view_for
from sushigo.bots.party_greedy import party_action_values
from sushigo.engine.base.game import Game
from sushigo.engine.menus import OFFICIAL_MENUS, MenuError, check_menu, parse_menu
from sushigo.engine.party.actions import PASS, copy_target, encode_copy, flip_position
from sushigo.engine.party.cards import PartyCard as C
from sushigo.engine.party.game import Decision, PartyGame
from sushigo.engine.party.view import PartySeatView, PlayedCard, party_seat_view, sample_party_world
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase


def table_sizes(menu: str, sizes: Sequence[int] = (2, 3, 4, 5, 6, 7, 8)) -> list[int]:
    items = parse_menu(menu)
    ok = []
    for n in sizes:
        try:
            check_menu(items, n)
        except MenuError:
            continue
        ok.append(n)
    return ok


def play_checked(game: PartyGame, bots: Sequence[Bot]) -> Counter[str]:
    """Play to the end through commit(); every action must be legal.  Counts what each decision was."""
    seen: Counter[str] = Counter()
    while not game.is_over:
        for seat in game.pending_seats:
            view = view_for(game, seat, bots[seat])
            assert isinstance(view, PartySeatView)
            action = bots[seat].choose(view)
            assert action in view.legal_actions
            assert game.is_legal(seat, action)
            name = bots[seat].name
            if view.decision is not None:
                used = "pass" if action == PASS else "use"
                seen[f"{name}:{view.decision.kind}:{used}"] += 1
            elif copy_target(action) is not None:
                seen[f"{name}:special_order"] += 1
            game.commit(seat, action)
    return seen


# ------------------------------------------------------------ legality


@pytest.mark.parametrize("menu", list(OFFICIAL_MENUS))
def test_bots_play_legal_actions_in_every_official_menu(menu: str) -> None:
    for players in table_sizes(menu, (2, 4, 6, 8)):
        seed = players * 17 + len(menu)
        bots = [make_bot("greedy" if s % 2 == 0 else "random", seed + s) for s in range(players)]
        game = PartyGame(Rules.party(players, menu), seed=seed)
        play_checked(game, bots)
        assert game.is_over and len(game.result().rounds) == 3


def test_both_bots_make_every_kind_of_decision() -> None:
    seen: Counter[str] = Counter()
    menus = ["Big Banquet", "Master Menu", "Dinner for Two", "Points Platter", "Party Sampler"]
    for seed in range(10):
        for menu in menus:
            for first in ("greedy", "random"):  # the search bots: tests/bots/test_ismcts.py
                other = "random" if first == "greedy" else "greedy"
                bots = [fast_bot(first if s % 2 == 0 else other, seed * 10 + s) for s in range(4)]
                seen += play_checked(PartyGame(Rules.party(4, menu), seed=seed), bots)
    for name in ("greedy", "random"):
        for kind in ("chopsticks", "spoon", "menu", "takeout_box"):
            assert seen[f"{name}:{kind}:use"] > 0, (name, kind, seen)
        assert seen[f"{name}:special_order"] > 0
    for kind in ("chopsticks", "spoon", "takeout_box"):
        assert seen[f"greedy:{kind}:pass"] > 0  # greedy does not use everything blindly


def test_play_game_plays_party_and_checks_the_seat_count() -> None:
    rules = Rules.party(5, "Cutthroat Combo")
    game = play_game([make_bot("greedy", s) for s in range(5)], seed=3, rules=rules)
    assert isinstance(game, PartyGame) and game.is_over
    again = play_game([make_bot("greedy", s) for s in range(5)], seed=3, rules=rules)
    assert again.history() == game.history()
    with pytest.raises(ValueError, match="4 bots for a 5-player game"):
        play_game([RandomBot(s) for s in range(4)], rules=rules)
    base = play_game([RandomBot(s) for s in range(3)], seed=1)
    assert isinstance(base, Game)


def test_no_legal_action_and_wrong_edition_errors() -> None:
    game = PartyGame(Rules.party(3, "Sushi Go!"), seed=1)
    game.commit(0, game.legal_actions(0)[0])
    view = party_seat_view(game, 0, world=True)
    for name in BOTS:
        with pytest.raises(NoLegalActionError, match="nothing to pick"):
            make_bot(name, 0).choose(view)
    from sushigo.engine.base.view import seat_view

    with pytest.raises(TypeError, match="Party"):
        PartyGreedyBot(0).choose(seat_view(Game(3, seed=1), 0))


def test_party_greedy_bot_is_greedy_on_party_views() -> None:
    for seed in range(5):
        rules = Rules.party(4, "Master Menu")
        a = play_game([PartyGreedyBot(seed)] + [RandomBot(seed + k) for k in range(1, 4)], seed=seed, rules=rules)
        b = play_game([GreedyBot(seed)] + [RandomBot(seed + k) for k in range(1, 4)], seed=seed, rules=rules)
        assert a.history() == b.history()


# ---------------------------------------------------- greedy vs random


@pytest.mark.slow
@pytest.mark.parametrize("menu", ["My First Meal", "Master Menu", "Cutthroat Combo", "Dinner for Two"])
def test_greedy_clearly_beats_random(menu: str) -> None:
    players, games, wins = 4, 40, 0.0
    rules = Rules.party(players, menu)
    for g in range(games):
        seat = g % players
        bots: list[Bot] = [GreedyBot(g) if s == seat else RandomBot(100 * g + s) for s in range(players)]
        result = play_game(bots, seed=1000 + g, rules=rules).result()
        if seat in result.winners:
            wins += 1 / len(result.winners)
    assert wins / games > 0.6, wins / games  # random would win a quarter


# --------------------------------------------------- hidden information


@pytest.mark.slow
def test_bots_decide_from_the_view_alone() -> None:
    """A game and a world that differs from it only in what a seat cannot see
    give that seat the same view, and a seeded bot the same choice, on the
    official menus and on custom ones."""
    rng = random.Random(7)
    menus = list(OFFICIAL_MENUS)
    checked = resolving = differs = 0
    for seed in range(150):
        menu = ",".join(random_menu(rng)) if seed % 4 == 3 else menus[seed % len(menus)]
        players = rng.choice(table_sizes(menu, (3, 4, 5, 6)))
        game = PartyGame(Rules.party(players, menu), seed=seed)
        want_resolve = seed % 3 == 0
        random_commits(game, rng, rng.randrange(0, 70), stop_at_resolve=want_resolve)
        if game.is_over:
            continue
        seat = rng.choice(game.pending_seats)
        world = sample_party_world(game, seat, seed=seed + 1)
        differs += world.hands != game.hands or world.deck != game.deck
        view, world_view = party_seat_view(game, seat, world=True), party_seat_view(world, seat, world=True)
        # The sampler takes back the other seats' hidden picks; nothing else may differ.
        assert dataclasses.replace(world_view, picked=view.picked) == view
        for name in BOTS:
            assert fast_bot(name, seed).choose(view) == fast_bot(name, seed).choose(world_view)
        checked += 1
        resolving += game.phase is Phase.RESOLVE
    assert checked > 100 and resolving > 10 and differs > 100


# ------------------------------------------------ greedy's judgement


def situation(
    menu: str,
    hand: Sequence[C],
    collection: Sequence[C | tuple[C, C]] = (),
    *,
    players: int = 4,
    turn: int = 2,
    legal: Sequence[int] | None = None,
    decision: Decision | None = None,
    known: dict[int, Sequence[C]] | None = None,
    on_wasabi: Sequence[int] = (),
) -> PartySeatView:
    """Seat 0's view of a hand-built position: its ``hand``, its collection
    (earlier turns; a pair ``(card, kind)`` is a special order's copy), the
    legal actions (default: every card of the hand) and a pending decision."""
    view = party_seat_view(PartyGame(Rules.party(players, menu), seed=0), 0)
    played = []
    for i, entry in enumerate(collection):
        card, kind = entry if isinstance(entry, tuple) else (entry, entry)
        played.append(PlayedCard(int(card), int(kind), min(i + 1, turn - 1), i in on_wasabi))
    cols = [tuple(played)] + [()] * (players - 1)
    known_cards = [tuple(hand)] + [tuple(known.get(s, ())) if known else () for s in range(1, players)]
    return dataclasses.replace(
        view,
        turn=turn,
        phase=Phase.PICK if decision is None else Phase.RESOLVE,
        hand=tuple(hand),
        legal_actions=tuple(sorted(set(legal if legal is not None else (int(c) for c in hand)))),
        decision=decision,
        collections=tuple(cols),
        hand_sizes=(len(hand),) * players,
        known_cards=tuple(known_cards),
    )


def best(view: PartySeatView) -> int:
    values = party_action_values(view)
    assert set(values) == set(view.legal_actions)
    return GreedyBot(0).choose(view)


def test_greedy_completes_sets_and_avoids_bad_ones() -> None:
    menu = "Sushi Go!"
    assert best(situation(menu, [C.SASHIMI, C.SALMON], [C.SASHIMI, C.SASHIMI])) == C.SASHIMI
    assert best(situation(menu, [C.SQUID, C.TEMPURA, C.EGG], [C.WASABI])) == C.SQUID
    tofu = "Cutthroat Combo"
    assert best(situation(tofu, [C.TOFU, C.TEMAKI], [C.TOFU, C.TOFU], turn=4)) == C.TEMAKI
    assert best(situation(tofu, [C.EEL, C.TOFU], [C.EEL], turn=6)) == C.EEL


def test_greedy_special_order_copies_the_best_card() -> None:
    copies = [encode_copy(C.TOFU), encode_copy(C.EGG), int(C.EGG)]
    view = situation("Points Platter", [C.SPECIAL_ORDER, C.EGG], [C.DUMPLING, C.DUMPLING, C.DUMPLING, C.EGG],
                     legal=[encode_copy(C.DUMPLING), encode_copy(C.EGG), int(C.EGG)])
    assert best(view) == encode_copy(C.DUMPLING)
    view = situation("Dinner for Two", [C.SPECIAL_ORDER, C.EGG], [C.TOFU, C.EGG], legal=copies)
    assert best(view) == encode_copy(C.TOFU)


def test_greedy_uses_chopsticks_for_a_good_card_only() -> None:
    chopsticks = Decision("chopsticks", 0, int(C.CHOPSTICKS1))
    good = situation("Sushi Go!", [C.SQUID, C.EGG], [C.CHOPSTICKS1, C.WASABI], turn=6,
                     legal=[int(C.SQUID), int(C.EGG), PASS], decision=chopsticks)
    assert best(good) == C.SQUID
    junk = situation("Cutthroat Combo", [C.TOFU], [C.SPOON4, C.TOFU, C.TOFU], turn=3,
                     legal=[int(C.TOFU), PASS], decision=Decision("spoon", 0, int(C.SPOON4)),
                     known={1: [C.TOFU]})
    assert best(junk) == PASS  # a third tofu would cost 6 points


def test_greedy_spoon_asks_for_a_card_it_knows_is_there() -> None:
    spoon = Decision("spoon", 0, int(C.SPOON5))
    requestable = sorted({int(c) for c in C if c.item in parse_menu("Master Menu")})
    view = situation("Master Menu", [C.EGG], [C.SPOON5, C.SASHIMI, C.SASHIMI], turn=8,
                     legal=requestable + [PASS], decision=spoon, known={2: [C.SASHIMI]})
    assert best(view) == C.SASHIMI


def test_greedy_menu_takes_the_best_drawn_card() -> None:
    drawn = (int(C.EGG), int(C.SQUID), int(C.TEMPURA), int(C.TOFU))
    menu = Decision("menu", 0, int(C.MENU8), drawn)
    view = situation("Party Sampler", [C.EGG, C.TOFU], [C.WASABI], turn=3, legal=drawn, decision=menu)
    assert best(view) == C.SQUID


def test_greedy_takeout_box_flips_only_low_value_cards() -> None:
    box = Decision("takeout_box", 0, int(C.TAKEOUT_BOX10))
    cards = [C.EGG, C.SQUID, C.TEMAKI, C.TOFU, C.TOFU]
    view = situation("Master Menu", [C.SALMON], cards, turn=8,
                     legal=[PASS] + [97 + i for i in range(len(cards))], decision=box)
    values = party_action_values(view)
    assert flip_position(best(view)) == 0  # the egg (1 point) becomes 2
    assert values[97 + 1] < values[PASS]  # never the squid
    assert values[97 + 3] < values[PASS]  # nor half of a tofu pair
    done = situation("Master Menu", [C.SALMON], [C.SQUID, C.TOFU, C.TOFU], turn=8,
                     legal=[PASS, 97, 98, 99], decision=box)
    assert best(done) == PASS


def test_greedy_values_specials_early_and_menu_draws() -> None:
    early = situation("Big Banquet", [C.CHOPSTICKS2] + [C.EGG] * 7, turn=1)
    assert best(early) == C.CHOPSTICKS2
    late = situation("Big Banquet", [C.CHOPSTICKS2, C.EGG], turn=8)
    assert best(late) == C.EGG
    values = party_action_values(situation("Party Sampler", [C.MENU7, C.EGG], turn=2))
    assert values[int(C.MENU7)] > values[int(C.EGG)]
