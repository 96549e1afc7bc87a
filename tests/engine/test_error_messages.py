"""The engine's errors are messages: raised with :func:`~sushigo.engine.messages.told`,
their ``str()`` is the English and their :class:`~sushigo.engine.messages.Told` keeps the
message, whose every piece is in the catalogs' template, so a front end says it in any
language.

Errors come from thousands of broken records and score sheets (a real game's record with
one thing changed), illegal picks, and bad flags and menus.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from sushigo.bots import make_bot
from sushigo.bots.base import play_game
from sushigo.engine.base.actions import NUM_ACTIONS
from sushigo.engine.editions import new_game, replay, score_sheet, to_record
from sushigo.engine.errors import IllegalActionError
from sushigo.engine.flags import FlagError, rules_from_flags
from sushigo.engine.messages import ENGLISH, Label, Message, Param, Sentence, Told, Words, render, told, told_of
from sushigo.engine.records import RecordError
from sushigo.engine.rules import Rules, RulesError
from sushigo.i18n import LOCALES, localized, message_of, speaker, use

TEMPLATE = LOCALES / "sushigo.pot"


def _record(rules: Rules, seed: int) -> dict[str, Any]:
    bots = [make_bot("random", seed + s) for s in range(rules.players)]
    return to_record(play_game(bots, rules=rules, seed=seed))


def _paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*at, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, (*at, i))


JUNK: tuple[Any, ...] = (None, -1, 99, "tofuu", "squid", [], {}, [1, 2], {"x": 1}, True, 2.5, "\ud800")


def _broken(data: dict[str, Any], rng: random.Random, count: int) -> Iterator[dict[str, Any]]:
    """``data`` with one value replaced or one key removed, ``count`` times."""
    paths = [p for p in _paths(data) if p]
    for _ in range(count):
        path = rng.choice(paths)
        out = copy.deepcopy(data)
        holder = out
        for step in path[:-1]:
            holder = holder[step]
        if isinstance(holder, dict) and rng.random() < 0.25:
            del holder[path[-1]]
        else:
            holder[path[-1]] = rng.choice(JUNK)
        yield out


def _errors() -> Iterator[Exception]:
    rng = random.Random(43)
    for rules, seed in ((Rules(3), 1), (Rules.party(4, "Points Platter"), 2), (Rules.party(2, "Dinner for Two"), 3)):
        record = _record(rules, seed)
        for broken in _broken(record, rng, 300):
            try:
                replay(broken)
            except RecordError as e:
                yield e
        sheet = {"edition": record["edition"], "players": record["players"],
                 **({"menu": record["menu"]} if "menu" in record else {}),
                 "rounds": [[["tempura", "tempura"], ["squid"]] + [[]] * (record["players"] - 2)]}
        for broken in _broken(sheet, rng, 150):
            try:
                score_sheet(broken)
            except RecordError as e:
                yield e
    game = new_game(Rules(2), seed=5)
    for action in (NUM_ACTIONS - 1, 0, 5, 77):
        try:
            game.commit(0, action)
        except (IllegalActionError, ValueError) as e:
            yield e
    for players, flags in ((2, {"menu": "spoon"}), (9, {}), (4, {"edition": "paty"}),
                           (4, {"menu_card_draw": 3}), (3, {"edition": "party", "menu": "Master Menu, tofu"}),
                           (2, {"edition": "party", "uramaki_split": "sideways"})):
        try:
            rules_from_flags(players, **flags)
        except (FlagError, RulesError) as e:
            yield e


@pytest.fixture(scope="module")
def errors() -> list[Exception]:
    return list(_errors())


@pytest.fixture(scope="module")
def template_ids() -> set[str]:
    with TEMPLATE.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}


def _ids(p: Param) -> Iterator[str]:
    if isinstance(p, Message):
        yield p.id
        for _, v in p.params:
            yield from _ids(v)
    elif isinstance(p, Label):
        yield p.id
    elif isinstance(p, Words):
        for x in p.items:
            yield from _ids(x)
    elif isinstance(p, Sentence):
        yield from _ids(p.message)


def test_every_error_is_told_and_its_english_is_its_text(errors: list[Exception]) -> None:
    assert len(errors) > 1000
    texts = {str(e) for e in errors}
    assert len(texts) > 300  # many different errors, not one said a thousand times
    for e in errors:
        told_text = e.args[0]
        assert isinstance(told_text, Told), (type(e).__name__, str(e))
        assert render(told_text.message, ENGLISH) == str(e)
        assert "\n" not in str(e)


def test_every_piece_of_every_error_is_in_the_catalogs(errors: list[Exception], template_ids: set[str]) -> None:
    missing = {i for e in errors for i in _ids(e.args[0].message)} - template_ids
    assert missing == set()


class Brackets:
    """A language whose every message is its English in brackets: what it writes outside
    the brackets did not come from a catalog (or is a field: a number, a name in the record)."""

    def gettext(self, message: str, /) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"


def test_an_error_is_said_whole_in_another_language(errors: list[Exception]) -> None:
    """Every error's message starts as a catalog's sentence: no English is put around it."""
    for e in errors:
        said = render(e.args[0].message, Brackets())
        assert said.startswith("⟦") and said.endswith("⟧"), said


def test_an_error_inside_another_keeps_its_message() -> None:
    inner = told(RecordError, "unknown card {name}", name="'tofuu'")
    outer = told(RecordError, "{where}: {why}", where="round 1", why=told_of(inner))
    assert str(outer) == "round 1: unknown card 'tofuu'"
    assert render(outer.args[0].message, Brackets()) == "⟦round 1: ⟦unknown card 'tofuu'⟧⟧"
    assert told_of(ValueError("plain")) == "plain"


def test_the_boundary_says_an_error_in_the_readers_language(errors: list[Exception]) -> None:
    """``localized(message_of(e))``, what the server and the command line print, in French
    and German: the catalog's sentence (not the English), and English again in English."""
    for lang in ("fr", "de"):
        changed = 0
        for e in errors[:200]:
            with_lang = use_in(lang, lambda e=e: localized(message_of(e)))
            assert with_lang == speaker(lang).say(e.args[0].message)
            changed += with_lang != str(e)
        assert changed > 150, (lang, changed)
    assert use_in("en", lambda: [localized(message_of(e)) for e in errors[:50]]) == [str(e) for e in errors[:50]]


def use_in(lang: str, fn: Any) -> Any:
    import contextvars

    def run() -> Any:
        use(lang)
        return fn()

    return contextvars.copy_context().run(run)


def test_a_told_error_pickles_with_its_message() -> None:
    import pickle

    e = told(RecordError, "unknown card {name}", name="'x'")
    back = pickle.loads(pickle.dumps(e))
    assert str(back) == str(e) and back.args[0].message == e.args[0].message

