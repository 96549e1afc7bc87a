"""Regenerate the golden games in this folder.

    python tests/golden/make_golden.py

Each golden game is a seeded deal played by a fixed, self-contained policy
(below): every seat draws from its own ``random.Random`` seeded from the game
seed and the seat, prefers a chopsticks pair half the time when it has one,
and otherwise picks uniformly among its legal actions.  The policy uses
nothing outside this repository, so the files only change when the engine's
deal or rules change, which is exactly what ``tests/test_golden.py`` guards.
Review the diff before committing regenerated files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from sushigo import Game, Rules
from sushigo.record import dumps, to_record

HERE = Path(__file__).resolve().parent

# (file name, players, options, seed)
GOLDEN = [
    ("game_2p_seed2024.json", 2, {}, 2024),
    ("game_3p_seed7_pass_both_ways.json", 3, {"pass_both_ways": True}, 7),
    ("game_4p_seed99_reshuffle.json", 4, {"reshuffle": True}, 99),
    ("game_5p_seed5.json", 5, {}, 5),
]

POLICY = "seat-random/1"


def policy_pick(legal: list[int], rnd: random.Random) -> int:
    """The golden policy for one seat: a chopsticks pair half the time, else uniform."""
    pairs = [a for a in legal if a >= 12]
    if pairs and rnd.random() < 0.5:
        return pairs[rnd.randrange(len(pairs))]
    return legal[rnd.randrange(len(legal))]


def play_golden(players: int, options: dict, seed: int) -> Game:
    game = Game(Rules(players, **options), seed=seed)
    rnds = [random.Random(seed * 1000 + s) for s in range(players)]
    while not game.is_over:
        game.play([policy_pick(game.legal_actions(s), rnds[s]) for s in range(players)])
    return game


def golden_record(players: int, options: dict, seed: int) -> dict:
    game = play_golden(players, options, seed)
    return to_record(game, meta={"policy": POLICY})


def format_record(record: dict) -> str:
    """The record as ``sushigo.record.dumps`` writes it (one line per hand and turn)."""
    text = dumps(record) + "\n"
    assert json.loads(text) == record
    return text


def main() -> None:
    for name, players, options, seed in GOLDEN:
        record = golden_record(players, options, seed)
        (HERE / name).write_text(format_record(record), encoding="utf-8")
        print(f"wrote {name}: totals {record['result']['totals']}, winners {record['result']['winners']}")


if __name__ == "__main__":
    main()
