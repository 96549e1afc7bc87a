"""Regenerate the golden games in this folder.

    python tests/golden/make_golden.py

Each golden game is a seeded deal played by a fixed, self-contained policy
(below): every seat draws from its own ``random.Random`` seeded from the game
seed and the seat, prefers a chopsticks pair half the time when it has one,
and otherwise picks uniformly among its legal actions.  Party games (one per
official menu, 2 to 8 players) use the same idea: seats use their
chopsticks and spoons two times in three and otherwise choose uniformly.  The policy uses
nothing outside this repository, so the files only change when the engine's
deal or rules change, which is exactly what ``tests/engine/test_golden.py`` guards.
Review the diff before committing regenerated files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from sushigo import Game, Rules
from sushigo.engine.editions import to_record
from sushigo.engine.party.actions import PASS
from sushigo.engine.party.game import PartyGame
from sushigo.engine.records import dumps

HERE = Path(__file__).resolve().parent

# (file name, players, options, seed)
GOLDEN = [
    ("game_2p_seed2024.json", 2, {}, 2024),
    ("game_3p_seed7_pass_both_ways.json", 3, {"pass_both_ways": True}, 7),
    ("game_4p_seed99_reshuffle.json", 4, {"reshuffle": True}, 99),
    ("game_5p_seed5.json", 5, {}, 5),
]

POLICY = "seat-random/1"

# (file name, players, official menu, seed)
PARTY_GOLDEN = [
    ("party_my_first_meal_4p_seed1.json", 4, "My First Meal", 1),
    ("party_sushi_go_2p_seed2.json", 2, "Sushi Go!", 2),
    ("party_party_sampler_5p_seed3.json", 5, "Party Sampler", 3),
    ("party_master_menu_3p_seed4.json", 3, "Master Menu", 4),
    ("party_points_platter_6p_seed5.json", 6, "Points Platter", 5),
    ("party_cutthroat_combo_8p_seed6.json", 8, "Cutthroat Combo", 6),
    ("party_big_banquet_7p_seed7.json", 7, "Big Banquet", 7),
    ("party_dinner_for_two_2p_seed8.json", 2, "Dinner for Two", 8),
]


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


def party_policy_pick(game: PartyGame, seat: int, rnd: random.Random) -> int:
    """The Party golden policy: use a chopsticks or spoon 2 times in 3, else uniform."""
    legal = game.legal_actions(seat)
    d = game.decision
    if d is not None and d.kind in ("chopsticks", "spoon") and rnd.random() < 2 / 3:
        uses = [a for a in legal if a != PASS]
        return uses[rnd.randrange(len(uses))]
    return legal[rnd.randrange(len(legal))]


def play_party_golden(players: int, menu: str, seed: int) -> PartyGame:
    game = PartyGame(Rules.party(players, menu), seed=seed)
    rnds = [random.Random(seed * 1000 + s) for s in range(players)]
    while not game.is_over:
        for seat in game.pending_seats:
            game.commit(seat, party_policy_pick(game, seat, rnds[seat]))
    return game


def party_golden_record(players: int, menu: str, seed: int) -> dict:
    return to_record(play_party_golden(players, menu, seed), meta={"policy": POLICY})


def golden_record(players: int, options: dict, seed: int) -> dict:
    game = play_golden(players, options, seed)
    return to_record(game, meta={"policy": POLICY})


def format_record(record: dict) -> str:
    """The record as ``sushigo.engine.records.dumps`` writes it (one line per hand and turn)."""
    text = dumps(record) + "\n"
    assert json.loads(text) == record
    return text


def main() -> None:
    for name, players, options, seed in GOLDEN:
        record = golden_record(players, options, seed)
        (HERE / name).write_text(format_record(record), encoding="utf-8")
        print(f"wrote {name}: totals {record['result']['totals']}, winners {record['result']['winners']}")
    for name, players, menu, seed in PARTY_GOLDEN:
        record = party_golden_record(players, menu, seed)
        (HERE / name).write_text(format_record(record), encoding="utf-8")
        print(f"wrote {name}: totals {record['result']['totals']}, winners {record['result']['winners']}")


if __name__ == "__main__":
    main()
