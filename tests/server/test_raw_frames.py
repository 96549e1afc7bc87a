"""A real ``sushigo serve`` process fed raw bytes: WebSocket frames no library would
send (invalid UTF-8, also split across fragments; bursts; oversized frames), handshakes
from foreign origins and broken HTTP.  Every answer must be a documented close code,
error frame or ``{"error": ...}`` body, and the server's log must never show a
traceback, nor more than one line per connection.

The server pins uvicorn's WebSocket implementation (``websockets-sansio``) in
``sushigo.server.serve``; these tests are what that pin relies on.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import ServerProcess

Frame = tuple[int, bytes]
"""(opcode, payload) of one frame from the server."""


@pytest.fixture
def server(tmp_path: Any) -> Iterator[ServerProcess]:
    """A fresh server process; a test reads its log with :func:`server_log`."""
    with ServerProcess(f"sqlite:///{tmp_path / 'games.db'}") as proc:
        yield proc


def server_log(server: ServerProcess) -> str:
    """Everything the server wrote to standard error so far (it is stopped first)."""
    server.stop()
    assert server.proc.stderr is not None
    return server.proc.stderr.read()


def new_table(server: ServerProcess) -> str:
    r = httpx.post(server.url + "/api/tables", json={"players": 2, "seats": ["human", "bot:greedy"]})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def handshake(server: ServerProcess, table: str, origin: str | None = None) -> tuple[socket.socket, str]:
    """A raw socket after the WebSocket handshake, and the response's status line."""
    host = server.url.removeprefix("http://")
    name, port = host.rsplit(":", 1)
    sock = socket.create_connection((name, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET /ws/tables/{table} HTTP/1.1", f"Host: {host}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = sock.recv(4096)
        if not chunk:
            break
        response += chunk
    return sock, response.split(b"\r\n")[0].decode()


def frame(payload: bytes, opcode: int = 1, fin: bool = True) -> bytes:
    """One masked client frame."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        size = bytes([0x80 | n])
    elif n < 1 << 16:
        size = bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        size = bytes([0x80 | 127]) + struct.pack("!Q", n)
    return bytes([(0x80 if fin else 0) | opcode]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def text(message: dict[str, Any]) -> bytes:
    return frame(json.dumps(message).encode())


def read_frames(sock: socket.socket, timeout: float = 5.0) -> list[Frame]:
    """The server's frames until it closes the connection (or ``timeout`` passes)."""
    data = b""
    sock.settimeout(timeout)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            if _has_close(data):
                break
    except (TimeoutError, ConnectionResetError):
        pass
    sock.close()
    return _parse(data)


def _parse(data: bytes) -> list[Frame]:
    frames: list[Frame] = []
    i = 0
    while i + 2 <= len(data):
        opcode, n = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if n == 126:
            (n,) = struct.unpack("!H", data[i:i + 2])
            i += 2
        elif n == 127:
            (n,) = struct.unpack("!Q", data[i:i + 8])
            i += 8
        frames.append((opcode, data[i:i + n]))
        i += n
    return frames


def _has_close(data: bytes) -> bool:
    return any(op == 8 for op, _ in _parse(data))


def close_code(frames: list[Frame]) -> int | None:
    closes = [payload for op, payload in frames if op == 8]
    assert len(closes) <= 1 and (not closes or frames[-1][0] == 8), frames
    return struct.unpack("!H", closes[0][:2])[0] if closes else None


def messages(frames: list[Frame]) -> list[dict[str, Any]]:
    return [json.loads(payload) for op, payload in frames if op == 1]


# ------------------------------------------------------------------------ the tests


BAD_UTF8 = [
    [frame(b'{"v": 1, "type": "ping"}\xff')],                       # one frame, a byte no UTF-8 has
    [frame(b'{"v": 1, "type": "ping", "x": "\xc3\x28"}')],          # a broken two-byte sequence
    [frame(b'{"v": 1, "type": "pi', fin=False), frame(b"\xe2\x82", opcode=0, fin=False),
     frame(b'"}', opcode=0)],                                       # a sequence cut by fragments
    [frame(b'{"v": 1, "type": "ping"}\xed\xa0\x80')],               # an encoded surrogate
]


def test_invalid_utf8_closes_with_1007_and_one_log_line(server: ServerProcess) -> None:
    table = new_table(server)
    rounds = 5
    for _ in range(rounds):
        for frames in BAD_UTF8:
            sock, status = handshake(server, table)
            assert status == "HTTP/1.1 101 Switching Protocols"
            sock.sendall(b"".join(frames) + frame(b'{"v": 1, "type": "ping"}') * 20)
            assert close_code(read_frames(sock)) == 1007
    # the server still serves: a good connection gets its pong
    sock, _ = handshake(server, table)
    sock.sendall(text({"v": 1, "type": "hello"}) + text({"v": 1, "type": "ping"}))
    got = [m["type"] for m in messages(read_frames(sock, timeout=2))]
    assert "pong" in got and "welcome" in got, got
    log = server_log(server)
    assert "Traceback" not in log and "UnicodeDecodeError" not in log, log
    lines = [line for line in log.splitlines() if line.strip()]
    assert len(lines) <= rounds * len(BAD_UTF8), log
    assert all("not UTF-8" in line for line in lines), log


def test_a_burst_is_told_rate_limited_before_the_close(server: ServerProcess) -> None:
    table = new_table(server)
    sock, _ = handshake(server, table)
    sock.sendall(text({"v": 1, "type": "hello"}) + text({"v": 1, "type": "ping"}) * 400)
    frames = read_frames(sock, timeout=10)
    assert close_code(frames) == 1008
    got = messages(frames)
    limited = [m for m in got if m["type"] == "error" and m["code"] == "rate_limited"]
    assert limited, [m["type"] for m in got]
    assert limited[-1]["message"] == "100 messages refused within 10 s: the server closes this connection"
    assert got[-1] == limited[-1]  # the notice is the last frame before the close
    assert [m["type"] for m in got].count("pong") >= 30  # the burst allowance was served
    assert httpx.get(server.url + "/api/options").status_code == 200
    log = server_log(server)
    assert "Traceback" not in log, log


def test_a_frame_over_the_size_limit_closes_with_1009(server: ServerProcess) -> None:
    table = new_table(server)
    sock, _ = handshake(server, table)
    sock.sendall(frame(b" " * 70_000))
    assert close_code(read_frames(sock)) == 1009
    log = server_log(server)
    assert "Traceback" not in log, log


def test_handshakes_from_foreign_origins_are_refused(tmp_path: Any) -> None:
    """The address the server prints and ``--allow-origin``, exactly; nothing else."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'origin.db'}", "--allow-origin", "https://sushi.example")
    try:
        table = new_table(server)
        own = server.url  # the address the server prints
        for origin in ("http://evil.example", own.replace("http://", "https://"), own.upper(),
                       own + "0", "https://sushi.example:444", "null"):
            sock, status = handshake(server, table, origin)
            sock.close()
            assert status == "HTTP/1.1 403 Forbidden", origin
        for origin in (own, "https://sushi.example", None):
            sock, status = handshake(server, table, origin)
            sock.close()
            assert status == "HTTP/1.1 101 Switching Protocols", origin
    finally:
        log = server_log(server)
    assert "Traceback" not in log, log


def test_http_errors_have_one_shape_and_never_a_5xx(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as c:
        for method, path, status in (("GET", "/api/nope", 404), ("GET", "/nope", 404),
                                     ("GET", "/static/nope.js", 404), ("DELETE", "/api/tables", 405),
                                     ("POST", "/api/options", 405), ("GET", "/api/tables/zzz", 404),
                                     ("GET", "/api/tables/zzz/record", 404),
                                     ("POST", "/api/tables", 400)):
            r = c.request(method, path, content=b"{" if method == "POST" else None)
            assert r.status_code == status, (method, path, r.text)
            body = r.json()
            assert set(body) == {"error"} and isinstance(body["error"], str), body
            assert body["error"] and "\n" not in body["error"], body
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    for raw in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
                b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64)):
        with socket.create_connection((host, int(port)), timeout=5) as s:
            s.sendall(raw)
            try:
                answer = s.recv(4096)
            except (TimeoutError, ConnectionResetError):
                answer = b""
            assert not answer.startswith(b"HTTP/1.1 5"), answer
    assert httpx.get(server.url + "/api/options").status_code == 200
    log = server_log(server)
    assert "Traceback" not in log, log


@pytest.mark.parametrize(("origin", "why"), [
    ("foo", "an origin is http(s)://host[:port], not 'foo'"),
    ("http://sushi.example/play", "an origin has no path, query or user: 'http://sushi.example/play'"),
    ("http://sushi.example:99999", "bad port in origin 'http://sushi.example:99999'"),
])
def test_serve_refuses_a_bad_allow_origin_before_it_touches_the_database(tmp_path: Any, origin: str,
                                                                         why: str) -> None:
    import subprocess
    import sys

    db = tmp_path / "never.db"
    proc = subprocess.run([sys.executable, "-m", "sushigo", "serve", "--port", "0", "--db", str(db),
                           "--allow-origin", origin], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == f"sushigo: error: --allow-origin: {why}\n"
    assert not db.exists()
