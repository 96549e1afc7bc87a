"""Sentences as message ids with parameters: one source for each sentence the
engine tells, rendered in any language.

A :class:`Message`'s ``id`` is its English text, with named fields where the
parameters go (``"{seat} wins with {points} points."``): the gettext message
id, which a translation catalog maps to another language's sentence with the
same fields.  A parameter is a number, a :class:`Seat` (each front end puts in
its own names), a :class:`Label` (a card's or a word's English name, itself
translated), :class:`Words` (a list joined as the language joins one: "a, b
and c"), another :class:`Message`, or a string shown as it is.  A message with
a ``plural`` id picks its form by the number in its ``count`` parameter
(gettext's ``ngettext``), so each language gets its own plural rules.

:func:`render` writes a message with a :class:`Catalog` (``gettext`` and
``ngettext``; :data:`ENGLISH` by default, whose text is the id itself).  With
no names, a seat is written ``{n}``: the engine's text, which front ends
fill with names (:class:`~sushigo.engine.narration.Line`).

The engine depends on no translation library: a catalog is anything with
those two methods (Python's :class:`gettext.GNUTranslations` is one).  Source
strings are marked for extraction by being the first argument of ``msg``
(and ``label`` for names), which Babel's extractor is told.

>>> m = msg("{seat} wins with {points} points.", seat=Seat(1), points=52)
>>> render(m), render(m, names=["Ana", "Ben"])
('{1} wins with 52 points.', 'Ben wins with 52 points.')
>>> render(msg("{seat} played {cards}.", seat=Seat(0), cards=Words((label("Tempura"), label("Squid nigiri")))))
'{0} played Tempura and Squid nigiri.'
>>> [render(msg("{n} dumpling", "{n} dumplings", count="n", n=k)) for k in (1, 3)]
['1 dumpling', '3 dumplings']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, Union

Param = Union[int, str, "Seat", "Label", "Words", "Message"]
"""What a message's field may hold."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat, written as its name (``{n}`` when no names are given)."""

    n: int


@dataclass(frozen=True, slots=True)
class Label:
    """A name the catalogs translate on its own (a card's, a category's): its English text."""

    id: str


@dataclass(frozen=True, slots=True)
class Words:
    """Parameters joined in words: ``a``, ``a and b``, ``a, b and c`` (the language's own);
    with ``listing``, a list without the "and": ``a, b, c``."""

    items: tuple[Param, ...]
    listing: bool = False


@dataclass(frozen=True, slots=True)
class Message:
    """A sentence: its id (English, with ``{field}`` s), its parameters and, when it has a
    plural form, the plural id and the parameter whose number chooses the form."""

    id: str
    params: tuple[tuple[str, Param], ...] = ()
    plural: str | None = None
    count: str | None = None

    def param(self, name: str) -> Param:
        """The parameter called ``name``."""
        return dict(self.params)[name]


def msg(id: str, plural: str | None = None, *, count: str | None = None, **params: Param) -> Message:
    """A :class:`Message` (the extractor reads ``id`` and ``plural`` from here)."""
    if (plural is None) != (count is None):
        raise ValueError("a plural message names the parameter that counts (count=...)")
    return Message(id, tuple(params.items()), plural, count)


def label(id: str) -> Label:
    """A :class:`Label` (the extractor reads ``id`` from here)."""
    return Label(id)


class Catalog(Protocol):
    """A language's translations: what :class:`gettext.GNUTranslations` offers."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    """The ids themselves (English), with English plurals."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


ENGLISH: Catalog = _English()
"""The catalog of the ids: English."""

AND = "{first} and {last}"
"""How two words are joined (``"{first} and {last}"``; the last two of a longer list too)."""
COMMA = "{first}, {rest}"
"""How the words before the last two are joined on (``"{first}, {rest}"``)."""


def render(message: Param, catalog: Catalog = ENGLISH, names: Sequence[str] | None = None,
           number: Callable[[int], str] = str) -> str:
    """``message`` written in ``catalog``'s language, seats as ``names`` (``None``: ``{n}``),
    numbers with ``number`` (the locale's digits and separators)."""

    def write(p: Param) -> str:
        if isinstance(p, Message):
            fields = {k: write(v) for k, v in p.params}
            if p.plural is not None and p.count is not None:
                n = p.param(p.count)
                if not isinstance(n, int):
                    raise TypeError(f"the count of {p.id!r} is not a number: {n!r}")
                text = catalog.ngettext(p.id, p.plural, n)
            else:
                text = catalog.gettext(p.id)
            return text.format(**fields)
        if isinstance(p, Seat):
            return names[p.n] if names is not None and p.n < len(names) else f"{{{p.n}}}"
        if isinstance(p, Label):
            return catalog.gettext(p.id)
        if isinstance(p, Words):
            return _join([write(x) for x in p.items], catalog, p.listing)
        if isinstance(p, bool):
            return str(p)
        if isinstance(p, int):
            return number(p)
        return p

    return write(message)


def _join(words: list[str], catalog: Catalog, listing: bool) -> str:
    if len(words) <= 1:
        return "".join(words)
    comma = catalog.gettext(COMMA)
    out = words[-1] if listing else catalog.gettext(AND).format(first=words[-2], last=words[-1])
    for w in reversed(words[:-1] if listing else words[:-2]):
        out = comma.format(first=w, rest=out)
    return out


__all__ = ["AND", "COMMA", "ENGLISH", "Catalog", "Label", "Message", "Param", "Seat", "Words", "label", "msg",
           "render"]
