"""What produced each figure of a round's score, in words: Sushi Go Party!.

The same kind of :class:`~sushigo.engine.points.RoundStory` as
:mod:`sushigo.engine.base.explain` gives for the original game, one
:class:`~sushigo.engine.points.Figure` per breakdown key a seat has cards
for, recomputed from the round's collections with the scoring functions of
:mod:`sushigo.engine.party.scoring` (the tests check every figure against the
game's breakdown).  The uramaki race is scored while the round is played,
so its figure reports the points the game recorded.

>>> import random
>>> from sushigo.engine.messages import render
>>> from sushigo.engine.rules import Rules
>>> game = PartyGame(Rules.party(3, "Master Menu"), seed=5)
>>> game.random_playout(random.Random(5))
>>> story = explain_party_round(game, 1)
>>> [f.text for f in story.figures[0]][:2]
['egg 1, squid 3, salmon 2: 6', '2 temaki: the most, 4']
>>> [f.text for f in story.figures[2]][-1], [render(r) for r in story.races]
('5 face-down cards: 10', ['temaki cards 2, 0, 1: 4, -4, 0'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from sushigo.engine.messages import Message, label, msg, nmsg, told
from sushigo.engine.party.cards import FACE_DOWN, MAKI_ICONS, ONIGIRI_IDS, URAMAKI_ICONS, PartyCard
from sushigo.engine.party.game import PartyGame, Played, on_face_up_wasabi
from sushigo.engine.party.scoring import (
    NIGIRI_FACE,
    colour_counts,
    edamame_awards,
    eel_points,
    fruit_icons,
    fruit_type_points,
    green_tea_points,
    onigiri_points,
    party_maki_awards,
    party_pudding_awards,
    soy_sauce_awards,
    tea_points,
    temaki_awards,
    tofu_points,
)
from sushigo.engine.points import (
    SASHIMI_SET_POINTS,
    TEMPURA_PAIR_POINTS,
    Figure,
    RoundStory,
    dumpling_figure,
    listed,
    maki_said,
    nigiri_figure,
    race_sentence,
    sets_figure,
    signed,
)

C = PartyCard


def _nigiri(col: Sequence[Played]) -> Figure | None:
    on = on_face_up_wasabi(col)
    nigiri = [(PartyCard(p.kind).name_in_records, NIGIRI_FACE[p.kind], tripled)
              for p, tripled in zip(col, on) if p.kind in NIGIRI_FACE]
    filled = {p.on for p, tripled in zip(col, on) if tripled}
    return nigiri_figure(nigiri, sum(1 for p in col if p.kind == C.WASABI and p.uid not in filled))


def _place(value: int, values: Sequence[int], award: int) -> Message:
    if value <= 0 or award == 0:
        return msg("no award")
    place = sorted({v for v in values if v > 0}, reverse=True).index(value)
    if sum(1 for v in values if v == value) > 1:
        return (msg("tied first"), msg("tied second"), msg("tied third"))[place]
    return (msg("first"), msg("second"), msg("third"))[place]


def _appetizer(item: str, kinds: Counter[int], edamame: int) -> Figure | None:
    if item == "tempura":
        n = kinds[C.TEMPURA]
        return sets_figure(item, n, TEMPURA_PAIR_POINTS) if n else None
    if item == "sashimi":
        n = kinds[C.SASHIMI]
        return sets_figure(item, n, SASHIMI_SET_POINTS) if n else None
    if item == "dumpling":
        n = kinds[C.DUMPLING]
        return dumpling_figure(n) if n else None
    if item == "eel":
        n = kinds[C.EEL]
        return Figure(item, n, eel_points(n), nmsg("{n} eel: {points}", "{n} eels: {points}", n,
                                                   points=eel_points(n))) if n else None
    if item == "tofu":
        n = kinds[C.TOFU]
        return Figure(item, n, tofu_points(n), msg("{count} tofu: {points}", count=n, points=tofu_points(n))) \
            if n else None
    if item == "onigiri":
        shapes = [kinds[c] for c in ONIGIRI_IDS]
        n = sum(shapes)
        if not n:
            return None
        groups: list[int] = []
        while any(shapes):
            groups.append(sum(1 for k in shapes if k))
            shapes = [k - 1 if k else 0 for k in shapes]
        points = onigiri_points(kinds.elements())
        sizes = listed([nmsg("{n} shape", "{n} shapes", k) for k in groups])
        return Figure(item, n, points, msg("{count} onigiri in {sets} ({sizes}): {points}", count=n,
                                           sets=nmsg("{n} set", "{n} sets", len(groups)), sizes=sizes, points=points))
    if item == "edamame":
        n = kinds[C.EDAMAME]
        return Figure(item, n, edamame, msg("{count} edamame, {each} each: {points}", count=n, points=edamame,
                                            each=nmsg("{n} point", "{n} points", edamame // n))) if n else None
    if item == "miso_soup":
        n = kinds[C.MISO_SOUP]
        return Figure(item, n, 3 * n, nmsg("{n} miso soup kept: {points}", "{n} miso soups kept: {points}", n,
                                           points=3 * n)) if n else None
    raise ValueError(f"not an appetizer: {item!r}")


def explain_party_round(game: PartyGame, round_number: int) -> RoundStory:
    """Every seat's score in finished round ``round_number`` of ``game``, explained
    (docs/rules.md §2.5-§2.8): one figure per category the seat has cards for,
    and a sentence per roll race.
    """
    if not 1 <= round_number <= len(game.round_breakdowns):
        raise told(ValueError, "round {round} has not been scored", round=round_number)
    return explain_party_collections(game.round_collections(round_number), game.round_breakdowns[round_number - 1],
                                     game.rules.menu, game.rules.wasabi_colour)


def explain_party_collections(
    cols: Sequence[Sequence[Played]], lines: Sequence[Mapping[str, int]], menu: Sequence[str], colour: str
) -> RoundStory:
    """:func:`explain_party_round` from a round's collections and their scored
    breakdowns (a game's or a score sheet's); ``colour``: the rules' wasabi colour."""
    kinds = [[p.kind for p in col] for col in cols]
    counts = [Counter(k) for k in kinds]
    maki = [sum(MAKI_ICONS.get(c, 0) for c in k) for k in kinds]
    maki_awards = party_maki_awards(maki)
    temaki = [c[C.TEMAKI] for c in counts]
    temaki_points = temaki_awards(temaki)
    edamame = edamame_awards([c[C.EDAMAME] for c in counts])
    soy = soy_sauce_awards(kinds, colour)
    colours = [len(colour_counts(k, colour)) for k in kinds]
    figures = []
    for s, col in enumerate(cols):
        seat: list[Figure] = []
        for key in lines[s]:
            figure: Figure | None
            if key == "nigiri":
                figure = _nigiri(col)
            elif key == "maki":
                figure = Figure(key, maki[s], maki_awards[s], maki_said(
                    maki[s], _place(maki[s], maki, maki_awards[s]), maki_awards[s])) if maki[s] else None
            elif key == "temaki":
                word = (msg("the most") if temaki_points[s] > 0 else msg("the fewest") if temaki_points[s] < 0
                        else msg("everyone has the same") if min(temaki) == max(temaki)
                        else msg("the fewest, no penalty with two players")
                        if len(cols) == 2 and temaki[s] == min(temaki)
                        else msg("neither the most nor the fewest"))
                figure = Figure(key, temaki[s], temaki_points[s], msg("{count} temaki: {place}, {points}",
                                                                      count=temaki[s], place=word,
                                                                      points=temaki_points[s]))
            elif key == "uramaki":
                icons = sum(URAMAKI_ICONS.get(c, 0) for c in kinds[s])
                points = lines[s][key]
                said = (msg("uramaki race: {points} ({icons} left at the end)", points=points,
                            icons=nmsg("{n} icon", "{n} icons", icons)) if icons else
                        msg("uramaki race: {points}", points=points))
                figure = Figure(key, icons, points, said) if points or icons else None
            elif key == "takeout_box":
                n = counts[s][FACE_DOWN]
                figure = Figure(key, n, 2 * n, nmsg("{n} face-down card: {points}", "{n} face-down cards: {points}",
                                                    n, points=2 * n)) if n else None
            elif key == "tea":
                n = counts[s][C.TEA]
                group = max(colour_counts(kinds[s], colour).values(), default=0)
                points = tea_points(kinds[s], colour)
                figure = Figure(key, n, points, msg("{count} tea, largest colour group {group}: {points}", count=n,
                                                    group=group, points=points)) if n else None
            elif key == "soy_sauce":
                n = counts[s][C.SOY_SAUCE]
                most = msg("the most") if colours[s] == max(colours) else msg("not the most")
                figure = Figure(key, n, soy[s], msg("{count} soy sauce, {colours} ({most}): {points}", count=n,
                                                    colours=nmsg("{n} colour", "{n} colours", colours[s]), most=most,
                                                    points=soy[s])) if n else None
            else:
                figure = _appetizer(key, counts[s], edamame[s])
            if figure is not None:
                seat.append(figure)
        figures.append(tuple(seat))
    races = []
    if "maki" in menu:
        races.append(race_sentence("maki icons", maki, maki_awards))
    if "temaki" in menu:
        races.append(race_sentence("temaki cards", temaki, temaki_points))
    if "uramaki" in menu:
        races.append(msg("uramaki points {points}", points=listed([line.get("uramaki", 0) for line in lines])))
    return RoundStory(tuple(figures), tuple(races))


FRUITS: tuple[str, ...] = ("watermelon", "pineapple", "orange")
FRUIT_WORDS = (label("watermelon"), label("pineapple"), label("orange"))
"""Each fruit's name in a figure (translated on its own)."""


def explain_desserts(game: PartyGame) -> list[Figure]:
    """Each seat's end-of-game desserts in one figure (docs/rules.md §2.8):
    its cards, how they scored and the points of the game's result.

    >>> import random
    >>> from sushigo.engine.rules import Rules
    >>> game = PartyGame(Rules.party(3, "Party Sampler"), seed=2)
    >>> game.random_playout(random.Random(2))
    >>> for f in explain_desserts(game):
    ...     print(f.text)
    4 green tea ice cream: 1 set of four, 12
    3 green tea ice cream: no set of four, 0
    1 green tea ice cream: no set of four, 0
    """
    if not game.is_over:
        raise told(ValueError, "desserts are scored at the end of the game")
    return dessert_figures(game.desserts, game.rules.menu[-1], game.rules.two_player_pudding_penalty)


def dessert_figures(desserts: Sequence[Sequence[int]], item: str, two_player_penalty: bool = False) -> list[Figure]:
    """The figures of :func:`explain_desserts` from each seat's kept desserts.

    >>> [f.text for f in dessert_figures([[int(C.GREEN_TEA_ICE_CREAM)] * 8, []], "green_tea_ice_cream")]
    ['8 green tea ice cream: 2 sets of four, 24', '0 green tea ice cream: no set of four, 0']
    """
    figures = []
    if item == "pudding":
        counts = [list(d).count(int(C.PUDDING)) for d in desserts]
        awards = party_pudding_awards(counts, two_player_penalty)
        for n, award in zip(counts, awards):
            word = (msg("everyone has the same") if min(counts) == max(counts)
                    else msg("the most") if n == max(counts)
                    else (msg("the fewest") if award else msg("the fewest, no penalty with two players"))
                    if n == min(counts) else msg("neither the most nor the fewest"))
            figures.append(Figure(item, n, award, nmsg("{n} pudding: {place}, {points}",
                                                       "{n} puddings: {place}, {points}", n, place=word, points=award)))
    elif item == "green_tea_ice_cream":
        for d in desserts:
            n = list(d).count(int(C.GREEN_TEA_ICE_CREAM))
            figures.append(sets_figure(item, n, green_tea_points(4)))
    else:
        for d in desserts:
            icons, points = fruit_icons(d), fruit_type_points(d)
            parts = listed([msg("{fruit} {n} ({points})", fruit=word, n=n, points=signed(p))
                            for word, n, p in zip(FRUIT_WORDS, icons, points)])
            figures.append(Figure(item, len(d), sum(points), nmsg(
                "{n} fruit card: {fruits}, {points}", "{n} fruit cards: {fruits}, {points}", len(d), fruits=parts,
                points=sum(points))))
    return figures
