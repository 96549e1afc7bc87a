"""What the lobby and the HTTP reads ask of any table, live here or only stored:
listings, summaries, rules and records."""

from __future__ import annotations

import asyncio
from typing import Any

from sushigo.engine.rules import Rules

from .base import ServiceBase
from .model import _rules_of, summary_of


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
        ``{"table": summary, "seats": [the seats it holds]}``."""
        found = await asyncio.to_thread(self.store.tables_of_account, account_id, statuses, limit)
        return [{"table": self.tables[item.id].summary() if item.id in self.tables else summary_of(item),
                 "seats": seats} for item, seats in found]

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
