"""Golden games: seeded deals played by a fixed policy, kept as record files.

The files in ``tests/golden/`` were written by ``tests/golden/make_golden.py``.
The engine must reproduce each one exactly (same deal from the seed, same
picks, same record, same result), and replaying each file must give its
stored result.  If a deliberate engine change alters them, regenerate with
``python tests/golden/make_golden.py`` and review the diff.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from sushigo import Game, Rules
from sushigo.engine.editions import replay, to_record
from sushigo.engine.records import load_json

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"

_spec = importlib.util.spec_from_file_location("make_golden", GOLDEN_DIR / "make_golden.py")
make_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_golden)

CASES = make_golden.GOLDEN
IDS = [name for name, *_ in CASES]
PARTY_CASES = make_golden.PARTY_GOLDEN
PARTY_IDS = [name for name, *_ in PARTY_CASES]


def load(name: str) -> dict:
    return json.loads((GOLDEN_DIR / name).read_text(encoding="utf-8"))


def test_golden_set_covers_all_player_counts_and_options():
    assert sorted(players for _, players, _, _ in CASES) == [2, 3, 4, 5]
    assert any(opts.get("pass_both_ways") for _, _, opts, _ in CASES)
    assert any(opts.get("reshuffle") for _, _, opts, _ in CASES)
    assert sorted(p.name for p in GOLDEN_DIR.glob("*.json")) == sorted(IDS + PARTY_IDS)


def test_party_golden_set_covers_every_official_menu_and_table_size():
    from sushigo.engine.menus import OFFICIAL_MENUS

    assert sorted(menu for _, _, menu, _ in PARTY_CASES) == sorted(OFFICIAL_MENUS)
    assert {players for _, players, _, _ in PARTY_CASES} == set(range(2, 9))


@pytest.mark.parametrize(("name", "players", "menu", "seed"), PARTY_CASES, ids=PARTY_IDS)
def test_engine_reproduces_party_golden_file(name, players, menu, seed):
    stored = load(name)
    assert stored["edition"] == "party" and stored["players"] == players
    assert stored["meta"]["seed"] == seed
    assert stored["menu"] == list(Rules.party(players, menu).menu)
    text = make_golden.format_record(make_golden.party_golden_record(players, menu, seed))
    assert text == (GOLDEN_DIR / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "players", "menu", "seed"), PARTY_CASES, ids=PARTY_IDS)
def test_replay_of_party_golden_file_gives_stored_result(name, players, menu, seed):
    stored = load_json(str(GOLDEN_DIR / name))
    game = replay(stored)
    assert game.is_over
    assert game.result().to_json() == stored["result"]
    expected = dict(stored)
    expected.pop("meta")
    assert to_record(game) == expected


def test_party_golden_games_use_the_specials():
    """The golden set exercises every kind of special decision and move string."""
    text = "".join((GOLDEN_DIR / name).read_text(encoding="utf-8") for name in PARTY_IDS)
    for needle in ('"chopsticks1:', '"special_order>', '"spoon4:', '"menu7:',
                   '"takeout_box1'):
        assert needle in text, needle


@pytest.mark.parametrize(("name", "players", "options", "seed"), CASES, ids=IDS)
def test_engine_reproduces_golden_file(name, players, options, seed):
    stored = load(name)
    assert stored["players"] == players
    assert stored["meta"]["seed"] == seed
    assert stored["options"] == {"pass_both_ways": False, "reshuffle": False, **options}
    # the same seed deals the same first hands
    game = Game(Rules(players, **options), seed=seed)
    assert [[c.name_in_records for c in game.hand(s)] for s in range(players)] == \
        stored["rounds"][0]["hands"]
    # the same policy gives the same record and result, key for key
    assert make_golden.golden_record(players, options, seed) == stored
    # and the regenerated text is byte-identical too
    text = make_golden.format_record(make_golden.golden_record(players, options, seed))
    assert text == (GOLDEN_DIR / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "players", "options", "seed"), CASES, ids=IDS)
def test_replay_of_golden_file_gives_stored_result(name, players, options, seed):
    stored = load_json(str(GOLDEN_DIR / name))
    game = replay(stored)
    assert game.is_over
    assert game.result().to_json() == stored["result"]
    # the replayed game writes the same record (apart from meta, which replay does not know)
    expected = dict(stored)
    expected.pop("meta")
    assert to_record(game) == expected


def _collections(record: dict, r: int) -> list[list[str]]:
    """Seat collections at the end of round ``r`` (1-based), rebuilt from the picks."""
    cols = [[] for _ in range(record["players"])]
    for turn in record["rounds"][r - 1]["turns"]:
        for s, pick in enumerate(turn):
            if len(pick) == 2:
                cols[s].remove("chopsticks")  # used chopsticks go back into the hand
            cols[s].extend(pick)
    return cols


def test_golden_2p_hand_checked():
    """game_2p_seed2024.json, checked by hand.

    Round 2 collections (play order), rebuilt from the record's turns:
      seat 0: salmon, maki2, maki3, maki2, tempura, sashimi, tempura, sashimi,
              chopsticks, chopsticks
              -> salmon 2 (no wasabi), tempura pair 5, two sashimi 0, two
                 chopsticks 0 (turn 9: the one seat 1 put back on turn 8;
                 turn 10: its forced last card), maki 2+3+2 = 7 icons.
      seat 1: maki3, sashimi, sashimi, tempura, dumpling, dumpling,
              (chopsticks, taken turn 7, used turn 8 for dumpling+dumpling),
              sashimi, dumpling
              -> sashimi 3 = 10, 5 dumplings = 15, lone tempura 0, maki 3 icons.
      maki: 7 vs 3 -> seat 0 gets 6, seat 1 gets 3.
      round 2: seat 0 = 2 + 5 + 6 = 13, seat 1 = 10 + 15 + 3 = 28.
    Round 1: seat 0 sashimi x3 10, 1 dumpling 1, wasabi(t3)+salmon(t9) 6,
      last wasabi empty, maki 5 icons (second, 3) = 20; seat 1 maki 8 icons
      (most, 6), 2 dumplings 3, salmon 2 + egg 1 + wasabi+salmon 6 = 18.
    Round 3: seat 0 squid 3 (before its wasabi) + wasabi+squid 9 + egg 1,
      tempura pair 5, maki 7 icons (6) = 24; seat 1 salmon 2 + egg 1 +
      squid 3, three tempura 5, maki 2 icons (3) = 14.
    Puddings 1 / 2 -> 2 players: +6 for seat 1, no penalty for seat 0.
    Totals: 20 + 13 + 24 = 57 and 18 + 28 + 14 + 6 = 66; seat 1 wins.
    """
    record = load("game_2p_seed2024.json")
    cols = _collections(record, 2)
    assert cols[0] == ["salmon", "maki2", "maki3", "maki2", "tempura", "sashimi", "tempura",
                       "sashimi", "chopsticks", "chopsticks"]
    assert cols[1] == ["maki3", "sashimi", "sashimi", "tempura", "dumpling", "dumpling",
                       "dumpling", "dumpling", "sashimi", "dumpling"]
    result = replay(record).result()
    assert result.rounds == ((20, 18), (13, 28), (24, 14))
    assert result.breakdown[1][0] == {"tempura": 5, "sashimi": 0, "dumpling": 0, "nigiri": 2, "maki": 6}
    assert result.breakdown[1][1] == {"tempura": 0, "sashimi": 10, "dumpling": 15, "nigiri": 0, "maki": 3}
    assert result.puddings == (1, 2)
    assert result.pudding == (0, 6)
    assert result.totals == (57, 66)
    assert result.winners == (1,)


def _picks_fit(rnd: dict, step: int) -> bool:
    """Whether every pick of a round comes from the hand its seat holds when
    hands pass by ``step`` (+1 left, -1 right); simulated from the record alone."""
    n = len(rnd["hands"])
    hands = [list(h) for h in rnd["hands"]]
    for turn in rnd["turns"]:
        for s, pick in enumerate(turn):
            for c in pick:
                if c not in hands[s]:
                    return False
                hands[s].remove(c)
            if len(pick) == 2:
                hands[s].append("chopsticks")
        hands = [hands[(s - step) % n] for s in range(n)]
    return all(h == [] for h in hands)


def test_golden_pass_both_ways_direction():
    record = load("game_3p_seed7_pass_both_ways.json")
    assert record["options"]["pass_both_ways"] is True
    r1, r2, r3 = record["rounds"]
    # rounds 1 and 3 pass left, round 2 right; the file tells the directions apart
    assert _picks_fit(r1, +1) and not _picks_fit(r1, -1)
    assert _picks_fit(r2, -1) and not _picks_fit(r2, +1)
    assert _picks_fit(r3, +1) and not _picks_fit(r3, -1)
    for name in ("game_2p_seed2024.json", "game_5p_seed5.json", "game_4p_seed99_reshuffle.json"):
        for rnd in load(name)["rounds"]:
            assert _picks_fit(rnd, +1)


def test_golden_no_reshuffle_deals_from_one_deck():
    from collections import Counter

    from sushigo.engine.base.cards import CARD_NAMES, DECK_COUNT_LIST

    for name in ("game_2p_seed2024.json", "game_3p_seed7_pass_both_ways.json", "game_5p_seed5.json"):
        dealt = Counter(c for rnd in load(name)["rounds"] for h in rnd["hands"] for c in h)
        assert all(dealt[CARD_NAMES[i]] <= DECK_COUNT_LIST[i] for i in range(12))
