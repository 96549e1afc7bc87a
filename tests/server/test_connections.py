"""Connections to a real ``sushigo serve`` that never finish their request's
headers are closed after ``--header-timeout`` seconds (issue 37: uvicorn keeps
them forever, and enough of them exhaust the process's file descriptors),
while WebSockets and requests that did send their headers are served as before."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import ServerProcess

pytestmark = pytest.mark.slow  # a real server and a real timer


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (waits for that event, 15 s at most)."""
    sock.settimeout(15)
    try:
        return sock.recv(100) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_half_open_connections_are_closed_and_the_rest_is_served(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}", "--header-timeout", "1")
    try:
        parts = urlsplit(server.url)
        address = (parts.hostname or "127.0.0.1", parts.port or 80)
        created = httpx.post(server.url + "/api/tables", json={"players": 2, "seats": ["human", "bot:greedy"]},
                             timeout=10).json()
        with connect(f"{server.ws_url}/ws/tables/{created['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"v": 1, "type": "hello", "token": None, "name": None, "last_seq": None}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            with httpx.Client(base_url=server.url, timeout=10) as kept_alive:
                assert kept_alive.get("/api/options").status_code == 200
                half = [socket.create_connection(address, timeout=10) for _ in range(30)]
                for s in half:
                    s.sendall(b"GET /api/options HTTP/1.1\r\nHost: x\r\n")  # never the blank line
                nothing = socket.create_connection(address, timeout=10)  # says nothing at all
                try:
                    assert all(_closed_by_server(s) for s in [*half, nothing])
                finally:
                    for s in [*half, nothing]:
                        s.close()
                # the socket opened before them, whose headers came at once, is still served
                ws.send(json.dumps({"v": 1, "type": "ping"}))
                while (frame := json.loads(ws.recv(timeout=10)))["type"] != "pong":
                    assert frame["type"] != "error", frame
                assert kept_alive.get("/api/options").status_code == 200
    finally:
        server.stop()
