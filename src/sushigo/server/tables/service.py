"""The table service: every live table of this server process, assembled from
its rooms (each a mixin of its own module over :class:`~.base.ServiceBase`)."""

from __future__ import annotations

from .decisions import Decisions
from .drivers import Drivers
from .frames import Publishing
from .jobs import Jobs
from .lifecycle import LifeCycle
from .lobby import Lobby
from .seats import Seats
from .talk import Talk


class TableService(LifeCycle, Seats, Drivers, Talk, Publishing, Decisions, Jobs, Lobby):
    """Every live table of this server process.

    Args:
        store: the database.
        prefix: this process's table-id prefix (``--shard``); it loads and
            creates only tables whose ids start with it.
        idle_limit: seconds without anything happening after which the
            janitor marks a waiting or playing table abandoned (7 days).
        away_after: seconds a seat's player must have been gone, while the
            table waits on it, before the others may hand the seat to a bot.
        janitor_every: seconds between the janitor's rounds.
        hint_seconds: how long a hint thinks at most (tables created with hints).
        analysis_workers: processes of the worker pool hints and game analyses are computed on.
        analysis_samples: playouts per legal action of a game analysis ("analyse my game").

    Its rooms: :class:`~.lifecycle.LifeCycle` (start, janitor, stop, restore),
    :class:`~.seats.Seats` (tables, seats, invites, watchers),
    :class:`~.drivers.Drivers` (bots, move timers, stand-ins),
    :class:`~.talk.Talk` (chat, mutes), :class:`~.frames.Publishing` (frames to
    the watchers), :class:`~.decisions.Decisions` (picks), :class:`~.jobs.Jobs`
    (hints, analyses) and :class:`~.lobby.Lobby` (listings, records).
    """
