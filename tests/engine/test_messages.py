"""Sentences as message ids with parameters (sushigo.engine.messages): English is the ids
themselves, a line's message says its text, and a catalog changes every word it translates
and nothing else (a pseudo-language that marks each translated piece)."""

from __future__ import annotations

import pytest
from tests.engine.test_narration import TABLES, _play

from sushigo.engine.messages import (
    AND,
    COMMA,
    ENGLISH,
    SENTENCE,
    Message,
    Seat,
    Sentence,
    Words,
    as_json,
    from_json,
    label,
    msg,
    nmsg,
    render,
)


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
    m = nmsg("{n} dumpling", "{n} dumplings", n)
    assert render(m) == (f"{n} dumpling" if n == 1 else f"{n} dumplings")
    assert render(m, Marked()) == f"[{n} dumpling{'' if n == 1 else 's'}]"


def test_a_plural_counts_a_number() -> None:
    with pytest.raises(TypeError, match="not a number"):
        render(Message("{n} egg", (("n", "two"),), "{n} eggs"))


def test_a_sentence_gets_a_capital_and_the_languages_full_stop() -> None:
    m = Sentence(msg("maki icons {counts}", counts=Words((5, 3), listing=True)))
    assert render(m) == "Maki icons 5, 3."
    assert SENTENCE == "{sentence}."
    assert render(m, Marked()) == "[[maki icons [5, 3]].]"  # the first character is the bracket


def test_messages_travel_as_json_and_come_back_the_same() -> None:
    m = msg("{seat} played {cards}: {said}", seat=Seat(2), cards=Words((label("Eel"), 3), listing=True),
            said=Sentence(nmsg("{n} card", "{n} cards", 2)))
    data = as_json(m)
    assert data == {"id": "{seat} played {cards}: {said}", "params": {
        "seat": {"seat": 2}, "cards": {"words": [{"label": "Eel"}, 3], "listing": True},
        "said": {"sentence": {"id": "{n} card", "params": {"n": 2}, "plural": "{n} cards"}}}}
    assert from_json(data) == m
    for bad in ([1], {"seat": "x"}, {"id": 3}, {"sentence": {"seat": 1}}, True, 2.5):
        with pytest.raises(ValueError, match="message"):
            from_json(bad)


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.edition}-{r.players}-{'-'.join(r.menu[:1])}")
def test_every_line_with_a_message_says_its_text(rules: object) -> None:
    for seed in range(2):
        _, lines = _play(rules, seed)  # type: ignore[arg-type]
        for line in lines:
            assert isinstance(line.message, Message | Sentence), line
            assert from_json(line.to_json()["msg"]) == line.message
            assert render(line.message) == line.text
            if line.private is not None:
                assert line.private_message is not None and render(line.private_message) == line.private
            assert "[" in render(line.message, Marked())  # translated, piece by piece
