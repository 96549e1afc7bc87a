"""What the watchers are sent, each as its seat may see it: the parts of an
event (``state``, ``progress``, ``log``, ``ack``: :class:`Part`, one per seat
and moment, encoded once), delivered to each socket as one ``update`` frame
(protocol version 3) or a frame per part (versions 1 and 2) by :class:`Outgoing`;
and the ``seats`` frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from sushigo.engine.narration import lines_seen_by
from sushigo.server.protocol import UPDATES, VERSION, dump, encode

from .base import ServiceBase
from .model import CANCELLED, WAITING, Connection, LiveTable

_UPDATE: Final = f'{{"type":"update","v":{VERSION},'


class Part:
    """One part of what an event tells a socket: a message of type ``kind``
    (``state``, ``progress``, ``log`` or ``ack``), its JSON encoded once for
    every socket it goes to."""

    __slots__ = ("_frame", "body", "kind")

    def __init__(self, kind: str, message: dict[str, Any]) -> None:
        self.kind = kind
        self.body = encode(message)
        """The message's JSON without ``type`` and ``v``: its value in an ``update``."""
        self._frame: str | None = None

    def frame(self) -> str:
        """The part as a frame of its own (protocol versions 1 and 2): the same
        object with ``type`` and ``v`` (the body is a non-empty object)."""
        if self._frame is None:
            self._frame = f'{{"type":"{self.kind}","v":{VERSION},{self.body[1:]}'
        return self._frame


class Outgoing:
    """The parts one event sends, per socket, then sent: to a socket of protocol
    version 3 one ``update`` frame holding every part (``{"type": "update",
    "log": ..., "state": ..., "ack": ...}``, each the message of that type less
    ``type`` and ``v``); to one of versions 1 and 2 a frame per part, in the
    order added."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: dict[Connection, list[Part]] = {}

    def add(self, conn: Connection, part: Part) -> None:
        parts = self.parts.get(conn)
        if parts is None:
            self.parts[conn] = [part]
        else:
            parts.append(part)

    def send(self) -> None:
        for conn, parts in self.parts.items():
            if conn.version >= UPDATES:
                conn.send(_UPDATE + ",".join(['"' + p.kind + '":' + p.body for p in parts]) + "}")
            else:
                for part in parts:
                    conn.send(part.frame())
        self.parts = {}


class StateFrames:
    """The ``state`` parts of one moment of a table, for any seat: the
    table's summary is built once, each seat's view is the engine's view
    document (:meth:`~sushigo.engine.editions.Edition.view_documents`, which
    builds what the seats share once) as it is.

    Valid while the table does not change: make one per publish.
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self._parts: dict[int | None, Part] = {}
        self._summary: Any = None
        self._documents: Callable[[int | None], dict[str, Any]] | None = None

    def part(self, seat: int | None) -> Part:
        """The ``state`` for ``seat`` (``None``: a spectator)."""
        part = self._parts.get(seat)
        if part is None:
            table = self.table
            if self._summary is None:
                self._summary = table.summary()
            deadline = round(table.deadlines[seat][1], 3) if seat is not None and seat in table.deadlines else None
            view = None
            if table.status not in (WAITING, CANCELLED):
                if seat is not None and not 0 <= seat < table.rules.players:
                    raise ValueError(f"there is no seat {seat}")
                if self._documents is None:
                    self._documents = table.edition.view_documents(table.game, table.explained, kept=table.kept)
                view = self._documents(seat)
            part = self._parts[seat] = Part("state", {
                "seq": table.public_seq, "status": table.status, "seat": seat, "table": self._summary,
                "view": view, "deadline": deadline})
        return part

    def text(self, seat: int | None) -> str:
        """The ``state`` frame for ``seat`` as protocol versions 1 and 2 send it."""
        return self.part(seat).frame()


class Publishing(ServiceBase):
    """Tell every watcher what changed, each as its seat may see it."""

    def _log_part(self, table: LiveTable, seat: int | None, start: int) -> Part:
        """The ``log`` with the lines from ``start`` on, as ``seat`` may read them."""
        return Part("log", {"from": start, "lines": lines_seen_by(table.log[start:], seat)})

    def _add_log(self, table: LiveTable, out: Outgoing) -> None:
        """Add the lines every watcher has not been sent (one part per seat that reads a line of its own)."""
        start = table.log_sent
        if start >= len(table.log):
            return
        table.log_sent = len(table.log)
        private = {line.seat for line in table.log[start:] if line.private is not None}
        cache: dict[int | None, Part] = {}
        for conn in table.connections:
            key = conn.seat if conn.seat in private else None
            part = cache.get(key)
            if part is None:
                part = cache[key] = self._log_part(table, key, start)
            out.add(conn, part)

    def _publish_log(self, table: LiveTable) -> None:
        """Send every watcher the log lines it has not been sent."""
        out = Outgoing()
        self._add_log(table, out)
        out.send()

    def broadcast_seats(self, table: LiveTable) -> None:
        text = dump({"type": "seats", "seats": [s.to_json() for s in table.seats],
                     "watching": sum(1 for c in table.connections if c.seat is None)})
        for conn in table.connections:
            conn.send(text)

    def acknowledge(self, conn: Connection, seq: int, action: int | None) -> None:
        """Tell ``conn`` its decision is stored, when no publish carried the ``ack``."""
        out = Outgoing()
        out.add(conn, Part("ack", {"seq": seq, "action": action}))
        out.send()

    def join(self, table: LiveTable, conn: Connection) -> None:
        """Send a socket that joins the table its ``state`` and the whole log (one ``update``)."""
        out = Outgoing()
        out.add(conn, StateFrames(table).part(conn.seat))
        if table.log:
            out.add(conn, self._log_part(table, conn.seat, 0))
        out.send()

    def _publish(self, table: LiveTable) -> None:
        """Tell every watcher what changed, in one update each: the new log lines, then a
        full state if anything visible moved (else progress), then the acks of the
        decisions it shows."""
        out = Outgoing()
        self._add_log(table, out)
        game = table.game
        picked = tuple(game.has_committed(s) for s in range(game.players))
        if table.moved:
            table.moved = False
            table.refresh.clear()
            table.picked_told = picked
            frames = StateFrames(table)
            for conn in table.connections:
                out.add(conn, frames.part(conn.seat))
        else:
            # a hidden pick changed for another: the others are told only when
            # who has picked changed (a change of mind tells them nothing)
            progress = None
            if picked != table.picked_told:
                table.picked_told = picked
                progress = Part("progress", {"seq": table.public_seq, "picked": list(picked)})
            frames = StateFrames(table)
            # keyed by seat like conn.seat, which is None for a watcher without a seat
            own: dict[int | None, Part] = {seat: frames.part(seat) for seat in table.refresh}
            table.refresh.clear()
            for conn in table.connections:
                part = own.get(conn.seat, progress)
                if part is not None:
                    out.add(conn, part)
        if table.acks:
            for conn, (seq, action) in table.acks.items():
                if conn in table.connections:
                    out.add(conn, Part("ack", {"seq": seq, "action": action}))
            table.acks.clear()
        out.send()
