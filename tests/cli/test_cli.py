"""The ``sushigo`` command as users run it: a real process, real files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from piped import piped_env
from sushigo import Game
from sushigo.engine.editions import to_record
from sushigo.engine.records import MAX_INPUT_BYTES

SPEC_SHEET = {
    "players": 4,
    "rounds": [[["tempura", "tempura", "wasabi", "squid"], ["maki3", "pudding"], [], ["egg"]]],
}


def run(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [sys.executable, "-m", "sushigo", *args],
        input=data,
        capture_output=True,
        timeout=60,
        env=piped_env(COLUMNS="80"),  # rich as to a pipe (no FORCE_COLOR codes), 80 wide
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    )


def played_game(players: int = 3, seed: int = 11) -> Game:
    game = Game(players, seed=seed)
    while not game.is_over:
        game.play([game.legal_actions(s)[-1] for s in range(players)])
    return game


@pytest.fixture
def record_file(tmp_path: Path) -> tuple[Path, Game]:
    game = played_game()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(game)))
    return path, game


def assert_one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode != 0
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert lines[0].startswith("sushigo: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_replay_prints_the_result_as_json(record_file: tuple[Path, Game]) -> None:
    path, game = record_file
    proc = run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    result = game.result()
    assert out["rounds"] == [list(r) for r in result.rounds]
    assert out["pudding"] == list(result.pudding)
    assert out["totals"] == list(result.totals)
    assert out["winners"] == list(result.winners)
    assert len(out["breakdown"]) == 3


def test_replay_reads_standard_input(record_file: tuple[Path, Game]) -> None:
    path, game = record_file
    proc = run("replay", "-", stdin=path.read_text())
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["totals"] == list(game.result().totals)


def test_replay_table_shows_breakdown_and_winner(record_file: tuple[Path, Game]) -> None:
    path, _game = record_file
    proc = run("replay", str(path), "--format", "table")
    assert proc.returncode == 0
    for word in ("tempura", "sashimi", "dumplings", "nigiri+wasabi", "maki award", "Round 3", "Pudding", "Total"):
        assert word in proc.stdout
    assert "Winner" in proc.stdout or "Shared win" in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80


def test_score_spec_example() -> None:
    proc = run("score", "-", stdin=json.dumps(SPEC_SHEET))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    # Hand-scored: seat 0 tempura pair 5 + squid on wasabi 9; seat 1 only maki -> 6;
    # seat 3 egg 1.  One round only: no pudding adjustment yet.
    assert out["rounds"] == [[14, 6, 0, 1]]
    assert out["pudding"] == [0, 0, 0, 0]
    assert out["totals"] == [14, 6, 0, 1]
    assert out["winners"] == [0]


def test_score_three_rounds_applies_pudding(tmp_path: Path) -> None:
    sheet = {
        "players": 3,
        "rounds": [
            [["pudding", "pudding"], ["tempura"], ["egg"]],
            [["maki1"], ["pudding"], ["sashimi", "sashimi", "sashimi"]],
            [[], [], ["dumpling"]],
        ],
    }
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet))
    out = json.loads(run("score", str(path)).stdout)
    assert out["rounds"] == [[0, 0, 1], [6, 0, 10], [0, 0, 1]]
    assert out["pudding"] == [6, 0, -6]
    assert out["totals"] == [12, 0, 6]
    assert out["winners"] == [0]
    table = run("score", str(path), "-f", "table").stdout
    assert "Winner: Seat 0 with 12 points" in table


def broken_records() -> list[tuple[str, Any, tuple[str, ...]]]:
    game = played_game()
    good = to_record(game)

    def edit(fn: Any) -> dict[str, Any]:
        rec = json.loads(json.dumps(good))
        fn(rec)
        return rec

    first_turn_card = good["rounds"][0]["turns"][0][1][0]
    not_in_hand = next(
        c
        for c in ("squid", "egg", "salmon", "pudding", "tempura", "wasabi")
        if c not in good["rounds"][0]["hands"][1]
    )
    return [
        ("not an object", [1, 2], ("record",)),
        ("no format", edit(lambda r: r.pop("format")), ("format",)),
        ("players wrong type", edit(lambda r: r.update(players="three")), ("players",)),
        ("six players", edit(lambda r: r.update(players=6)), ("players",)),
        ("unknown card", edit(lambda r: r["rounds"][1]["hands"][2].__setitem__(0, "sushi")),
         ("round 2", "seat 2", "sushi")),
        ("unknown card in a pick",
         edit(lambda r: r["rounds"][0]["turns"][0].__setitem__(1, ["uramaki"])),
         ("round 1", "turn 1", "seat 1", "uramaki")),
        ("illegal move",
         edit(lambda r: r["rounds"][0]["turns"][0].__setitem__(1, [not_in_hand])),
         ("round 1", "turn 1", "seat 1", "illegal")),
        ("chopsticks without chopsticks",
         edit(lambda r: r["rounds"][0]["turns"][0].__setitem__(1, [first_turn_card, first_turn_card])),
         ("round 1", "turn 1", "seat 1")),
        ("stops early in a round", edit(lambda r: r["rounds"][2]["turns"].pop()),
         ("round 3", "stops early")),
        ("stops early after a round", edit(lambda r: r["rounds"].pop()), ("stops early",)),
        ("impossible deal",
         edit(lambda r: [h.__setitem__(i, "squid") for h in r["rounds"][0]["hands"] for i in range(len(h))]),
         ("round 1", "impossible deal", "squid")),
        ("turns not a list", edit(lambda r: r["rounds"][0].update(turns={"a": 1})), ("round 1", "turns")),
        ("bad option", edit(lambda r: r.update(options={"turbo": True})), ("options", "turbo")),
    ]


@pytest.mark.parametrize("name, record, needles", broken_records(), ids=[b[0] for b in broken_records()])
def test_replay_rejects_broken_records_in_one_line(
    tmp_path: Path, name: str, record: Any, needles: tuple[str, ...]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record))
    assert_one_line_error(run("replay", str(path)), str(path), *needles)


def test_replay_missing_file_and_directory(tmp_path: Path) -> None:
    assert_one_line_error(run("replay", str(tmp_path / "nope.json")), "no such file")
    assert_one_line_error(run("replay", str(tmp_path)), "directory")


def test_replay_not_json_and_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sushigo-record/1", ')
    assert_one_line_error(run("replay", str(bad)), "not JSON", "line 1")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert_one_line_error(run("replay", str(binary)), "UTF-8")


def test_replay_too_large(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text('{"pad": "' + "x" * (MAX_INPUT_BYTES + 10) + '"}')
    assert_one_line_error(run("replay", str(big)), "too large")


def test_unreadable_file(tmp_path: Path) -> None:
    # /proc/self/mem cannot be read from offset 0, even by root: an I/O error.
    assert_one_line_error(run("replay", "/proc/self/mem"), "cannot read")
    if os.geteuid() != 0:  # root reads a chmod-0 file; everyone else must not
        path = tmp_path / "secret.json"
        path.write_text("{}")
        path.chmod(0)
        assert_one_line_error(run("replay", str(path)), "permission")


@pytest.mark.parametrize(
    "sheet, needles",
    [
        ({"players": 4}, ("rounds",)),
        ({"players": 4, "rounds": []}, ("rounds",)),
        ({"players": 2, "rounds": [[["egg"] * 11, []]]}, ("round 1", "seat 0", "11 cards")),
        ({"players": 2, "rounds": [[["egg"], ["wasabi", 5]]]}, ("round 1", "seat 1", "card 2")),
        ({"players": 2, "rounds": [[["squid"] * 4, ["squid"] * 2]]}, ("round 1, seat 1", "squid", "deck holds 5")),
        ({"players": 3, "rounds": [[["egg"], []]]}, ("round 1", "2 collections")),
        ({"players": 4, "rounds": [[[], [], [], []]] * 4}, ("rounds",)),
    ],
)
def test_score_rejects_broken_sheets(tmp_path: Path, sheet: Any, needles: tuple[str, ...]) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet))
    assert_one_line_error(run("score", str(path)), *needles)


@pytest.mark.parametrize(
    "args",
    [
        ("replay",),
        ("bogus",),
        ("bench", "--players", "9"),
        ("bench", "--games", "lots"),
        ("score", "--format", "xml", "-"),
        ("play", "--players", "6"),
        ("play", "--humans", "3", "--players", "2"),
        ("play", "--bot", "genius", "--humans", "0", "--players", "2"),
    ],
)
def test_usage_errors_are_one_line(args: tuple[str, ...]) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sushigo: error: "), proc.stderr
    assert "Traceback" not in proc.stderr


def test_bench_last_line_is_games_per_second() -> None:
    for api in ("step", "playout"):
        proc = run("bench", "--players", "3", "--games", "50", "--seed", "4", "--api", api)
        assert proc.returncode == 0, proc.stderr
        last = proc.stdout.strip().splitlines()[-1]
        number, unit = last.split()
        assert unit == "games/s" and float(number) > 0
    proc = run("bench", "--players", "2", "--games", "20", "--repeat", "3")
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 4 and all("20 games" in line for line in lines[:3])
    assert lines[-1].endswith(" games/s")


def test_help_lists_commands() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    for command in ("play", "replay", "score", "bench"):
        assert command in proc.stdout


def test_names_are_text_not_markup(tmp_path: Path) -> None:
    game = played_game(players=2)
    record = to_record(game, meta={"names": ["[/]", "[red]Bo"]})
    path = tmp_path / "names.json"
    path.write_text(json.dumps(record))
    proc = run("replay", str(path), "-f", "table")
    assert proc.returncode == 0, proc.stderr
    assert "[red]Bo" in proc.stdout and "[/]" in proc.stdout


def test_closed_standard_input() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sushigo", "replay", "-"], stdin=None, capture_output=True, text=True,
        close_fds=True, preexec_fn=lambda: os.close(0),
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == "sushigo: error: <stdin>: standard input is closed"


def test_integer_too_long_for_python_is_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "digits.json"
    path.write_text('{"players": ' + "9" * 5000 + "}")
    assert_one_line_error(run("replay", str(path)), "not usable JSON")


def test_no_arguments_prints_help() -> None:
    proc = run()
    assert proc.returncode == 0
    assert "Usage:" in proc.stdout and "replay" in proc.stdout


def test_play_with_closed_standard_input_stops_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    proc = subprocess.run(
        [sys.executable, "-m", "sushigo", "play", "--seed", "3", "--save", str(path)],
        capture_output=True, text=True, preexec_fn=lambda: os.close(0), timeout=60,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "stops early" in run("replay", str(path)).stderr


# ------------------------------------------------- editions, near names, --version, --help


@pytest.mark.parametrize(("edition", "shown"), [
    ("partty", '"partty" (did you mean \'party\'?)'),
    ("Party", '"Party" (did you mean \'party\'?)'),
    (5, "5"),
    (None, "null"),
    ("deluxe", '"deluxe"'),
])
def test_score_and_replay_refuse_an_unknown_edition_alike(tmp_path: Path, edition: Any, shown: str) -> None:
    """A sheet or record naming an edition this version does not know is refused by
    both commands with the same line (it was once scored as a base game, menu dropped)."""
    sheet = {"edition": edition, "players": 2, "menu": "Sushi Go!", "rounds": [[["tempura"], ["egg"]]]}
    record = dict(to_record(played_game(players=2)), edition=edition, menu="Sushi Go!")
    lines = []
    for command, data in (("score", sheet), ("replay", record)):
        path = tmp_path / f"{command}.json"
        path.write_text(json.dumps(data))
        proc = run(command, str(path))
        assert_one_line_error(proc)
        assert proc.returncode == 1
        lines.append(proc.stderr.strip().replace(str(path), "FILE"))
    assert lines[0] == lines[1] == f"sushigo: error: FILE: edition: this version knows 'base' and 'party', not {shown}"


@pytest.mark.parametrize(("card", "suggestion"), [
    ("tempora", "(did you mean 'tempura'?)"),
    ("maki", "(did you mean 'maki1', 'maki2' or 'maki3'?)"),
    ("salmon nigiri", "(did you mean 'salmon'?)"),
    ("Squid", "(did you mean 'squid'?)"),
    ("spoon4", "(a Sushi Go Party! card"),
])
def test_nearly_right_card_names_get_a_suggestion(tmp_path: Path, card: str, suggestion: str) -> None:
    sheet = {"players": 2, "rounds": [[["tempura", card], ["egg"]]]}
    proc = run("score", "-", stdin=json.dumps(sheet))
    assert_one_line_error(proc, f"round 1, seat 0, card 2: unknown card {card!r} {suggestion}")
    record = to_record(played_game(players=2))
    first = record["rounds"][0]["turns"][0][0][0]
    record["rounds"][0]["hands"][0] = [card if c == first else c for c in record["rounds"][0]["hands"][0]]
    proc = run("replay", "-", stdin=json.dumps(record))
    assert_one_line_error(proc, f"unknown card {card!r} {suggestion}")


def test_impossible_base_sheets_are_refused_with_the_reason() -> None:
    too_many = {"players": 5, "rounds": [[["squid"] * 3, ["squid"] * 3, [], [], []]]}
    assert_one_line_error(run("score", "-", stdin=json.dumps(too_many)),
                          "round 1, seat 1: 3 squid cards here make 6 in all rounds, but the deck holds 5")
    too_big = {"players": 4, "rounds": [[["tempura"] * 9, [], [], []]]}
    assert_one_line_error(run("score", "-", stdin=json.dumps(too_big)),
                          "round 1, seat 0: 9 cards, but a 4-player hand holds 8")


def test_version_says_which_engine_runs() -> None:
    from sushigo import __version__
    from sushigo.engine import engine_build

    proc = run("--version")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == f"sushigo {__version__} ({engine_build()} engine)\n"
    assert engine_build() in ("compiled", "pure-Python")


def test_score_help_says_what_a_sheet_looks_like_and_where_the_format_is() -> None:
    proc = run("score", "--help")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert "docs/spec/game-record.md" in text and "special_order>CARD" in text
    examples = [json.loads(m) for m in re.findall(r"(\{\"(?:players|edition)\".*?\]\]\]\})", text)]
    assert [e.get("edition", "base") for e in examples] == ["base", "party"], text
    for sheet in examples:  # the examples are sheets that score
        scored = run("score", "-", stdin=json.dumps(sheet))
        assert scored.returncode == 0, scored.stderr
    assert "docs/spec/game-record.md" in " ".join(run("replay", "--help").stdout.split())


@pytest.mark.parametrize("command", ["score", "replay"])
def test_a_bad_format_names_the_choices(command: str) -> None:
    proc = run(command, "--format", "xml", "-", stdin="{}")
    assert proc.returncode == 2
    assert proc.stderr == "sushigo: error: unknown format 'xml' (json or table)\n"
    ok = run("score", "--format", "TABLE", "-", stdin=json.dumps(SPEC_SHEET))
    assert ok.returncode == 0 and "Score sheet" in ok.stdout
