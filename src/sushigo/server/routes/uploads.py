"""The replay viewer's uploaded game records: upload one, read its replay and
its record, and analyse it as a finished table's game (``docs/server.md``, "Replays")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from sushigo.i18n import _l, _ln, message_of
from sushigo.server.routes.bodies import SeatBody, documented, read_limited
from sushigo.server.routes.deps import AddressOf, Site, SiteOf, analysed_upload_seat, viewer
from sushigo.server.routes.errors import Refused
from sushigo.server.store import StoreError
from sushigo.server.tables import TableError

router = APIRouter()


async def uploaded(upload_id: str) -> str:
    """An upload's id: 20 lower-case hex digits (anything else is no upload: 404)."""
    if len(upload_id) != 20 or any(c not in "0123456789abcdef" for c in upload_id):
        raise Refused(404, _l("no uploaded record {id}", id=repr(upload_id[:64])))
    return upload_id


UploadOf = Annotated[str, Depends(uploaded)]

_RECORD_BODY = {"requestBody": {"required": True, "description": "a game record (docs/spec/game-record.md)",
                                "content": {"application/json": {"schema": {"type": "object"}}}}}


@router.post("/api/replays", status_code=201, response_model=None, openapi_extra=_RECORD_BODY)
async def upload_record(request: Request, site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    """Check a complete game's record move by move and keep it; the body is the record."""
    body = await read_limited(request, site.limits.max_record)
    now = site.uploads.take(addr)
    if now is None:
        raise Refused(429, _ln("this address uploaded {n} record in the last hour; try later",
                               "this address uploaded {n} records in the last hour; try later",
                               site.limits.uploads_per_hour))
    try:
        _rid, summary = await site.replays.upload(body)
    except TableError as e:
        site.uploads.give_back(addr, now)
        raise Refused(400, message_of(e)) from None
    except StoreError as e:
        site.uploads.give_back(addr, now)
        raise Refused(503, _l("the record could not be stored: {why}", why=str(e))) from None
    return summary


@router.get("/api/replays/{upload_id}", response_model=None)
async def upload_replay(rid: UploadOf, seat: Annotated[int | None, Depends(viewer)], site: SiteOf,
                        addr: AddressOf) -> dict[str, Any]:
    return await site.replays.of_upload(rid, seat, site.charge(addr))


@router.get("/api/replays/{upload_id}/record", response_model=None)
async def upload_record_text(rid: UploadOf, site: SiteOf) -> Response:
    text = await site.replays.record(rid)
    if text is None:
        raise Refused(404, _l("no uploaded record {id}", id=repr(rid)))
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="sushigo-{rid}.json"'})


async def _analysis(site: Site, rid: str, seat: int, *, start: bool, address: str = "") -> dict[str, Any]:
    job = await site.replays.upload_analysis(rid, seat, start=start, address=address)
    if job is None:
        return {"table": None, "upload": rid, "seat": seat, "status": "none", "done": 0, "total": 0,
                "analysis": None}
    return {**job.to_json(), "table": None, "upload": rid}


@router.get("/api/replays/{upload_id}/analysis", response_model=None)
async def get_upload_analysis(rid: UploadOf, seat: Annotated[int, Depends(analysed_upload_seat)],
                              site: SiteOf) -> dict[str, Any]:
    return await _analysis(site, rid, seat, start=False)


@router.post("/api/replays/{upload_id}/analysis", status_code=202, response_model=None,
             openapi_extra=documented(SeatBody))
async def start_upload_analysis(body: Annotated[SeatBody, Depends(SeatBody.read)], rid: UploadOf, site: SiteOf,
                                addr: AddressOf) -> dict[str, Any]:
    return await _analysis(site, rid, body.seat, start=True, address=addr)


__all__ = ["router", "uploaded"]
