"""Sentences as message ids with parameters: one source for each sentence the
engine tells, rendered in any language.

A :class:`Message`'s ``id`` is its English text, with named fields where the
parameters go (``"{seat} wins with {points} points."``): the gettext message
id, which a translation catalog maps to another language's sentence with the
same fields.  A parameter is a number, a :class:`Seat` (each front end puts in
its own names), a :class:`Label` (a card's or a word's English name, itself
translated), :class:`Words` (a list joined as the language joins one: "a, b
and c"), another :class:`Message`, a :class:`Sentence` (a message written as
a sentence: capital first, the language's full stop), or a string shown as it
is.  A message made by :func:`nmsg` has a plural id and picks its form by its
number ``n`` (gettext's ``ngettext``), so each language gets its own plural
rules.

:func:`render` writes a message with a :class:`Catalog` (``gettext`` and
``ngettext``; :data:`ENGLISH` by default, whose text is the id itself).  With
no names, a seat is written ``{n}``: the engine's text, which front ends
fill with names (:class:`~sushigo.engine.narration.Line`).

The engine depends on no translation library: a catalog is anything with
those two methods (Python's :class:`gettext.GNUTranslations` is one).  Source
strings are marked for extraction by being the first argument of ``msg``, the
first two of ``nmsg``, and the argument of ``label`` and ``N_`` (a name kept
as a plain string), which Babel's extractor is told (``babel.cfg``).  A
message travels as JSON (:meth:`Message.to_json`) to front ends that render it
themselves, in the same way (the browser's ``i18n.js``).

>>> m = msg("{seat} wins with {points} points.", seat=Seat(1), points=52)
>>> render(m), render(m, names=["Ana", "Ben"])
('{1} wins with 52 points.', 'Ben wins with 52 points.')
>>> render(msg("{seat} played {cards}.", seat=Seat(0), cards=Words((label("Tempura"), label("Squid nigiri")))))
'{0} played Tempura and Squid nigiri.'
>>> [render(nmsg("{n} dumpling", "{n} dumplings", k)) for k in (1, 3)]
['1 dumpling', '3 dumplings']
>>> render(Sentence(msg("puddings {counts}", counts=Words((3, 1), listing=True))))
'Puddings 3, 1.'

"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, Union

Param = Union[int, str, "Seat", "Label", "Words", "Message", "Sentence"]
"""What a message's field may hold."""


def N_(text: str) -> str:
    """``text`` itself, marked for the extractor: a name kept as a plain string (a
    card's label in a table) that front ends translate when they show it."""
    return text


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
    """A sentence or a piece of one: its id (English, with ``{field}`` s), its parameters
    and, when it has a plural form, the plural id (the form is chosen by parameter ``n``)."""

    id: str
    params: tuple[tuple[str, Param], ...] = ()
    plural: str | None = None

    def param(self, name: str) -> Param:
        """The parameter called ``name``."""
        return dict(self.params)[name]

    def to_json(self) -> dict[str, Any]:
        """The message as JSON: ``{"id", "params"}`` (and ``"plural"``), each parameter a
        number, a string, ``{"seat": n}``, ``{"label": id}``, ``{"words": [...]}`` (with
        ``"listing": true`` for a plain list), ``{"sentence": message}`` or a message.

        >>> nmsg("{n} card", "{n} cards", 2).to_json()
        {'id': '{n} card', 'params': {'n': 2}, 'plural': '{n} cards'}
        """
        out: dict[str, Any] = {"id": self.id, "params": {k: as_json(v) for k, v in self.params}}
        if self.plural is not None:
            out["plural"] = self.plural
        return out


@dataclass(frozen=True, slots=True)
class Sentence:
    """A message written as a sentence: its first letter a capital, then the language's
    full stop (``"{sentence}."``)."""

    message: Message


Said = Union[Message, "Sentence"]
"""What a line of the game's story says: a message, or one written as a sentence."""

SENTENCE = N_("{sentence}.")
"""How a sentence ends (``"{sentence}."``; ``"{sentence}。"`` in Japanese)."""


def msg(id: str, **params: Param) -> Message:
    """A :class:`Message` (the extractor reads ``id`` from here)."""
    return Message(id, tuple(params.items()))


def nmsg(singular: str, plural: str, n: int, **params: Param) -> Message:
    """A :class:`Message` with a plural form chosen by ``n``, also its field ``{n}``
    (the extractor reads ``singular`` and ``plural`` from here)."""
    return Message(singular, (("n", n), *params.items()), plural)


def label(id: str) -> Label:
    """A :class:`Label` (the extractor reads ``id`` from here)."""
    return Label(id)


def as_json(p: Param) -> Any:
    """``p`` as JSON (:meth:`Message.to_json` says how each kind of parameter is written)."""
    if isinstance(p, Message):
        return p.to_json()
    if isinstance(p, Seat):
        return {"seat": p.n}
    if isinstance(p, Label):
        return {"label": p.id}
    if isinstance(p, Words):
        out: dict[str, Any] = {"words": [as_json(x) for x in p.items]}
        if p.listing:
            out["listing"] = True
        return out
    if isinstance(p, Sentence):
        return {"sentence": p.message.to_json()}
    return p


def from_json(data: Any) -> Param:
    """A parameter (or message) back from :meth:`Message.to_json`'s JSON; ``ValueError``
    when it is not one.

    >>> m = msg("{seat} played {cards}.", seat=Seat(0), cards=Words((label("Eel"), 2)))
    >>> from_json(m.to_json()) == m
    True
    """
    if isinstance(data, bool) or not isinstance(data, int | str | dict):
        raise ValueError(f"not a message parameter: {data!r}")
    if not isinstance(data, dict):
        return data
    if "id" in data:
        params = data.get("params", {})
        plural = data.get("plural")
        if not isinstance(data["id"], str) or not isinstance(params, dict) or not isinstance(plural, str | None):
            raise ValueError("a message has a string id and a map of params")
        return Message(data["id"], tuple((str(k), from_json(v)) for k, v in params.items()), plural)
    if isinstance(data.get("seat"), int):
        return Seat(data["seat"])
    if isinstance(data.get("label"), str):
        return Label(data["label"])
    if isinstance(data.get("words"), list):
        return Words(tuple(from_json(x) for x in data["words"]), bool(data.get("listing", False)))
    if isinstance(data.get("sentence"), dict):
        inner = from_json(data["sentence"])
        if isinstance(inner, Message):
            return Sentence(inner)
    raise ValueError(f"not a message parameter: {data!r}")


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

AND = N_("{first} and {last}")
"""How two words are joined (``"{first} and {last}"``; the last two of a longer list too)."""
COMMA = N_("{first}, {rest}")
"""How the words before the last two are joined on (``"{first}, {rest}"``)."""


def render(message: Param, catalog: Catalog = ENGLISH, names: Sequence[str] | None = None,
           number: Callable[[int], str] = str) -> str:
    """``message`` written in ``catalog``'s language, seats as ``names`` (``None``: ``{n}``),
    numbers with ``number`` (the locale's digits and separators)."""

    def write(p: Param) -> str:
        if isinstance(p, Message):
            fields = {k: write(v) for k, v in p.params}
            if p.plural is not None:
                n = p.param("n")
                if not isinstance(n, int):
                    raise TypeError(f"the count of {p.id!r} is not a number: {n!r}")
                text = catalog.ngettext(p.id, p.plural, n)
            else:
                text = catalog.gettext(p.id)
            return text.format(**fields)
        if isinstance(p, Sentence):
            said = write(p.message)
            return catalog.gettext(SENTENCE).format(sentence=said[:1].upper() + said[1:])
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


class Told(str):
    """An error's English text that keeps its :class:`Message`: the engine raises its
    errors with these (:func:`told`), so ``str(error)`` is the English and a front end
    says the message in its reader's language (``sushigo.i18n.message_of``).

    >>> error = told(ValueError, "no card {name}", name="'Tofu'")
    >>> str(error), error.args[0].message.id
    ("no card 'Tofu'", 'no card {name}')
    """

    message: Message

    def __new__(cls, message: Message) -> Told:
        self = super().__new__(cls, render(message))
        self.message = message
        return self

    def __reduce__(self) -> Any:
        return (Told, (self.message,))


E = TypeVar("E", bound=Exception)


def told(error: type[E], id: str, **params: Param) -> E:
    """An ``error`` whose text is :func:`msg` ``(id, **params)`` as a :class:`Told`
    (the extractor reads ``id`` from here)."""
    return error(Told(msg(id, **params)))


def ntold(error: type[E], singular: str, plural: str, n: int, **params: Param) -> E:
    """:func:`told` with a plural form chosen by ``n`` (:func:`nmsg`)."""
    return error(Told(nmsg(singular, plural, n, **params)))


def told_of(error: BaseException) -> Param:
    """What an error says, as a parameter of another message: its :class:`Message` when
    it was :func:`told`, else its text as it is.

    >>> told_of(told(ValueError, "bad {x}", x=1)), told_of(KeyError("x"))
    (Message(id='bad {x}', params=(('x', 1),), plural=None), "'x'")
    """
    first = error.args[0] if len(error.args) == 1 else None
    return first.message if isinstance(first, Told) else str(error)


__all__ = ["AND", "COMMA", "ENGLISH", "N_", "SENTENCE", "Catalog", "Label", "Message", "Param", "Said", "Seat",
           "Sentence", "Told", "Words", "as_json", "from_json", "label", "msg", "nmsg", "ntold", "render", "told",
           "told_of"]
