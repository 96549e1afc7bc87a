"""The Party playout policy (sushigo.bots.party_policy).

What is checked: every action it returns is legal, in every official menu and
in random custom menus, at every table size and epsilon; a seat's action
depends only on what the seat can see (a world that looks the same to it
gives the same action); and each decision's rule does what the module doc
says in hand-built positions.  What it adds to search is measured in
``benchmarks/bot_strength.py``.
"""

from __future__ import annotations

import random

import pytest
from tests.botspecs import random_commits
from tests.sheet_samples import random_menu

from sushigo.bots.party_policy import (
    SPOON_THRESHOLD,
    Seat,
    party_heuristic_action,
    party_heuristic_playout,
)
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.party.actions import COPY_BASE, COPY_ON_WASABI, FLIP_BASE, PASS
from sushigo.engine.party.cards import PartyCard as C
from sushigo.engine.party.game import PartyGame, Played, _decision
from sushigo.engine.party.view import sample_party_world
from sushigo.engine.rules import Rules, RulesError
from sushigo.engine.turns import Phase


def _tables(count: int, rng: random.Random) -> list[Rules]:
    """Official menus at several sizes, then random custom menus."""
    tables = []
    for name in OFFICIAL_MENUS:
        for players in (2, 3, 4, 6, 8):
            try:
                tables.append(Rules.party(players, name))
            except RulesError:
                pass
    while len(tables) < count:
        try:
            tables.append(Rules.party(rng.randrange(2, 9), random_menu(rng)))
        except RulesError:
            pass
    return tables


@pytest.mark.parametrize("epsilon", [0.0, 0.15, 1.0])
def test_every_action_is_legal_in_every_kind_of_game(epsilon: float) -> None:
    rng = random.Random(int(epsilon * 100))
    kinds: set[str] = set()
    for i, rules in enumerate(_tables(70, rng)):
        game = PartyGame(rules, seed=i)
        while not game.is_over:
            for s in game.pending_seats:
                if game.phase is Phase.RESOLVE:
                    assert game.decision is not None
                    kinds.add(game.decision.kind)
                action = party_heuristic_action(game, s, rng, epsilon)
                assert game.is_legal(s, action), (rules.menu, s, action, game.legal_actions(s))
                game.commit(s, action)
        assert len(game.result().rounds) == 3
    assert kinds == {"chopsticks", "spoon", "menu", "takeout_box"}


def test_playout_finishes_games_keeping_hidden_picks() -> None:
    for i, name in enumerate(OFFICIAL_MENUS):
        game = PartyGame(Rules.party(2 if "Dinner" in name else 4, name), seed=i)
        first = game.legal_actions(1)[0]
        game.commit(1, first)
        party_heuristic_playout(game, random.Random(i))
        assert game.is_over
        assert game.history()[0][1][0][1].action == first


def test_a_seat_acts_on_what_it_can_see_alone() -> None:
    rng = random.Random(5)
    tables = _tables(60, rng)
    checked = resolving = 0
    for i, rules in enumerate(tables):
        game = PartyGame(rules, seed=i)
        random_commits(game, rng, rng.randrange(0, 70))
        if game.is_over:
            continue
        seat = rng.choice(game.pending_seats)
        other = sample_party_world(game, seat, seed=i)
        for k in range(5):
            assert party_heuristic_action(game, seat, random.Random(k), 0.15) == party_heuristic_action(
                other, seat, random.Random(k), 0.15)
        checked += 1
        resolving += game.phase is Phase.RESOLVE
    assert checked > 40 and resolving > 3


# ------------------------------------------------------- each rule


def _game(menu: str, players: int = 3) -> PartyGame:
    return PartyGame(Rules.party(players, menu), seed=0)


def _collect(game: PartyGame, seat: int, cards: list[int], turn: int = 0) -> None:
    game.collections[seat] = [Played(int(c), int(c), turn, 100 + i) for i, c in enumerate(cards)]


def _act(game: PartyGame, seat: int = 0) -> int:
    return party_heuristic_action(game, seat, random.Random(0), epsilon=0.0)


def test_picks_complete_sets_and_avoid_spoiling_them() -> None:
    game = _game("Cutthroat Combo")
    game.hands[0] = [int(C.EEL), int(C.TOFU), int(C.TEMAKI)]
    _collect(game, 0, [C.EEL, C.TOFU, C.TOFU])
    assert _act(game) == C.EEL  # the second eel: -3 becomes 7; a third tofu would spoil 6
    assert Seat(game, 0, 3).value(int(C.TOFU)) == -6.0
    game = _game("Master Menu")
    game.hands[0] = [int(C.ONIGIRI_CIRCLE), int(C.ONIGIRI_SQUARE), int(C.SASHIMI)]
    _collect(game, 0, [C.ONIGIRI_CIRCLE, C.ONIGIRI_TRIANGLE, C.SASHIMI, C.SASHIMI])
    assert _act(game) == C.SASHIMI
    _collect(game, 0, [C.ONIGIRI_CIRCLE, C.ONIGIRI_TRIANGLE])
    assert _act(game) == C.ONIGIRI_SQUARE  # a third shape: 4 points become 9


def test_nigiri_goes_on_wasabi_and_special_order_copies_the_best() -> None:
    game = _game("Dinner for Two", 2)
    game.hands[0] = [int(C.SPECIAL_ORDER), int(C.EGG), int(C.MISO_SOUP)]
    _collect(game, 0, [C.MISO_SOUP, C.TOFU])
    actions = game.legal_actions(0)
    assert COPY_BASE + C.TOFU in actions and _act(game) == COPY_BASE + C.TOFU  # a second tofu: +4
    game = _game("Sushi Go!")
    game.hands[0] = [int(C.SQUID), int(C.SALMON), int(C.MAKI3)]
    _collect(game, 0, [C.WASABI])
    assert _act(game) == C.SQUID
    game = _game("Points Platter")
    game.hands[0] = [int(C.SPECIAL_ORDER), int(C.DUMPLING)]
    _collect(game, 0, [C.WASABI, C.SQUID])
    game.collections[0][1].kind = int(C.SQUID)
    assert COPY_ON_WASABI + 2 in game.legal_actions(0) and _act(game) == COPY_ON_WASABI + 2


def _resolving(game: PartyGame, kind: str, card: int, drawn: tuple[int, ...] = ()) -> None:
    game._phase = Phase.RESOLVE
    game._decision = _decision(kind, 0, card, drawn)


def test_chopsticks_take_a_good_card_only() -> None:
    game = _game("Big Banquet")
    _collect(game, 0, [C.CHOPSTICKS1, C.TEMPURA])
    game.hands[0] = [int(C.TEMPURA), int(C.MAKI1)]
    _resolving(game, "chopsticks", int(C.CHOPSTICKS1))
    assert _act(game) == C.TEMPURA
    game.hands[0] = [int(C.MAKI1), int(C.MAKI2)]
    assert _act(game) == PASS  # two maki icons are not worth the chopsticks


def test_spoon_asks_for_a_valuable_card_or_waits() -> None:
    game = _game("Cutthroat Combo", 3)
    _collect(game, 0, [C.SPOON4, C.EEL])
    game.hands[0] = [int(C.MISO_SOUP)] * 6
    _resolving(game, "spoon", int(C.SPOON4))
    assert _act(game) == C.EEL and Seat(game, 0, 7).value(int(C.EEL)) >= SPOON_THRESHOLD
    _collect(game, 0, [C.SPOON4])
    game.hands[0] = [int(C.MISO_SOUP)] * 4
    assert _act(game) == PASS  # with four picks left nothing on the menu is worth the spoon yet
    game.hands[0] = [int(C.MISO_SOUP)] * 2
    assert _act(game) != PASS  # the round is nearly over: use it


def test_menu_draw_takes_the_best_card() -> None:
    game = _game("Party Sampler")
    _collect(game, 0, [C.TEMPURA])
    game.hands[0] = [int(C.TOFU)] * 4
    _resolving(game, "menu", int(C.MENU8), (int(C.DUMPLING), int(C.TEMPURA), int(C.TOFU)))
    assert _act(game) == C.TEMPURA


def test_takeout_box_flips_low_cards_one_at_a_time() -> None:
    game = _game("Master Menu")
    _collect(game, 0, [C.SASHIMI, C.SASHIMI, C.SASHIMI, C.TOFU, C.TOFU, C.TOFU, C.TAKEOUT_BOX10])
    game.turn = 1
    game.collections[0][-1].turn = 1
    game.hands[0] = [int(C.TEMAKI)] * 5
    _resolving(game, "takeout_box", int(C.TAKEOUT_BOX10))
    assert _act(game) == FLIP_BASE + 3  # a third tofu scores 0, face down 2
    game.collections[0][3].kind = 46
    assert _act(game) == PASS  # two tofu score 6; the sashimi set 10
