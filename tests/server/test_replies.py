"""The per-address counters of the limits (``server/replies.py`` :class:`PerHour`):
the limit holds, a request refused for what it said is given back, and a
stream of new keys (guessed names, many addresses) cannot grow the counts
without end."""

from __future__ import annotations

import pytest

from sushigo.server.replies import PerHour


def test_the_limit_holds_per_key_and_a_stamp_can_be_given_back() -> None:
    counts = PerHour(2)
    first = counts.take("a")
    assert first is not None and counts.take("a") is not None
    assert counts.take("a") is None and counts.take("b") is not None
    counts.give_back("a", first)
    assert counts.take("a") is not None and counts.take("a") is None
    counts.give_back("nobody", 1.0)  # nothing to give back: nothing happens


def test_a_window_that_has_passed_frees_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr("sushigo.server.replies.time.monotonic", lambda: now[0])
    counts = PerHour(1, window=60.0)
    assert counts.take("a") is not None and counts.take("a") is None
    now[0] += 61
    assert counts.take("a") is not None


def test_keys_whose_window_passed_are_swept_so_new_keys_cannot_grow_the_counts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr("sushigo.server.replies.time.monotonic", lambda: now[0])
    counts = PerHour(3, window=5.0)
    for i in range(10 * PerHour.PRUNE_AT):
        counts.take(f"guess-{i}")
        now[0] += 0.01  # 100 new keys a second: the 5-second window holds about 500
    assert len(counts.stamps) <= PerHour.PRUNE_AT  # not the 10,240 keys taken
    recent = counts.take("fresh")
    assert recent is not None and "fresh" in counts.stamps
    assert counts.take("guess-10239") is not None  # a key still in its window kept its count (1 of 3)
    assert len(counts.stamps["guess-10239"]) == 2
