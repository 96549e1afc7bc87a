"""The Sushi Go Party! terminal game: scripted keystrokes in-process, and a real process."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from piped import piped_env
from sushigo.engine.editions import replay
from sushigo.engine.messages import render
from sushigo.engine.party.explain import explain_party_round
from sushigo.engine.party.game import DECISION_ASKS, PartyGame
from sushigo.engine.party.record import replay_party
from sushigo.engine.records import RecordError, load_json
from sushigo.terminal.base import EXIT_FINISHED, EXIT_INTERRUPTED, EXIT_STOPPED, EXIT_USAGE
from sushigo.terminal.party import (
    PartyTerminalGame,
    collection_text,
    find_card,
    run_party_play,
)

SRC = Path(__file__).resolve().parents[2] / "src"
EOF = object()
"""In a script: the end of input (Ctrl-D)."""

SPECIALS = ("Special order", "Chopsticks", "Spoon", "Menu", "Takeout box")


def console() -> Console:
    # Not a terminal (FORCE_COLOR or TTY_COMPATIBLE would make it one): the game then
    # shows "screen cleared" where a terminal's screen is cleared.
    return Console(file=io.StringIO(), width=80, record=True, force_terminal=False)


def text_of(out: Console) -> str:
    return out.export_text(clear=False)


def assert_fits(text: str, width: int = 80) -> None:
    wide = [line for line in text.splitlines() if len(line) > width]
    assert not wide, wide[:3]


def last_list(shown: str, title: str) -> list[str]:
    """The labels of the numbered list printed after the last ``title`` line."""
    block = shown[shown.rindex(title):].split("\n")[1:]
    labels: list[str] = []
    for line in block:
        cells = re.findall(r"(\d+) (\S+(?: \S+)*)", line)
        if not cells:
            break
        labels.extend(label for _, label in cells)
    return labels


class Script:
    """A scripted player: the given answers first, then defaults that play
    every special it can (so every kind of decision comes up).

    Defaults: Enter at pauses, "no" when asked to quit; at a pick, the first
    special in the hand, else card 1; copy, chopsticks, spoon, menu: the
    first choice (the spoon by name); a takeout box flips card 1.
    """

    def __init__(self, out: Console, answers: Iterable[object] = ()) -> None:
        self.out = out
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.answers:
            answer = self.answers.pop(0)
            if answer is EOF:
                raise EOFError
            if isinstance(answer, BaseException):
                raise answer
            assert isinstance(answer, str)
            return answer
        if "Enter when ready" in prompt or prompt.startswith("Press Enter"):
            return ""
        if prompt.startswith("Quit"):
            return "n"
        if prompt.startswith("Pick a card"):
            hand = last_list(text_of(self.out), " hand (")
            for i, label in enumerate(hand, 1):
                if label.startswith(SPECIALS):
                    return str(i)
            return "1"
        if prompt.startswith("Use Spoon"):
            return last_list(text_of(self.out), "Cards you can ask for:")[0].lower()
        if prompt.startswith(("Copy", "Use Chopsticks", "Play which", "Flip")):
            return "1"
        raise AssertionError(f"unexpected prompt {prompt!r}")

    def count(self, start: str) -> int:
        return sum(p.startswith(start) for p in self.prompts)


def play(
    tmp_path: Path | None,
    answers: Iterable[object] = (),
    **kwargs: Any,
) -> tuple[int, str, Script, Path | None]:
    out = console()
    script = Script(out, answers)
    path = tmp_path / "game.json" if tmp_path is not None else None
    kwargs.setdefault("bots", ["greedy"])
    code = run_party_play(console=out, input_fn=script, save=None if path is None else str(path), **kwargs)
    return code, text_of(out), script, path


# ------------------------------------------------------------ whole games


DECISION_OF_PROMPT = {"Use Chopsticks": "chopsticks", "Use Spoon": "spoon", "Flip which cards?": "takeout_box",
                      "Play which card?": "menu", "Copy which card?": None}
"""The decision each prompt asks for (a special order's copy is a pick, not a decision after the reveal)."""


@pytest.mark.parametrize(
    ("menu", "seed", "decisions"),
    [
        ("Big Banquet", 1, ("Use Chopsticks", "Use Spoon")),
        ("Master Menu", 2, ("Use Spoon", "Flip which cards?")),
        ("Dinner for Two", 3, ("Copy which card?", "Play which card?")),
    ],
)
def test_one_human_plays_every_special(tmp_path: Path, menu: str, seed: int, decisions: tuple[str, ...]) -> None:
    code, text, script, path = play(tmp_path, players=4, humans=1, seed=seed, menu=menu)
    assert code == EXIT_FINISHED, text[-2000:]
    flat = " ".join(text.split())
    for prompt in decisions:
        assert script.count(prompt) > 0, (prompt, sorted(set(script.prompts)))
        kind = DECISION_OF_PROMPT[prompt]
        if kind is not None:  # the engine's words for the decision, as the page shows them too
            assert render(DECISION_ASKS[kind]) + "." in flat, kind
    assert f"Menu: {menu} - Nigiri" in text
    assert "Final score sheet" in text and re.search(r"(Winner|Shared win): ", text)
    assert "End of round 3: scoring" in text and "Desserts (" in text
    assert_fits(text)
    assert path is not None
    data = load_json(str(path))
    assert data["edition"] == "party" and data["meta"]["finished"] is True
    game = replay(data)
    assert isinstance(game, PartyGame) and game.is_over
    totals = game.result().totals
    assert re.search(rf"with {max(totals)} points", text)


def test_the_reports_say_what_the_specials_did() -> None:
    texts = {}
    for menu in ("Cutthroat Combo", "Points Platter", "Dinner for Two", "Master Menu", "Big Banquet"):
        _, texts[menu], _, _ = play(None, players=5 if menu != "Dinner for Two" else 4, humans=0, seed=0, menu=menu)
    assert re.search(r"used Spoon \d and asked for .*: .* (gave it and took the|nobody had one)",
                     texts["Cutthroat Combo"].replace("\n ", " "))
    assert "all of them are discarded" in texts["Cutthroat Combo"].replace("\n ", " ")
    assert "reached 10 uramaki icons: +8" in texts["Points Platter"]
    assert re.search(r"used Menu \d: drew 4 cards and played", texts["Dinner for Two"])
    assert re.search(r"used Takeout box \d+ (and flipped nothing|: flipped)", texts["Master Menu"])
    assert re.search(r"used Chopsticks \d to play", texts["Big Banquet"])
    assert "Revealed in round 3, turn 9 (the last cards, played for everyone):" in texts["Master Menu"]


def test_each_round_is_explained_in_the_engines_words(tmp_path: Path) -> None:
    code, text, _, path = play(tmp_path, players=4, humans=0, seed=3, menu="Cutthroat Combo")
    assert code == EXIT_FINISHED and path is not None
    game = replay_party(load_json(str(path)))
    flat = "".join(text.split())
    assert text.count("How it scored") == 3
    for r in (1, 2, 3):
        story = explain_party_round(game, r)
        for figures in story.figures:
            for figure in figures:
                assert "".join(figure.text.split()) in flat, figure.text
        assert "".join(render(story.races[0]).split())[1:] in flat


def test_bots_only_on_every_table_size_fits_80_columns() -> None:
    for players in (2, 5, 8):
        menu = {2: "Dinner for Two", 5: "Points Platter", 8: "Big Banquet"}[players]
        code, text, script, _ = play(None, players=players, humans=0, bots=["random"], seed=players, menu=menu)
        assert code == EXIT_FINISHED
        assert script.prompts == []
        assert_fits(text)
        assert f"{players} players: " in text


def test_pass_and_play_hides_each_hand(tmp_path: Path) -> None:
    code, text, script, _ = play(tmp_path, players=3, humans=2, seed=4, menu="Master Menu", names=["Ann", "Bo"])
    assert code == EXIT_FINISHED
    current = None
    hands = 0
    for line in text.splitlines():
        if line.startswith("Pass the device to "):
            current = line.split()[4].rstrip(".")
        elif "screen cleared" in line:
            current = None
        elif " hand (" in line:
            owner = line.split("'s hand")[0]
            assert owner == current, line  # a hand shows only to its player, after the hand-over
            hands += 1
    assert hands > 2 * 3 * 9  # every pick of both humans but the forced last ones, and decisions
    assert script.count("Ann, press Enter") > 0 and script.count("Bo, press Enter") > 0


def test_quitting_saves_a_record_that_replays(tmp_path: Path) -> None:
    answers: list[object] = []
    out = console()
    script = Script(out, answers)
    path = tmp_path / "quit.json"

    def quit_in_round_two(prompt: str) -> str:
        if prompt.startswith("Press Enter to start round 2"):
            script.answers[:0] = ["q", "y"]
        return script(prompt)

    code = run_party_play(players=4, humans=1, seed=9, menu="Master Menu", console=out,
                          input_fn=quit_in_round_two, save=str(path))
    text = text_of(out)
    assert code == EXIT_STOPPED
    assert "Game abandoned." in text and "The game so far was saved" in text
    data = json.loads(path.read_text())
    assert data["edition"] == "party" and data["meta"]["finished"] is False
    with pytest.raises(RecordError, match="stops early"):
        replay(data)
    game = replay_party(data, partial=True)
    assert not game.is_over and len(game.result().rounds) == 1


@pytest.mark.parametrize(("stop", "code", "message"), [
    (EOF, EXIT_STOPPED, "End of input: game stopped."),
    (KeyboardInterrupt(), EXIT_INTERRUPTED, "Interrupted: game stopped."),
])
def test_end_of_input_and_ctrl_c_save_the_game(tmp_path: Path, stop: object, code: int, message: str) -> None:
    got, text, _, path = play(tmp_path, ["1", "1", stop], players=3, humans=1, seed=5, menu="Sushi Go!")
    assert got == code
    assert message in text
    assert path is not None
    game = replay_party(load_json(str(path)), partial=True)
    assert game.turn == 3 and game.round == 1


def test_bad_input_is_explained_and_help_lists_the_menu() -> None:
    answers = ["", "0", "99", "bogus", "eell", "eel", "?", "1"]
    code, text, _, _ = play(None, answers, players=3, humans=1, seed=5, menu="Master Menu")
    assert code == EXIT_FINISHED
    assert "Type the number of a card (1-10)" in text
    assert "There is no card 0: your hand is numbered 1-10." in text
    assert "'bogus' is not a card number or a card name." in text
    assert "'eell' is not a card number or a card name (did you mean 'eel'?)." in text
    assert "There is no Eel in your hand." in text
    flat = " ".join(text.split())
    # the help says each item of this menu in the engine's words (sushigo.engine.guide)
    assert "Takeout box: Flip any of your earlier cards of this round face down" in flat
    assert "Fruit: Kept to the end" in flat and "For example watermelon 3, pineapple 1, orange 0" in flat
    assert "Eel: One eel -3" not in flat  # this menu's items only


def test_usage_errors_are_one_line() -> None:
    for kwargs, needle in [
        ({"players": 7, "menu": "Party Sampler"}, "the Menu card can't be used with 7-8 players"),
        ({"players": 2, "menu": "Master Menu"}, "spoon can't be used with 2 players"),
        ({"players": 9}, "2-8 players, not 9"),
        ({"players": 4, "humans": 5}, "humans must be 0 to 4"),
        ({"players": 4, "menu": "Tapas"}, "unknown menu 'Tapas'"),
        ({"players": 4, "humans": 0, "bots": ["greedy", "clever"]}, "2 bots given for 4 bot seats"),
    ]:
        out = console()
        assert run_party_play(console=out, input_fn=lambda p: "", **kwargs) == EXIT_USAGE
        lines = text_of(out).strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("sushigo: error: ") and needle in lines[0], lines


def test_card_names_and_collection_labels() -> None:
    assert find_card("miso soup") == find_card("MISO_SOUP") == find_card("misosoup")
    from sushigo.engine.party.view import PlayedCard

    cards = [PlayedCard(9, 9, 1, False), PlayedCard(7, 7, 2, True), PlayedCard(35, 46, 3, False),
             PlayedCard(3, 3, 4, False), PlayedCard(5, 5, 5, False), PlayedCard(9, 9, 6, False)]
    assert collection_text(cards).plain == "Wasabi+Salmon  Maki(1+3)  Face-down  Wasabi"


def test_a_custom_menu_and_the_default_menu() -> None:
    code, text, _, _ = play(None, players=3, humans=0, seed=2,
                            menu="uramaki, eel, edamame, miso soup, soy sauce, spoon, pudding")
    assert code == EXIT_FINISHED and "Menu: Custom menu - Nigiri, Uramaki, Eel" in text
    code, text, _, _ = play(None, players=3, humans=0, seed=2)
    assert code == EXIT_FINISHED and "Menu: My First Meal - " in text


def test_party_terminal_game_can_be_built_directly() -> None:
    from sushigo.bots import make_bot
    from sushigo.engine.rules import Rules

    out = console()
    game = PartyGame(Rules.party(2, "Dinner for Two"), seed=1)
    ui = PartyTerminalGame(game, ["A", "B"], [make_bot("random", 1), make_bot("greedy", 2)], out,
                           lambda p: "", None, {})
    assert ui.run() == EXIT_FINISHED and game.is_over


# ---------------------------------------------------------- real process


def _env() -> dict[str, str]:
    env = piped_env()
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("COLUMNS", None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _sushigo(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sushigo", *args], input=stdin, capture_output=True,
                          text=True, timeout=60, env=_env(), encoding="utf-8")


def test_sushigo_play_party_with_eight_bots() -> None:
    proc = _sushigo("play", "--edition", "party", "--menu", "Master Menu", "--humans", "0",
                    "--players", "8", "--seed", "1", "--no-save")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Menu: Master Menu" in proc.stdout and "Final score sheet" in proc.stdout
    assert re.search(r"(Winner|Shared win): ", proc.stdout)
    assert_fits(proc.stdout)


def test_sushigo_play_party_with_piped_keystrokes(tmp_path: Path) -> None:
    path = tmp_path / "cli.json"
    proc = _sushigo("play", "--edition", "PARTY", "-p", "3", "--seed", "5", "--save", str(path),
                    stdin="1\n" * 200)
    assert proc.returncode == 0, proc.stderr
    assert "Menu: My First Meal" in proc.stdout
    assert replay(load_json(str(path))).is_over


@pytest.mark.parametrize(("args", "needle"), [
    (("--edition", "party", "--players", "7", "--menu", "Party Sampler"),
     "the Menu card can't be used with 7-8 players"),
    (("--players", "6"), "6 players: the base game is for 2-5 players"),
    (("--edition", "party", "--pass-both-ways"), "--pass-both-ways is a base-game option"),
    (("--edition", "party", "--reshuffle"), "--reshuffle is a base-game option"),
    (("--menu", "Master Menu"), "--menu is for Sushi Go Party!"),
    (("--edition", "deluxe"), "--edition must be base or party"),
    (("--edition", "party", "--players", "9"), "--players"),
    (("--menu-card-draw", "3"), "--menu-card-draw is a Sushi Go Party! option"),
    (("--two-player-pudding-penalty",), "--two-player-pudding-penalty is a Sushi Go Party! option"),
    (("--edition", "party", "--uramaki-split", "5-5-5"), "uramaki_split must be one of 4-4-4, 3-5-4, 4-5-3"),
    (("--edition", "party", "--menu-card-draw", "0"), "menu_card_draw must be a whole number from 1 to 8"),
    (("--wasabi-colour", "own"), "--wasabi-colour is a Sushi Go Party! option"),
    (("--edition", "party", "--wasabi-colour", "green"), "wasabi_colour must be one of nigiri, own, not 'green'"),
])
def test_sushigo_play_usage_errors(args: tuple[str, ...], needle: str) -> None:
    proc = _sushigo("play", "--humans", "0", "--no-save", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sushigo: error: ") and needle in lines[0], proc.stderr


def test_sushigo_play_party_options_reach_the_record(tmp_path: Path) -> None:
    path = tmp_path / "options.json"
    proc = _sushigo("play", "--edition", "party", "--menu", "Party Sampler", "--players", "2",
                    "--humans", "0", "--seed", "3", "--uramaki-split", "3-5-4", "--menu-card-draw", "2",
                    "--two-player-pudding-penalty", "--wasabi-colour", "own", "--save", str(path))
    assert proc.returncode == 0, proc.stderr
    record = load_json(str(path))
    assert record["options"] == {"uramaki_split": "3-5-4", "menu_card_draw": 2,
                                 "two_player_pudding_penalty": True, "wasabi_colour": "own"}
    game = replay(record)
    assert game.rules.menu_card_draw == 2 and game.rules.two_player_pudding_penalty
    assert game.rules.wasabi_colour == "own"
    # every menu that resolved drew two cards
    draws = [m.drawn for _, turns in game.history() for moves in turns for m in moves if m.drawn]
    assert draws and all(len(d) == 2 for d in draws)
