"""Live tables: the games a server runs, their seats, bots, timers and watchers.

This is the server's domain layer, independent of HTTP: :class:`TableService`
creates tables, seats players by token, takes decisions, persists every one
through the group-commit :class:`~sushigo.server.writer.Writer` *before*
acknowledging it, and tells every connection what its seat may see.  Hidden
information is handled only by :mod:`sushigo.engine.base.view` and
:mod:`sushigo.engine.party.view`: a connection receives the view of its own seat
(or the spectators' view) and nothing else.

Numbering: ``seq`` counts the game's stored decisions.  Each seat's current
decision *opened* at some ``seq``; a pick that carries an older ``seq`` was
made on a state from before that decision and is refused as stale.

The package, room by room: :mod:`~.model` (tables, seats, statuses, limits,
stored rows), :mod:`~.base` (the service's shared state), the rooms
:mod:`~.lifecycle`, :mod:`~.seats`, :mod:`~.drivers`, :mod:`~.talk`,
:mod:`~.frames`, :mod:`~.decisions`, :mod:`~.jobs`, :mod:`~.lobby`, and
:mod:`~.service`, which assembles :class:`TableService` from them.
"""

from __future__ import annotations

from .frames import StateFrames
from .model import (
    ABANDONED,
    ANALYSES_PER_ADDRESS,
    ANALYSIS_QUEUE,
    ANALYSIS_SEED,
    BOT_DEADLINE,
    BOT_LIMITS,
    BOT_THREADS,
    CANCELLED,
    CHANGE,
    CHAT_RATE,
    FINISHED,
    HINT_QUEUE,
    HINT_SECONDS,
    HINTS_PER_ADDRESS,
    PLAYING,
    SEAT_TAKEN,
    SERVER_SETTINGS,
    STAND_IN,
    WAITING,
    WITHDRAW,
    AnalysisJob,
    Connection,
    LiveTable,
    Seat,
    TableError,
    _rules_of,
    hash_token,
    name_bots,
    summary_of,
)
from .service import TableService

__all__ = [
    "ABANDONED", "ANALYSES_PER_ADDRESS", "ANALYSIS_QUEUE", "ANALYSIS_SEED", "BOT_DEADLINE", "BOT_LIMITS",
    "BOT_THREADS", "CANCELLED", "CHANGE", "CHAT_RATE", "FINISHED", "HINTS_PER_ADDRESS", "HINT_QUEUE",
    "HINT_SECONDS", "PLAYING", "SEAT_TAKEN", "SERVER_SETTINGS", "STAND_IN", "WAITING", "WITHDRAW",
    "AnalysisJob", "Connection", "LiveTable", "Seat", "StateFrames", "TableError", "TableService",
    "_rules_of", "hash_token", "name_bots", "summary_of",
]
