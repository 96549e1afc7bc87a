"""Whatever JSON arrives, the record and score-sheet readers answer with a
RecordError (one line) or a valid result: never another exception."""

from __future__ import annotations

import copy
import io
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheet_samples import random_sheet
from sushigo import Game
from sushigo.engine.base.cards import CARD_NAMES
from sushigo.engine.editions import replay, score_sheet, to_record
from sushigo.engine.records import RecordError, load_json
from sushigo.engine.sheets import explain_sheet, setup

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-10, max_value=200)
    | st.floats(allow_nan=False)
    | st.sampled_from(list(CARD_NAMES) + ["", "Sushi", "maki4", "format"])
    | st.text(max_size=5),
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(
        st.sampled_from(["format", "players", "rounds", "hands", "turns", "options", "edition", "x"]),
        children,
        max_size=5,
    ),
    max_leaves=40,
)


def _finished_record(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    game = Game(rng.randint(2, 5), seed=seed)
    game.random_playout(rng)
    return to_record(game)


BASE_RECORDS = [_finished_record(s) for s in range(4)]


def _check_reader(fn: Any, data: Any) -> None:
    try:
        fn(data)
    except RecordError as e:
        message = str(e)
        assert message and "\n" not in message


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(json_values)
def test_arbitrary_json_never_crashes_the_readers(data: Any) -> None:
    _check_reader(replay, data)
    _check_reader(score_sheet, data)
    _check_reader(explain_sheet, data)
    _check_reader(setup, data)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, prefix + (i,))
    return out


def _replaced(obj: Any, pick: int, value: Any) -> Any:
    """A copy of ``obj`` with the value at one of its paths (the ``pick``-th, cyclically) replaced by ``value``."""
    obj = copy.deepcopy(obj)
    paths = [p for p in _paths(obj) if p]
    path = paths[pick % len(paths)]
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return obj


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(BASE_RECORDS) - 1), st.integers(0, 10**9), json_values)
def test_mutated_records_never_crash_replay(which: int, pick: int, value: Any) -> None:
    _check_reader(replay, _replaced(BASE_RECORDS[which], pick, value))


SHEETS = [random_sheet(random.Random(s)) for s in range(8)]


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SHEETS) - 1), st.integers(0, 10**9), json_values)
def test_mutated_sheets_never_crash_the_scorekeeper(which: int, pick: int, value: Any) -> None:
    """Score sheets of both editions with one value replaced: the scorer and the
    scorekeeper's explanation refuse them alike, in one line, or both score them."""
    sheet = _replaced(SHEETS[which], pick, value)
    try:
        expected: Any = score_sheet(sheet).to_json()
    except RecordError as e:
        expected = str(e)
    try:
        got: Any = explain_sheet(sheet)["result"]
    except RecordError as e:
        got = str(e)
    assert got == expected
    _check_reader(setup, sheet)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_crash_load_json(raw: bytes) -> None:
    try:
        data = load_json(io.BytesIO(raw))
    except RecordError as e:
        assert "\n" not in str(e)
        return
    _check_reader(replay, data)
    _check_reader(score_sheet, data)


def test_deeply_nested_json_is_a_clean_error() -> None:
    raw = "[" * 100_000 + "]" * 100_000
    try:
        load_json(io.StringIO(raw))
    except RecordError as e:
        assert "nested" in str(e) or "JSON" in str(e)


def test_unmodified_records_replay() -> None:
    for record in BASE_RECORDS:
        assert replay(json.loads(json.dumps(record))).is_over
