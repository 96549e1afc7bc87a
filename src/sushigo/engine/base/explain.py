"""What produced each figure of a round's score, in words: the original game.

The terminal and the browser table say how a round scored with these words,
so a player reads the same sentence everywhere and no front end recomputes
a rule.  Every figure (:class:`~sushigo.engine.points.Figure`) carries its
category, the cards (or maki icons) that made it, its points and one
sentence; the points are those of
:func:`~sushigo.engine.base.scoring.score_round`, which the tests check game
for game.

>>> from sushigo import Card as C
>>> from sushigo.engine.messages import render
>>> story = explain_round([[C.SASHIMI] * 3 + [C.MAKI3, C.MAKI2], [C.MAKI3], [C.MAKI2, C.MAKI1], [C.MAKI2]])
>>> [f.text for f in story.figures[0]]
['3 sashimi: 1 set of three, 10', '5 maki icons: the most, 6']
>>> [render(r) for r in story.races]
['maki icons 5, 3, 3, 2: 6, 1, 1, 0']
>>> render(explain_puddings([3, 1, 1]))
'puddings 3, 1, 1: +6, -3, -3'
"""

from __future__ import annotations

from collections.abc import Sequence

from sushigo.engine.base.cards import NIGIRI_POINTS, Card
from sushigo.engine.base.scoring import maki_awards, maki_icons, pudding_awards, wasabi_pairs
from sushigo.engine.messages import Message, msg, nmsg
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


def _nigiri(cards: Sequence[int]) -> Figure | None:
    pairs = wasabi_pairs(cards)
    nigiri = [(Card(c).name_in_records, NIGIRI_POINTS[c], i in pairs) for i, c in enumerate(cards) if NIGIRI_POINTS[c]]
    return nigiri_figure(nigiri, cards.count(Card.WASABI) - len(pairs))


def explain_collection(cards: Sequence[int]) -> list[Figure]:
    """The figures of one collection without the maki race (whose award needs the other seats).

    >>> from sushigo import Card as C
    >>> [f.text for f in explain_collection([C.TEMPURA, C.WASABI, C.SQUID, C.EGG, C.DUMPLING, C.TEMPURA])]
    ['2 tempura: 1 pair, 5', '1 dumpling: 1', 'squid on wasabi 9, egg 1: 10']
    """
    figures = []
    tempura = cards.count(Card.TEMPURA)
    if tempura:
        figures.append(sets_figure("tempura", tempura, TEMPURA_PAIR_POINTS))
    sashimi = cards.count(Card.SASHIMI)
    if sashimi:
        figures.append(sets_figure("sashimi", sashimi, SASHIMI_SET_POINTS))
    dumplings = cards.count(Card.DUMPLING)
    if dumplings:
        figures.append(dumpling_figure(dumplings))
    nigiri = _nigiri(cards)
    if nigiri is not None:
        figures.append(nigiri)
    return figures


def _ranks(icons: Sequence[int], awards: Sequence[int]) -> list[Message]:
    top = max(icons, default=0)
    firsts = sum(1 for n in icons if n == top)
    second = max((n for n in icons if 0 < n < top), default=0)
    seconds = sum(1 for n in icons if n == second)
    out = []
    for n, _award in zip(icons, awards):
        if n == top:
            out.append(msg("the most") if firsts == 1 else
                       nmsg("tied for the most with {n} other", "tied for the most with {n} others", firsts - 1))
        elif n == second and firsts == 1:
            out.append(msg("second") if seconds == 1 else
                       nmsg("tied for second with {n} other", "tied for second with {n} others", seconds - 1))
        else:
            out.append(msg("no award"))
    return out


def explain_round(collections: Sequence[Sequence[int]]) -> RoundStory:
    """Every seat's round score explained, the maki race included (docs/rules.md §1.5-§1.6)."""
    icons = [maki_icons(list(cards)) for cards in collections]
    awards = maki_awards(icons)
    ranks = _ranks(icons, awards)
    figures = []
    for cards, n, award, rank in zip(collections, icons, awards, ranks):
        seat = explain_collection(list(cards))
        if n:
            seat.append(Figure("maki", n, award, maki_said(n, rank, award)))
        figures.append(tuple(seat))
    return RoundStory(tuple(figures), (race_sentence("maki icons", icons, awards),))


def explain_puddings(puddings: Sequence[int]) -> Message:
    """The end-of-game pudding award in one phrase (docs/rules.md §1.8).

    >>> from sushigo.engine.messages import render
    >>> render(explain_puddings([2, 2])), render(explain_puddings([0, 4]))
    ('puddings 2, 2: everyone has the same, no pudding points', 'puddings 0, 4: 0, +6')
    """
    awards = pudding_awards(puddings)
    if not any(awards):
        return msg("puddings {counts}: everyone has the same, no pudding points", counts=listed(puddings))
    return msg("puddings {counts}: {awards}", counts=listed(puddings), awards=listed([signed(a) for a in awards]))
