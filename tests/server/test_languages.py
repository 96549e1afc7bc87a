"""The site in the reader's language: each page sent translated, chosen by the switch's
cookie or the browser's Accept-Language, and each language's catalog for the scripts
(sushigo.server.routes.pages, sushigo.i18n)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.server.test_accounts import make

from sushigo.i18n import LANGUAGES, translations

PAGES = ["/", "/account", "/ratings", "/u/Someone", "/score", "/t/abc", "/t/abc/replay", "/replay"]


@pytest.fixture
def web(db_url: str) -> TestClient:
    with make(db_url) as c:
        yield c  # type: ignore[misc]


@pytest.mark.parametrize("path", PAGES)
def test_each_page_comes_in_the_browsers_language(web: TestClient, path: str) -> None:
    english = web.get(path)
    assert english.status_code == 200 and '<html lang="en">' in english.text
    for lang in LANGUAGES:
        page = web.get(path, headers={"Accept-Language": f"xx-YY, {lang};q=0.7, en;q=0.5"})
        assert page.status_code == 200
        assert f'<html lang="{lang}">' in page.text
        assert page.headers["content-language"] == lang and "Accept-Language" in page.headers["vary"]
        assert 'data-language' in page.text and "/static/i18n.js" in page.text
        if lang != "en":
            assert page.text != english.text


def test_the_switchs_cookie_wins_over_the_browser(web: TestClient) -> None:
    web.cookies.set("lang", "ja")
    page = web.get("/", headers={"Accept-Language": "de"})
    assert '<html lang="ja">' in page.text and translations("ja").gettext("Play now") in page.text
    web.cookies.set("lang", "klingon")  # not a language sushigo speaks: the browser's then
    assert '<html lang="de">' in web.get("/", headers={"Accept-Language": "de"}).text


def test_each_languages_catalog_for_the_scripts(web: TestClient) -> None:
    fr = web.get("/i18n/fr.json")
    assert fr.status_code == 200 and fr.headers["content-type"] == "application/json"
    data = fr.json()
    assert data["lang"] == "fr" and data["plurals"] == 2 and set(data["languages"]) == set(LANGUAGES)
    assert data["messages"]["Play now"] == translations("fr").gettext("Play now")
    assert isinstance(data["messages"]["{n} dumpling: {points}"], list)
    assert web.get("/i18n/ja.json").json()["plurals"] == 1
    assert web.get("/i18n/en.json").json()["messages"] == {}
    missing = web.get("/i18n/xx.json")
    assert missing.status_code == 404 and "\n" not in missing.text
    assert web.get("/i18n/..%2Fsushigo.json").status_code == 404
