"""Bot accounts on the pages, in a real browser (Debian's Chromium): a bot
account's page marks it and lets a signed-in person challenge it; once the bot
accepts (over the bot API), the page opens the table on the person's seat and
the bot's seat is marked as a bot there and in the lobby."""

from __future__ import annotations

import re
import threading
import uuid

import pytest
from playwright.sync_api import Browser

from .test_account_page import VIEWPORTS, serious_violations, sign_up_in, visible
from .test_bot_api import Person
from .test_browser import shot, watch_errors
from .test_play_now_page import choose_size

pytestmark = pytest.mark.e2e


def accept_one(bot: Person, done: threading.Event) -> None:
    """The bot answers its first challenge: it accepts (then stops listening)."""
    for event in bot.lines("/api/bot/stream/event"):
        if event["type"] == "challenge":
            r = bot.call(f"/api/bot/challenge/{event['challenge']['id']}/accept", {})
            assert r.status_code == 200, r.text
            done.set()
            return


def test_a_person_challenges_a_bot_from_its_page_and_sits_at_its_table(live_server: str, browser: Browser) -> None:
    name = "Deep_" + uuid.uuid4().hex[:6]
    bot = Person(live_server, name, bot=True)
    accepted = threading.Event()
    listener = threading.Thread(target=accept_one, args=(bot, accepted), daemon=True)
    listener.start()
    phone = browser.new_context(viewport=VIEWPORTS["phone"]).new_page()
    errors = watch_errors(phone)
    sign_up_in(phone, live_server, "Chef_" + uuid.uuid4().hex[:6])
    phone.goto(f"{live_server}/u/{name}")
    visible(phone, "challenge")
    assert phone.locator('[data-testid="bot-mark"]').is_visible()
    assert serious_violations(phone) == []
    shot(phone, "bot-player-page-phone")
    phone.select_option('[data-testid="challenge-timer"]', "300")
    phone.click('[data-testid="challenge-send"]')
    phone.wait_for_url(re.compile(r"/t/[^#/]+#as=\d$"), timeout=20000)
    assert accepted.is_set()
    phone.wait_for_selector(f"text={name} (bot)")  # the bot account's seat says so
    shot(phone, "bot-challenge-table-phone")
    desktop = browser.new_context(viewport=VIEWPORTS["desktop"]).new_page()
    errors += watch_errors(desktop)
    desktop.goto(live_server + "/")
    desktop.wait_for_selector(f"text={name} (bot)")  # the lobby's list of tables too
    shot(desktop, "bot-seat-lobby-desktop")
    desktop.goto(f"{live_server}/u/{name}")  # signed out: told how to challenge it
    desktop.wait_for_selector('[data-testid="challenge-status"]:has-text("Sign in (Your account) to challenge")')
    assert desktop.locator('[data-testid="challenge-form"]').is_hidden()
    assert errors == []
    listener.join(10)


def test_the_leaderboards_page_has_a_board_of_bot_accounts(live_server: str, browser: Browser) -> None:
    page = browser.new_context(viewport=VIEWPORTS["desktop"]).new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/ratings")
    visible(page, "board-kind")
    with page.expect_response(lambda r: "board=bots" in r.url):
        page.select_option('[data-testid="board-kind"]', "bots")
    shot(page, "ratings-bot-board-desktop")
    assert errors == []


def test_a_bot_account_in_play_now_takes_the_bot_seat_of_a_person(live_server: str, browser: Browser) -> None:
    name = "Queue_" + uuid.uuid4().hex[:6]
    bot = Person(live_server, name, bot=True)
    assert bot.call("/api/bot/queue", {"edition": "party", "sizes": [2]}).status_code == 201
    try:
        phone = browser.new_context(viewport=VIEWPORTS["phone"]).new_page()
        errors = watch_errors(phone)
        phone.goto(live_server + "/")
        visible(phone, "play-panel")
        phone.fill('[data-testid="play-name"]', "Ann")
        choose_size(phone, 2)
        phone.select_option('[data-testid="play-bots"]', "15")  # the shortest wait the lobby offers
        phone.click('[data-testid="play-party"]')
        phone.wait_for_selector('[data-testid="play-matched"]', state="visible", timeout=30000)
        text = phone.locator('[data-testid="play-match-text"]').text_content() or ""
        assert f"A table of 2 is ready: Ann and 1 bot ({name})." in text, text
        shot(phone, "play-now-bot-account-phone")
        phone.click('[data-testid="play-confirm"]')
        phone.wait_for_url(re.compile(r"/t/[^#/]+"), timeout=20000)
        phone.wait_for_selector(f"text={name} (bot)")
        shot(phone, "play-now-bot-account-table-phone")
        assert errors == []
    finally:
        bot.call("/api/bot/queue/leave", {})  # nothing of it stays in the shared server's queue
