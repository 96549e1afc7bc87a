"""What the create form offers (``/api/options``) and this process's counters (``/api/stats``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from sushigo.bots import BOTS
from sushigo.engine.flags import DEFAULT_MENU
from sushigo.engine.menus import MENU_ITEMS, OFFICIAL_MENUS
from sushigo.engine.rules import RULE_OPTIONS
from sushigo.server.protocol import MAX_CHAT, MAX_NAME, PROTOCOL, REACTIONS, TIMER_RANGE, TURN_HOURS
from sushigo.server.routes.deps import SiteOf

router = APIRouter()


@router.get("/api/options")
async def options(site: SiteOf) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL,
        "bots": sorted(BOTS),
        "menus": {name: list(items) for name, items in OFFICIAL_MENUS.items()},
        "default_menu": DEFAULT_MENU,
        "menu_items": list(MENU_ITEMS),
        "editions": {"base": [2, 5], "party": [2, 8]},
        "rule_options": [o.to_json() for o in RULE_OPTIONS],
        "max_name": MAX_NAME,
        "timer": list(TIMER_RANGE),
        "turn_hours": list(TURN_HOURS),
        "max_chat": MAX_CHAT,
        "reactions": REACTIONS,
        "away_after": site.service.away_after,
        "idle_limit": site.service.idle_limit,
    }


@router.get("/api/stats")
async def stats(site: SiteOf) -> dict[str, Any]:
    """Counters of this process since it started (for operators and the load benchmark)."""
    service = site.service
    return {
        "tables_in_memory": len(service.tables),
        "connections": sum(len(t.connections) for t in service.tables.values()),
        "decisions": service.picks,
        "write_batches": service.writer.batches,
        "writes": service.writer.ops,
        "database": service.store.kind,
    }


__all__ = ["router"]
