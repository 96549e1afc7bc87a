"""A finished table's game: its analyses ("Analyse my game") and its replay
as one seat or a spectator saw it (``docs/server.md``, "Replays" and "Analyses")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from sushigo.server.routes.bodies import SeatBody, documented
from sushigo.server.routes.deps import AddressOf, SiteOf, analysed_seat, viewer
from sushigo.server.tables import TableService

router = APIRouter()


async def _analysis(service: TableService, table_id: str, seat: int, *, start: bool,
                    address: str = "") -> dict[str, Any]:
    job = await service.analysis(table_id, seat, start=start, address=address)
    if job is None:
        return {"table": table_id, "seat": seat, "status": "none", "done": 0, "total": 0, "analysis": None}
    return job.to_json()


@router.get("/api/tables/{table_id}/analysis", response_model=None)
async def get_analysis(table_id: str, seat: Annotated[int, Depends(analysed_seat)], site: SiteOf) -> dict[str, Any]:
    return await _analysis(site.service, table_id[:64], seat, start=False)


@router.post("/api/tables/{table_id}/analysis", status_code=202, response_model=None,
             openapi_extra=documented(SeatBody))
async def start_analysis(table_id: str, body: Annotated[SeatBody, Depends(SeatBody.read)], site: SiteOf,
                         addr: AddressOf) -> dict[str, Any]:
    return await _analysis(site.service, table_id[:64], body.seat, start=True, address=addr)


@router.get("/api/tables/{table_id}/replay", response_model=None)
async def table_replay(table_id: str, seat: Annotated[int | None, Depends(viewer)], site: SiteOf,
                       addr: AddressOf) -> dict[str, Any]:
    return await site.replays.of_table(table_id[:64], seat, site.charge(addr))


__all__ = ["router"]
