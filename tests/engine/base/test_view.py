"""Hidden information: per-seat views, the spectator view and determinization."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from policies import random_actions
from sushigo import Card, Game, Phase, Rules
from sushigo.engine.base.actions import card_ids
from sushigo.engine.base.cards import DECK_COUNT_LIST
from sushigo.engine.base.game import total_cards
from sushigo.engine.base.view import round_hands, sample_world, seat_view, spectator_view
from sushigo.engine.editions import replay, to_record

CH = int(Card.CHOPSTICKS)


class Tracker:
    """Follows every physical hand ("pile", named by the seat it was dealt to)
    independently of the engine, to know which hands each seat has held."""

    def __init__(self, game: Game):
        self.game = game
        self.round = None
        self.start_round()

    def start_round(self):
        g = self.game
        n = g.players
        self.round = g.round
        self.pile_at = list(range(n))             # pile_at[seat] = pile the seat holds
        self.held = [{s} for s in range(n)]       # piles each seat has held this round
        self.seen = [[tuple(g.hands[s])] for s in range(n)]
        self.public_ch = [0] * n                  # chopsticks put back into each pile, still there

    def after_turn(self, actions):
        g = self.game
        n = g.players
        for s, a in enumerate(actions):
            pile = self.pile_at[s]
            picked = card_ids(a)
            for c in picked:
                if c == CH and self.public_ch[pile]:
                    self.public_ch[pile] -= 1
            if len(picked) == 2:
                self.public_ch[pile] += 1
        if g.is_over:
            return
        if g.round != self.round:
            if g.phase is Phase.PICK:
                self.start_round()
            return
        step = g.pass_step
        new = [0] * n
        for s in range(n):
            new[(s + step) % n] = self.pile_at[s]
        self.pile_at = new
        for s in range(n):
            self.held[s].add(new[s])
            self.seen[s].append(tuple(g.hands[s]))

    def check_view(self, viewer: int):
        g = self.game
        view = seat_view(g, viewer)
        n = g.players
        assert view.seat == viewer
        assert view.hand == tuple(Card(c) for c in g.hands[viewer])
        assert view.hand_sizes == tuple(len(h) for h in g.hands)
        assert view.collections == tuple(tuple(Card(c) for c in col) for col in g.collections)
        assert view.puddings == tuple(g.puddings())
        assert view.round == g.round and view.turn == g.turn
        assert view.legal_actions == tuple(g.legal_actions(viewer))
        assert view.seen_hands == tuple(tuple(Card(c) for c in h) for h in self.seen[viewer])
        for k in range(n):
            knows = self.pile_at[k] in self.held[viewer]
            if knows:
                assert view.known_hands[k] == tuple(Card(c) for c in g.hands[k])
                assert Counter(view.known_cards[k]) == Counter(g.hands[k])
            else:
                # nothing of a hand the viewer has not held, except public chopsticks
                assert view.known_hands[k] is None
                assert set(view.known_cards[k]) <= {Card.CHOPSTICKS}
                assert len(view.known_cards[k]) == self.public_ch[self.pile_at[k]]
                assert len(view.known_cards[k]) <= g.hands[k].count(CH)
        js = view.to_json()
        json.dumps(js)
        assert sum(js["discard"].values()) == len(g.discard)  # the public discard pile
        assert js["result"]["totals"] == list(g.result().totals)
        for k in range(n):
            if self.pile_at[k] not in self.held[viewer]:
                assert js["known_hands"][k] is None
        return view


def random_game_with_views(players, seed, options, check_every_turn=True):
    rnd = random.Random(seed)
    game = Game(Rules(players, **options), seed=seed)
    tracker = Tracker(game)
    while not game.is_over:
        if check_every_turn:
            for s in range(players):
                tracker.check_view(s)
            spec = spectator_view(game)
            assert spec.hand is None and spec.seen_hands == ()
            assert spec.known_hands == (None,) * players
            for k in range(players):
                assert set(spec.known_cards[k]) <= {Card.CHOPSTICKS}
                assert len(spec.known_cards[k]) == tracker.public_ch[tracker.pile_at[k]]
        actions = random_actions(game, rnd, 0.6)
        game.play(actions)
        tracker.after_turn(actions)
    return game


# ---------------------------------------------------------------- basic views

def test_view_at_start():
    game = Game(4, seed=3)
    view = seat_view(game, 2)
    assert view.hand == game.hand(2)
    assert view.known_hands == (None, None, game.hand(2), None)
    assert view.seen_hands == (game.hand(2),)
    assert view.collections == ((), (), (), ())
    assert view.puddings == (0, 0, 0, 0)
    assert view.hand_sizes == (8, 8, 8, 8)
    assert view.picked == (False,) * 4
    assert view.committed is None
    assert view.phase is Phase.PICK
    assert view.pass_step == 1
    assert view.known_cards[0] == ()
    assert view.result.rounds == ()
    assert sum(view.discard) == 0


def test_known_hands_grow_turn_by_turn():
    # 4 players passing left: after t turns, seat 0 knows the hands now held by
    # seats 0, 1, ..., t (the hands it passed on)
    game = Game(4, seed=12)
    for t in range(1, 5):
        view = seat_view(game, 0)
        known = [k for k in range(4) if view.known_hands[k] is not None]
        assert known == list(range(min(t, 4)))
        game.play([game.legal_actions(s)[0] for s in range(4)])


def test_known_hands_pass_right_in_round_two():
    game = Game(Rules(4, pass_both_ways=True), seed=12)
    while game.round < 2:
        game.play([game.legal_actions(s)[0] for s in range(4)])
    game.play([game.legal_actions(s)[0] for s in range(4)])
    view = seat_view(game, 0)
    # seat 0's old hand went right, to seat 3
    assert [k for k in range(4) if view.known_hands[k] is not None] == [0, 3]


def test_spectator_view_has_no_hands():
    game = Game(3, seed=1)
    game.play([game.legal_actions(s)[0] for s in range(3)])
    spec = spectator_view(game)
    assert spec.seat is None
    assert spec.hand is None
    assert spec.known_hands == (None, None, None)
    assert spec.seen_hands == ()
    assert spec.legal_actions == ()
    assert spec.committed is None
    js = spec.to_json()
    assert js["hand"] is None
    assert js["known_hands"] == [None, None, None]
    text = json.dumps(js)
    assert "hand" in text
    assert spec.collections == seat_view(game, 0).collections


def test_seat_view_bad_seat():
    game = Game(3, seed=1)
    with pytest.raises(ValueError):
        seat_view(game, 3)
    with pytest.raises(ValueError):
        seat_view(game, -1)


def test_committed_picks_not_visible():
    game = Game(3, seed=6)
    before = {s: seat_view(game, s) for s in range(3)}
    action = game.legal_actions(0)[-1]
    game.commit(0, action)
    v0 = seat_view(game, 0)
    assert v0.committed == action
    assert v0.picked == (True, False, False)
    assert v0.legal_actions == ()
    for s in (1, 2):
        v = seat_view(game, s)
        assert v.committed is None
        assert v.picked == (True, False, False)
        # everything else is exactly what the seat saw before seat 0 committed
        assert v.collections == before[s].collections
        assert v.hand == before[s].hand
        assert v.known_hands == before[s].known_hands
        assert v.hand_sizes == before[s].hand_sizes
        js = v.to_json()
        assert js["committed"] is None
    spec = spectator_view(game)
    assert spec.picked == (True, False, False)
    assert spec.committed is None
    game.commit(1, game.legal_actions(1)[0])
    game.commit(2, game.legal_actions(2)[0])
    assert seat_view(game, 1).collections[0] == tuple(Card(c) for c in card_ids(action))


def test_committed_pick_of_known_hand_not_leaked():
    # 2 players, turn 2: seat 1 knows the hand seat 0 holds (it held it on turn 1)
    game = Game(2, seed=2)
    game.play([game.legal_actions(0)[0], game.legal_actions(1)[0]])
    hand0 = seat_view(game, 1).known_hands[0]
    assert hand0 == game.hand(0)
    game.commit(0, game.legal_actions(0)[-1])
    # the known hand still shows every card: the hidden pick is not removed from it
    assert seat_view(game, 1).known_hands[0] == hand0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"pass_both_ways": True}, {"reshuffle": True}])
def test_views_never_leak_over_random_games(players, options):
    for seed in range(6):
        random_game_with_views(players, 1000 * players + seed, options)


def test_round_hands_matches_real_hands():
    game = Game(3, seed=10)
    tracker = Tracker(game)
    while game.round == 1:
        hist = round_hands(game)
        assert hist[-1] == game.hands
        assert [tuple(h[0]) for h in hist] == tracker.seen[0]
        acts = [game.legal_actions(s)[-1] for s in range(3)]
        game.play(acts)
        tracker.after_turn(acts)


def test_view_between_rounds_and_at_end():
    game = Game(3, auto_deal=False)
    from sushigo.engine.base.cards import full_deck

    deck = full_deck()
    random.Random(0).shuffle(deck)
    game.deal([deck[0:9], deck[9:18], deck[18:27]])
    while game.phase is Phase.PICK:
        game.play([game.legal_actions(s)[0] for s in range(3)])
    view = seat_view(game, 0)
    assert view.phase is Phase.DEAL
    assert view.known_hands == (None, None, None)
    assert view.seen_hands == ()
    assert sum(view.discard) + sum(view.puddings) == 27
    assert len(view.result.rounds) == 1


# ---------------------------------------------------------------- sample_world

def _comparable(view):
    # hands are multisets: the order of the cards in a hand carries no information
    # (the world's rewritten deal may list the cards of earlier hands in another order)
    seen = tuple(tuple(sorted(h)) for h in view.seen_hands)
    return (view.hand, view.known_hands, view.known_cards, seen, view.collections,
            view.puddings, view.hand_sizes, view.discard, view.round, view.turn, view.phase,
            view.legal_actions, view.committed, view.result)


def _states(players, seed, options, every=1):
    """Game states along a random game (clones), with chopsticks used often."""
    rnd = random.Random(seed)
    game = Game(Rules(players, **options), seed=seed)
    out = []
    i = 0
    while not game.is_over:
        if i % every == 0:
            out.append(game.clone())
        i += 1
        actions = random_actions(game, rnd, 0.6)
        game.play(actions)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"pass_both_ways": True}, {"reshuffle": True}])
def test_sample_world_keeps_what_the_seat_knows(players, options):
    for state in _states(players, 50 + players, options, every=2):
        for seat in range(players):
            world = sample_world(state, seat, seed=seat)
            # the seat cannot tell the world from the real game
            assert _comparable(seat_view(world, seat)) == _comparable(seat_view(state, seat))
            assert total_cards(world) == list(DECK_COUNT_LIST)
            assert world.kept_puddings == state.kept_puddings
            assert world.collections == state.collections
            assert Counter(world.discard) == Counter(state.discard)
            assert len(world.deck) == len(state.deck)
            assert world.history()[:-1] == state.history()[:-1]
            # the rewritten deal of this round leads to the world's hands
            hist = round_hands(world)
            assert [Counter(h) for h in hist[-1]] == [Counter(h) for h in world.hands]


def test_sample_world_resamples_unknown_hands():
    game = Game(5, seed=77)
    game.play([game.legal_actions(s)[0] for s in range(5)])
    seen_variants = set()
    for seed in range(20):
        world = sample_world(game, 0, seed=seed)
        assert world.hands[0] == game.hands[0]
        assert world.hands[1] == game.hands[1]  # seat 0 held it on turn 1
        seen_variants.add(tuple(tuple(sorted(world.hands[k])) for k in (2, 3, 4)))
        assert Counter(c for k in (2, 3, 4) for c in world.hands[k]) + Counter(world.deck) == \
            Counter(c for k in (2, 3, 4) for c in game.hands[k]) + Counter(game.deck)
    assert len(seen_variants) > 1


def test_sample_world_deterministic():
    game = Game(4, seed=5)
    for _ in range(2):
        game.play([game.legal_actions(s)[-1] for s in range(4)])
    a = sample_world(game, 1, seed=99)
    b = sample_world(game, 1, seed=99)
    assert a.hands == b.hands and a.deck == b.deck and a.history() == b.history()
    a2 = sample_world(game, 1, rng=random.Random(99))
    assert a2.hands == a.hands and a2.deck == a.deck
    rnd = random.Random(3)
    while not a.is_over:
        acts = [rnd.choice(a.legal_actions(s)) for s in range(4)]
        a.play(acts)
        b.play(acts)
    assert to_record(a) == to_record(b)


def test_sample_world_depends_only_on_what_the_seat_knows():
    # Two games that the seat cannot tell apart give the same world for the same seed.
    for players in (2, 3, 4, 5):
        for state in _states(players, 7 * players, {}, every=3):
            for seat in range(players):
                other = sample_world(state, seat, seed=1234)  # same knowledge, other hidden cards
                a = sample_world(state, seat, seed=5)
                b = sample_world(other, seat, seed=5)
                assert a.hands == b.hands
                assert a.deck == b.deck
                assert a.history() == b.history()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"pass_both_ways": True}, {"reshuffle": True}])
def test_sample_world_plays_to_a_valid_end(players, options):
    rnd = random.Random(players)
    for state in _states(players, 300 + players, options, every=4):
        world = sample_world(state, rnd.randrange(players), seed=rnd.randrange(10**6))
        while not world.is_over:
            world.play([rnd.choice(world.legal_actions(s)) for s in range(players)])
            assert total_cards(world) == list(DECK_COUNT_LIST)
        # the finished world is a complete, legal game
        again = replay(json.loads(json.dumps(to_record(world))))
        assert again.result() == world.result()


def test_sample_world_with_commits():
    game = Game(3, seed=4)
    game.play([game.legal_actions(s)[0] for s in range(3)])
    mine = game.legal_actions(1)[-1]
    game.commit(0, game.legal_actions(0)[0])
    game.commit(1, mine)
    world = sample_world(game, 1, seed=2)
    # own hidden pick kept, the others' dropped (they pick again in the world)
    assert world.committed_action(1) == mine
    assert world.committed_action(0) is None
    assert world.pending_seats == [0, 2]
    assert game.pending_seats == [2]  # the real game is untouched
    world.commit(0, world.legal_actions(0)[0])
    assert world.commit(2, world.legal_actions(2)[0]) is True
    assert list(card_ids(mine)) == world.collections[1][-len(card_ids(mine)):]


def test_sample_world_between_rounds():
    game = Game(Rules(3), auto_deal=False)
    from sushigo.engine.base.cards import full_deck

    deck = full_deck()
    random.Random(1).shuffle(deck)
    game.deal([deck[0:9], deck[9:18], deck[18:27]])
    while game.phase is Phase.PICK:
        game.play([game.legal_actions(s)[0] for s in range(3)])
    world = sample_world(game, 0, seed=3)
    assert world.phase is Phase.DEAL
    assert Counter(world.deck) == Counter(game.deck)
    assert total_cards(world) == list(DECK_COUNT_LIST)


def test_seat_view_of_a_sampled_world_equals_the_real_view() -> None:
    """Determinization changes only what the seat cannot see: its own view of
    the sampled copy is identical, card order in seen hands included."""
    rng = random.Random(3)
    for i in range(60):
        n = rng.randint(2, 5)
        game = Game(Rules(n, pass_both_ways=rng.random() < 0.5), seed=i)
        while not game.is_over:
            for s in range(n):
                assert seat_view(sample_world(game, s, rng), s) == seat_view(game, s)
            game.play([rng.choice(game.legal_actions(s)) for s in range(n)])


def test_sampled_world_does_not_carry_the_real_seed() -> None:
    """The real seed would rebuild every hidden card of the real game."""
    game = Game(4, seed=123)
    world = sample_world(game, 0, seed=9)
    assert world.seed is None
    assert "seed" not in to_record(world).get("meta", {})
    assert Game(4, seed=5, rng=random.Random(9)).seed is None
