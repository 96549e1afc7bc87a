"""Sentences as message ids with parameters (sushigo.engine.messages): English is the ids
themselves, a line's message says its text, and a catalog changes every word it translates
and nothing else (a pseudo-language that marks each translated piece)."""

from __future__ import annotations

import pytest
from tests.engine.test_narration import TABLES, _play

from sushigo.engine.messages import AND, COMMA, ENGLISH, Label, Message, Seat, Words, label, msg, render


class Marked:
    """A pseudo-language: every id translated to itself between brackets, plurals by count."""

    def gettext(self, message: str, /) -> str:
        return f"[{message}]"

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return f"[{singular if n == 1 else plural}]"


def test_english_is_the_ids_themselves() -> None:
    m = msg("{seat} played {cards}.", seat=Seat(2), cards=Words((label("Tempura"), label("Eel"), label("Tea"))))
    assert render(m) == "{2} played Tempura, Eel and Tea."
    assert render(m, names=["Ana", "Ben", "Cy"]) == "Cy played Tempura, Eel and Tea."
    assert render(m, ENGLISH, number=lambda n: f"#{n}") == render(m)  # no number in it
    assert render(msg("{n} points", n=1234), number=lambda n: f"{n:,}") == "1,234 points"


def test_a_catalog_translates_every_piece_and_the_joins() -> None:
    m = msg("{seat} played {cards}.", seat=Seat(0), cards=Words((label("Tempura"), label("Eel"), label("Tea"))))
    # the sentence, each card, and each join, the seat's name as it is
    assert render(m, Marked(), names=["Ana"]) == "[Ana played [[Tempura], [[Eel] and [Tea]]].]"
    assert render(Words((1, 2, 3), listing=True), Marked()) == "[1, [2, 3]]"
    assert (AND, COMMA) == ("{first} and {last}", "{first}, {rest}")


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_plural_forms_come_from_the_catalog(n: int) -> None:
    m = msg("{n} dumpling", "{n} dumplings", count="n", n=n)
    assert render(m) == (f"{n} dumpling" if n == 1 else f"{n} dumplings")
    assert render(m, Marked()) == f"[{n} dumpling{'' if n == 1 else 's'}]"


def test_a_plural_names_what_it_counts() -> None:
    with pytest.raises(ValueError, match="count="):
        msg("{n} egg", "{n} eggs", n=2)
    with pytest.raises(TypeError, match="not a number"):
        render(Message("{n} egg", (("n", "two"),), "{n} eggs", "n"))


WITHOUT_MESSAGES = {"round", "game"}
"""The kinds of line some of whose sentences are still the explanations' English (their
races, puddings and desserts): issue 43 turns sushigo.engine.*.explain into messages next."""


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.edition}-{r.players}-{'-'.join(r.menu[:1])}")
def test_every_line_with_a_message_says_its_text(rules: object) -> None:
    for seed in range(2):
        _, lines = _play(rules, seed)  # type: ignore[arg-type]
        for line in lines:
            if line.message is None:
                assert line.kind in WITHOUT_MESSAGES, line
                continue
            assert isinstance(line.message, Message) and not isinstance(line.message, Label)
            assert render(line.message) == line.text
            if line.private is not None:
                assert line.private_message is not None and render(line.private_message) == line.private
            assert "[" in render(line.message, Marked())  # translated, piece by piece
