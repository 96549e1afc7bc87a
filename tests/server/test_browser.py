"""End-to-end tests of the browser pages (lobby and table) in headless Chromium.

Each test drives the real pages served by a real ``sushigo serve`` process
(the ``live_server`` fixture of ``conftest.py``) through Playwright, using
the ``data-testid`` hooks documented at the top of ``static/table.js`` and
``static/lobby.js``.  Debian's Chromium is launched by path; the module is
skipped where it (or Playwright) is missing.  Nothing is downloaded.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from optional_parts import CHROMIUM, browser_skip_reason

if not CHROMIUM.exists():
    pytest.skip(browser_skip_reason(), allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
httpx = pytest.importorskip("httpx")

from playwright.sync_api import Browser, BrowserContext, Locator, Page  # noqa: E402

from sushigo.engine.editions import explain, replay  # noqa: E402
from sushigo.engine.messages import render  # noqa: E402
from sushigo.engine.rules import RULE_OPTIONS  # noqa: E402

from .conftest import play_out, tokens  # noqa: E402

pytestmark = pytest.mark.e2e

# Anything a seat may click now: a legal card of the hand or another legal action.
# (Not a hidden pick that may still be changed: that is a decision made.)
DECIDING = '[data-testid="hand-section"]:not([data-changing="true"])'
ENABLED = (f'{DECIDING} [data-testid="hand"] [data-testid="card"][data-action]:enabled, '
           f'{DECIDING} [data-testid="actions"] [data-testid="action"]:enabled')
FINISHED = '[data-testid="winners"]:not([hidden])'
CONTINUE = '[data-testid="continue"]'
GAME_TIMEOUT = 120.0


# ------------------------------------------------------------------ fixtures


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    try:
        yield ctx
    finally:
        ctx.close()


def to_fixed(x: float, digits: int) -> str:
    """JavaScript's `Number.prototype.toFixed`: the exact binary value rounded half away from
    zero (Python's format rounds an exact tie such as 8.25 to even, the page shows 8.3)."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def watch_errors(page: Page) -> list[str]:
    """Collect script errors and dialogs (an alert would mean injected script ran)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

    def on_dialog(d: Any) -> None:
        errors.append(f"dialog: {d.message}")
        d.dismiss()

    page.on("dialog", on_dialog)
    return errors


# ------------------------------------------------------------------ helpers


def api_create(base: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(base + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def invites(base: str, created: dict[str, Any]) -> list[str]:
    return [base + s["invite"] for s in created["seats"] if s["kind"] == "human"]


def lobby_tag_shown(page: Page, base: str, table_id: str, tag: str) -> bool:
    """Open the lobby on ``page``: is table ``table_id``'s row listed with the ``tag`` pill?"""
    page.goto(base + "/")
    row = page.locator(f'[data-testid="table-row"][data-id="{table_id}"]')
    row.wait_for()
    return row.locator(f'[data-testid="{tag}"]').is_visible()


def join(page: Page, url: str, name: str) -> None:
    """Open an invite link and type a name into the name form."""
    page.goto(url)
    page.wait_for_selector('[data-testid="name-form"]:not([hidden])')
    page.fill('[data-testid="name-input"]', name)
    page.click('[data-testid="name-submit"]')
    page.wait_for_selector('[data-testid="connection"][data-state="open"]')


class ChopsticksFirst:
    """The original game: take chopsticks when offered, then use them (two clicks, made
    here: the call returns None), else pick the first legal card of the hand."""

    def __init__(self) -> None:
        self.pairs = 0

    def __call__(self, page: Page, rng: random.Random) -> str | None:
        toggle = page.locator('[data-testid="chopsticks-toggle"]')
        if toggle.is_visible():
            toggle.click()
            first = page.locator('[data-testid="hand"] [data-testid="card"]:enabled').first
            first.click()
            assert first.get_attribute("aria-pressed") == "true"
            second = page.locator(
                '[data-testid="hand"] [data-testid="card"]:enabled:not([aria-pressed="true"])').first
            second.click()
            page.wait_for_selector('[data-testid="hand"] [aria-pressed="true"]', state="detached")
            assert page.locator('[data-testid="error"]').is_hidden()
            self.pairs += 1
            return None
        cards = page.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled')
        chopsticks = cards.and_(page.locator('[data-card="chopsticks"]'))
        pick = chopsticks.first if chopsticks.count() else cards.first
        return pick.get_attribute("data-action") or ""


def action_button(page: Page, action: str) -> Locator:
    """The one-click control for ``action`` (a card of the hand or an action button); a
    chopsticks pair has none (the toggle, then two cards)."""
    return page.locator(
        f'[data-testid="hand"] [data-testid="card"][data-action="{action}"]:enabled, '
        f'[data-testid="actions"] [data-testid="action"][data-action="{action}"]:enabled'
    ).first


def click_action(page: Page, action: str) -> None:
    action_button(page, action).click()


def play_to_end(page: Page, choose: Callable[[Page, random.Random], str | None], seed: int = 0,
                on_turn: Callable[[Page], None] | None = None,
                on_round_end: Callable[[Page], None] | None = None) -> int:
    """Make every decision of this page's seat until the game is over, pressing
    Continue at each round's end (after ``on_round_end``); returns the decisions made."""
    rng = random.Random(seed)
    made = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while time.monotonic() < deadline:
        page.wait_for_selector(f"{FINISHED}, {ENABLED}, {CONTINUE}", timeout=30_000)
        if page.locator(FINISHED).count():
            return made
        if page.locator(CONTINUE).count():
            if on_round_end is not None:
                on_round_end(page)
            page.locator(CONTINUE).click()
            continue
        if on_turn is not None:
            on_turn(page)
        action = choose(page, rng)
        if action is not None:
            click_action(page, action)
        made += 1  # the page disables every choice until the server answers
    raise AssertionError(f"the game did not finish in time: {describe([page])}")


def table_state(page: Page, expr: str) -> Any:
    """`expr` over the table page's state S (table.js exports it: the pages keep nothing on window)."""
    return page.evaluate(f"async () => {{ const S = (await import('/static/table.js')).S; return {expr}; }}")


def finish_elsewhere(page: Page, base: str, created: dict[str, Any], seed: int = 3) -> None:
    """The page's seat (the table's first human seat) plays the rest of the game at
    random on a socket of its own; the page is then reloaded on the finished table
    (for tests of what a finished table offers: playing is tested elsewhere)."""
    secret = table_state(page, "S.token")  # what its invite's claim gave the page
    play_out(base, created["id"], secret, seed)
    page.reload()
    page.wait_for_selector(FINISHED)


def describe(pages: list[Page]) -> list[dict[str, Any]]:
    """What each page shows (for failure messages)."""
    return [p.evaluate("""async () => {
        const t = id => (document.querySelector('[data-testid="' + id + '"]') || {}).textContent;
        const S = document.querySelector('script[src="/static/table.js"]')
            ? (await import("/static/table.js")).S : {};
        return {status: t("status"), error: t("error"), round: t("round-info"), conn: t("connection"),
                seq: S.seq, stateSeq: S.stateSeq, pickedAt: S.pickedAt,
                legal: S.view && S.view.legal, committed: S.view && S.view.committed,
                picked: S.view && S.view.picked};
    }""") for p in pages]


def sheet_totals(page: Page) -> list[int]:
    cells = page.locator('[data-testid="scoresheet"] [data-testid="total"]')
    return [int(t) for t in cells.all_text_contents()]


def check_finished_page(page: Page, base: str, table_id: str) -> dict[str, Any]:
    """The final score sheet and winners match the server's table summary."""
    summary: dict[str, Any] = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()
    assert summary["status"] == "finished"
    page.wait_for_selector('[data-testid="scoresheet"] [data-testid="total"]')
    assert sheet_totals(page) == summary["totals"]
    winners = page.locator('[data-testid="winners"]').text_content() or ""
    names = [page.locator(f'[data-testid="scoresheet"] tr[data-seat="{w}"] th').text_content()
             for w in summary["winners"]]
    for name in names:
        assert name and name in winners
    assert page.locator('[data-testid="breakdown"]').count() == 3
    # every round explained in the engine's words, the last one open on the final screen
    game = replay(httpx.get(f"{base}/api/tables/{table_id}/record", timeout=10).json())
    for r in (1, 2, 3):
        story = explain(game, r)
        details = page.locator(f'[data-testid="breakdown"][data-round="{r}"]')
        shown = details.locator('[data-testid="explained"]').text_content() or ""
        for figures in story.figures:
            for figure in figures:
                assert figure.text in shown, (r, figure.text)
        for race in story.races:
            assert render(race)[1:] in shown
    assert page.locator('[data-testid="breakdown"][data-round="3"]').evaluate("d => d.open")
    # the end of the game explained (each seat's desserts per fruit, or the puddings) and the winner
    from sushigo.engine.editions import story_of

    names = [page.locator(f'[data-testid="scoresheet"] tr[data-seat="{s}"] th').text_content() or ""
             for s in range(len(summary["totals"]))]
    ending = page.locator('[data-testid="game-end"]').text_content() or ""
    for line in [x for x in story_of(game) if x.kind == "game"]:
        assert line.render(names) in ending
    return summary


def download_record(page: Page) -> dict[str, Any]:
    link = page.locator('[data-testid="record-link"]')
    assert link.is_visible()
    with page.expect_download() as info:
        link.click()
    path = info.value.path()
    assert path is not None
    record: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return record


def table_id_of(page: Page) -> str:
    return page.url.split("/t/")[1].split("#")[0]


# ------------------------------------------------------------------ tests


def test_lobby_base_game_against_three_bots(live_server: str, context: BrowserContext) -> None:
    """Create a table in the lobby form, play every turn by clicking cards, check scores and record."""
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/")
    page.wait_for_selector('[data-testid="seat-kind"][data-seat="3"]')
    page.check('[data-testid="edition-base"]')
    page.select_option('[data-testid="players"]', "4")
    page.select_option('[data-testid="seat-kind"][data-seat="0"]', "human")
    for seat in (1, 2, 3):
        page.select_option(f'[data-testid="seat-kind"][data-seat="{seat}"]', "bot:greedy")
    page.click('summary:has-text("Seed")')
    page.fill('[data-testid="seed"]', "11")
    page.click('[data-testid="create-submit"]')
    page.wait_for_selector('[data-testid="created"]:not([hidden])')
    invite = page.locator('[data-testid="invite"][data-seat="0"] [data-testid="invite-url"]').input_value()
    assert invite.startswith(live_server + "/t/") and "#seat=" in invite
    assert page.locator('[data-testid="spectate-url"]').input_value().startswith(live_server + "/t/")
    assert page.locator('[data-testid="play-button"]').text_content() == "Play as seat 1"
    page.click('[data-testid="play-button"]')
    page.wait_for_url("**/t/**")
    assert page.url == invite
    page.wait_for_selector('[data-testid="name-form"]:not([hidden])')
    page.fill('[data-testid="name-input"]', "Ana")
    page.press('[data-testid="name-input"]', "Enter")
    page.wait_for_selector('[data-testid="hand"] [data-testid="card"][data-action]:enabled')
    assert page.locator('[data-testid="seat"]').count() == 4
    assert page.locator('[data-testid="seat"][data-me="true"] [data-testid="seat-name"]').text_content() == "Ana"
    chooser = ChopsticksFirst()
    made = play_to_end(page, chooser)
    assert made == 24  # 8 cards x 3 rounds, one decision a turn (a chopsticks pair is one)
    assert chooser.pairs >= 1
    summary = check_finished_page(page, live_server, table_id_of(page))
    assert "Game over" in (page.locator('[data-testid="status"]').text_content() or "")
    record = download_record(page)
    assert record["format"] == "sushigo-record/1"
    assert record["result"]["totals"] == summary["totals"]
    pairs = sum(len(turn[0]) == 2 for rnd in record["rounds"] for turn in rnd["turns"])
    assert pairs == chooser.pairs
    # the lobby lists the finished game with its totals and record link
    page.goto(live_server + "/")
    row = page.locator(f'[data-testid="table-row"][data-id="{summary["id"]}"]')
    row.wait_for()
    assert row.get_attribute("data-status") == "finished"
    assert row.locator('[data-testid="record-link"]').count() == 1
    assert "Ana" in (row.locator('[data-testid="totals"]').text_content() or "")
    assert errors == []


def test_two_humans_in_two_browsers(live_server: str, browser: Browser) -> None:
    """Two players, each with their own invite link, play a whole game together (and a bot)."""
    created = api_create(live_server, edition="base", players=3, seats=["human", "human", "bot:greedy"],
                         pass_both_ways=True, seed=5)
    urls = invites(live_server, created)
    contexts = [browser.new_context(viewport={"width": 1000, "height": 800}) for _ in urls]
    try:
        pages = [c.new_page() for c in contexts]
        errors = [watch_errors(p) for p in pages]
        join(pages[0], urls[0], "Ana")
        pages[0].wait_for_selector('[data-testid="status"]:has-text("Waiting for 1 player to join")')
        join(pages[1], urls[1], "Bo")
        rng = random.Random(3)
        made = [0, 0]
        deadline = time.monotonic() + GAME_TIMEOUT
        while not all(p.locator(FINISHED).count() for p in pages):
            assert time.monotonic() < deadline, f"the game did not finish in time: {describe(pages)}"
            moved = False
            for i, p in enumerate(pages):
                if p.locator(CONTINUE).count():
                    p.locator(CONTINUE).click()
                    moved = True
                choices = p.locator(ENABLED)
                if choices.count():
                    action = choices.nth(rng.randrange(choices.count())).get_attribute("data-action")
                    click_action(p, action or "")
                    made[i] += 1
                    moved = True
            if not moved:
                pages[0].wait_for_timeout(30)
        assert made == [27, 27]  # 9 cards x 3 rounds each
        summary = check_finished_page(pages[0], live_server, created["id"])
        assert sheet_totals(pages[1]) == summary["totals"]
        for p in pages:
            names = p.locator('[data-testid="seat-name"]').all_text_contents()
            assert "Ana" in names and "Bo" in names
        assert errors == [[], []]
    finally:
        for c in contexts:
            c.close()


SPECIAL_PREFIX = ("chopsticks", "spoon", "menu", "takeout_box", "special_order")


def prefer_specials(page: Page, rng: random.Random) -> str:
    """Play specials when there are any (so their decisions come up), use them, else anything."""
    cards = page.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled')
    actions = page.locator('[data-testid="actions"] [data-testid="action"]:enabled')
    choices = [(c.get_attribute("data-card") or "", c.get_attribute("data-action") or "")
               for c in cards.all()]
    choices += [(a.get_attribute("data-text") or "", a.get_attribute("data-action") or "")
                for a in actions.all()]
    special = [a for t, a in choices if t.startswith(SPECIAL_PREFIX)]
    using = [a for t, a in choices if t != "pass"]
    if special and rng.random() < 0.8:
        return rng.choice(special)
    return rng.choice(using or [a for _, a in choices])


@pytest.mark.parametrize("specials", [("chopsticks", "menu"), ("spoon", "takeout_box")])
def test_party_custom_menu_decisions(live_server: str, context: BrowserContext,
                                     specials: tuple[str, str]) -> None:
    """A Party game on a custom menu made in the lobby form, with every kind of decision."""
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/")
    page.check('[data-testid="edition-party"]')
    page.select_option('[data-testid="players"]', "3")
    page.select_option('[data-testid="menu"]', "custom")
    slots = page.locator('[data-testid="custom-item"]')
    wanted = ["uramaki", "tempura", "eel", "onigiri", specials[0], specials[1], "fruit"]
    for i, item in enumerate(wanted):
        slots.nth(i).select_option(item)
    for seat in (1, 2):
        page.select_option(f'[data-testid="seat-kind"][data-seat="{seat}"]', "bot:greedy")
    page.click('summary:has-text("Seed")')
    page.fill('[data-testid="seed"]', "3")
    page.click('[data-testid="create-submit"]')
    page.wait_for_selector('[data-testid="created"]:not([hidden])')
    page.click('[data-testid="play-button"]')
    page.wait_for_selector('[data-testid="name-form"]:not([hidden])')
    page.fill('[data-testid="name-input"]', "Party Pat")
    page.click('[data-testid="name-submit"]')
    kinds: set[str] = set()

    def note(p: Page) -> None:
        d = p.locator('[data-testid="decision"]')
        if d.is_visible():
            text = d.text_content() or ""
            for k in ("Chopsticks", "Spoon", "Menu", "Takeout box"):
                if text.startswith("Your " + k):
                    kinds.add(k)

    made = play_to_end(page, prefer_specials, seed=1, on_turn=note)
    assert made >= 30  # 10 cards x 3 rounds, plus decisions
    summary = check_finished_page(page, live_server, table_id_of(page))
    assert summary["edition"] == "party"
    expected = {"chopsticks": "Chopsticks", "spoon": "Spoon", "menu": "Menu", "takeout_box": "Takeout box"}
    assert kinds == {expected[s] for s in specials}
    record = download_record(page)
    assert record["format"] == "sushigo-record/1"
    assert errors == []


def test_phone_layout_and_touch(live_server: str, browser: Browser) -> None:
    """360 px wide with touch: no horizontal scrolling, cards can be tapped."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True,
                              device_scale_factor=2)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(live_server + "/")
        page.wait_for_selector('[data-testid="seat-kind"]')
        page.check('[data-testid="edition-party"]')
        page.select_option('[data-testid="players"]', "8")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        created = api_create(live_server, edition="party", players=5, menu="Master Menu",
                             seats=["human"] + ["bot:greedy"] * 4, seed=9)
        join(page, invites(live_server, created)[0], "Pho Ne")
        for _ in range(4):
            card = page.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled').first
            card.wait_for()
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            turn = page.locator('[data-testid="round-info"]').text_content()
            card.tap()
            page.wait_for_function(
                "t => document.querySelector('[data-testid=\"round-info\"]').textContent !== t"
                " || !!document.querySelector('[data-testid=\"decision\"]:not([hidden])')",
                arg=turn)
            if page.locator('[data-testid="decision"]:not([hidden])').count():
                page.locator('[data-testid="actions"] [data-testid="action"]:enabled').first.tap()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert errors == []
    finally:
        ctx.close()


def test_names_are_text_not_html(live_server: str, browser: Browser) -> None:
    """Names made of HTML (at most 24 characters) are shown as text, at the table and in the lobby."""
    evil = ["<svg onload=alert(1)>", "<img src=x onerror=f()>"]
    created = api_create(live_server, edition="base", players=2, seats=["human", "human"])
    contexts = [browser.new_context() for _ in evil]
    try:
        pages = [c.new_page() for c in contexts]
        errors = [watch_errors(p) for p in pages]
        for page, url, name in zip(pages, invites(live_server, created), evil):
            join(page, url, name)
        for page in pages:
            page.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
            names = page.locator('[data-testid="seat-name"]').all_text_contents()
            assert sorted(names) == sorted(evil)
            assert page.locator("img, [onload], [onerror]").count() == 0
            assert page.locator('[data-testid="scoresheet"]').count() == 1
        lobby = pages[0]
        lobby.goto(live_server + "/")
        row = lobby.locator(f'[data-testid="table-row"][data-id="{created["id"]}"]')
        row.wait_for()
        assert all(name in (row.text_content() or "") for name in evil)
        assert lobby.locator("img, [onload], [onerror]").count() == 0
        assert errors == [[], []]
    finally:
        for c in contexts:
            c.close()


def test_reload_mid_game_continues(live_server: str, context: BrowserContext) -> None:
    """After a reload the page rejoins its seat with the same hand and can go on picking."""
    created = api_create(live_server, edition="base", players=3, seats=["human", "bot:greedy", "bot:greedy"],
                         seed=21)
    page = context.new_page()
    errors = watch_errors(page)
    join(page, invites(live_server, created)[0], "Re Load")
    for turn in (1, 2):
        page.wait_for_selector(f'[data-testid="round-info"]:has-text("turn {turn}")')
        page.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled').first.click()
    page.wait_for_selector('[data-testid="round-info"]:has-text("turn 3")')
    page.wait_for_selector('[data-testid="hand"] [data-testid="card"][data-action]:enabled')
    hand = page.locator('[data-testid="hand"] [data-testid="card"]').evaluate_all(
        "els => els.map(e => e.dataset.card)")
    mine = page.locator('[data-testid="seat"][data-me="true"] [data-testid="collection"]').text_content()
    page.reload()
    page.wait_for_selector('[data-testid="connection"][data-state="open"]')
    page.wait_for_selector('[data-testid="hand"] [data-testid="card"][data-action]:enabled')
    assert page.locator('[data-testid="name-form"]').is_hidden()
    assert page.locator('[data-testid="hand"] [data-testid="card"]').evaluate_all(
        "els => els.map(e => e.dataset.card)") == hand
    assert page.locator('[data-testid="seat"][data-me="true"] [data-testid="collection"]').text_content() == mine
    assert page.locator('[data-testid="seat"][data-me="true"] [data-testid="seat-name"]').text_content() == "Re Load"
    # the keyboard: Enter on a focused card picks it; focus comes back to the hand for the next turn
    page.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled').first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-testid="round-info"]:has-text("turn 4")')
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.matches("
        "'[data-testid=\"hand\"] [data-testid=\"card\"][data-action]:enabled')")
    page.keyboard.press("Space")
    page.wait_for_selector('[data-testid="round-info"]:has-text("turn 5")')
    assert errors == []


def test_errors_are_shown(live_server: str, context: BrowserContext) -> None:
    """A refused table shows the server's one-line error; a wrong seat token is reported, not retried."""
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/")
    page.check('[data-testid="edition-party"]')
    page.select_option('[data-testid="players"]', "8")
    page.select_option('[data-testid="menu"]', "Party Sampler")  # the Menu card is barred at 7-8
    page.select_option('[data-testid="seat-kind"][data-seat="0"]', "human")
    page.click('[data-testid="create-submit"]')
    message = page.locator('[data-testid="lobby-error"]')
    message.wait_for()
    assert "Menu" in (message.text_content() or "")
    assert page.locator('[data-testid="created"]').is_hidden()
    created = api_create(live_server, edition="base", players=2, seats=["human", "bot:random"])
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.clock.install()
    page.goto(f"{live_server}/t/{created['id']}#seat=not-a-real-token")
    page.wait_for_selector('[data-testid="error"]:has-text("not valid")')
    # no reconnect loop: a minute of the page's timers (a retry waits at most 10.3 s) opens no socket
    page.clock.run_for(60_000)
    assert len(sockets) == 1, sockets
    assert page.locator('[data-testid="connection"]').get_attribute("data-state") == "closed"
    assert page.locator('[data-testid="name-form"]').is_hidden()
    assert errors == []


def test_a_cancelled_table_says_so_and_offers_nothing_to_change(live_server: str, context: BrowserContext) -> None:
    """An ended table is read-only: the page says how it ended and shows no name, chat or mute controls."""
    created = api_create(live_server, edition="base", players=3, seats=["human", "human", "bot:random"])
    r = httpx.post(f"{live_server}/api/tables/{created['id']}/cancel", json={"creator": created["creator"]}, timeout=10)
    assert r.status_code == 200, r.text
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{live_server}/t/{created['id']}#seat={tokens(created)[0]}")
    page.wait_for_selector('[data-testid="status"]:has-text("This table was cancelled by its creator.")')
    for testid in ("name-form", "rename", "chat-form", "mute"):
        assert page.locator(f'[data-testid="{testid}"]').is_hidden(), testid
    assert errors == []


def test_the_lobby_form_takes_the_server_s_timer_range_and_the_party_options(live_server: str,
                                                                            context: BrowserContext) -> None:
    """One timer range, the server's: the field's min/max come from /api/options and a
    value outside it is refused in the page before it is sent; the Party options reach
    the table's rules."""
    options = httpx.get(live_server + "/api/options").json()
    low, high = options["timer"]
    before = len(httpx.get(live_server + "/api/tables").json()["tables"])
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/")
    timer = page.locator('[data-testid="timer"]')
    page.wait_for_function(f"() => document.querySelector('[data-testid=\"timer\"]').min === '{low}'")
    assert timer.get_attribute("max") == str(high)
    page.select_option('[data-testid="seat-kind"][data-seat="0"]', "human")
    for bad in (low - 1, high + 1):
        page.fill('[data-testid="timer"]', str(bad))
        page.click('[data-testid="create-submit"]')
        message = page.locator('[data-testid="lobby-error"]')
        message.wait_for()
        assert (message.text_content() or "") == f"The timer is a whole number of seconds from {low} to {high}."
        assert page.locator('[data-testid="created"]').is_hidden()
    assert len(httpx.get(live_server + "/api/tables").json()["tables"]) == before  # nothing was sent
    page.fill('[data-testid="timer"]', str(low))
    base_options = page.locator('[data-testid="base-options"]')
    base_options.locator('[data-testid="opt-reshuffle"]').wait_for()  # drawn from GET /api/options
    assert [o.label for o in RULE_OPTIONS if o.edition == "base"] == [
        (t or "").strip() for t in base_options.locator("label").all_text_contents()]
    page.check('[data-testid="edition-party"]')
    page.select_option('[data-testid="players"]', "3")
    page.select_option('[data-testid="menu"]', "My First Meal")
    page.click('summary:has-text("Party rule options")')
    page.select_option('[data-testid="opt-wasabi_colour"]', "own")  # the form is the engine's RULE_OPTIONS
    page.fill('[data-testid="opt-menu_card_draw"]', "3")
    page.check('[data-testid="opt-two_player_pudding_penalty"]')
    page.click('[data-testid="create-submit"]')
    page.wait_for_selector('[data-testid="created"]:not([hidden])')
    href = page.locator('[data-testid="spectate-link"]').get_attribute("href") or ""
    summary = httpx.get(live_server + "/api/tables/" + href.rsplit("/", 1)[-1]).json()
    assert summary["timer"] == low and summary["options"] == {
        "uramaki_split": "4-4-4", "menu_card_draw": 3, "two_player_pudding_penalty": True, "wasabi_colour": "own"}
    assert errors == []


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_no_card_name_breaks_inside_a_word(live_server: str, browser: Browser, viewport: dict[str, int]) -> None:
    """Every card's name fits its card, as a hand card, as a choice button and under a
    collection's card, on a desktop and a phone."""
    from sushigo import Card, PartyCard

    names = sorted({c.name_in_records for c in Card} | {c.name_in_records for c in PartyCard}
                   | {"special_order>salmon+wasabi", "special_order>face_down", "face_down"})
    ctx = browser.new_context(viewport=viewport)
    try:
        page = ctx.new_page()
        page.goto(live_server + "/")
        overflowing = page.evaluate("""async (names) => {
            const Cards = await import("/static/cards.js");
            const host = document.createElement("div");
            host.className = "hand";
            document.body.appendChild(host);
            const bad = [];
            for (const name of names) {
                for (const kind of ["hand", "choice"]) {
                    const card = Cards.element(name, {tag: "button", mini: kind === "choice"});
                    if (kind === "choice") card.classList.add("action-card");
                    host.appendChild(card);
                    const label = card.querySelector(".card-name");
                    label.style.overflowWrap = "normal";  // measured unbroken: a word must fit whole
                    if (label.scrollWidth > label.clientWidth + 1) bad.push(kind + ": " + label.textContent);
                }
                // and as the caption of a collection's card (with "on wasabi" for a nigiri on one)
                for (const text of [Cards.label(name), Cards.label(name) + " on wasabi"]) {
                    const group = document.createElement("div");
                    group.className = "group";
                    const caption = Cards.caption(text);
                    group.appendChild(caption);
                    host.appendChild(group);
                    if (caption.scrollWidth > caption.clientWidth + 1"""
            """ || getComputedStyle(caption).overflowWrap !== "normal") {
                        bad.push("collection: " + text);
                    }
                }
            }
            return bad;
        }""", names)
        assert overflowing == []
        assert page.evaluate("getComputedStyle(document.querySelector('.card-name')).overflowWrap") == "normal"
    finally:
        ctx.close()


def log_lines(page: Page) -> list[dict[str, Any]]:
    """Every line of the page's turn log, as drawn."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('[data-testid="log"] [data-testid="log-line"]'))
        .map(li => ({kind: li.dataset.kind, round: Number(li.dataset.round),
                     turn: li.dataset.turn === "" ? null : Number(li.dataset.turn),
                     seat: li.dataset.seat === "" ? null : Number(li.dataset.seat), text: li.textContent}))""")


def _labels(rules_party: bool, text: str) -> str:
    from sushigo.engine.base.cards import CARD_LABELS, parse_card
    from sushigo.engine.party.cards import PARTY_LABELS, parse_party_card

    name = text.split(">")[0].split("+")[0]
    return PARTY_LABELS[parse_party_card(name)] if rules_party else CARD_LABELS[parse_card(name)]


@pytest.mark.parametrize("edition, viewport", [
    ("base", {"width": 1280, "height": 800}),
    ("party", {"width": 390, "height": 844}),
])
def test_every_turn_is_told_and_every_round_end_kept(live_server: str, browser: Browser, edition: str,
                                                     viewport: dict[str, int]) -> None:
    """The turn log tells every reveal (a chopsticks pair as both cards, in order) and
    every special's effect as the record has them; each round's last reveal stays on
    screen, explained, until the player continues; a spectator goes on by itself."""
    from sushigo.engine.editions import story_of

    if edition == "base":
        body: dict[str, Any] = {"edition": "base", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"],
                                "seed": 21}
        chooser: Callable[[Page, random.Random], str | None] = ChopsticksFirst()
    else:
        body = {"edition": "party", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"], "seed": 7,
                "menu": ["nigiri", "uramaki", "tempura", "miso_soup", "eel", "chopsticks", "spoon", "fruit"]}
        chooser = prefer_specials
    created = api_create(live_server, **body)
    context = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500)
    # the spectator in a browser window of its own: a background tab of the player's would
    # draw only now and then, and every click waits for the page to draw
    watching = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        watcher = watching.new_page()
        errors = watch_errors(page)
        join(page, invites(live_server, created)[0], "Ana")
        watcher.goto(f"{live_server}/t/{created['id']}")
        ends: list[dict[str, Any]] = []

        def at_round_end(p: Page) -> None:
            panel = p.locator('[data-testid="round-end"]')
            assert p.locator('[data-testid="hand-section"]').is_hidden()  # the next round waits for you
            ends.append({
                "round": int(panel.get_attribute("data-round") or 0),
                "seats": [s.text_content() or "" for s in panel.locator('[data-testid="round-end-seat"]').all()],
                "cards": [int(g.get_attribute("data-count") or 0)
                          for g in panel.locator('[data-testid="round-end-seat"] [data-testid="group"]').all()],
            })

        play_to_end(page, chooser, seed=2, on_round_end=at_round_end)
        record = download_record(page)
        game = replay(record)
        names = record["meta"]["names"]
        assert names == ["Ana", "greedy bot 1", "greedy bot 2"]
        # the round ends, as they were shown: every seat, every card, every figure of the engine
        assert [e["round"] for e in ends] == [1, 2]
        for e in ends:
            story = explain(game, e["round"])
            cols = game.round_collections(e["round"])
            assert sum(e["cards"]) == sum(len(c) for c in cols) - sum(
                1 for col in cols for i, on in enumerate(record_on_wasabi(game, e["round"], col)) if on)
            for seat, shown in enumerate(e["seats"]):
                assert shown.startswith(names[seat])
                for figure in story.figures[seat]:
                    assert figure.text in shown
        # the final screen keeps round 3's cards
        page.wait_for_selector('[data-testid="round-end"][data-round="3"]')
        assert page.locator(CONTINUE).count() == 0
        # the log, as the page drew it, is the engine's story of the record, in names
        shown = [x for x in log_lines(page) if x["kind"] not in ("timer", "away", "back")]
        story = story_of(game)
        assert [(x["kind"], x["round"], x["turn"], x["seat"]) for x in shown] == [
            (line.kind, line.round, line.turn, line.seat) for line in story]
        assert [x["text"] for x in shown] == [line.render(names, 0) for line in story]
        # and, read against the record itself: each seat's cards of each turn, in order
        party = edition == "party"
        for number, rnd in enumerate(record["rounds"], 1):
            for turn, moves in enumerate(rnd["turns"], 1):
                picks = [x for x in shown if x["round"] == number and x["turn"] == turn and x["kind"] == "pick"]
                assert len(picks) == 3
                for line, seat_moves in zip(picks, moves):
                    cards = [seat_moves[0]] if party else seat_moves
                    text = line["text"]
                    at = 0
                    for card in cards:  # both cards of a pair, in play order
                        at = text.index(_labels(party, card), at) + 1
                    if party:
                        for special in seat_moves[1:]:
                            kind = special.split(":")[0].rstrip("0123456789")
                            if not special.endswith(":pass") and kind in ("chopsticks", "spoon"):
                                assert any(x["kind"] == kind and x["seat"] == line["seat"] and x["turn"] == turn
                                           for x in shown), special
        if party:
            assert {x["kind"] for x in shown} >= {"chopsticks", "spoon"}
        else:
            assert any(" used chopsticks to play " in x["text"] for x in shown)
        assert page.locator('[data-testid="log"]').get_attribute("role") == "log"
        # the spectator saw the same story and went on to each round by itself
        watcher.wait_for_selector(FINISHED)
        assert [x["text"] for x in log_lines(watcher)] == [x["text"] for x in log_lines(page)
                                                           if x["kind"] not in ("timer",)]
        assert errors == []
    finally:
        context.close()
        watching.close()


def record_on_wasabi(game: Any, number: int, col: Any) -> list[bool]:
    """Per card of a finished round's collection: a nigiri drawn on its wasabi (one group, not two)."""
    from sushigo.engine.base.scoring import wasabi_pairs
    from sushigo.engine.party.game import PartyGame

    if isinstance(game, PartyGame):
        return [p.on >= 0 for p in col]
    pairs = wasabi_pairs(list(col))
    return [i in pairs for i in range(len(col))]


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_no_serious_accessibility_violation(live_server: str, browser: Browser, viewport: dict[str, int]) -> None:
    """axe-core finds no serious or critical violation on the lobby, a table mid-game of
    each edition, a round's end and the final screen."""
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_sync.Axe()
    found: dict[str, list[str]] = {}

    def scan(page: Page, where: str) -> None:
        violations = axe.run(page).response["violations"]
        found[where] = [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in violations
                        if v["impact"] in ("serious", "critical")]

    ctx = browser.new_context(viewport=viewport)
    try:
        page = ctx.new_page()
        page.goto(live_server + "/")
        page.wait_for_selector('[data-testid="seat-kind"][data-seat="1"]')
        scan(page, "lobby")
        party = {"edition": "party", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"], "seed": 5,
                 "menu": ["nigiri", "uramaki", "tempura", "miso_soup", "eel", "menu", "spoon", "fruit"]}
        join(page, invites(live_server, api_create(live_server, **party))[0], "Ana")
        for _ in range(3):
            page.wait_for_selector(ENABLED)
            click_action(page, page.locator(ENABLED).first.get_attribute("data-action") or "")
        page.wait_for_selector(ENABLED)
        scan(page, "party mid-game")
        base = {"edition": "base", "players": 2, "seats": ["human", "bot:greedy"], "seed": 4}
        created = api_create(live_server, **base)
        page.goto(invites(live_server, created)[0])
        while True:  # the first round on the page, the rest elsewhere
            page.wait_for_selector(f"{ENABLED}, {CONTINUE}")
            if page.locator(CONTINUE).count():
                scan(page, "round end")
                break
            if "base mid-game" not in found and page.locator('[data-testid="log-line"]').count():
                scan(page, "base mid-game")
            click_action(page, page.locator(ENABLED).first.get_attribute("data-action") or "")
        finish_elsewhere(page, live_server, created)
        page.wait_for_selector('[data-testid="round-end"][data-round="3"]')
        scan(page, "final screen")
        assert set(found) == {"lobby", "party mid-game", "base mid-game", "round end", "final screen"}
        assert found == {where: [] for where in found}
    finally:
        ctx.close()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_the_rules_are_one_tap_away(live_server: str, browser: Browser, viewport: dict[str, int]) -> None:
    """The rules panel lists the table's dishes in the engine's words (by touch, by keyboard,
    closed with Escape); its memory aid shows the cards the view says this seat knows."""
    from sushigo.engine.guide import dishes
    from sushigo.engine.menus import parse_menu
    from sushigo.engine.rules import Rules

    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        menu = "Master Menu"
        created = api_create(live_server, edition="party", players=3, menu=menu,
                             seats=["human", "bot:greedy", "bot:greedy"], seed=3)
        join(page, invites(live_server, created)[0], "Ana")
        page.wait_for_selector(ENABLED)
        button = page.locator('[data-testid="rules-button"]')
        if viewport["width"] < 500:
            button.tap()
        else:
            button.click()
        panel = page.locator('[data-testid="rules-panel"]')
        page.wait_for_selector('[data-testid="dish"]')
        assert button.get_attribute("aria-expanded") == "true"
        expected = dishes(Rules.party(3, list(parse_menu(menu))))
        shown = panel.locator('[data-testid="dish"]')
        assert [d.get_attribute("data-item") for d in shown.all()] == [d.item for d in expected]
        for d, el in zip(expected, shown.all()):
            text = el.text_content() or ""
            assert d.name in text and d.rule in text and d.example in text
        page.check('[data-testid="memory-toggle"]')  # a Party view knows cards too
        page.keyboard.press("Escape")
        assert panel.is_hidden() and button.get_attribute("aria-expanded") == "false"
        assert page.evaluate("document.activeElement.dataset.testid") == "rules-button"
        for _ in range(2):  # the Party memory aid, after two turns: the view's known cards, in words
            page.wait_for_selector(ENABLED)
            click_action(page, page.locator(ENABLED).first.get_attribute("data-action") or "")
        page.wait_for_selector(ENABLED)
        from sushigo.engine.party.cards import PARTY_LABELS, parse_party_card
        for seat, cards in enumerate(table_state(page, "S.view.known_cards")):
            where = page.locator(f'[data-testid="seat"][data-seat="{seat}"] [data-testid="known-hand"]')
            assert where.count() == (1 if cards and seat != 0 else 0)
            if where.count():
                shown = (where.text_content() or "").split(": ", 1)[1]
                assert shown == ", ".join(PARTY_LABELS[parse_party_card(c)] for c in cards)

        # the original game, by keyboard, with the memory aid
        base = api_create(live_server, edition="base", players=3, seats=["human", "bot:greedy", "bot:greedy"], seed=6)
        page.goto(invites(live_server, base)[0])
        page.wait_for_selector(ENABLED)
        page.focus('[data-testid="rules-button"]')
        page.keyboard.press("Enter")
        page.wait_for_selector('[data-testid="dish"]')
        assert [d.get_attribute("data-item") for d in panel.locator('[data-testid="dish"]').all()] == [
            d.item for d in dishes(Rules(3))]
        assert page.locator('[data-testid="memory-toggle"]').is_checked()  # kept (localStorage)
        page.click('[data-testid="rules-close"]')
        for _ in range(3):  # after a few turns the hands that passed this seat are known
            page.wait_for_selector(ENABLED)
            click_action(page, page.locator(ENABLED).first.get_attribute("data-action") or "")
        page.wait_for_selector(ENABLED)
        known = table_state(page, "S.view.known_cards")
        whole = table_state(page, "S.view.known_hands")
        for seat, cards in enumerate(known):
            where = page.locator(f'[data-testid="seat"][data-seat="{seat}"] [data-testid="known-hand"]')
            if seat == 0 or not cards:
                assert where.count() == 0
                continue
            text = where.text_content() or ""
            from sushigo.engine.base.cards import CARD_LABELS, parse_card
            assert text.startswith("Holds: " if whole[seat] is not None else "Holds, among others: ")
            assert text.split(": ", 1)[1] == ", ".join(CARD_LABELS[parse_card(c)] for c in cards)
        assert any(c for s, c in enumerate(known) if s != 0)
        assert errors == []
    finally:
        ctx.close()


PASS_WATCH = """
window.__passes = [];
new MutationObserver(() => {
  const hand = document.querySelector('[data-testid="hand"]');
  if (hand && hand.classList.contains("passed-in")) window.__passes.push(getComputedStyle(hand).animationName);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["class"]});
"""


def test_a_passed_hand_slides_in_from_where_it_came(live_server: str, browser: Browser) -> None:
    ctx = browser.new_context(viewport={"width": 1000, "height": 800}, reduced_motion="no-preference")
    try:
        ctx.add_init_script(PASS_WATCH)
        page = ctx.new_page()
        created = api_create(live_server, edition="base", players=3, seats=["human", "bot:greedy", "bot:greedy"],
                             seed=12, pass_both_ways=True)
        join(page, invites(live_server, created)[0], "Ana")
        for _ in range(2):
            page.wait_for_selector(ENABLED)
            click_action(page, page.locator(ENABLED).first.get_attribute("data-action") or "")
        page.wait_for_selector(ENABLED)
        assert set(page.evaluate("window.__passes")) == {"pass-in"}  # round 1 passes left
    finally:
        ctx.close()


def test_your_turn_is_noticed_and_motion_can_be_reduced(live_server: str, browser: Browser) -> None:
    """With alerts on, a turn that becomes yours in a hidden tab sounds and notifies (never
    with alerts off); the reveal's animation stops under prefers-reduced-motion."""
    ctx = browser.new_context(viewport={"width": 1000, "height": 800}, permissions=["notifications"],
                              reduced_motion="reduce")
    try:
        ctx.add_init_script("Object.defineProperty(document, 'hidden', {get: () => !!window.__hidden});")
        ctx.add_init_script(PASS_WATCH)
        page = ctx.new_page()
        errors = watch_errors(page)
        created = api_create(live_server, edition="base", players=2, seats=["human", "bot:greedy"], seed=12)
        join(page, invites(live_server, created)[0], "Ana")
        toggle = page.locator('[data-testid="notify-toggle"]')
        assert toggle.get_attribute("aria-pressed") == "false"

        def pick_hidden() -> dict[str, int]:
            page.wait_for_selector(ENABLED)
            page.evaluate("window.__hidden = true")
            click_action(page, page.locator(ENABLED).first.get_attribute("data-action") or "")
            page.wait_for_selector(ENABLED)
            page.evaluate("window.__hidden = false")
            return table_state(page, "({...S.notified})")

        assert pick_hidden() == {"sounds": 0, "notifications": 0}  # off: nothing
        toggle.click()
        assert toggle.get_attribute("aria-pressed") == "true"
        got = pick_hidden()
        assert got["sounds"] == 1 and got["notifications"] == 1
        # a reveal's cards are marked fresh, without the animation
        fresh = page.locator('[data-testid="collection"] .group.fresh').first
        fresh.wait_for()
        assert fresh.evaluate("e => getComputedStyle(e).animationName") == "none"
        passes = page.evaluate("window.__passes")
        assert passes and set(passes) == {"none"}  # the passed hand does not slide either
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("edition, viewport", [
    ("party", {"width": 390, "height": 844}),
    ("base", {"width": 1280, "height": 800}),
])
def test_learn_to_play(live_server: str, browser: Browser, edition: str, viewport: dict[str, int]) -> None:
    """The lobby's Learn to play opens a table of the chosen edition and menu against two
    bots; before the first pick it explains each dish and lays out the demonstrations (the
    engine's words and scores), then guides one pick, reveal and pass."""
    from sushigo.engine.guide import demonstrations, dishes
    from sushigo.engine.menus import parse_menu
    from sushigo.engine.party.cards import MENU_IDS
    from sushigo.engine.rules import Rules

    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(live_server + "/")
        page.wait_for_selector('[data-testid="seat-kind"][data-seat="1"]')
        if edition == "party":
            page.check('[data-testid="edition-party"]')
            page.select_option('[data-testid="menu"]', "Party Sampler")
            rules = Rules.party(3, list(parse_menu("Party Sampler")))
        else:
            rules = Rules(3)
        page.click('[data-testid="learn-button"]')
        page.wait_for_url("**/t/**")
        page.wait_for_selector('[data-testid="name-form"]:not([hidden])')
        page.fill('[data-testid="name-input"]', "Newcomer")
        page.click('[data-testid="name-submit"]')
        lesson = page.locator('[data-testid="lesson"]')
        page.wait_for_selector('[data-testid="lesson"][data-step="intro"] [data-testid="lesson-dish"]')
        assert page.locator('[data-testid="hand-section"]').is_hidden()  # the lesson comes first
        shown = [d.get_attribute("data-item") for d in lesson.locator('[data-testid="lesson-dish"]').all()]
        assert shown == [d.item for d in dishes(rules)]
        text = " ".join((lesson.text_content() or "").split())
        for d in dishes(rules) + demonstrations(rules):
            assert d.rule in text and d.example in text
        assert lesson.locator('[data-testid="lesson-demo"]').count() == len(demonstrations(rules)) >= 1
        page.click('[data-testid="lesson-next"]')
        page.wait_for_selector('[data-testid="lesson"][data-step="pick"]')
        page.wait_for_selector(ENABLED)
        # a plain pick: a Menu card would open its own decision (choose from the cards it draws)
        # before the turn ends, and this step of the lesson is the plain reveal and pass
        offered = [b.get_attribute("data-action") or "" for b in page.locator(ENABLED).all()]
        click_action(page, next(a for a in offered if not a.isdigit() or int(a) not in MENU_IDS))
        page.wait_for_selector('[data-testid="lesson"][data-step="reveal"]')
        said = lesson.text_content() or ""
        assert "greedy bot 1" in said and "greedy bot 2" in said  # whom you passed to and received from
        page.click('[data-testid="lesson-next"]')
        page.wait_for_selector('[data-testid="lesson"][data-step="play"]')
        summary = httpx.get(f"{live_server}/api/tables/{table_id_of(page)}", timeout=10).json()
        assert summary["learn"] is True and summary["edition"] == edition
        assert [s["name"] for s in summary["seats"]] == ["Newcomer", "greedy bot 1", "greedy bot 2"]
        assert errors == []
    finally:
        ctx.close()


# ------------------------------------------------------------------ tables people come back to


SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def shot(page: Page, name: str) -> None:
    """A screenshot for people to look at (build/screenshots; not compared by the tests)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def hand_card(page: Page, k: int) -> Any:
    return page.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled').nth(k)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_change_your_pick_take_it_back_and_chat(live_server: str, browser: Browser, viewport: dict[str, int]) -> None:
    created = api_create(live_server, players=2, seats=["human", "human"], seed=13)
    urls = invites(live_server, created)
    contexts = [browser.new_context(viewport=viewport) for _ in urls]
    try:
        ana, bo = (c.new_page() for c in contexts)
        errors = [watch_errors(p) for p in (ana, bo)]
        join(ana, urls[0], "Ana")
        join(bo, urls[1], "Bo")
        ana.wait_for_selector('[data-testid="status"][data-your-turn="true"]')
        bo_seat0 = bo.locator('[data-testid="seat"][data-seat="0"]')
        # Ana picks one card, then another: Bo only ever sees that she picked
        first = hand_card(ana, 0)
        first_card = first.get_attribute("data-card")
        first.click()
        ana.wait_for_selector('[data-testid="hand-section"][data-changing="true"]')
        assert "you may choose another card" in ana.locator('[data-testid="status"]').inner_text()
        bo_seat0.locator('text=✓ picked').wait_for()
        other = ana.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled'
                            f':not([data-card="{first_card}"])').first
        second_card = other.get_attribute("data-card")
        other.click()
        ana.wait_for_selector(f'[data-testid="hand"] .chosen[data-card="{second_card}"]')
        tag = viewport["width"]
        shot(ana, f"change-pick-{tag}")
        # take it back: Bo sees her picking again
        ana.click('[data-testid="withdraw"]')
        bo_seat0.locator('text=picking…').wait_for()
        ana.wait_for_selector('[data-testid="hand-section"][data-changing="false"]')
        hand_card(ana, 0).click()  # picks again (the first card of the hand)
        picked = ana.locator('[data-testid="hand"] .chosen').get_attribute("data-card")
        bo_seat0.locator('text=✓ picked').wait_for()
        # chat: text stays text, reactions, a mute
        hostile = '<b>nice</b> & <img src=x onerror="window.pwned=1">'
        ana.fill('[data-testid="chat-input"]', hostile)
        ana.click('[data-testid="chat-send"]')
        bo.locator('[data-testid="chat-message"][data-seat="0"]').first.wait_for()
        assert bo.locator('[data-testid="chat-message"] .what').first.inner_text() == hostile
        assert bo.locator('[data-testid="chat-messages"] b, [data-testid="chat-messages"] img').count() == 0
        assert bo.evaluate("window.pwned") is None
        bo.click('[data-testid="reaction"][data-reaction="moment"]')
        ana.locator('[data-testid="chat-message"][data-seat="1"]:has-text("One moment, please.")').wait_for()
        bo.click('[data-testid="mute"][data-seat="0"]')
        bo.wait_for_selector('[data-testid="mute"][data-seat="0"][aria-pressed="true"]')
        ana.fill('[data-testid="chat-input"]', "muted words")
        ana.click('[data-testid="chat-send"]')
        ana.locator('[data-testid="chat-message"]:has-text("muted words")').wait_for()
        bo.fill('[data-testid="chat-input"]', "sent later")  # after Ana's, so it arrives after hers
        bo.click('[data-testid="chat-send"]')
        bo.locator('[data-testid="chat-message"]:has-text("sent later")').wait_for()
        assert bo.locator('[data-testid="chat-message"]:has-text("muted words")').count() == 0
        assert bo.locator('[data-testid="chat-message"][data-seat="0"]').count() == 0  # muted: hidden too
        shot(bo, f"chat-{tag}")
        # Bo picks: the reveal shows Ana's last pick in her collection
        hand_card(bo, 0).click()
        ana.wait_for_selector('[data-testid="seat"][data-seat="0"] [data-testid="collection"] [data-card]')
        assert picked is not None
        shown = ana.locator('[data-testid="seat"][data-seat="0"] [data-testid="collection"] [data-card]').first
        assert shown.get_attribute("data-card") == picked
        assert errors == [[], []]
    finally:
        for c in contexts:
            c.close()


def test_your_tables_resume_cancel_and_the_copy_link(live_server: str, context: BrowserContext) -> None:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/")
    page.select_option('[data-testid="players"]', "2")
    page.locator('[data-testid="seat-kind"][data-seat="1"]').select_option("human")
    page.check('[data-testid="opt-private"]')
    page.click('[data-testid="create-submit"]')
    page.wait_for_selector('[data-testid="created"]:not([hidden])')
    invite = page.locator('[data-testid="invite"][data-seat="0"] [data-testid="invite-url"]').input_value()
    table_id = invite.split("/t/")[1].split("#")[0]
    # private: not in the lobby's list, but in "Your tables" with Cancel
    page.goto(live_server + "/")
    mine = page.locator(f'[data-testid="my-table"][data-id="{table_id}"]')
    mine.wait_for()
    assert page.locator(f'[data-testid="tables-open"] [data-id="{table_id}"]').count() == 0
    # the seat's page remembers the seat; the spectator link on this browser offers it back
    page.goto(invite)
    page.wait_for_selector('[data-testid="name-form"]:not([hidden])')
    page.goto(live_server + f"/t/{table_id}")
    page.click('[data-testid="resume-seat"]')
    page.wait_for_selector('[data-testid="copy-invite"]')
    # the claim's secret, not the invite
    secret = page.evaluate(f"async () => (await import('/static/held.js')).seats.get({table_id!r}).token")
    assert secret != invite.split("#seat=")[1]
    assert page.evaluate("() => location.hash") == "#seat=" + secret
    page.goto(live_server + "/")
    resume = page.locator(f'[data-testid="my-table"][data-id="{table_id}"] [data-testid="resume-link"]')
    assert resume.get_attribute("href") == f"/t/{table_id}#seat=" + secret
    shot(page, "your-tables-1280")
    page.click(f'[data-testid="my-table"][data-id="{table_id}"] [data-testid="cancel-table"]')
    page.wait_for_selector(f'[data-testid="my-table"][data-id="{table_id}"][data-status="cancelled"]')
    assert httpx.get(f"{live_server}/api/tables/{table_id}", timeout=10).json()["status"] == "cancelled"
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('sushigo.seats'))")
    assert stored[table_id]["token"] == secret and stored[table_id]["creator"]
    assert errors == []


def test_play_again_takes_you_to_your_seat_at_the_new_table(live_server: str, context: BrowserContext) -> None:
    created = api_create(live_server, players=2, seats=["human", "bot:greedy"], seed=17)
    page = context.new_page()
    errors = watch_errors(page)
    join(page, invites(live_server, created)[0], "Ana")
    finish_elsewhere(page, live_server, created)
    page.click('[data-testid="play-again"]')
    page.wait_for_url(lambda url: created["id"] not in url and "#seat=" in url)
    new_id = page.url.split("/t/")[1].split("#")[0]
    page.wait_for_selector('[data-testid="status"][data-your-turn="true"]')  # named already: the game is on
    old = httpx.get(f"{live_server}/api/tables/{created['id']}", timeout=10).json()
    new = httpx.get(f"{live_server}/api/tables/{new_id}", timeout=10).json()
    assert old["rematch"] == new_id and new["rematch_of"] == created["id"]
    assert new["seats"][0]["name"] == "Ana" and new["seats"][1]["bot"] == "greedy"
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('sushigo.seats'))")
    assert stored[new_id]["token"] == page.url.split("#seat=")[1]
    shot(page, "rematch-1280")
    assert errors == []


def test_an_away_player_is_handed_to_the_bot_from_the_page(browser: Browser, tmp_path: Path) -> None:
    from .conftest import ServerProcess

    server = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}", "--away-after", "0")
    try:
        created = api_create(server.url, players=2, seats=["human", "human"], seed=3)
        urls = invites(server.url, created)
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        ctx_bo = browser.new_context(viewport={"width": 1280, "height": 800})  # a browser of his own
        ana, bo = ctx.new_page(), ctx_bo.new_page()
        errors = watch_errors(ana)
        join(ana, urls[0], "Ana")
        join(bo, urls[1], "Bo")
        ana.wait_for_selector('[data-testid="status"][data-your-turn="true"]')
        ctx_bo.close()
        button = ana.locator('[data-testid="hand-over"][data-seat="1"]')
        button.wait_for()
        assert "Bo is away" in button.inner_text()
        button.click()
        ana.locator('[data-testid="seat"][data-seat="1"] .badge.away:has-text("away: greedy plays")').wait_for()
        ana.locator('[data-testid="log"] li:has-text("Bo is away: greedy plays for them.")').first.wait_for()
        shot(ana, "hand-over-1280")
        hand_card(ana, 0).click()  # the bot picked for Bo: the turn is revealed
        ana.wait_for_selector('[data-testid="round-info"]:has-text("turn 2")')
        assert errors == []
        ctx.close()
    finally:
        server.stop()


# ------------------------------------------------------------------ hints


@pytest.mark.parametrize("edition, viewport", [
    ("base", {"width": 1280, "height": 800}),
    ("party", {"width": 390, "height": 844}),
])
def test_hints_show_your_estimates_and_nobody_elses(live_server: str, browser: Browser, edition: str,
                                                    viewport: dict[str, int]) -> None:
    """A table with hints: the lobby lists it as such; while a seat decides, its page lists every
    legal choice with its estimate, best first; the spectator's page never gets any."""
    body: dict[str, Any] = {"edition": edition, "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"],
                            "hints": True}
    if edition == "party":
        body["menu"] = "Master Menu"
    created = api_create(live_server, **body)
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500)
    watching = browser.new_context(viewport=viewport)
    try:
        lobby = ctx.new_page()
        assert lobby_tag_shown(lobby, live_server, created["id"], "hints-tag")
        page = ctx.new_page()
        errors = watch_errors(page)
        join(page, invites(live_server, created)[0], "Hinted")
        lobby.close()  # the player's page in front: a background tab draws only now and then
        spectator = watching.new_page()
        spectator.goto(live_server + created["spectate"])
        for turn in (1, 2, 3):
            page.wait_for_selector('[data-testid="hints"] [data-testid="hint-row"]', timeout=30_000)
            rows = page.locator('[data-testid="hint-row"]')
            legal = table_state(page, "S.view.legal_actions")
            actions = [int(r.get_attribute("data-action") or -1) for r in rows.all()]
            assert sorted(actions) == sorted(legal)
            assert rows.first.get_attribute("data-best") == "true"
            assert "best" in (rows.first.text_content() or "")
            if turn == 2:
                shot(page, f"hints-{edition}-{viewport['width']}")
            page.evaluate("async () => { window.__table = (await import('/static/table.js')).S; }")
            # the best may be a chopsticks pair (no one-click control): play the best single pick
            click_action(page, next(str(a) for a in actions if action_button(page, str(a)).count()))
            page.wait_for_function(
                "() => !document.querySelector('[data-testid=\"hints\"] [data-testid=\"hint-row\"]')"
                f" || window.__table.view.turn > {turn}")
        assert spectator.locator('[data-testid="hints"]').is_hidden()
        assert table_state(spectator, "S.hint") is None
        assert errors == []
    finally:
        ctx.close()
        watching.close()


@pytest.mark.parametrize("edition, viewport", [
    ("base", {"width": 1280, "height": 800}),
    ("party", {"width": 390, "height": 844}),
])
def test_analyse_my_game(live_server: str, browser: Browser, edition: str, viewport: dict[str, int]) -> None:
    """A finished table offers "Analyse my game": progress, then the server's analysis of the
    seat's decisions drawn as a graph, with every labelled decision and its better choice."""
    body: dict[str, Any] = {"edition": edition, "players": 2, "seats": ["human", "bot:greedy"]}
    if edition == "party":
        body["menu"] = "Dinner for Two"
    created = api_create(live_server, **body)
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 500)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        join(page, invites(live_server, created)[0], "Analysed")
        finish_elsewhere(page, live_server, created)
        page.click('[data-testid="analyse"]')
        page.wait_for_selector('[data-testid="analysis-summary"]', timeout=90_000)
        job = httpx.get(f"{live_server}/api/tables/{created['id']}/analysis?seat=0", timeout=10).json()
        doc = job["analysis"]["seats"][0]
        assert page.locator('[data-testid="eval-point"]').count() == len(doc["decisions"])
        labelled = [d for d in doc["decisions"] if d["label"]]
        items = page.locator('[data-testid="mistake"]')
        assert items.count() == len(labelled)
        for item, d in zip(items.all(), labelled):
            text = item.text_content() or ""
            assert d["played_words"] in text and d["best_words"] in text and to_fixed(d["loss"], 1) in text
        assert to_fixed(doc["summary"]["mean_loss"], 2) in (
            page.locator('[data-testid="analysis-summary"]').text_content() or "")
        page.locator('[data-testid="analysis"]').scroll_into_view_if_needed()
        shot(page, f"analysis-{edition}-{viewport['width']}")
        # learn from your mistakes: each labelled decision again, the answer after choosing
        assert labelled, "random play made no labelled decision"
        page.click('[data-testid="learn"]')
        for k, d in enumerate(labelled):
            retry = page.locator('[data-testid="retry"]')
            assert (retry.get_attribute("data-round"), retry.get_attribute("data-turn")) == (
                str(d["round"]), str(d["turn"]))
            assert page.locator('[data-testid="retry-answer"]').count() == 0  # nothing told before choosing
            cards = page.locator('[data-testid="retry-hand"] [data-card]')
            assert sorted(c.get_attribute("data-card") or "" for c in cards.all()) == sorted(d["hand"])
            choices = page.locator('[data-testid="retry-choice"]')
            assert sorted(c.get_attribute("data-action") or "" for c in choices.all()) == \
                sorted(v["action"] for v in d["values"])
            worst = d["values"][-1]
            page.click(f'[data-testid="retry-choice"][data-action="{worst["action"]}"]')
            answer = page.locator('[data-testid="retry-answer"]').text_content() or ""
            assert d["values"][0]["words"] in answer and d["played_words"] in answer
            if k == 0:
                shot(page, f"analysis-retry-{edition}-{viewport['width']}")
            page.click('[data-testid="retry-next"]')
        assert page.locator('[data-testid="retry"]').count() == 0
        page.reload()  # kept: the finished table shows it again without asking
        page.wait_for_selector('[data-testid="analysis-summary"]', timeout=20_000)
        assert errors == []
    finally:
        ctx.close()
