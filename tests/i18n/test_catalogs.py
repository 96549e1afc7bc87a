"""The catalogs (src/sushigo/locales): complete for every language, in step with the sources,
plural forms that agree with the browsers' rules, and the engine's messages rendered in each
language over whole games (sushigo.i18n)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po
from tests.engine.test_narration import TABLES, _play

from sushigo.engine.messages import Message, Sentence, render
from sushigo.i18n import (
    DEFAULT,
    LANGUAGES,
    babel_locale,
    from_accept_language,
    from_environment,
    language_of,
    page_catalog,
    speaker,
    translations,
)

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT]
FIELD = re.compile(r"\{(\w+)\}")


def test_every_catalog_has_every_message_and_is_in_step_with_the_sources() -> None:
    """The test that fails when a catalog misses a message or a new text was not extracted."""
    done = subprocess.run([sys.executable, "scripts/i18n.py", "--check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]


def test_every_message_of_the_engine_reaches_the_catalog() -> None:
    """Each literal id the engine's sources give msg, nmsg, label or N_ is in the template (the
    extractor misses a call nested in a comprehension inside another call's arguments)."""
    with (ROOT / "src" / "sushigo" / "locales" / "sushigo.pot").open("rb") as f:
        ids = [m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(f) if m.id]
    found = 0
    for path in (ROOT / "src" / "sushigo" / "engine").rglob("*.py"):
        code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith((">>>", "...")))  # the docstrings' examples
        for m in re.finditer(r'\b(?:n?msg|label|N_)\(\s*"((?:[^"\\]|\\.)+)"', code):
            found += 1
            literal = m.group(1).replace('\\"', '"')
            assert any(i.startswith(literal) for i in ids), (path.name, literal)  # (its first literal)
    assert found > 150


@pytest.mark.parametrize("lang", OTHERS)
def test_plural_forms_agree_with_the_languages_rules(lang: str) -> None:
    """gettext's form (the catalog's Plural-Forms) is the CLDR category's: "one" the first form,
    any other the second, as i18n.js chooses with Intl.PluralRules."""
    catalog = translations(lang)
    rule = Locale.parse(babel_locale(lang)).plural_form
    plurals = page_catalog(lang)["plurals"]
    for n in range(1201):
        got = catalog.ngettext("{n} card", "{n} cards", n)
        form = 0 if plurals == 1 or rule(n) == "one" else 1
        forms = page_catalog(lang)["messages"]["{n} card"]
        assert got == forms[form], (lang, n)


@pytest.mark.parametrize("lang", OTHERS)
def test_a_language_changes_the_words_not_the_fields(lang: str) -> None:
    messages = page_catalog(lang)["messages"]
    assert len(messages) > 300
    changed = sum(1 for k, v in messages.items() if (v if isinstance(v, str) else v[0]) != k)
    assert changed > 0.8 * len(messages), (lang, changed, len(messages))
    for k, v in messages.items():
        for form in [v] if isinstance(v, str) else v:
            assert set(FIELD.findall(form)) <= set(FIELD.findall(k)) | {"n"}, (lang, k, form)


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("rules", TABLES[::3], ids=lambda r: f"{r.edition}-{r.players}")
def test_whole_games_are_told_in_each_language(lang: str, rules: object) -> None:
    """Every line of a whole game's story, and every explanation, renders in the language:
    no field left unfilled, and not the English text."""
    say = speaker(lang)
    _, lines = _play(rules, 0)  # type: ignore[arg-type]
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Fu", "Gi", "Hu"]
    english_kept = 0
    for line in lines:
        assert isinstance(line.message, Message | Sentence)
        text = say.say(line.message, names)
        assert not FIELD.search(text), (lang, text)
        english_kept += text == render(line.message, names=names)
    assert english_kept <= len(lines) // 10, (lang, english_kept, len(lines))


def test_languages_are_read_from_tags_headers_and_the_environment() -> None:
    assert [language_of(t) for t in ("de_AT.UTF-8", "ja-JP", "pt_PT", "zz", "", None)] == \
        ["de", "ja", "pt", None, None, None]
    assert from_accept_language("es-MX,es;q=0.9,en;q=0.8") == "es"
    assert from_accept_language("en;q=0.2, it;q=0.9") == "it"
    assert from_accept_language("nl, xx;q=0.1, *;q=0.01") is None
    assert from_accept_language("fr;q=bogus, de;q=0.5") == "de"  # a broken weight counts as 0
    assert from_environment({"LANGUAGE": "nl:ja", "LANG": "fr_FR.UTF-8"}) == "ja"
    assert from_environment({"LC_MESSAGES": "it_IT", "LANG": "fr_FR"}) == "it"
    assert from_environment({}) == DEFAULT


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert [speaker(lang).number(1234567) for lang in ("en", "de", "ja", "pt")] == \
        ["1,234,567", "1.234.567", "1,234,567", "1.234.567"]
    assert speaker("fr").number(1500).replace("\u202f", " ") == "1 500"
    assert speaker("xx").lang == DEFAULT
