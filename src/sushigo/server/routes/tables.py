"""The lobby's tables: create one, list them, read one (summary, rules,
record), and the creator's cancel and new invites (``docs/server.md``, "HTTP")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from sushigo.engine.guide import demonstrations, dishes, how_to_play, how_to_play_said
from sushigo.i18n import _l, _ln, message_of
from sushigo.server.protocol import CreateTable, ProtocolError, parse_create
from sushigo.server.routes.bodies import CancelBody, InviteBody, documented, read_limited
from sushigo.server.routes.deps import AddressOf, SiteOf
from sushigo.server.routes.errors import Refused
from sushigo.server.store import StoreError
from sushigo.server.tables import TableError

router = APIRouter()


@router.post("/api/tables", status_code=201, response_model=None, openapi_extra=documented(CreateTable))
async def create_table(request: Request, site: SiteOf, addr: AddressOf) -> dict[str, Any]:
    """Create a table (the body is :class:`~sushigo.server.protocol.CreateTable`)."""
    body = await read_limited(request, site.limits.max_body)
    now = site.tables_made.take(addr)  # before the await: concurrent requests count too
    if now is None:
        raise Refused(429, _ln("this address created {n} table in the last hour; try later",
                               "this address created {n} tables in the last hour; try later",
                               site.limits.tables_per_hour))
    try:
        table, tokens, creator = await site.service.create(parse_create(body), address=addr)
    except (ProtocolError, TableError) as e:
        site.tables_made.give_back(addr, now)
        raise Refused(400, message_of(e)) from None
    except StoreError as e:
        site.tables_made.give_back(addr, now)
        raise Refused(503, _l("the table could not be stored: {why}", why=str(e))) from None
    out_seats: list[dict[str, Any]] = []
    for s in table.seats:
        if s.kind == "human":
            out_seats.append({"seat": s.seat, "kind": "human", "invite": f"/t/{table.id}#seat={tokens[s.seat]}"})
        else:
            out_seats.append({"seat": s.seat, "kind": "bot", "bot": s.bot, "name": s.name})
    return {"id": table.id, "spectate": f"/t/{table.id}", "seats": out_seats, "creator": creator,
            "table": table.summary()}


@router.post("/api/tables/{table_id}/cancel", response_model=None, openapi_extra=documented(CancelBody))
async def cancel_table(table_id: str, body: Annotated[CancelBody, Depends(CancelBody.read)],
                       site: SiteOf) -> dict[str, Any]:
    table = await site.service.cancel(table_id[:64], body.creator)
    return table.summary()


@router.post("/api/tables/{table_id}/invite", response_model=None, openapi_extra=documented(InviteBody))
async def reinvite(table_id: str, body: Annotated[InviteBody, Depends(InviteBody.read)],
                   site: SiteOf) -> dict[str, Any]:
    table_id = table_id[:64]
    now = site.invites.take(table_id)  # before the await: concurrent requests count too
    if now is None:
        raise Refused(429, _ln("this table's creator made {n} new invite in the last hour; try later",
                               "this table's creator made {n} new invites in the last hour; try later",
                               site.limits.invites_per_hour))
    try:
        token = await site.service.reinvite(table_id, body.creator, body.seat)
    except TableError:
        site.invites.give_back(table_id, now)
        raise
    return {"seat": body.seat, "invite": f"/t/{table_id}#seat={token}"}


@router.get("/api/tables")
async def list_tables(site: SiteOf) -> dict[str, Any]:
    return {"tables": await site.service.listing()}


@router.get("/api/tables/{table_id}", response_model=None)
async def get_table(table_id: str, site: SiteOf) -> dict[str, Any]:
    summary = await site.service.summary(table_id[:64])
    if summary is None:
        raise Refused(404, _l("no table {id}", id=repr(table_id[:64])))
    return summary


@router.get("/api/tables/{table_id}/rules", response_model=None)
async def get_rules(table_id: str, site: SiteOf) -> dict[str, Any]:
    rules = await site.service.rules_of(table_id[:64])
    if rules is None:
        raise Refused(404, _l("no table {id}", id=repr(table_id[:64])))
    return {"edition": rules.edition, "how_to_play": how_to_play(rules),
            "how_to_play_msg": [m.to_json() for m in how_to_play_said(rules)],
            "dishes": [d.to_json() for d in dishes(rules)],
            "demonstrations": [d.to_json() for d in demonstrations(rules)]}


@router.get("/api/tables/{table_id}/record", response_model=None)
async def get_record(table_id: str, site: SiteOf) -> Response:
    summary = await site.service.summary(table_id[:64])
    if summary is None:
        raise Refused(404, _l("no table {id}", id=repr(table_id[:64])))
    if summary["status"] not in ("finished", "abandoned"):
        raise Refused(409, _l("the record is available once the game is over (it shows every hand)"))
    text = await site.service.record(table_id)
    if text is None:
        raise Refused(404, _l("this game has no stored record"))
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="sushigo-{table_id}.json"'})


__all__ = ["router"]
