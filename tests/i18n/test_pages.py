"""The pages' HTML: every text is a message, translated back in place (sushigo.i18n.pages)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sushigo.i18n import LANGUAGES, translations
from sushigo.i18n.pages import extract_html, translate_html

STATIC = Path(__file__).resolve().parents[2] / "src" / "sushigo" / "server" / "static"
PAGES = sorted(p.name for p in STATIC.glob("*.html"))


class Marked:
    """Every translation between brackets."""

    def gettext(self, message: str, /) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"


def messages(page: str) -> list[str]:
    return [m for _, _, m, _ in extract_html(io.BytesIO(page.encode()), [], [], {})]


def test_runs_inline_tags_attributes_and_translate_no() -> None:
    page = ('<!doctype html><html lang="en"><head><title>Sushi Go! online</title><style>p{}</style></head>'
            '<body><header><a href="/">Tables</a> <a href="/score">Keep score</a></header>'
            '<p class="x">New to the game? <em>Learn to play</em> opens a table.</p>'
            '<input placeholder="no timer" title="42"><label><input type="checkbox"> 8 (Party)</label>'
            '<code translate="no">sushigo play</code><script>var x = "<b>no</b>";</script> · 3 ·</body></html>')
    assert messages(page) == ["Sushi Go! online", "Tables", "Keep score",
                              "New to the game? <em>Learn to play</em> opens a table.", "no timer", "8 (Party)"]
    out = translate_html(page, Marked(), "de")
    assert out.startswith('<!doctype html><html lang="de"><head><title>⟦Sushi Go! online⟧</title><style>p{}</style>')
    assert '<p class="x">⟦New to the game? <em>Learn to play</em> opens a table.⟧</p>' in out
    assert 'placeholder="⟦no timer⟧" title="42"' in out and "> ⟦8 (Party)⟧</label>" in out
    assert '<code translate="no">sushigo play</code><script>var x = "<b>no</b>";</script> · 3 ·' in out


def test_an_attribute_translation_cannot_break_out_of_its_quotes() -> None:
    class Quote:
        def gettext(self, message: str, /) -> str:
            return 'say "hi" <now>'

        def ngettext(self, singular: str, plural: str, n: int, /) -> str:
            return singular

    assert translate_html('<input title="x">', Quote(), "en") == '<input title="say &quot;hi&quot; <now>">'


@pytest.mark.parametrize("name", PAGES)
def test_every_text_of_every_page_is_translated_in_every_language(name: str) -> None:
    """Marked: each piece of a page's text is inside brackets, so no text escapes the catalog;
    then each language changes the page's text (what stays the same is names and words the
    language shares: "Sushi Go!", "Menu", "Password" in Italian)."""
    page = (STATIC / name).read_text(encoding="utf-8")
    found = messages(page)
    assert found, name
    marked = translate_html(page, Marked(), "en")
    assert all(f"⟦{m}" in " ".join(marked.split()) or f"⟦{m}⟧" in marked for m in found)
    for lang in LANGUAGES:
        if lang == "en":
            continue
        out = translate_html(page, translations(lang), lang)
        assert f'<html lang="{lang}"' in out
        distinct = set(found)
        same = sorted(m for m in distinct if translations(lang).gettext(m) == m)  # names, "Menu", "Password"...
        assert len(same) <= len(distinct) // 2, (name, lang, same)
