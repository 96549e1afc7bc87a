"""``sushigo replay``, ``score`` and ``bench`` with Sushi Go Party! files: real
processes, real files."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sushigo.party.game import PartyGame
from sushigo.party.record import to_party_record
from sushigo.rules import Rules
from test_party_record import SHEET_A, SHEET_B

SCRIPT = Path(sys.executable).with_name("sushigo")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "sushigo"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], input=stdin, capture_output=True, text=True, timeout=60,
        env={**os.environ, "COLUMNS": "100"},
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
