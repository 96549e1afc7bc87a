"""Play now (docs/server.md, "Play now"): a queue per kind of game that seats
people together, by rating or in the order they came, and fills the seats
nobody takes with bots of a similar rating.

:mod:`.pairing` is the rule (who sits with whom, on plain values, and which
waiting bot accounts take a match's bot seats); :mod:`.queue` keeps the places
in the database, so that every server process of one site serves one queue,
and :mod:`.seating` seats each match at a new table;
:mod:`.challenges` keeps the challenges to bot accounts and seats the accepted ones.
"""

from __future__ import annotations

from .challenges import ChallengeError, Challenges
from .pairing import GATHER, Match, Waiting, pair, seat_bots, window
from .queue import BOT_ROSTER, CONFIRM_SECONDS, Joining, PlayNow, QueueError

__all__ = ["BOT_ROSTER", "CONFIRM_SECONDS", "GATHER", "ChallengeError", "Challenges", "Joining", "Match", "PlayNow",
           "QueueError", "Waiting", "pair", "seat_bots", "window"]
