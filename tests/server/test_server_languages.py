"""The server's one-line errors in the reader's language (issue: the game in 7
languages): every refusal a route, a service or the socket sends is a
:class:`~sushigo.i18n.Phrase`, said where it leaves (``replies.fail``,
``protocol.error``) in the language of the request or socket that reads it:
the ``lang`` cookie, else ``Accept-Language``, else English (a bot that sends
neither reads the English it always read).

The catalogs may not have the newest messages yet, so most tests read through a
fake catalog that says every message as ``⟦lang:message⟧``: a message that was
translated shows it, and one that was left in English shows that too.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

import sushigo.i18n
from sushigo.engine.messages import ENGLISH
from sushigo.i18n import speaker
from sushigo.server.app import Limits

from .test_accounts import make, sign_up

FR = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
DE_COOKIE = {"Cookie": "lang=de", "Accept-Language": "fr"}  # the switch's cookie wins over the browser's


class Bracketed:
    """A catalog that says every message as ``⟦lang:message⟧`` (its fields filled after)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def gettext(self, message: str) -> str:
        return f"⟦{self.lang}:{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{self.lang}:{singular if n == 1 else plural}⟧"


@pytest.fixture
def bracketed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every language but English reads through :class:`Bracketed`."""
    monkeypatch.setattr(sushigo.i18n, "translations", lambda lang: ENGLISH if lang == "en" else Bracketed(lang))


@pytest.fixture
def web(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def said(lang: str, message: str, **fields: Any) -> str:
    """What :class:`Bracketed` makes of a message (its fields filled as the server fills them)."""
    return f"⟦{lang}:{message}⟧".format(**fields) if fields else f"⟦{lang}:{message}⟧"


# ------------------------------------------------------------------ refusals of every room

def _unknown_table(c: TestClient, headers: dict[str, str]) -> Any:
    return c.get("/api/tables/nope", headers=headers)


def _bad_sign_in(c: TestClient, headers: dict[str, str]) -> Any:
    return c.post("/api/account/signin", json={"name": "Nobody_Here", "password": "not the one"}, headers=headers)


def _bad_body(c: TestClient, headers: dict[str, str]) -> Any:
    return c.post("/api/account/signin", json={"user": "x"}, headers=headers)


def _bad_seat(c: TestClient, headers: dict[str, str]) -> Any:
    return c.post("/api/tables/nope/invite", json={"creator": "t", "seat": "one"}, headers=headers)


def _no_place(c: TestClient, headers: dict[str, str]) -> Any:
    return c.post("/api/play/status", json={"ticket": "no-such-ticket"}, headers=headers)


def _no_page(c: TestClient, headers: dict[str, str]) -> Any:
    return c.get("/api/no/such/route", headers=headers)


REFUSALS = [  # (request, status, the English answer, its message id and fields)
    (_unknown_table, 404, "no table 'nope'", ("no table {id}", {"id": "'nope'"})),
    (_bad_sign_in, 401, "wrong name or password", ("wrong name or password", {})),
    (_bad_body, 400, 'the body is {"name": NAME, "password": PASSWORD}',
     ('the body is {"name": NAME, "password": PASSWORD}', {})),
    (_bad_seat, 400, '"seat" is a seat number, from 0', ('"seat" is a seat number, from 0', {})),
    (_no_place, 404, "no place in the queue holds this ticket (it ended, or was never made)",
     ("no place in the queue holds this ticket (it ended, or was never made)", {})),
    (_no_page, 404, "no such page or route: /api/no/such/route",
     ("no such page or route: {path}", {"path": "/api/no/such/route"})),
]


@pytest.mark.parametrize(("ask", "status", "english", "message"), REFUSALS,
                         ids=[r[0].__name__.strip("_") for r in REFUSALS])
def test_a_refusal_comes_in_the_readers_language(web: TestClient, bracketed: None, ask: Any, status: int,
                                                 english: str, message: tuple[str, dict[str, Any]]) -> None:
    message_id, fields = message
    french = ask(web, FR)
    assert (french.status_code, french.json()) == (status, {"error": said("fr", message_id, **fields)})
    german = ask(web, DE_COOKIE)  # the cookie of the pages' switch, over Accept-Language
    assert (german.status_code, german.json()) == (status, {"error": said("de", message_id, **fields)})
    plain = ask(web, {})  # a program that says no language: English, exactly as before
    assert (plain.status_code, plain.json()) == (status, {"error": english})
    other = ask(web, {"Accept-Language": "nl-NL, en;q=0.1"})  # a language sushigo does not speak: English
    assert (other.status_code, other.json()) == (status, {"error": english})


def test_a_refusal_reads_as_the_real_catalog_says_it(web: TestClient) -> None:
    """Through the real catalogs: the answer is :func:`sushigo.i18n.speaker`'s rendering of
    the message (a translation where the catalog has one, the English until it does)."""
    for lang in ("fr", "de", "ja"):
        r = web.get("/api/tables/nope", headers={"Accept-Language": lang})
        expected = speaker(lang)("no table {id}", id="'nope'")
        assert r.json() == {"error": expected}
        if speaker(lang).gettext("no table {id}") != "no table {id}":
            assert expected != "no table 'nope'"
    assert web.get("/api/tables/nope").json() == {"error": "no table 'nope'"}


def test_a_counted_refusal_takes_the_readers_plural(db_url: str, bracketed: None) -> None:
    with make(db_url, limits=Limits(tables_per_hour=1)) as c:
        body = {"players": 2, "seats": ["human", "bot:random"]}
        assert c.post("/api/tables", json=body).status_code == 201
        french = c.post("/api/tables", json=body, headers=FR)
        assert (french.status_code, french.json()) == (
            429, {"error": said("fr", "this address created {n} table in the last hour; try later", n=1)})
        plain = c.post("/api/tables", json=body)
        assert plain.json() == {"error": "this address created 1 table in the last hour; try later"}


def test_a_signed_in_refusal_of_the_accounts(web: TestClient, bracketed: None) -> None:
    sign_up(web)
    r = web.post("/api/account/codes", json={"password": "not mine at all"}, headers=FR)
    assert (r.status_code, r.json()) == (401, {"error": said("fr", "wrong password")})
    r = web.post("/api/account/codes", json={"password": "not mine at all"})
    assert (r.status_code, r.json()) == (401, {"error": "wrong password"})


# ------------------------------------------------------------------ the socket


def _table(c: TestClient) -> str:
    r = c.post("/api/tables", json={"players": 2, "seats": ["human", "bot:random"]})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_socket_is_refused_in_its_language(web: TestClient, bracketed: None) -> None:
    table = _table(web)
    bad_hello = {"v": 3, "type": "hello", "token": "not-a-token-of-this-table"}
    with web.websocket_connect(f"/ws/tables/{table}", headers=FR) as ws:
        ws.send_json(bad_hello)
        assert ws.receive_json() == {"type": "error", "code": "bad_token", "v": 3,
                                     "message": said("fr", "this seat token does not belong to this table")}
        ws.send_json({"v": 3, "type": "pick", "seq": 0, "action": 0})
        assert ws.receive_json()["message"] == said("fr", "send hello first")
        ws.send_text('{"v": 3, "type": "dance"}')
        assert ws.receive_json()["message"] == said(
            "fr", "unknown message type {type} (one of {types})",
            type="'dance'", types="hello, pick, name, ping, withdraw, chat, react, mute, hand_over, rematch")
    with web.websocket_connect(f"/ws/tables/{table}", headers=DE_COOKIE) as ws:
        ws.send_json(bad_hello)
        assert ws.receive_json()["message"] == said("de", "this seat token does not belong to this table")
    with web.websocket_connect(f"/ws/tables/{table}") as ws:  # a bot's socket: English
        ws.send_json(bad_hello)
        assert ws.receive_json() == {"type": "error", "code": "bad_token", "v": 3,
                                     "message": "this seat token does not belong to this table"}


def test_a_socket_to_no_table_is_told_in_its_language(web: TestClient, bracketed: None) -> None:
    with web.websocket_connect("/ws/tables/nope", headers=FR) as ws:
        assert ws.receive_json() == {"type": "error", "code": "no_table", "v": 3,
                                     "message": said("fr", "no such table")}
    with web.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["message"] == "no such table"


# ------------------------------------------------------------------ per request, not per process


def test_a_burst_of_requests_in_two_languages_each_gets_its_own(web: TestClient, bracketed: None) -> None:
    """20 requests at once, French and English in turn: the language is each request's own
    (each signs in with a name of its own, so that a password check makes each wait while
    the others run)."""
    def ask(i: int) -> tuple[int, Any]:
        headers = FR if i % 2 == 0 else {"Accept-Language": "en-GB"}
        r = web.post("/api/account/signin", json={"name": f"Nobody_{i}", "password": "not the one"}, headers=headers)
        return r.status_code, r.json()

    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(ask, range(20)))
    for i, answer in enumerate(answers):
        assert answer == (401, {"error": said("fr", "wrong name or password") if i % 2 == 0 else
                                "wrong name or password"}), i
