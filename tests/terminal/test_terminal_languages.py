"""The terminal game in the players' language: every text it shows goes through the
catalogs, and ``sushigo play --lang`` (or the terminal's locale) picks the language.

The pseudo-language wraps every translation in ``⟦ ⟧``: each piece of its text, not
its ``{fields}``, so that what fills a field shows outside the brackets unless it
was translated itself.  Whole games of both editions, played by a scripted human
(every kind of decision, bad input, help, quit) beside bots, must show no word
outside the brackets but the players' names, the names of the official menus, the
card names the player typed (or was offered in a hint) and the record's path: a
string the terminal shows without ``_``/``_n``/``say`` fails here.
"""

from __future__ import annotations

import contextvars
import io
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import sushigo.i18n as i18n
import sushigo.terminal.base as base
from pseudo_language import CLOSE, OPEN, Pseudo
from sushigo.cli.app import main
from sushigo.engine.base.cards import CARD_NAMES
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.records import load_json
from sushigo.terminal.base import EXIT_FINISHED, EXIT_STOPPED, run_play
from sushigo.terminal.party import run_party_play

from .test_party_terminal import last_list

"""The brackets of the pseudo-language: ⟦ and ⟧."""
EOF = object()
"""In a script: the end of input (Ctrl-D)."""


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_``, ``_n`` and ``say`` speak the pseudo-language (whatever the language)."""
    monkeypatch.setattr(i18n, "translations", lambda lang: Pseudo())


def console() -> Console:
    # wide, so that no table cell wraps a bracketed text around another cell's words
    return Console(file=io.StringIO(), width=200, record=True, force_terminal=False, color_system=None)


def plain(text: str) -> str:
    return text.replace(OPEN, "").replace(CLOSE, "")


SPECIALS = ("Special order", "Chopsticks", "Spoon", "Menu", "Takeout box")


class Script:
    """A scripted player that reads the prompts without their brackets: the given
    answers first, then Enter at pauses, "n" to quitting, chopsticks and specials
    when it can (so that every decision comes up), else the first choice."""

    def __init__(self, out: Console, answers: Iterable[object] = ()) -> None:
        self.out = out
        self.answers = list(answers)
        self.typed: list[str] = []
        self.seen = ""

    def shown(self) -> str:
        """Everything shown so far (read once: the console's record is taken as it grows)."""
        self.seen += self.out.export_text(clear=True)
        return self.seen

    def __call__(self, prompt: str) -> str:
        answer = self.answer(plain(prompt))
        self.typed.append(answer)
        return answer

    def answer(self, prompt: str) -> str:
        if self.answers:
            answer = self.answers.pop(0)
            if answer is EOF:
                raise EOFError
            assert isinstance(answer, str)
            return answer
        if "Enter when ready" in prompt or prompt.startswith("Press Enter"):
            return ""
        if prompt.startswith("Quit"):
            return "n"
        if prompt.startswith("Pick a card (or two)"):
            return "2+1"
        if prompt.startswith("Pick a card"):
            for i, label in enumerate(last_list(plain(self.shown()), " hand ("), 1):
                if label.startswith(SPECIALS):
                    return str(i)
            return "1"
        if prompt.startswith(("Copy", "Use ", "Play which", "Flip")):
            return "1"
        raise AssertionError(f"unexpected prompt {prompt!r}")


def outside(text: str) -> str:
    """What ``text`` shows outside the brackets (nested brackets count once)."""
    depth = 0
    out = []
    for ch in text:
        if ch == OPEN:
            depth += 1
            out.append(" ")
        elif ch == CLOSE:
            depth -= 1
            assert depth >= 0, "a closing bracket without its opening one"
            out.append(" ")
        elif depth == 0:
            out.append(ch)
    assert depth == 0, "a bracket left open: a translation was cut short"
    return "".join(out)


RECORD_NAMES = {*CARD_NAMES, *(c.name_in_records for c in PartyCard)}
"""The cards' names as a player types them (and as a hint quotes them)."""


def untranslated(text: str, names: Iterable[str], typed: Iterable[str]) -> set[str]:
    """The words (runs of letters) shown outside the brackets, less the players'
    ``names`` (and other data: menus, paths), the answers ``typed`` (echoed after
    their prompts, quoted in errors) and the card names a hint quotes."""
    typed = [t for t in typed if t]
    for answer in typed:
        text = text.replace(f"{CLOSE}{answer}\n", f"{CLOSE}\n")
    shown = outside(text)
    data = [*names, *OFFICIAL_MENUS, *(repr(word) for word in [*typed, *RECORD_NAMES])]
    for name in sorted(data, key=len, reverse=True):
        shown = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", shown)
    return set(re.findall(r"[^\W\d_]+", shown))


def seat_names(record: Path) -> list[str]:
    return list(load_json(str(record))["meta"]["names"])


def played(run: Callable[..., int], answers: Iterable[object] = (), **kwargs: Any) -> tuple[int, str, Script]:
    """One game in the pseudo-language (in a context of its own: English numbers)."""
    out = console()
    script = Script(out, answers)

    def game() -> int:
        i18n.use("en")
        return run(console=out, input_fn=script, **kwargs)

    code = contextvars.copy_context().run(game)
    return code, script.shown(), script


BASE_BAD = ["", "banana", "tempora", "0", "1 2", "1 2 3", "?", "q", "n"]
PARTY_BAD = ["", "0", "99", "bogus", "eell", "eel", "?", "q", "n"]


@pytest.mark.parametrize("kwargs", [
    {"players": 3, "humans": 1, "bots": ["greedy", "random"], "seed": 2, "pass_both_ways": True, "reshuffle": True},
    {"players": 3, "humans": 2, "names": ["Ann", "Bo"], "bots": ["random"], "seed": 4},
    {"players": 2, "humans": 0, "bots": ["greedy", "random"], "seed": 3},
], ids=["one human", "pass-and-play", "bots"])
def test_the_base_game_shows_nothing_outside_the_catalogs(
    pseudo: None, tmp_path: Path, kwargs: dict[str, Any]
) -> None:
    answers = BASE_BAD if kwargs["humans"] else []
    record = tmp_path / "game.json"
    code, text, script = played(run_play, answers, save=str(record), **kwargs)
    assert code == EXIT_FINISHED, text[-2000:]
    assert f"{OPEN}Final score sheet{CLOSE}" in text and f"{OPEN}How it scored{CLOSE}" in text
    assert untranslated(text, [*seat_names(record), str(record)], script.typed) == set()


@pytest.mark.parametrize(("menu", "seed", "humans"), [
    ("Big Banquet", 1, 1),  # chopsticks, spoon
    ("Master Menu", 2, 1),  # spoon, takeout box, fruit
    ("Dinner for Two", 3, 1),  # special order, menu
    ("Cutthroat Combo", 5, 2),  # pass-and-play: miso soup, soy sauce, spoons handed over
    ("Points Platter", 0, 0),  # uramaki, edamame, special order
])
def test_the_party_game_shows_nothing_outside_the_catalogs(
    pseudo: None, tmp_path: Path, menu: str, seed: int, humans: int
) -> None:
    names = ["Ann", "Bo"][:humans] if humans > 1 else None
    answers = PARTY_BAD if humans else []
    record = tmp_path / "game.json"
    code, text, script = played(run_party_play, answers, players=4, humans=humans, seed=seed, menu=menu,
                                names=names, save=str(record))
    assert code == EXIT_FINISHED, text[-2000:]
    assert f"{OPEN}Final score sheet{CLOSE}" in text
    assert untranslated(text, [*seat_names(record), str(record)], script.typed) == set()


def test_a_custom_menu_and_a_game_stopped_early_too(pseudo: None, tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    code, text, script = played(run_party_play, ["1", "q", "y"], players=3, humans=1, seed=1,
                                menu="uramaki, eel, edamame, miso soup, soy sauce, spoon, pudding", save=str(record))
    assert code == EXIT_STOPPED
    assert f"{OPEN}Custom menu{CLOSE}" in text and f"{OPEN}Game abandoned.{CLOSE}" in text
    assert untranslated(text, [*seat_names(record), str(record)], script.typed) == set()
    code, text, script = played(run_play, ["1", EOF], players=2, humans=1, seed=1, save=None)
    assert code == EXIT_STOPPED and f"{OPEN}End of input: game stopped.{CLOSE}" in text
    assert untranslated(text, ["You", "Greedy 2"], script.typed) == set()


def test_the_check_finds_a_string_left_out(pseudo: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A text shown without the catalogs is caught (here: the intro's hint)."""
    monkeypatch.setattr(base.TerminalGame, "show_intro", lambda self: self.say("Type the number of a card"))
    code, text, script = played(run_play, [EOF], players=2, humans=1, seed=1, save=None)
    assert code == EXIT_STOPPED
    assert untranslated(text, ["You", "Greedy 2"], script.typed) == {"Type", "the", "number", "of", "a", "card"}


def test_yes_in_the_players_language_quits(monkeypatch: pytest.MonkeyPatch) -> None:
    class Oui(Pseudo):
        def gettext(self, message: str, /) -> str:
            return {"y": "o", "yes": "oui"}.get(message, super().gettext(message))

    monkeypatch.setattr(i18n, "translations", lambda lang: Oui())
    code, text, _script = played(run_play, ["q", "OUI"], players=2, humans=1, seed=1, save=None)
    assert code == EXIT_STOPPED and f"{OPEN}Game abandoned.{CLOSE}" in text


# ------------------------------------------------------------ the command line


def test_an_unknown_language_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--lang", "xx", "--humans", "0", "--no-save"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sushigo: error: unknown language 'xx'"), lines
    assert all(lang in lines[0] for lang in i18n.LANGUAGES)


def test_the_language_comes_from_lang_or_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    spoken: list[str] = []

    def fake_run_play(**kwargs: Any) -> int:
        spoken.append(i18n.current().lang)
        return 0

    monkeypatch.setattr(base, "run_play", fake_run_play)
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    before = i18n.current().lang
    assert main(["play", "--humans", "0", "--no-save"]) == 0
    assert main(["play", "--humans", "0", "--no-save", "--lang", "fr"]) == 0
    assert main(["play", "--humans", "0", "--no-save", "--lang", "JA"]) == 0
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["play", "--humans", "0", "--no-save"]) == 0
    assert spoken == ["de", "fr", "ja", "en"]
    assert i18n.current().lang == before  # the game's language ends with the game


def test_a_player_types_a_cards_name_as_the_screen_shows_it() -> None:
    """In French, "nigiri au calmar" (the label) or "calmar" (the short label, accents and
    case aside) picks the squid nigiri; the English record names still work; a name the hand
    does not hold is still refused."""
    from sushigo.engine.base.cards import Card
    from sushigo.engine.base.game import Game
    from sushigo.terminal.party import PartyTerminalGame

    def in_french(fn: Callable[[], Any]) -> Any:
        def run() -> Any:
            i18n.use("fr")
            return fn()
        return contextvars.copy_context().run(run)

    out = Console(file=io.StringIO(), width=80)
    game = Game(2, seed=0)
    ui = base.TerminalGame(game, ["A", "B"], [None, None], out, lambda p: "", None, {})
    hand = [Card.SALMON, Card.SQUID, Card.TEMPURA]
    squid = hand.index(Card.SQUID)
    for typed in ("Nigiri au calmar", "CALMAR", "squid", str(squid + 1)):
        assert in_french(lambda t=typed: ui.parse_pick(t, 0, hand)) == int(Card.SQUID), typed
    with pytest.raises(ValueError):
        in_french(lambda: ui.parse_pick("Pudding", 0, hand))
    # Party, in Japanese: a card of the hand by its name as shown
    from sushigo.engine.party.game import PartyGame
    from sushigo.engine.rules import Rules

    party = PartyGame(Rules.party(2, "Sushi Go!"), seed=0)
    pui = PartyTerminalGame(party, ["A", "B"], [None, None], out, lambda p: "", None, {})
    cards = [int(PartyCard.SQUID), int(PartyCard.TEMPURA)]

    def in_japanese(text: str) -> int:
        def run() -> int:
            i18n.use("ja")
            return pui.parse_card_choice(text, cards, "hand")
        return contextvars.copy_context().run(run)

    assert in_japanese(i18n.speaker("ja").gettext("Tempura")) == int(PartyCard.TEMPURA)
    assert in_japanese("tempura") == int(PartyCard.TEMPURA)


def test_a_cards_name_the_hand_does_not_hold_says_so_in_the_language() -> None:
    """A French name of a card not in the hand: "no such card in your hand", not a word about chopsticks."""
    from sushigo.engine.base.cards import Card
    from sushigo.engine.base.game import Game

    out = Console(file=io.StringIO(), width=80)
    ui = base.TerminalGame(Game(2, seed=0), ["A", "B"], [None, None], out, lambda p: "", None, {})

    def pick(text: str) -> str:
        def run() -> str:
            i18n.use("fr")
            try:
                ui.parse_pick(text, 0, [Card.SALMON, Card.TEMPURA])
            except ValueError as e:
                return str(e)
            raise AssertionError(f"{text!r} was taken")
        return contextvars.copy_context().run(run)

    fr = i18n.speaker("fr")
    assert pick("Nigiri au calmar") == fr("There is no {card} in your hand.", card=fr.gettext("Squid"))
