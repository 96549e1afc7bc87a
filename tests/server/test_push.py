"""Web Push notifications (docs/server.md, "Notifications"): delivered to a push
service on the loopback, decrypted as the browser would (RFC 8291) and their
VAPID signature checked (RFC 8292); what they say, who may turn them on, where
the server agrees to post.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi.testclient import TestClient

from sushigo.engine.base.cards import CARD_LABELS, CARD_NAMES
from sushigo.engine.messages import Words
from sushigo.engine.party.cards import PARTY_LABELS
from sushigo.i18n import _l, speaker
from sushigo.server.push import MAX_DEVICES, Notice

from .conftest import create, tokens
from .test_account_seats import socket
from .test_accounts import make, sign_up
from .test_play_now import join, tick
from .test_protocol import hello, pick, until, ws_path


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on the loopback: it keeps what is posted to it (201; 410 for a path ending ``/gone``)."""

    def __init__(self) -> None:
        self.received: queue.Queue[tuple[str, dict[str, str], bytes]] = queue.Queue()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.received.put((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(410 if self.path.endswith("/gone") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.host = f"127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next(self, timeout: float = 10.0) -> tuple[str, dict[str, str], bytes]:
        return self.received.get(timeout=timeout)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Device:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self, service: PushService, path: str = "/push/device") -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"http://{service.host}{path}"

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict[str, Any]:
        """Decrypt a message as the browser does (aes128gcm)."""
        return dict(json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                                version="aes128gcm")))


def check_vapid(headers: dict[str, str], server_key: str, audience: str) -> dict[str, Any]:
    """The VAPID signature of a message is the server's (its public key, a valid ES256 JWT for the audience)."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == server_key
    head, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises when forged
    payload = json.loads(unb64(claims))
    assert payload["aud"] == audience and payload["exp"] > time.time()
    return dict(payload)


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def web(sqlite_url: str, service: PushService) -> Iterator[TestClient]:
    with make(sqlite_url, push_services=(service.host,), push_contact="mailto:ops@sushi.example",
              queue_tick=3600.0) as c:
        yield c


def subscribe(c: TestClient, device: Device) -> None:
    r = c.post("/api/push/subscribe", json=device.subscription())
    assert r.status_code == 201, r.text


def account_id(c: TestClient, name: str) -> str:
    from sqlalchemy import select

    from sushigo.server.schema import accounts_t

    with c.app.state.site.store.reading() as conn:
        return str(conn.execute(select(accounts_t.c.id).where(accounts_t.c.name == name)).scalar_one())


def no_cards(message: dict[str, Any]) -> None:
    """A notification says nothing of anyone's cards."""
    assert set(message) == {"title", "body", "url", "tag"}
    text = json.dumps(message).lower()
    words = {*CARD_LABELS, *CARD_NAMES, *PARTY_LABELS.values()}
    assert not [w for w in words if w.lower() in text]


def test_a_notification_reaches_the_device_encrypted_and_signed_by_the_server(web: TestClient,
                                                                              service: PushService) -> None:
    sign_up(web, "Alice", "alice password")
    device = Device(service)
    subscribe(web, device)
    assert web.post("/api/push/status", json={"endpoint": device.endpoint}).json() == {"on": True, "devices": 1}
    notice = Notice("Hello", "A test.", "/", "t")
    sent = web.portal.call(web.app.state.site.push.notify, account_id(web, "Alice"), notice)
    assert sent == 1
    path, headers, body = service.next()
    assert path == "/push/device" and headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    assert device.read(body) == json.loads(notice.payload())
    key = web.get("/api/push/key").json()["key"]
    claims = check_vapid(headers, key, f"http://{service.host}")
    assert claims["sub"] == "mailto:ops@sushi.example"
    assert body.find(b"Hello") == -1  # encrypted on the way


def test_each_device_reads_its_notices_in_the_language_of_the_page_that_turned_them_on(
        web: TestClient, service: PushService) -> None:
    sign_up(web, "Alice", "alice password")
    phone, laptop = Device(service, "/push/phone"), Device(service, "/push/laptop")
    r = web.post("/api/push/subscribe", json=phone.subscription(), headers={"accept-language": "ja"})
    assert r.status_code == 201, r.text
    subscribe(web, laptop)  # no language asked: English
    notice = Notice(_l("{game}: your move", game=_l("Sushi Go!")),
                    _l("The table with {others} waits on you.", others=Words(("Bob", "Cy"))), "/t/x#as=0", "t")
    assert web.portal.call(web.app.state.site.push.notify, account_id(web, "Alice"), notice) == 2
    read = {}
    for _ in range(2):
        path, _, body = service.next()
        read[path] = (phone if path == "/push/phone" else laptop).read(body)
    assert read["/push/laptop"]["title"] == "Sushi Go!: your move"
    assert read["/push/laptop"]["body"] == "The table with Bob and Cy waits on you."
    ja = speaker("ja")
    assert read["/push/phone"] == {"title": ja.text(notice.title), "body": ja.text(notice.body),
                                   "url": "/t/x#as=0", "tag": "t"}
    assert read["/push/phone"]["body"] != read["/push/laptop"]["body"] and "Bob" in read["/push/phone"]["body"]


def test_a_play_now_match_is_told_to_the_accounts_devices(web: TestClient, service: PushService) -> None:
    sign_up(web, "Alice", "alice password")
    device = Device(service)
    subscribe(web, device)
    join(web, edition="party", sizes=[2], push=True)  # Alice's place
    r = web.post("/api/play/join", json={"edition": "party", "sizes": [2], "name": "Guest"},
                 headers={"cookie": ""})  # a guest's (no session)
    assert r.status_code == 201 and r.json()["name"] == "Guest"
    assert len(tick(web)) == 1
    _, _, body = service.next()
    message = device.read(body)
    assert message["title"] == "Sushi Go Party!: your table is ready" and message["url"] == "/#play"
    assert "Confirm within" in message["body"]
    no_cards(message)


def test_a_turn_based_table_tells_an_absent_player_its_move_and_nothing_of_the_cards(
        web: TestClient, service: PushService) -> None:
    sign_up(web, "Alice", "alice password")
    device = Device(service)
    subscribe(web, device)
    made = create(web, players=2, seats=["human", "human"], turn_hours=1)
    with web.websocket_connect(ws_path(made["id"]), headers={"cookie": ""}) as guest:
        with socket(web, made["id"]) as alice:
            hello(alice, tokens(made)[0], None)
            hello(guest, tokens(made)[1], "Bob")
            state = until(alice, "state", lambda m: m["status"] == "playing")
            mine = until(guest, "state", lambda m: m["status"] == "playing")
            pick(alice, state["seq"], state["view"]["legal_actions"][0])
            until(alice, "ack")
        until(guest, "seats", lambda m: m["seats"][0]["connected"] is False)  # Alice left the table
        pick(guest, mine["seq"], mine["view"]["legal_actions"][0])
        until(guest, "ack")
        _, _, body = service.next()
    message = device.read(body)
    assert message["title"] == "Sushi Go!: your move" and message["url"] == f"/t/{made['id']}#as=0"
    assert "Bob" in message["body"]
    no_cards(message)
    assert service.received.empty()  # one message: Bob, who is at the table, is told nothing


def test_who_may_turn_notifications_on_and_where_the_server_posts(web: TestClient, service: PushService) -> None:
    device = Device(service)
    r = web.post("/api/push/subscribe", json=device.subscription())
    assert r.status_code == 401 and "sign in" in r.json()["error"]
    sign_up(web, "Alice", "alice password")
    for endpoint, says in (("http://127.0.0.1:9/push", "not a push service"),
                           ("https://10.0.0.1/push", "not a push service"),
                           ("https://fcm.googleapis.com.evil.example/x", "not a push service"),
                           ("ftp://fcm.googleapis.com/x", "not a push service"),
                           ("not a url", "not a URL")):
        r = web.post("/api/push/subscribe", json={**device.subscription(), "endpoint": endpoint})
        assert r.status_code == 400 and says in r.json()["error"], (endpoint, r.text)
    r = web.post("/api/push/subscribe", json={"endpoint": device.endpoint, "keys": {"p256dh": "x", "auth": "y"}})
    assert r.status_code == 400 and "keys" in r.json()["error"]
    r = web.post("/api/push/subscribe", json={"endpoint": "https://fcm.googleapis.com/fcm/send/abc",
                                              "keys": device.subscription()["keys"]})
    assert r.status_code == 201  # a browser's push service: kept (and not posted to here)
    r = web.post("/api/push/subscribe", json=device.subscription(), headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    r = web.post("/api/push/subscribe", content=json.dumps(device.subscription()),
                 headers={"Content-Type": "text/plain"})
    assert r.status_code == 415


def test_turning_off_a_device_and_a_device_the_push_service_says_is_gone(web: TestClient,
                                                                         service: PushService) -> None:
    sign_up(web, "Alice", "alice password")
    here, gone = Device(service, "/push/here"), Device(service, "/push/gone")
    subscribe(web, here)
    subscribe(web, gone)
    assert web.post("/api/push/status", json={"endpoint": None}).json()["devices"] == 2
    sent = web.portal.call(web.app.state.site.push.notify, account_id(web, "Alice"),
                           Notice("a", "b", "/", "t"))
    assert sent == 1  # the gone one answered 410 and is forgotten
    assert web.post("/api/push/status", json={"endpoint": gone.endpoint}).json() == {"on": False, "devices": 1}
    r = web.post("/api/push/unsubscribe", json={"endpoint": here.endpoint})
    assert r.json() == {"on": False, "removed": 1, "devices": 0}
    for i in range(MAX_DEVICES + 2):
        subscribe(web, Device(service, f"/push/device{i}"))
    assert web.post("/api/push/status", json={"endpoint": None}).json()["devices"] == MAX_DEVICES
    assert web.post("/api/push/unsubscribe", json={"endpoint": None}).json()["removed"] == MAX_DEVICES


def test_an_accounts_devices_and_place_in_the_queue_go_with_it(web: TestClient, service: PushService) -> None:
    from sqlalchemy import func, select

    from sushigo.server.schema import push_subscriptions_t, queue_t

    sign_up(web, "Alice", "alice password")
    subscribe(web, Device(service))
    join(web, edition="base")
    r = web.post("/api/account/delete", json={"password": "alice password"})
    assert r.status_code == 200
    with web.app.state.site.store.reading() as conn:
        for t in (push_subscriptions_t, queue_t):
            assert conn.execute(select(func.count()).select_from(t)).scalar() == 0


def test_every_process_of_a_site_signs_with_one_key(db_url: str) -> None:
    with make(db_url) as one, make(db_url) as two:
        key = one.get("/api/push/key").json()["key"]
        assert key == two.get("/api/push/key").json()["key"] and len(unb64(key)) == 65
