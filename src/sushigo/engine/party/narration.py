"""The story of a Sushi Go Party! game, turn by turn (see :mod:`sushigo.engine.narration`).

A finished turn gives one line per seat for its reveal, then one per special
in the order they resolved: chopsticks and spoons (what was asked for and who
gave it, or that nobody had it), menus (the four cards drawn, which only
their seat reads, and the card played), takeout boxes (the cards flipped),
then the miso soups discarded and the uramaki points scored.  What the lines
say is read from the game: the recorded moves and where each played card
ended up (on a wasabi, discarded, flipped), never worked out again here.

>>> import random
>>> from sushigo.engine.rules import Rules
>>> game = PartyGame(Rules.party(2, "My First Meal"), seed=3)
>>> narrator = PartyNarrator(game)
>>> game.play([game.legal_actions(s)[0] for s in range(2)])
>>> [line.render(["Ana", "Ben"]) for line in narrator.update()]
['Ana played Tempura.', 'Ben played Tempura.']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sushigo.engine.messages import N_, Param, Seat, Sentence, Words, label, msg, nmsg, render
from sushigo.engine.narration import Line, scores_line, seats_said, winners_line
from sushigo.engine.party.actions import PASS, copy_target, flip_position, played_card
from sushigo.engine.party.cards import (
    CHOPSTICKS_IDS,
    FACE_DOWN,
    MENU_IDS,
    PARTY_LABELS,
    SPOON_IDS,
    TAKEOUT_IDS,
    PartyCard,
)
from sushigo.engine.party.explain import explain_desserts, explain_party_round
from sushigo.engine.party.game import Move, PartyGame, Played

_SO = int(PartyCard.SPECIAL_ORDER)
_MISO = int(PartyCard.MISO_SOUP)


def _label(card: int) -> Param:
    return label("a face-down card") if card == FACE_DOWN else label(PARTY_LABELS[PartyCard(card)])


def _placed(action: int) -> tuple[int, int, Param]:
    """(physical card, what it counts as, its words) of a card an action plays."""
    target = copy_target(action)
    if target is not None:
        return _SO, target[0], msg("Special order as {card}", card=_label(target[0]))
    return action, action, _label(action)


def action_said(action: int, label: bool = False) -> Param:
    """A Party decision in words, as a sentence's object (``"to pass"``), or with
    ``label`` as a label (``"Pass"``): a message, or a card's label.

    >>> action_said(96), action_said(96, label=True)
    (Message(id='to pass', params=(), plural=None), Message(id='Pass', params=(), plural=None))
    """
    if action == PASS:
        return msg("Pass") if label else msg("to pass")
    pos = flip_position(action)
    if pos is not None:
        return msg("Flip card {position} face down", position=pos + 1) if label else \
            msg("to flip card {position} face down", position=pos + 1)
    return _placed(action)[2]


def action_words(action: int) -> str:
    """:func:`action_said` in English.

    >>> action_words(53), action_words(96), action_words(99)
    ('Special order as Salmon nigiri', 'to pass', 'to flip card 3 face down')
    """
    return render(action_said(action))


class _Placements:
    """Where the cards a seat played this turn ended up, matched in play order."""

    def __init__(self, collection: Sequence[Played], turn: int) -> None:
        self.left = [p for p in collection if p.turn == turn]

    def take(self, card: int) -> Played | None:
        for i, p in enumerate(self.left):
            if p.card == card:
                return self.left.pop(i)
        return None


class PartyNarrator:
    """Follows a Party game; :meth:`update` after each decision."""

    def __init__(self, game: PartyGame) -> None:
        self.game = game
        self._snapshot()

    def _snapshot(self) -> None:
        game = self.game
        self.at = (game.round, game.turn)
        self.rounds_scored = len(game.round_breakdowns)
        self.uramaki = list(game.uramaki_points)
        self.face_down = [{p.uid for p in col if p.kind == FACE_DOWN} for col in game.collections]

    def update(self) -> list[Line]:
        game = self.game
        if (game.round, game.turn) == self.at and not game.is_over:
            return []
        if game.is_over and self.rounds_scored == 3:
            return []
        number, turn = self.at
        lines = self._turn(number, turn)
        if len(game.round_breakdowns) > self.rounds_scored:
            lines += self._round(number)
            if game.is_over:
                lines += self._end()
        self._snapshot()
        return lines

    def _turn(self, number: int, turn: int) -> list[Line]:
        game = self.game
        moves = game.history()[number - 1][1][turn - 1]
        scored = len(game.round_breakdowns) >= number
        cols = game.round_collections(number)
        placements = [_Placements(col, turn) for col in cols]
        lines: list[Line] = []
        miso: list[int] = []
        miso_kept: list[int] = []

        def place(seat: int, action: int) -> Param:
            card, kind, words = _placed(action)
            p = placements[seat].take(card)
            if kind == _MISO:
                miso.append(seat)
                if p is not None:
                    miso_kept.append(seat)
            return msg("{card} on a wasabi", card=words) if p is not None and p.on >= 0 else words

        for m in moves:
            if m.via == -1:
                lines.append(Line.saying("pick", number, turn, msg("{seat} played {cards}.", seat=Seat(m.seat),
                                                                 cards=place(m.seat, m.action)),
                                       seat=m.seat, cards=(_name(m.action),)))
        flips: dict[tuple[int, int], int] = {}
        for m in moves:
            if m.via == -1:
                continue
            line = self._special(m, number, turn, place, flips)
            if line is not None:
                lines.append(line)
        for (seat, via), count in flips.items():
            lines.append(self._takeout(seat, via, count, cols[seat], number, turn))
        lost = sorted(set(miso) - set(miso_kept))
        if lost:
            lines.append(Line.saying("miso_soup", number, turn, msg(
                "Miso soup: more than one was played this turn ({seats}): all of them are discarded.",
                seats=seats_said(sorted(set(miso))))))
        if not scored:
            for s in range(game.players):
                gained = game.uramaki_points[s] - self.uramaki[s]
                if gained > 0:
                    lines.append(Line.saying("uramaki", number, turn, msg(
                        "{seat} reached 10 uramaki icons: +{points}; those uramaki are discarded.",
                        seat=Seat(s), points=gained), seat=s))
        return lines

    def _special(self, m: Move, number: int, turn: int, place: Callable[[int, int], Param],
                 flips: dict[tuple[int, int], int]) -> Line | None:
        special = label(PARTY_LABELS[PartyCard(m.via)])
        who = Seat(m.seat)
        if m.via in CHOPSTICKS_IDS:
            if m.action == PASS:
                return None
            return Line.saying("chopsticks", number, turn, msg(
                "{seat} used {special} to play {card}; the chopsticks go back into the hand.",
                seat=who, special=special, card=place(m.seat, m.action)), seat=m.seat, cards=(_name(m.action),))
        if m.via in SPOON_IDS:
            if m.action == PASS:
                return None
            card = played_card(m.action)
            target = copy_target(m.action)
            asked = _label(target[0] if target else card) if card is not None else "?"
            if m.giver >= 0:
                played = place(m.seat, m.action)
                if render(played) != render(asked):
                    said = msg("{seat} used {special} and asked for {asked}: {giver} gave it ({played}) and took "
                               "the spoon.", seat=who, special=special, asked=asked, giver=Seat(m.giver),
                               played=played)
                else:
                    said = msg("{seat} used {special} and asked for {asked}: {giver} gave it and took the spoon.",
                               seat=who, special=special, asked=asked, giver=Seat(m.giver))
                return Line.saying("spoon", number, turn, said, seat=m.seat, cards=(_name(m.action),))
            return Line.saying("spoon", number, turn, msg(
                "{seat} used {special} and asked for {asked}: nobody had one; the spoon is discarded.",
                seat=who, special=special, asked=asked), seat=m.seat)
        if m.via in MENU_IDS:
            played = place(m.seat, m.action)
            return Line.saying("menu", number, turn, nmsg(
                "{seat} used {special}: drew {n} card and played {played}.",
                "{seat} used {special}: drew {n} cards and played {played}.", len(m.drawn),
                seat=who, special=special, played=played),
                seat=m.seat, cards=(_name(m.action),), private=msg(
                    "{seat} used {special}: drew {drawn} and played {played}.", seat=who, special=special,
                    drawn=Words(tuple(_label(c) for c in m.drawn)), played=played))
        if m.via in TAKEOUT_IDS:
            key = (m.seat, m.via)
            flips[key] = flips.get(key, 0) + (flip_position(m.action) is not None)
        return None

    def _takeout(self, seat: int, via: int, count: int, col: Sequence[Played], number: int, turn: int) -> Line:
        special = label(PARTY_LABELS[PartyCard(via)])
        flipped = [p for p in col if p.kind == FACE_DOWN and p.uid not in self.face_down[seat]]
        if not count:
            return Line.saying("takeout_box", number, turn, msg("{seat} used {special} and flipped nothing.",
                                                              seat=Seat(seat), special=special), seat=seat)
        words: Param = Words(tuple(label(PARTY_LABELS[PartyCard(p.card)]) for p in flipped)) if flipped else \
            nmsg("{n} card", "{n} cards", count)
        return Line.saying("takeout_box", number, turn, msg(
            "{seat} used {special}: flipped {cards} face down (2 points each).", seat=Seat(seat), special=special,
            cards=words), seat=seat)

    def _round(self, number: int) -> list[Line]:
        game = self.game
        story = explain_party_round(game, number)
        points = [sum(b.values()) for b in game.round_breakdowns[number - 1]]
        lines = [scores_line(number, points)]
        lines += [Line.saying("round", number, None, Sentence(race)) for race in story.races]
        kept = [len(d) for d in game.desserts]
        item = game.rules.menu[-1]
        if any(kept) and number < 3:
            each = Words(tuple(msg("{seat} {n}", seat=Seat(s), n=n) for s, n in enumerate(kept)), listing=True)
            lines.append(Line.saying("round", number, None, msg(_DESSERT_WORDS[item], desserts=each)))
        return lines

    def _end(self) -> list[Line]:
        game = self.game
        result = game.result()
        figures = explain_desserts(game)
        lines = [Line.saying("game", 3, None, msg("{seat}: {figure}.", seat=Seat(s), figure=f.message), seat=s)
                 for s, f in enumerate(figures)]
        lines.append(winners_line(3, result.totals, result.winners, "dessert cards"))
        return lines


_DESSERT_WORDS = {"pudding": N_("Puddings kept for the end of the game: {desserts}."),
                  "green_tea_ice_cream": N_("Green tea ice creams kept for the end of the game: {desserts}."),
                  "fruit": N_("Fruit cards kept for the end of the game: {desserts}.")}
"""Each dessert's line at a round's end (whole sentences: each language words them its own way)."""


def _name(action: int) -> str:
    target = copy_target(action)
    if target is not None:
        return "special_order>" + ("face_down" if target[0] == FACE_DOWN else PartyCard(target[0]).name_in_records)
    return PartyCard(action).name_in_records
