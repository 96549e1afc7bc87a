"""Load benchmark: N concurrent 4-player games of bot clients over WebSockets.

Starts ``sushigo serve`` (or uses ``--url``), creates N base-game tables with
four human seats each, connects one client per seat and plays every game to
the end: each client picks a random legal card as soon as it may (after
``--think`` seconds, if given).  Reports games completed, errors, picks per
second, and the time from the last pick of a turn to every client of that
game seeing the reveal (p50/p99/max).  Clients and timings live in this one
process, so the latency includes the clients' own queueing.

    python benchmarks/server_load.py 200                 # 200 games, SQLite in a temp dir
    python benchmarks/server_load.py 200 --think 0.5     # clients pause 0.5 s (jittered) per pick
    python benchmarks/server_load.py 200 --db postgresql://postgres@127.0.0.1:54329/sushigo_test
    python benchmarks/server_load.py 200 --profile /tmp/server.prof   # server under cProfile
    python benchmarks/server_load.py 200 --processes 2 --db postgresql://...   # two shards on one database
    python benchmarks/server_load.py 200 --yardstick     # server CPU per pick in yardstick units
    python benchmarks/server_load.py 200 --protocol 2    # clients of sushigo-ws/2 (a frame per part)
    python benchmarks/server_load.py 300 --think 0.25 --ramp 20   # games start one after another over 20 s

The server runs on core ``--server-cpu`` (0) and the clients on ``--client-cpu``
(1), each pinned where the system allows it.  With ``--yardstick`` the
yardstick runs on the server's core before and after the games, and the
server's CPU per pick is given in yardstick units (CPU seconds per pick x
yardstick units per second): a figure that travels between machines, like
the saturation throughput in picks per yardstick unit (with ``--think 0``).

With ``--processes N`` it starts N servers on the one ``--db``, with shards
``a``, ``b``, ... (docs/server.md, "Several processes"), and deals the games
round-robin among them; each game's clients connect to the process that
created its table, as the reverse proxy of that recipe sends them (the
benchmark is its own proxy).  ``--url`` may be given several times likewise.

Needs the test extra (websockets, httpx).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets


@dataclass
class Turn:
    last_pick: float = 0.0
    picks: int = 0
    seen: int = 0
    last_seen: float = 0.0


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    picks: int = 0
    errors: list[str] = field(default_factory=list)
    games_done: int = 0
    frames: int = 0


_WANTED = ('{"type":"state"', '{"type":"error"')
"""The frames a client of version 2 reads (the server writes ``type`` first, compactly); it skips
the others unparsed."""


async def client(url: str, token: str, game: dict[Any, Turn], stats: Stats, think: float,
                 rng: random.Random, players: int, version: int) -> None:
    async with websockets.connect(url, max_size=2**20, open_timeout=60) as ws:
        await ws.send(json.dumps({"v": version, "type": "hello", "token": token, "name": "bot", "last_seq": None}))
        my_key: Any = None  # the turn this client picked on, until it sees the next one
        while True:
            raw = await ws.recv()
            stats.frames += 1
            if version >= 3:  # one update per event: a state in it, or an error, or nothing to read
                if '"state":' not in raw and not raw.startswith('{"type":"error"'):
                    continue
            elif not raw.startswith(_WANTED):  # log, seats, ack, progress: no need to parse them
                continue
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors.append(msg["code"] + ": " + msg["message"])
                continue
            if kind == "update":
                msg = msg.get("state")
                if msg is None:
                    continue
            elif kind != "state":
                continue
            now = time.perf_counter()
            view = msg["view"]
            if view is None:
                continue
            key = (view["round"], view["turn"])
            if my_key is not None and key != my_key:
                turn = game[my_key]
                turn.seen += 1
                turn.last_seen = max(turn.last_seen, now)
                if turn.seen == players:
                    stats.latencies.append(turn.last_seen - turn.last_pick)
                my_key = None
            if msg["status"] == "finished":
                return
            if view["legal_actions"] and my_key is None:
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                action = rng.choice(view["legal_actions"])
                await ws.send(json.dumps({"v": version, "type": "pick", "seq": msg["seq"], "action": action}))
                turn = game.setdefault(key, Turn())
                turn.picks += 1
                turn.last_pick = max(turn.last_pick, time.perf_counter())
                stats.picks += 1
                my_key = key


async def one_game(base: str, http: httpx.AsyncClient, stats: Stats, think: float, seed: int,
                   version: int, start: float = 0.0) -> None:
    if start:
        await asyncio.sleep(start)
    r = await http.post(f"{base}/api/tables", json={
        "edition": "base", "players": 4, "seats": ["human"] * 4, "seed": seed})
    if r.status_code != 201:
        stats.errors.append(f"create: {r.status_code} {r.text}")
        return
    created = r.json()
    tokens = [s["invite"].split("#seat=")[1] for s in created["seats"]]
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{created['id']}"
    game: dict[Any, Turn] = {}
    rng = random.Random(seed)
    await asyncio.gather(*(client(ws_url, t, game, stats, think, random.Random(rng.random()), 4, version)
                           for t in tokens))
    stats.games_done += 1


async def run(bases: list[str], games: int, think: float, version: int,
              ramp: float = 0.0) -> tuple[Stats, float, dict[str, Any]]:
    stats = Stats()
    async with httpx.AsyncClient(timeout=60) as http:
        start = time.perf_counter()
        results = await asyncio.gather(*(one_game(bases[i % len(bases)], http, stats, think, i, version,
                                                  ramp * i / games)
                                         for i in range(games)), return_exceptions=True)
        elapsed = time.perf_counter() - start
        servers = [(await http.get(f"{base}/api/stats")).json() for base in bases]
    server = dict(servers[0])
    for key in ("decisions", "write_batches", "writes"):
        server[key] = sum(x[key] for x in servers)
    for res in results:
        if isinstance(res, BaseException):
            stats.errors.append(f"{type(res).__name__}: {res}")
    return stats, elapsed, server


def start_server(db: str, profile: str | None, shard: str | None = None,
                 cpu: str | None = None, extra: tuple[str, ...] = ()) -> tuple[subprocess.Popen[str], str]:
    cmd = ["taskset", "-c", cpu, sys.executable] if cpu is not None and shutil.which("taskset") else [sys.executable]
    if profile:
        cmd += ["-m", "cProfile", "-o", profile]
    cmd += ["-m", "sushigo", "serve", "--port", "0", "--db", db,
            "--tables-per-hour", "100000", "--connections-per-address", "100000"]
    if shard is not None:
        cmd += ["--shard", shard]
    cmd += extra
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"(http://[^/\s]+)/", line)
    if not m:
        proc.kill()
        raise SystemExit(f"server did not start: {line!r}")
    return proc, m.group(1)


def _cpu_seconds(procs: list[subprocess.Popen[str]]) -> list[float]:
    """CPU seconds used so far by this process (the clients), then by each server
    started (Linux ``/proc``; only the clients elsewhere)."""
    own = os.times()
    out = [own.user + own.system]
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for proc in procs:
        try:
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            out.append((int(fields[11]) + int(fields[12])) / tick)
        except (OSError, IndexError, ValueError):
            pass
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=200)
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a client waits before each pick")
    parser.add_argument("--url", action="append",
                        help="use a running server instead of starting one (again: several, games dealt round-robin)")
    parser.add_argument("--processes", type=int, default=1,
                        help="start this many servers (shards a, b, ...) on the one --db, games dealt round-robin")
    parser.add_argument("--db", help="database for the server it starts (default: SQLite in a temp dir)")
    parser.add_argument("--profile", help="run the started server under cProfile, write the stats here")
    parser.add_argument("--protocol", type=int, choices=(2, 3), default=3,
                        help="the clients' protocol version (3: one update per event; 2: a frame per part)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="start the games one after another over this many seconds (0: all at once)")
    parser.add_argument("--server-cpu", default="0", help="the core the server runs on (taskset)")
    parser.add_argument("--client-cpu", default="1", help="the core the clients run on")
    parser.add_argument("--yardstick", action="store_true",
                        help="run the yardstick on the server's core before and after: CPU per pick in its units")
    args = parser.parse_args()
    if args.client_cpu and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {int(c) for c in args.client_cpu.split(",")})
        except (OSError, ValueError):
            pass
    stick: list[float] = []
    if args.yardstick:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from yardstick_pairs import figure_of, yardstick_path

        def yardstick() -> float:
            return figure_of([sys.executable, str(yardstick_path())], args.server_cpu)

        stick.append(yardstick())
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    procs: list[subprocess.Popen[str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        bases = args.url
        if bases is None:
            db = args.db or f"sqlite:///{os.path.join(tmp, 'load.db')}"
            bases = []
            for i in range(args.processes):
                shard = "abcdefghijklmnopqrstuvwxyz"[i] if args.processes > 1 else None
                proc, base = start_server(db, args.profile if i == 0 else None, shard, args.server_cpu)
                procs.append(proc)
                bases.append(base)
        cpu_before = _cpu_seconds(procs)
        try:
            stats, elapsed, server = asyncio.run(run(bases, args.games, args.think, args.protocol, args.ramp))
            cpu_used = [after - before for before, after in zip(cpu_before, _cpu_seconds(procs))]
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGINT)
            for proc in procs:
                proc.wait(60)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    print(f"games {stats.games_done}/{args.games} completed, {len(stats.errors)} errors, "
          f"think {args.think:g} s, {elapsed:.1f} s")
    print(f"picks {stats.picks} ({stats.picks / elapsed:.0f}/s), turns measured {len(lat)}")
    print(f"last pick -> every client sees the reveal: p50 {pct(0.50):.1f} ms, p99 {pct(0.99):.1f} ms, "
          f"max {1000 * lat[-1] if lat else float('nan'):.1f} ms, "
          f"mean {1000 * statistics.fmean(lat) if lat else float('nan'):.1f} ms")
    batches = max(1, server["write_batches"])
    print(f"server ({server['database']}): {server['decisions']} decisions stored in "
          f"{server['write_batches']} transactions ({server['writes'] / batches:.1f} writes per commit)")
    if len(bases) > 1:
        print(f"{len(bases)} server processes on one database, games dealt round-robin")
    if cpu_used and elapsed > 0:
        shares = ", ".join(f"{c:.1f} s ({100 * c / elapsed:.0f}% of a core)" for c in cpu_used[1:])
        print(f"CPU while the games ran: clients {cpu_used[0]:.1f} s ({100 * cpu_used[0] / elapsed:.0f}% of a core)"
              + (f", server {shares}" if shares else ""))
    if stats.picks:
        print(f"frames received per pick: {stats.frames / stats.picks:.2f} (sushigo-ws/{args.protocol} clients)")
    if stick and cpu_used[1:] and stats.picks:
        stick.append(yardstick())
        units = statistics.fmean(stick)
        per_pick = sum(cpu_used[1:]) / stats.picks
        print(f"yardstick on the server's core: {stick[0]:,.0f} before, {stick[1]:,.0f} after")
        print(f"server CPU per pick: {1e6 * per_pick:.0f} us = {per_pick * units:.2f} yardstick units; "
              f"throughput {stats.picks / elapsed / units:.4f} picks per yardstick unit")
    for e in stats.errors[:5]:
        print("error:", e)
    if args.profile:
        import pstats

        print(f"\nserver profile ({args.profile}), top functions by own time:")
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
