"""The terminal game, driven in-process with scripted keystrokes and in a real process."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import sushigo.terminal.base as terminal
import sushigo.terminal.session as session
from piped import piped_env
from sushigo import Card, Game
from sushigo.bots import Bot, make_bot
from sushigo.engine.base.explain import explain_round
from sushigo.engine.base.view import SeatView
from sushigo.engine.editions import replay
from sushigo.engine.messages import render
from sushigo.engine.records import RecordError, load_json
from sushigo.terminal.base import (
    EXIT_FINISHED,
    EXIT_INTERRUPTED,
    EXIT_STOPPED,
    EXIT_USAGE,
    collection_text,
    run_play,
)

SRC = Path(__file__).resolve().parents[2] / "src"
EOF = object()
"""In a script: the end of input (Ctrl-D)."""


def console() -> Console:
    # Not a terminal (FORCE_COLOR or TTY_COMPATIBLE would make it one): the game then
    # shows "screen cleared" where a terminal's screen is cleared.
    return Console(file=io.StringIO(), width=80, record=True, force_terminal=False)


def text_of(out: Console) -> str:
    return out.export_text(clear=False)


class Script:
    """A scripted player: the given answers first, then sensible defaults.

    Defaults: Enter at pauses, "no" when asked to quit, and at a pick the
    chopsticks pair "2+1" when two cards are allowed, the chopsticks by name
    when the hand shows them (to get chopsticks into play), else card 1.
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
        if "Enter" in prompt:
            return ""
        if prompt.startswith("Quit"):
            return "n"
        assert prompt.startswith("Pick"), prompt
        if "(or two)" in prompt:
            return "2+1"
        shown = text_of(self.out)
        hand = shown[shown.rindex("hand (") :]
        return "chopsticks" if "Chopsticks" in hand else "1"

    def count(self, start: str) -> int:
        return sum(p.startswith(start) for p in self.prompts)


def play(
    tmp_path: Path | None = None,
    answers: Iterable[object] = (),
    **kwargs: Any,
) -> tuple[int, str, Script, Path | None]:
    out = console()
    script = Script(out, answers)
    save = tmp_path / "games" / "game.json" if tmp_path is not None else None
    kwargs.setdefault("seed", 1)
    code = run_play(console=out, input_fn=script, save=str(save) if save else None, **kwargs)
    text = text_of(out)
    assert "Traceback" not in text
    assert_fits(text)
    return code, text, script, save


def assert_fits(text: str, width: int = 80) -> None:
    wide = [line for line in text.splitlines() if len(line) > width]
    assert not wide, wide[:3]


def shown(message: str, text: str) -> bool:
    """Whether ``message`` is in ``text`` however the console wrapped it.

    The game wraps every line to the console's width (``assert_fits``), so a
    message naming a file breaks where the path makes it break: at a space, or
    inside a path longer than a line.  Comparing without whitespace finds it
    at any path length.
    """
    return "".join(message.split()) in "".join(text.split())


# ------------------------------------------------------------ whole games


def test_one_human_against_bots_plays_a_full_game(tmp_path: Path) -> None:
    code, text, script, save = play(
        tmp_path, players=4, humans=1, bots=["greedy", "random", "greedy"], seed=11
    )
    assert code == EXIT_FINISHED
    # 3 rounds of 8 cards: 7 real picks each (the last card is forced), 2 pauses between rounds.
    assert script.count("Pick") == 21
    assert script.count("Press Enter") == 2
    for r in (1, 2, 3):
        assert f"End of round {r}: scoring" in text
        assert f"Round {r} points" in text
    assert "Score sheet after round 2" in text
    assert "Final score sheet" in text
    assert "Pudding (count)" in text
    assert "You pass this hand left to Greedy 2 and receive Greedy 4's next." in text
    assert "Revealed in round 3, turn 8 (the last cards, played for everyone):" in text

    assert save is not None and save.exists()
    data = load_json(str(save))
    game = replay(data)
    result = game.result()
    assert data["result"]["totals"] == list(result.totals)
    assert data["meta"]["names"] == ["You", "Greedy 2", "Random 3", "Greedy 4"]
    assert data["meta"]["finished"] is True
    assert data["meta"]["seed"] == 11
    assert [s["player"] for s in data["meta"]["seats"]] == ["human", "bot", "bot", "bot"]
    names = data["meta"]["names"]
    line = [ln for ln in text.splitlines() if ln.startswith(("Winner: ", "Shared win: "))][-1]
    assert all(names[s] in line for s in result.winners), line
    assert line.endswith(f"with {result.totals[result.winners[0]]} points")
    assert shown(f"Game record saved to {save}", text)
    # Every total on the final sheet is the replayed one.
    total_row = [ln for ln in text.splitlines() if ln.strip().startswith("Total")][-1]
    assert [int(x) for x in re.findall(r"-?\d+", total_row)] == list(result.totals)


def test_pass_and_play_hides_each_hand_until_its_player_is_ready(tmp_path: Path) -> None:
    code, text, script, save = play(tmp_path, players=3, humans=2, names=["Ann", "Ben"], bots=["random"], seed=4)
    assert code == EXIT_FINISHED
    head, *segments = re.split(r"\nPass the device to ", text)
    assert "'s hand" not in head
    # Each human sees their own hand 8 times a round (the 9th card is forced).
    assert len(segments) == 2 * 3 * 8
    for segment in segments:
        name = segment.split(".", 1)[0]
        assert name in ("Ann", "Ben")
        assert re.findall(r"(\w+)'s hand \(", segment) == [name]
        ready = segment.index(f"{name}, press Enter when ready")
        shown = segment.index(f"{name}'s hand (")
        picked = segment.index("Pick a card", shown)
        hidden = segment.index("screen cleared", picked)
        assert ready < shown < picked < hidden
        # Nothing of the hand is printed after the screen is cleared.
        assert "hand (" not in segment[hidden:]
    assert script.count("Ann, press Enter") == script.count("Ben, press Enter") == 24
    assert save is not None
    game = replay(load_json(str(save)))
    assert game.is_over


def test_chopsticks_pairs_by_number_in_play_order(tmp_path: Path) -> None:
    code, text, script, save = play(tmp_path, players=2, humans=1, bots=["random"], seed=2)
    assert code == EXIT_FINISHED
    assert "Chopsticks: you may take two cards" in text
    assert script.count("Pick a card (or two)") >= 1
    mine = [ln for ln in text.splitlines() if ln.startswith(" You ") and "(chopsticks)" in ln]
    assert mine, "the human never used chopsticks"
    assert save is not None
    data = load_json(str(save))
    pairs = [turn[0] for rnd in data["rounds"] for turn in rnd["turns"] if len(turn[0]) == 2]
    assert len(pairs) == len(mine)
    # "2+1" takes card 2 first: the pair is in descending card order of the sorted hand.
    from sushigo.engine.base.cards import parse_card

    for first, second in pairs:
        assert parse_card(first) >= parse_card(second)


def test_five_players_with_long_names_fit_80_columns(tmp_path: Path) -> None:
    code, text, _, save = play(
        tmp_path,
        players=5,
        humans=2,
        names=["Bartholomew Longname-Smythe", "Wilhelmina"],
        bots=["greedy", "random", "greedy"],
        pass_both_ways=True,
        seed=21,
    )
    assert code == EXIT_FINISHED
    assert "You pass this hand right" in text  # round 2 with pass-both-ways
    assert "Bartholomew " in text  # truncated to fit, but shown
    assert save is not None and replay(load_json(str(save))).rules.pass_both_ways


def test_bots_only_game_asks_nothing() -> None:
    out = console()

    def no_input(prompt: str) -> str:
        raise AssertionError(f"asked {prompt!r}")

    code = run_play(players=4, humans=0, bots=["greedy"], seed=3, console=out, input_fn=no_input)
    assert code == EXIT_FINISHED
    text = text_of(out)
    assert "Final score sheet" in text and ("Winner:" in text or "Shared win:" in text)
    assert "Greedy 4" in text


def test_search_and_external_bots_take_seats(tmp_path: Path) -> None:
    """An ismcts seat gets world views; an external program gets the game's
    lifecycle (picks with the game's id, one end message) and is closed."""
    import json
    import shlex
    import sys

    log = tmp_path / "log.jsonl"
    good = Path(__file__).resolve().parents[1] / "bots" / "good.py"
    external = "cmd:" + shlex.join([sys.executable, str(good), "--log", str(log)])
    out = console()

    def no_input(prompt: str) -> str:
        raise AssertionError(f"asked {prompt!r}")

    code = run_play(players=3, humans=0, bots=["ismcts:iterations=20", external, "greedy"], seed=4,
                    console=out, input_fn=no_input)
    assert code == EXIT_FINISHED
    text = text_of(out)
    assert "Ismcts 1" in text and "Bot 2" in text and "misplayed" not in text
    messages = [json.loads(line)["msg"] for line in log.read_text().splitlines()]
    assert {m["game"] for m in messages} == {"play-4"}
    assert [m["type"] for m in messages].count("end") == 1 and messages[-1]["type"] == "end"
    assert len([m for m in messages if m["type"] == "pick"]) == 27  # 3 rounds of 9 cards
    assert {m["seat"] for m in messages if m["type"] == "pick"} == {1}


def test_same_seed_and_keys_give_the_same_game(tmp_path: Path) -> None:
    # Both games save to the same path, so the screens (which wrap that path
    # wherever its length makes them wrap) must match character for character.
    a = play(tmp_path, players=3, humans=1, bots=["greedy", "random"], seed=8)
    assert a[3] is not None
    first = load_json(str(a[3]))["rounds"]
    b = play(tmp_path, players=3, humans=1, bots=["greedy", "random"], seed=8)
    assert b[3] == a[3]
    assert a[1] == b[1]
    assert load_json(str(b[3]))["rounds"] == first


def test_humans_commit_one_seat_at_a_time_and_bots_see_only_their_view(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    views: list[tuple[int, SeatView]] = []

    class Spy(Bot):
        name = "spy"

        def __init__(self, inner: Bot) -> None:
            super().__init__(inner.seed)
            self.inner = inner

        def choose(self, view: SeatView) -> int:
            assert isinstance(view, SeatView)
            assert view.hand is not None
            views.append((view.seat or 0, view))
            return self.inner.choose(view)

    def spy_bot(spec: str, seed: int | None, timeout: float | None = None) -> Bot:
        return Spy(make_bot(spec, seed, timeout=timeout))

    def no_play(self: Game, actions: Any) -> None:
        raise AssertionError("the terminal game must use Game.commit, one seat at a time")

    monkeypatch.setattr(session, "make_bot", spy_bot)
    monkeypatch.setattr(Game, "play", no_play)
    code, _, _, _ = play(tmp_path, players=3, humans=1, bots=["greedy"], seed=5)
    assert code == EXIT_FINISHED
    assert {seat for seat, _ in views} == {1, 2}
    # A bot's view holds its own hand and never a hand it has not held this round.
    for seat, view in views:
        assert view.seat == seat
        for k, known in enumerate(view.known_hands):
            if known is not None and k != seat:
                assert view.turn > 1


# -------------------------------------------------------------- bad input


def test_invalid_input_gets_one_line_and_a_new_prompt() -> None:
    hand = Game(2, seed=6).hand(0)
    absent = next(c for c in Card if c not in hand)
    answers = ["", "banana", "tempora", "0", "99", "1 2", "1 2 3", "?", "h", absent.name_in_records, "1", EOF]
    code, text, script, _ = play(None, answers, players=2, humans=1, bots=["random"], seed=6)
    assert code == EXIT_STOPPED
    for message in (
        "Type the number of a card (1-10), or ? for help.",
        "'banana' is not a card number or a card name.",
        "'tempora' is not a card number or a card name (did you mean 'tempura'?).",
        "There is no card 0: your hand is numbered 1-10.",
        "There is no card 99: your hand is numbered 1-10.",
        "Two cards need chopsticks in your collection from an earlier turn.",
        "Pick one card, or two with chopsticks.",
        f"There is no {terminal.CARD_SHORT[absent]} in your hand.",
    ):
        assert message in text, message
    assert text.count("How to pick:") == 2
    assert script.count("Pick a card") == 12
    assert "Revealed in round 1, turn 1:" in text
    assert "End of input: game stopped." in text


def test_same_card_twice_and_chopsticks_rules_explained() -> None:
    out = console()
    game = Game(2, seed=0)
    ui = terminal.TerminalGame(game, ["A", "B"], [None, None], out, lambda p: "", None, {})
    hand = sorted(game.hands[0])
    game.collections[0] = [Card.CHOPSTICKS]
    with pytest.raises(ValueError, match="same card twice"):
        ui.parse_pick("1 1", 0, hand)
    with pytest.raises(ValueError, match="not a card number"):
        ui.parse_pick("1 x", 0, hand)
    with pytest.raises(ValueError, match="not a card number"):
        ui.parse_pick("\u00b2", 0, hand)  # a digit, but not one you can type as a number
    with pytest.raises(ValueError, match="There is no card 123456:"):
        ui.parse_pick("1234567890" * 5, 0, hand)
    assert ui.parse_pick("2+1", 0, hand) == 12 + 12 * hand[1] + hand[0]
    game.hands[0] = [Card.EGG]
    with pytest.raises(ValueError, match="at least two cards"):
        ui.parse_pick("1 2", 0, [Card.EGG])


def test_a_near_name_suggests_the_cards_in_hand_first() -> None:
    game = Game(2, seed=0)
    ui = terminal.TerminalGame(game, ["A", "B"], [None, None], console(), lambda p: "", None, {})
    with pytest.raises(ValueError, match=r"\(did you mean 'maki2'\?\)"):
        ui.parse_pick("maki", 0, [Card.EGG, Card.MAKI2, Card.TEMPURA])
    with pytest.raises(ValueError, match=r"\(did you mean 'maki1', 'maki2' or 'maki3'\?\)"):
        ui.parse_pick("maki", 0, [Card.EGG, Card.TEMPURA])


def test_quit_asks_first_and_saves_the_game_so_far(tmp_path: Path) -> None:
    answers = ["1", "q", "n", "1", "quit", "y"]
    code, text, script, save = play(tmp_path, answers, players=3, humans=1, bots=["greedy"], seed=9)
    assert code == EXIT_STOPPED
    assert script.count("Quit this game?") == 2
    assert "Carrying on." in text
    assert "Game abandoned." in text
    assert save is not None
    data = json.loads(save.read_text())
    assert len(data["rounds"][0]["turns"]) == 2
    assert data["meta"]["finished"] is False
    assert "result" not in data
    with pytest.raises(RecordError, match="stops early"):
        replay(data)


def test_quit_at_a_pause_and_when_saving_is_off() -> None:
    answers = ["1"] * 8 + ["q", "yes"]
    code, text, script, _ = play(None, answers, players=3, humans=1, bots=["random"], seed=2)
    assert code == EXIT_STOPPED
    assert script.prompts[-2].startswith("Press Enter to start round 2")
    assert "Game abandoned." in text and "saved" not in text


def test_end_of_input_stops_cleanly_with_a_non_zero_status(tmp_path: Path) -> None:
    code, text, _, save = play(tmp_path, [EOF], players=4, humans=1, seed=1)
    assert code == EXIT_STOPPED
    assert "End of input: game stopped." in text
    assert save is not None
    data = load_json(str(save))
    assert data["rounds"][0]["turns"] == []


def test_end_of_input_at_the_pass_screen(tmp_path: Path) -> None:
    code, text, _, _ = play(tmp_path, ["", "1", EOF], players=2, humans=2, seed=1)
    assert code == EXIT_STOPPED
    assert "End of input" in text


def test_ctrl_c_stops_and_saves(tmp_path: Path) -> None:
    code, text, _, save = play(tmp_path, [KeyboardInterrupt()], players=2, humans=1, seed=1)
    assert code == EXIT_INTERRUPTED
    assert "Interrupted" in text
    assert save is not None and save.exists()


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"players": 6}, "2-5 players"),
        ({"players": 4, "humans": 5}, "humans must be 0 to 4"),
        ({"players": 4, "humans": -1}, "humans must be 0 to 4"),
        ({"players": 4, "bots": ["clever"]},
         "unknown bot 'clever' (choose from: flatmc, greedy, ismcts, learned, random, or cmd:COMMAND)"),
        ({"players": 4, "bots": ["greedy", "random"]}, "2 bots given for 3 bot seats"),
        ({"players": 4, "bots": ["ismcts:time=-1"]}, "ismcts time must be a positive number"),
        ({"players": 3, "humans": 1, "names": ["A", "B"]}, "2 names given for 1 human"),
        ({"players": 3, "humans": 2, "names": ["Ann", " ann "]}, "two players are called"),
        ({"players": 3, "humans": 1, "names": ["\x1b\x07 \t"]}, "a player name is empty"),
    ],
)
def test_impossible_settings_are_one_line_errors(kwargs: dict[str, Any], needle: str) -> None:
    out = console()
    code = run_play(console=out, input_fn=Script(out), seed=1, **kwargs)
    text = text_of(out)
    assert code == EXIT_USAGE
    assert needle in text
    assert len(text.strip().splitlines()) == 1


def test_unusable_save_path_is_refused_before_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target in (blocker / "game.json", tmp_path):
        out = console()
        code = run_play(players=2, humans=1, seed=1, save=str(target), console=out, input_fn=Script(out))
        assert code == EXIT_USAGE
        assert "cannot" in text_of(out)


def test_names_are_cleaned_and_kept_in_the_record(tmp_path: Path) -> None:
    code, text, _, save = play(tmp_path, players=2, humans=2, names=["  Zoë\x1b\x07 ", "[bold]Max"], seed=3)
    assert code == EXIT_FINISHED
    assert "Pass the device to Zoë." in text
    assert "[bold]Max" in text  # shown literally, never as markup
    assert save is not None
    assert load_json(str(save))["meta"]["names"] == ["Zoë", "[bold]Max"]


# ------------------------------------------------------------ rendering


def test_collection_text_shows_each_nigiri_on_its_wasabi() -> None:
    C = Card
    cards = [C.SQUID, C.WASABI, C.EGG, C.WASABI, C.WASABI, C.SALMON, C.MAKI3, C.MAKI1, C.PUDDING, C.PUDDING]
    assert collection_text(cards).plain == "Maki(1+3)  Squid  Wasabi+Salmon  Wasabi+Egg  Wasabi  Pudding×2"
    assert collection_text(cards, times="*").plain.endswith("Pudding*2")


def test_round_end_explains_each_figure_in_the_engines_words() -> None:
    out = console()
    ui = terminal.TerminalGame(Game(3, seed=0), ["A", "B", "C"], [None] * 3, out, lambda p: "", None, {})
    C = Card
    cols = [[C.SASHIMI] * 3 + [C.MAKI3, C.MAKI2], [C.MAKI3, C.WASABI, C.SQUID], [C.MAKI2, C.MAKI1]]
    out.print(ui.scoring_table(explain_round(cols)))
    text = out.file.getvalue()
    for sentence in ("3 sashimi: 1 set of three, 10", "5 maki icons: the most, 6",
                     "squid on wasabi 9: 9", "3 maki icons: tied for second with 1 other, 1",
                     "Maki icons 5, 3, 3: 6, 1, 1."):
        assert shown(sentence, text), sentence
    out = console()
    out.print(ui.scoring_table(explain_round([[C.CHOPSTICKS], [C.PUDDING], []])))
    text = out.file.getvalue()
    assert text.count("nothing that scores") == 3
    assert shown("Nobody has a maki roll: no maki points.", text)


def test_every_round_of_a_game_is_explained(tmp_path: Path) -> None:
    code, text, _, path = play(tmp_path, players=4, humans=0, bots=["greedy"], seed=3)
    assert code == EXIT_FINISHED and path is not None
    game = replay(load_json(str(path)))
    assert text.count("How it scored") == 3
    for r in (1, 2, 3):
        story = explain_round(game.round_collections(r))
        for figures in story.figures:
            for figure in figures:
                assert shown(figure.text, text), figure.text
        assert shown(render(story.races[0])[1:], text)


# ---------------------------------------------------------- real process

_WRAPPER = (
    "import sys\n"
    "from sushigo.terminal.base import run_play\n"
    "sys.exit(run_play(players=3, humans=1, bots=['random'], seed=7, save=sys.argv[1] or None))\n"
)


def _run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, input=stdin, capture_output=True, text=True, timeout=60, env=_env(), encoding="utf-8"
    )


def _env() -> dict[str, str]:
    import os

    env = piped_env()
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("COLUMNS", None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def test_real_process_with_piped_keystrokes(tmp_path: Path) -> None:
    path = tmp_path / "piped.json"
    proc = _run([sys.executable, "-c", _WRAPPER, str(path)], "1\n" * 40)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Final score sheet" in proc.stdout
    assert re.search(r"(Winner|Shared win): ", proc.stdout)
    assert_fits(proc.stdout)
    assert replay(load_json(str(path))).is_over


def test_real_process_end_of_input(tmp_path: Path) -> None:
    path = tmp_path / "short.json"
    proc = _run([sys.executable, "-c", _WRAPPER, str(path)], "1\n3 5\nbanana\n")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "End of input: game stopped." in proc.stdout
    assert "'banana' is not a card number" in proc.stdout
    assert len(load_json(str(path))["rounds"][0]["turns"]) == 1


@pytest.mark.skipif(not (SRC / "sushigo" / "__main__.py").exists(), reason="no python -m sushigo yet")
def test_sushigo_play_command_with_piped_keystrokes(tmp_path: Path) -> None:
    path = tmp_path / "cli.json"
    args = [sys.executable, "-m", "sushigo", "play", "-p", "2", "--seed", "5", "--save", str(path)]
    proc = _run(args, "1\n" * 40)
    assert proc.returncode == 0, proc.stderr
    assert "Final score sheet" in proc.stdout
    assert replay(load_json(str(path))).is_over


def test_a_failed_save_is_reported_and_not_a_success(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def full_disk(game: Game, path: str, *, meta: Any = None) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(session, "save_record", full_disk)
    code, text, _, save = play(tmp_path, players=2, humans=0, seed=1)
    assert code == EXIT_STOPPED
    assert "Final score sheet" in text
    assert shown(f"Could not save the game record to {save}: No space left on device", text)
