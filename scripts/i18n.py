"""Extract every translatable text into the catalogs, and check them.

    python scripts/i18n.py            # update src/sushigo/locales/sushigo.pot and every language's .po
    python scripts/i18n.py --check    # exit 1 (one line per problem) while a catalog is out of date or incomplete
    python scripts/i18n.py --missing fr > fr-todo.po   # the messages French still lacks, to fill in
    python scripts/i18n.py --merge fr fr-todo.po        # put the filled-in translations into French's catalog

What is extracted (Babel's extractors; the keywords are the project's markers): the
Python sources (``msg``, ``nmsg`` (plural), ``label``, ``N_`` of :mod:`sushigo.engine.messages`;
``told`` and ``ntold`` (an error's text; plural) too; ``_``, ``_l`` and ``_n``, ``_ln`` (plural) of
:mod:`sushigo.i18n`), the pages' JavaScript (``t("...")``,
``tn("one", "many", n)``) and the pages' HTML (every text and every ``title``,
``placeholder``, ``alt``, ``aria-label`` attribute: :func:`sushigo.i18n.pages.extract_html`).
A new language: CONTRIBUTING.md, "Adding a language".
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from sushigo.i18n import DEFAULT, LANGUAGES, LOCALES, babel_locale, po_path  # noqa: E402

SOURCES = ROOT / "src" / "sushigo"
ENGINE = {"msg": None, "nmsg": (1, 2), "label": None, "N_": None, "told": (2,), "ntold": (2, 3)}
"""The engine's markers (sushigo.engine.messages)."""
ADAPTERS = {"_": None, "_n": (1, 2), "_l": None, "_ln": (1, 2), "N_": None, "msg": None, "nmsg": (1, 2)}
"""The terminal's, the command line's, the server's, the tournament's, the statistics' and the bridge's
(sushigo.i18n)."""
PAGES = {"t": None, "tn": (1, 2)}
"""The pages' scripts' (static/i18n.js)."""
METHODS = [  # (pattern, extractor, keywords)
    ("engine/**.py", "python", ENGINE),
    ("bots/**.py", "python", ENGINE),  # beside the engine: its markers (a bot's setting errors)
    ("terminal/**.py", "python", ADAPTERS),
    ("cli/**.py", "python", ADAPTERS),
    ("tournament/**.py", "python", ADAPTERS),
    ("stats/**.py", "python", ADAPTERS),
    ("connect/**.py", "python", ADAPTERS),
    ("server/**.py", "python", ADAPTERS),
    ("i18n/**.py", "python", ADAPTERS),
    ("server/static/**.js", "javascript", PAGES),
    ("server/static/**.html", "sushigo.i18n.pages:extract_html", {}),
]
FIELD = re.compile(r"\{(\w*)\}")
TAG = re.compile(r"</?([a-zA-Z][\w-]*)")
TEMPLATE = LOCALES / "sushigo.pot"
HEADER = {"project": "sushigo", "version": "", "copyright_holder": "The sushigo developers",
          "msgid_bugs_address": "https://github.com/sushigo/sushigo/issues",
          "last_translator": "The sushigo developers", "language_team": "The sushigo developers",
          "header_comment": "# The sushigo game's messages; python scripts/i18n.py updates every language's file.\n"
                            "# Distributed under the same license as the sushigo project (MIT)."}


def extract() -> Catalog:
    """Every message of the sources, in a template catalog (locations without line numbers)."""
    template = Catalog(fuzzy=False, charset="utf-8", **HEADER)
    for pattern, method, keywords in METHODS:
        found = extract_from_dir(SOURCES, [(pattern, method)], {}, keywords, comment_tags=("TRANSLATORS:",),
                                 strip_comment_tags=True)
        for filename, _, message, comments, context in found:
            if (isinstance(message, tuple) and not message[0]) or not message:
                continue
            template.add(message, None, [(f"src/sushigo/{filename}", None)], auto_comments=comments,
                         context=context)
    return template


def write(catalog: Catalog, path: Path) -> None:
    buffer = BytesIO()
    write_po(buffer, catalog, width=120, include_lineno=False, omit_header=False, sort_output=True)
    text = buffer.getvalue().decode("utf-8")
    text = re.sub(r'"POT-Creation-Date: [^"]*\\n"\n', "", text)  # no churn from the date
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=babel_locale(lang) if lang else None)


def updated(template: Catalog, lang: str) -> Catalog:
    """``lang``'s catalog with the template's messages: translations kept, new ones empty,
    gone ones dropped (no fuzzy guesses: a changed message is translated again)."""
    path = po_path(lang)
    if path.exists():
        catalog = read(path, lang)
    else:
        catalog = Catalog(locale=babel_locale(lang), fuzzy=False, **HEADER)
        catalog.revision_date = datetime(2026, 12, 6, tzinfo=UTC)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    return catalog


def ids(catalog: Catalog) -> set[object]:
    return {m.id for m in catalog if m.id}


def fields(text: str) -> list[str]:
    return sorted(FIELD.findall(text))


def tags(text: str) -> list[str]:
    return sorted(TAG.findall(text))


def problems(lang: str, catalog: Catalog, template: Catalog) -> Iterable[str]:
    """What ``lang``'s catalog lacks or gets wrong: a message without a translation (or a
    plural form), a translation whose ``{fields}`` or HTML tags differ from the id's."""
    where = po_path(lang).relative_to(ROOT)
    missing = ids(template) - ids(catalog)
    extra = ids(catalog) - ids(template)
    if missing or extra:
        yield f"{where}: out of date ({len(missing)} new, {len(extra)} gone): run python scripts/i18n.py"
    for m in catalog:
        if not m.id:
            continue
        forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        sources = list(m.id) if isinstance(m.id, (list, tuple)) else [m.id]
        name = sources[0][:60]
        if m.fuzzy or not all(forms) or len(forms) != (catalog.num_plurals if m.pluralizable else 1):
            yield f"{where}: {name!r} is not translated"
            continue
        for form in forms:
            if fields(form) not in (fields(s) for s in sources) and not (
                    m.pluralizable and set(fields(form)) <= set(fields(sources[-1]))):
                yield f"{where}: {name!r}: the fields {fields(form)} differ from the message's {fields(sources[0])}"
            if tags(form) != tags(sources[0]):
                yield f"{where}: {name!r}: the HTML tags {tags(form)} differ from the message's {tags(sources[0])}"


def check(template: Catalog) -> list[str]:
    out = []
    if not TEMPLATE.exists() or ids(read(TEMPLATE)) != ids(template):
        out.append(f"{TEMPLATE.relative_to(ROOT)}: out of date with the sources: run python scripts/i18n.py")
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        if not po_path(lang).exists():
            out.append(f"{po_path(lang).relative_to(ROOT)}: missing: run python scripts/i18n.py")
            continue
        out.extend(problems(lang, read(po_path(lang), lang), template))
    return out


def missing(lang: str, template: Catalog) -> str:
    """The messages ``lang`` lacks, as a .po fragment."""
    catalog = updated(template, lang)
    todo = Catalog(locale=babel_locale(lang), project="sushigo", fuzzy=False)
    for m in catalog:
        forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        if m.id and not all(forms):
            todo[m.id] = Message(m.id, m.string, auto_comments=m.auto_comments, locations=m.locations)
    buffer = BytesIO()
    write_po(buffer, todo, width=120, include_lineno=False, omit_header=True)
    return buffer.getvalue().decode("utf-8")


def merge(lang: str, fragment: Path, template: Catalog) -> int:
    """Put the translations of a .po fragment (:func:`missing`'s, filled in) into ``lang``'s
    catalog; the number of messages merged."""
    catalog = updated(template, lang)
    done = 0
    for m in read(fragment, lang):
        forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        if m.id and m.id in catalog and all(forms):
            # a fragment written with a newer CLDR's plural forms than the catalog's (fr, es, it:
            # "many") keeps the catalog's: its header's rule chooses among those only
            catalog[m.id].string = tuple(forms[:catalog.num_plurals]) if isinstance(m.string, (list, tuple)) \
                else m.string
            done += 1
    write(catalog, po_path(lang))
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check; exit 1 on any problem")
    parser.add_argument("--missing", metavar="LANG", help="print the messages LANG still lacks")
    parser.add_argument("--merge", nargs=2, metavar=("LANG", "FILE"), help="merge a filled-in fragment into LANG")
    args = parser.parse_args()
    lang = args.missing or (args.merge[0] if args.merge else None)
    if lang is not None and (lang not in LANGUAGES or lang == DEFAULT):
        print(f"sushigo speaks no language {lang!r} to translate into", file=sys.stderr)
        return 2
    template = extract()
    if args.missing:
        sys.stdout.write(missing(args.missing, template))
        return 0
    if args.merge:
        try:
            done = merge(lang, Path(args.merge[1]), template)
        except (OSError, ValueError) as e:
            print(f"cannot merge {args.merge[1]}: {e}", file=sys.stderr)
            return 1
        print(f"{done} translations merged into {po_path(lang).relative_to(ROOT)}")
        return 0
    if args.check:
        found = check(template)
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    write(template, TEMPLATE)
    for lang in LANGUAGES:
        if lang != DEFAULT:
            write(updated(template, lang), po_path(lang))
    print(f"{len(ids(template))} messages; catalogs updated in {LOCALES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
