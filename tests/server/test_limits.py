"""The per-address limits that protect everyone else (docs/server.md, "Limits"),
under concurrent requests: replay documents, game analyses, hints."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx

from sushigo.bots import make_bot
from sushigo.bots.base import play_game
from sushigo.engine.editions import to_record
from sushigo.engine.records import dumps
from sushigo.server.app import Limits, create_app
from sushigo.server.protocol import parse_create
from sushigo.server.store import Store
from sushigo.server.tables import ANALYSES_PER_ADDRESS, HINTS_PER_ADDRESS, TableError, TableService

from .test_tables import Watcher


def _record(players: int = 2) -> bytes:
    game = play_game([make_bot("greedy", s) for s in range(players)], seed=3)
    return dumps(to_record(game)).encode()


def test_replay_documents_per_minute_hold_under_a_burst_and_cached_ones_are_free(tmp_path: Path) -> None:
    """Five documents a minute per address: a burst of six new ones (a 5-player
    game's seats and its spectator) computes five; one computed before is free."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.create_schema()
    app = create_app(store=store, limits=Limits(replays_per_minute=5))

    async def main() -> None:
        async with app.router.lifespan_context(app):
            one = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
            other = httpx.ASGITransport(app=app, client=("198.51.100.7", 4000))
            async with httpx.AsyncClient(transport=one, base_url="http://testserver") as c, \
                    httpx.AsyncClient(transport=other, base_url="http://testserver") as d:
                r = await c.post("/api/replays", content=_record(5))
                assert r.status_code == 201, r.text
                rid = r.json()["id"]
                asked = [f"/api/replays/{rid}?seat={s}" for s in range(5)] + [f"/api/replays/{rid}"]
                answers = await asyncio.gather(*(c.get(url) for url in asked))
                codes = [a.status_code for a in answers]
                assert sorted(codes) == [200] * 5 + [429], codes
                refused = asked[codes.index(429)]
                error = answers[codes.index(429)].json()
                assert set(error) == {"error"} and "\n" not in error["error"]
                for url, code in zip(asked, codes, strict=True):  # computed before: free, however often
                    if code == 200:
                        assert (await c.get(url)).status_code == 200
                assert (await c.get(refused)).status_code == 429
                # another address is not held by this one's limit
                assert (await d.get(refused)).status_code == 200

    asyncio.run(main())
    store.close()


def test_one_address_cannot_fill_the_analysis_queue(tmp_path: Path) -> None:
    """Analyses are asked for at once by one address: one is queued, the others
    refused (rate_limited), and another address still gets its own."""
    record = _record().decode()

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
        service = TableService(store, analysis_samples=2)
        await service.start()

        async def read() -> str:
            return record

        try:
            # all at once: the first job is counted before its record is read, and is
            # waiting or running (on the worker pool) while the others are asked for
            asked = [service.record_analysis(f"upload/{k}", 2, 0, read, start=True, address="203.0.113.9")
                     for k in range(4)]
            asked.append(service.record_analysis("upload/x", 2, 0, read, start=True, address="198.51.100.7"))
            got = await asyncio.gather(*asked, return_exceptions=True)
            jobs = [g for g in got[:4] if not isinstance(g, BaseException)]
            refused = [g for g in got[:4] if isinstance(g, TableError)]
            assert len(jobs) == ANALYSES_PER_ADDRESS and {e.code for e in refused} == {"rate_limited"}
            assert not isinstance(got[4], BaseException)
        finally:
            await service.stop()
            store.close()

    asyncio.run(main())


def test_one_address_tables_cannot_take_every_hint(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
        service = TableService(store, hint_seconds=0.5)
        await service.start()
        try:
            body = json.dumps({"players": 2, "seats": ["human", "bot:greedy"], "hints": True}).encode()
            watchers = []
            for address in ["203.0.113.9"] * (HINTS_PER_ADDRESS + 2) + ["198.51.100.7"]:
                table, _, _ = await service.create(parse_create(body), address=address)
                w = Watcher(0)
                service.attach(table, w)
                await service.rename(table, 0, "Ana")  # starts: seat 0 decides, its hint is asked for
                watchers.append((address, table, w))
            busy = [address for address, table, _ in watchers if '"busy":true' in table.hinted[0][1]]
            assert busy == ["203.0.113.9"] * 2  # the hints past this address's share: busy at once
            assert service.hints_of["198.51.100.7"] == 1  # the other address's hint is being computed
        finally:
            await service.stop()
            store.close()

    asyncio.run(main())


def test_tables_and_uploads_per_hour_hold_under_a_burst(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.create_schema()
    app = create_app(store=store, limits=Limits(tables_per_hour=5, uploads_per_hour=5))
    record = _record()
    table = {"players": 2, "seats": ["human", "bot:greedy"]}

    async def main() -> tuple[list[int], list[int]]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
                tables = await asyncio.gather(*(c.post("/api/tables", json=table) for _ in range(12)))
                uploads = await asyncio.gather(*(c.post("/api/replays", content=record) for _ in range(12)))
        return [r.status_code for r in tables], [r.status_code for r in uploads]

    tables, uploads = asyncio.run(main())
    assert sorted(tables) == [201] * 5 + [429] * 7, tables
    assert sorted(uploads) == [201] * 5 + [429] * 7, uploads
    assert len(store.summaries()) == 5
    store.close()


def test_new_invites_per_hour_hold_under_a_burst_and_a_strangers_are_refused(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.create_schema()
    app = create_app(store=store, limits=Limits(invites_per_hour=5))

    async def main() -> tuple[list[int], int, int]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
                created = (await c.post("/api/tables", json={"players": 2, "seats": ["human", "bot:greedy"]})).json()
                url = f"/api/tables/{created['id']}/invite"
                stranger = await c.post(url, json={"creator": "x" * 32, "seat": 0})  # refused, not counted
                burst = await asyncio.gather(*(c.post(url, json={"creator": created["creator"], "seat": 0})
                                               for _ in range(8)))
                foreign = await c.post(url, json={"creator": created["creator"], "seat": 0},
                                       headers={"Origin": "http://evil.example"})
        return [r.status_code for r in burst], stranger.status_code, foreign.status_code

    burst, stranger, foreign = asyncio.run(main())
    assert stranger == 403 and foreign == 403
    assert sorted(burst) == [200] * 5 + [429] * 3, burst
    store.close()
