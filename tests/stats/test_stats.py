"""``sushigo stats``: every number recomputed independently from the fixture lines.

The fixtures (``tests/data/stats/*/games.jsonl``) are real games in the
shape ``sushigo tournament --out DIR`` writes; ``make_fixtures.py`` there
regenerates them.
"""

from __future__ import annotations

import json
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

from sushigo.cli.stats import stats_command
from sushigo.engine.editions import replay
from sushigo.stats import (
    GameLine,
    Report,
    StatsError,
    category_points,
    compute,
    first_picks,
    parse_budget,
    parse_line,
    read_games,
    wilson_interval,
)
from sushigo.stats.tables import report_tables, to_markdown

DATA = Path(__file__).resolve().parents[1] / "data" / "stats"
MIXED, BUDGET, PARTY = DATA / "mixed", DATA / "budget", DATA / "party"
ALL = (MIXED, BUDGET, PARTY)
LINE_KEYS = {"game", "set", "deal_seed", "edition", "menu", "players", "seats", "bot_index",
             "bot_seeds", "totals", "winners", "ranks", "incidents", "record"}

APP = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


@APP.callback()
def _root() -> None:
    """A stand-in for ``sushigo``, which registers the command the same way."""


APP.command("stats")(stats_command)


def run_stats(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """Run ``stats ARGS`` in process; return (exit status, stdout, stderr)."""
    command = typer.main.get_command(APP)
    try:
        rv = command.main(args=["stats", *map(str, args)], prog_name="sushigo", standalone_mode=False)
        code = rv if isinstance(rv, int) else 0  # a typer.Exit comes back as its status
    except typer.Exit as e:
        code = int(e.exit_code)
    except Exception as e:  # click's usage errors (vendored by typer)
        if getattr(e, "exit_code", None) != 2:
            raise
        code = 2
    out = capsys.readouterr()
    return code, out.out, out.err


def raw_lines(*folders: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for f in folders for line in (f / "games.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def report() -> Report:
    return compute(read_games([str(p) for p in ALL]))


# ------------------------------------------------------------- the fixtures


def test_fixture_lines_have_the_tournament_shape_and_replay_to_their_totals() -> None:
    lines = raw_lines(*ALL)
    assert len(lines) == 60
    assert {line["players"] for line in raw_lines(MIXED)} == {2, 3, 4, 5}
    for line in lines:
        assert set(line) == LINE_KEYS
        game = replay(line["record"])
        assert list(game.result().totals) == line["totals"]
        assert list(game.result().winners) == line["winners"]
        assert [line["seats"][s] for s in range(line["players"])] == line["seats"]


# ------------------------------------------------------------ 1. scores


def test_scores_by_player_count_match_a_recomputation(report: Report) -> None:
    lines = raw_lines(*ALL)
    assert report.games == len(lines)
    for row in report.by_players:
        games = [g for g in lines if (g["edition"], g["players"]) == (row.edition, row.players)]
        scores = [t for g in games for t in g["totals"]]
        winning = [max(g["totals"]) for g in games]
        assert row.games == len(games) == row.winning_score.n
        assert row.score.n == len(scores)
        assert row.score.mean == pytest.approx(sum(scores) / len(scores))
        assert row.score.sd == pytest.approx(statistics.stdev(scores))
        assert (row.score.min, row.score.median, row.score.max) == (
            min(scores), statistics.median(scores), max(scores))
        assert row.winning_score.mean == pytest.approx(sum(winning) / len(winning))
    base = {r.players: r for r in report.by_players if r.edition == "base"}
    assert sorted(base) == [2, 3, 4, 5]
    # more players share the deck: the winning score falls with the player count
    assert [base[n].winning_score.mean for n in (2, 3, 4, 5)] == sorted(
        (base[n].winning_score.mean for n in (2, 3, 4, 5)), reverse=True)


def test_scores_by_bot_match_a_recomputation(report: Report) -> None:
    lines = raw_lines(*ALL)
    assert {r.bot for r in report.by_bot} == {s for g in lines for s in g["seats"]}
    for row in report.by_bot:
        scores, wins = [], 0.0
        for g in lines:
            if (g["edition"], g["players"]) != (row.edition, row.players):
                continue
            for s, bot in enumerate(g["seats"]):
                if bot == row.bot:
                    scores.append(g["totals"][s])
                    wins += 1 / len(g["winners"]) if s in g["winners"] else 0
        assert row.games == len(scores) and row.score.mean == pytest.approx(statistics.fmean(scores))
        assert row.wins == pytest.approx(wins)
    total_wins = sum(r.wins for r in report.by_bot)
    assert total_wins == pytest.approx(len(lines))  # every game has exactly one win to share


# --------------------------------------------------- 2. points per card type


def test_points_per_category_match_the_breakdowns_and_add_up_to_the_totals(report: Report) -> None:
    lines = raw_lines(*ALL)
    for row in report.points:
        sums: dict[str, int] = {}
        totals = []
        for g in lines:
            if g["edition"] != row.edition:
                continue
            result = g["record"]["result"]
            for s, bot in enumerate(g["seats"]):
                if bot != row.bot:
                    continue
                totals.append(g["totals"][s])
                for rnd in result["breakdown"]:
                    for cat, pts in rnd[s].items():
                        sums[cat] = sums.get(cat, 0) + pts
                end = result["desserts"][s] if "desserts" in result else {"pudding": result["pudding"][s]}
                for cat, pts in end.items():
                    sums[cat] = sums.get(cat, 0) + pts
        assert row.games == len(totals)
        assert set(sums) <= set(row.means)
        for cat, mean in row.means.items():
            assert mean == pytest.approx(sums.get(cat, 0) / len(totals)), cat
        assert row.total == pytest.approx(statistics.fmean(totals))  # nothing missed
        shares = [row.share(c) for c in row.means]
        assert sum(s for s in shares if s is not None) == pytest.approx(1.0)
    assert report.categories["base"] == ("tempura", "sashimi", "dumpling", "nigiri", "maki", "pudding")
    party = report.categories["party"]
    assert {"fruit", "green_tea_ice_cream", "eel", "onigiri"} <= set(party) and "pudding" not in party


def test_category_points_need_a_breakdown_that_adds_up() -> None:
    line = raw_lines(MIXED)[0]
    tampered = json.loads(json.dumps(line))
    tampered["record"]["result"]["breakdown"][0][0]["maki"] += 1
    with pytest.raises(StatsError, match=r"^here: the record's score breakdown gives seat 0 \d+ points"):
        parse_line(tampered, "here")
    with pytest.raises(StatsError, match="breakdown round 1: expected one object per seat"):
        category_points({"breakdown": [[{}]], "pudding": [0, 0]}, 2)


def test_a_result_without_breakdown_is_replayed() -> None:
    line = raw_lines(MIXED)[7]
    bare = json.loads(json.dumps(line))
    del bare["record"]["result"]
    assert parse_line(bare, "x").points == parse_line(line, "x").points


def test_games_without_records_still_give_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = raw_lines(MIXED)
    for line in lines:
        line["record"] = None
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in lines))
    games = read_games([str(tmp_path)])
    rep = compute(games)
    assert rep.points == () and rep.first_picks == () and rep.categories == {}
    assert [r.score for r in rep.by_players] == [
        r.score for r in compute(read_games([str(MIXED)])).by_players]
    code, out, err = run_stats(capsys, tmp_path, "--markdown")
    assert code == 0 and "### Scores by bot" in out and "Points per card type" not in out
    assert "without records" in err


# ------------------------------------------------------------ 3. first picks


def _tiny_line(record: dict[str, Any], seats: list[str]) -> GameLine:
    n = len(seats)
    return GameLine("tiny:1", 0, "base", n, tuple(seats), (0,) * n, tuple(range(n)),
                    ({},) * n, tuple(first_picks(record, n)))


def test_take_rates_on_a_hand_built_record() -> None:
    record = {"rounds": [
        {"hands": [["egg", "squid", "egg"], ["maki1", "squid", "tempura"]],
         "turns": [[["squid"], ["tempura"]], [["egg"], ["maki1"]]]},
        {"hands": [["squid", "tempura"], ["squid", "squid"]],
         "turns": [[["tempura"], ["squid"]]]},
    ]}
    rows = compute([_tiny_line(record, ["a", "b"])]).first_picks
    got = {(r.bot, r.card): (r.taken, r.available) for r in rows}
    assert got == {
        ("a", "squid"): (1, 2), ("a", "egg"): (0, 1), ("a", "tempura"): (1, 1),
        ("b", "tempura"): (1, 1), ("b", "maki1"): (0, 1), ("b", "squid"): (1, 2),
    }
    assert [r.card for r in rows if r.bot == "a"] == ["tempura", "egg", "squid"]  # card order
    assert {r.rate for r in rows if r.card == "squid"} == {0.5}


def test_party_picks_count_numbered_specials_and_special_orders_as_one_type() -> None:
    record = {"rounds": [{
        "hands": [["takeout_box11", "takeout_box12", "egg"], ["special_order", "spoon4", "egg"]],
        "turns": [[["takeout_box12", "takeout_box12:"], ["special_order>egg"]]],
    }]}
    picks = first_picks(record, 2)
    assert [(p.hand, p.taken) for p in picks] == [
        (frozenset({"takeout_box", "egg"}), "takeout_box"),
        (frozenset({"special_order", "spoon", "egg"}), "special_order"),
    ]


def test_take_rates_match_a_recomputation_from_the_fixture(report: Report) -> None:
    numbered = re.compile(r"^(chopsticks|spoon|menu|takeout_box)\d+$")

    def kind(name: str) -> str:
        name = name.split(">")[0]
        m = numbered.match(name)
        return m.group(1) if m else name

    available: dict[tuple[str, str, str], int] = {}
    taken: dict[tuple[str, str, str], int] = {}
    for g in raw_lines(*ALL):
        for rnd in g["record"]["rounds"]:
            for s, bot in enumerate(g["seats"]):
                first = rnd["turns"][0][s]
                if g["edition"] == "base":
                    assert len(first) == 1  # no chopsticks in play on turn 1
                for card in {kind(c) for c in rnd["hands"][s]}:
                    key = (g["edition"], bot, card)
                    available[key] = available.get(key, 0) + 1
                    taken[key] = taken.get(key, 0) + (kind(first[0]) == card)
    assert {(r.edition, r.bot, r.card): (r.taken, r.available) for r in report.first_picks} == {
        k: (taken[k], n) for k, n in available.items()}
    # every seat-round takes exactly one card first
    for edition in ("base", "party"):
        seat_rounds = sum(3 * g["players"] for g in raw_lines(*ALL) if g["edition"] == edition)
        assert sum(r.taken for r in report.first_picks if r.edition == edition) == seat_rounds


# ---------------------------------------------------------- 4. search budget


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert round(wilson_interval(10, 10)[0], 4) == 0.7225
    for wins in (0, 1, 2.5, 7):  # the interval is symmetric under wins <-> losses
        lo, hi = wilson_interval(wins, 10)
        lo2, hi2 = wilson_interval(10 - wins, 10)
        assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)
    z, n, p = 1.959963984540054, 40, 0.3  # the textbook formula
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert wilson_interval(12, 40) == pytest.approx((centre - half, centre + half))
    with pytest.raises(ValueError):
        wilson_interval(0, 0)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("ismcts:time=0.2", ("ismcts", "time", 0.2, "ismcts")),
        ("ISMCTS: iterations = 500 , c=0.7", ("ismcts", "iterations", 500.0, "ismcts c=0.7")),
        ("mcts:c=1.4,time=2", ("mcts", "time", 2.0, "mcts c=1.4")),
        ("greedy", None),
        ("ismcts:c=0.7", None),
        ("ismcts:time=abc", None),
        ("ismcts:time=0", None),
        ("cmd:python3 bot.py time=1", None),
    ],
)
def test_parse_budget(spec: str, expected: tuple[str, str, float, str] | None) -> None:
    budget = parse_budget(spec)
    assert (None if budget is None else tuple(budget)) == expected


def test_win_rate_by_budget_matches_a_recomputation(report: Report) -> None:
    expected: dict[tuple[str, float], list[float]] = {}
    for g in raw_lines(*ALL):
        for s, bot in enumerate(g["seats"]):
            m = re.fullmatch(r"ismcts:(time|iterations)=([\d.]+)", bot)
            if m:
                key = (g["edition"], g["players"], m.group(1), float(m.group(2)))
                row = expected.setdefault(key, [0, 0.0, 0.0])
                row[0] += 1
                row[1] += 1 / len(g["winners"]) if s in g["winners"] else 0
                row[2] += 1 / g["players"]
    assert len({k[2:] for k in expected}) == 4
    got = {(r.edition, r.players, r.kind, r.value): r for r in report.budgets}
    assert set(got) == set(expected)
    for key, (games, wins, chance) in expected.items():
        r = got[key]
        assert (r.group, r.games) == ("ismcts", games)
        assert r.wins == pytest.approx(wins) and r.chance == pytest.approx(chance / games)
        assert r.interval == wilson_interval(wins, int(games))


def test_shared_wins_count_one_over_k() -> None:
    seats = ("ismcts:time=1", "ismcts:time=1", "random")
    line = GameLine("x:1", 0, "base", 3, seats, (40, 40, 10), (0, 1), None, ())
    (row,) = compute([line, line]).budgets
    assert (row.games, row.wins, row.win_rate) == (4, 2.0, 0.5)
    assert row.chance == pytest.approx(1 / 3)


# ------------------------------------------------------------- the output


def test_markdown_tables_are_well_formed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_stats(capsys, *ALL, "--markdown")
    assert code == 0, err
    assert err == ""
    blocks = out.strip().split("\n\n### ")
    titles = [b.splitlines()[0].removeprefix("### ") for b in blocks]
    assert titles == [
        "Scores by player count", "Scores by bot", "Points per card type (base)",
        "Points per card type (party)", "First-pick take rate (base)", "First-pick take rate (party)",
        "Win rate by search budget",
    ]
    for block in blocks:
        rows = [line for line in block.splitlines() if line.startswith("|")]
        cells = [len(re.findall(r"(?<!\\)\|", r)) for r in rows]
        assert len(rows) >= 3 and len(set(cells)) == 1, block
        assert set(rows[1].replace(" ", "")) <= set("|:-")
    assert "| Edition | Players | Games | Mean score |" in out
    assert "| base | 2 | 26 |" in out
    assert to_markdown(report_tables(compute(read_games([str(p) for p in ALL])))) == out.rstrip("\n")


def test_json_output_is_the_report(capsys: pytest.CaptureFixture[str], report: Report) -> None:
    code, out, _ = run_stats(capsys, *ALL, "--json")
    assert code == 0
    data = json.loads(out)
    assert data == json.loads(json.dumps(report.to_json()))
    assert set(data) == {"games", "inputs", "bots", "scores_by_players", "scores_by_bot",
                         "points_by_category", "first_picks", "win_rate_by_budget", "plots"}
    assert data["games"] == 60 and data["plots"] == []
    row = data["scores_by_players"][0]
    assert set(row) == {"edition", "players", "games", "score", "winning_score"}
    assert set(row["winning_score"]) == {"n", "mean", "sd", "min", "median", "max"}
    assert set(data["win_rate_by_budget"][0]) == {"edition", "players", "bot", "name", "kind", "value", "games", "wins",
                                                  "win_rate", "low", "high", "chance"}


def test_a_file_named_twice_is_read_once() -> None:
    assert len(read_games([str(MIXED), str(MIXED / "games.jsonl"), str(PARTY)])) == 44


def test_rich_tables(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")  # rich's width: not the terminal's, whatever it is
    monkeypatch.delenv("FORCE_COLOR", raising=False)  # plain text, as to a pipe
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    code, out, _ = run_stats(capsys, MIXED / "games.jsonl")
    assert code == 0
    assert out.startswith("40 games from ")
    for title in ("Scores by player count", "Points per card type (base)", "First-pick take rate (base)"):
        assert title in out
    assert "Win rate by search budget" not in out  # no budget bots in this file


# -------------------------------------------------------------- the plots


PNG = b"\x89PNG\r\n\x1a\n"
NAMES = ["scores_by_players", "points_by_category", "first_pick_rates", "win_rate_by_budget"]


def test_png_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plots" / "new"
    code, _, err = run_stats(capsys, MIXED, "--out", out)
    assert code == 0, err
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted(f"{n}.png" for n in NAMES[:3])  # no budget bots: no budget plot
    for p in out.iterdir():
        assert p.read_bytes().startswith(PNG) and p.stat().st_size > 5000
    assert err.splitlines() == [f"wrote {out / n}.png" for n in NAMES[:3]]


@pytest.mark.slow
def test_svg_plots_are_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    runs = []
    for name in ("one", "two"):
        code, out, err = run_stats(capsys, *ALL, "--out", tmp_path / name, "--format", "svg", "--json")
        assert code == 0, err
        runs.append(json.loads(out)["plots"])
    assert runs[0] == [str(tmp_path / "one" / f"{n}.svg") for n in NAMES]
    for name in NAMES:
        one = (tmp_path / "one" / f"{name}.svg").read_bytes()
        assert one.lstrip().startswith(b"<?xml") and b"<svg" in one[:1000]
        assert b"<dc:date>" not in one
        assert one == (tmp_path / "two" / f"{name}.svg").read_bytes()


def test_plots_without_matplotlib_fail_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run_stats(capsys, MIXED, "--out", tmp_path / "p")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "sushigo: error: plots need matplotlib: pip install 'sushigo[plots]' (the tables work without it)"]
    code, out, _ = run_stats(capsys, MIXED, "--markdown")  # tables need no matplotlib
    assert code == 0 and out.startswith("### Scores by player count")


# ------------------------------------------------------------ bad input


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "games.jsonl"
    path.write_text(text)
    return path


def _good() -> str:
    """A 4-player game line."""
    return next(line for line in (MIXED / "games.jsonl").read_text().splitlines()
                if json.loads(line)["players"] == 4)


def _edit(**changes: Any) -> str:
    line = json.loads(_good())
    line.update(changes)
    for key in [k for k, v in changes.items() if v is ...]:
        del line[key]
    return json.dumps(line)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "games.jsonl: no games in this file"),
        ("\n  \n", "games.jsonl: no games in this file"),
        ("GOOD\nGOOD\n{not json\n", "games.jsonl:3: not JSON: Expecting property name"),
        ("GOOD\n[1, 2]\n", "games.jsonl:2: a game line must be a JSON object, not a list"),
        (_edit(totals=...), "games.jsonl:1: missing key 'totals'"),
        (_edit(totals=..., seats=...), "games.jsonl:1: missing keys 'seats', 'totals'"),
        (_edit(totals=[1, 2]), "games.jsonl:1: 'totals' must be a list of 4 whole numbers"),
        (_edit(winners=[]), "'winners' must be a non-empty list of distinct seats 0..3"),
        (_edit(winners=[3]), "'winners' [3] do not all have the highest total"),
        (_edit(edition="deluxe"), "'edition' must be 'base' or 'party', not 'deluxe'"),
        (_edit(record=[]), "'record' must be a game record (an object) or null, not a list"),
        ("GOOD\n" + _edit(totals=[0, 0, 0, 0], winners=[0, 1, 2, 3]),
         "games.jsonl:2: 'totals' [0, 0, 0, 0] differ from the record's result"),
    ],
)
def test_bad_input_fails_in_one_line_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, needle: str
) -> None:
    path = _write(tmp_path, text.replace("GOOD", _good()))
    code, out, err = run_stats(capsys, path)
    assert code == 1 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"sushigo: error: {path}")
    assert needle in err, err


def test_bad_records_name_the_round_and_seat(tmp_path: Path) -> None:
    line = json.loads(_good())
    line["record"]["rounds"][1]["turns"][0][2] = []
    _write(tmp_path, json.dumps(line))
    with pytest.raises(StatsError, match=r"games.jsonl:1: record, round 2, turn 1, seat 2: must be a list"):
        read_games([str(tmp_path)])


@pytest.mark.parametrize("what", ["missing file", "folder without games", "not utf-8"])
def test_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str) -> None:
    if what == "missing file":
        path, needle = tmp_path / "nope.jsonl", "nope.jsonl: no such file"
    elif what == "folder without games":
        path, needle = tmp_path, f"{tmp_path}: no games.jsonl in this folder"
    else:
        path = tmp_path / "games.jsonl"
        path.write_bytes(_good().encode() + b"\n\xff\xfe\n")
        needle = "games.jsonl:2: not UTF-8 text"
    code, out, err = run_stats(capsys, MIXED, path)
    assert code == 1 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("sushigo: error: ") and needle in err


@pytest.mark.parametrize(
    "args",
    [["--markdown", "--json"], ["--format", "svg"], ["--out", "x", "--format", "pdf"], []],
)
def test_usage_errors(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, _ = run_stats(capsys, *([MIXED] if args else []), *args)
    assert code == 2 and out == ""


# ------------------------------------------------------- sushigo stats


def test_sushigo_stats_when_registered(tmp_path: Path) -> None:
    from sushigo.cli.app import app

    if "stats" not in getattr(typer.main.get_command(app), "commands", {}):
        pytest.skip("sushigo.cli.app does not register `stats` yet")
    proc = subprocess.run([sys.executable, "-m", "sushigo", "stats", str(MIXED), "--markdown"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("### Scores by player count")
    proc = subprocess.run([sys.executable, "-m", "sushigo", "stats", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == f"sushigo: error: {tmp_path}: no games.jsonl in this folder\n"
