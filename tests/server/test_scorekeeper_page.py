"""The scorekeeper page (/score) in headless Chromium at phone size: whole
tables' collections of both editions entered by tapping, every figure on
screen compared with an independent scorer; impossible entries; an earlier
round corrected; a reload and a lost network mid-round; the read-only link;
export, import and the image.  Screenshots go to build/screenshots/."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import reference
from sheet_samples import sheet_text
from sushigo.engine.base.game import Game
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules
from sushigo.engine.sheets import explain_sheet

from .conftest import ROOT

# The screenshots and error watch of the table's tests (importing them skips
# this module where Chromium is missing).
from .test_browser import shot as table_shot
from .test_browser import watch_errors

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 780}
BASE_NAMES = ["tempura", "sashimi", "dumpling", "maki1", "maki2", "maki3", "egg", "salmon", "squid", "wasabi",
              "chopsticks", "pudding"]


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport=PHONE, accept_downloads=True, has_touch=True)
    try:
        yield ctx
    finally:
        ctx.close()


def shot(page: Page, name: str) -> None:
    table_shot(page, f"scorekeeper-{name}")


def start(page: Page, url: str, names: list[str], *, menu: str | None = None) -> None:
    page.goto(url + "/score")
    page.wait_for_selector('[data-testid="start"]')
    if menu is not None:
        page.check('[data-testid="edition-party"]')
        page.select_option('[data-testid="menu"]', menu)
    page.select_option('[data-testid="players"]', str(len(names)))
    for i, n in enumerate(names):
        page.fill(f'[data-testid="name-{i}"]', n)
    page.click('[data-testid="start"]')
    page.wait_for_selector('[data-testid="entry"]')


def settled(page: Page) -> None:
    """The last change is scored and saved: the page says "Saving…" from a change
    until the server has scored it and keeps the sheet as it is after it."""
    page.wait_for_function("() => document.querySelector('[data-testid=sync]').dataset.state === 'open'", timeout=10000)


def enter(page: Page, seat: int, counts: dict[str, int], race: int | None = None) -> None:
    page.click(f'[data-testid="seat-{seat}"]')
    for key, n in counts.items():
        row = page.locator(f'[data-testid="entry"][data-key="{key}"]')
        row.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")
        before = int(row.get_attribute("data-count") or 0)
        for _ in range(n):
            row.locator('[data-testid="more"]').click()
        assert row.get_attribute("data-count") == str(before + n)
    if race is not None:
        page.select_option('[data-testid="race"]', str(race))


def done(page: Page) -> None:
    page.click('[data-testid="done"]')


def row_values(page: Page, testid: str) -> list[list[str]]:
    return [[td.inner_text() for td in tr.locator("td").all()]
            for tr in page.locator(f'[data-testid="{testid}"]').all()]


def seat_points(page: Page, players: int) -> list[int]:
    return [int(page.get_attribute(f'[data-testid="seat-{s}"]', "data-points") or -999) for s in range(players)]


def no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def reference_rounds(sheet: dict[str, Any]) -> tuple[list[list[int]], list[int]]:
    """The base sheet scored by tests/reference.py (written from the rules, not the engine)."""
    rounds = []
    for rnd in sheet["rounds"]:
        cols = [[BASE_NAMES.index(c) for c in col] for col in rnd]
        icons = [sum(reference.ICONS.get(c, 0) for c in col) for col in cols]
        maki = reference.maki_points(icons)
        rounds.append([reference.collection_points(col) + maki[s] for s, col in enumerate(cols)])
    puddings = [sum(col.count("pudding") for col in (rnd[s] for rnd in sheet["rounds"]))
                for s in range(sheet["players"])]
    return rounds, reference.pudding_points(puddings)


def test_a_whole_base_table_entered_on_a_phone(live_server: str, phone: BrowserContext) -> None:
    names = ["Ana", "Ben", "Chloé", "Dev"]
    game = Game(Rules(4), seed=41)
    game.random_playout(random.Random(41))
    sheet = {"players": 4, "rounds": [[[c.name_in_records for c in col] for col in game.round_collections(r)]
                                      for r in (1, 2, 3)]}
    entries = [rnd["entries"] for rnd in explain_sheet(sheet)["rounds"]]
    expected, pudding = reference_rounds(sheet)
    page = phone.new_page()
    errors = watch_errors(page)
    start(page, live_server, names)
    shot(page, "phone-first")
    for r in range(3):
        if r:
            page.click('[data-testid="next-round"]')
            page.wait_for_selector(f'[data-testid="tab-{r + 1}"][aria-current="true"]')
        for s in range(4):
            enter(page, s, entries[r][s])
            settled(page)
            if r == 1 and s == 1:
                shot(page, "phone-mid-round")
                page.reload()  # a reload in the middle of a round loses nothing
                page.wait_for_selector('[data-testid="entry"]')
                assert page.locator('[data-testid="sheet-note"]').is_hidden()  # its meta says what its rounds say
                page.click('[data-testid="seat-1"]')
                for key, n in entries[r][s].items():
                    assert page.get_attribute(f'[data-testid="entry"][data-key="{key}"]', "data-count") == str(n)
            figures = page.locator('[data-testid="figure"]').all()
            points = [f.get_attribute("data-points") for f in figures]
            if s < 3:
                assert page.locator('[data-testid="round-summary"]').inner_text().count("collections in") == 1
            done(page)
        settled(page)
        assert seat_points(page, 4) == expected[r], r
        lines = page.locator('[data-testid="race-line"]').all_inner_texts()
        assert len(lines) == 1 and lines[0].startswith("Maki icons")
        del points
    shot(page, "phone-end")
    no_horizontal_scroll(page)
    rounds = [[int(v) for v in row] for row in row_values(page, "sheet-round")]
    assert rounds == expected
    assert [int(v) for v in row_values(page, "sheet-dessert")[0]] == pudding
    totals = [sum(col) + pudding[s] for s, col in enumerate(zip(*expected))]
    assert [int(v) for v in row_values(page, "sheet-total")[0]] == totals
    winners = page.inner_text('[data-testid="winners"]')
    best = max(totals)
    assert str(best) in winners and any(names[s] in winners for s in range(4) if totals[s] == best)

    # the guide's remedy for a mistake: restore an earlier round and go on
    page.click('[data-testid="tab-1"]')
    wrong = next(k for k in entries[0][0] if " " not in k and k != "dumpling")
    page.click('[data-testid="seat-0"]')
    page.locator(f'[data-testid="entry"][data-key="{wrong}"] [data-testid="fewer"]').click()
    enter(page, 0, {"dumpling": 1})
    settled(page)
    assert "edited" in page.inner_text('[data-testid="tab-1"]')
    assert "(edited)" in page.locator('[data-testid="sheet-round"]').first.inner_text()
    fixed = dict(sheet, rounds=[[list(c) for c in rnd] for rnd in sheet["rounds"]])
    fixed["rounds"][0][0].remove(wrong)
    fixed["rounds"][0][0].append("dumpling")
    again, _ = reference_rounds(fixed)
    assert [int(v) for v in row_values(page, "sheet-round")[0]] == again[0]

    # export: the file is the spec's score sheet and sushigo score agrees with the page
    with page.expect_download() as info:
        page.click('[data-testid="export"]')
    path = info.value.path()
    out = subprocess.run([sys.executable, "-m", "sushigo", "score", str(path)], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert json.loads(out)["totals"] == [int(v) for v in row_values(page, "sheet-total")[0]]
    with page.expect_download() as info:
        page.click('[data-testid="image"]')
    assert Path(info.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert errors == []


def test_a_party_table_with_race_points_and_special_orders(live_server: str, phone: BrowserContext) -> None:
    menu = ["nigiri", "uramaki", "tempura", "eel", "tofu", "wasabi", "special_order", "pudding"]
    game = None
    for seed in range(200):
        candidate = PartyGame(Rules.party(3, menu), seed=seed)
        candidate.random_playout(random.Random(seed))
        texts = [sheet_text(p, col) for r in (1, 2, 3) for col in candidate.round_collections(r) for p in col]
        if any(t.startswith("special_order>") for t in texts) and any(candidate.round_race_points):
            game = candidate
            break
    assert game is not None
    sheet = {"edition": "party", "players": 3, "menu": menu, "options": game.rules.options(),
             "uramaki": game.round_race_points,
             "rounds": [[[sheet_text(p, col) for p in col] for col in game.round_collections(r)] for r in (1, 2, 3)]}
    entries = [rnd["entries"] for rnd in explain_sheet(sheet)["rounds"]]
    result = game.result()
    page = phone.new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/score")
    page.wait_for_selector('[data-testid="start"]')
    page.check('[data-testid="edition-party"]')
    page.select_option('[data-testid="menu"]', "")
    page.fill('[data-testid="custom-menu"]', ", ".join(menu))
    page.select_option('[data-testid="players"]', "3")
    for i, n in enumerate(["Ana", "Ben", "Cy"]):
        page.fill(f'[data-testid="name-{i}"]', n)
    page.click('[data-testid="start"]')
    page.wait_for_selector('[data-testid="entry"]')
    page.click('[data-testid="guide-button"]')
    assert page.locator('[data-testid="guide-panel"] [data-testid="dish"]').count() == 8
    shot(page, "phone-party-guide")
    page.click('[data-testid="guide-close"]')
    for r in range(3):
        if r:
            page.click('[data-testid="next-round"]')
        for s in range(3):
            enter(page, s, entries[r][s], race=game.round_race_points[r][s])
            settled(page)
            if r == 0 and s == 0:
                shot(page, "phone-party-entering")
            done(page)
        settled(page)
        assert seat_points(page, 3) == list(result.rounds[r]), r
    shot(page, "phone-party-end")
    no_horizontal_scroll(page)
    assert [int(v) for v in row_values(page, "sheet-total")[0]] == list(result.totals)
    assert [int(v) for v in row_values(page, "sheet-dessert")[0]] == list(result.pudding)
    assert page.locator('[data-testid="winners"]').count() == 1
    assert errors == []


def test_impossible_entries_are_said_where_they_happen(live_server: str, phone: BrowserContext) -> None:
    page = phone.new_page()
    start(page, live_server, ["Ana", "Ben"])
    enter(page, 0, {"egg": 11})
    settled(page)
    error = page.inner_text('[data-testid="seat-error"]')
    assert error == "Round 1, Ana: 11 cards, but a 2-player hand holds 10"
    assert "has-error" in (page.get_attribute('[data-testid="seat-0"]', "class") or "")
    shot(page, "phone-impossible")
    page.locator('[data-testid="entry"][data-key="egg"] [data-testid="fewer"]').click()
    settled(page)
    # ten eggs fit a hand, but the deck holds five
    assert page.inner_text('[data-testid="seat-error"]') == ("Round 1, Ana: 10 egg cards in all rounds, "
                                                             "but the deck holds 5")
    for _ in range(5):
        page.locator('[data-testid="entry"][data-key="egg"] [data-testid="fewer"]').click()
    settled(page)
    assert page.locator('[data-testid="sheet-error"]').is_hidden()
    assert seat_points(page, 2)[0] == 5
    # an imported sheet with a card that is not on its menu, or a nigiri on a wasabi it does not have: named at
    # the player as the form names them (from 1; a file's card position is the file's own)
    for bad, line in ((
            {"edition": "party", "players": 2, "menu": "Sushi Go!", "rounds": [[[], ["egg", "eel"]]]},
            "Round 1, Player 2, card 2: 'eel' is not on this game's menu"), (
            {"edition": "party", "players": 2, "menu": "Dinner for Two",
             "rounds": [[["special_order>squid+wasabi"], []]]},
            "Round 1, Player 1, card 1: 'special_order>squid+wasabi', but no empty wasabi is listed before it")):
        assert import_error(page, live_server, bad) == line


def import_sheet(page: Page, url: str, sheet: dict[str, Any]) -> None:
    page.goto(url + "/score")
    page.wait_for_selector('[data-testid="import"]')
    page.set_input_files('[data-testid="import"]', files=[{"name": "sheet.json", "mimeType": "application/json",
                                                            "buffer": json.dumps(sheet).encode()}])


def import_error(page: Page, url: str, sheet: dict[str, Any]) -> str:
    """Import a sheet the page must refuse: the line it says under the form."""
    import_sheet(page, url, sheet)
    page.wait_for_function("() => document.querySelector('[data-testid=setup-error]').textContent.length > 0"
                           " || !document.querySelector('[data-testid=sheet]').hidden")
    assert page.locator('[data-testid="sheet"]').is_hidden()
    return page.inner_text('[data-testid="setup-error"]')


def flagged(page: Page, players: int) -> list[bool]:
    return ["has-error" in (page.get_attribute(f'[data-testid="seat-{s}"]', "class") or "").split()
            for s in range(players)]


def shown_points(page: Page, players: int) -> list[str | None]:
    return [page.get_attribute(f'[data-testid="seat-{s}"]', "data-points") for s in range(players)]


def test_too_many_copies_is_named_at_its_round_and_player(live_server: str, phone: BrowserContext) -> None:
    """The deck holds 6 wasabi: the player whose wasabi make 7 is named (an unnamed
    second player is "Player 2", as on the form) and flagged alone; while the entry
    is impossible no player shows points and no next round is offered."""
    page = phone.new_page()
    errors = watch_errors(page)
    start(page, live_server, ["Ana", ""])
    enter(page, 0, {"tempura": 2, "wasabi": 4})
    done(page)
    enter(page, 1, {"wasabi": 3})
    done(page)
    settled(page)
    line = "Round 1, Player 2: 3 wasabi cards here make 7 in all rounds, but the deck holds 6"
    page.click('[data-testid="seat-1"]')
    assert page.inner_text('[data-testid="seat-error"]') == line
    assert flagged(page, 2) == [False, True]
    assert shown_points(page, 2) == ["", ""]
    assert page.locator('[data-testid="next-round"]').count() == 0
    shot(page, "phone-impossible-base")
    page.click('[data-testid="seat-0"]')  # at another player, the banner over the sheet names it
    assert page.inner_text('[data-testid="sheet-error"]') == line
    page.click('[data-testid="seat-1"]')
    page.locator('[data-testid="entry"][data-key="wasabi"] [data-testid="fewer"]').click()
    settled(page)
    assert page.locator('[data-testid="seat-error"]').count() == 0
    assert page.locator('[data-testid="sheet-error"]').is_hidden()
    assert shown_points(page, 2) == ["5", "0"]
    assert page.locator('[data-testid="next-round"]').count() == 1
    assert errors == []


def test_party_too_many_copies_names_one_player(live_server: str, phone: BrowserContext) -> None:
    """Party counts copies per round: the box's 3 squid pass at Ben, who alone is flagged."""
    page = phone.new_page()
    errors = watch_errors(page)
    start(page, live_server, ["Ana", "Ben", "Cy"], menu="Sushi Go!")
    enter(page, 0, {"squid": 2, "tempura": 2})
    done(page)
    enter(page, 1, {"squid": 2})
    settled(page)
    assert page.inner_text('[data-testid="seat-error"]') == ("Round 1, Ben: 2 squid cards here make 4 in this round, "
                                                             "but the box holds 3")
    assert flagged(page, 3) == [False, True, False]
    assert shown_points(page, 3) == ["", "", ""]
    shot(page, "phone-impossible-party")
    assert errors == []


def test_an_import_scores_the_rounds_not_a_meta_that_disagrees(
        live_server: str, phone: BrowserContext, tmp_path: Path) -> None:
    import httpx

    page = phone.new_page()
    errors = watch_errors(page)
    exported = {"players": 2, "rounds": [[["tempura", "tempura"], ["squid"]]],
                "meta": {"names": ["Ana", "Ben"], "edited": [], "entered": [[0, 1]], "race": [[0, 0]],
                         "entries": [[{"tempura": 2}, {"squid": 1}]]}}
    import_sheet(page, live_server, exported)  # what the page exported: its meta says what its rounds say
    page.wait_for_function("() => document.querySelector('[data-testid=seat-1]')?.dataset.points === '3'")
    assert page.locator('[data-testid="sheet-note"]').is_hidden()
    # edited by hand: Ben's squid sat on a wasabi
    edited = json.loads(json.dumps(exported))
    edited["rounds"][0][1] = ["wasabi", "squid"]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    expected = json.loads(subprocess.run([sys.executable, "-m", "sushigo", "score", str(path)], capture_output=True,
                                         text=True, check=True, cwd=ROOT).stdout)
    import_sheet(page, live_server, edited)
    page.wait_for_selector('[data-testid="sheet-note"]:not([hidden])')
    settled(page)
    assert page.inner_text('[data-testid="sheet-note"]') == (
        "This sheet's meta did not match its rounds (from round 1, Ben): the rounds are scored, as sushigo score "
        "scores them, and the meta's counts were dropped.")
    assert [int(p or -1) for p in shown_points(page, 2)] == expected["rounds"][0] == [5, 9]
    assert [int(v) for v in row_values(page, "sheet-total")[0]] == expected["totals"]
    shot(page, "phone-import-meta-dropped")
    # the sheet it keeps is the rounds' sheet
    sheet_id = page.url.split("/score/")[1].split("#")[0]
    kept = httpx.get(live_server + f"/api/sheets/{sheet_id}").json()["sheet"]
    assert httpx.post(live_server + "/api/score", json=kept).json() == expected
    # rounds edited into an impossible sheet are refused, the meta's counts notwithstanding
    edited["rounds"][0][0] = ["tempura"] * 11
    assert import_error(page, live_server, edited) == "Round 1, Ana: 11 cards, but a 2-player hand holds 10"
    # ... while the page's own export of an impossible entry opens, the entry shown where it is
    edited["meta"]["entries"][0] = [{"tempura": 11}, {"wasabi squid": 1}]
    import_sheet(page, live_server, edited)
    page.wait_for_selector('[data-testid="seat-error"]')
    assert page.inner_text('[data-testid="seat-error"]') == "Round 1, Ana: 11 cards, but a 2-player hand holds 10"
    assert page.locator('[data-testid="sheet-note"]').is_hidden()
    assert errors == []


def test_offline_entries_are_kept_and_sent_when_the_network_returns(
        live_server: str, phone: BrowserContext, browser: Browser) -> None:
    import httpx

    page = phone.new_page()
    start(page, live_server, ["Ana", "Ben", "Cy"])
    enter(page, 0, {"tempura": 2})
    settled(page)
    sheet_id = page.url.split("/score/")[1].split("#")[0]
    watcher = browser.new_context(viewport=PHONE)
    try:
        view = watcher.new_page()
        view.clock.install()  # the watching page polls every 5 s: its clock is run forward below
        view.goto(live_server + f"/score/{sheet_id}")
        view.wait_for_selector('[data-testid="readonly"]:not([hidden])')
        assert view.locator('[data-testid="more"]').count() == 0
        assert seat_points(view, 3)[0] == 5
        phone.set_offline(True)
        enter(page, 1, {"sashimi": 3})
        page.wait_for_function("() => document.querySelector('[data-testid=sync]').dataset.state === 'closed'",
                               timeout=10000)
        assert "Offline" in page.inner_text('[data-testid="sheet-error"]')
        shot(page, "phone-offline")
        assert httpx.get(live_server + f"/api/sheets/{sheet_id}").json()["sheet"]["rounds"][0][1] == []
        phone.set_offline(False)
        page.wait_for_function("() => document.querySelector('[data-testid=sync]').textContent === 'Saved'",
                               timeout=15000)
        assert httpx.get(live_server + f"/api/sheets/{sheet_id}").json()["sheet"]["rounds"][0][1] == ["sashimi"] * 3
        view.clock.run_for(5000)  # its next poll
        view.wait_for_function("() => document.querySelector('[data-testid=seat-1]').dataset.points === '10'",
                               timeout=15000)
        shot(view, "phone-watching")
        # a closed tab: the sheet is listed on /score and opens again, editable
        page.close()
        again = phone.new_page()
        again.goto(live_server + "/score")
        again.click('[data-testid="my-sheet"]')
        again.wait_for_selector('[data-testid="entry"]')
        assert sheet_id in again.url
        assert seat_points(again, 3)[:2] == [5, 10]
    finally:
        watcher.close()


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_no_serious_accessibility_violation(live_server: str, browser: Browser, viewport: dict[str, int]) -> None:
    axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_sync.Axe()
    found: dict[str, list[str]] = {}
    ctx = browser.new_context(viewport=viewport)
    try:
        page = ctx.new_page()

        def scan(where: str) -> None:
            violations = axe.run(page).response["violations"]
            found[where] = [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in violations
                            if v["impact"] in ("serious", "critical")]

        page.goto(live_server + "/score")
        page.wait_for_selector('[data-testid="start"]')
        scan("setup")
        start(page, live_server, ["Ana", "Ben", "Cy"], menu="Master Menu")
        enter(page, 0, {"tempura": 1} if page.locator('[data-key="tempura"]').count() else {"egg": 1})
        settled(page)
        scan("entering")
        page.click('[data-testid="guide-button"]')
        scan("guide")
        if viewport["width"] > 1000:
            shot(page, "desktop-party")
    finally:
        ctx.close()
    assert found == {k: [] for k in found}


def test_the_keyboard_enters_a_collection(live_server: str, browser: Browser) -> None:
    """On a laptop: Tab reaches every control, Enter and Space press them, and the
    focus stays on the button just pressed while the page redraws."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        start(page, live_server, ["Ana", "Ben"])
        page.focus('[data-testid="entry"][data-key="squid"] [data-testid="more"]')
        page.keyboard.press("Enter")
        page.keyboard.press("Space")
        assert page.get_attribute('[data-testid="entry"][data-key="squid"]', "data-count") == "2"
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "One more Squid nigiri for Ana"
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")  # the − of the same row
        assert page.get_attribute('[data-testid="entry"][data-key="squid"]', "data-count") == "1"
        settled(page)
        labels = page.evaluate("""Array.from(document.querySelectorAll('button, select, input, a[href]'))
            .filter(e => e.offsetParent !== null)
            .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels && e.labels.length))
            .map(e => e.outerHTML.slice(0, 80))""")
        assert labels == []
        assert seat_points(page, 2)[0] == 3
    finally:
        ctx.close()
