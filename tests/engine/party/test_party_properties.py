"""Property tests over thousands of random Sushi Go Party! games.

Every official menu at every player count it allows, plus random custom
menus with random rule options, is played by a random legal policy (picks by
``play()`` or by ``commit()`` in a random seat order; chopsticks and spoons
used most of the time; takeout boxes flip random cards).  Alongside the engine
runs :class:`party_reference.Shadow`, an independent model written for these
tests (it imports no engine module but the card enum): it keeps its own hands
and collections, predicts every decision (which seat, which special, in number
order) and every seat's legal actions, and recomputes the **uramaki race turn
by turn** (a race score is never read from the engine), every round breakdown
and the dessert points.  The checks:

* card conservation: ``sorted(g.all_cards())`` never changes;
* all hands have the same size (hand size - turn + 1) at every pick, and equal
  the model's hands;
* the dessert schedule (5/3/2 or 7/5/3 added per round), the reshuffle of all
  non-dessert cards and kept desserts leaving the game;
* ``legal_actions`` is never empty for a pending seat, matches the model's,
  and (on a sample of states) every legal action applies without error;
* the breakdowns, totals, dessert points and winners equal the model's;
* the same seed and the same actions give an identical game;
* the game's record, written as JSON and replayed, gives the same history
  and the same result.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from party_reference import PASS, Shadow, box, item_of
from sushigo.engine.editions import replay as replay_record
from sushigo.engine.editions import to_record
from sushigo.engine.menus import OFFICIAL_MENUS, RESTRICTIONS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

SETTINGS = {"deadline": None,
            "suppress_health_check": [HealthCheck.too_slow, HealthCheck.large_base_example]}

HAND = {2: 10, 3: 10, 4: 9, 5: 9, 6: 8, 7: 8, 8: 7}          # docs/rules.md §2.3, typed in
DESSERTS = {n: (5, 3, 2) if n <= 5 else (7, 5, 3) for n in range(2, 9)}

ROLLS = ("maki", "temaki", "uramaki")
APPS = ("tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri", "edamame", "miso_soup")
SPECS = ("chopsticks", "spoon", "menu", "takeout_box", "soy_sauce", "tea", "special_order", "wasabi")
DESS = ("pudding", "green_tea_ice_cream", "fruit")


def allowed(items, players) -> bool:
    return not any(players in RESTRICTIONS.get(i, ()) for i in items)


OFFICIAL_CASES = [(name, n) for name, items in OFFICIAL_MENUS.items()
                  for n in range(2, 9) if allowed(items, n)]


def menu_deck(rules: Rules) -> tuple[Counter, Counter]:
    """(non-dessert cards, dessert cards) of the menu, from the reference's box table."""
    main, dessert = Counter(), Counter()
    for item in rules.menu:
        (dessert if item in DESS else main).update(box(item, rules.uramaki_split))
    return main, dessert


RARE = frozenset(
    [92, 93, 94, 95]                                   # copy a face-down card, copy a nigiri onto wasabi
    + [46 + c for c in range(24, 30)]                  # copy chopsticks 1-3 / spoon 4-6
)
"""Special-order actions a uniform policy would seldom take."""


def choose(rnd: random.Random, legal: list[int], kind: str | None) -> int:
    """A random legal action; specials are used (not passed) most of the time."""
    if kind in ("chopsticks", "spoon"):
        use = [a for a in legal if a != PASS]
        return rnd.choice(use) if use and rnd.random() < 0.8 else PASS
    if kind == "takeout_box":
        flips = [a for a in legal if a != PASS]
        return rnd.choice(flips) if flips and rnd.random() < 0.6 else PASS
    rare = [a for a in legal if a in RARE]
    if rare and rnd.random() < 0.5:
        return rnd.choice(rare)
    return rnd.choice(legal)


def try_all(g: PartyGame, seat: int, legal: list[int]) -> None:
    """Every legal action applies without error (on clones)."""
    for a in legal:
        c = g.clone()
        c.commit(seat, a)
        assert sorted(c.all_cards()) == sorted(g.all_cards())


def check_round_start(g: PartyGame, rules: Rules, kept_physical: list[int]) -> None:
    """Dessert schedule and the reshuffle of every non-dessert card."""
    main, dessert = menu_deck(rules)
    n, r = rules.players, g.round
    added = sum(DESSERTS[n][:r])
    in_play = Counter(g.deck)
    for h in g.hands:
        in_play.update(h)
    assert g.discard == []
    assert all(col == [] for col in g.collections)
    assert len(g.dessert_pile) == sum(dessert.values()) - added
    kept_desserts = sum(1 for c in kept_physical if c in dessert)
    kept_other = Counter(c for c in kept_physical if c not in dessert)   # special orders copying a dessert
    assert sum(in_play[c] for c in dessert) == added - kept_desserts
    assert Counter({c: in_play[c] for c in main}) == main - kept_other
    assert [len(h) for h in g.hands] == [HAND[n]] * n


def engine_cols(g: PartyGame):
    """Every collection as (card, kind, position of the wasabi it sits on, filled)."""
    out = []
    for col in g.collections:
        pos = {p.uid: i for i, p in enumerate(col)}
        out.append([(p.card, p.kind, pos.get(p.on, -1), p.filled) for p in col])
    return out


def model_cols(sh: Shadow):
    out = []
    for col in sh.cols:
        pos = {id(e): i for i, e in enumerate(col)}
        out.append([(e.card, e.kind, -1 if e.on is None else pos.get(id(e.on), -1), e.filled)
                    for e in col])
    return out


def play_game(rules: Rules, seed: int, policy_seed: int, *, sample: float = 0.03):
    """Play one random game checked step by step against the model; returns
    the game and the log of (seat, action) in the order applied."""
    g = PartyGame(rules, seed=seed)
    rnd = random.Random(policy_seed)
    sh = Shadow(rules.players, rules.menu, menu_card_draw=rules.menu_card_draw,
                two_player_pudding_penalty=rules.two_player_pudding_penalty,
                uramaki_split=rules.uramaki_split, wasabi_colour=rules.wasabi_colour)
    n, k = rules.players, HAND[rules.players]
    cards = sorted(g.all_cards())
    log: list[tuple[int, int]] = []
    while not g.is_over:
        assert g.phase is Phase.PICK
        if g.turn == 1:
            check_round_start(g, rules, [c for d in g.dessert_cards for c in d])
            sh.start_round(g.hands, len(g.deck))
        assert [len(h) for h in g.hands] == [k - g.turn + 1] * n
        assert [sorted(h) for h in g.hands] == [sorted(h) for h in sh.hands]
        assert engine_cols(g) == model_cols(sh)
        assert g.pending_seats == list(range(n))
        picks = []
        for s in range(n):
            legal = g.legal_actions(s)
            assert legal and legal == sh.legal(s)
            picks.append(choose(rnd, legal, None))
        if rnd.random() < sample:
            try_all(g, 0, g.legal_actions(0))
        if rnd.random() < 0.5:
            g.play(picks)
        else:
            order = list(range(n))
            rnd.shuffle(order)
            for i, s in enumerate(order):
                assert g.commit(s, picks[s]) is (i == n - 1)
        log.extend(enumerate(picks))
        sh.pick(picks)
        assert sorted(g.all_cards()) == cards
        numbers = []
        while (want := sh.next_decision()) is not None:
            assert g.phase is Phase.RESOLVE
            d = g.decision
            assert (d.kind, d.seat, d.card) == want
            assert engine_cols(g) == model_cols(sh)
            assert [sorted(h) for h in g.hands] == [sorted(h) for h in sh.hands]
            numbers.append((d.kind in ("menu", "takeout_box"), d.card))
            if d.kind == "menu":
                sh.set_drawn(d.drawn)
            legal = g.legal_actions(d.seat)
            assert legal and legal == sh.legal(d.seat)
            assert g.pending_seats == [d.seat]
            assert all(g.legal_actions(o) == [] for o in range(n) if o != d.seat)
            if rnd.random() < sample:
                try_all(g, d.seat, legal)
            a = choose(rnd, legal, d.kind)
            g.commit(d.seat, a)
            log.append((d.seat, a))
            giver = sh.decide(a)
            if d.kind == "spoon" and a != PASS:
                assert g.history()[-1][1][-1][-1].giver == (-1 if giver is None else giver)
            assert sorted(g.all_cards()) == cards
        # chopsticks/spoons first in number order, then menus/takeout boxes
        specials = [c for is_late, c in numbers if not is_late]
        assert specials == sorted(specials)
        assert numbers == sorted(numbers, key=lambda x: x[0])
        assert g.phase is not Phase.RESOLVE
        round_ended = sh.end_turn()
        if round_ended:
            assert g.round_breakdowns == sh.breakdowns
        else:
            assert g.turn == sh.turn
    assert g.round_breakdowns == sh.breakdowns
    res = g.result()
    assert [list(r) for r in res.rounds] == [[sum(line.values()) for line in rnd] for rnd in sh.breakdowns]
    assert [sum(d.values()) for d in res.desserts] == sh.dessert_points()
    assert list(res.pudding) == sh.dessert_points()
    assert list(res.totals) == sh.totals()
    assert list(res.dessert_cards) == [len(kept) for kept in sh.kept]
    assert sorted(c for cs in g.desserts for c in cs) == sorted(c for cs in sh.kept for c in cs)
    assert list(res.winners) == sh.winners()
    assert sorted(g.all_cards()) == cards
    return g, log


def replay(rules: Rules, seed: int, log: list[tuple[int, int]]) -> PartyGame:
    g = PartyGame(rules, seed=seed)
    for seat, action in log:
        g.commit(seat, action)
    return g


def record_round_trip(g: PartyGame) -> None:
    """The record, through JSON text, replays to the same history and result."""
    again = replay_record(json.loads(json.dumps(to_record(g))))
    assert again.history() == g.history()
    assert again.result() == g.result()


def same_game(a: PartyGame, b: PartyGame) -> None:
    assert a.result() == b.result()
    assert a.history() == b.history()
    assert a.round_breakdowns == b.round_breakdowns
    assert a.desserts == b.desserts and a.dessert_cards == b.dessert_cards
    assert a.deck == b.deck and a.discard == b.discard and a.dessert_pile == b.dessert_pile


# ------------------------------------------------------------------ official menus

@pytest.mark.slow
@pytest.mark.parametrize(("menu", "players"), OFFICIAL_CASES,
                         ids=[f"{m.replace(' ', '_')}-{n}p" for m, n in OFFICIAL_CASES])
@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
def test_official_menus_random_games(menu, players, seed, policy):
    rules = Rules.party(players, menu)
    g, log = play_game(rules, seed, policy)
    same_game(g, replay(rules, seed, log))
    record_round_trip(g)


# ------------------------------------------------------------------ custom menus

@st.composite
def custom_rules(draw) -> Rules:
    items = [draw(st.sampled_from(ROLLS)),
             *draw(st.lists(st.sampled_from(APPS), min_size=3, max_size=3, unique=True)),
             *draw(st.lists(st.sampled_from(SPECS), min_size=2, max_size=2, unique=True)),
             draw(st.sampled_from(DESS))]
    players = draw(st.sampled_from([n for n in range(2, 9) if allowed(items, n)]))
    return Rules.party(
        players, items,
        uramaki_split=draw(st.sampled_from(("4-4-4", "3-5-4", "4-5-3"))),
        menu_card_draw=draw(st.integers(1, 8)),
        two_player_pudding_penalty=draw(st.booleans()),
        wasabi_colour=draw(st.sampled_from(("nigiri", "own"))),
    )


@pytest.mark.slow
@settings(max_examples=900, **SETTINGS)
@given(rules=custom_rules(), seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
def test_custom_menus_random_games(rules, seed, policy):
    g, log = play_game(rules, seed, policy)
    same_game(g, replay(rules, seed, log))
    record_round_trip(g)


# specials that interact, all on one table
INTERACTING = [
    ("uramaki", "miso_soup", "tempura", "sashimi", "chopsticks", "special_order", "pudding"),
    ("uramaki", "miso_soup", "onigiri", "tofu", "takeout_box", "special_order", "fruit"),
    ("maki", "miso_soup", "eel", "tofu", "spoon", "chopsticks", "pudding"),
    ("temaki", "miso_soup", "edamame", "dumpling", "menu", "takeout_box", "green_tea_ice_cream"),
    ("uramaki", "miso_soup", "edamame", "tempura", "menu", "spoon", "fruit"),
    ("maki", "tempura", "sashimi", "dumpling", "wasabi", "takeout_box", "pudding"),
    ("maki", "tempura", "sashimi", "dumpling", "wasabi", "special_order", "pudding"),
    ("uramaki", "tempura", "sashimi", "edamame", "tea", "soy_sauce", "fruit"),
]


@pytest.mark.parametrize("items", INTERACTING, ids=[f"{m[4]}+{m[5]}" for m in INTERACTING])
@settings(max_examples=40, **SETTINGS)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
def test_interacting_specials(items, players, seed, policy):
    if not allowed(items, players):
        players = 3 if allowed(items, 3) else 6
    rules = Rules.party(players, items)
    g, _ = play_game(rules, seed, policy, sample=0.1)
    record_round_trip(g)


# ------------------------------------------------------------------ determinism

@settings(max_examples=60, **SETTINGS)
@given(rules=custom_rules(), seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
def test_same_seed_same_actions_same_game(rules, seed, policy):
    a = PartyGame(rules, seed=seed)
    b = PartyGame(rules, seed=seed)
    rnd = random.Random(policy)
    while not a.is_over:
        assert [list(h) for h in a.hands] == [list(h) for h in b.hands]
        assert a.deck == b.deck
        assert a.decision == b.decision
        seats = a.pending_seats
        assert seats == b.pending_seats
        for s in seats:
            legal = a.legal_actions(s)
            assert legal == b.legal_actions(s)
            act = choose(rnd, legal, a.decision.kind if a.decision else None)
            a.commit(s, act)
            b.commit(s, act)
    same_game(a, b)


def test_item_colour_table_matches_names():
    # sanity of the reference's own card table (independent of the engine's ITEM_OF)
    assert item_of(0) == "tempura" and item_of(8) == "nigiri" and item_of(27) == "spoon"
    assert sum(sum(box(i).values()) for i in (*("nigiri",), *ROLLS, *APPS, *SPECS, *DESS)) == 181
