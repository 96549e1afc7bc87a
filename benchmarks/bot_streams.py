"""What idle bots cost a server: N bot event streams open, nothing happening.

Each open event stream of the bot API (docs/bot-api.md) looks at the database
about once a second (its challenges, its tables) and keeps its bot's place in
play now every 10 s.  This starts ``sushigo serve`` on a SQLite file (or
``--db``), makes bot accounts with a token each, opens ``STREAMS`` event
streams (8 per token, the limit) and measures the server's CPU over
``--seconds`` with them open, and as long again with none (the idle floor).
With ``--yardstick`` the yardstick runs on the server's core before and after,
and the cost is given in yardstick units per stream and second: a figure that
travels between machines.

    python benchmarks/bot_streams.py 200 --yardstick
    python benchmarks/bot_streams.py 200 --db postgresql://postgres@127.0.0.1:54329/sushigo_test

Needs the test extra (httpx).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import _cpu_seconds, start_server

PASSWORD = "benchmark password"


def make_bots(base: str, count: int) -> list[str]:
    """``count`` bot accounts, a token each."""
    tokens = []
    for i in range(count):
        # each from an address of its own (the server trusts this process as its proxy): 10 sign-ups an hour each
        with httpx.Client(base_url=base, timeout=30, headers={"X-Forwarded-For": f"10.9.{i // 250}.{i % 250 + 1}"}
                          ) as http:
            r = http.post("/api/account/signup", json={"name": f"Idle_{i}_{os.getpid()}", "password": PASSWORD})
            r.raise_for_status()
            http.post("/api/account/bot", json={"password": PASSWORD}).raise_for_status()
            r = http.post("/api/account/tokens", json={"password": PASSWORD, "label": "bench"})
            r.raise_for_status()
            tokens.append(r.json()["token"])
    return tokens


async def hold_streams(base: str, tokens: list[str], streams: int, seconds: float,
                       opened: asyncio.Event) -> int:
    """Open ``streams`` event streams (round-robin over the tokens) and read them for ``seconds``."""
    limits = httpx.Limits(max_connections=streams + 10)
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(30, read=60), limits=limits) as http:
        ready = 0
        stop = asyncio.Event()

        async def one(token: str) -> None:
            nonlocal ready
            async with http.stream("GET", "/api/bot/stream/event",
                                   headers={"Authorization": f"Bearer {token}"}) as r:
                r.raise_for_status()
                ready += 1
                if ready == streams:
                    opened.set()
                async for _ in r.aiter_lines():
                    if stop.is_set():
                        return

        tasks = [asyncio.create_task(one(tokens[i % len(tokens)])) for i in range(streams)]
        await asyncio.wait_for(opened.wait(), 60)
        await asyncio.sleep(seconds)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("streams", type=int, nargs="?", default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the streams stay open")
    parser.add_argument("--db", help="the server's database (default: SQLite in a temp dir)")
    parser.add_argument("--server-cpu", default="0", help="the core the server runs on (taskset)")
    parser.add_argument("--yardstick", action="store_true", help="the cost in yardstick units")
    args = parser.parse_args()
    stick: list[float] = []
    if args.yardstick:
        from yardstick_pairs import figure_of, yardstick_path

        def yardstick() -> float:
            return figure_of([sys.executable, str(yardstick_path())], args.server_cpu)

        stick.append(yardstick())
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{os.path.join(tmp, 'streams.db')}"
        proc, base = start_server(db, None, None, args.server_cpu, ("--trust-proxy", "127.0.0.1"))
        try:
            tokens = make_bots(base, (args.streams + 7) // 8)
            time.sleep(1.0)
            before = _cpu_seconds([proc])[1]
            time.sleep(args.seconds)
            idle = _cpu_seconds([proc])[1] - before
            opened = asyncio.Event()
            t0 = time.monotonic()
            start = _cpu_seconds([proc])[1]
            holding = asyncio.run(hold_streams(base, tokens, args.streams, args.seconds, opened))
            elapsed = time.monotonic() - t0
            busy = _cpu_seconds([proc])[1] - start
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(60)
    per = (busy - idle * elapsed / args.seconds) / (holding * elapsed)
    print(f"{holding} event streams of {len(tokens)} bots open {elapsed:.1f} s: server CPU {busy:.2f} s "
          f"({100 * busy / elapsed:.0f}% of a core); idle floor {idle:.2f} s in {args.seconds:g} s")
    print(f"per open stream: {1e3 * per:.2f} ms of CPU a second ({100 * per:.3f}% of a core)")
    if stick:
        stick.append(yardstick())
        units = statistics.fmean(stick)
        print(f"yardstick on the server's core: {stick[0]:,.0f} before, {stick[1]:,.0f} after")
        print(f"per open stream and second: {per * units:.3f} yardstick units; "
              f"a core holds about {1 / per:,.0f} idle bot streams")


if __name__ == "__main__":
    main()
