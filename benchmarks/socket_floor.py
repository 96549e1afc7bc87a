"""The floor under the server's CPU per pick: what uvicorn, Starlette and
asyncio spend on one pick's WebSocket frames when no game stands behind them.

Starts uvicorn configured as ``sushigo serve`` configures it (websockets-sansio,
uvloop, no compression) with a FastAPI app of one WebSocket route that answers
each message it receives with ``--frames`` text frames (the first the size of
a state update, the others the size of a progress), sent in order through a
per-socket queue and task as ``sushigo.server.routes.socket`` sends them.  Then
N clients each send a small JSON message, wait for the answer's frames, and go
again, ``--rounds`` times.  Reports messages per second and the server's CPU
per message, in yardstick units with ``--yardstick``: compare it with
``server_load.py``'s CPU per pick (about 2.1 frames per pick at saturation,
4 at half of it).

    python benchmarks/socket_floor.py 800 --frames 2 --yardstick
    python benchmarks/socket_floor.py 800 --frames 4 --yardstick

Needs the server and test extras (uvicorn, FastAPI, websockets).
"""

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

_STATE = '{"type":"update","v":3,"state":{"x":"' + "y" * 5000 + '"},"ack":{"seq":1,"action":3}}'
_PROGRESS = '{"type":"update","v":3,"progress":{"seq":1,"picked":[true,false,false,false]}}'
_PICK = '{"v":3,"type":"pick","seq":1,"action":3}'


def serve(port: int, frames: int) -> None:
    """The server: uvicorn as ``sushigo serve`` runs it, one route."""
    import json

    import uvicorn
    import uvloop
    from fastapi import FastAPI, WebSocket

    app = FastAPI()
    # (no "from __future__ import annotations" in this file: FastAPI reads the route's annotation)

    @app.websocket("/ws")
    async def route(ws: WebSocket) -> None:
        await ws.accept()
        queue: asyncio.Queue[str] = asyncio.Queue(256)

        async def pump() -> None:
            while True:
                await ws.send_text(await queue.get())

        task = asyncio.get_running_loop().create_task(pump())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                json.loads(message["text"])  # a pick is parsed; the answer is not built
                for i in range(frames):
                    queue.put_nowait(_STATE if i == 0 else _PROGRESS)
        finally:
            task.cancel()

    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio",
                            ws_per_message_deflate=False, access_log=False, lifespan="off")
    uvloop.run(uvicorn.Server(config).serve())


async def _clients(url: str, n: int, rounds: int, frames: int) -> int:
    import websockets

    async def one() -> int:
        async with websockets.connect(url, max_size=2**20, open_timeout=60) as ws:
            for _ in range(rounds):
                await ws.send(_PICK)
                for _ in range(frames):
                    await ws.recv()
            return rounds

    return sum(await asyncio.gather(*(one() for _ in range(n))))


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clients", type=int, nargs="?", default=800)
    parser.add_argument("--frames", type=int, default=2, help="frames the server sends per message it receives")
    parser.add_argument("--rounds", type=int, default=24, help="messages each client sends")
    parser.add_argument("--server-cpu", default="0", help="the core the server runs on (taskset)")
    parser.add_argument("--client-cpu", default="1", help="the core the clients run on")
    parser.add_argument("--yardstick", action="store_true",
                        help="run the yardstick on the server's core before and after: CPU per message in its units")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.frames)
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {int(args.client_cpu)})
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from yardstick_pairs import figure_of, yardstick_path

    stick = [figure_of([sys.executable, str(yardstick_path())], args.server_cpu)] if args.yardstick else []
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = ["taskset", "-c", args.server_cpu] if shutil.which("taskset") else []
    proc = subprocess.Popen([*cmd, sys.executable, __file__, "--serve", str(port), "--frames", str(args.frames)])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("socket_floor: the server did not start") from None
                time.sleep(0.05)
        import uvloop

        before, start = _cpu(proc.pid), time.perf_counter()
        messages = uvloop.run(_clients(f"ws://127.0.0.1:{port}/ws", args.clients, args.rounds, args.frames))
        elapsed, used = time.perf_counter() - start, _cpu(proc.pid) - before
    finally:
        proc.terminate()
        proc.wait(30)
    print(f"{messages} messages from {args.clients} clients, {args.frames} frames back each, {elapsed:.1f} s "
          f"({messages / elapsed:.0f}/s); server CPU {used:.1f} s ({100 * used / elapsed:.0f}% of a core)")
    if stick:
        stick.append(figure_of([sys.executable, str(yardstick_path())], args.server_cpu))
        units = sum(stick) / len(stick)
        print(f"server CPU per message: {1e6 * used / messages:.0f} us = {used / messages * units:.2f} yardstick units")


if __name__ == "__main__":
    main()
