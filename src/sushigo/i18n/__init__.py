"""The game in the players' languages: gettext catalogs (managed with Babel), the
language a person reads, and the engine's messages rendered in it.

Every text a person reads has an English message id: the engine's sentences
(:mod:`sushigo.engine.messages`), the terminal's and the server's strings
(marked ``_("...")``), the pages' text (their HTML, and ``t("...")`` in their
JavaScript).  ``python scripts/i18n.py`` extracts them into
``src/sushigo/locales/sushigo.pot`` and updates each language's
``src/sushigo/locales/<lang>/LC_MESSAGES/sushigo.po``; the tests fail while a
catalog misses a message (CONTRIBUTING.md, "Adding a language").

The catalogs are read from the ``.po`` files themselves (compiled in memory,
once per process), so there is no compiled file to keep in step.

>>> fr = speaker("fr")
>>> fr.lang, fr.gettext("Three rounds make a game.") != "Three rounds make a game."
('fr', True)
>>> speaker("en").number(12345), speaker("fr").number(12345), speaker("de").number(12345)
('12,345', '12\\u202f345', '12.345')
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from sushigo.engine.messages import ENGLISH, Catalog, Label, Message, Param, Sentence, Told, Words, render

LANGUAGES: Final[dict[str, str]] = {
    "en": "English", "fr": "Français", "de": "Deutsch", "es": "Español", "it": "Italiano", "pt": "Português",
    "ja": "日本語",
}
"""The languages sushigo speaks, each by its own name (the switch lists them so)."""
DEFAULT: Final = "en"
"""The language of the message ids, and of anyone whose language sushigo does not speak."""
LOCALES: Final = Path(__file__).resolve().parent.parent / "locales"
"""Where the catalogs live: ``sushigo.pot`` and ``<lang>/LC_MESSAGES/sushigo.po``."""
DOMAIN: Final = "sushigo"


_BABEL_LOCALES: Final = {"pt": "pt_BR"}
"""Portuguese as Brazil writes it (its plural forms: ``0`` and ``1`` are singular, as
CLDR and the browsers' ``Intl.PluralRules`` have it)."""


def babel_locale(lang: str) -> str:
    """The Babel (CLDR) locale of ``lang``: its plural forms and its numbers."""
    return _BABEL_LOCALES.get(lang, lang)


def po_path(lang: str) -> Path:
    """The catalog file of ``lang``."""
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _po(lang: str) -> BabelCatalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=babel_locale(lang), domain=DOMAIN)


@cache
def translations(lang: str) -> Catalog:
    """``lang``'s catalog (:data:`~sushigo.engine.messages.ENGLISH` for English): a
    :class:`gettext.GNUTranslations` compiled from its ``.po`` file; a message it lacks
    reads in English."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return ENGLISH
    buffer = io.BytesIO()
    write_mo(buffer, _po(lang), use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def page_catalog(lang: str) -> dict[str, Any]:
    """``lang``'s catalog for the pages' scripts (``i18n.js``): ``lang``, ``plurals`` (how
    many plural forms), ``messages`` (each translated id: its text, or its forms for a
    message with a plural, keyed by the singular id) and the ``languages`` sushigo speaks
    (by their own names).  English has no messages: its ids are its text.

    >>> en = page_catalog("en"); en["messages"], en["plurals"], en["languages"]["ja"]
    ({}, 2, '日本語')
    """
    out: dict[str, Any] = {"lang": lang, "plurals": 2, "messages": {}, "languages": LANGUAGES}
    if lang == DEFAULT or lang not in LANGUAGES:
        return out
    catalog = _po(lang)
    out["plurals"] = catalog.num_plurals
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, (list, tuple)):
            forms = [str(f) for f in (m.string or ())]
            if all(forms):
                out["messages"][m.id[0]] = forms
        elif m.string:
            out["messages"][m.id] = m.string
    return out


@dataclass(frozen=True)
class Speaker:
    """One language: its catalog, its numbers, and the engine's messages in it."""

    lang: str

    @property
    def catalog(self) -> Catalog:
        return translations(self.lang)

    def gettext(self, message: str) -> str:
        """``message`` (an English id) in this language."""
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` of a message with a plural."""
        return self.catalog.ngettext(singular, plural, n)

    def __call__(self, message: str, **fields: Any) -> str:
        """``message`` translated, its ``{fields}`` filled (numbers in the language's digits)."""
        return self.gettext(message).format(**{k: self._field(v) for k, v in fields.items()})

    def n(self, singular: str, plural: str, n: int, **fields: Any) -> str:
        """A message with a plural, translated for ``n`` (also its field ``{n}``)."""
        return self.ngettext(singular, plural, n).format(n=self.number(n),
                                                         **{k: self._field(v) for k, v in fields.items()})

    def number(self, n: int) -> str:
        """``n`` written as the language writes numbers (``12,345``, ``12 345``, ``12.345``)."""
        return format_decimal(n, locale=babel_locale(self.lang))

    def say(self, message: Param, names: Sequence[str] | None = None) -> str:
        """An engine message (:mod:`sushigo.engine.messages`) in this language, seats as
        ``names`` (``None``: ``{n}``)."""
        return render(message, self.catalog, names, self.number)

    def phrase(self, text: Phrase) -> str:
        """A :class:`Phrase` in this language (its fields too, when they are phrases)."""
        if text.plural is not None and text.n is not None:
            return self.n(text.id, text.plural, text.n, **text.fields)
        return self(text.id, **text.fields) if text.fields else self.gettext(text.id)

    def text(self, text: str) -> str:
        """``text`` in this language when it is a :class:`Phrase` or the engine's
        :class:`~sushigo.engine.messages.Told`; as it is otherwise."""
        if isinstance(text, Told):
            return self.say(text.message)
        return self.phrase(text) if isinstance(text, Phrase) else text

    def _field(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Message | Words | Label | Sentence):
            return self.say(value)
        return self.number(value) if isinstance(value, int) and not isinstance(value, bool) else value


@cache
def speaker(lang: str) -> Speaker:
    """The :class:`Speaker` of ``lang`` (English for a language sushigo does not speak)."""
    return Speaker(lang if lang in LANGUAGES else DEFAULT)


_CURRENT: ContextVar[str] = ContextVar("sushigo_language", default=DEFAULT)


def use(lang: str) -> None:
    """Speak ``lang`` from here on in this context (the terminal game: for the whole run;
    the server: for one request or one socket's task)."""
    _CURRENT.set(speaker(lang).lang)


def current() -> Speaker:
    """The :class:`Speaker` of this context's language (:func:`use`)."""
    return speaker(_CURRENT.get())


def _(message: str, **fields: Any) -> str:
    """``message`` in this context's language, its ``{fields}`` filled; with no fields,
    the translated template itself (to fill later, e.g. with styled names).

    >>> use("en"); _("Round {round} of {rounds}", round=2, rounds=3), _("Pick a card> ")
    ('Round 2 of 3', 'Pick a card> ')
    """
    if not fields:
        return current().gettext(message)
    return current()(message, **fields)


def _n(singular: str, plural: str, n: int, **fields: Any) -> str:
    """A message with a plural form, in this context's language, for ``n`` (also its
    field ``{n}``).

    >>> use("en"); _n("{n} card", "{n} cards", 1), _n("{n} card", "{n} cards", 12345)
    ('1 card', '12,345 cards')
    """
    return current().n(singular, plural, n, **fields)


class Phrase(str):
    """English text that keeps its message id and fields, so that the boundary where it
    leaves for a reader (an error answer, a frame) says it in the reader's language
    (:func:`localized`): the server raises errors as these, wherever the code that
    raises runs.

    >>> p = _l("no table {id}", id="abc"); p, p.id, localized(p)
    ('no table abc', 'no table {id}', 'no table abc')
    """

    id: str
    plural: str | None
    n: int | None
    fields: dict[str, Any]

    def __new__(cls, id: str, fields: dict[str, Any], plural: str | None = None, n: int | None = None) -> Phrase:
        english = speaker(DEFAULT)
        text = english.n(id, plural, n, **fields) if plural is not None and n is not None else \
            english(id, **fields) if fields else id
        self = super().__new__(cls, text)
        self.id, self.fields, self.plural, self.n = id, dict(fields), plural, n
        return self

    def __reduce__(self) -> Any:
        return (Phrase, (self.id, self.fields, self.plural, self.n))


def _l(message: str, **fields: Any) -> Phrase:
    """``message`` with its fields, said in the reader's language where it leaves (:class:`Phrase`)."""
    return Phrase(message, fields)


def _ln(singular: str, plural: str, n: int, **fields: Any) -> Phrase:
    """A :class:`Phrase` with a plural form, chosen for ``n`` (also its field ``{n}``)."""
    return Phrase(singular, fields, plural, n)


def localized(text: str) -> str:
    """``text`` in this context's language when it is a :class:`Phrase` or the engine's
    :class:`~sushigo.engine.messages.Told`; as it is otherwise."""
    return current().text(text)


def message_of(error: BaseException) -> str:
    """An exception's one-line message, a :class:`Phrase` or a
    :class:`~sushigo.engine.messages.Told` when it was raised with one (``str(error)``
    would make it plain English), for :func:`localized` to say."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Phrase | Told) else str(error)


def say(message: Param, names: Sequence[str] | None = None) -> str:
    """An engine message in this context's language (:meth:`Speaker.say`)."""
    return current().say(message, names)


def language_of(tag: str | None) -> str | None:
    """The language sushigo speaks that a locale or language tag names (``fr_CA.UTF-8``,
    ``pt-BR``, ``ja``), or ``None``.

    >>> language_of("fr_CA.UTF-8"), language_of("pt-BR"), language_of("C"), language_of("nl")
    ('fr', 'pt', None, None)
    """
    if not tag:
        return None
    base = tag.split(".")[0].split("@")[0].replace("-", "_")
    if base.upper() in ("C", "POSIX"):  # no language (Babel's reading of these varies)
        return None
    try:
        lang = Locale.parse(base).language
    except (ValueError, UnknownLocaleError):
        return None
    return lang if lang in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The first language of an ``Accept-Language`` header (by its ``q`` weights) that
    sushigo speaks, or ``None``.

    >>> from_accept_language("nl-NL,nl;q=0.9,de;q=0.8,en;q=0.5"), from_accept_language("*")
    ('de', None)
    """
    if not header:
        return None
    weighted = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            weighted.append((-q, i, tag))
    for _, _, tag in sorted(weighted):
        lang = language_of(tag)
        if lang is not None:
            return lang
    return None


def from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """The language of a terminal: ``LANGUAGE`` (its first language sushigo speaks),
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them; English without one.

    >>> from_environment({"LANG": "de_DE.UTF-8"}), from_environment({"LC_ALL": "C", "LANG": "fr_FR"})
    ('de', 'en')
    """
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(key)
        if not value:
            continue
        if key == "LANGUAGE":
            for tag in value.split(":"):
                lang = language_of(tag)
                if lang is not None:
                    return lang
            continue
        return language_of(value) or DEFAULT
    return DEFAULT


__all__ = ["DEFAULT", "LANGUAGES", "LOCALES", "Phrase", "Speaker", "_", "_l", "_ln", "_n", "babel_locale", "current",
           "from_accept_language", "from_environment", "language_of", "localized", "message_of", "page_catalog",
           "po_path", "say", "speaker", "translations", "use"]
