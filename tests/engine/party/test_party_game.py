"""The Sushi Go Party! state machine, rule by rule (docs/rules.md §2, from the Party card guide).

Most tests deal exact hands (``PartyGame(rules, auto_deal=False)`` + ``deal``)
so that every situation can be set up on purpose.  Every expected value is
worked by hand in the comments; none is computed with the engine's scoring.

Dealing a round from *play sequences*: ``hands_for(seqs)`` builds the hands so
that seat ``s`` can pick ``seqs[s][t]`` on turn ``t + 1`` (hands pass left: the
hand seat ``s`` holds on turn ``t + 1`` was dealt to seat ``s - t``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sushigo.engine.errors import DealError, GameOverError, IllegalActionError, InvalidActionError
from sushigo.engine.party.actions import FLIP_BASE, PASS, encode_copy
from sushigo.engine.party.cards import FACE_DOWN
from sushigo.engine.party.cards import PartyCard as C
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

E, SL, SQ = C.EGG, C.SALMON, C.SQUID
M1, M2, M3 = C.MAKI1, C.MAKI2, C.MAKI3
T, SA, D, W, P = C.TEMPURA, C.SASHIMI, C.DUMPLING, C.WASABI, C.PUDDING
CH1, CH2, CH3 = C.CHOPSTICKS1, C.CHOPSTICKS2, C.CHOPSTICKS3
SP4, SP5, SP6 = C.SPOON4, C.SPOON5, C.SPOON6
MN7, TB10 = C.MENU7, C.TAKEOUT_BOX10
MI, SO, TK, ED, EEL, TOFU = C.MISO_SOUP, C.SPECIAL_ORDER, C.TEMAKI, C.EDAMAME, C.EEL, C.TOFU
TEA, SOY, G = C.TEA, C.SOY_SAUCE, C.GREEN_TEA_ICE_CREAM
U3, U4, U5 = C.URAMAKI3, C.URAMAKI4, C.URAMAKI5
FACE = FACE_DOWN

SUSHI_GO = "Sushi Go!"   # maki, tempura, sashimi, dumpling, chopsticks, wasabi, pudding


def copy(card, on_wasabi=False):
    return encode_copy(int(card), on_wasabi=on_wasabi)


def card_of(action) -> int:
    """The physical card an action in a play sequence needs in hand."""
    return int(action) if action < 46 else int(SO)


def hands_for(seqs):
    n, k = len(seqs), len(seqs[0])
    assert all(len(s) == k for s in seqs)
    return [[card_of(seqs[(o + t) % n][t]) for t in range(k)] for o in range(n)]


def new(players, menu, **options) -> PartyGame:
    return PartyGame(Rules.party(players, menu, **options), auto_deal=False)


def dealt(players, menu, seqs, **options) -> PartyGame:
    g = new(players, menu, **options)
    g.deal(hands_for(seqs))
    return g


def pass_specials(g: PartyGame) -> list[tuple[int, int]]:
    """PASS every chopsticks/spoon decision of this turn; returns (seat, card) asked."""
    asked = []
    while g.phase is Phase.RESOLVE:
        d = g.decision
        assert d.kind in ("chopsticks", "spoon"), d
        asked.append((d.seat, d.card))
        g.commit(d.seat, PASS)
    return asked


def play_turns(g: PartyGame, seqs, first: int, last: int) -> list[tuple[int, int, int]]:
    """Play turns ``first..last`` from the sequences, passing on specials.
    Returns the (turn, seat, card) of every chopsticks/spoon decision offered."""
    asked = []
    for t in range(first, last + 1):
        assert g.turn == t
        g.play([seq[t - 1] for seq in seqs])
        asked += [(t, s, c) for s, c in pass_specials(g)]
    return asked


def play_round(g: PartyGame, seqs) -> None:
    g.deal(hands_for(seqs))
    play_turns(g, seqs, 1, len(seqs[0]))


def kinds(g: PartyGame, seat: int) -> list[int]:
    return [p.kind for p in g.collections[seat]]


def cards(g: PartyGame, seat: int) -> list[int]:
    return [p.card for p in g.collections[seat]]


# ===================================================================== dealing

@pytest.mark.parametrize(("players", "hand"), [(2, 10), (3, 10), (4, 9), (5, 9), (6, 8), (7, 8), (8, 7)])
def test_hand_sizes(players, hand):
    rules = Rules.party(players, SUSHI_GO)
    assert rules.hand_size == hand
    g = PartyGame(rules, seed=players)
    assert [len(h) for h in g.hands] == [hand] * players
    # Sushi Go! menu: 12 nigiri + 12 maki + 8 tempura + 8 sashimi + 8 dumpling
    # + 3 chopsticks + 3 wasabi = 54 cards, plus 5 (2-5p) or 7 (6-8p) puddings
    desserts = 5 if players <= 5 else 7
    assert len(g.deck) + players * hand == 54 + desserts
    assert len(g.dessert_pile) == 15 - desserts


def _play_random_round(g: PartyGame, rnd: random.Random) -> None:
    r = g.round
    while g.round == r and not g.is_over:
        for s in g.pending_seats:
            g.commit(s, rnd.choice(g.legal_actions(s)))


@pytest.mark.parametrize("players", range(2, 9))
def test_desserts_added_each_round_and_everything_else_reshuffled(players):
    schedule = (5, 3, 2) if players <= 5 else (7, 5, 3)
    rnd = random.Random(players)
    g = PartyGame(Rules.party(players, SUSHI_GO), seed=100 + players)
    added = 0
    for r in (1, 2, 3):
        assert g.round == r and g.turn == 1
        added += schedule[r - 1]
        in_play = Counter(g.deck)
        for h in g.hands:
            in_play.update(h)
        kept = sum(len(d) for d in g.desserts)
        # desserts: all added so far minus those kept by players in earlier rounds
        assert in_play[P] == added - kept
        assert len(g.dessert_pile) == 15 - added
        # every non-dessert card of the menu is back in the deck or a hand
        assert sum(in_play.values()) - in_play[P] == 54
        assert g.discard == [] and all(c == [] for c in g.collections)
        _play_random_round(g, rnd)
    assert g.is_over
    assert sorted(g.all_cards()) == sorted(PartyGame(Rules.party(players, SUSHI_GO), seed=0).all_cards())


def test_kept_desserts_leave_the_game():
    # 2 players: round 1 adds 5 puddings.  Seat 0 plays 2, seat 1 plays 1.
    s0 = [P, P, T, T, SA, SA, SA, D, D, E]
    s1 = [P, T, T, D, D, D, SL, SL, SQ, SA]
    g = new(2, SUSHI_GO)
    play_round(g, [s0, s1])
    assert g.round == 2 and g.phase is Phase.DEAL
    assert g.desserts == [[P, P], [P]]
    # every non-dessert card is back in the deck for round 2, nothing in the discard
    assert len(g.deck) == 54 and g.discard == []
    assert P not in g.deck
    # round 2 adds 3 puddings to the 2 left in the deck: 5 can be dealt, not 6
    filler = [T] * 8 + [SA] * 8 + [D] * 8 + [E] * 4 + [SL] * 5 + [SQ] * 3 + [M1] * 4
    too_many = [[P] * 6 + filler[:4], filler[4:14]]
    with pytest.raises(DealError, match="pudding"):
        g.deal(too_many)
    g.deal([[P] * 5 + filler[:5], filler[5:15]])
    assert g.phase is Phase.PICK


def test_deal_checks():
    g = new(2, SUSHI_GO)
    with pytest.raises(DealError, match="expected 2 hands"):
        g.deal([[T] * 10])
    with pytest.raises(DealError, match="9 cards, not 10"):
        g.deal([[T] * 5 + [SA] * 4, [SA] * 4 + [D] * 6])
    with pytest.raises(DealError):          # eel is not on this menu
        g.deal([[EEL] + [T] * 8 + [SA], [SA] * 7 + [D] * 3])
    with pytest.raises(DealError):          # only 8 tempura in the box
        g.deal([[T] * 9 + [SA], [SA] * 7 + [D] * 3])
    with pytest.raises(ValueError):
        PartyGame(Rules(3))


def test_every_action_id_is_either_legal_or_refused_with_a_reason():
    """is_legal answers every id in range (a random action from a space, as
    gymnasium's checker samples), including the unused card id 10 and the
    special order copying it; check_legal refuses with the engine's errors."""
    from sushigo.engine.party.actions import PARTY_NUM_ACTIONS, party_action_name
    g = PartyGame(Rules.party(4, SUSHI_GO), seed=3)
    for act in range(PARTY_NUM_ACTIONS):
        legal = g.is_legal(0, act)
        assert legal == (act in g.legal_actions(0))
        if not legal:
            with pytest.raises((IllegalActionError, InvalidActionError)):
                g.check_legal(0, act)
    for unused in (10, 46 + 10):
        with pytest.raises(InvalidActionError, match="not a Party action"):
            party_action_name(unused)


# ===================================================================== wasabi

def test_wasabi_next_nigiri_tripled_oldest_first():
    # Sushi Go! menu, 2 players.
    s0 = [SL, W, W, SQ, E, T, T, SA, SA, D]
    s1 = [M1, E, SL, T, D, D, SA, SA, SA, W]
    g = dealt(2, SUSHI_GO, [s0, s1])
    play_turns(g, [s0, s1], 1, 5)
    sal, w1, w2, squid, egg = g.collections[0]
    assert sal.on == -1                                  # before any wasabi: not tripled
    assert (w1.filled, w2.filled) == (True, True)
    assert squid.on == w1.uid and egg.on == w2.uid       # oldest empty wasabi first
    play_turns(g, [s0, s1], 6, 10)
    # seat 0: salmon 2 + squid on wasabi 9 + egg on wasabi 3 = 14; maki 0 (seat 1 has
    # the only maki); tempura pair 5; 2 sashimi 0; 1 dumpling 1
    # seat 1: egg 1 + salmon 2 = 3 (its wasabi stays empty); maki 6; 1 tempura 0;
    # 3 sashimi 10; 2 dumplings 3
    assert g.round_breakdowns == [[
        {"nigiri": 14, "maki": 0, "tempura": 5, "sashimi": 0, "dumpling": 1},
        {"nigiri": 3, "maki": 6, "tempura": 0, "sashimi": 10, "dumpling": 3},
    ]]
    assert g.result().rounds == ((20, 22),)


# ===================================================================== chopsticks

def test_chopsticks_second_card_after_the_reveal():
    h0 = [CH1, SA, SA, SA, D, D, D, E, E, M1]
    h1 = [T, SQ, SL, W, M2, M2, M2, M3, M3, T]
    g = new(2, SUSHI_GO)
    g.deal([h0, h1])
    g.play([CH1, T])
    # chopsticks played this turn can't be used this turn
    assert g.phase is Phase.PICK and g.turn == 2
    assert sorted(g.hands[0]) == sorted([SQ, SL, W, M2, M2, M2, M3, M3, T])
    g.play([SQ, SA])
    assert g.phase is Phase.RESOLVE
    d = g.decision
    assert (d.kind, d.seat, d.card) == ("chopsticks", 0, CH1)
    # seat 0 decides after seeing seat 1's revealed pick
    assert cards(g, 1) == [T, SA]
    assert g.legal_actions(0) == sorted({SL, W, M2, M3, T}) + [PASS]
    assert g.legal_actions(1) == []
    assert g.pending_seats == [0]
    g.commit(0, SL)
    # the chopsticks left the collection and went into the hand that was passed on
    assert g.phase is Phase.PICK and g.turn == 3
    assert kinds(g, 0) == [SQ, SL]
    assert [p.turn for p in g.collections[0]] == [2, 2]
    assert sorted(g.hands[1]) == sorted([W, M2, M2, M2, M3, M3, T, CH1])
    assert sorted(g.hands[0]) == sorted([SA, SA, D, D, D, E, E, M1])
    assert [len(h) for h in g.hands] == [8, 8]
    assert CH1 not in g.discard


def test_chopsticks_resolve_in_number_order():
    # 3 players: seat 0 has chopsticks 3, seat 2 chopsticks 1.
    h0 = [CH3, D, D, D, D, D, D, D, D, E]
    h1 = [T, T, T, T, T, T, T, T, SL, SL]
    h2 = [CH1, SA, SA, SA, SA, SA, SA, SA, SA, SQ]
    g = new(3, SUSHI_GO)
    g.deal([h0, h1, h2])
    g.play([CH3, T, CH1])
    # turn 2: seat 0 holds h2, seat 1 h0, seat 2 h1
    g.play([SA, D, T])
    assert (g.decision.kind, g.decision.seat, g.decision.card) == ("chopsticks", 2, CH1)
    with pytest.raises(IllegalActionError, match="seat 2"):
        g.commit(0, SQ)
    g.commit(2, SL)
    assert (g.decision.kind, g.decision.seat, g.decision.card) == ("chopsticks", 0, CH3)
    assert cards(g, 2) == [T, SL]          # seat 0 sees seat 2's chopsticks card
    g.commit(0, SQ)
    assert g.turn == 3
    assert kinds(g, 0) == [SA, SQ] and kinds(g, 2) == [T, SL]
    assert sorted(g.hands[1]) == sorted([SA] * 7 + [CH3])       # seat 0's hand went to seat 1
    assert sorted(g.hands[0]) == sorted([T] * 6 + [SL, CH1])    # seat 2's hand went to seat 0
    assert sorted(g.hands[2]) == sorted([D] * 7 + [E])
    assert {len(h) for h in g.hands} == {8}


def _two_chopsticks_game():
    h0 = [CH1, T, T, T, T, D, D, D, D, D]
    h1 = [SA, CH2, SA, SA, SA, E, E, E, E, SL]
    g = new(2, SUSHI_GO)
    g.deal([h0, h1])
    g.play([CH1, SA])
    g.play([CH2, T])
    # chopsticks 1 (from turn 1) may be used; chopsticks 2 was played this turn
    assert (g.decision.seat, g.decision.card) == (0, CH1)
    g.commit(0, PASS)
    assert g.phase is Phase.PICK and g.turn == 3
    g.play([T, SA])
    return g


def test_at_most_one_chopsticks_per_turn():
    g = _two_chopsticks_game()
    assert (g.decision.seat, g.decision.card) == (0, CH1)
    g.commit(0, D)
    # chopsticks 1 was used: chopsticks 2 is not offered this turn
    assert g.phase is Phase.PICK and g.turn == 4
    assert kinds(g, 0) == [CH2, T, D]
    assert sorted(g.hands[1]) == sorted([T, T, D, D, D, D, CH1])
    g.play([SA, T])
    assert (g.decision.seat, g.decision.card) == (0, CH2)   # next turn: the other one
    g.commit(0, PASS)
    assert g.phase is Phase.PICK


def test_passing_the_first_chopsticks_offers_the_next():
    g = _two_chopsticks_game()
    g.commit(0, PASS)
    assert (g.decision.seat, g.decision.card) == (0, CH2)
    g.commit(0, D)
    assert g.turn == 4
    assert kinds(g, 0) == [CH1, T, D]
    assert sorted(g.hands[1]) == sorted([T, T, D, D, D, D, CH2])


def test_no_chopsticks_on_the_last_turn():
    s0 = [CH1, T, T, SA, SA, SA, D, D, E, SL]
    s1 = [M1, M2, T, T, D, D, D, SA, SL, SQ]
    g = dealt(2, SUSHI_GO, [s0, s1])
    asked = play_turns(g, [s0, s1], 1, 10)
    # offered on turns 2..9, never on turn 10 (the hand is empty after the pick)
    assert asked == [(t, 0, CH1) for t in range(2, 10)]
    assert g.round == 2


@pytest.mark.parametrize(("first", "second", "nigiri"), [
    (W, SQ, 9),     # wasabi placed first: the squid goes on it (project ruling)
    (SQ, W, 3),     # squid placed first: not tripled, the wasabi stays empty
])
def test_chopsticks_wasabi_and_nigiri_in_the_chosen_order(first, second, nigiri):
    h0 = [CH1, M2, E, E, SL, T, T, D, D, D]
    h1 = [M1, first, second, T, T, SA, SA, SA, D, D]
    g = new(2, SUSHI_GO)
    g.deal([h0, h1])
    g.play([CH1, M1])
    g.play([first, M2])                     # seat 0 holds h1
    g.commit(0, second)
    assert kinds(g, 0) == [first, second]
    sq = next(p for p in g.collections[0] if p.kind == SQ)
    w = next(p for p in g.collections[0] if p.kind == W)
    assert (sq.on == w.uid) is (nigiri == 9)
    assert w.filled is (nigiri == 9)
    # finish the round: seat 0 never takes another nigiri, seat 1 takes them all
    nigiri_ids = (E, SL, SQ)
    while g.round == 1:
        a = next(c for c in g.hands[0] if c not in nigiri_ids)
        b = next((c for c in g.hands[1] if c in nigiri_ids), g.hands[1][0])
        g.play([a, b])
        pass_specials(g)
    assert g.round_breakdowns[0][0]["nigiri"] == nigiri
    assert g.round_breakdowns[0][1]["nigiri"] == 1 + 1 + 2      # 2 eggs + salmon


# ===================================================================== spoon

SPOON_MENU = "maki, tempura, sashimi, miso soup, spoon, wasabi, pudding"


def test_spoon_left_first_giver_gets_the_spoon_nobody_then_discarded():
    origin = [
        [SP4, T, T, T, T, T, T, T, SA],
        [SP6, SQ, SA, SA, SA, SA, SA, SA, SA],
        [M2, SQ, M2, M2, M2, M1, M1, M1, M1],
        [SP5, SL, E, E, E, T, SL, SL, SL],
    ]
    g = new(4, SPOON_MENU)
    g.deal(origin)
    g.play([SP4, SP6, M2, SP5])
    assert g.phase is Phase.PICK            # spoons played this turn do nothing yet
    # turn 2: seat 0 holds origin 3, seat 1 origin 0, seat 2 origin 1, seat 3 origin 2
    g.play([SL, T, SA, M2])
    # spoons resolve in number order: 4 (seat 0), 5 (seat 3), 6 (seat 1)
    d = g.decision
    assert (d.kind, d.seat, d.card) == ("spoon", 0, SP4)
    assert SQ in g.legal_actions(0) and PASS in g.legal_actions(0)
    # seat 1 (left of seat 0) has no squid, seat 2 and seat 3 both have one: seat 2 gives
    assert g.spoon_giver(0, SQ) == 2
    g.commit(0, SQ)
    assert kinds(g, 0) == [SL, SQ]
    assert sorted(g.hands[2]) == sorted([SA] * 6 + [SP4])
    assert SQ in g.hands[3]
    d = g.decision
    assert (d.kind, d.seat, d.card) == ("spoon", 3, SP5)
    # left of seat 3 is seat 0 (which holds tempura), before seat 1 (which does too)
    g.commit(3, T)
    assert kinds(g, 3) == [M2, T]
    assert sorted(g.hands[0]) == sorted([E, E, E, SL, SL, SL, SP5])
    assert sorted(g.hands[1]) == sorted([T] * 6 + [SA])
    d = g.decision
    assert (d.kind, d.seat, d.card) == ("spoon", 1, SP6)
    g.commit(1, W)                           # nobody holds a wasabi: the spoon is discarded
    assert kinds(g, 1) == [T]
    assert g.discard == [SP6]
    assert g.phase is Phase.PICK and g.turn == 3
    # hands passed left; all the same size
    assert [len(h) for h in g.hands] == [7, 7, 7, 7]
    assert sorted(g.hands[1]) == sorted([E, E, E, SL, SL, SL, SP5])
    assert sorted(g.hands[3]) == sorted([SA] * 6 + [SP4])
    moves = g.history()[0][1][1]
    assert [(m.seat, m.via, m.action, m.giver) for m in moves[4:]] == [
        (0, SP4, SQ, 2), (3, SP5, T, 0), (1, SP6, W, -1)]


# ===================================================================== menu

MENU_MENU = "maki, tempura, sashimi, dumpling, menu, wasabi, pudding"


def test_menu_draws_four_plays_one_returns_the_rest():
    s0 = [MN7, T, T, SA, SA, SA, D, D, E, SL]
    s1 = [M1, M2, T, T, D, D, D, SA, SL, SL]
    g = dealt(2, MENU_MENU, [s0, s1])
    # deck: 12 nigiri + 12 maki + 8 + 8 + 8 + 3 menus + 3 wasabi = 54, 20 dealt
    assert len(g.deck) == 34
    g.play([MN7, M1])
    assert g.phase is Phase.DRAW and g.pending_seats == []
    assert (g.decision.kind, g.decision.seat, g.decision.drawn) == ("menu", 0, ())   # nothing drawn yet
    with pytest.raises(IllegalActionError, match="waiting for cards"):
        g.commit(0, T)
    with pytest.raises(DealError, match="draws 4 cards, not 3"):
        g.draw([SQ, T, D])
    g.draw([SQ, T, D, W])
    d = g.decision
    assert (d.kind, d.seat, d.card, d.drawn) == ("menu", 0, MN7, (SQ, T, D, W))
    assert g.legal_actions(0) == [T, D, SQ, W]
    with pytest.raises(IllegalActionError):
        g.commit(0, SA)                     # not among the drawn cards
    g.commit(0, SQ)
    assert kinds(g, 0) == [SQ]              # the menu card itself is gone
    assert g.discard == [MN7]
    assert len(g.deck) == 33                # 34 - 4 drawn + 3 returned
    assert Counter(g.deck)[W] == 3 and Counter(g.deck)[SQ] == 2     # none dealt, one played
    assert g.turn == 2 and [len(h) for h in g.hands] == [9, 9]


def test_menu_card_draw_option():
    s0 = [MN7, T, T, SA, SA, SA, D, D, E, SL]
    s1 = [M1, M2, T, T, D, D, D, SA, SL, SL]
    g = dealt(2, MENU_MENU, [s0, s1], menu_card_draw=2)
    g.play([MN7, M1])
    with pytest.raises(DealError, match="draws 2 cards, not 4"):
        g.draw([SQ, T, D, W])
    g.draw([SQ, W])
    assert g.decision.drawn == (SQ, W)
    g.commit(0, W)
    assert kinds(g, 0) == [W]


@pytest.mark.parametrize("draw", [1, 4, 6])
def test_menu_draw_with_auto_deal(draw):
    rules = Rules.party(3, MENU_MENU, menu_card_draw=draw)
    menus = (30, 31, 32)
    seed = next(s for s in range(500) if any(c in menus for c in PartyGame(rules, seed=s).hands[0]))
    g = PartyGame(rules, seed=seed)
    picks = [next(c for c in g.hands[0] if c in menus)]
    picks += [next(c for c in g.hands[s] if c not in menus) for s in (1, 2)]
    before = len(g.deck)
    g.play(picks)
    d = g.decision
    assert (d.kind, d.seat, d.card) == ("menu", 0, picks[0])
    assert len(d.drawn) == draw
    assert len(g.deck) == before - draw
    g.commit(0, g.legal_actions(0)[0])
    assert len(g.deck) == before - 1
    assert g.discard == [picks[0]]


# ===================================================================== takeout box

TAKEOUT_MENU = "maki, tempura, sashimi, dumpling, takeout box, wasabi, pudding"


def test_takeout_box_flips_earlier_cards_and_un_triples_wasabi():
    s0 = [W, SQ, T, TB10, SA, SA, SA, M1, M1, D]
    s1 = [M3, M3, E, E, T, D, D, D, SL, SL]
    g = dealt(2, TAKEOUT_MENU, [s0, s1])
    play_turns(g, [s0, s1], 1, 3)
    assert g.collections[0][1].on == g.collections[0][0].uid     # squid on wasabi
    g.play([TB10, E])
    d = g.decision
    assert (d.kind, d.seat, d.card) == ("takeout_box", 0, TB10)
    assert g.discard == [TB10]               # the takeout box is discarded
    assert g.legal_actions(0) == [PASS, FLIP_BASE + 0, FLIP_BASE + 1, FLIP_BASE + 2]
    g.commit(0, FLIP_BASE + 0)               # flip the wasabi
    assert g.legal_actions(0) == [PASS, FLIP_BASE + 1, FLIP_BASE + 2]
    g.commit(0, PASS)
    assert g.turn == 5
    assert [(p.card, p.kind) for p in g.collections[0]] == [(W, FACE), (SQ, SQ), (T, T)]
    play_turns(g, [s0, s1], 5, 10)
    # seat 0: squid 3 (its wasabi is face down: not tripled); maki 2 icons -> 2nd 3;
    # 1 tempura 0; 3 sashimi 10; 1 dumpling 1; one face-down card 2
    # seat 1: 2 eggs + 2 salmon = 6; maki 6 icons 6; 1 tempura 0; 3 dumplings 6
    assert g.round_breakdowns == [[
        {"nigiri": 3, "maki": 3, "tempura": 0, "sashimi": 10, "dumpling": 1, "takeout_box": 2},
        {"nigiri": 6, "maki": 6, "tempura": 0, "sashimi": 0, "dumpling": 6, "takeout_box": 0},
    ]]


CH_TAKEOUT_MENU = "maki, tempura, sashimi, dumpling, chopsticks, takeout box, pudding"


def test_flipped_chopsticks_cannot_be_used():
    s0 = [CH1, TB10, T, T, SA, SA, SA, D, D, E]
    s1 = [M1, M2, T, T, D, D, D, SA, SL, SL]
    g = dealt(2, CH_TAKEOUT_MENU, [s0, s1])
    g.play([CH1, M1])
    g.play([TB10, M2])
    # chopsticks (1) resolve before the takeout box (10)
    assert (g.decision.kind, g.decision.card) == ("chopsticks", CH1)
    g.commit(0, PASS)
    assert (g.decision.kind, g.decision.card) == ("takeout_box", TB10)
    assert g.legal_actions(0) == [PASS, FLIP_BASE + 0]
    g.commit(0, FLIP_BASE + 0)
    # nothing else to flip: the turn ends by itself
    assert g.phase is Phase.PICK and g.turn == 3
    assert [(p.card, p.kind) for p in g.collections[0]] == [(CH1, FACE)]
    g.play([T, T])
    assert g.phase is Phase.PICK and g.turn == 4     # no chopsticks decision


def test_takeout_box_cannot_flip_this_turns_cards():
    h0 = [CH1, SA, T, TB10, D, D, D, D, M1, M1]
    h1 = [SA, E, SA, M2, M2, M2, M3, M3, M3, SL]
    g = new(2, CH_TAKEOUT_MENU)
    g.deal([h0, h1])
    g.play([CH1, SA])
    g.play([E, SA])
    g.commit(0, PASS)
    g.play([T, SA])                        # seat 0 holds h0 again
    assert g.decision.card == CH1
    g.commit(0, TB10)                      # chopsticks: the takeout box, this turn
    assert (g.decision.kind, g.decision.seat) == ("takeout_box", 0)
    assert kinds(g, 0) == [E, T]           # the takeout box left the collection
    assert g.legal_actions(0) == [PASS, FLIP_BASE + 0]      # the tempura is this turn's
    with pytest.raises(IllegalActionError, match="flip:1"):
        g.commit(0, FLIP_BASE + 1)
    g.commit(0, FLIP_BASE + 0)
    assert g.turn == 4 and kinds(g, 0) == [FACE, T]
    assert CH1 in g.hands[1]


# ===================================================================== special order

SO_MENU = "maki, tempura, sashimi, dumpling, special order, wasabi, pudding"


def test_copy_of_a_nigiri_on_wasabi_is_not_tripled():
    s0 = [W, SQ, copy(SQ), T, T, SA, SA, SA, D, D]
    s1 = [M1, M2, E, SL, SL, T, D, D, D, SA]
    g = dealt(2, SO_MENU, [s0, s1])
    play_turns(g, [s0, s1], 1, 2)
    legal = g.legal_actions(0)
    assert copy(SQ) in legal and copy(W) in legal
    assert copy(SQ, on_wasabi=True) not in legal       # no empty wasabi
    assert int(SO) not in legal                         # bare special order: only with nothing to copy
    play_turns(g, [s0, s1], 3, 10)
    # seat 0: squid on wasabi 9 + copied squid 3 = 12; maki 0; tempura 5; sashimi 10; 2 dumplings 3
    # seat 1: egg 1 + 2 salmon 4 = 5; 3 maki icons 6; 1 tempura 0; 1 sashimi 0; 3 dumplings 6
    assert g.round_breakdowns == [[
        {"nigiri": 12, "maki": 0, "tempura": 5, "sashimi": 10, "dumpling": 3},
        {"nigiri": 5, "maki": 6, "tempura": 0, "sashimi": 0, "dumpling": 6},
    ]]


@pytest.mark.parametrize(("third", "nigiri"), [
    (copy(SL, on_wasabi=True), 2 + 6 + 3),   # copy on the wasabi (6); the squid is plain (3)
    (copy(SL), 2 + 2 + 9),                   # plain copy (2); the wasabi waits for the squid (9)
])
def test_copy_of_a_plain_nigiri_may_go_on_an_empty_wasabi(third, nigiri):
    s0 = [SL, W, third, SQ, T, T, SA, SA, SA, D]
    s1 = [M1, M2, E, E, T, D, D, D, SA, M3]
    g = dealt(2, SO_MENU, [s0, s1])
    play_turns(g, [s0, s1], 1, 2)
    assert {copy(SL), copy(SL, on_wasabi=True), copy(W)} <= set(g.legal_actions(0))
    play_turns(g, [s0, s1], 3, 4)
    so = g.collections[0][2]
    assert (so.card, so.kind) == (SO, SL)
    assert (so.on == g.collections[0][1].uid) is (third == copy(SL, on_wasabi=True))
    play_turns(g, [s0, s1], 5, 10)
    assert g.round_breakdowns[0][0]["nigiri"] == nigiri
    # seat 1: 2 eggs 2; maki 6 icons 6
    assert g.round_breakdowns[0][1]["nigiri"] == 2
    assert g.round_breakdowns[0][1]["maki"] == 6


def test_copy_of_a_wasabi_is_a_new_empty_wasabi():
    s0 = [W, E, copy(W), SQ, T, T, SA, SA, SA, D]
    s1 = [M1, M2, SL, SL, T, D, D, D, SA, M3]
    g = dealt(2, SO_MENU, [s0, s1])
    play_turns(g, [s0, s1], 1, 10)
    w, egg, w2, squid = g.round_collections(1)[0][:4]
    assert (w2.card, w2.kind, w2.filled) == (SO, W, True)
    assert egg.on == w.uid and squid.on == w2.uid
    # egg on wasabi 3 + squid on the copied wasabi 9
    assert g.round_breakdowns[0][0]["nigiri"] == 12


def test_copy_of_a_dessert_is_kept_as_that_dessert():
    s0 = [P, copy(P), T, T, SA, SA, SA, D, D, E]
    s1 = [M1, M2, T, T, D, D, D, SA, SL, SL]
    g = dealt(2, SO_MENU, [s0, s1])
    play_turns(g, [s0, s1], 1, 10)
    assert g.desserts == [[P, P], []]
    assert g.dessert_cards == [[P, SO], []]
    assert g.result().dessert_cards == (2, 0)
    # the special order stays with the desserts: only 2 of the 3 go back into the deck
    assert Counter(g.deck)[SO] == 2 and SO not in g.discard


CH_SO_MENU = "maki, tempura, sashimi, dumpling, chopsticks, special order, pudding"


def test_copy_of_chopsticks_is_chopsticks_with_the_same_number():
    h0 = [CH2, T, SA, SA, D, D, D, D, E, E]
    h1 = [M1, SO, T, M2, M2, M2, M3, M3, SL, SL]
    g = new(2, CH_SO_MENU)
    g.deal([h0, h1])
    g.play([CH2, M1])
    g.play([copy(CH2), T])
    # the original chopsticks 2 (from turn 1) is usable now; the copy is not yet
    assert (g.decision.kind, g.decision.card) == ("chopsticks", CH2)
    g.commit(0, T)
    assert [(p.card, p.kind) for p in g.collections[0]] == [(SO, CH2), (T, T)]
    assert CH2 in g.hands[1]
    g.play([SA, M2])
    # the copy acts as chopsticks 2
    assert (g.decision.kind, g.decision.seat, g.decision.card) == ("chopsticks", 0, CH2)
    g.commit(0, D)
    assert kinds(g, 0) == [T, SA, D]
    # the special order went into the hand passed to seat 1
    assert sorted(g.hands[1]) == sorted([SA, D, D, D, E, E, SO])
    assert [len(h) for h in g.hands] == [7, 7]


SO_TAKEOUT_MENU = "maki, tempura, sashimi, dumpling, takeout box, special order, pudding"


def test_copy_of_a_flipped_card_is_face_down():
    s0 = [T, TB10, encode_copy(FACE), SA, SA, SA, D, D, M1, E]
    s1 = [M3, M2, T, T, D, D, D, SL, SL, SA]
    g = dealt(2, SO_TAKEOUT_MENU, [s0, s1])
    g.play([T, M3])
    g.play([TB10, M2])
    g.commit(0, FLIP_BASE + 0)               # flip the tempura; nothing else: turn ends
    assert g.turn == 3
    assert encode_copy(FACE) in g.legal_actions(0)
    g.play([encode_copy(FACE), T])
    assert [(p.card, p.kind) for p in g.collections[0]] == [(T, FACE), (SO, FACE)]
    play_turns(g, [s0, s1], 4, 10)
    # seat 0: egg 1; maki 1 icon -> 2nd 3; tempura face down 0; sashimi 10; 2 dumplings 3;
    # two face-down cards 4.  seat 1: 2 salmon 4; maki 5 icons 6; tempura pair 5;
    # 1 sashimi 0; 3 dumplings 6
    assert g.round_breakdowns == [[
        {"nigiri": 1, "maki": 3, "tempura": 0, "sashimi": 10, "dumpling": 3, "takeout_box": 4},
        {"nigiri": 4, "maki": 6, "tempura": 5, "sashimi": 0, "dumpling": 6, "takeout_box": 0},
    ]]


def test_special_order_with_nothing_to_copy():
    s0 = [SO, copy(SO), T, SA, SA, SA, D, D, E, M1]
    s1 = [M1, M2, T, T, D, D, D, SA, SL, SL]
    g = dealt(2, SO_MENU, [s0, s1])
    legal = g.legal_actions(0)
    assert int(SO) in legal
    assert not [a for a in legal if 46 <= a < 96]          # no copy actions
    with pytest.raises(IllegalActionError, match="nothing to copy"):
        g.commit(0, copy(T))
    g.play([SO, M1])
    assert [(p.card, p.kind) for p in g.collections[0]] == [(SO, SO)]
    # now the collection holds something: the bare special order is no longer legal
    legal = g.legal_actions(0)
    assert int(SO) not in legal and copy(SO) in legal
    with pytest.raises(IllegalActionError):
        g.commit(0, SO)


# ===================================================================== miso soup

MISO_MENU = "maki, tempura, sashimi, miso soup, chopsticks, special order, pudding"


def test_miso_soups_played_together_are_discarded():
    h0 = [MI, MI, CH1, T, T, M2, SA, E, SA, SQ]
    h1 = [T, SO, MI, MI, MI, M1, T, M3, SA, SL]
    g = new(2, MISO_MENU)
    g.deal([h0, h1])
    g.play([MI, T])                         # a single miso: it stays
    assert kinds(g, 0) == [MI]
    g.play([copy(MI), MI])                  # a copied miso and a miso the same turn
    assert kinds(g, 0) == [MI] and kinds(g, 1) == [T]
    assert sorted(g.discard) == sorted([SO, MI])
    g.play([CH1, MI])
    assert kinds(g, 1) == [T, MI]
    g.play([MI, T])
    assert (g.decision.kind, g.decision.seat) == ("chopsticks", 0)
    g.commit(0, MI)                         # a second miso by chopsticks: both go
    assert kinds(g, 0) == [MI]
    assert Counter(g.discard) == Counter({MI: 3, SO: 1})
    # seat 1 now holds h1's rest with the chopsticks: M1, T, M3, SA, SL, CH1
    assert sorted(g.hands[1]) == sorted([M1, T, M3, SA, SL, CH1])
    for picks in ([T, M1], [T, M2], [SA, M3], [SA, E], [SA, SL], [CH1, SQ]):
        g.play(picks)
        pass_specials(g)
    # seat 0: miso 3 (one survived), tempura pair 5, 3 sashimi 10, no maki
    # seat 1: miso 3, tempura pair 5, maki 1+2+3 = 6 icons 6, egg+salmon+squid 6
    assert g.round_breakdowns == [[
        {"nigiri": 0, "maki": 0, "tempura": 5, "sashimi": 10, "miso_soup": 3},
        {"nigiri": 6, "maki": 6, "tempura": 5, "sashimi": 0, "miso_soup": 3},
    ]]


def test_miso_from_a_menu_counts_as_played_that_turn():
    menu = "maki, tempura, sashimi, miso soup, menu, wasabi, pudding"
    s0 = [MN7, T, T, SA, SA, SA, M1, E, E, SL]
    s1 = [MI, T, T, SA, SA, SA, M2, E, E, SL]
    g = dealt(2, menu, [s0, s1])
    g.play([MN7, MI])
    g.draw([MI, T, SA, SQ])
    g.commit(0, MI)
    assert kinds(g, 0) == [] and kinds(g, 1) == []
    assert Counter(g.discard) == Counter({MN7: 1, MI: 2})


# ===================================================================== uramaki

URAMAKI_MENU = "uramaki, tempura, sashimi, dumpling, chopsticks, wasabi, pudding"


def test_uramaki_race_first_then_two_the_same_turn():
    s0 = [U5, U5, T, U4, U3, T, SA, SA, SA, D]
    s1 = [U4, U4, U5, T, T, T, D, D, E, SL]
    s2 = [U3, U3, U5, D, D, D, SA, SA, SA, SQ]
    seqs = [s0, s1, s2]
    g = dealt(3, URAMAKI_MENU, seqs)
    play_turns(g, seqs, 1, 1)
    assert g.uramaki_points == [0, 0, 0]
    play_turns(g, seqs, 2, 2)
    # icons 10, 8, 6: seat 0 scores 8 at once and discards its uramaki
    assert g.uramaki_points == [8, 0, 0] and g.uramaki_claimed == 1
    assert kinds(g, 0) == [] and sorted(g.discard) == [U5, U5]
    play_turns(g, seqs, 3, 3)
    # seat 1 reaches 13, seat 2 11 the same turn: more icons ranks higher (5, then 2)
    assert g.uramaki_points == [8, 5, 2] and g.uramaki_claimed == 3
    play_turns(g, seqs, 4, 10)
    # seat 0 ends with 7 icons but every place is taken: 0 more
    # seat 0: uramaki 8; tempura pair 5; 3 sashimi 10; 1 dumpling 1
    # seat 1: egg 1 + salmon 2; uramaki 5; 3 tempura 5; 2 dumplings 3
    # seat 2: squid 3; uramaki 2; 3 sashimi 10; 3 dumplings 6
    assert g.round_breakdowns == [[
        {"nigiri": 0, "uramaki": 8, "tempura": 5, "sashimi": 10, "dumpling": 1},
        {"nigiri": 3, "uramaki": 5, "tempura": 5, "sashimi": 0, "dumpling": 3},
        {"nigiri": 3, "uramaki": 2, "tempura": 0, "sashimi": 10, "dumpling": 6},
    ]]


def test_uramaki_tie_scores_full_and_skips_the_next_place():
    s0 = [U5, U5, U4, T, T, SA, SA, SA, D, D]
    s1 = [U5, U5, T, T, T, D, D, D, E, E]
    s2 = [U4, U3, U3, SA, SA, SA, D, D, SL, SL]
    seqs = [s0, s1, s2]
    g = dealt(3, URAMAKI_MENU, seqs)
    play_turns(g, seqs, 1, 2)
    # 10, 10, 7: both 8, second place (5) skipped
    assert g.uramaki_points == [8, 8, 0] and g.uramaki_claimed == 2
    play_turns(g, seqs, 3, 3)
    # seat 2 reaches 10: third place, 2
    assert g.uramaki_points == [8, 8, 2] and g.uramaki_claimed == 3
    play_turns(g, seqs, 4, 10)
    # seat 0 keeps 4 icons: nothing left to claim
    # seat 0: tempura 5, sashimi 10, 2 dumplings 3; seat 1: 2 eggs 2, 3 tempura 5,
    # 3 dumplings 6; seat 2: 2 salmon 4, sashimi 10, 2 dumplings 3
    assert g.round_breakdowns == [[
        {"nigiri": 0, "uramaki": 8, "tempura": 5, "sashimi": 10, "dumpling": 3},
        {"nigiri": 2, "uramaki": 8, "tempura": 5, "sashimi": 0, "dumpling": 6},
        {"nigiri": 4, "uramaki": 2, "tempura": 0, "sashimi": 10, "dumpling": 3},
    ]]


def test_uramaki_round_end_scores_the_next_unclaimed_place():
    s0 = [U5, U5, T, T, SA, SA, SA, D, D, E]
    s1 = [U4, U3, T, T, D, D, D, SL, SL, SQ]
    s2 = [U4, SA, SA, SA, D, D, T, T, E, E]
    seqs = [s0, s1, s2]
    g = dealt(3, URAMAKI_MENU, seqs)
    play_turns(g, seqs, 1, 10)
    # race: seat 0 first (8).  Round end: seat 1 has the most left (7 > 4): next place, 5
    # seat 0: egg 1, tempura 5, sashimi 10, 2 dumplings 3
    # seat 1: 2 salmon + squid 7, tempura 5, 3 dumplings 6
    # seat 2: 2 eggs 2, sashimi 10, 2 dumplings 3, tempura 5
    assert g.round_breakdowns == [[
        {"nigiri": 1, "uramaki": 8, "tempura": 5, "sashimi": 10, "dumpling": 3},
        {"nigiri": 7, "uramaki": 5, "tempura": 5, "sashimi": 0, "dumpling": 6},
        {"nigiri": 2, "uramaki": 0, "tempura": 5, "sashimi": 10, "dumpling": 3},
    ]]
    assert g.result().rounds == ((27, 23, 20),)


def test_uramaki_round_end_tie_without_a_race():
    s0 = [U4, U3, T, T, SA, SA, SA, D, E, E]
    s1 = [U4, U3, T, T, D, D, D, SL, SL, SQ]
    s2 = [U5, SA, SA, SA, D, D, T, T, SQ, SQ]
    seqs = [s0, s1, s2]
    g = dealt(3, URAMAKI_MENU, seqs)
    play_turns(g, seqs, 1, 10)
    # nobody reached 10: seats 0 and 1 tie for most (7): both get first place, 8
    assert [line["uramaki"] for line in g.round_breakdowns[0]] == [8, 8, 0]
    assert g.round_breakdowns[0][0] == {"nigiri": 2, "uramaki": 8, "tempura": 5, "sashimi": 10, "dumpling": 1}


def test_copied_uramaki_counts_in_the_race_and_is_discarded_with_it():
    s0 = [U5, copy(U5), C.TOFU, C.TOFU, C.ONIGIRI_CIRCLE, C.ONIGIRI_SQUARE, E, E, SL, SL]
    s1 = [U3, U3, C.TOFU, C.ONIGIRI_TRIANGLE, C.ONIGIRI_TRIANGLE, SQ, SQ, SQ, E, SL]
    g = dealt(2, "Dinner for Two", [s0, s1])
    play_turns(g, [s0, s1], 1, 2)
    assert g.uramaki_points == [8, 0]
    assert kinds(g, 0) == [] and sorted(g.discard) == sorted([U5, SO])
    play_turns(g, [s0, s1], 3, 10)
    # round end: seat 1 has 6 icons left: second place 5
    assert [line["uramaki"] for line in g.round_breakdowns[0]] == [8, 5]


# ===================================================================== other cards

def test_temaki_edamame_eel_tofu_tea_soy_sauce():
    menu = "temaki, edamame, eel, tofu, tea, soy sauce, pudding"
    s0 = [ED, ED, TK, TK, TK, TEA, EEL, EEL, E, SL]
    s1 = [ED, TK, TOFU, TOFU, SOY, EEL, SQ, SQ, SL, SL]
    s2 = [TOFU, TOFU, TOFU, EEL, SOY, SOY, TEA, E, E, SL]
    seqs = [s0, s1, s2]
    g = dealt(3, menu, seqs)
    play_turns(g, seqs, 1, 10)
    # nigiri: 1+2 = 3 | 3+3+2+2 = 10 | 1+1+2 = 4
    # temaki 3, 1, 0: most +4, fewest -4
    # edamame: seats 0 and 1 have some: each card 1 point per other seat with edamame
    #   (2 x 1 = 2, 1 x 1 = 1)
    # eel: 2 -> 7, 1 -> -3, 1 -> -3;  tofu: 0 -> 0, 2 -> 6, 3 -> 0
    # tea: seat 0's largest colour group is temaki (3): 3; seat 2's is tofu or nigiri (3): 3
    # soy: colours 5 (edamame, temaki, tea, eel, nigiri), 6 (+tofu, soy; no tea), 5:
    #   only seat 1 has the most: 4 for its one soy sauce; seat 2's two score nothing
    assert g.round_breakdowns == [[
        {"nigiri": 3, "temaki": 4, "eel": 7, "tofu": 0, "edamame": 2, "tea": 3, "soy_sauce": 0},
        {"nigiri": 10, "temaki": 0, "eel": -3, "tofu": 6, "edamame": 1, "tea": 0, "soy_sauce": 4},
        {"nigiri": 4, "temaki": -4, "eel": -3, "tofu": 0, "edamame": 0, "tea": 3, "soy_sauce": 0},
    ]]


def test_temaki_two_players_no_penalty():
    menu = "temaki, eel, tofu, tempura, tea, wasabi, pudding"
    s0 = [TK, TK, TK, T, T, E, E, SL, SL, SQ]
    s1 = [EEL, EEL, TOFU, T, T, E, E, SL, SL, SQ]
    g = dealt(2, menu, [s0, s1])
    play_turns(g, [s0, s1], 1, 10)
    assert [line["temaki"] for line in g.round_breakdowns[0]] == [4, 0]


def test_six_players_maki_places_and_edamame_cap():
    menu = "maki, edamame, tempura, sashimi, wasabi, tea, pudding"
    seqs = [
        [ED, ED, M3, T, T, SA, SA, E],
        [ED, M3, T, T, SA, SA, E, E],
        [ED, M2, T, T, SA, SA, E, SL],
        [ED, M1, T, T, SA, SA, SL, SL],
        [ED, M1, SL, SL, SQ, SQ, SQ, P],
        [ED, P, P, P, P, P, P, W],
    ]
    g = dealt(6, menu, seqs)
    play_turns(g, seqs, 1, 8)
    lines = g.round_breakdowns[0]
    # maki icons 3, 3, 2, 1, 1, 0 at 6 players: 6 / 4 / 2, ties get full points
    assert [line["maki"] for line in lines] == [6, 6, 4, 2, 2, 0]
    # everyone has edamame: 5 opponents each, capped at 4 per card
    assert [line["edamame"] for line in lines] == [8, 4, 4, 4, 4, 4]
    assert g.desserts[5] == [P] * 6 and g.desserts[4] == [P]


def test_maki_two_to_five_players_ties_full_points():
    # 4 players: icons 3, 3, 2, 0 -> 6, 6, 3, 0 (a tie for first doesn't cancel second)
    menu = SUSHI_GO
    seqs = [
        [M3, T, T, SA, SA, SA, D, E, E],
        [M3, T, T, SA, SA, SA, D, SL, SL],
        [M2, T, T, SA, SA, D, D, SL, SL],
        [T, T, D, D, D, E, E, SQ, SQ],
    ]
    g = dealt(4, menu, seqs)
    play_turns(g, seqs, 1, 9)
    assert [line["maki"] for line in g.round_breakdowns[0]] == [6, 6, 3, 0]


# ===================================================================== desserts, end of game

# Three players, Sushi Go! menu.  A plain round worth 21, 21, 19:
# seat 0: egg+salmon 3, maki 1 icon (3rd: 0), tempura 5, sashimi 10, 2 dumplings 3
# seat 1: 2 salmon + squid 7, maki 2 icons (2nd: 3), tempura 5, 1 sashimi 0, 3 dumplings 6
# seat 2: 2 squid + 2 eggs 8, maki 3 icons (1st: 6), 3 tempura 5, 2 sashimi 0
PLAIN3 = [
    [T, T, SA, SA, SA, D, D, M1, E, SL],
    [T, T, D, D, D, M2, SL, SL, SQ, SA],
    [T, T, T, SA, SA, M3, SQ, SQ, E, E],
]


def test_pudding_at_game_end():
    # round 1 (puddings 3, 1, 0): seat 0: tempura 5, sashimi 10, 2 dumplings 3 = 18;
    # seat 1: 2 salmon + squid 7, tempura 5, 3 dumplings 6 = 18;
    # seat 2: squids + eggs 8, maki 6, 3 tempura 5 = 19
    round1 = [
        [P, P, P, T, T, SA, SA, SA, D, D],
        [P, T, T, D, D, D, SL, SL, SQ, SA],
        [T, T, T, SA, SA, M3, SQ, SQ, E, E],
    ]
    g = new(3, SUSHI_GO)
    play_round(g, round1)
    assert g.result().rounds == ((18, 18, 19),)
    play_round(g, PLAIN3)
    play_round(g, PLAIN3)
    assert g.is_over
    res = g.result()
    assert res.rounds == ((18, 18, 19), (21, 21, 19), (21, 21, 19))
    # puddings 3, 1, 0: most +6, fewest -6
    assert res.desserts == ({"pudding": 6}, {"pudding": 0}, {"pudding": -6})
    assert res.totals == (66, 60, 51)
    assert res.winners == (0,)
    assert res.dessert_cards == (3, 1, 0)


@pytest.mark.parametrize(("penalty", "expected"), [(False, (6, 0)), (True, (6, -6))])
def test_pudding_two_players(penalty, expected):
    s0 = [P, P, T, T, SA, SA, SA, D, E, SL]
    s1 = [M1, T, T, SA, SA, SA, D, E, SL, SQ]
    plain = [[T, T, SA, SA, SA, D, E, SL, M2, M1], [T, T, SA, SA, SA, D, E, SL, M2, M1]]
    g = new(2, SUSHI_GO, two_player_pudding_penalty=penalty)
    play_round(g, [s0, s1])
    play_round(g, plain)
    play_round(g, plain)
    assert tuple(d["pudding"] for d in g.result().desserts) == expected


def test_green_tea_ice_cream_and_fruit_at_game_end():
    plain = [[T, T, SA, SA, SA, D, E, SL, M2, M1], [T, T, SA, SA, SA, D, E, SL, M2, M1]]
    menu = "maki, tempura, sashimi, dumpling, chopsticks, wasabi, green tea ice cream"
    g = new(2, menu)
    play_round(g, [[G, G, G, G, T, SA, SA, SA, D, E], [G, T, T, SA, SA, D, D, SL, SL, SQ]])
    play_round(g, [[G, T, T, SA, SA, SA, D, E, SL, M2], [G, G, T, SA, SA, D, D, SL, SL, SQ]])
    play_round(g, plain)
    # 5 -> one set of 4: 12; 3 -> 0
    assert g.result().desserts == ({"green_tea_ice_cream": 12}, {"green_tea_ice_cream": 0})

    W2, WP, WO, P2 = (C.FRUIT_WATERMELON2, C.FRUIT_WATERMELON_PINEAPPLE,
                      C.FRUIT_WATERMELON_ORANGE, C.FRUIT_PINEAPPLE2)
    g = new(2, "maki, tempura, sashimi, dumpling, chopsticks, wasabi, fruit")
    play_round(g, [[W2, WP, WO, T, SA, SA, SA, D, E, SL], [P2, P2, T, T, SA, SA, D, D, SL, SQ]])
    play_round(g, plain)
    play_round(g, plain)
    # seat 0: watermelon 2+1+1 = 4 -> 6, pineapple 1 -> 0, orange 1 -> 0: 6
    # seat 1: pineapple 4 -> 6, watermelon 0 -> -2, orange 0 -> -2: 2
    assert g.result().desserts == ({"fruit": 6}, {"fruit": 2})


@pytest.mark.parametrize(("ice", "winners"), [((3, 0), (0,)), ((2, 2), (0, 1)), ((1, 2), (1,))])
def test_final_tie_broken_by_dessert_cards(ice, winners):
    # Round 1: each seat plays its ice creams (fewer than 4: worth 0) and fills the
    # rest of those 3 slots with empty wasabi (0); otherwise the same cards:
    # maki 2 icons each (tie: both 6), tempura 5, sashimi 10, 1 dumpling 1 = 22 each.
    # Rounds 2 and 3 identical for both seats: 25 each.  Totals 72 each.
    menu = "maki, tempura, sashimi, dumpling, chopsticks, wasabi, green tea ice cream"
    a, b = ice
    s0 = [G] * a + [W] * (3 - a) + [T, T, SA, SA, SA, D, M2]
    s1 = [G] * b + [W] * (3 - b) + [T, T, SA, SA, SA, D, M2]
    plain = [[T, T, SA, SA, SA, D, E, SL, M2, M1], [T, T, SA, SA, SA, D, E, SL, M2, M1]]
    g = new(2, menu)
    play_round(g, [s0, s1])
    play_round(g, plain)
    play_round(g, plain)
    res = g.result()
    assert res.rounds == ((22, 22), (25, 25), (25, 25))
    assert res.totals == (72, 72)
    assert res.dessert_cards == ice
    assert res.winners == winners


# ===================================================================== legality

def test_illegal_actions_explain_why():
    h0 = [CH1, SA, SA, SA, D, D, D, E, E, M1]
    h1 = [T, SQ, SL, W, M2, M2, M2, M3, M3, T]
    g = new(2, SUSHI_GO)
    with pytest.raises(IllegalActionError, match="waiting for cards"):
        g.commit(0, T)
    g.deal([h0, h1])
    with pytest.raises(IllegalActionError, match="not in seat 0's hand"):
        g.commit(0, SQ)
    with pytest.raises(IllegalActionError, match="there is no seat 2"):
        g.commit(2, T)
    with pytest.raises(InvalidActionError):
        g.commit(0, 500)
    with pytest.raises(IllegalActionError, match="expected 2 picks"):
        g.play([CH1])
    assert g.commit(0, CH1) is False
    with pytest.raises(IllegalActionError, match="already picked"):
        g.commit(0, SA)
    with pytest.raises(IllegalActionError, match="finish the turn with commit"):
        g.play([SA, T])
    assert g.commit(1, T) is True
    g.play([SQ, SA])
    with pytest.raises(IllegalActionError, match="seat 0 \\(chopsticks1\\)'s decision, not seat 1's"):
        g.commit(1, D)
    with pytest.raises(IllegalActionError, match="not waiting for picks"):
        g.play([SL, D])
    with pytest.raises(IllegalActionError):
        g.commit(0, SA)                     # sashimi is not in seat 0's hand now
    assert not g.is_legal(0, FLIP_BASE)
    g.commit(0, PASS)
    assert g.legal_actions(0) and g.is_legal(0, SA) and not g.is_legal(0, SQ)


def test_game_over_errors():
    g = PartyGame(Rules.party(3, "Cutthroat Combo"), seed=4)
    g.random_playout(random.Random(4))
    assert g.is_over and g.phase is Phase.OVER
    with pytest.raises(GameOverError):
        g.commit(0, T)
    with pytest.raises(GameOverError):
        g.play([T, T, T])
    assert g.legal_actions(0) == [] and g.pending_seats == []
    assert not g.is_legal(0, T)


# ===================================================================== clone

def snapshot(g: PartyGame):
    def cols(cs):
        return [[(p.card, p.kind, p.turn, p.uid, p.on, p.filled) for p in col] for col in cs]

    finished = [cols(g.round_collections(r)) for r in range(1, g.round + (0 if g.is_over else 1))]
    return (
        g.phase, g.round, g.turn, g.decision, [list(h) for h in g.hands], cols(g.collections),
        list(g.deck), list(g.discard), list(g.dessert_pile), [list(d) for d in g.desserts],
        [list(d) for d in g.dessert_cards], list(g.uramaki_points), g.uramaki_claimed,
        [g.committed_action(s) for s in range(g.players)], g.history(), g.round_breakdowns,
        finished, g.result(),
    )


def _advance_to(g: PartyGame, rnd: random.Random, steps: int) -> None:
    for _ in range(steps):
        seat = g.pending_seats[0]
        g.commit(seat, rnd.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("menu", ["Sushi Go!", "Master Menu", "Dinner for Two", "Points Platter"])
@pytest.mark.parametrize("steps", [0, 1, 7, 45])
def test_clone_is_independent(menu, steps):
    players = 3 if menu != "Dinner for Two" else 2
    g = PartyGame(Rules.party(players, menu), seed=steps)
    _advance_to(g, random.Random(steps), steps)
    before = snapshot(g)
    c = g.clone()
    assert snapshot(c) == before
    c.random_playout(random.Random(99))
    assert c.is_over
    assert snapshot(g) == before


@pytest.mark.parametrize("menu", ["Sushi Go!", "Master Menu", "Party Sampler", "Points Platter"])
def test_clone_played_the_same_gives_the_same_result(menu):
    g = PartyGame(Rules.party(4, menu), seed=11)
    _advance_to(g, random.Random(5), 30)
    c = g.clone()
    rnd = random.Random(6)
    while not g.is_over:
        seat = g.pending_seats[0]
        assert c.pending_seats[0] == seat and c.legal_actions(seat) == g.legal_actions(seat)
        a = rnd.choice(g.legal_actions(seat))
        g.commit(seat, a)
        c.commit(seat, a)
    assert c.is_over
    assert c.result() == g.result()
    assert c.history() == g.history()


def test_a_copied_spoon_resolves_after_the_original_even_from_a_lower_seat() -> None:
    """Regression (review): seat 0 holds a special order copying spoon 5, seat 2
    the real spoon 5; both ask for the only squid left in the hands.  Same
    number: the original resolves first, so seat 2 gets the squid."""
    rules = Rules.party(4, ["maki", "tempura", "sashimi", "dumpling", "spoon", "special_order", "pudding"])
    g = PartyGame(rules, auto_deal=False)
    T, S, D, E, SA = C.TEMPURA, C.SASHIMI, C.DUMPLING, C.EGG, C.SALMON
    g.deal([[int(c) for c in h] for h in (
        [C.SPOON5, T, T, T, T, S, S, S, S],
        [C.SQUID, D, D, D, D, D, D, D, D],
        [E, E, E, E, SA, SA, SA, SA, SA],
        [C.SPECIAL_ORDER, C.SQUID, T, T, T, T, S, S, S],
    )])
    avoid = {int(C.SQUID), int(C.SPOON5), int(C.SPECIAL_ORDER)}

    def turn(wants, decide):
        picks = [wants.get(s, next(a for a in g.legal_actions(s) if a not in avoid and a < 46))
                 for s in range(4)]
        g.play(picks)
        order = []
        while g.phase is Phase.RESOLVE:
            d = g.decision
            order.append((d.seat, d.kind))
            g.commit(d.seat, decide(d))
        return order

    turn({0: int(C.SPOON5)}, lambda d: PASS)                    # seat 0: spoon 5
    turn({0: encode_copy(int(C.SPOON5))}, lambda d: PASS)           # seat 0: a copy of it
    # seat 0 spends the original: seat 1 gives squid, gets spoon 5
    turn({}, lambda d: int(C.SQUID) if d.seat == 0 else PASS)
    turn({2: int(C.SPOON5)}, lambda d: PASS)                    # spoon 5 reached seat 2's hand; seat 2 plays it
    order = turn({}, lambda d: int(C.SQUID))
    assert order == [(2, "spoon"), (0, "spoon")]
    got = [s for s in range(4) if any(p.kind == int(C.SQUID) and p.turn == 5 for p in g.collections[s])]
    assert got == [2]
