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
from sushigo.engine.base.cards import CARD_LABELS, CARD_NAMES, Card
from sushigo.engine.base.explain import explain_puddings, explain_round
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import wasabi_pairs
from sushigo.engine.narration import Line, join_words, scores_line, winners_line

_CHOPSTICKS = int(Card.CHOPSTICKS)


def _labels(cards: list[int], start: int, on_wasabi: dict[int, int]) -> list[str]:
    return [CARD_LABELS[c] + (" on a wasabi" if start + i in on_wasabi else "") for i, c in enumerate(cards)]


def action_words(action: int) -> str:
    """A pick in words: its card, or both cards of a chopsticks pair in play order.

    >>> action_words(0), action_words(126)
    ('Tempura', 'Wasabi, then Egg nigiri (chopsticks)')
    """
    cards = card_ids(action)
    if len(cards) == 2:
        return f"{CARD_LABELS[cards[0]]}, then {CARD_LABELS[cards[1]]} (chopsticks)"
    return CARD_LABELS[cards[0]]


def turn_lines(game: Game, round_number: int, turn: int) -> list[Line]:
    """One line per seat for a finished turn of ``game``."""
    turns = game.history()[round_number - 1][1]
    lines = []
    for seat in range(game.players):
        collection: list[int] = []
        for actions in turns[:turn]:
            cards = list(card_ids(actions[seat]))
            if len(cards) == 2:
                collection.remove(_CHOPSTICKS)  # the oldest chopsticks go back into the hand
            collection.extend(cards)
        cards = list(card_ids(turns[turn - 1][seat]))
        labels = _labels(cards, len(collection) - len(cards), wasabi_pairs(collection))
        names = tuple(CARD_NAMES[c] for c in cards)
        if len(cards) == 2:
            text = (f"{{{seat}}} used chopsticks to play {labels[0]}, then {labels[1]}; "
                    "the chopsticks go back into the hand.")
        else:
            text = f"{{{seat}}} played {join_words(labels)}."
        lines.append(Line("pick", round_number, turn, text, seat=seat, cards=names))
    return lines


def round_lines(game: Game, round_number: int) -> list[Line]:
    """A finished round's points per seat and its maki race."""
    story = explain_round(game.round_collections(round_number))
    points = [sum(b.values()) for b in game.round_breakdowns[round_number - 1]]
    lines = [scores_line(round_number, points)]
    lines += [Line("round", round_number, None, race[0].upper() + race[1:] + ".") for race in story.races]
    return lines


def game_lines(game: Game) -> list[Line]:
    """The end of a finished game: the puddings and the winners."""
    result = game.result()
    puddings = explain_puddings(result.puddings)
    return [Line("game", 3, None, puddings[0].upper() + puddings[1:] + "."),
            winners_line(3, result.totals, result.winners, "puddings")]


class BaseNarrator:
    """Follows an original game; :meth:`update` after each decision."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.told = (1, 1)
        """The (round, turn) to tell next."""

    def update(self) -> list[Line]:
        game = self.game
        lines: list[Line] = []
        rounds = game.history()
        while True:
            number, turn = self.told
            if number > len(rounds):
                return lines
            played = len(rounds[number - 1][1])
            if turn <= played:
                lines += turn_lines(game, number, turn)
                self.told = (number, turn + 1)
            elif len(game.round_breakdowns) >= number and turn == played + 1:
                lines += round_lines(game, number)
                if number == 3:
                    lines += game_lines(game)
                self.told = (number + 1, 1)
            else:
                return lines
