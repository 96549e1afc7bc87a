"""A pseudo-language for tests: every message translated into itself, each piece of its
text in brackets, so that whatever a screen or a line shows outside the brackets did not
come from a catalog.

>>> bracketed("Round {round} of {rounds}")
'⟦Round ⟧{round}⟦ of ⟧{rounds}'
"""

from __future__ import annotations

import re

OPEN, CLOSE = "\u27e6", "\u27e7"
FIELD = re.compile(r"(\{\w*\})")


def bracketed(message: str) -> str:
    """``message`` with each piece of text between its fields in brackets."""
    return "".join(piece if FIELD.fullmatch(piece) else f"{OPEN}{piece}{CLOSE}"
                   for piece in FIELD.split(message) if piece)


class Pseudo:
    """A catalog that translates every message into itself, its text in brackets."""

    def gettext(self, message: str, /) -> str:
        return bracketed(message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return bracketed(singular if n == 1 else plural)
