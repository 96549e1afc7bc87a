"""The story of a game in lines: what each turn revealed and what happened after.

A :class:`Line` is one sentence of a game's log: a seat's cards at a reveal
(a chopsticks pair as both cards, in play order), a Party special's effect, a
round's scores, the end of the game.  Seat names are not the engine's
business: a line's ``text`` marks seat ``n`` as ``{n}``, and each front end
puts in its own names (:meth:`Line.render`).  The terminal games and the
browser table tell a game with these lines, so neither re-implements a rule.

Every line is public (all of it happened face up) except where ``private``
is set: the same line as its own ``seat`` may read it (for example which
four cards a menu drew).  :func:`lines_seen_by` is the one place that
decides which text a seat receives.

The narrators live with their editions: :mod:`sushigo.engine.base.narration`
and :mod:`sushigo.engine.party.narration`; :func:`sushigo.engine.editions.narrator`
picks one.

>>> line = Line("pick", 1, 3, "{0} used chopsticks to play Wasabi, then Squid nigiri on it.", seat=0,
...             cards=("wasabi", "squid"))
>>> line.render(["Ana", "Ben"])
'Ana used chopsticks to play Wasabi, then Squid nigiri on it.'
>>> secret = Line("menu", 1, 4, "{1} used Menu 7: drew 4 cards and played Eel.", seat=1,
...               private="{1} used Menu 7: drew Eel, Tofu, Tea and Egg nigiri and played Eel.")
>>> [d["text"] for d in lines_seen_by([secret], 0)]
['{1} used Menu 7: drew 4 cards and played Eel.']
>>> [d["text"] for d in lines_seen_by([secret], 1)]
['{1} used Menu 7: drew Eel, Tofu, Tea and Egg nigiri and played Eel.']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sushigo.engine.messages import Said, Seat, Words, as_json, msg, render

_SEAT: re.Pattern[str] = re.compile(r"\{(\d+)\}")


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence of a game's story."""

    kind: str
    """``pick``, ``chopsticks``, ``spoon``, ``menu``, ``takeout_box``, ``miso_soup``,
    ``uramaki``, ``round``, ``game``; front ends add their own (``timer``, ``away``, ``back``)."""
    round: int
    turn: int | None
    """The turn it happened in (``None`` for a round's or the game's end)."""
    text: str
    """The sentence; ``{n}`` stands for seat ``n``'s name."""
    seat: int | None = None
    """The seat it is about, if one."""
    cards: tuple[str, ...] = ()
    """The cards it shows being played, in play order (record names)."""
    private: str | None = None
    """The text as ``seat`` itself may read it, when it knows more than the others."""
    message: Said | None = None
    """The sentence as a message id with parameters (:mod:`sushigo.engine.messages`), which
    ``text`` is in English: what a front end renders in another language."""

    private_message: Said | None = None
    """``private`` as a message."""

    @classmethod
    def saying(cls, kind: str, round: int, turn: int | None, message: Said, seat: int | None = None,
               cards: tuple[str, ...] = (), private: Said | None = None) -> Line:
        """The line that says ``message`` (its ``text``: the message in English, seats as ``{n}``;
        ``private``: what its own seat reads instead)."""
        return cls(kind, round, turn, render(message), seat, cards, None if private is None else render(private),
                   message, private)

    def text_for(self, seat: int | None) -> str:
        """The sentence as ``seat`` (``None``: a spectator) may read it: the private
        text for the line's own seat, the public one for everyone else."""
        return self.private if self.private is not None and seat is not None and seat == self.seat else self.text

    def message_for(self, seat: int | None) -> Said | None:
        """The message as ``seat`` (``None``: a spectator) may read it (as :meth:`text_for`)."""
        return (self.private_message if self.private_message is not None and seat is not None and seat == self.seat
                else self.message)

    def render(self, names: Sequence[str], seat: int | None = None) -> str:
        """The sentence with names put in, as ``seat`` (``None``: anyone) may read it."""
        return _SEAT.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0),
                         self.text_for(seat))

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The line as ``seat`` (``None``: a spectator) receives it: ``kind``,
        ``round``, ``turn``, ``seat``, ``cards``, ``text`` (never ``private``) and ``msg``,
        the text as a message (:func:`~sushigo.engine.messages.as_json`) for front ends
        that write it in another language."""
        out = {"kind": self.kind, "round": self.round, "turn": self.turn, "seat": self.seat,
               "cards": list(self.cards), "text": self.text_for(seat)}
        said = self.message_for(seat)
        if said is not None:
            out["msg"] = as_json(said)
        return out


def lines_seen_by(lines: Sequence[Line], seat: int | None) -> list[dict[str, Any]]:
    """The lines as ``seat`` (``None``: a spectator) may read them (:meth:`Line.to_json`)."""
    return [line.to_json(seat) for line in lines]


class Narrator(Protocol):
    """Follows one game: after each decision, :meth:`update` returns the lines
    of whatever finished (a turn, a round, the game) since the last call."""

    def update(self) -> list[Line]:
        """The new lines (none while a turn is still being decided)."""
        ...


def scores_line(round_number: int, points: Sequence[int]) -> Line:
    """A round's points per seat in one line.

    >>> scores_line(2, [12, 8]).text
    'Round 2 scored: {0} 12, {1} 8.'
    """
    each = Words(tuple(msg("{seat} {points}", seat=Seat(s), points=p) for s, p in enumerate(points)), listing=True)
    return Line.saying("round", round_number, None, msg("Round {round} scored: {scores}.", round=round_number,
                                                      scores=each))


def winners_line(round_number: int, totals: Sequence[int], winners: Sequence[int], tiebreak: str) -> Line:
    """Who won and, when the points tied, what decided it (``tiebreak``: ``puddings``
    or ``dessert cards``, what breaks ties).

    >>> winners_line(3, [40, 40, 12], [1], "puddings").text
    '{0} and {1} tied on 40 points; the tie goes to the most puddings: {1} wins.'
    >>> winners_line(3, [40, 40, 12], [0, 1], "puddings").text
    '{0} and {1} share the win with 40 points (tied on puddings too).'
    """
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    pudding = tiebreak == "puddings"
    if len(winners) > 1:
        said = (msg("{seats} share the win with {points} points (tied on puddings too).",
                    seats=seats_said(winners), points=best) if pudding else
                msg("{seats} share the win with {points} points (tied on dessert cards too).",
                    seats=seats_said(winners), points=best))
    elif len(tied) > 1:
        said = (msg("{seats} tied on {points} points; the tie goes to the most puddings: {winner} wins.",
                    seats=seats_said(tied), points=best, winner=Seat(winners[0])) if pudding else
                msg("{seats} tied on {points} points; the tie goes to the most dessert cards: {winner} wins.",
                    seats=seats_said(tied), points=best, winner=Seat(winners[0])))
    else:
        said = msg("{seat} wins with {points} points.", seat=Seat(winners[0]), points=best)
    return Line.saying("game", round_number, None, said)


def seats_said(seats: Sequence[int]) -> Words:
    """Seats joined in words, as a message parameter (``{0}, {2} and {3}`` in English)."""
    return Words(tuple(Seat(s) for s in seats))
