"""Sushi Go Party! scoring (docs/rules.md §2.5-§2.10 and the Party card guide).

Every expected value here is typed in from the rule tables or worked by hand;
none is computed by the module's own code.  (Guide 004's "1 dumpling = 2" is a
misprint, docs/rules.md §2.7: dumplings score 1/3/6/10/15.)
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sushigo.engine.party.cards import FACE_DOWN, ONIGIRI_IDS
from sushigo.engine.party.cards import PartyCard as C
from sushigo.engine.party.scoring import (
    FRUIT_POINTS,
    edamame_awards,
    eel_points,
    fruit_points,
    green_tea_points,
    onigiri_points,
    party_maki_awards,
    party_pudding_awards,
    party_winners,
    score_desserts,
    score_party_round,
    soy_sauce_awards,
    tea_points,
    temaki_awards,
    tofu_points,
    uramaki_race,
    uramaki_round_end,
)

OC, OT, OS, OR = C.ONIGIRI_CIRCLE, C.ONIGIRI_TRIANGLE, C.ONIGIRI_SQUARE, C.ONIGIRI_RECTANGLE
W2, P2, O2 = C.FRUIT_WATERMELON2, C.FRUIT_PINEAPPLE2, C.FRUIT_ORANGE2
WP, WO, PO = C.FRUIT_WATERMELON_PINEAPPLE, C.FRUIT_WATERMELON_ORANGE, C.FRUIT_PINEAPPLE_ORANGE
FD = FACE_DOWN

SUSHI_GO_MENU = ("nigiri", "maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding")


def one_seat(item: str, cards: list[int]) -> int:
    """Seat 0's points for ``item`` in a 2-seat round where seat 1 has nothing."""
    menu = ("nigiri", "maki", "tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri",
            "miso_soup", "takeout_box")
    return score_party_round([cards, []], [0, 0], menu, [0, 0], 0)[0][item]


# --------------------------------------------------------------------- maki

@pytest.mark.parametrize(("icons", "awards"), [
    ([5, 5, 3, 1], [6, 6, 3, 0]),          # docs/rules.md §2.6, the card guide's example
    ([4, 0], [6, 0]),
    ([0, 4, 0], [0, 6, 0]),
    ([0, 0, 0], [0, 0, 0]),                # nobody has maki: nothing
    ([3, 3], [6, 6]),
    ([2, 2, 2, 2, 2], [6, 6, 6, 6, 6]),
    ([3, 1, 1, 0], [6, 3, 3, 0]),          # tie for 2nd: full 3 each
    ([9, 7, 5, 3, 1], [6, 3, 0, 0, 0]),    # no 3rd place below 6 players
    ([1, 0, 0, 0, 0], [6, 0, 0, 0, 0]),
    ([2, 1], [6, 3]),
])
def test_maki_two_to_five_seats(icons, awards):
    assert party_maki_awards(icons) == awards


@pytest.mark.parametrize(("icons", "awards"), [
    ([9, 7, 5, 3, 1, 0], [6, 4, 2, 0, 0, 0]),
    ([5, 5, 3, 1, 0, 0], [6, 6, 4, 2, 0, 0]),
    ([4, 4, 4, 2, 2, 1, 1], [6, 6, 6, 4, 4, 2, 2]),
    ([9, 7, 5, 3, 1, 0, 0, 0], [6, 4, 2, 0, 0, 0, 0, 0]),
    ([1, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0]),
    ([0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]),
    ([3, 0, 3, 0, 2, 0, 0, 0], [6, 0, 6, 0, 4, 0, 0, 0]),
])
def test_maki_six_to_eight_seats(icons, awards):
    assert party_maki_awards(icons) == awards


# ------------------------------------------------------------------- temaki

@pytest.mark.parametrize(("counts", "awards"), [
    ([3, 1, 0], [4, 0, -4]),
    ([2, 2, 0, 0], [4, 4, -4, -4]),        # full points on ties
    ([1, 1, 1], [0, 0, 0]),                # all equal: DECISION, nothing
    ([0, 0, 0, 0], [0, 0, 0, 0]),
    ([1, 2, 1], [-4, 4, -4]),              # fewest need not be zero
    ([5, 0, 0, 0, 0, 0, 0, 0], [4, -4, -4, -4, -4, -4, -4, -4]),
    ([3, 0], [4, 0]),                      # 2 players: no penalty
    ([0, 3], [0, 4]),
    ([2, 1], [4, 0]),
    ([2, 2], [0, 0]),
])
def test_temaki(counts, awards):
    assert temaki_awards(counts) == awards


# ------------------------------------------------------------------ uramaki

@pytest.mark.parametrize(("icons", "claimed", "points", "new_claimed"), [
    ([10, 4, 0], 0, [8, 0, 0], 1),           # first to 10: 8
    ([3, 10, 0], 1, [0, 5, 0], 2),           # next: 5
    ([3, 0, 12], 2, [0, 0, 2], 3),           # third: 2
    ([15, 0], 3, [0, 0], 3),                 # all places gone: 0
    ([9, 9, 0], 1, [0, 0, 0], 1),            # nobody reached 10
    ([10, 13, 0], 0, [5, 8, 0], 2),          # same turn: more icons ranks higher
    ([11, 11, 0], 0, [8, 8, 0], 2),          # still tied: both full, 2nd skipped
    ([12, 10, 10, 0], 0, [8, 5, 5, 0], 3),   # tie for 2nd: both 5, 3rd skipped
    ([10, 10, 0], 1, [5, 5, 0], 3),
    ([10, 10], 2, [2, 2], 3),                # tie for the last place
    ([10, 11, 12], 0, [2, 5, 8], 3),
    ([10, 11, 12, 13], 0, [0, 2, 5, 8], 3),  # a fourth seat on the same turn: 0
    ([11, 11, 11], 0, [8, 8, 8], 3),
    ([14, 10, 10], 1, [5, 2, 2], 3),
])
def test_uramaki_race(icons, claimed, points, new_claimed):
    assert uramaki_race(icons, claimed) == (points, new_claimed)


def test_uramaki_tie_for_first_then_third_place():
    # two tied for first both score 8; the next seat to reach 10 scores 2
    assert uramaki_race([11, 11, 0], 0) == ([8, 8, 0], 2)
    assert uramaki_race([0, 0, 10], 2) == ([0, 0, 2], 3)


@pytest.mark.parametrize(("icons", "claimed", "points"), [
    ([4, 7, 0], 0, [0, 8, 0]),     # no one scored in the race: 8
    ([4, 7, 0], 1, [0, 5, 0]),     # only first place scored: 5
    ([4, 7, 0], 2, [0, 2, 0]),     # first and second scored: 2
    ([4, 7, 0], 3, [0, 0, 0]),     # all three places scored: 0
    ([6, 6, 2], 2, [2, 2, 0]),     # ties get full
    ([9, 9, 9], 0, [8, 8, 8]),
    ([0, 0], 0, [0, 0]),           # needs at least one icon
    ([3, 0], 1, [5, 0]),
])
def test_uramaki_round_end(icons, claimed, points):
    assert uramaki_round_end(icons, claimed) == points


def test_uramaki_one_player_wins_two_places_in_races():
    # seat 0 reaches 10 (8 points, discards), then reaches 10 again (5 points)
    points, claimed = uramaki_race([10, 3, 0], 0)
    assert (points, claimed) == ([8, 0, 0], 1)
    points2, claimed = uramaki_race([11, 8, 0], claimed)
    assert (points2, claimed) == ([5, 0, 0], 2)


def test_uramaki_one_player_wins_race_and_round_end():
    points, claimed = uramaki_race([0, 12], 0)
    assert (points, claimed) == ([0, 8], 1)
    assert uramaki_round_end([5, 8], claimed) == [0, 5]


# ------------------------------------------------------------ appetizers

@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, -3), (2, 7), (3, 7), (8, 7)])
def test_eel(n, points):
    assert eel_points(n) == points
    assert one_seat("eel", [C.EEL] * n) == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 2), (2, 6), (3, 0), (4, 0), (8, 0)])
def test_tofu(n, points):
    assert tofu_points(n) == points
    assert one_seat("tofu", [C.TOFU] * n) == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15),
                                           (6, 15), (8, 15)])
def test_dumpling_party(n, points):
    assert one_seat("dumpling", [C.DUMPLING] * n) == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 0), (2, 5), (3, 5), (4, 10), (7, 15)])
def test_tempura_party(n, points):
    assert one_seat("tempura", [C.TEMPURA] * n) == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 0), (2, 0), (3, 10), (5, 10), (6, 20)])
def test_sashimi_party(n, points):
    assert one_seat("sashimi", [C.SASHIMI] * n) == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 3), (2, 6), (4, 12)])
def test_miso_soup(n, points):
    # miso soups still in the collection score 3 each (discards already removed)
    assert one_seat("miso_soup", [C.MISO_SOUP] * n) == points


@pytest.mark.parametrize(("cards", "points"), [
    ([], 0),
    ([OC], 1),
    ([OC, OT], 4),
    ([OC, OT, OS], 9),
    ([OC, OT, OS, OR], 16),
    ([OC, OC], 2),
    ([OC, OC, OT, OS], 10),          # {A,B,C} + {A} = 9 + 1 (docs/rules.md: a decision)
    ([OC, OT, OS, OR, OC], 17),
    ([OC, OC, OT, OT], 8),
    ([OC, OC, OC], 3),
    ([OC, OC, OT, OT, OS, OS, OR, OR], 32),
    ([OS, C.EGG, OR, C.TOFU], 4),    # other cards ignored
])
def test_onigiri(cards, points):
    assert onigiri_points(cards) == points
    assert one_seat("onigiri", list(cards)) == points


@pytest.mark.parametrize(("counts", "awards"), [
    ([1, 0], [0, 0]),                         # alone: worth 0
    ([3, 0, 0, 0], [0, 0, 0, 0]),
    ([1, 1], [1, 1]),
    ([2, 1, 0], [2, 1, 0]),
    ([3, 1, 1], [6, 2, 2]),
    ([1, 1, 1, 1, 1], [4, 4, 4, 4, 4]),
    ([1, 1, 1, 1, 1, 1], [4, 4, 4, 4, 4, 4]),  # 5 opponents, capped at 4 per card
    ([2, 1, 1, 1, 1, 1, 1, 1], [8, 4, 4, 4, 4, 4, 4, 4]),
    ([2, 0, 1, 0, 1, 0], [4, 0, 2, 0, 2, 0]),
    ([0, 0, 0], [0, 0, 0]),
])
def test_edamame(counts, awards):
    assert edamame_awards(counts) == awards


# ----------------------------------------------------------- tea and soy

@pytest.mark.parametrize(("cards", "points"), [
    ([], 0),
    ([C.EGG, C.EGG], 0),                                       # no tea: nothing
    ([C.TEA], 1),                                              # tea counts itself
    ([C.TEA, C.TEA, C.TEA, C.EGG, C.EGG], 9),                  # 3 teas x set of 3 teas
    ([C.TEA, C.EGG, C.SALMON, C.SQUID, C.MAKI1, C.MAKI2], 3),  # nigiri share a colour
    ([C.TEA, C.MAKI1, C.MAKI2, C.MAKI3, C.EGG], 3),            # maki share a colour
    ([C.TEA, C.URAMAKI3, C.URAMAKI4, C.URAMAKI5, C.URAMAKI3], 4),
    ([C.TEA, OC, OT, OS, C.EGG], 3),                           # onigiri shapes share one
    ([C.TEA, C.PUDDING, C.PUDDING, C.PUDDING, C.PUDDING, C.EGG], 4),  # desserts count
    ([C.TEA, FD, FD, FD, C.EGG], 1),                           # face-down: no colour
    ([C.TEA, C.TEA, C.CHOPSTICKS1, C.CHOPSTICKS2, C.CHOPSTICKS3], 6),
    ([C.TEA, W2, WP, PO, C.TOFU, C.TOFU], 3),                  # fruit cards one colour
])
def test_tea(cards, points):
    assert tea_points(cards) == points


@pytest.mark.parametrize(("collections", "awards"), [
    ([[C.SOY_SAUCE, C.EGG], [C.EEL]], [4, 0]),
    ([[C.SOY_SAUCE, C.EGG], [C.EEL, C.TOFU]], [4, 0]),          # tied most; soy is a colour
    ([[C.SOY_SAUCE], [C.EEL]], [4, 0]),
    ([[C.SOY_SAUCE, C.EGG], [C.EEL, C.TOFU, C.MISO_SOUP]], [0, 0]),  # non-soy seat has most
    ([[C.SOY_SAUCE, C.SOY_SAUCE, C.EGG, C.TOFU], [C.EEL, C.MISO_SOUP, C.EGG]], [8, 0]),
    ([[C.SOY_SAUCE, C.EGG], [C.EEL, C.TOFU, FD]], [4, 0]),     # face-down: no colour
    ([[C.SOY_SAUCE, C.EGG, C.SALMON, C.SQUID], [C.TOFU, C.EEL]], [4, 0]),
    ([[C.SOY_SAUCE, C.EGG, C.SALMON], [C.SOY_SAUCE, C.TOFU, C.EEL], [C.EGG]], [0, 4, 0]),
    ([[C.SOY_SAUCE, C.PUDDING], [C.SOY_SAUCE, C.TEMAKI], [C.TOFU, C.EEL]], [4, 4, 0]),
])
def test_soy_sauce(collections, awards):
    assert soy_sauce_awards(collections) == awards



# wasabi_colour: "nigiri" (default) puts the wasabi card in the nigiri's colour group, "own" gives it its own
@pytest.mark.parametrize(("cards", "nigiri", "own"), [
    ([C.TEA, C.WASABI, C.SQUID], 2, 1),                        # wasabi + squid: one group of 2, or two of 1
    ([C.TEA, C.WASABI, C.WASABI, C.EGG, C.TEMPURA, C.TEMPURA], 3, 2),
    ([C.TEA, C.TEA, C.WASABI, C.MAKI1, C.MAKI2, C.MAKI3], 6, 6),  # maki is largest either way
    ([C.TEA, C.WASABI, C.WASABI], 2, 2),                       # wasabi alone: a group either way
])
def test_tea_counts_wasabi_by_the_wasabi_colour_option(cards, nigiri, own):
    assert tea_points(cards) == tea_points(cards, "nigiri") == nigiri
    assert tea_points(cards, "own") == own


@pytest.mark.parametrize(("collections", "nigiri", "own"), [
    ([[C.SOY_SAUCE, C.WASABI, C.EGG], [C.TOFU, C.EEL, C.EDAMAME]], [0, 0], [4, 0]),
    ([[C.SOY_SAUCE, C.WASABI], [C.SOY_SAUCE, C.EGG]], [4, 4], [4, 4]),  # tied either way
    ([[C.SOY_SAUCE, C.WASABI, C.SALMON, C.TOFU], [C.SOY_SAUCE, C.EEL, C.TEMPURA]], [4, 4], [4, 0]),
])
def test_soy_sauce_counts_wasabi_by_the_wasabi_colour_option(collections, nigiri, own):
    assert soy_sauce_awards(collections) == nigiri
    assert soy_sauce_awards(collections, "own") == own


def test_round_scoring_passes_the_wasabi_colour_on():
    menu = ("nigiri", "maki", "tempura", "sashimi", "miso_soup", "wasabi", "tea", "green_tea_ice_cream")
    cols = [[C.TEA, C.WASABI, C.SQUID, C.MAKI1], [C.TEA, C.TEMPURA]]
    assert [line["tea"] for line in score_party_round(cols, [3, 0], menu, [0, 0], 0)] == [2, 1]
    assert [line["tea"] for line in score_party_round(cols, [3, 0], menu, [0, 0], 0, "own")] == [1, 1]

# ----------------------------------------------------------- whole rounds

def test_round_cutthroat_combo_three_seats():
    menu = ("nigiri", "temaki", "eel", "tofu", "miso_soup", "spoon", "soy_sauce", "pudding")
    cols = [
        [C.TEMAKI, C.TEMAKI, C.EEL, C.EEL, C.TOFU, C.SOY_SAUCE, C.PUDDING, C.SALMON],
        [C.TEMAKI, C.EEL, C.MISO_SOUP, C.MISO_SOUP, C.TOFU, C.TOFU, C.SQUID],
        [C.TOFU, C.TOFU, C.TOFU, C.SOY_SAUCE, C.SOY_SAUCE, C.EGG],
    ]
    # colours: seat 0 has 6 (temaki, eel, tofu, soy, pudding, nigiri), seat 1 5, seat 2 3
    lines = score_party_round(cols, [0, 0, 0], menu, [0, 0, 0], 0)
    assert [list(line.items()) for line in lines] == [
        [("nigiri", 2), ("temaki", 4), ("eel", 7), ("tofu", 2), ("miso_soup", 0), ("soy_sauce", 4)],
        [("nigiri", 3), ("temaki", 0), ("eel", -3), ("tofu", 6), ("miso_soup", 6), ("soy_sauce", 0)],
        [("nigiri", 1), ("temaki", -4), ("eel", 0), ("tofu", 0), ("miso_soup", 0), ("soy_sauce", 0)],
    ]
    assert [sum(line.values()) for line in lines] == [19, 12, -3]


def test_round_points_platter_with_uramaki_race_and_tea():
    menu = ("nigiri", "uramaki", "onigiri", "dumpling", "edamame", "special_order", "tea",
            "green_tea_ice_cream")
    cols = [
        [C.URAMAKI3, OC, OC, OS, OT, C.EDAMAME, C.TEA, C.GREEN_TEA_ICE_CREAM, C.EGG],
        [C.URAMAKI4, C.URAMAKI5, C.EDAMAME, C.EDAMAME, C.DUMPLING, C.DUMPLING, C.DUMPLING,
         C.SALMON, C.SQUID],
        [C.URAMAKI5, C.URAMAKI4, C.TEA, C.TEA, C.DUMPLING, OR],
        [C.EDAMAME] + [C.DUMPLING] * 6 + [C.EGG],
    ]
    # seat 0 won the race (8) earlier; seats 1 and 2 tie on 9 remaining icons: 5 each
    lines = score_party_round(cols, [0, 0, 0, 0], menu, [8, 0, 0, 0], 1)
    assert [list(line.items()) for line in lines] == [
        [("nigiri", 1), ("uramaki", 8), ("onigiri", 10), ("dumpling", 0), ("edamame", 2), ("tea", 4)],
        [("nigiri", 5), ("uramaki", 5), ("onigiri", 0), ("dumpling", 6), ("edamame", 4), ("tea", 0)],
        [("nigiri", 0), ("uramaki", 5), ("onigiri", 1), ("dumpling", 1), ("edamame", 0), ("tea", 4)],
        [("nigiri", 1), ("uramaki", 0), ("onigiri", 0), ("dumpling", 15), ("edamame", 2), ("tea", 0)],
    ]


def test_round_six_seats_maki_wasabi_takeout_in_menu_order():
    menu = ("nigiri", "maki", "sashimi", "tempura", "miso_soup", "wasabi", "takeout_box", "fruit")
    cols = [
        [C.MAKI3, C.MAKI2, C.WASABI, C.SQUID, C.SASHIMI, C.SASHIMI, C.SASHIMI],
        [C.MAKI3, C.MAKI2, C.TEMPURA, C.TEMPURA, C.TEMPURA, FD, FD],
        [C.MAKI1, C.MAKI2, C.MISO_SOUP, C.EGG, C.WASABI],
        [C.MAKI1, O2],
        [FD],
        [C.MAKI1, C.SALMON, C.WASABI, C.SALMON],
    ]
    tripled = [3, 0, 0, 0, 0, 2]   # squid on wasabi; seat 5's second salmon on wasabi
    lines = score_party_round(cols, tripled, menu, [0] * 6, 0)
    keys = ["nigiri", "maki", "sashimi", "tempura", "miso_soup", "takeout_box"]
    assert [list(line) for line in lines] == [keys] * 6
    assert [list(line.values()) for line in lines] == [
        [9, 6, 10, 0, 0, 0],
        [0, 6, 0, 5, 0, 4],
        [1, 4, 0, 0, 3, 0],
        [0, 2, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 2],
        [8, 2, 0, 0, 0, 0],
    ]


def test_round_two_seats_temaki_tea_soy():
    # tea is listed after soy sauce in the menu, but tea's key comes first
    menu = ("nigiri", "temaki", "tempura", "tofu", "miso_soup", "soy_sauce", "tea", "pudding")
    cols = [
        [C.TEMAKI, C.TEA, C.TEA, C.PUDDING, C.TOFU],
        [C.SOY_SAUCE, C.EGG, C.SALMON, C.MISO_SOUP, C.TEMPURA],
    ]
    lines = score_party_round(cols, [0, 0], menu, [0, 0], 0)
    assert [list(line.items()) for line in lines] == [
        [("nigiri", 0), ("temaki", 4), ("tempura", 0), ("tofu", 2), ("miso_soup", 0), ("tea", 4),
         ("soy_sauce", 0)],
        [("nigiri", 3), ("temaki", 0), ("tempura", 0), ("tofu", 0), ("miso_soup", 3), ("tea", 0),
         ("soy_sauce", 4)],
    ]


def test_round_specials_and_desserts_get_no_key():
    cols = [[C.CHOPSTICKS1, C.WASABI, C.PUDDING, C.PUDDING], [C.MAKI1]]
    lines = score_party_round(cols, [0, 0], SUSHI_GO_MENU, [0, 0], 0)
    assert [list(line.items()) for line in lines] == [
        [("nigiri", 0), ("maki", 0), ("tempura", 0), ("sashimi", 0), ("dumpling", 0)],
        [("nigiri", 0), ("maki", 6), ("tempura", 0), ("sashimi", 0), ("dumpling", 0)],
    ]


# ---------------------------------------------------------------- desserts

@pytest.mark.parametrize(("cards", "points"), [
    ([], -6),                          # no fruit at all: -2 for each type
    ([WP], -2),                        # W1 P1 O0: 0 + 0 - 2
    ([W2], -3),                        # W2: 1 - 2 - 2
    ([W2, WP], 1),                     # W3 P1 O0: 3 + 0 - 2
    ([W2, W2], 2),                     # W4: 6 - 2 - 2
    ([W2, W2, WO], 8),                 # W5 O1 P0: 10 + 0 - 2
    ([W2, W2, W2], 6),                 # W6: 10 - 2 - 2
    ([O2, PO], 1),                     # O3 P1 W0: 3 + 0 - 2
    ([WP, WO, PO], 3),                 # 2 of each: 1 + 1 + 1
    ([W2, P2, O2, WP, WO, PO], 18),    # 4 of each: 6 * 3
    ([W2, W2, P2, P2, O2, O2, WP], 26),  # W5 P5 O4: 10 + 10 + 6
    ([W2, W2, P2, P2, O2, O2, WP, WP, WP, WO, WO, WO, PO, PO, PO], 30),  # the whole box
])
def test_fruit(cards, points):
    assert fruit_points(cards) == points


def test_fruit_table_constant():
    assert tuple(FRUIT_POINTS) == (-2, 0, 1, 3, 6, 10)


@pytest.mark.parametrize(("n", "points"), [(0, 0), (3, 0), (4, 12), (7, 12), (8, 24), (12, 36),
                                           (15, 36)])
def test_green_tea_ice_cream(n, points):
    assert green_tea_points(n) == points


@pytest.mark.parametrize(("counts", "flag", "awards"), [
    ([3, 1, 0], False, [6, 0, -6]),
    ([2, 2, 0, 0], False, [6, 6, -6, -6]),        # full points on ties
    ([0, 0, 0, 0, 5], False, [-6, -6, -6, -6, 6]),
    ([1, 1, 1], False, [0, 0, 0]),                # all equal: nothing
    ([3, 0], False, [6, 0]),                      # 2p: no penalty
    ([3, 0], True, [6, -6]),                      # ... unless the option is on
    ([2, 2], True, [0, 0]),
    ([3, 1, 0], True, [6, 0, -6]),
])
def test_party_pudding(counts, flag, awards):
    assert party_pudding_awards(counts, two_player_penalty=flag) == awards


def test_score_desserts_each_item():
    P, G = C.PUDDING, C.GREEN_TEA_ICE_CREAM
    assert score_desserts([[P, P], [P], []], "pudding") == [
        {"pudding": 6}, {"pudding": 0}, {"pudding": -6}]
    assert score_desserts([[P], []], "pudding") == [{"pudding": 6}, {"pudding": 0}]
    assert score_desserts([[P], []], "pudding", two_player_penalty=True) == [
        {"pudding": 6}, {"pudding": -6}]
    assert score_desserts([[G] * 4, [G] * 9, [G] * 3], "green_tea_ice_cream") == [
        {"green_tea_ice_cream": 12}, {"green_tea_ice_cream": 24}, {"green_tea_ice_cream": 0}]
    assert score_desserts([[W2, WP], []], "fruit") == [{"fruit": 1}, {"fruit": -6}]


def test_score_desserts_rejects_non_dessert():
    with pytest.raises(ValueError):
        score_desserts([[]], "tempura")


# ------------------------------------------------------------------ winner

@pytest.mark.parametrize(("totals", "desserts", "winners"), [
    ([40, 35], [0, 9], [0]),
    ([40, 40, 12], [3, 5, 9], [1]),        # tie broken by dessert cards
    ([40, 40], [5, 5], [0, 1]),            # still tied: shared
    ([10, 40, 40, 40], [9, 2, 4, 4], [2, 3]),
])
def test_party_winners(totals, desserts, winners):
    assert party_winners(totals, desserts) == winners


# -------------------------------------------------------------- properties

icon_lists = st.lists(st.integers(0, 12), min_size=2, max_size=8)


@given(icon_lists)
def test_maki_awards_only_to_seats_with_icons_and_monotone(icons):
    awards = party_maki_awards(icons)
    allowed = {0, 6, 4, 2} if len(icons) >= 6 else {0, 6, 3}
    assert set(awards) <= allowed
    for a, n in zip(awards, icons):
        if n == 0:
            assert a == 0
    for i in range(len(icons)):
        for j in range(len(icons)):
            if icons[i] > icons[j]:
                assert awards[i] >= awards[j]
            if icons[i] == icons[j]:
                assert awards[i] == awards[j]
    if max(icons) > 0:
        assert awards[icons.index(max(icons))] == 6


@given(st.lists(st.integers(0, 6), min_size=2, max_size=8))
def test_temaki_sum_properties(counts):
    awards = temaki_awards(counts)
    most, fewest = max(counts), min(counts)
    if most == fewest:
        assert awards == [0] * len(counts)
        return
    n_most = counts.count(most)
    n_fewest = counts.count(fewest) if len(counts) > 2 else 0
    assert sum(awards) == 4 * n_most - 4 * n_fewest
    assert all(a in (4, 0, -4) for a in awards)
    if len(counts) == 2:
        assert min(awards) == 0


@given(st.lists(st.integers(0, 6), min_size=2, max_size=8))
def test_pudding_is_temaki_scaled(counts):
    assert party_pudding_awards(counts) == [a * 6 // 4 for a in temaki_awards(counts)]


def _brute_force_onigiri(shapes: list[int]) -> int:
    """Best score over every partition of ``shapes`` into distinct-shape sets."""
    best = 0

    def place(i: int, sets: list[set[int]]) -> None:
        nonlocal best
        if i == len(shapes):
            best = max(best, sum(len(s) ** 2 for s in sets))
            return
        for s in sets:
            if shapes[i] not in s:
                s.add(shapes[i])
                place(i + 1, sets)
                s.remove(shapes[i])
        sets.append({shapes[i]})
        place(i + 1, sets)
        sets.pop()

    place(0, [])
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ONIGIRI_IDS), max_size=7))
def test_onigiri_greedy_equals_brute_force(shapes):
    assert onigiri_points(shapes) == _brute_force_onigiri(shapes)


@given(st.lists(st.integers(0, 4), min_size=2, max_size=8))
def test_edamame_properties(counts):
    awards = edamame_awards(counts)
    for n, a in zip(counts, awards):
        assert 0 <= a <= 4 * n
        if n:
            assert a % n == 0
    if sum(1 for n in counts if n) <= 1:
        assert awards == [0] * len(counts)


@given(st.lists(st.integers(0, 16), min_size=2, max_size=8), st.integers(0, 3))
def test_uramaki_race_properties(icons, claimed):
    points, new_claimed = uramaki_race(icons, claimed)
    assert claimed <= new_claimed <= 3
    reached = sum(1 for n in icons if n >= 10)
    assert new_claimed == min(3, claimed + reached)
    for n, p in zip(icons, points):
        assert p in (0, 2, 5, 8)
        if n < 10:
            assert p == 0
    if claimed == 3:
        assert points == [0] * len(icons)


party_cards = st.sampled_from([int(c) for c in C] + [FD])


@given(st.lists(party_cards, max_size=12))
def test_face_down_cards_change_no_colour_count(cards):
    assert tea_points(cards + [FD, FD]) == tea_points(cards)
    assert soy_sauce_awards([cards + [FD], [C.EGG]]) == soy_sauce_awards([cards, [C.EGG]])


@given(st.lists(st.lists(party_cards, max_size=10), min_size=2, max_size=5))
def test_round_keys_and_total(cols):
    menu = ("nigiri", "maki", "tempura", "onigiri", "eel", "tea", "soy_sauce", "pudding")
    lines = score_party_round(cols, [0] * len(cols), menu, [0] * len(cols), 0)
    for line, cards in zip(lines, cols):
        assert list(line) == ["nigiri", "maki", "tempura", "onigiri", "eel", "tea", "soy_sauce"]
        c = Counter(cards)
        assert line["nigiri"] == c[C.EGG] + 2 * c[C.SALMON] + 3 * c[C.SQUID]
        assert line["tempura"] == 5 * (c[C.TEMPURA] // 2)
