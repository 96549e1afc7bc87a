"""The pages in other languages in a real browser (Debian's Chromium): i18n.js writes the
engine's messages exactly as sushigo.i18n does, and the switch on a page is remembered."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser
from tests.engine.test_narration import TABLES, _play

from sushigo.engine.messages import as_json
from sushigo.i18n import LANGUAGES, speaker, translations

from .test_account_page import VIEWPORTS
from .test_browser import shot, watch_errors

pytestmark = pytest.mark.e2e


def test_the_page_says_the_engines_messages_as_python_does(live_server: str, browser: Browser) -> None:
    """Whole games' story lines and explanations, said by i18n.js in each language, equal
    sushigo.i18n's rendering (the same catalogs, plural forms, joins and sentences)."""
    said = []
    for rules in (TABLES[0], TABLES[-1]):
        _, lines = _play(rules, 1)
        said += [line.message for line in lines]
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Fu", "Gi", "Hu"]
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    errors = watch_errors(page)
    for lang in LANGUAGES:
        context.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        page.goto(live_server + "/")
        got = page.evaluate("""async ([messages, names]) => {
            const i18n = await import("/static/i18n.js");
            return [i18n.lang, messages.map((m) => i18n.say(m, names)), i18n.tn("{n} card", "{n} cards", 1),
                    i18n.tn("{n} card", "{n} cards", 2), i18n.number(12345)];
        }""", [[as_json(m) for m in said], names])
        speak = speaker(lang)
        assert got[0] == lang
        assert got[1] == [speak.say(m, names) for m in said], lang
        assert got[2:4] == [speak.n("{n} card", "{n} cards", 1), speak.n("{n} card", "{n} cards", 2)]
        assert got[4].replace("\u202f", " ").replace("\u00a0", " ") == \
            speak.number(12345).replace("\u202f", " ").replace("\u00a0", " ")
    assert errors == []
    context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_switch_changes_the_language_and_remembers_it(live_server: str, browser: Browser, size: str) -> None:
    context = browser.new_context(viewport=VIEWPORTS[size], locale="de-DE")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(live_server + "/")
    assert page.evaluate("document.documentElement.lang") == "de"  # the browser's language
    switch = page.get_by_test_id("language")
    assert switch.input_value() == "de"
    assert sorted(switch.locator("option").all_inner_texts()) == sorted(LANGUAGES.values())
    with page.expect_navigation():
        switch.select_option("ja")
    assert page.evaluate("document.documentElement.lang") == "ja"
    heading = translations("ja").gettext("Play now")
    assert page.locator("h1").first.inner_text() == heading
    shot(page, f"lobby-ja-{size}")
    page.goto(live_server + "/score")  # remembered on every page
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.get_by_test_id("language").input_value() == "ja"
    shot(page, f"scorekeeper-ja-{size}")
    assert json.loads(json.dumps(errors)) == []
    context.close()
