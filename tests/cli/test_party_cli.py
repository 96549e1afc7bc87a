"""``sushigo replay``, ``score`` and ``bench`` with Sushi Go Party! files: real
processes, real files."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.party.test_party_record import SHEET_A, SHEET_B
from piped import piped_env
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.record import to_party_record
from sushigo.engine.rules import Rules

SCRIPT = Path(sys.executable).with_name("sushigo")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "sushigo"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], input=stdin, capture_output=True, text=True, timeout=60,
        env=piped_env(COLUMNS="100"),  # rich as to a pipe (no FORCE_COLOR codes), 100 wide
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], code: int, *needles: str) -> None:
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("sushigo: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.fixture(scope="module")
def party_game() -> PartyGame:
    game = PartyGame(Rules.party(4, "Master Menu"), seed=12)
    game.random_playout(random.Random(12))
    return game


@pytest.fixture
def record_file(tmp_path: Path, party_game: PartyGame) -> Path:
    path = tmp_path / "party.json"
    path.write_text(json.dumps(to_party_record(party_game, meta={"names": ["Ann", "Bo", "Cy", "Di"]})))
    return path


def test_replay_party_record_prints_the_result(record_file: Path, party_game: PartyGame) -> None:
    proc = run("replay", str(record_file))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(json.dumps(party_game.result().to_json()))
    proc = run("replay", "-", stdin=record_file.read_text())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["totals"] == list(party_game.result().totals)


def test_replay_party_record_as_a_table(record_file: Path, party_game: PartyGame) -> None:
    proc = run("replay", str(record_file), "--format", "table")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for needle in ("Replay of party.json", "Ann", "Di", "Round 1", "Round 3", "temaki award", "onigiri",
                   "face down", "Fruit (cards)", "Total"):
        assert needle in out, out
    assert "Winner: " in out or "Shared win: " in out


def test_score_party_sheets(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET_A))
    proc = run("score", str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["totals"] == [32, 36, 18] and out["winners"] == [1] and out["pudding"] == [-6, 6, -6]
    assert out["dessert_cards"] == [2, 3, 2]
    proc = run("score", str(path), "-f", "table")
    assert proc.returncode == 0, proc.stderr
    assert "Pudding (cards)" in proc.stdout and "uramaki" in proc.stdout and "Winner: Seat 1 with 36" in proc.stdout
    proc = run("score", "-", "-f", "table", stdin=json.dumps(SHEET_B))
    assert proc.returncode == 0, proc.stderr
    assert "after 1 round(s)" in proc.stdout and "Desserts are scored after round 3." in proc.stdout


def _broken(record: dict[str, Any]) -> dict[str, Any]:
    record = json.loads(json.dumps(record))
    record["rounds"][1]["turns"][2][3].append("spoon4:egg")
    return record


def test_broken_party_files_are_one_line_errors(tmp_path: Path, party_game: PartyGame) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(_broken(to_party_record(party_game))))
    assert_one_line_error(run("replay", str(path)), 1, str(path), "round 2, turn 3, seat 3", "spoon4:egg")
    sheet = json.loads(json.dumps(SHEET_A))
    sheet["rounds"][0][1].append("tempura")
    path.write_text(json.dumps(sheet))
    assert_one_line_error(run("score", str(path)), 1, "round 1, seat 1, card 8", "'tempura' is not on")
    assert_one_line_error(run("replay", "-", stdin=json.dumps({"format": "sushigo-record/1", "edition": "party",
                                                               "players": 3, "menu": "Nope", "rounds": []})),
                          1, "<stdin>", "menu: unknown menu 'Nope'")


def test_bench_party() -> None:
    proc = run("bench", "--edition", "party", "--players", "3", "--games", "20", "--api", "playout")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1].endswith(" games/s")
    assert "party (nigiri, maki, tempura, sashimi, dumpling, chopsticks, wasabi, pudding)" in lines[0]
    proc = run("bench", "-e", "party", "-p", "8", "-g", "10", "--menu", "big-banquet", "--repeat", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 3 and "api step" in lines[0] and "eel" in lines[0] and lines[-1].endswith(" games/s")
    proc = run("bench", "-e", "party", "-p", "2", "-g", "5", "--menu",
               "temaki, eel, tofu, miso soup, menu, soy sauce, pudding")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (("--menu", "Nope"), ("--menu 'Nope'", "unknown menu")),
        (("--menu", "Party Sampler", "-p", "8"), ("can't be used with 7-8 players",)),
        (("--menu", "Master Menu", "-p", "2"), ("spoon can't be used with 2 players",)),
        (("--menu", "maki, eel"), ("a menu has 3 appetizers",)),
        (("-p", "9"), ("--players",)),
    ],
)
def test_bench_party_usage_errors(args: tuple[str, ...], needles: tuple[str, ...]) -> None:
    assert_one_line_error(run("bench", "--edition", "party", "-g", "1", *args), 2, *needles)


def test_bench_base_usage_errors() -> None:
    assert_one_line_error(run("bench", "-g", "1", "--menu", "Sushi Go!"), 2, "--menu is for --edition party")
    assert_one_line_error(run("bench", "-g", "1", "-p", "6"), 2, "2-5 players, not 6")


# ------------------------------------------------------- near names and impossible sheets

MASTER = ["nigiri", "temaki", "onigiri", "tofu", "sashimi", "spoon", "takeout_box", "fruit"]


@pytest.mark.parametrize(("card", "suggestion"), [
    ("spoon", "(did you mean 'spoon4', 'spoon5' or 'spoon6'?)"),
    ("onigiri", "(did you mean 'onigiri_circle', 'onigiri_triangle', 'onigiri_square' or 'onigiri_rectangle'?)"),
    ("tofuu", "(did you mean 'tofu'?)"),
    ("salmon nigiri", "(did you mean 'salmon'?)"),
])
def test_party_sheets_suggest_nearly_right_names(card: str, suggestion: str) -> None:
    sheet = {"edition": "party", "players": 3, "menu": MASTER, "rounds": [[["tofu", card], [], []]]}
    proc = run("score", "-", stdin=json.dumps(sheet))
    assert_one_line_error(proc, 1, f"round 1, seat 0, card 2: unknown card {card!r} {suggestion}")


@pytest.mark.parametrize(("menu", "collection", "needle"), [
    ("Party Sampler", ["menu7", "tempura"],
     "card 1: 'menu7' can't be in a collection at the end of a round: a menu leaves it when it resolves"),
    (MASTER, ["takeout_box11"], "card 1: 'takeout_box11' can't be in a collection at the end of a round: "
                                "a takeout box leaves it when it resolves"),
    ("Dinner for Two", ["special_order>menu8"], "'special_order>menu8' can't be in a collection"),
    ("Points Platter", ["uramaki5", "uramaki3", "uramaki4"],
     "round 1, seat 0: 12 uramaki icons at the end of the round, but a seat that reaches 10 scores in the race"),
    ("Points Platter", ["uramaki5", "special_order>uramaki5"], "10 uramaki icons at the end of the round"),
])
def test_impossible_party_sheets_are_refused_with_the_reason(menu: Any, collection: list[str], needle: str) -> None:
    players = 2 if menu == "Dinner for Two" else 3
    sheet = {"edition": "party", "players": players, "menu": menu, "rounds": [[collection] + [[]] * (players - 1)]}
    assert_one_line_error(run("score", "-", stdin=json.dumps(sheet)), 1, needle)


@pytest.mark.slow
def test_a_flipped_nigiri_keeps_its_wasabi_used() -> None:
    """A wasabi whose nigiri a takeout box flipped later is written before
    'face_down+wasabi': the next nigiri is not tripled (3 points, not 9); a nigiri
    whose wasabi was flipped is 'egg+face_down': plain, and it takes no other wasabi."""
    menu = ["uramaki", "onigiri", "tofu", "eel", "takeout_box", "wasabi", "pudding"]
    def nigiri_points(collection: list[str]) -> int:
        sheet = {"edition": "party", "players": 3, "menu": menu, "rounds": [[collection, [], []]]}
        proc = run("score", "-", stdin=json.dumps(sheet))
        assert proc.returncode == 0, proc.stderr
        line = json.loads(proc.stdout)["breakdown"][0][0]
        return line["nigiri"] + line["takeout_box"]
    assert nigiri_points(["wasabi", "face_down+wasabi", "squid"]) == 2 + 3
    assert nigiri_points(["wasabi", "face_down", "squid"]) == 2 + 9      # a flipped non-nigiri
    assert nigiri_points(["wasabi", "wasabi", "face_down+wasabi", "squid"]) == 2 + 9
    # a wasabi flipped under its egg: the egg is plain and the next wasabi waits for the squid
    assert nigiri_points(["face_down", "wasabi", "egg+face_down", "squid"]) == 2 + 1 + 9
    assert nigiri_points(["face_down", "wasabi", "egg", "squid"]) == 2 + 3 + 3
    proc = run("score", "-", stdin=json.dumps(
        {"edition": "party", "players": 3, "menu": menu, "rounds": [[["face_down+wasabi"], [], []]]}))
    assert_one_line_error(proc, 1, "'face_down+wasabi', but no empty wasabi is listed before it")
    for collection, needle in (
            (["wasabi", "egg+face_down"], "card 2: 'egg+face_down', but no face_down card is listed before it"),
            (["wasabi", "tofu+face_down"], "only a nigiri sits on a flipped wasabi (+face_down)"),
            (["wasabi", "face_down", "egg+face_down"], "card 3: 'egg+face_down', but an empty wasabi is listed "
                                                       "before the face_down card it sits on"),
            (["Face_Down"], "card 1: unknown card 'Face_Down' (did you mean 'face_down'?)"),
            (["face_down+egg"], "card 1: unknown card 'face_down+egg'"),
            (["face_down_x"], "card 1: unknown card 'face_down_x'")):
        proc = run("score", "-", stdin=json.dumps(
            {"edition": "party", "players": 3, "menu": menu, "rounds": [[collection, [], []]]}))
        assert_one_line_error(proc, 1, needle)


@pytest.mark.parametrize(("menu", "needle"), [
    ("maki,tempora,sashimi,dumpling,chopsticks,wasabi,pudding",
     "unknown menu item 'tempora' (did you mean 'tempura'?)"),
    ("master menue", "unknown menu 'master menue' (did you mean 'Master Menu'?)"),
])
def test_play_suggests_nearly_right_menu_names(menu: str, needle: str) -> None:
    proc = run("play", "--edition", "party", "--menu", menu, "--humans", "0", "--no-save")
    assert_one_line_error(proc, 2, needle)
