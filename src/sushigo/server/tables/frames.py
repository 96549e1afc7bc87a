"""What the watchers are sent: ``state`` frames (:class:`StateFrames`, one per
seat and moment), ``progress``, ``seats`` and ``log`` frames."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sushigo.engine.narration import lines_seen_by
from sushigo.server.protocol import dump

from .base import ServiceBase
from .model import CANCELLED, WAITING, LiveTable


class StateFrames:
    """The ``state`` frames of one moment of a table, for any seat: the
    table's summary is encoded once, each seat's view is the engine's view
    document (:meth:`~sushigo.engine.editions.Edition.view_documents`, which
    builds what the seats share once) as it is.

    Valid while the table does not change: make one per publish.
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self._texts: dict[int | None, str] = {}
        self._summary: Any = None
        self._documents: Callable[[int | None], dict[str, Any]] | None = None

    def text(self, seat: int | None) -> str:
        """The ``state`` frame for ``seat`` (``None``: a spectator)."""
        text = self._texts.get(seat)
        if text is None:
            table = self.table
            if self._summary is None:
                self._summary = table.summary()
            deadline = round(table.deadlines[seat][1], 3) if seat is not None and seat in table.deadlines else None
            view = None
            if table.status not in (WAITING, CANCELLED):
                if seat is not None and not 0 <= seat < table.rules.players:
                    raise ValueError(f"there is no seat {seat}")
                if self._documents is None:
                    self._documents = table.edition.view_documents(table.game, table.explained)
                view = self._documents(seat)
            text = self._texts[seat] = dump({"type": "state", "seq": table.public_seq, "status": table.status,
                                             "seat": seat, "table": self._summary, "view": view,
                                             "deadline": deadline})
        return text


class Publishing(ServiceBase):
    """Tell every watcher what changed, each as its seat may see it."""

    def log_message(self, table: LiveTable, seat: int | None, start: int) -> str:
        """The ``log`` frame with the lines from ``start`` on, as ``seat`` may read them."""
        return dump({"type": "log", "from": start, "lines": lines_seen_by(table.log[start:], seat)})

    def _publish_log(self, table: LiveTable) -> None:
        """Send every watcher the lines it has not been sent (one text per seat that reads a line of its own)."""
        start = table.log_sent
        if start >= len(table.log):
            return
        table.log_sent = len(table.log)
        private = {line.seat for line in table.log[start:] if line.private is not None}
        cache: dict[int | None, str] = {}
        for conn in table.connections:
            key = conn.seat if conn.seat in private else None
            text = cache.get(key)
            if text is None:
                text = cache[key] = self.log_message(table, key, start)
            conn.send(text)

    def broadcast_seats(self, table: LiveTable) -> None:
        text = dump({"type": "seats", "seats": [s.to_json() for s in table.seats],
                     "watching": sum(1 for c in table.connections if c.seat is None)})
        for conn in table.connections:
            conn.send(text)

    def state_message(self, table: LiveTable, seat: int | None) -> str:
        """The complete ``state`` frame for ``seat`` (``None``: spectator)."""
        return StateFrames(table).text(seat)

    def _publish(self, table: LiveTable) -> None:
        """Tell every watcher what changed: the new log lines, then a full state
        if anything visible moved, else progress."""
        self._publish_log(table)
        game = table.game
        picked = tuple(game.has_committed(s) for s in range(game.players))
        if table.moved:
            table.moved = False
            table.refresh.clear()
            table.picked_told = picked
            frames = StateFrames(table)
            for conn in table.connections:
                conn.send(frames.text(conn.seat))
        else:
            # a hidden pick changed for another: the others are told only when
            # who has picked changed (a change of mind tells them nothing)
            text = None
            if picked != table.picked_told:
                table.picked_told = picked
                text = dump({"type": "progress", "seq": table.public_seq, "picked": list(picked)})
            frames = StateFrames(table)
            # keyed by seat like conn.seat, which is None for a watcher without a seat
            own: dict[int | None, str] = {seat: frames.text(seat) for seat in table.refresh}
            table.refresh.clear()
            for conn in table.connections:
                frame = own.get(conn.seat, text)
                if frame is not None:
                    conn.send(frame)
