"""Cross-site requests and the pages' headers (issue 37, item 11; ``server/guard.py``).

A page of another site must not act through a visitor's browser: every
state-changing request (POST, PUT, PATCH, DELETE) that carries another
origin's ``Origin`` (or, without one, ``Sec-Fetch-Site: cross-site`` or a
foreign ``Referer``) is refused with 403 and changes nothing, by the very
rule the table WebSocket's handshake follows; requests from no page at all
(scripts, bots, curl) and from the server's own pages go on.  Every answer
carries a Content-Security-Policy that runs the package's own scripts only,
refuses framing, and the pages keep to it in a real browser.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from optional_parts import CHROMIUM, browser_skip_reason
from sushigo import Game
from sushigo.engine.editions import to_record
from sushigo.server.app import STATIC, create_app
from sushigo.server.replays import upload_id

from .conftest import create, make_client, play_out, sit_from_the_lobby, tokens
from .test_protocol import hello, ws_path

EVIL = "http://evil.example"
PAGES = ["/", "/t/abc", "/t/abc/replay", "/score", "/score/abc", "/replay", "/replay/0123456789abcdef0123", "/account",
         "/u/someone", "/ratings"]
"""Every page route (``GET``, HTML)."""


def refused(r: httpx.Response) -> None:
    """A cross-site refusal: 403, the API's one error shape, one line that says why."""
    assert r.status_code == 403, r.text
    body = r.json()
    assert set(body) == {"error"} and "\n" not in body["error"], body
    assert body["error"].startswith("cross-site request refused"), body


def _finished() -> Game:
    game = Game(2, seed=5)
    while not game.is_over:
        game.play([game.legal_actions(s)[0] for s in range(2)])
    return game


# ------------------------------------------------------------------ the Origin rule


def test_a_cross_site_text_plain_create_is_refused_and_makes_nothing(lite_client: TestClient) -> None:
    """The simple request another site's page may send without asking (a form, or a
    ``text/plain`` fetch): refused, no table, and no table counted against the address."""
    c = lite_client
    body = json.dumps({"players": 2, "seats": ["human", "bot:random"]})
    for headers in ({"Origin": EVIL, "Content-Type": "text/plain"},
                    {"Origin": "null", "Content-Type": "text/plain"},  # a sandboxed frame, a data: page
                    {"Origin": EVIL, "Content-Type": "application/x-www-form-urlencoded"},
                    # a browser that sends no Origin gives itself away otherwise
                    {"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"},
                    {"Referer": EVIL + "/prize.html", "Content-Type": "text/plain"}):
        refused(c.post("/api/tables", content=body, headers=headers))
    assert c.get("/api/tables").json()["tables"] == []
    # the body itself is a good one: a script (no Origin) gets its table with it
    made = c.post("/api/tables", content=body, headers={"Content-Type": "text/plain"})
    assert made.status_code == 201, made.text
    assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [made.json()["id"]]


def test_a_foreign_page_cannot_cancel_save_upload_or_analyse(sqlite_url: str) -> None:
    public = "https://sushi.example"
    with make_client(sqlite_url, allow_origins=(public,)) as c:
        created = create(c, players=2, seats=["human", "human"])
        table = created["id"]
        sheet = c.post("/api/sheets", json={"sheet": {"players": 2, "rounds": []}}).json()
        record = to_record(_finished())
        for origin in (EVIL, "http://sushi.example", "https://sushi.example:8443", "https://sushi.example.evil.example",
                       "https://evil.example"):
            foreign = {"Origin": origin}
            refused(c.post(f"/api/tables/{table}/cancel", json={"creator": created["creator"]}, headers=foreign))
            refused(c.put(f"/api/sheets/{sheet['id']}", json={"token": sheet["token"],
                                                             "sheet": {"players": 3, "rounds": []}}, headers=foreign))
            refused(c.post("/api/sheets", json={"sheet": {"players": 2, "rounds": []}}, headers=foreign))
            refused(c.post("/api/replays", json=record, headers=foreign))
            refused(c.post(f"/api/tables/{table}/analysis", json={"seat": 0}, headers=foreign))
            refused(c.post("/api/score/setup", json={"players": 2}, headers=foreign))
            for method in ("PATCH", "DELETE"):  # by method, whatever the route
                refused(c.request(method, f"/api/tables/{table}", headers=foreign))
        # nothing changed
        assert c.get(f"/api/tables/{table}").json()["status"] == "waiting"
        kept = c.get(f"/api/sheets/{sheet['id']}").json()
        assert kept["version"] == 1 and kept["sheet"]["players"] == 2
        assert c.get(f"/api/replays/{upload_id(record)}").status_code == 404
        # the public origin's pages, and scripts with no Origin, do all of it
        mine = {"Origin": public}
        saved = c.put(f"/api/sheets/{sheet['id']}", json={"token": sheet["token"],
                                                         "sheet": {"players": 3, "rounds": []}}, headers=mine)
        assert saved.status_code == 200 and saved.json()["version"] == 2, saved.text
        assert c.post("/api/replays", json=record, headers=mine).status_code == 201
        assert c.post("/api/score/setup", json={"players": 2}).status_code == 200
        assert c.request("DELETE", f"/api/tables/{table}", headers=mine).status_code == 405  # no such route
        cancelled = c.post(f"/api/tables/{table}/cancel", json={"creator": created["creator"]}, headers=mine)
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled", cancelled.text


def test_the_pages_that_may_act_are_those_that_may_open_a_socket(sqlite_url: str) -> None:
    """One rule for HTTP and the WebSocket: the configured origins exactly, the
    server's own IP address or localhost, no host name taken from the Host header."""
    with make_client(sqlite_url, allow_origins=("http://friend.example", "HTTP://TestServer:80/")) as c:
        created = create(c, players=2, seats=["human", "bot:greedy"])
        by_origin_ok = [{}, {"Origin": "http://testserver"}, {"Origin": "http://friend.example"},
                        {"Host": "127.0.0.1:8000", "Origin": "http://127.0.0.1:8000"},
                        {"Host": "[::1]:8000", "Origin": "http://[::1]:8000"},
                        {"Host": "localhost:8000", "Origin": "http://localhost:8000"}]
        by_origin_refused = [{"Origin": o} for o in (
            EVIL, "null", "", "https://testserver", "http://testserver:8000", "http://TESTSERVER",
            "http://testserver.evil.example", "http://friend.example.evil", "https://friend.example")] + [
            {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"},  # DNS rebinding
            {"Host": "127.0.0.1:8000", "Origin": "http://127.0.0.1:9000"}]
        for headers in by_origin_ok:
            r = c.post("/api/sheets", json={"sheet": {"players": 2, "rounds": []}}, headers=headers)
            assert r.status_code == 201, (headers, r.text)
            with c.websocket_connect(ws_path(created["id"]), headers=headers) as ws:
                hello(ws)
        for headers in by_origin_refused:
            refused(c.post("/api/sheets", json={"sheet": {"players": 2, "rounds": []}}, headers=headers))
            with pytest.raises(WebSocketDisconnect) as e, c.websocket_connect(ws_path(created["id"]), headers=headers):
                pass
            assert e.value.code == 1008, headers
        # without an Origin: what a browser's other headers say of the page
        for headers in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"},
                        {"Referer": "http://testserver/score"}, {"Referer": "http://friend.example/x?y#z"},
                        {"Referer": "about:client"}):
            r = c.post("/api/sheets", json={"sheet": {"players": 2, "rounds": []}}, headers=headers)
            assert r.status_code == 201, (headers, r.text)
        for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                        {"Referer": EVIL + "/"}, {"Referer": "https://testserver/"}):
            refused(c.post("/api/sheets", json={"sheet": {"players": 2, "rounds": []}}, headers=headers))
        # reading is never refused: any page may link to a table or fetch the lobby's list
        assert c.get("/api/tables", headers={"Origin": EVIL, "Sec-Fetch-Site": "cross-site"}).status_code == 200


# ------------------------------------------------------------------ the headers


def directives(r: httpx.Response) -> dict[str, list[str]]:
    """The answer's Content-Security-Policy, directive by directive."""
    policy = r.headers.get("content-security-policy")
    assert policy, (r.url, r.status_code, dict(r.headers))
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        assert name not in out, policy
        out[name] = values
    return out


def check_headers(r: httpx.Response) -> None:
    """The pages' policy and the frame, sniffing and referrer headers."""
    where = (r.request.method, str(r.url), r.status_code)
    csp = directives(r)
    for name, values in {"default-src": ["'self'"], "script-src": ["'self'"], "style-src": ["'self'"],
                         "object-src": ["'none'"], "base-uri": ["'self'"], "frame-ancestors": ["'none'"],
                         "form-action": ["'self'"]}.items():
        assert csp.get(name) == values, (where, name, csp)
    assert csp["connect-src"][0] == "'self'" and set(csp["connect-src"]) <= {"'self'", "ws://testserver",
                                                                             "wss://testserver"}, (where, csp)
    assert not any("unsafe" in v or v in ("*", "http:", "https:") for vs in csp.values() for v in vs), (where, csp)
    assert r.headers.get("x-frame-options") == "DENY", where
    assert r.headers.get("x-content-type-options") == "nosniff", where
    assert r.headers.get("referrer-policy") == "same-origin", where


def test_every_answer_carries_the_policy_and_refuses_frames(lite_client: TestClient) -> None:
    c = lite_client
    answers = [c.get(path) for path in PAGES]
    for r in answers:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), r.url
    created = c.post("/api/tables", json={"players": 2, "seats": ["human", "bot:random"]})
    answers += [created, c.post("/api/tables", json={"players": 2, "seats": ["human", "bot:random"]},
                                headers={"Origin": EVIL})]
    answers += [c.get(path) for path in (
        "/static/app.css", "/static/table.js", "/static/lobby.js", "/static/words.js", "/api/options",
        "/api/tables", f"/api/tables/{created.json()['id']}", "/api/tables/abc/replay?seat=x", "/api/nothing",
        "/api/openapi.json")]
    answers += [c.put("/api/tables"), c.post("/api/tables", content=b"{")]
    assert sorted({r.status_code for r in answers}) == [200, 201, 400, 403, 404, 405]
    for r in answers:
        check_headers(r)
    # the WebSocket's own host is named besides 'self' (which covers it only in current browsers)
    assert directives(answers[0])["connect-src"] == ["'self'", "ws://testserver", "wss://testserver"]
    odd = c.get("/", headers={"Host": "evil.example; script-src *"})
    assert directives(odd)["connect-src"] == ["'self'"]


def test_a_server_error_keeps_the_headers(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug's 500 is answered outside the middleware stack: it carries the headers too."""
    app = create_app(sqlite_url)
    with TestClient(app, raise_server_exceptions=False) as c:
        async def broken() -> list[Any]:
            raise RuntimeError("a bug")

        monkeypatch.setattr(app.state.service, "listing", broken)
        r = c.get("/api/tables")
        assert r.status_code == 500 and r.json() == {"error": "internal server error"}
        check_headers(r)


def test_the_openapi_page_runs_its_own_inline_script_only(lite_client: TestClient) -> None:
    """FastAPI's /api/docs (Swagger UI from its CDN) is the one page with an inline script:
    it is allowed by its hash, exactly what is sent, and nothing else inline."""
    r = lite_client.get("/api/docs")
    assert r.status_code == 200
    csp = directives(r)
    inline = re.findall(rb"<script>(.*?)</script>", r.content, re.DOTALL)
    assert inline
    hashes = ["'sha256-" + base64.b64encode(hashlib.sha256(s).digest()).decode() + "'" for s in inline]
    assert csp["script-src"] == ["https://cdn.jsdelivr.net", *hashes]
    assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"]
    assert r.headers["x-frame-options"] == "DENY"


class _Markup(HTMLParser):
    """What a page's markup holds that a CSP without 'unsafe-inline' would block."""

    def __init__(self) -> None:
        super().__init__()
        self.blocked: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            self.in_script = "src" not in names
            if "src" not in names or not (names["src"] or "").startswith("/static/"):
                self.blocked.append(f"<script {names}>")
        if tag == "style":
            self.blocked.append("<style>")
        for name, value in attrs:
            if name.startswith("on") or name == "style" or (value or "").strip().lower().startswith("javascript:"):
                self.blocked.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False


@pytest.mark.parametrize("page", sorted(p.name for p in STATIC.iterdir() if p.name.endswith(".html")))
def test_the_pages_have_no_inline_script_style_or_handler(page: str) -> None:
    markup = _Markup()
    markup.feed((STATIC / page).read_text(encoding="utf-8"))
    assert markup.blocked == []
    scripts = "\n".join(p.read_text(encoding="utf-8") for p in STATIC.iterdir() if p.name.endswith(".js"))
    for needle in ("eval(", "new Function", "javascript:", "setAttribute(\"style\"", ".cssText", "insertAdjacentHTML"):
        assert needle not in scripts, needle


# ------------------------------------------------------------------ in a browser


VIOLATION = ("Content Security Policy", "Refused", "securitypolicyviolation", "pageerror")
"""What Chromium's console says of a blocked script, style, connection or frame (and a script error)."""


@pytest.fixture
def csp_page(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page whose console messages and CSP violation events are collected."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script("""document.addEventListener("securitypolicyviolation", (e) =>
        console.error("securitypolicyviolation: " + e.violatedDirective + " " + e.blockedURI));""")
    page = ctx.new_page()
    seen: list[str] = []
    page.on("console", lambda m: seen.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: seen.append(f"pageerror: {e}"))
    try:
        yield page, seen
    finally:
        ctx.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason=browser_skip_reason())
def test_every_page_works_under_its_policy(live_server: str, csp_page: tuple[Any, list[str]]) -> None:
    """The lobby creates a table (a POST with the page's Origin), the table page plays a
    card over its WebSocket and opens its rules, Learn to play's lesson, a finished
    table, its replay, the upload form and an uploaded replay, the scorekeeper
    saves a sheet (POST, then PUT) and the account page signs up: not one CSP
    violation on the way.  Then another
    page frames the lobby: refused."""
    page, seen = csp_page
    sit_from_the_lobby(page, live_server)
    card = page.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled').first
    card.click()
    page.wait_for_selector('[data-testid="log-line"][data-turn="1"]')  # the first turn revealed
    page.click('[data-testid="rules-button"]')
    page.wait_for_selector('[data-testid="rules-panel"]:not([hidden]) .rules-body > *')
    # Learn to play: another table from the lobby, its lesson first
    page.goto(live_server + "/")
    page.click('[data-testid="learn-button"]')
    lesson = '[data-testid="lesson"][data-step="intro"] [data-testid="lesson-dish"]'
    page.wait_for_selector(f'{lesson}, [data-testid="name-form"]:not([hidden])')
    if page.locator('[data-testid="name-form"]:not([hidden])').count():  # asked unless this browser kept a name
        page.fill('[data-testid="name-input"]', "Newcomer")
        page.press('[data-testid="name-input"]', "Enter")
    page.wait_for_selector(lesson)
    # a game played to its end by a script: its final screen, watched, and its replay
    created = httpx.post(f"{live_server}/api/tables", json={"players": 2, "seats": ["human", "bot:random"]},
                         timeout=10).json()
    table = created["id"]
    play_out(live_server, table, tokens(created)[0], seed=2, name="Bo")
    page.goto(f"{live_server}/t/{table}")
    page.wait_for_selector('[data-testid="winners"]:not([hidden])')
    page.goto(f"{live_server}/t/{table}/replay#pov=0")
    page.wait_for_selector('[data-testid="moment"]:not([hidden])')
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.hash.endsWith('step=1')")
    # the upload form (POST /api/replays) and the uploaded record's replay
    record = httpx.get(f"{live_server}/api/tables/{table}/record", timeout=10).text
    page.goto(live_server + "/replay")
    page.fill('[data-testid="upload-text"]', record)
    page.click('[data-testid="upload-submit"]')
    page.wait_for_url("**/replay/*")
    page.wait_for_selector('[data-testid="moment"]:not([hidden])')
    # the scorekeeper: a sheet kept (POST /api/sheets), a card entered and saved (PUT)
    page.goto(live_server + "/score")
    page.select_option('[data-testid="players"]', "2")
    page.click('[data-testid="start"]')
    page.wait_for_selector('[data-testid="entry"]')
    page.locator('[data-testid="entry"]').first.locator('[data-testid="more"]').click()
    page.wait_for_function("() => document.querySelector('[data-testid=sync]').textContent === 'Saved'", timeout=15000)
    sheet = page.url.split("/score/")[1].split("#")[0]
    assert httpx.get(f"{live_server}/api/sheets/{sheet}", timeout=10).json()["version"] >= 2
    # the account page signs up (POST with the page's Origin) and shows the codes
    page.goto(live_server + "/account")
    page.fill('[data-testid="signup-name"]', "Csp_" + sheet[:8].replace("-", "_"))
    page.fill('[data-testid="signup-password"]', "correct horse")
    page.click('[data-testid="signup"]')
    page.wait_for_selector('[data-testid="codes-panel"]:not([hidden])')
    assert [m for m in seen if any(w in m for w in VIOLATION)] == [], seen
    # another site's page frames the lobby: the browser refuses to show it
    with page.expect_console_message(lambda m: "frame-ancestors" in m.text):
        page.set_content(f'<iframe src="{live_server}/" title="framed"></iframe>')
    frame = page.frames[1]
    assert frame.query_selector('[data-testid="create-form"]') is None
