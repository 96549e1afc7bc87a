"""The story of an original game, turn by turn (see :mod:`sushigo.engine.narration`).

Each finished turn gives one line per seat: the card it revealed, or both
cards of a chopsticks pair in play order, with the nigiri that landed on a
wasabi (:func:`~sushigo.engine.base.scoring.wasabi_pairs` decides).  A
round's end adds its points and the maki race; the game's end the puddings
and the winners.  Everything here is public.

>>> from sushigo.engine.base.game import Game
>>> game = Game(2, seed=1)
>>> narrator = BaseNarrator(game)
>>> game.play([game.legal_actions(s)[0] for s in range(2)])
>>> [line.render(["Ana", "Ben"]) for line in narrator.update()]
['Ana played Tempura.', 'Ben played Tempura.']
"""

from __future__ import annotations

from sushigo.engine.base.actions import card_ids
from sushigo.engine.base.cards import CARD_LABELS, CARD_NAMES
from sushigo.engine.base.explain import explain_puddings, explain_round
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import wasabi_pairs
from sushigo.engine.messages import Label, Param, Seat, Sentence, Words, label, msg, render
from sushigo.engine.narration import Line, scores_line, winners_line


def _labels(cards: list[int], start: int, on_wasabi: dict[int, int]) -> list[Param]:
    return [msg("{card} on a wasabi", card=label(CARD_LABELS[c])) if start + i in on_wasabi else label(CARD_LABELS[c])
            for i, c in enumerate(cards)]


def action_said(action: int, label: bool = False) -> Param:
    """A pick in words: its card's label, or both cards of a chopsticks pair in play order
    (the same as a sentence's object and as a label: ``label`` is for the editions' likeness).

    >>> action_said(0)
    Label(id='Tempura')
    """
    cards = card_ids(action)
    if len(cards) == 2:
        return msg("{first}, then {second} (chopsticks)",
                   first=Label(CARD_LABELS[cards[0]]), second=Label(CARD_LABELS[cards[1]]))
    return Label(CARD_LABELS[cards[0]])


def action_words(action: int) -> str:
    """:func:`action_said` in English.

    >>> action_words(0), action_words(126)
    ('Tempura', 'Wasabi, then Egg nigiri (chopsticks)')
    """
    return render(action_said(action))


def turn_lines(game: Game, round_number: int, turn: int) -> list[Line]:
    """One line per seat for the turn just finished (the newest of round
    ``round_number``): its cards are the end of the seat's collection, placed as
    the game placed them (a pair's chopsticks already back in the hand)."""
    actions = game.history()[round_number - 1][1][turn - 1]
    lines = []
    for seat, collection in enumerate(game.round_collections(round_number)):
        cards = list(card_ids(actions[seat]))
        labels = _labels(cards, len(collection) - len(cards), wasabi_pairs(collection))
        names = tuple(CARD_NAMES[c] for c in cards)
        if len(cards) == 2:
            said = msg("{seat} used chopsticks to play {first}, then {second}; the chopsticks go back into the hand.",
                       seat=Seat(seat), first=labels[0], second=labels[1])
        else:
            said = msg("{seat} played {cards}.", seat=Seat(seat), cards=Words(tuple(labels)))
        lines.append(Line.saying("pick", round_number, turn, said, seat=seat, cards=names))
    return lines


def round_lines(game: Game, round_number: int) -> list[Line]:
    """A finished round's points per seat and its maki race."""
    story = explain_round(game.round_collections(round_number))
    points = [sum(b.values()) for b in game.round_breakdowns[round_number - 1]]
    lines = [scores_line(round_number, points)]
    lines += [Line.saying("round", round_number, None, Sentence(race)) for race in story.races]
    return lines


def game_lines(game: Game) -> list[Line]:
    """The end of a finished game: the puddings and the winners."""
    result = game.result()
    return [Line.saying("game", 3, None, Sentence(explain_puddings(result.puddings))),
            winners_line(3, result.totals, result.winners, "puddings")]


class BaseNarrator:
    """Follows an original game; call :meth:`update` after each decision (each
    turn is told from the collections as that turn left them)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.at = (game.round, game.turn, len(game.round_breakdowns))
        """The round, turn and rounds scored at the last update."""

    def update(self) -> list[Line]:
        game = self.game
        now = (game.round, game.turn, len(game.round_breakdowns))
        if now == self.at:
            return []
        number, turn, scored = self.at
        self.at = now
        lines = turn_lines(game, number, turn)
        if now[2] > scored:
            lines += round_lines(game, number)
            if game.is_over:
                lines += game_lines(game)
        return lines
