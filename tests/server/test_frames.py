"""The ``state`` frames carry the engine's view document as it is, one document for both editions.

Every ``state`` :class:`sushigo.server.tables.StateFrames` writes must be
the message built around :func:`sushigo.engine.editions.view_document` (as
its own frame for protocol versions 1 and 2, as the ``state`` of an
``update`` for version 3: the same JSON less ``type`` and ``v``), for every seat and the
spectator, at every moment of whole games (hidden picks committed, changed
and taken back, chopsticks, both passing directions, the end of the game);
each document holds the seat's view as ``seat_view(game, seat).to_json()``
builds it alone (the documents of a moment share what seats share); and its
``choices`` are exactly what the seat may send now, in the engine's words.
"""

from __future__ import annotations

import json
import random
import time

import pytest

from sushigo.engine.editions import action_said, action_text, action_words, new_game, seat_view, view_document
from sushigo.engine.flags import rules_from_flags
from sushigo.server.protocol import VERSION
from sushigo.server.tables import FINISHED, PLAYING, WAITING, LiveTable, Seat, StateFrames

SHARED_KEYS = {"edition", "seat", "players", "round", "turn", "phase", "hand", "legal_actions", "legal", "committed",
               "collections", "on_wasabi", "hand_sizes", "picked", "known_cards", "scores", "result",
               "last_round", "explained", "choices"}
"""What a client renders of either edition, under one name."""
SEAT_KEYS = {"pass_to", "receive_from", "change_to", "change_to_text", "committed_text"}


def _reference(table: LiveTable, seat: int | None) -> dict[str, object]:
    view = None if table.status == WAITING else view_document(table.game, seat, list(table.explained))
    if view is not None:
        _check_document(table, seat, view)
    deadline = round(table.deadlines[seat][1], 3) if seat in table.deadlines else None
    return {"seq": table.seq, "status": table.status, "seat": seat,
            "table": table.summary(), "view": view, "deadline": deadline}


def _check_document(table: LiveTable, seat: int | None, view: dict[str, object]) -> None:
    game = table.game
    assert set(view) >= SHARED_KEYS and view["edition"] == game.rules.edition
    alone = seat_view(game, seat).to_json()  # the seat's view built on its own, not among others
    assert {key: view[key] for key in alone} == alone
    if seat is None:
        assert view["hand"] is None and view["choices"] == [] and not SEAT_KEYS & set(view)
        return
    assert set(view) >= SEAT_KEYS
    committed = game.committed_action(seat)
    change = game.change_choices(seat)
    now = change if committed is not None and change else game.legal_actions(seat)
    assert view["choices"] == [{"action": a, "text": action_text(game, a), "words": action_words(game, a),
                               "words_msg": action_said(game, a)}
                               for a in now]
    if committed is None:
        assert [c["text"] for c in view["choices"]] == view["legal"]  # type: ignore[attr-defined]


def _table(players: int, seed: int, **flags: object) -> LiveTable:
    rules = rules_from_flags(players, label=f"{players} seats", **flags)  # type: ignore[arg-type]
    seats = [Seat(i, "human", None, f"P{i}", None) for i in range(players)]
    return LiveTable(id="t", created=time.time(), rules=rules, seed=seed, timer=None, status=WAITING,
                     seats=seats, game=new_game(rules, seed=seed), opened=[0] * players)


def _check_all(table: LiveTable) -> int:
    frames = StateFrames(table)
    seats: list[int | None] = [None, *range(table.game.players)]
    for seat in random.Random(table.seq).sample(seats, len(seats)):  # in any order
        reference = _reference(table, seat)
        part = frames.part(seat)
        assert json.loads(part.body) == reference, (seat, table.seq)
        assert json.loads(frames.text(seat)) == {"type": "state", "v": VERSION, **reference}, (seat, table.seq)
    return len(seats)


@pytest.mark.parametrize("players,seed,flags", [
    (2, 1, {}), (3, 2, {"pass_both_ways": True}), (4, 3, {}), (5, 4, {"pass_both_ways": True}),
    (4, 5, {"edition": "party", "menu": "nigiri, uramaki, tempura, tofu, eel, menu, spoon, green_tea_ice_cream"}),
])
def test_state_frames_carry_the_view_document(players: int, seed: int, flags: dict[str, object]) -> None:
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
