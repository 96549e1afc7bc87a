"""The pages' HTML in any language: every text of a page and its few readable
attributes are message ids, read out by the extractor (:func:`extract_html`, which
``scripts/i18n.py`` gives Babel) and put back translated when a page is served
(:func:`translate_html`).  A page needs no markup for it: a *run* of text, with the
inline tags inside it (``<a>``, ``<em>``, ``<code>``...), is one message between any
two other tags; an element with ``translate="no"`` (the HTML attribute) is left as
it is, and so is text without a letter.

>>> page = ('<html lang="en"><p title="Go on">Play <em>now</em>, or\\n  later.</p><b translate="no">sushigo</b>'
...         '<nav> <a href="/">Tables</a> <a href="/score">Score</a> </nav>')
>>> [m for _, _, m, _ in extract_html(io.BytesIO(page.encode()), [], [], {})]
['Go on', 'Play <em>now</em>, or later.', 'Tables', 'Score']
>>> class Shout:
...     def gettext(self, m): return m.upper()
>>> translate_html(page, Shout(), "fr").split("<nav>")
['<html lang="fr"><p title="GO ON">PLAY <EM>NOW</EM>, OR LATER.</p><b translate="no">sushigo</b>', \
' <a href="/">TABLES</a> <a href="/score">SCORE</a> </nav>']
"""

from __future__ import annotations

import io  # noqa: F401  (the doctest reads a page from bytes)
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import IO, Any, Final

from sushigo.engine.messages import Catalog

INLINE: Final = frozenset({"a", "abbr", "b", "bdi", "br", "cite", "code", "em", "i", "kbd", "mark", "q", "s", "samp",
                           "small", "strong", "sub", "sup", "time", "u", "var"})
"""Tags that stay inside a run of text (a message keeps them, the translation places them)."""
ATTRIBUTES: Final = ("title", "placeholder", "alt", "aria-label")
"""Attributes people read (or hear)."""
_TOKEN: Final = re.compile(r"<!--.*?-->|<![^>]*>|<(script|style)\b[^>]*>.*?</\1\s*>|</?[a-zA-Z][^>]*>|[^<]+",
                           re.S | re.I)
_NAME: Final = re.compile(r"</?([a-zA-Z][\w-]*)")
_ATTR: Final = re.compile(r'([\w-]+)="([^"]*)"')
_LANG: Final = re.compile(r'(<html\b[^>]*\blang=")[^"]*(")')
_VOID: Final = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                          "track", "wbr"})


def _normal(text: str) -> str:
    return " ".join(text.split())


def _readable(text: str) -> bool:
    return any(c.isalpha() for c in re.sub(r"<[^>]*>|&\w+;", "", text))


def _segment(run: list[str]) -> Iterator[tuple[str, str]]:
    """A run of text and inline tags: one message when it has text of its own, else each
    inline element's tags kept and its inside segmented in turn (a row of links is a
    message per link)."""
    depth, own, level = 0, False, []
    for token in run:
        name_m = _NAME.match(token)
        if not name_m:
            own = own or (depth == 0 and _readable(token))
            level.append(depth)
            continue
        void = name_m.group(1).lower() in _VOID or token.endswith("/>")
        if token.startswith("</"):
            depth -= 1
            level.append(depth)
        else:
            level.append(depth)
            depth += 0 if void else 1
    if own or not _readable("".join(run)):
        yield ("run" if own else "keep"), "".join(run)
        return
    i = 0
    while i < len(run):
        token = run[i]
        if level[i] != 0 or not _NAME.match(token) or token.startswith("</"):
            yield "keep", token
            i += 1
            continue
        j = i + 1
        while j < len(run) and level[j] != 0:
            j += 1
        yield "tag", token
        if j > i + 1 or (j < len(run) and run[j].startswith("</")):
            yield from _segment(run[i + 1:j])
        i = j


def _pieces(page: str) -> Iterator[tuple[str, str]]:
    """The page as ``("keep", html)``, ``("run", html)`` (a message's source) and
    ``("tag", html)`` (a tag whose attributes may hold messages), in order."""
    run: list[str] = []
    skip: list[str] = []  # the open elements marked translate="no" (their names)

    def flush() -> Iterator[tuple[str, str]]:
        if run:
            yield from _segment(run)
            run.clear()

    for m in _TOKEN.finditer(page):
        token = m.group(0)
        name_m = _NAME.match(token)
        name = name_m.group(1).lower() if name_m else ""
        closing = token.startswith("</")
        if skip:
            if name == skip[-1] and not token.startswith("<!"):
                if closing:
                    skip.pop()
                elif not token.endswith("/>") and name not in _VOID:
                    skip.append(name)
            yield "keep", token
            continue
        if token.startswith("<!") or m.group(1):
            yield from flush()
            yield "keep", token
            continue
        if not name or (name in INLINE and 'translate="no"' not in token):
            run.append(token)
            continue
        yield from flush()
        if not closing and 'translate="no"' in token:
            if name not in _VOID and not token.endswith("/>"):
                skip.append(name)
            yield "keep", token
            continue
        yield ("keep" if closing else "tag"), token
    yield from flush()


def _messages(page: str) -> Iterator[str]:
    for kind, html in _pieces(page):
        if kind == "run":
            yield _normal(html)
        elif kind == "tag":
            for key, value in _ATTR.findall(html):
                if key in ATTRIBUTES and _readable(value):
                    yield _normal(value)


def extract_html(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
                 options: Mapping[str, Any]) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor interface: each message of a page (``lineno`` is 0: a page's
    messages are found by their text)."""
    for message in _messages(fileobj.read().decode("utf-8")):
        yield 0, "", message, []


def translate_html(page: str, catalog: Catalog, lang: str) -> str:
    """The page with each message translated and ``<html lang>`` set to ``lang``."""
    gettext: Callable[[str], str] = catalog.gettext
    out = []
    for kind, html in _pieces(page):
        if kind == "run":
            lead = html[:len(html) - len(html.lstrip())]
            trail = html[len(html.rstrip()):]
            out.append(lead + gettext(_normal(html)) + trail)
        elif kind == "tag":
            out.append(_ATTR.sub(lambda a: f'{a.group(1)}="{gettext(_normal(a.group(2))).replace(chr(34), "&quot;")}"'
                                 if a.group(1) in ATTRIBUTES and _readable(a.group(2)) else a.group(0), html))
        else:
            out.append(html)
    return _LANG.sub(lambda m: m.group(1) + lang + m.group(2), "".join(out), count=1)
