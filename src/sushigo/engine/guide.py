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
'3 tempura: 1 pair, 5'
>>> [d.item for d in dishes(Rules.party(4, "Master Menu"))]
['nigiri', 'temaki', 'sashimi', 'tofu', 'onigiri', 'spoon', 'takeout_box', 'fruit']
>>> dishes(Rules.party(4, "Master Menu"))[3].example
'1 tofu: 2; 2 tofu: 6; 3 tofu: 0'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from sushigo.engine.base.explain import explain_puddings
from sushigo.engine.base.scoring import maki_awards
from sushigo.engine.messages import N_, Label, Message, Words, as_json, label, msg, nmsg, render
from sushigo.engine.party.cards import FACE_DOWN, PARTY_LABELS, PartyCard
from sushigo.engine.party.explain import FRUIT_WORDS
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
    Figure,
    dumpling_figure,
    listed,
    nigiri_figure,
    race_sentence,
    sets_figure,
    signed,
)
from sushigo.engine.rules import NUM_ROUNDS, Rules

C = PartyCard


@dataclass(frozen=True, slots=True)
class Dish:
    """One kind of dish at a table."""

    item: str
    """The menu item (``tempura``, ``nigiri``, ``maki``, ...)."""
    title: Label
    """Its name."""
    cards: tuple[str, ...]
    """Its cards (record names), to draw it."""
    scoring: Message
    """How it scores, in one sentence (:attr:`rule` in English)."""
    shown: Message
    """A small example, scored by the engine (:attr:`example` in English)."""

    @property
    def name(self) -> str:
        """Its name in English."""
        return render(self.title)

    @property
    def rule(self) -> str:
        """How it scores, in English."""
        return render(self.scoring)

    @property
    def example(self) -> str:
        """The example, in English."""
        return render(self.shown)

    def to_json(self) -> dict[str, Any]:
        """``item``, ``name``, ``cards``, ``rule``, ``example`` (English) and ``msg``: the
        name, rule and example as messages."""
        return {"item": self.item, "name": self.name, "cards": list(self.cards), "rule": self.rule,
                "example": self.example, "msg": {"name": as_json(self.title), "rule": self.scoring.to_json(),
                                                 "example": self.shown.to_json()}}


def _awards(points: Sequence[int]) -> Words:
    return listed([signed(p) for p in points])


def _figure(figure: Figure | None) -> Message:
    assert figure is not None
    return figure.message


def _either(*examples: Message) -> Message:
    """Examples one after the other (``a; b``)."""
    out = examples[-1]
    for e in reversed(examples[:-1]):
        out = msg("{first}; {then}", first=e, then=out)
    return out


_TEMPURA = sets_figure("tempura", 3, TEMPURA_PAIR_POINTS).message
_SASHIMI = sets_figure("sashimi", 4, SASHIMI_SET_POINTS).message
_DUMPLING = _either(*(dumpling_figure(n).message for n in (2, 4)))
_NIGIRI = _figure(nigiri_figure([("squid", 3, True), ("salmon", 2, False)], 0))
_WASABI = _figure(nigiri_figure([("egg", 1, True)], 1))

BASE_DISHES: Final[tuple[Dish, ...]] = (
    Dish("tempura", label("Tempura"), ("tempura",), msg("5 points for each pair."), _TEMPURA),
    Dish("sashimi", label("Sashimi"), ("sashimi",), msg("10 points for each set of three."), _SASHIMI),
    Dish("dumpling", label("Dumpling"), ("dumpling",), msg("1, 2, 3, 4, 5 or more score 1, 3, 6, 10, 15."),
         _DUMPLING),
    Dish("maki", label("Maki rolls"), ("maki3", "maki2", "maki1"),
         msg("Most roll icons 6, second most 3; a tie splits the points (no second place after a tie for first)."),
         race_sentence("maki icons", [5, 3, 3], maki_awards([5, 3, 3]))),
    Dish("nigiri", label("Nigiri"), ("squid", "salmon", "egg"), msg("Egg 1, salmon 2, squid 3."), _NIGIRI),
    Dish("wasabi", label("Wasabi"), ("wasabi",),
         msg("The next nigiri you play goes on it and scores triple; alone it scores nothing."), _WASABI),
    Dish("chopsticks", label("Chopsticks"), ("chopsticks",),
         msg("On a later turn take two cards from your hand; the chopsticks go back into the hand you pass."),
         msg("wasabi, then squid with the chopsticks: the squid goes on that wasabi, {points}", points=9)),
    Dish("pudding", label("Pudding"), ("pudding",),
         msg("Kept to the end of the game: most +6, fewest -6 (ties split; no penalty with two players)."),
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
    fruits = listed([msg("{fruit} {n}", fruit=word, n=n) for word, n in zip(FRUIT_WORDS, fruit_shown)])
    colour = rules.wasabi_colour
    soy = soy_sauce_awards([[C.SOY_SAUCE, C.EGG, C.TEMPURA, C.EEL, C.TOFU], [C.EGG, C.TEMPURA, C.EEL],
                            [C.SASHIMI, C.SASHIMI]], colour)
    pudding_rule = (msg("Kept to the end: most +6, fewest -6 (every tied seat in full).")
                    if rules.two_player_pudding_penalty else
                    msg("Kept to the end: most +6, fewest -6 (every tied seat in full; no penalty with two players)."))
    table: dict[str, tuple[Label, tuple[str, ...], Message, Message]] = {
        "nigiri": (label("Nigiri"), ("squid", "salmon", "egg"), msg("Egg 1, salmon 2, squid 3; triple on a wasabi."),
                   _NIGIRI),
        "maki": (label("Maki rolls"), ("maki3", "maki2", "maki1"),
                 msg("Most roll icons 6, second 3 (with 6 or more players: 6, 4, 2); every tied seat scores in full."),
                 race_sentence("maki icons", [5, 3, 3], maki)),
        "temaki": (label("Temaki"), ("temaki",),
                   msg("Most temaki +4, fewest -4 (no penalty with two players); ties in full."),
                   race_sentence("temaki cards", [3, 1, 2], temaki)),
        "uramaki": (label("Uramaki"), ("uramaki5", "uramaki4", "uramaki3"),
                    msg("The first to 10 icons scores 8 at once, then 5, then 2, and those uramaki are discarded; "
                        "at the round's end the most icons left take the next place."),
                    msg("uramaki 5 + uramaki 5 on turn 3: 10 icons, 8 at once")),
        "eel": (label("Eel"), ("eel",), msg("One eel -3, two or more 7."),
                _either(*(nmsg("{n} eel: {points}", "{n} eels: {points}", n, points=eel_points(n)) for n in (1, 2)))),
        "tofu": (label("Tofu"), ("tofu",), msg("One tofu 2, two 6, three or more 0."),
                 _either(*(msg("{count} tofu: {points}", count=n, points=tofu_points(n)) for n in (1, 2, 3)))),
        "onigiri": (label("Onigiri"), ("onigiri_circle", "onigiri_triangle", "onigiri_square", "onigiri_rectangle"),
                    msg("Each set of different shapes: 1, 4, 9, 16 for 1 to 4 shapes."),
                    msg("circle, triangle, square, circle: {points}", points=onigiri_points(onigiri))),
        "edamame": (label("Edamame"), ("edamame",),
                    msg("1 point per edamame for each other player who has edamame (at most 4)."),
                    msg("edamame {counts}: {awards}", counts=listed([2, 1, 0]), awards=listed(edamame))),
        "miso_soup": (label("Miso soup"), ("miso_soup",),
                      msg("3 points, but when two or more are played on one turn all are discarded."),
                      msg("one miso soup on a turn: 3; two on the same turn: both discarded, 0")),
        "chopsticks": (label("Chopsticks"), ("chopsticks1",),
                       msg("On a later turn, after the reveal, play one more card from your hand; "
                           "the chopsticks go back into the hand."),
                       msg("tempura, then a second tempura with the chopsticks: {points}", points=5)),
        "spoon": (label("Spoon"), ("spoon4",),
                  msg("On a later turn, after the reveal, name a card: the first player to your left holding it "
                      "gives it to you and takes the spoon."),
                  msg("ask for sashimi: your neighbour has one and gives it")),
        "menu": (label("Menu"), ("menu7",), nmsg("Draw {n} card, play one of them; the menu is discarded.",
                                                 "Draw {n} cards, play one of them; the menu is discarded.",
                                                 rules.menu_card_draw),
                 msg("draw tempura, eel, tofu, squid: play the squid")),
        "takeout_box": (label("Takeout box"), ("takeout_box10",),
                        msg("Flip any of your earlier cards of this round face down: {points} points each.",
                            points=FACE_DOWN_POINTS),
                        msg("flip an eel that would score -3: it scores {points}", points=FACE_DOWN_POINTS)),
        "soy_sauce": (label("Soy sauce"), ("soy_sauce",),
                      msg("4 points if you have the most background colours (ties too)."),
                      msg("soy sauce, egg, tempura, eel, tofu (5 colours) against 3 and 1: {points}", points=soy[0])),
        "tea": (label("Tea"), ("tea",), msg("1 point per card of your largest group of one background colour."),
                msg("egg, squid, salmon, tempura, tempura and the tea: {points}", points=tea_points(tea, colour))),
        "special_order": (label("Special order"), ("special_order",),
                          msg("Copies a card you played earlier this round."),
                          msg("copy a squid on a wasabi: another squid on a wasabi, {points}", points=9)),
        "wasabi": (label("Wasabi"), ("wasabi",), msg("The next nigiri you play goes on it and scores triple."),
                   _WASABI),
        "pudding": (label("Pudding"), ("pudding",), pudding_rule,
                    msg("puddings {counts}: {awards}", counts=listed([3, 1, 2]), awards=_awards(pudding))),
        "green_tea_ice_cream": (label("Green tea ice cream"), ("green_tea_ice_cream",),
                                msg("Kept to the end: 12 points for each set of four."),
                                _either(*(nmsg("{n} card: {points}", "{n} cards: {points}", n,
                                               points=green_tea_points(n)) for n in (5, 8)))),
        "fruit": (label("Fruit"), ("fruit_watermelon2", "fruit_pineapple_orange"),
                  msg("Kept to the end: each fruit scores by its icons, 0 to 5 or more: {points}.",
                      points=listed(FRUIT_POINTS)),
                  msg("{fruits}: {awards}, {points}", fruits=fruits, awards=_awards(fruit_scored),
                      points=sum(fruit_scored))),
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
    uramaki places: the sums of their distinct subsets, sorted).  ``hints_msg``:
    the hints as messages (the labels are message ids themselves).

    >>> words = card_words()
    >>> words["labels"]["fruit_watermelon_orange"], words["items"]["maki2"], words["hints"]["base"]["tempura"]
    ('Fruit (watermelon, orange)', 'maki', '5 points for each pair.')
    >>> words["rounds"], words["face_down_points"], words["uramaki_race_points"]
    (3, 2, [0, 2, 5, 7, 8, 10, 13, 15])
    """
    labels = {c.name_in_records: label for c, label in PARTY_LABELS.items()}
    labels["chopsticks"] = N_("Chopsticks")
    labels["face_down"] = N_("Face down")
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
        "hints_msg": {"base": {d.item: d.scoring.to_json() for d in BASE_DISHES},
                      "party": {d.item: d.scoring.to_json() for d in _party_dishes(sample).values()}},
        "rounds": NUM_ROUNDS,
        "face_down_points": face_down,
        "uramaki_race_points": race,
    }


def demonstrations(rules: Rules) -> list[Dish]:
    """What a teacher lays on the table before the first pick (the scorekeeper's
    guide suggests a tempura pair and a wasabi with a nigiri on it), for the
    dishes this table has, scored by the engine.

    >>> [d.example for d in demonstrations(Rules(3))]
    ['2 tempura: 1 pair, 5', 'squid on wasabi 9: 9']
    >>> [d.name for d in demonstrations(Rules.party(4, "Master Menu"))]
    ['A nigiri']
    """
    items = set(rules.menu) if rules.is_party else {"tempura", "wasabi", "nigiri"}
    out = []
    if "tempura" in items:
        out.append(Dish("tempura", label("A tempura pair"), ("tempura", "tempura"),
                        msg("Two tempura make a pair; one alone scores nothing."),
                        sets_figure("tempura", 2, TEMPURA_PAIR_POINTS).message))
    if "wasabi" in items:
        out.append(Dish("wasabi", label("A wasabi with a nigiri on it"), ("wasabi", "squid"),
                        msg("Play the wasabi first; the next nigiri goes on it and scores triple."),
                        _figure(nigiri_figure([("squid", 3, True)], 0))))
    else:
        out.append(Dish("nigiri", label("A nigiri"), ("squid",), msg("A nigiri scores its face value."),
                        _figure(nigiri_figure([("squid", 3, False)], 0))))
    return out


def how_to_play(rules: Rules) -> list[str]:
    """The game in a few lines (what a turn is, how a round and the game end), in English.

    >>> how_to_play(Rules(3))[0]
    'Each turn everyone picks one card from their hand, all reveal at once, then pass the rest of the hand on.'
    """
    return [render(line) for line in how_to_play_said(rules)]


def how_to_play_said(rules: Rules) -> list[Message]:
    """:func:`how_to_play` as messages."""
    return [msg("Each turn everyone picks one card from their hand, all reveal at once, then pass the rest of the "
                "hand on (left in rounds 1 and 3, right in round 2).") if rules.pass_both_ways else
            msg("Each turn everyone picks one card from their hand, all reveal at once, then pass the rest of the "
                "hand on."),
            msg("A round ends when the hands are empty; it is scored, and all its cards but the desserts go."),
            msg("Three rounds make a game."),
            msg("Ties for the win go to the most dessert cards, else the win is shared.") if rules.is_party else
            msg("Ties for the win go to the most puddings, else the win is shared.")]
