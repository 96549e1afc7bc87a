"""``sushigo analyze``: real processes on real record files of both editions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.test_party_cli import assert_one_line_error, run
from sushigo.analysis.game import ANALYSIS_FORMAT, action_label, action_label_said, analyze_game
from sushigo.bots import make_bot
from sushigo.bots.base import play_game
from sushigo.engine.base.actions import parse_action
from sushigo.engine.editions import AnyGame, to_record
from sushigo.engine.messages import from_json, render
from sushigo.engine.party.actions import parse_party_action
from sushigo.engine.rules import Rules


@pytest.fixture(scope="module")
def games() -> dict[str, AnyGame]:
    return {
        "base": play_game([make_bot("greedy", s) for s in range(3)], seed=31),
        "party": play_game([make_bot("greedy", s) for s in range(3)], seed=32, rules=Rules.party(3, "Master Menu")),
    }


def write(tmp_path: Path, game: AnyGame, name: str = "game.json", **meta: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(to_record(game, meta=meta or None)))
    return path


@pytest.mark.parametrize("which", ["base", "party"])
def test_json_is_the_analysis_of_the_library(which: str, games: dict[str, AnyGame], tmp_path: Path) -> None:
    game = games[which]
    parse = parse_party_action if which == "party" else parse_action
    proc = run("analyze", str(write(tmp_path, game)), "--seat", "1", "--budget", "3", "--seed", "4", "--json",
               "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["format"] == ANALYSIS_FORMAT
    expected = analyze_game(game, [1], samples=3, seed=4).to_json(lambda a: action_label(game, a),
                                                                  lambda a: action_label_said(game, a))
    assert doc == json.loads(json.dumps(expected))
    decisions = doc["seats"][0]["decisions"]
    assert all(d["played_words"] == action_label(game, parse(d["played"])) for d in decisions)
    # the words as messages say the same English
    assert all(render(from_json(d["played_words_msg"])) == d["played_words"]
               and render(from_json(d["best_words_msg"])) == d["best_words"]
               and all(render(from_json(v["words_msg"])) == v["words"] for v in d["values"]) for d in decisions)


def test_the_table_chart_and_summary_for_every_seat(games: dict[str, AnyGame], tmp_path: Path) -> None:
    path = write(tmp_path, games["base"], names=["Ann", "Bo", "Cy"])
    proc = run("analyze", str(path), "--budget", "3", "-j", "2")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    report = analyze_game(games["base"], samples=3, seed=0)
    for seat, name in zip(report.seats, ("Ann", "Bo", "Cy")):
        header = f"{name} (seat {seat.seat}): {len(seat.decisions)} decisions analysed ({seat.forced} forced)"
        assert header in out
        assert f"{name} (seat {seat.seat}): average loss {seat.mean_loss:.2f} points a decision" in out
    assert out.count("Expected final margin after each decision") == 3
    assert "turn  played" in out and "decision" not in out.split("\n")[2]  # no kind column in the base game
    first = report.seats[0].decisions[0]
    row = next(line for line in out.splitlines() if line.startswith("1.1 "))
    assert f"{first.loss:.1f}" in row


def test_party_table_names_each_kind_of_decision(games: dict[str, AnyGame], tmp_path: Path) -> None:
    proc = run("analyze", str(write(tmp_path, games["party"])), "--seat", "0", "--budget", "2", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "turn  decision" in proc.stdout and "\n1.1   pick " in proc.stdout


def test_bad_input_is_one_line(games: dict[str, AnyGame], tmp_path: Path) -> None:
    good = write(tmp_path, games["base"])
    assert_one_line_error(run("analyze", str(tmp_path / "missing.json")), 1, "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert_one_line_error(run("analyze", str(broken)), 1, "broken.json")
    record = to_record(games["base"])
    record["rounds"] = record["rounds"][:2]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(record))
    assert_one_line_error(run("analyze", str(short)), 1, "stops early")
    assert_one_line_error(run("analyze", str(good), "--seat", "3"), 2, "seats 0 to 2")
    assert_one_line_error(run("analyze", str(good), "--budget", "0"), 2, "budget")
    assert_one_line_error(run("analyze", str(good), "--jobs", "x"), 2, "jobs")
    assert_one_line_error(run("analyze", "-", stdin="[1, 2]"), 1, "standard input")
