"""The command line's one-line errors in the terminal's language: a real ``sushigo``
process with ``LANGUAGE`` (or ``LANG``) set says ``sushigo: error: `` (English, what
scripts look for) and then the message in that language, through the catalogs.

The French catalog may not hold the command line's messages yet (it then falls back
to English), so the expected French is computed through :mod:`sushigo.i18n` itself,
and a pseudo-catalog (every translation in ``⟦ ⟧``) shows that each piece of the
line, the command line's own template and the engine's message in its field, really
goes through the catalog.
"""

from __future__ import annotations

import contextvars
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sushigo.i18n as i18n
from piped import piped_env
from pseudo_language import CLOSE, OPEN, Pseudo
from sushigo.cli.app import main
from sushigo.engine.editions import replay, score_sheet
from sushigo.engine.messages import msg
from sushigo.engine.records import RecordError, load_json
from sushigo.i18n import LANGUAGES, Phrase, _l, localized, message_of

SCRIPT = Path(sys.executable).with_name("sushigo")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "sushigo"]

FRENCH_ENVIRONMENTS = {
    "LANGUAGE": {"LANGUAGE": "fr"},
    "LANG": {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "fr_FR.UTF-8"},
}
"""Two ways a terminal says French: ``LANGUAGE``, or only ``LANG``."""

BROKEN_SHEET = {"players": 9, "rounds": []}
"""A score sheet (valid JSON) for too many players."""


def run(*args: str, **env: str | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, timeout=60,
        env=piped_env(COLUMNS="100", **env),
    )


def said(lang: str, text: str) -> str:
    """``text`` (a Phrase) in ``lang``, as ``sushigo`` prints it: on one line."""

    def inside() -> str:
        i18n.use(lang)
        return " ".join(localized(text).split())

    return contextvars.copy_context().run(inside)


def error_line(proc: subprocess.CompletedProcess[str], code: int) -> str:
    """The one line of a failed command, checked: its exit status, nothing on stdout,
    exactly one line on stderr starting ``sushigo: error: ``."""
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("sushigo: error: "), lines[0]
    return lines[0]


def record_error(path: Path, what: str, check: Callable[[Any], object]) -> Phrase:
    """The Phrase ``sushigo`` fails with for a broken file, made the way it makes it (``what``:
    the file's kind, itself a message)."""
    try:
        check(load_json(str(path), msg(what)))
    except RecordError as e:
        return _l("{file}: {why}", file=str(path), why=message_of(e))
    raise AssertionError(f"{path} is not broken")


def too_few_bots() -> Phrase:
    return _l("a tournament needs 2 or more bots (one per seat), not {count}", count=1)


def unknown_language() -> Phrase:
    return _l("unknown language {value} for --lang (choose from: {choices})", value=repr("xx"),
              choices=", ".join(LANGUAGES))


@pytest.fixture
def broken_sheet(tmp_path: Path) -> Path:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(BROKEN_SHEET), encoding="utf-8")
    return path


@pytest.fixture
def not_json(tmp_path: Path) -> Path:
    path = tmp_path / "record.json"
    path.write_text("not json\n", encoding="utf-8")
    return path


# ------------------------------------------------------------ real processes


@pytest.mark.parametrize("env", list(FRENCH_ENVIRONMENTS.values()), ids=list(FRENCH_ENVIRONMENTS))
@pytest.mark.parametrize(("args", "phrase"), [
    (["tournament", "greedy"], too_few_bots),
    (["play", "--lang", "xx", "--humans", "0", "--no-save"], unknown_language),
], ids=["tournament-one-bot", "play-lang-xx"])
def test_a_bad_command_line_is_one_line_in_french(
    args: list[str], phrase: Callable[[], Phrase], env: dict[str, str | None],
) -> None:
    line = error_line(run(*args, **env), 2)
    assert line == "sushigo: error: " + said("fr", phrase())


@pytest.mark.parametrize("env", list(FRENCH_ENVIRONMENTS.values()), ids=list(FRENCH_ENVIRONMENTS))
def test_a_broken_score_sheet_is_one_line_in_french(broken_sheet: Path, env: dict[str, str | None]) -> None:
    line = error_line(run("score", str(broken_sheet), **env), 1)
    assert line == "sushigo: error: " + said("fr", record_error(broken_sheet, "score sheet", score_sheet))


def test_a_record_that_is_not_json_is_one_line_in_french(not_json: Path) -> None:
    line = error_line(run("replay", str(not_json), LANGUAGE="fr"), 1)
    expected = record_error(not_json, "record", lambda data: replay(data).result())
    assert line == "sushigo: error: " + said("fr", expected)


def test_english_is_todays_english(broken_sheet: Path, not_json: Path) -> None:
    assert error_line(run("tournament", "greedy", LANGUAGE="en"), 2) == (
        "sushigo: error: a tournament needs 2 or more bots (one per seat), not 1")
    assert error_line(run("play", "--lang", "xx", LANGUAGE="en"), 2) == (
        "sushigo: error: unknown language 'xx' for --lang (choose from: en, fr, de, es, it, pt, ja)")
    assert error_line(run("score", str(broken_sheet), LANGUAGE="en"), 1) == (
        f"sushigo: error: {broken_sheet}: players: the base game is for 2-5 players, not 9")
    assert error_line(run("replay", str(not_json), LANGUAGE="en"), 1) == (
        f"sushigo: error: {not_json}: record is not JSON: Expecting value at line 1, column 1")
    # a language sushigo does not speak, or none at all: English too
    for env in ({"LANGUAGE": "nl"}, {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"}):
        assert error_line(run("tournament", "greedy", **env), 2) == (
            "sushigo: error: a tournament needs 2 or more bots (one per seat), not 1")


# ------------------------------------------------------------ a pseudo-catalog

@pytest.fixture
def pseudo_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """French is the pseudo-language (the other languages as they are); the terminal is French."""
    real = i18n.translations
    monkeypatch.setattr(i18n, "translations", lambda lang: Pseudo() if lang == "fr" else real(lang))
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANGUAGE", "fr")


def failed(capsys: pytest.CaptureFixture[str], argv: list[str], code: int) -> str:
    before = i18n.current().lang
    assert main(argv) == code
    assert i18n.current().lang == before  # the command's language ends with it
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sushigo: error: "), captured.err
    return lines[0]


def test_the_command_lines_message_goes_through_the_catalog(
    pseudo_french: None, capsys: pytest.CaptureFixture[str],
) -> None:
    line = failed(capsys, ["tournament", "greedy"], 2)
    assert line == f"sushigo: error: {OPEN}a tournament needs 2 or more bots (one per seat), not {CLOSE}1"
    line = failed(capsys, ["play", "--lang", "xx"], 2)
    assert line == (f"sushigo: error: {OPEN}unknown language {CLOSE}'xx'{OPEN} for --lang (choose from: {CLOSE}"
                    f"en, fr, de, es, it, pt, ja{OPEN}){CLOSE}")


def test_a_file_error_and_the_engines_message_in_it_go_through_the_catalog(
    pseudo_french: None, capsys: pytest.CaptureFixture[str], broken_sheet: Path,
) -> None:
    line = failed(capsys, ["score", str(broken_sheet)], 1)
    expected = record_error(broken_sheet, "score sheet", score_sheet)
    assert line == "sushigo: error: " + said("fr", expected)
    # the command line's "{file}: {why}", then the engine's message, each translated
    assert line.startswith(f"sushigo: error: {broken_sheet}{OPEN}: {CLOSE}{OPEN}")
    assert re.search(f"{OPEN}[^{CLOSE}]*the base game is for ", line), line  # the engine's text, translated
    assert line.replace(OPEN, "").replace(CLOSE, "") == (
        f"sushigo: error: {broken_sheet}: players: the base game is for 2-5 players, not 9")


def test_english_stays_english_beside_a_pseudo_french(
    pseudo_french: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, broken_sheet: Path,
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    assert failed(capsys, ["tournament", "greedy"], 2) == (
        "sushigo: error: a tournament needs 2 or more bots (one per seat), not 1")
    assert failed(capsys, ["score", str(broken_sheet)], 1) == (
        f"sushigo: error: {broken_sheet}: players: the base game is for 2-5 players, not 9")


# ------------------------------------------------- the commands' ordinary output

ENGLISH = Path(__file__).resolve().parent / "english"
"""Each command's English output before its words went through the catalogs (made by the
code of that time), which English must stay byte for byte."""
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RECORD = GOLDEN / "game_3p_seed7_pass_both_ways.json"
PARTY_RECORD = GOLDEN / "party_master_menu_3p_seed4.json"
STATS_DATA = Path(__file__).resolve().parents[1] / "data" / "stats"
TIMING = re.compile(r"Played in [\d.]+ s \([\d.inf]+ games/s\)")


def english(name: str) -> str:
    return (ENGLISH / name).read_text(encoding="utf-8")


def printed(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """What a command that succeeds prints on standard output (its language ends with it)."""
    before = i18n.current().lang
    assert main(argv) == 0
    assert i18n.current().lang == before
    return capsys.readouterr().out


def plain(text: str) -> str:
    return text.replace(OPEN, "").replace(CLOSE, "")


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich's tables as to a pipe, 100 wide (as the English files were made)."""
    for key in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("COLUMNS", "100")


def test_analyze_speaks_the_terminals_language(
    pseudo_french: None, wide: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ["analyze", str(RECORD), "--seat", "1", "--budget", "2", "--jobs", "1", "-q"]
    out = printed(capsys, args)
    lines = out.splitlines()
    assert lines[0] == (f"{OPEN}Seat {CLOSE}1{OPEN}: {CLOSE}24{OPEN} decisions analysed ({CLOSE}3{OPEN} forced), "
                        f"{CLOSE}2{OPEN} playouts per action, seed {CLOSE}0")
    assert lines[2].split() == [f"{OPEN}{h}{CLOSE}" for h in ("turn", "played", "best", "loss")] + ["±"] + [
        f"{OPEN}{h}{CLOSE}" for h in ("margin", "win")]
    assert lines[3].split()[:3] == ["1.1", f"{OPEN}Tempura{CLOSE}", f"{OPEN}Dumpling{CLOSE}"]  # the engine's words
    for text in ("Expected final margin after each decision (points):", "round", "Labels by expected points lost: ",
                 "{n} inaccuracy ({mark})", "margin: the expected final score less the best other seat's, after the"):
        assert OPEN + text.split("{")[0] in out, text
    monkeypatch.setenv("LANGUAGE", "en")
    assert printed(capsys, args) == english("analyze.txt")
    party = ["analyze", str(PARTY_RECORD), "--seat", "0", "--budget", "2", "--jobs", "1", "-q"]
    assert printed(capsys, party) == english("analyze-party.txt")
    monkeypatch.setenv("LANGUAGE", "fr")
    assert f"{OPEN}decision{CLOSE}" in printed(capsys, party).splitlines()[2]


def test_tournament_speaks_the_terminals_language(
    pseudo_french: None, wide: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # no line wraps (the time it took varies)
    out_dir = tmp_path / "t"
    args = ["tournament", "greedy", "random", "-g", "3", "-s", "3", "-w", "1", "-q", "--pass-both-ways",
            "--out", str(out_dir)]
    out = printed(capsys, args)
    lines = out.splitlines()
    assert lines[0] == (f"{OPEN}Tournament: {CLOSE}3{OPEN} games of {CLOSE}{OPEN}Sushi Go!{CLOSE}{OPEN} ({CLOSE}"
                        f"{OPEN}pass both ways{CLOSE}{OPEN}){CLOSE}{OPEN}, {CLOSE}2{OPEN} players, seats rotating in "
                        f"{CLOSE}2{OPEN} set(s) of {CLOSE}2{OPEN}, {CLOSE}{OPEN}duplicate deals{CLOSE}{OPEN}; seed "
                        f"{CLOSE}3")
    assert lines[1].split() == [f"{OPEN}{h}{CLOSE}" for h in ("bot", "games", "wins")] + [
        f"{OPEN}win", "%", f"(CI){CLOSE}", f"{OPEN}score", f"(CI){CLOSE}"] + [
        f"{OPEN}{h}{CLOSE}" for h in ("rank", "rating")] + ["μ", "σ"]
    assert lines[5].startswith(f"{OPEN}Note: {CLOSE}3{OPEN} games is not a multiple of {CLOSE}2")
    assert lines[6].startswith(f"{OPEN}CI: 95% (Wilson for win %).") and lines[6].endswith(
        f"{CLOSE}{OPEN}in this process{CLOSE}{OPEN}.{CLOSE}")
    assert lines[7].startswith(f"{OPEN}Saved {CLOSE}3{OPEN} games to {CLOSE}{out_dir}")
    monkeypatch.setenv("LANGUAGE", "en")
    shutil.rmtree(out_dir)
    out = TIMING.sub("Played in T s (G games/s)", printed(capsys, args))
    assert out.replace(str(out_dir), "OUT") == english("tournament.txt")
    assert json.loads(printed(capsys, [*args[:-2], "--json"]))["bots"][0]["name"] == "greedy"


def test_stats_speaks_the_terminals_language(
    pseudo_french: None, wide: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(STATS_DATA)
    out = printed(capsys, ["stats", "mixed"])
    assert out.splitlines()[0] == f"40{OPEN} games from {CLOSE}mixed/games.jsonl"
    for title in ("Scores by player count", "Scores by bot", "Points per card type (", "First-pick take rate ("):
        assert f"{OPEN}{title}" in out, title
    assert f"{OPEN}Mean{CLOSE}" not in out and f"{OPEN}Median{CLOSE}" in out and f"{OPEN}total{CLOSE}" in out
    markdown = printed(capsys, ["stats", "--markdown", "budget"])
    assert f"### {OPEN}Win rate by search budget{CLOSE}" in markdown
    assert (f"| {OPEN}Edition{CLOSE} | {OPEN}Players{CLOSE} | {OPEN}Bot{CLOSE} | {OPEN}Budget{CLOSE} | "
            f"{OPEN}Games{CLOSE} | {OPEN}Wins{CLOSE} | {OPEN}Win rate{CLOSE} | {OPEN}95% interval{CLOSE} | "
            f"{OPEN}Even share{CLOSE} |") in markdown
    assert plain(markdown) == english("stats-budget.md")  # markdown's numbers are the same in every language
    as_json = printed(capsys, ["stats", "--json", "mixed"])
    monkeypatch.setenv("LANGUAGE", "en")
    assert printed(capsys, ["stats", "mixed"]) == english("stats.txt")
    assert printed(capsys, ["stats", "--markdown", "budget"]) == english("stats-budget.md")
    assert printed(capsys, ["stats", "--json", "mixed"]) == as_json  # JSON: the same in every language


def test_bench_speaks_the_terminals_language(
    pseudo_french: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sushigo.engine import engine_build

    python = sys.version.split()[0]
    args = ["bench", "-p", "3", "-g", "20", "-s", "4"]
    first, last = printed(capsys, args).splitlines()
    assert re.fullmatch(
        re.escape(f"3{OPEN} players, {CLOSE}20{OPEN} games, {CLOSE}") + r"\d+"
        + re.escape(f"{OPEN} picks, api {CLOSE}step{OPEN}, in {CLOSE}") + r"\d+\.\d{3}"
        + re.escape(f"{OPEN} s (Python {CLOSE}{python}{OPEN}, {CLOSE}{engine_build()}{OPEN} engine){CLOSE}"),
        first,
    ), first
    assert re.fullmatch(r"\d+\.\d games/s", last)  # scripts read the last line: the same in every language
    monkeypatch.setenv("LANGUAGE", "en")
    first, last = printed(capsys, args).splitlines()
    assert re.fullmatch(r"3 players, 20 games, \d+ picks, api step, in \d+\.\d{3} s "
                        + re.escape(f"(Python {python}, {engine_build()} engine)"), first), first
    assert re.fullmatch(r"\d+\.\d games/s", last)


def test_version_speaks_the_terminals_language(
    pseudo_french: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sushigo import __version__
    from sushigo.engine import engine_build

    assert printed(capsys, ["--version"]) == (
        f"{OPEN}sushigo {CLOSE}{__version__}{OPEN} ({CLOSE}{engine_build()}{OPEN} engine){CLOSE}\n")
    monkeypatch.setenv("LANGUAGE", "en")
    assert printed(capsys, ["--version"]) == f"sushigo {__version__} ({engine_build()} engine)\n"


def test_a_replayed_score_sheet_speaks_the_terminals_language(
    pseudo_french: None, wide: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = printed(capsys, ["replay", "--format", "table", str(RECORD)])
    assert out.splitlines()[0] == f"{OPEN}Replay of {CLOSE}{RECORD.name}"
    monkeypatch.setenv("LANGUAGE", "en")
    assert printed(capsys, ["replay", "--format", "table", str(RECORD)]) == english("replay.txt")
