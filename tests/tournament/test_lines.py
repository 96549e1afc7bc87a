"""The one schema of a ``games.jsonl`` line (``sushigo.tournament.lines``): what
the tournament writes passes it, and both readers (the statistics and
``sushigo.tournament.read_games``) refuse what it refuses, with the same words."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sushigo.stats import StatsError, read_games
from sushigo.tournament import TournamentError, run_tournament, save_results
from sushigo.tournament import read_games as tournament_games
from sushigo.tournament.lines import OPTIONAL_KEYS, REQUIRED_KEYS, LineError, check_line


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real tournament's games.jsonl (Party, records kept)."""
    from sushigo.engine.rules import Rules

    result = run_tournament(["greedy", "random", "random"], games=3, seed=4, workers=1,
                            rules=Rules.party(3, "My First Meal"))
    out = tmp_path_factory.mktemp("t")
    save_results(result, str(out))
    return out / "games.jsonl"


def test_every_line_the_tournament_writes_is_of_the_schema(written: Path) -> None:
    lines = [json.loads(t) for t in written.read_text().splitlines()]
    assert len(lines) == 3
    for line in lines:
        assert check_line(line) is line
        assert set(line) == set(REQUIRED_KEYS) | set(OPTIONAL_KEYS)
    assert [g.game for g in read_games([str(written)])] == [0, 1, 2]
    assert [line["game"] for line in tournament_games(str(written))] == [0, 1, 2]


BAD: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "a game line must be a JSON object, not a list"),
    ("missing keys", {"game": 0}, "missing keys 'edition', 'players'"),
    ("winner without the best total", {"winners": [1]}, "'winners' [1] do not all have the highest total 30"),
    ("seats of the wrong length", {"seats": ["greedy"]}, "'seats' must be a list of 2 bot specs"),
    ("a record that is a string", {"record": "x"}, "'record' must be a game record (an object) or null"),
    ("bot_index of the wrong length", {"bot_index": [0]}, "'bot_index' must be a list of 2 whole numbers"),
    ("ranks that are words", {"ranks": ["first", "second"]}, "'ranks' must be a list of 2 numbers"),
    ("a menu that is a number", {"menu": 3}, "'menu' must be a list of menu item names, or null"),
]


@pytest.mark.parametrize("what, change, message", BAD, ids=[b[0] for b in BAD])
def test_both_readers_refuse_a_bad_line_with_the_schemas_words(tmp_path: Path, what: str, change: Any,
                                                                message: str) -> None:
    good = {"game": 0, "edition": "base", "players": 2, "seats": ["greedy", "random"], "totals": [30, 21],
            "winners": [0], "record": None}
    line = {**good, **change} if isinstance(change, dict) and "game" not in change else change
    with pytest.raises(LineError, match=re.escape(message)):
        check_line(line)
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(line) + "\n")
    with pytest.raises(StatsError) as stats_error:
        read_games([str(path)])
    with pytest.raises(TournamentError) as tournament_error:
        list(tournament_games(str(path)))
    assert str(stats_error.value) == str(tournament_error.value)
    assert str(stats_error.value).startswith(f"{path}:3: ") and message in str(stats_error.value)
