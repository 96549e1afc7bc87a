"""A scan of what the pages show for English left behind, in every language sushigo speaks:
each page's text (its elements, options and readable attributes) in a real browser, at its
first screen and through whole games of both editions (the table's turns, round ends and
end), may hold no English message the language translates and no English word the
language does not use."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from sushigo.i18n import LANGUAGES, page_catalog

from .test_account_page import VIEWPORTS
from .test_browser import api_create, invites, join, play_to_end, shot, watch_errors

pytestmark = pytest.mark.e2e

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
ENGLISH_WORDS = frozenset([
    "the", "and", "your", "you", "with", "this", "that", "for", "not", "are", "have", "has", "from", "when", "what",
    "who", "there", "their", "were", "will", "would", "which", "player", "players", "round", "rounds", "turn", "turns",
    "game", "games", "cards", "card", "waiting", "nobody", "seat", "seats", "pick", "picks", "score", "scores", "wins",
    "left", "right", "each", "none", "play", "playing", "sign", "account", "rating", "ratings", "table", "tables",
    "points"])
"""Words of English that show English left behind (unless the language uses the word too:
each language's own translations decide, e.g. Italian says "round")."""
NAMES = frozenset({"ana", "bo", "greedy", "random", "sushi", "go", "party"})
"""Names on the pages (the players', the bots', the games')."""

SCAN = """() => {
    const out = [];
    const hidden = (e) => !e || e.closest('[translate="no"], script, style, [hidden], [aria-hidden="true"]');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode, parent = node.parentElement;
        if (hidden(parent) || !node.textContent.trim()) continue;
        if (parent.tagName !== "OPTION" && parent.checkVisibility && !parent.checkVisibility()) continue;
        out.push(node.textContent);
    }
    for (const e of document.querySelectorAll("[placeholder], [title], [aria-label], [alt]")) {
        if (hidden(e)) continue;
        for (const a of ["placeholder", "title", "aria-label", "alt"]) {
            if (e.getAttribute(a)) out.push(e.getAttribute(a));
        }
    }
    out.push(document.title);
    return out;
}"""


def english_ids(lang: str) -> set[str]:
    """The English messages ``lang`` says otherwise."""
    return {k for k, v in page_catalog(lang)["messages"].items() if (v if isinstance(v, str) else v[0]) != k}


def language_words(lang: str) -> set[str]:
    words: set[str] = set()
    for v in page_catalog(lang)["messages"].values():
        for form in [v] if isinstance(v, str) else v:
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", form))
    return words


def left_behind(lang: str, texts: Iterable[str]) -> list[str]:
    """The texts that show English: a whole English message, or a word of English."""
    ids = english_ids(lang)
    allowed = language_words(lang) | NAMES
    found = []
    for text in texts:
        said = " ".join(text.split())
        if said in ids:
            found.append(said)
            continue
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", said)}
        if (words & ENGLISH_WORDS) - allowed:
            found.append(said)
    return found


def test_the_scan_finds_english_and_spares_the_languages_own_words() -> None:
    assert left_behind("fr", ["Sit down", "Waiting for 2 players", "Joueurs", "Ana", "Menu"]) == \
        ["Sit down", "Waiting for 2 players"]
    assert left_behind("it", ["Round 2"]) == []  # Italian says "round" too
    assert left_behind("de", ["the seat is yours"]) == ["the seat is yours"]


def scan(page: Page, lang: str, where: str, into: list[str]) -> None:
    into.extend(f"{where}: {t}" for t in left_behind(lang, page.evaluate(SCAN)))


def open_in(browser: Browser, base: str, lang: str) -> tuple[Any, Page]:
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    return context, context.new_page()


@pytest.mark.parametrize("lang", OTHERS)
def test_the_first_screens_of_every_page(live_server: str, browser: Browser, lang: str) -> None:
    context, page = open_in(browser, live_server, lang)
    errors = watch_errors(page)
    found: list[str] = []
    page.goto(live_server + "/")
    page.wait_for_selector('[data-testid="seat-kind"][data-seat="1"]')
    for summary in page.locator("summary:visible").all():
        summary.click()
    scan(page, lang, "lobby", found)
    page.check('[data-testid="edition-party"]')
    page.wait_for_selector('[data-testid="party-options"]:not([hidden])')
    for summary in page.locator("summary:visible").all():
        summary.click()
    scan(page, lang, "lobby, party", found)
    shot(page, f"lobby-{lang}-desktop")
    for path, ready in (("/account", "form"), ("/ratings", "main"), ("/score", "main"), ("/replay", "main")):
        page.goto(live_server + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        scan(page, lang, path, found)
    assert found == [], found
    assert errors == []
    context.close()


def scan_table(page: Page, lang: str, found: list[str]) -> None:
    seen: set[str] = set()

    def look(where: str) -> None:
        if where not in seen:
            seen.add(where)
            scan(page, lang, where, found)

    def on_turn(p: Page) -> None:
        where = "turn, " + (p.get_by_test_id("round-info").text_content() or "")
        if where not in seen and len(seen) == 3:
            shot(p, f"table-{lang}-mid-game")
        look(where)

    def on_round_end(p: Page) -> None:
        if not any(w.startswith("round end") for w in seen):
            shot(p, f"table-{lang}-round-end")
        look(f"round end {len(seen)}")

    play_to_end(page, lambda p, rng: p.locator('[data-testid="hand"] [data-testid="card"][data-action]:enabled, '
                                             '[data-testid="actions"] [data-testid="action"][data-action]:enabled')
                .first.get_attribute("data-action"),
                seed=1, on_turn=on_turn, on_round_end=on_round_end)
    shot(page, f"table-{lang}-end")
    page.locator('[data-testid="rules-button"]').click()
    page.wait_for_selector('[data-testid="dish"]')
    scan(page, lang, "end, with the rules", found)


@pytest.mark.parametrize(("lang", "edition"), [("fr", "base"), ("de", "party"), ("ja", "party"), ("es", "base"),
                                               ("it", "party"), ("pt", "base")])
def test_whole_games_at_the_table(live_server: str, browser: Browser, lang: str, edition: str) -> None:
    body: dict[str, Any] = {"edition": edition, "players": 3, "seed": 7,
                            "seats": ["human", "bot:greedy", "bot:random"]}
    if edition == "party":
        body["menu"] = "Master Menu"
    created = api_create(live_server, **body)
    context, page = open_in(browser, live_server, lang)
    errors = watch_errors(page)
    join(page, invites(live_server, created)[0], "Ana")
    found: list[str] = []
    scan_table(page, lang, found)
    # the game's replay, at a step where the seat's choice is told in words
    page.locator('[data-testid="replay-link"]').click()
    page.wait_for_selector('[data-testid="moment"]:not([hidden])')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('[data-testid="chosen"]')
    scan(page, lang, "replay", found)
    assert found == [], found[:40]
    assert errors == []
    context.close()


@pytest.mark.parametrize(("lang", "menu"), [("de", "Points Platter"), ("ja", "Master Menu"), ("fr", "")])
def test_a_score_sheet_being_kept(live_server: str, browser: Browser, lang: str, menu: str) -> None:
    """Every entry's button and group, and a seat's collection, in the page's language."""
    context, page = open_in(browser, live_server, lang)
    errors = watch_errors(page)
    page.goto(live_server + "/score")
    page.wait_for_selector('[data-testid="start"]')
    if menu:
        page.check('[data-testid="edition-party"]')
        page.select_option('[data-testid="menu"]', menu)
    page.click('[data-testid="start"]')
    page.wait_for_selector('[data-testid="entry"]')
    page.click('[data-testid="seat-0"]')
    for row in page.locator('[data-testid="entry"]').all()[:4]:
        row.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")
        row.locator('[data-testid="more"]').click()
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    found: list[str] = []
    scan(page, lang, f"score sheet {menu or 'base'}", found)
    assert found == [], found[:40]
    assert errors == []
    context.close()
