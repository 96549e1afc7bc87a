"""Play now and notifications in a real browser (Debian's Chromium): several
players pressing Play now at once, the lobby's count, leaving, and the service
worker that shows a push (delivered through the DevTools protocol, as a push
service would)."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .test_account_page import VIEWPORTS, serious_violations, sign_in, sign_up_in, visible
from .test_browser import shot, watch_errors

pytestmark = pytest.mark.e2e


def open_options(page: Page) -> None:
    """Open "Table size, bots and rating" (once)."""
    if page.locator('[data-testid="play-panel"] details').get_attribute("open") is None:
        page.click("text=Table size, bots and rating")


def choose_size(page: Page, size: int) -> None:
    """Accept tables of ``size`` players only."""
    open_options(page)
    for n in range(2, 9):
        box = page.locator(f'[data-testid="play-size-{n}"]')
        if box.is_checked() != (n == size):
            box.click()


def test_players_pressing_play_now_at_once_sit_at_one_table(live_server: str, browser: Browser) -> None:
    pages: list[Page] = []
    errors: list[str] = []
    for who, size in (("Ann", "desktop"), ("Bob", "phone"), (None, "desktop")):
        page = browser.new_context(viewport=VIEWPORTS[size]).new_page()
        errors += watch_errors(page)
        if who is None:  # a signed-in player, unrated so that guests may sit with them
            sign_up_in(page, live_server, "Chef_" + uuid.uuid4().hex[:6])
        page.goto(live_server + "/")
        visible(page, "play-panel")
        if who is None:
            open_options(page)
            visible(page, "play-rated-row")
            page.locator('[data-testid="play-rated"]').uncheck()
            assert page.locator('[data-testid="play-name-row"]').is_hidden()  # the account's name it is
        else:
            page.fill('[data-testid="play-name"]', who)
        choose_size(page, 3)
        pages.append(page)
    for page in pages:
        page.click('[data-testid="play-base"]')
    for page in pages:
        visible(page, "play-matched")
        page.wait_for_function("() => /A table of 3 is ready/.test("
                               "document.querySelector('[data-testid=\"play-match-text\"]').textContent)")
    shot(pages[0], "play-now-matched-desktop")
    shot(pages[1], "play-now-matched-phone")
    assert serious_violations(pages[1]) == []
    for page in pages:
        page.click('[data-testid="play-confirm"]')
    tables = set()
    for page in pages:
        page.wait_for_url("**/t/**", timeout=20000)
        page.wait_for_function("() => document.querySelectorAll('[data-testid=\"seat-name\"]').length === 3")
        tables.add(page.url.split("/t/")[1].split("#")[0])
    assert len(tables) == 1  # the three sit at one table
    names = pages[1].locator('[data-testid="seat-name"]').all_text_contents()
    assert "Ann" in " ".join(names) and "Bob" in " ".join(names)
    shot(pages[1], "play-now-table-phone")
    assert errors == []


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_lobby_counts_who_waits_and_leaving_is_one_click(live_server: str, browser: Browser, size: str) -> None:
    waiting = browser.new_context(viewport=VIEWPORTS[size]).new_page()
    looking = browser.new_context(viewport=VIEWPORTS[size]).new_page()
    errors = watch_errors(waiting) + watch_errors(looking)
    waiting.goto(live_server + "/")
    looking.goto(live_server + "/")
    waiting.fill('[data-testid="play-name"]', "Patient")
    open_options(waiting)
    waiting.select_option('[data-testid="play-bots"]', "300")
    waiting.select_option('[data-testid="play-menu"]', "Master Menu")
    choose_size(waiting, 5)
    waiting.click('[data-testid="play-party"]')
    visible(waiting, "play-waiting")
    waiting.wait_for_function("() => /Master Menu.*Bots take the empty seats in [45] min/.test("
                              "document.querySelector('[data-testid=\"play-wait-text\"]').textContent)")
    looking.wait_for_function("() => document.querySelector('[data-testid=\"waiting-party\"]').textContent"
                              " === '1 waiting'", timeout=15000)
    shot(waiting, f"play-now-waiting-{size}")
    waiting.click('[data-testid="play-leave"]')
    visible(waiting, "play-form")
    waiting.wait_for_function("() => document.querySelector('[data-testid=\"play-status\"]').textContent"
                              " === 'You left the queue.'")
    looking.wait_for_function("() => document.querySelector('[data-testid=\"waiting-party\"]').textContent"
                              " === 'nobody waiting'", timeout=15000)
    assert errors == []


def test_notifications_on_the_account_page_and_the_service_worker_shows_a_push(live_server: str,
                                                                                browser: Browser) -> None:
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    context.grant_permissions(["notifications"], origin=live_server)
    page = context.new_page()
    errors = watch_errors(page)
    sign_up_in(page, live_server, "Bell_" + uuid.uuid4().hex[:6])
    visible(page, "push-panel")
    assert "no notifications" in page.locator('[data-testid="push-status"]').text_content()
    page.click('[data-testid="push-toggle"]')
    # headless Chromium has no push service to subscribe with: the page says so in one line
    page.wait_for_function("() => /could not be turned on|even with the page closed/.test("
                           "document.querySelector('[data-testid=\"push-status\"]').textContent)")
    status = page.locator('[data-testid="push-status"]').text_content() or ""
    assert "\n" not in status
    shot(page, "push-toggle-desktop")
    page.evaluate("() => navigator.serviceWorker.register('/sw.js', {scope: '/'})"
                  ".then(() => navigator.serviceWorker.ready)")
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, str]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")  # tells the registrations there are
    page.evaluate("() => navigator.serviceWorker.ready")  # (a round trip: the events are in)
    # every live registration of the site in this browser: another test's context (the same worker's
    # browser) may hold one too, and only this page's registration shows its notification here
    live = {r["registrationId"] for r in registrations
            if not r.get("isDeleted") and r.get("scopeURL", "").startswith(live_server)}
    assert live, registrations
    message = {"title": "Sushi Go!: your move", "body": "The table with Bob waits on you.", "url": "/t/x#as=0",
               "tag": "sushigo-turn-x"}
    page.evaluate("""async () => {  // the worker is activated (ready may resolve while it activates)
        const worker = (await navigator.serviceWorker.ready).active;
        if (worker.state !== "activated") {
            await new Promise(done => worker.addEventListener("statechange", () => {
                if (worker.state === "activated") done();
            }));
        }
    }""")
    for _ in range(5):  # a push Chromium drops on a loaded machine (its worker busy starting) is sent again
        for registration in sorted(live):
            cdp.send("ServiceWorker.deliverPushMessage", {"origin": live_server, "registrationId": registration,
                                                          "data": json.dumps(message)})
        try:  # the service worker shows it once the push event has run
            page.wait_for_function("async () => (await (await navigator.serviceWorker.ready)"
                                   ".getNotifications()).length > 0", timeout=10000)
            break
        except PlaywrightTimeout:
            continue
    shown = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map(n => [n.title, n.body, n.tag, n.data.url]);
    }""")
    assert shown == [[message["title"], message["body"], message["tag"], message["url"]]]
    assert errors == []


def test_a_match_found_is_confirmed_from_another_browser_of_the_account(live_server: str, browser: Browser) -> None:
    """What a notification's click does: the lobby opens on another device, finds the account's place and
    offers "Sit down" there."""
    name = "Away_" + uuid.uuid4().hex[:6]
    desk = browser.new_context(viewport=VIEWPORTS["desktop"]).new_page()
    sign_up_in(desk, live_server, name)
    desk.goto(live_server + "/")
    open_options(desk)
    desk.locator('[data-testid="play-rated"]').uncheck()
    choose_size(desk, 2)
    desk.select_option('[data-testid="play-bots"]', "300")
    desk.click('[data-testid="play-base"]')
    visible(desk, "play-waiting")
    desk.close()  # the page is gone; the place waits (this test's device gets no notifications: 45 s)
    phone = browser.new_context(viewport=VIEWPORTS["phone"]).new_page()
    errors = watch_errors(phone)
    sign_in(phone, live_server, name)
    guest = browser.new_context(viewport=VIEWPORTS["desktop"]).new_page()
    guest.goto(live_server + "/")
    guest.fill('[data-testid="play-name"]', "Guest")
    choose_size(guest, 2)
    guest.click('[data-testid="play-base"]')
    phone.goto(live_server + "/#play")
    visible(phone, "play-matched")
    shot(phone, "play-now-matched-elsewhere-phone")
    phone.click('[data-testid="play-confirm"]')
    visible(guest, "play-matched")
    guest.click('[data-testid="play-confirm"]')
    phone.wait_for_url("**/t/**", timeout=20000)
    guest.wait_for_url("**/t/**", timeout=20000)
    assert phone.url.split("/t/")[1].split("#")[0] == guest.url.split("/t/")[1].split("#")[0]
    assert errors == []
