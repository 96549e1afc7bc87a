"""What the lobby and the HTTP reads ask of any table, live here or only stored:
listings, summaries, rules and records."""

from __future__ import annotations

import asyncio
from typing import Any

from sushigo.engine.rules import Rules

from .base import ServiceBase
from .model import PLAYING, _rules_of, summary_of


class Lobby(ServiceBase):
    """Tables as the lobby lists them, their rules and their records."""

    async def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        """Summaries of the newest tables (from the database, so every process's tables show)."""
        loaded = await asyncio.to_thread(self.store.summaries, limit)
        out = []
        for item in loaded:
            if item.id in self.tables:
                summary = self.tables[item.id].summary()
                for seat, row in zip(summary["seats"], item.seats):  # the ratings as stored now
                    if seat["account"] is not None and seat["account"] == row.account_name:
                        seat["rating"] = row.rating
            else:
                summary = summary_of(item)
            out.append(summary)
        return out

    async def tables_of_account(self, account_id: str, statuses: tuple[str, ...],
                                limit: int = 200) -> list[dict[str, Any]]:
        """The newest tables of ``statuses`` where the account holds a seat: each
        ``{"table": summary, "seats": [the seats it holds], "your_turn": the seats of them the
        game waits on}`` (``your_turn`` is ``None`` for a table this process does not run)."""
        found = await asyncio.to_thread(self.store.tables_of_account, account_id, statuses, limit)
        out = []
        for item, seats in found:
            live = self.tables.get(item.id)
            waiting = None
            if live is not None:
                game = live.game
                waiting = [s for s in seats if live.status == PLAYING and s in game.pending_seats
                           and not game.has_committed(s)]
            out.append({"table": live.summary() if live is not None else summary_of(item), "seats": seats,
                        "your_turn": waiting})
        return out

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        if table_id in self.tables:
            return self.tables[table_id].summary()
        loaded = await asyncio.to_thread(self.store.load, table_id=table_id)
        return summary_of(loaded[0]) if loaded else None

    async def rules_of(self, table_id: str) -> Rules | None:
        """The rules a table is played with (``None``: no such table)."""
        if table_id in self.tables:
            return self.tables[table_id].rules
        loaded = await asyncio.to_thread(self.store.load, table_id=table_id)
        return _rules_of(loaded[0].row) if loaded else None

    async def record(self, table_id: str) -> str | None:
        """The table's stored record, as it is stored (``None``: no such table, or not ended)."""
        return await asyncio.to_thread(self.store.record, table_id)
