"""What the seats say: chat messages and reactions (rate-limited, stored first),
mutes, and the server's own lines in the log (a seat leaving, returning,
claimed with a new invite)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sushigo.engine.messages import Message
from sushigo.engine.narration import Line
from sushigo.i18n import _l, _ln
from sushigo.server.protocol import REACTIONS, clean_chat, dump
from sushigo.server.store import HappeningRow, StoreError

from .base import ServiceBase
from .model import CHAT_RATE, PLAYING, LiveTable, TableError, _check_open


class Talk(ServiceBase):
    """Chat, reactions, mutes and the server's own log lines."""

    def talk_seen_by(self, table: LiveTable, seat: int | None, rows: Sequence[HappeningRow] | None = None
                     ) -> list[dict[str, Any]]:
        """The chat messages and reactions ``seat`` may read (``None``: a spectator)."""
        if seat is None and not table.chat_spectators:
            return []
        muted = table.mutes.get(seat, set()) if seat is not None else set()
        return [_talk_json(h) for h in (table.talk if rows is None else rows) if h.seat not in muted]

    async def say(self, table: LiveTable, seat: int | None, *, text: str | None = None,
                  reaction: str | None = None) -> None:
        """A chat message or a reaction from ``seat`` (stored first, then sent to whoever may read it)."""
        if not table.chat:
            raise TableError("no_chat", _l("this table was created without chat"))
        if seat is None:
            raise TableError("not_seated", _l("spectators cannot chat"))
        _check_open(table, "chat")
        now = time.time()
        most, window = CHAT_RATE
        recent = [t for t in table.said.get(seat, []) if now - t < window]
        if len(recent) >= most:
            raise TableError("chat_rate", _ln("at most {n} message in {seconds} seconds; wait a moment",
                                                 "at most {n} messages in {seconds} seconds; wait a moment", most,
                                                 seconds=f"{window:g}"))
        if reaction is not None:
            if reaction not in REACTIONS:
                raise TableError("bad_message", _l("unknown reaction {reaction} (one of {reactions})",
                                                   reaction=repr(reaction[:20]), reactions=", ".join(REACTIONS)))
            kind, data = "react", {"reaction": reaction}
        else:
            kind, data = "chat", {"text": clean_chat(text or "")}
        recent.append(now)
        table.said[seat] = recent
        row, stored = self._happening(table, kind, seat, data, now)
        try:
            await stored
        except StoreError:
            raise TableError("server_error", _l("the message could not be stored; try again")) from None
        table.talk.append(row)
        message = dump({"type": "chat", "messages": [_talk_json(row)]})
        for conn in table.connections:
            if conn.seat is None and not table.chat_spectators:
                continue
            if conn.seat is not None and seat in table.mutes.get(conn.seat, ()):
                continue
            conn.send(message)

    async def mute(self, table: LiveTable, seat: int | None, other: int, muted: bool) -> None:
        """``seat`` stops (or starts again) reading ``other``'s chat (stored first)."""
        if seat is None:
            raise TableError("not_seated", _l("spectators cannot mute"))
        _check_open(table, "chat")
        if not 0 <= other < len(table.seats) or other == seat:
            raise TableError("bad_message", _l("seat {seat} is not another seat of this table", seat=str(other)))
        try:
            await self._happening(table, "mute", seat, {"seat": other, "muted": muted})[1]
        except StoreError:
            raise TableError("server_error", _l("the mute could not be stored; try again")) from None
        mutes = table.mutes.setdefault(seat, set())
        (mutes.add if muted else mutes.discard)(other)
        text = dump({"type": "muted", "seats": sorted(mutes)})
        for conn in table.connections_of(seat):
            conn.send(text)

    def _tell(self, table: LiveTable, kind: str, said: Message, seat: int) -> None:
        """Add a line of the server's own (a seat leaving or returning) and send it, while the game is on."""
        if table.status != PLAYING:
            return
        game = table.game
        table.log.append(Line.saying(kind, game.round, None if game.is_over else game.turn, said, seat=seat))
        self._publish_log(table)


def _talk_json(h: HappeningRow) -> dict[str, Any]:
    out: dict[str, Any] = {"n": h.n, "seat": h.seat, "kind": "reaction" if h.kind == "react" else "text",
                           "at": round(h.at, 3)}
    if h.kind == "react":
        out["reaction"] = h.data["reaction"]
        out["text"] = REACTIONS.get(h.data["reaction"], h.data["reaction"])
    else:
        out["text"] = h.data["text"]
    return out
