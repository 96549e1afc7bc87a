"""Suggestions for names that are nearly right (cards, menus, editions).

Standard library only (:mod:`difflib`, and the engine's messages for the
hint); both editions' card parsers, the menu parser and the record reader
use it, so a typo gets the same kind of hint everywhere.

>>> from sushigo.engine.messages import render
>>> render(did_you_mean("tempora", ["tempura", "sashimi"]))
" (did you mean 'tempura'?)"

The hint is a message, a field of an error's message
(:func:`~sushigo.engine.messages.told`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from sushigo.engine.messages import Message, Words, msg


def suggest(text: str, names: Sequence[str]) -> list[str]:
    """The names among ``names`` that ``text`` nearly spells, best first (none
    when nothing is close): the same name in another case or with spaces for
    underscores; every name of a family for its stem (``maki`` ->
    ``maki1``..``maki3``, ``nigiri`` -> ``egg``, ``salmon``, ``squid``); the
    names that contain it (``ice cream``); a name among its words (``salmon
    nigiri`` -> ``salmon``); or a close misspelling (``tempora`` -> ``tempura``).

    >>> from sushigo.engine.base.cards import CARD_NAMES
    >>> suggest("tempora", CARD_NAMES)
    ['tempura']
    >>> suggest("maki", CARD_NAMES)
    ['maki1', 'maki2', 'maki3']
    >>> suggest("Salmon Nigiri", CARD_NAMES), suggest("nigri", CARD_NAMES), suggest("zebra", CARD_NAMES)
    (['salmon'], ['egg', 'salmon', 'squid'], [])
    """
    key = re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")
    if not key:
        return []
    for candidate in (key, key.replace("_", "")):
        if candidate in names:
            return [candidate]
    families: dict[str, list[str]] = {}
    for name in names:
        for stem in (re.sub(r"\d+$", "", name), name.split("_")[0]):
            if stem != name and name not in families.setdefault(stem, []):
                families[stem].append(name)
    nigiri = [n for n in ("egg", "salmon", "squid") if n in names]
    if nigiri:
        families["nigiri"] = nigiri
    families = {stem: members for stem, members in families.items() if stem not in names}
    if key in families:
        return families[key]
    if len(key) >= 4 and key != "nigiri":
        containing = [n for n in names if key in n]
        if containing:
            return containing
    words = [w for w in key.split("_") if w in names]
    if words:
        return words
    for word in key.split("_"):
        if word in families:
            return families[word]
    stems = [f for f in families if not (f == "nigiri" and key.startswith("on"))]  # onigiri is no nigiri
    close = difflib.get_close_matches(key, [*names, *stems], n=1, cutoff=0.75)
    return families.get(close[0], close) if close else []


def did_you_mean(text: str, names: Sequence[str]) -> Message | str:
    """``" (did you mean 'x'?)"`` for :func:`suggest`'s names as a message, or ``""``:
    a field of an error's message, after what was not understood.

    >>> from sushigo.engine.messages import render
    >>> render(did_you_mean("maki", ["maki1", "maki2", "maki3", "egg"])), did_you_mean("zebra", ["egg"])
    (" (did you mean 'maki1', 'maki2' or 'maki3'?)", '')
    """
    found = suggest(text, names)
    if not found:
        return ""
    quoted = [repr(n) for n in found]
    if len(quoted) == 1:
        # TRANSLATORS: added after a name that is not understood ("unknown card 'tempora'"); {name} is a name in
        # quotes. Keep the space in front when the language puts one there.
        return msg(" (did you mean {name}?)", name=quoted[0])
    # TRANSLATORS: added after a name that is not understood; {names} lists names in quotes, {last} is the last one.
    return msg(" (did you mean {names} or {last}?)", names=Words(tuple(quoted[:-1]), listing=True), last=quoted[-1])
