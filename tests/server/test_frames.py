"""The ``state`` frames a publish shares among seats are exactly the reference ones.

:class:`sushigo.server.tables.StateFrames` encodes what seats share once and
adds each seat's own fields; every frame it writes must be, byte for byte,
``dump`` of the message built from :func:`sushigo.server.tables.view_payload`
(the engine's views), for every seat and the spectator, at every moment of
whole games (hidden picks committed, changed and taken back, chopsticks, both
passing directions, the end of the game).
"""

from __future__ import annotations

import random
import time

import pytest

from sushigo.engine.editions import new_game
from sushigo.engine.flags import rules_from_flags
from sushigo.server.protocol import dump
from sushigo.server.tables import FINISHED, PLAYING, WAITING, LiveTable, Seat, StateFrames, view_payload


def _reference(table: LiveTable, seat: int | None) -> str:
    view = None if table.status == WAITING else view_payload(table.game, seat, list(table.explained))
    deadline = round(table.deadlines[seat][1], 3) if seat in table.deadlines else None
    return dump({"type": "state", "seq": table.seq, "status": table.status, "seat": seat,
                 "table": table.summary(), "view": view, "deadline": deadline})


def _table(players: int, seed: int, **flags: object) -> LiveTable:
    rules = rules_from_flags(players, label=f"{players} seats", **flags)  # type: ignore[arg-type]
    seats = [Seat(i, "human", None, f"P{i}", None) for i in range(players)]
    return LiveTable(id="t", created=time.time(), rules=rules, seed=seed, timer=None, status=WAITING,
                     seats=seats, game=new_game(rules, seed=seed), opened=[0] * players)


def _check_all(table: LiveTable) -> int:
    frames = StateFrames(table)
    seats: list[int | None] = [None, *range(table.game.players)]
    for seat in random.Random(table.seq).sample(seats, len(seats)):  # in any order
        assert frames.text(seat) == _reference(table, seat), (seat, table.seq)
    if table.status != WAITING and table.game.rules.edition == "base":
        assert frames._public, "the base game's frames were not shared"
    return len(seats)


@pytest.mark.parametrize("players,seed,flags", [
    (2, 1, {}), (3, 2, {"pass_both_ways": True}), (4, 3, {}), (5, 4, {"pass_both_ways": True}),
    (4, 5, {"edition": "party", "menu": "nigiri, uramaki, tempura, tofu, eel, menu, spoon, green_tea_ice_cream"}),
])
def test_shared_state_frames_are_the_reference_frames(players: int, seed: int, flags: dict[str, object]) -> None:
    table = _table(players, seed, **flags)
    rng = random.Random(seed)
    checked = _check_all(table)
    withdrawn = 0
    table.status = PLAYING
    game = table.game
    while not game.is_over:
        checked += _check_all(table)
        seat = rng.choice([s for s in range(players) if s in game.pending_seats or game.has_committed(s)])
        if game.has_committed(seat) and rng.random() < 0.3:
            game.withdraw(seat)
            withdrawn += 1
        else:
            legal = game.legal_actions(seat) if not game.has_committed(seat) else game.change_choices(seat)
            if game.has_committed(seat):
                game.withdraw(seat)
            # prefer chopsticks and pairs now and then
            game.commit(seat, max(legal) if rng.random() < 0.3 else rng.choice(legal))
        table.seq += 1
        if table.seq % 7 == 0:
            table.deadlines[seat] = (table.seq, time.time() + rng.random() * 100, None)  # type: ignore[assignment]
        else:
            table.deadlines.pop(seat, None)
    assert withdrawn > 5
    table.status = FINISHED
    table.result = game.result().to_json()
    checked += _check_all(table)
    assert checked > 20 * (players + 1)
