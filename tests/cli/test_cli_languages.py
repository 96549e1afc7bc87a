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
