"""Party hidden information: seat views, known hands and determinization."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.party.actions import PASS
from sushigo.engine.party.cards import DESSERT_IDS, PartyCard
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import (
    known_hand_cards,
    party_seat_view,
    party_spectator_view,
    sample_party_world,
)
from sushigo.engine.rules import Rules, RulesError
from sushigo.engine.turns import Phase


def official_tables():
    for name in OFFICIAL_MENUS:
        for n in range(2, 9):
            try:
                yield Rules.party(n, name)
            except RulesError:
                continue


TABLES = list(official_tables())


def step(game: PartyGame, rng: random.Random) -> None:
    seat = game.pending_seats[0]
    game.commit(seat, rng.choice(game.legal_actions(seat)))


class PileTracker:
    """Follows which physical hand ("pile") each seat holds, independently of
    the engine: piles move one seat left at the end of every turn."""

    def __init__(self, game: PartyGame) -> None:
        self.game = game
        self.start()

    def start(self) -> None:
        n = self.game.players
        self.round = self.game.round
        self.turn = self.game.turn
        self.pile_at = list(range(n))
        self.held = [{s} for s in range(n)]

    def update(self) -> None:
        g = self.game
        if g.is_over:
            return
        if g.round != self.round:
            self.start()
            return
        while self.turn < g.turn:
            n = g.players
            self.pile_at = [self.pile_at[(s - 1) % n] for s in range(n)]
            for s in range(n):
                self.held[s].add(self.pile_at[s])
            self.turn += 1

    def holds_seen_pile(self, viewer: int, seat: int) -> bool:
        return self.pile_at[seat] in self.held[viewer]


def test_view_at_start() -> None:
    game = PartyGame(Rules.party(4, "Master Menu"), seed=1)
    view = party_seat_view(game, 2)
    assert view.hand == game.hand(2)
    assert view.legal_actions == tuple(game.legal_actions(2))
    assert view.known_cards[2] == tuple(sorted(game.hand(2)))
    assert view.known_cards[0] == view.known_cards[1] == view.known_cards[3] == ()
    assert view.menu == game.rules.menu
    assert view.hand_sizes == (9, 9, 9, 9)
    json.dumps(view.to_json())


def test_spectator_sees_no_hand() -> None:
    game = PartyGame(Rules.party(3, "Dinner for Two"), seed=4)
    view = party_spectator_view(game)
    assert view.hand is None and view.legal_actions == () and view.committed is None
    assert all(k == () for k in view.known_cards)
    with pytest.raises(IndexError):
        party_seat_view(game, 3)


@pytest.mark.parametrize("rules", TABLES[::3], ids=lambda r: f"{r.players}p-{r.menu[1]}-{r.menu[-1]}")
def test_known_cards_follow_the_piles_a_seat_has_held(rules: Rules) -> None:
    """A pile the viewer has held is known exactly; any other known card is really there."""
    for seed in range(4):
        game = PartyGame(rules, seed=seed)
        rng = random.Random(seed)
        tracker = PileTracker(game)
        while not game.is_over:
            if game.phase is Phase.PICK and not any(game.has_committed(s) for s in range(game.players)):
                for v in range(game.players):
                    known = known_hand_cards(game, v)
                    for s in range(game.players):
                        actual = Counter(game.hands[s])
                        if tracker.holds_seen_pile(v, s):
                            assert known[s] == actual, (seed, v, s)
                        else:
                            assert not known[s] - actual, (seed, v, s)
            step(game, rng)
            tracker.update()


def test_chopsticks_put_back_are_known_to_everyone() -> None:
    rules = Rules.party(5, "Big Banquet")
    rng = random.Random(0)
    for seed in range(40):
        game = PartyGame(rules, seed=seed)
        while not game.is_over:
            d = game.decision
            if d is not None and d.kind == "chopsticks":
                seat = d.seat
                play = next(a for a in game.legal_actions(seat) if a != PASS)
                game.commit(seat, play)
                if game.phase is Phase.PICK and game.round == 1 and game.turn > 1:
                    holder = game.passes_to(seat)
                    for v in range(5):
                        assert known_hand_cards(game, v)[holder][d.card] >= 1
                    return
                continue
            step(game, rng)
    pytest.fail("no chopsticks were used in 40 games")


def test_menu_draw_is_seen_by_its_player_only() -> None:
    rules = Rules.party(4, "Party Sampler")
    rng = random.Random(1)
    for seed in range(60):
        game = PartyGame(rules, seed=seed)
        while not game.is_over:
            d = game.decision
            if d is not None and d.kind == "menu":
                assert len(d.drawn) == 4
                assert party_seat_view(game, d.seat).decision == d
                for v in range(4):
                    if v != d.seat:
                        assert party_seat_view(game, v).decision.drawn == ()
                assert party_spectator_view(game).decision.drawn == ()
                return
            step(game, rng)
    pytest.fail("no menu was played in 60 games")


def test_committed_picks_stay_hidden() -> None:
    game = PartyGame(Rules.party(3, "Sushi Go!"), seed=5)
    pick = game.legal_actions(1)[0]
    game.commit(1, pick)
    assert party_seat_view(game, 1).committed == pick
    other = party_seat_view(game, 0)
    assert other.committed is None and other.picked == (False, True, False)
    assert "committed" in other.to_json() and other.to_json()["committed"] is None


@pytest.mark.parametrize("rules", TABLES[1::4], ids=lambda r: f"{r.players}p-{r.menu[1]}-{r.menu[-1]}")
def test_view_depends_only_on_what_the_seat_knows(rules: Rules) -> None:
    """The view of a sampled world equals the real view: nothing hidden leaks into it."""
    rng = random.Random(7)
    game = PartyGame(rules, seed=3)
    checked = 0
    while not game.is_over:
        if (rng.random() < 0.3 and game.phase is not Phase.PICK) or not any(
            game.has_committed(s) for s in range(game.players)
        ):
            v = rng.randrange(game.players)
            world = sample_party_world(game, v, rng)
            real, sampled = party_seat_view(game, v), party_seat_view(world, v)
            for field in ("hand", "legal_actions", "decision", "collections", "desserts",
                          "hand_sizes", "known_cards", "deck_size", "result", "round", "turn"):
                assert getattr(real, field) == getattr(sampled, field), field
            checked += 1
        step(game, rng)
    assert checked > 10


@pytest.mark.parametrize("rules", TABLES[::2], ids=lambda r: f"{r.players}p-{r.menu[1]}-{r.menu[-1]}")
def test_sample_world_keeps_cards_and_plays_to_the_end(rules: Rules) -> None:
    rng = random.Random(11)
    game = PartyGame(rules, seed=8)
    while not game.is_over:
        if rng.random() < 0.25:
            v = rng.randrange(game.players)
            world = sample_party_world(game, v, rng)
            assert sorted(world.all_cards()) == sorted(game.all_cards())
            assert world.hands[v] == game.hands[v]
            assert world.collections and [[p.kind for p in c] for c in world.collections] == [
                [p.kind for p in c] for c in game.collections
            ]
            assert all(c in DESSERT_IDS for c in world.dessert_pile)
            known = known_hand_cards(game, v)
            for s in range(game.players):
                assert not known[s] - Counter(world.hands[s])
            world.random_playout(rng)
            assert world.is_over
        step(game, rng)


def test_sample_world_resamples_unknown_cards_and_is_seeded() -> None:
    game = PartyGame(Rules.party(5, "Cutthroat Combo"), seed=2)
    worlds = [sample_party_world(game, 0, seed=s) for s in range(20)]
    assert len({tuple(w.hands[3]) for w in worlds}) > 1
    assert len({tuple(w.deck) for w in worlds}) > 1
    again = sample_party_world(game, 0, seed=4)
    assert again.hands == worlds[4].hands and again.deck == worlds[4].deck
    assert all(w.hands[0] == game.hands[0] for w in worlds)


def test_sampled_world_does_not_carry_the_real_generator() -> None:
    """Later shuffles in a sampled world must not reproduce the real ones."""
    rules = Rules.party(3, "Points Platter")
    game = PartyGame(rules, seed=9)
    world = sample_party_world(game, 1, seed=1)
    assert world.seed is None
    # Play both to round 2 with the same actions; the real round-2 deal is not known.
    rng_a, rng_b = random.Random(5), random.Random(5)
    while game.round == 1:
        step(game, rng_a)
    while world.round == 1:
        step(world, rng_b)
    assert game.hands != world.hands


def test_other_seats_committed_picks_go_back_into_play_in_a_sample() -> None:
    game = PartyGame(Rules.party(4, "My First Meal"), seed=6)
    game.commit(2, game.legal_actions(2)[0])
    game.commit(0, game.legal_actions(0)[-1])
    world = sample_party_world(game, 0, seed=3)
    assert world.committed_action(0) == game.committed_action(0)
    assert world.committed_action(2) is None
    assert world.pending_seats == [1, 2, 3]


def test_view_to_json_uses_card_names() -> None:
    game = PartyGame(Rules.party(6, "Big Banquet"), seed=12)
    rng = random.Random(0)
    for _ in range(30):
        step(game, rng)
    data = party_seat_view(game, game.pending_seats[0]).to_json()
    text = json.dumps(data)
    assert data["edition"] == "party" and data["players"] == 6
    names = {c.name_in_records for c in PartyCard}
    for col in data["collections"]:
        for entry in col:
            assert entry.split(">")[-1] in names | {"face_down"}
    assert set(data["legal"]) and "hand" in text


@pytest.mark.parametrize("rules", TABLES[::5], ids=lambda r: f"{r.players}p-{r.menu[1]}-{r.menu[-1]}")
def test_views_inside_a_sampled_world_follow_its_cards(rules: Rules) -> None:
    """Regression (review): the copy kept the real deal in its history, so a view
    built inside it for another seat showed real hidden cards, and sampling the
    copy again lost cards.  Now every seat's known cards are in its hand in the
    copy, and nested sampling keeps every card."""
    rng = random.Random(21)
    for seed in range(3):
        game = PartyGame(rules, seed=seed)
        while not game.is_over:
            if rng.random() < 0.3:
                v = rng.randrange(game.players)
                world = sample_party_world(game, v, rng)
                for s in range(game.players):
                    known = known_hand_cards(world, s)
                    for t in range(game.players):
                        assert not known[t] - Counter(world.hands[t]), (seed, v, s, t)
                other = (v + 1) % game.players
                nested = sample_party_world(world, other, rng)
                assert sorted(nested.all_cards()) == sorted(game.all_cards())
                nested.random_playout(rng)
            step(game, rng)


def test_other_seats_menu_draws_are_not_in_a_sampled_history() -> None:
    rules = Rules.party(4, "Party Sampler")
    rng = random.Random(3)
    for seed in range(80):
        game = PartyGame(rules, seed=seed)
        while not game.is_over:
            d = game.decision
            if d is not None and d.kind == "menu" and d.drawn and game.phase is Phase.PICK:
                break
            step(game, rng)
            drawn_by = [m.seat for _, turns in game.history() for moves in turns for m in moves if m.drawn]
            if drawn_by and game.phase is Phase.PICK:
                owner = drawn_by[0]
                viewer = (owner + 1) % 4
                world = sample_party_world(game, viewer, rng)
                moves = [m for _, turns in world.history() for ms in turns for m in ms]
                assert all(not m.drawn for m in moves if m.seat != viewer)
                own = sample_party_world(game, owner, rng)
                assert any(m.drawn for _, turns in own.history() for ms in turns for m in ms if m.seat == owner)
                return
    pytest.fail("no menu was played")


def test_a_game_dealt_by_hand_samples_worlds_that_deal_themselves() -> None:
    """A replayed game (``auto_deal=False``) samples a world that deals its own future; one
    waiting for cards from the deck can't be sampled."""
    from sushigo.engine.editions import to_record
    from sushigo.engine.party.record import replay_party

    game = PartyGame(Rules.party(3, "Sushi Go!"), seed=1)
    rng = random.Random(0)
    for _ in range(5):
        step(game, rng)
    replayed = replay_party(to_record(game), partial=True)
    world = sample_party_world(replayed, 0, seed=1)
    assert party_seat_view(world, 0) == party_seat_view(replayed, 0)
    world.random_playout(random.Random(2))
    assert world.is_over
    waiting = PartyGame(Rules.party(3, "Sushi Go!"), auto_deal=False)
    with pytest.raises(ValueError, match="waiting for cards"):
        sample_party_world(waiting, 0, seed=1)
