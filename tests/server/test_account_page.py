"""The account page (/account) in headless Chromium, as a person uses it:
sign up and see the recovery codes once, sign out, sign in, forget the
password and recover with a code, at desktop and phone size (axe-core finds
nothing serious signed out or in); the lobby names whoever is signed in.
Screenshots go to build/screenshots/."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .conftest import sit_from_the_lobby
from .test_browser import ENABLED, api_create, invites, shot, watch_errors

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def visible(page: Page, testid: str) -> None:
    page.wait_for_selector(f'[data-testid="{testid}"]', state="visible")


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds serious or critical on the page as it is."""
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
    violations = axe_sync.Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in violations if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_sign_up_sign_out_sign_in_and_recover_with_a_code(live_server: str, browser: Browser, size: str) -> None:
    name = "P" + uuid.uuid4().hex[:10]  # the module's one server keeps every account
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(live_server + "/")
        assert page.locator('[data-testid="account-link"]').inner_text() == "Sign in"
        page.click('[data-testid="account-link"]')
        visible(page, "signup-form")
        shot(page, f"account-{size}-signed-out")
        assert serious_violations(page) == []

        page.fill('[data-testid="signup-name"]', name)
        page.fill('[data-testid="signup-password"]', "short")
        page.click('[data-testid="signup"]')  # the browser's own check stops it: no request
        assert page.locator('[data-testid="signed-out"]').is_visible()
        page.fill('[data-testid="signup-password"]', "correct horse")
        page.click('[data-testid="signup"]')
        visible(page, "codes-panel")
        codes = page.locator('[data-testid="codes"] li').all_inner_texts()
        assert len(codes) == 10
        shot(page, f"account-{size}-codes")
        page.click('[data-testid="codes-saved"]')
        visible(page, "signed-in")
        assert page.locator('[data-testid="account-name"]').inner_text() == name
        assert page.locator('[data-testid="codes"] li').count() == 0  # shown once, then gone
        shot(page, f"account-{size}-signed-in")
        assert serious_violations(page) == []

        page.goto(live_server + "/")  # the lobby names the account
        page.wait_for_function("(n) => document.querySelector('[data-testid=\"account-link\"]').textContent === n",
                               arg=name)
        page.goto(live_server + "/account")
        visible(page, "signed-in")
        page.click('[data-testid="signout"]')
        visible(page, "signed-out")

        page.fill('[data-testid="signin-name"]', name.lower())
        page.fill('[data-testid="signin-password"]', "wrong horse")
        page.click('[data-testid="signin"]')
        page.wait_for_function("() => document.querySelector('[data-testid=\"signin-error\"]').textContent !== ''")
        assert page.locator('[data-testid="signin-error"]').inner_text() == "wrong name or password"
        shot(page, f"account-{size}-wrong-password")

        page.click('[data-testid="recover"] summary')
        page.fill('[data-testid="recover-name"]', name)
        page.fill('[data-testid="recover-code"]', codes[0].lower())
        page.fill('[data-testid="recover-password"]', "battery staple")
        page.click('[data-testid="recover-submit"]')
        visible(page, "signed-in")
        assert "9 recovery codes are left" in page.locator('[data-testid="account-note"]').inner_text()
        shot(page, f"account-{size}-recovered")

        page.click('[data-testid="signout"]')
        visible(page, "signed-out")
        page.fill('[data-testid="signin-name"]', name)
        page.fill('[data-testid="signin-password"]', "battery staple")
        page.click('[data-testid="signin"]')
        visible(page, "signed-in")
        assert errors == []
    finally:
        ctx.close()


def test_the_session_cookie_is_out_of_the_pages_reach(live_server: str, browser: Browser) -> None:
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(live_server + "/account")
        visible(page, "signup-form")
        page.fill('[data-testid="signup-name"]', "C" + uuid.uuid4().hex[:10])
        page.fill('[data-testid="signup-password"]', "correct horse")
        page.click('[data-testid="signup"]')
        visible(page, "codes-panel")
        cookies: list[Any] = ctx.cookies()
        session = [c for c in cookies if c["name"] == "sushigo_session"]
        assert len(session) == 1 and session[0]["httpOnly"] and session[0]["sameSite"] == "Lax"
        assert "sushigo_session" not in page.evaluate("() => document.cookie")
    finally:
        ctx.close()


def sign_up_in(page: Page, base: str, name: str, password: str = "correct horse") -> None:
    page.goto(base + "/account")
    visible(page, "signup-form")
    page.fill('[data-testid="signup-name"]', name)
    page.fill('[data-testid="signup-password"]', password)
    page.click('[data-testid="signup"]')
    visible(page, "codes-panel")
    page.click('[data-testid="codes-saved"]')
    visible(page, "signed-in")


def sign_in(page: Page, base: str, name: str, password: str = "correct horse") -> None:
    page.goto(base + "/account")
    visible(page, "signin-form")
    page.fill('[data-testid="signin-name"]', name)
    page.fill('[data-testid="signin-password"]', password)
    page.click('[data-testid="signin"]')
    visible(page, "signed-in")


def test_a_seat_taken_signed_in_resumes_in_another_browser(live_server: str, browser: Browser) -> None:
    """Sign up, open an invite: the seat bears the account's name (no name asked); another
    browser signed into the account finds the table in the lobby and plays the seat."""
    name = "R" + uuid.uuid4().hex[:10]
    created = api_create(live_server, players=2, seats=["human", "bot:random"], seed=3)
    phone, laptop = browser.new_context(viewport=VIEWPORTS["phone"]), browser.new_context()
    try:
        first = phone.new_page()
        errors = watch_errors(first)
        sign_up_in(first, live_server, name)
        first.goto(invites(live_server, created)[0])
        first.wait_for_selector(ENABLED)  # named by the account: the game started without asking
        assert first.locator('[data-testid="name-form"]').is_hidden()
        assert name in first.locator('[data-testid="seat"][data-seat="0"]').inner_text()
        shot(first, "account-seat-phone")

        second = laptop.new_page()
        errors += watch_errors(second)
        sign_in(second, live_server, name)
        second.goto(live_server + "/")
        resume = second.locator('[data-testid="account-table"] [data-testid="resume-link"]')
        resume.wait_for()
        shot(second, "account-lobby-your-tables")
        resume.click()
        second.wait_for_url(f"**/t/{created['id']}#as=0")
        second.wait_for_selector(ENABLED)
        second.locator(ENABLED).first.click()
        second.wait_for_selector('[data-testid="log-line"][data-turn="1"]')  # the pick made the first turn
        shot(second, "account-seat-resumed")
        assert errors == []
    finally:
        phone.close()
        laptop.close()


def play_signed_in(base: str, cookie: str, created: dict[str, Any]) -> None:
    """Play a table's one human seat to the end over a real socket, signed in with ``cookie``."""
    from websockets.sync.client import connect

    token = created["seats"][0]["invite"].split("#seat=")[1]
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{created['id']}"
    with connect(ws_url, additional_headers={"Cookie": f"sushigo_session={cookie}"}, open_timeout=10) as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "token": token, "name": None, "last_seq": None}))
        while True:
            m = json.loads(ws.recv(timeout=30))
            assert m["type"] != "error", m
            if m["type"] != "state":
                continue
            if m["status"] == "finished":
                return
            view = m["view"]
            if view and view["legal_actions"] and view["committed"] is None:
                ws.send(json.dumps({"v": 1, "type": "pick", "seq": m["seq"], "action": view["legal_actions"][0]}))


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_players_page_lists_their_finished_games(live_server: str, browser: Browser, size: str) -> None:
    name = "H" + uuid.uuid4().hex[:10]
    signed = httpx.post(live_server + "/api/account/signup", json={"name": name, "password": "correct horse"})
    cookie = signed.cookies["sushigo_session"]
    for seats in (["human", "bot:random"], ["human", "bot:greedy", "bot:random"]):
        play_signed_in(live_server, cookie, api_create(live_server, players=len(seats), seats=seats))
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{live_server}/u/{name}")
        page.wait_for_selector('[data-testid="game"] >> nth=1')
        assert page.locator('[data-testid="player-name"]').inner_text() == name
        places = page.locator('[data-testid="place"]').all_inner_texts()
        assert [p.split(" of ")[1] for p in places] == ["3", "2"]  # newest first
        shot(page, f"player-{size}")
        page.select_option('[data-testid="filter-players"]', "2")
        page.wait_for_function("() => document.querySelectorAll('[data-testid=\"game\"]').length === 1")
        href = page.locator('[data-testid="download-all"]').get_attribute("href")
        assert href == f"/api/players/{name}/records"
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_ratings_show_on_the_leaderboard_the_players_page_and_the_lobby(live_server: str, browser: Browser,
                                                                       size: str) -> None:
    name = "G" + uuid.uuid4().hex[:10]
    signed = httpx.post(live_server + "/api/account/signup", json={"name": name, "password": "correct horse"})
    cookie = signed.cookies["sushigo_session"]
    for seats in (["human", "bot:random"], ["human", "bot:greedy"]):
        play_signed_in(live_server, cookie, api_create(live_server, players=2, seats=seats, rated=True))
    rating = httpx.get(f"{live_server}/api/players/{name}").json()["ratings"]["base"]
    shown = f"{rating['rating']}{'?' if rating['provisional'] else ''}"
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(live_server + "/ratings")
        row = page.locator('[data-testid="board-row"]', has_text=name)
        row.wait_for()
        assert shown in row.inner_text()
        assert "1000" in page.locator('[data-testid="board-row"]', has_text="random bot").inner_text()
        shot(page, f"ratings-{size}")
        page.click(f'text="{name}"')
        page.wait_for_selector('[data-testid="rating-chart"]')
        assert shown in page.locator('[data-testid="rating"]').inner_text()
        page.locator('[data-testid="game"] [data-testid="rating-change"]').nth(1).wait_for()  # the list comes apart
        assert page.locator('[data-testid="game"] [data-testid="rating-change"]').count() == 2
        shot(page, f"player-ratings-{size}")
        page.goto(live_server + "/")
        listed = page.locator('[data-testid="table-row"]', has_text=name).first
        listed.wait_for()
        assert f"{name} ({shown})" in listed.inner_text() and listed.locator('[data-testid="rated-tag"]').count()
        assert errors == []
    finally:
        ctx.close()


def test_a_guest_opening_a_rated_tables_invite_is_told_to_sign_in(live_server: str, browser: Browser) -> None:
    created = api_create(live_server, players=2, seats=["human", "bot:random"], rated=True)
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(invites(live_server, created)[0])
        page.wait_for_function("() => document.querySelector('[data-testid=\"error\"]').textContent.includes('rated')")
        assert "sign in" in page.locator('[data-testid="error"]').inner_text()
        shot(page, "rated-table-guest")
    finally:
        ctx.close()


def test_a_turn_based_table_from_the_lobby_counts_hours(live_server: str, browser: Browser) -> None:
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        sit_from_the_lobby(page, live_server, turn_hours="24")
        page.wait_for_function("() => document.querySelector('[data-testid=\"timer\"]').textContent.includes(' h ')")
        assert page.locator('[data-testid="timer"]').inner_text() in ("Time 24 h 00 min", "Time 23 h 59 min")
        shot(page, "turn-based-table")
        page.goto(live_server + "/")
        tag = page.locator('[data-testid="turn-based-tag"]').first
        tag.wait_for()
        assert tag.inner_text() == "turn-based · 24 h a move"
        assert errors == []
    finally:
        ctx.close()


def test_an_account_becomes_a_bot_and_makes_and_revokes_a_token(live_server: str, browser: Browser) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        sign_up_in(page, live_server, "Bot_" + uuid.uuid4().hex[:8])
        visible(page, "bot-off")
        page.fill('[data-testid="bot-password"]', "correct horse")
        page.click('[data-testid="bot-submit"]')
        visible(page, "bot-on")
        page.wait_for_selector('[data-testid="tokens"] li.empty')
        page.fill('[data-testid="token-label"]', "laptop")
        page.fill('[data-testid="token-password"]', "correct horse")
        page.click('[data-testid="token-submit"]')
        visible(page, "token-new")
        token = page.locator('[data-testid="token-new"] code').inner_text()
        assert token.startswith("sgb_")
        page.wait_for_selector('[data-testid="token"]')
        assert "laptop" in page.locator('[data-testid="token"]').inner_text()
        assert serious_violations(page) == []
        shot(page, "bot-account-token-desktop")
        bearer = {"Authorization": f"Bearer {token}"}
        assert httpx.get(live_server + "/api/bot/account", headers=bearer).status_code == 200
        page.click('[data-testid="token-revoke"]')
        page.wait_for_selector('[data-testid="tokens"] li.empty')
        assert httpx.get(live_server + "/api/bot/account", headers=bearer).status_code == 401
        assert errors == []
    finally:
        ctx.close()
