"""The dishes of a table and how each one scores, in a line and an example.

The rules panel of the browser table and the help of the terminal games
read these: for the original game its eight kinds of dish (the three nigiri
counted as one), for Sushi Go Party! the eight items of the table's menu.
Every example's points are worked out by the scoring functions of the
engine, so they can never disagree with how a game scores (a special that
scores nothing itself is shown by what it does).

>>> from sushigo.engine.rules import Rules
>>> [d.name for d in dishes(Rules(4))][:4]
['Tempura', 'Sashimi', 'Dumpling', 'Maki rolls']
>>> dishes(Rules(4))[0].example
'3 tempura: one pair, 5'
>>> [d.item for d in dishes(Rules.party(4, "Master Menu"))]
['nigiri', 'temaki', 'sashimi', 'tofu', 'onigiri', 'spoon', 'takeout_box', 'fruit']
>>> dishes(Rules.party(4, "Master Menu"))[3].example
'1 tofu: 2; 2 tofu: 6; 3 tofu: 0'
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from sushigo.engine.base.explain import explain_puddings
from sushigo.engine.base.scoring import maki_awards
from sushigo.engine.party.cards import FACE_DOWN, PARTY_LABELS, PartyCard
from sushigo.engine.party.scoring import (
    FACE_DOWN_POINTS,
    FRUIT_POINTS,
    URAMAKI_PLACES,
    edamame_awards,
    eel_points,
    fruit_icons,
    fruit_type_points,
    green_tea_points,
    onigiri_points,
    party_maki_awards,
    party_pudding_awards,
    score_party_round,
    soy_sauce_awards,
    tea_points,
    temaki_awards,
    tofu_points,
)
from sushigo.engine.points import (
    SASHIMI_SET_POINTS,
    TEMPURA_PAIR_POINTS,
    dumpling_figure,
    nigiri_figure,
    race_sentence,
    sets_figure,
)
from sushigo.engine.rules import NUM_ROUNDS, Rules

C = PartyCard


@dataclass(frozen=True, slots=True)
class Dish:
    """One kind of dish at a table."""

    item: str
    """The menu item (``tempura``, ``nigiri``, ``maki``, ...)."""
    name: str
    cards: tuple[str, ...]
    """Its cards (record names), to draw it."""
    rule: str
    """How it scores, in one line."""
    example: str
    """A small example, scored by the engine."""

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "name": self.name, "cards": list(self.cards), "rule": self.rule,
                "example": self.example}


def _awards(points: list[int]) -> list[str]:
    return [f"{p:+d}" if p else "0" for p in points]


_TEMPURA = sets_figure("tempura", 3, 2, "pair", "pairs", TEMPURA_PAIR_POINTS).text
_SASHIMI = sets_figure("sashimi", 4, 3, "set of three", "sets of three", SASHIMI_SET_POINTS).text
_DUMPLING = "; ".join(dumpling_figure(n).text for n in (2, 4))
_NIGIRI = nigiri_figure([("squid", 3, True), ("salmon", 2, False)], 0)
_WASABI = nigiri_figure([("egg", 1, True)], 1)

BASE_DISHES: Final[tuple[Dish, ...]] = (
    Dish("tempura", "Tempura", ("tempura",), "5 points for each pair.", _TEMPURA),
    Dish("sashimi", "Sashimi", ("sashimi",), "10 points for each set of three.", _SASHIMI),
    Dish("dumpling", "Dumpling", ("dumpling",), "1, 2, 3, 4, 5 or more score 1, 3, 6, 10, 15.", _DUMPLING),
    Dish("maki", "Maki rolls", ("maki3", "maki2", "maki1"),
         "Most roll icons 6, second most 3; a tie splits the points (no second place after a tie for first).",
         race_sentence("maki icons", [5, 3, 3], maki_awards([5, 3, 3]))),
    Dish("nigiri", "Nigiri", ("squid", "salmon", "egg"), "Egg 1, salmon 2, squid 3.", _NIGIRI.text if _NIGIRI else ""),
    Dish("wasabi", "Wasabi", ("wasabi",),
         "The next nigiri you play goes on it and scores triple; alone it scores nothing.",
         _WASABI.text if _WASABI else ""),
    Dish("chopsticks", "Chopsticks", ("chopsticks",),
         "On a later turn take two cards from your hand; the chopsticks go back into the hand you pass.",
         "wasabi, then squid with the chopsticks: the squid goes on that wasabi, 9"),
    Dish("pudding", "Pudding", ("pudding",),
         "Kept to the end of the game: most +6, fewest -6 (ties split; no penalty with two players).",
         explain_puddings([3, 1, 1])),
)
"""The original game's dishes (docs/rules.md §1.5-§1.8)."""


def _party_dishes(rules: Rules) -> dict[str, Dish]:
    """Every Party item's dish at a table with these rules (the options change some lines)."""
    maki = party_maki_awards([5, 3, 3])
    temaki = temaki_awards([3, 1, 2])
    edamame = edamame_awards([2, 1, 0])
    pudding = party_pudding_awards([3, 1, 2], rules.two_player_pudding_penalty)
    onigiri = [C.ONIGIRI_CIRCLE, C.ONIGIRI_TRIANGLE, C.ONIGIRI_SQUARE, C.ONIGIRI_CIRCLE]
    tea = [C.EGG, C.SQUID, C.SALMON, C.TEMPURA, C.TEMPURA, C.TEA]
    fruit = [C.FRUIT_WATERMELON2, C.FRUIT_WATERMELON_PINEAPPLE]
    fruit_shown, fruit_scored = fruit_icons(fruit), fruit_type_points(fruit)
    colour = rules.wasabi_colour
    soy = soy_sauce_awards([[C.SOY_SAUCE, C.EGG, C.TEMPURA, C.EEL, C.TOFU], [C.EGG, C.TEMPURA, C.EEL],
                            [C.SASHIMI, C.SASHIMI]], colour)
    table: dict[str, tuple[str, tuple[str, ...], str, str]] = {
        "nigiri": ("Nigiri", ("squid", "salmon", "egg"), "Egg 1, salmon 2, squid 3; triple on a wasabi.",
                   _NIGIRI.text if _NIGIRI else ""),
        "maki": ("Maki rolls", ("maki3", "maki2", "maki1"),
                 "Most roll icons 6, second 3 (with 6 or more players: 6, 4, 2); every tied seat scores in full.",
                 race_sentence("maki icons", [5, 3, 3], maki)),
        "temaki": ("Temaki", ("temaki",), "Most temaki +4, fewest -4 (no penalty with two players); ties in full.",
                   race_sentence("temaki cards", [3, 1, 2], temaki)),
        "uramaki": ("Uramaki", ("uramaki5", "uramaki4", "uramaki3"),
                    "The first to 10 icons scores 8 at once, then 5, then 2, and those uramaki are discarded; "
                    "at the round's end the most icons left take the next place.",
                    "uramaki 5 + uramaki 5 on turn 3: 10 icons, 8 at once"),
        "eel": ("Eel", ("eel",), "One eel -3, two or more 7.", f"1 eel: {eel_points(1)}; 2 eels: {eel_points(2)}"),
        "tofu": ("Tofu", ("tofu",), "One tofu 2, two 6, three or more 0.",
                 "; ".join(f"{n} tofu: {tofu_points(n)}" for n in (1, 2, 3))),
        "onigiri": ("Onigiri", ("onigiri_circle", "onigiri_triangle", "onigiri_square", "onigiri_rectangle"),
                    "Each set of different shapes: 1, 4, 9, 16 for 1 to 4 shapes.",
                    f"circle, triangle, square, circle: {onigiri_points(onigiri)}"),
        "edamame": ("Edamame", ("edamame",),
                    "1 point per edamame for each other player who has edamame (at most 4).",
                    f"edamame 2, 1, 0: {', '.join(map(str, edamame))}"),
        "miso_soup": ("Miso soup", ("miso_soup",),
                      "3 points, but when two or more are played on one turn all are discarded.",
                      "one miso soup on a turn: 3; two on the same turn: both discarded, 0"),
        "chopsticks": ("Chopsticks", ("chopsticks1",),
                       "On a later turn, after the reveal, play one more card from your hand; "
                       "the chopsticks go back into the hand.",
                       "tempura, then a second tempura with the chopsticks: 5"),
        "spoon": ("Spoon", ("spoon4",),
                  "On a later turn, after the reveal, name a card: the first player to your left holding it "
                  "gives it to you and takes the spoon.", "ask for sashimi: your neighbour has one and gives it"),
        "menu": ("Menu", ("menu7",), f"Draw {rules.menu_card_draw} cards, play one of them; the menu is discarded.",
                 "draw tempura, eel, tofu, squid: play the squid"),
        "takeout_box": ("Takeout box", ("takeout_box10",),
                        "Flip any of your earlier cards of this round face down: "
                        f"{FACE_DOWN_POINTS} points each.",
                        f"flip an eel that would score -3: it scores {FACE_DOWN_POINTS}"),
        "soy_sauce": ("Soy sauce", ("soy_sauce",),
                      "4 points if you have the most background colours (ties too).",
                      f"soy sauce, egg, tempura, eel, tofu (5 colours) against 3 and 1: {soy[0]}"),
        "tea": ("Tea", ("tea",), "1 point per card of your largest group of one background colour.",
                f"egg, squid, salmon, tempura, tempura and the tea: {tea_points(tea, colour)}"),
        "special_order": ("Special order", ("special_order",), "Copies a card you played earlier this round.",
                          "copy a squid on a wasabi: another squid on a wasabi, 9"),
        "wasabi": ("Wasabi", ("wasabi",), "The next nigiri you play goes on it and scores triple.",
                   _WASABI.text if _WASABI else ""),
        "pudding": ("Pudding", ("pudding",), "Kept to the end: most +6, fewest -6 (every tied seat in full"
                    + ("" if rules.two_player_pudding_penalty else "; no penalty with two players") + ").",
                    f"puddings 3, 1, 2: {', '.join(_awards(pudding))}"),
        "green_tea_ice_cream": ("Green tea ice cream", ("green_tea_ice_cream",),
                                "Kept to the end: 12 points for each set of four.",
                                f"5 cards: {green_tea_points(5)}; 8 cards: {green_tea_points(8)}"),
        "fruit": ("Fruit", ("fruit_watermelon2", "fruit_pineapple_orange"),
                  "Kept to the end: each fruit scores by its icons, 0 to 5 or more: "
                  + ", ".join(map(str, FRUIT_POINTS)) + ".",
                  f"watermelon {fruit_shown[0]}, pineapple {fruit_shown[1]}, orange {fruit_shown[2]}: "
                  f"{', '.join(_awards(fruit_scored))}, {sum(fruit_scored)}"),
    }
    same = {d.item: d for d in BASE_DISHES if d.item in ("tempura", "sashimi", "dumpling")}
    return {**{item: Dish(item, *entry) for item, entry in table.items()}, **same}


def dishes(rules: Rules) -> list[Dish]:
    """The dishes of a table with these rules, in board order."""
    if rules.is_party:
        table = _party_dishes(rules)
        return [table[item] for item in rules.menu]
    return list(BASE_DISHES)


def card_words() -> dict[str, Any]:
    """Every card's label and every item's scoring line, for front ends that
    draw cards (the browser's cards.js): ``labels`` by record name, ``items``
    (each card's menu item), and ``hints`` per edition and item; and the few
    figures of the rules a page offers or says: ``rounds`` (a game's),
    ``face_down_points`` (a card a takeout box flipped) and
    ``uramaki_race_points`` (every total a seat can hold of one round's
    uramaki places: the sums of their distinct subsets, sorted).

    >>> words = card_words()
    >>> words["labels"]["fruit_watermelon_orange"], words["items"]["maki2"], words["hints"]["base"]["tempura"]
    ('Fruit (watermelon, orange)', 'maki', '5 points for each pair.')
    >>> words["rounds"], words["face_down_points"], words["uramaki_race_points"]
    (3, 2, [0, 2, 5, 7, 8, 10, 13, 15])
    """
    labels = {c.name_in_records: label for c, label in PARTY_LABELS.items()}
    labels["chopsticks"] = "Chopsticks"
    labels["face_down"] = "Face down"
    items = {c.name_in_records: c.item for c in PartyCard}
    items["chopsticks"] = "chopsticks"
    sample = Rules.party(4, "Master Menu")  # any table: only the menu card draw changes a line
    face_down = score_party_round([[FACE_DOWN]], [0], ["takeout_box"], [0], 0)[0]["takeout_box"]
    race = sorted({sum(c) for n in range(len(URAMAKI_PLACES) + 1) for c in combinations(URAMAKI_PLACES, n)})
    return {
        "labels": labels,
        "items": items,
        "hints": {"base": {d.item: d.rule for d in BASE_DISHES},
                  "party": {d.item: d.rule for d in _party_dishes(sample).values()}},
        "rounds": NUM_ROUNDS,
        "face_down_points": face_down,
        "uramaki_race_points": race,
    }


def demonstrations(rules: Rules) -> list[Dish]:
    """What a teacher lays on the table before the first pick (the scorekeeper's
    guide suggests a tempura pair and a wasabi with a nigiri on it), for the
    dishes this table has, scored by the engine.

    >>> [d.example for d in demonstrations(Rules(3))]
    ['2 tempura: one pair, 5', 'squid on wasabi 9: 9']
    >>> [d.name for d in demonstrations(Rules.party(4, "Master Menu"))]
    ['A nigiri']
    """
    items = set(rules.menu) if rules.is_party else {"tempura", "wasabi", "nigiri"}
    out = []
    if "tempura" in items:
        out.append(Dish("tempura", "A tempura pair", ("tempura", "tempura"),
                        "Two tempura make a pair; one alone scores nothing.",
                        sets_figure("tempura", 2, 2, "pair", "pairs", TEMPURA_PAIR_POINTS).text))
    squid = nigiri_figure([("squid", 3, True)], 0)
    plain = nigiri_figure([("squid", 3, False)], 0)
    if "wasabi" in items and squid is not None:
        out.append(Dish("wasabi", "A wasabi with a nigiri on it", ("wasabi", "squid"),
                        "Play the wasabi first; the next nigiri goes on it and scores triple.", squid.text))
    elif plain is not None:
        out.append(Dish("nigiri", "A nigiri", ("squid",), "A nigiri scores its face value.", plain.text))
    return out


def how_to_play(rules: Rules) -> list[str]:
    """The game in a few lines (what a turn is, how a round and the game end).

    >>> how_to_play(Rules(3))[0]
    'Each turn everyone picks one card from their hand, all reveal at once, then pass the rest of the hand on.'
    """
    passing = ("pass the rest of the hand on" if not rules.pass_both_ways
               else "pass the rest of the hand on (left in rounds 1 and 3, right in round 2)")
    lines = [f"Each turn everyone picks one card from their hand, all reveal at once, then {passing}.",
             "A round ends when the hands are empty; it is scored, and all its cards but the desserts go.",
             "Three rounds make a game."]
    if rules.is_party:
        lines.append("Ties for the win go to the most dessert cards, else the win is shared.")
    else:
        lines.append("Ties for the win go to the most puddings, else the win is shared.")
    return lines
