"""Game records, replay errors, score sheets and JSON loading (docs/spec/game-record.md)."""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path

import pytest

from policies import random_actions
from sushigo import Card, Game, Rules
from sushigo.engine.base.cards import CARD_NAMES
from sushigo.engine.editions import replay, save_record, score_sheet, to_record
from sushigo.engine.records import MAX_INPUT_BYTES, RECORD_FORMAT, RecordError, dumps, load_json
from sushigo.engine.turns import Phase


def play_random(rules: Rules, seed: int, chop: float = 0.7) -> Game:
    game = Game(rules, seed=seed)
    rnd = random.Random(seed)
    while not game.is_over:
        game.play(random_actions(game, rnd, chop))
    return game


@pytest.fixture(scope="module")
def game3() -> Game:
    return play_random(Rules(3), seed=31)


@pytest.fixture()
def rec(game3) -> dict:
    return copy.deepcopy(to_record(game3))


def error_of(data) -> str:
    with pytest.raises(RecordError) as info:
        replay(data)
    msg = str(info.value)
    assert "\n" not in msg and msg.strip() == msg and msg
    return msg


# ------------------------------------------------------------------ structure

@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [{}, {"pass_both_ways": True}, {"reshuffle": True}])
def test_record_structure(players, options):
    game = play_random(Rules(players, **options), seed=players)
    record = to_record(game)
    k = Rules(players).hand_size
    assert record["format"] == RECORD_FORMAT == "sushigo-record/1"
    assert record["edition"] == "base"
    assert record["players"] == players
    assert record["options"] == {"pass_both_ways": False, "reshuffle": False, **options}
    assert record["meta"] == {"seed": players}
    assert len(record["rounds"]) == 3
    for rnd in record["rounds"]:
        assert set(rnd) == {"hands", "turns"}
        assert len(rnd["hands"]) == players
        assert all(len(h) == k for h in rnd["hands"])
        assert all(c in CARD_NAMES for h in rnd["hands"] for c in h)
        assert len(rnd["turns"]) == k
        for turn in rnd["turns"]:
            assert len(turn) == players
            for pick in turn:
                assert isinstance(pick, list) and 1 <= len(pick) <= 2
                assert all(c in CARD_NAMES for c in pick)
    res = record["result"]
    assert {"rounds", "pudding", "totals", "winners"} <= set(res)
    assert res["totals"] == list(game.result().totals)
    assert res["winners"] == list(game.result().winners)
    json.dumps(record)


def test_record_has_chopsticks_pairs(game3):
    record = to_record(game3)
    pairs = [p for rnd in record["rounds"] for turn in rnd["turns"] for p in turn if len(p) == 2]
    assert pairs, "the seeded game should use chopsticks"


def test_record_of_unfinished_game():
    game = Game(2, seed=1)
    game.play([game.legal_actions(0)[0], game.legal_actions(1)[0]])
    record = to_record(game, meta={"names": ["a", "b"]})
    assert "result" not in record
    assert record["meta"] == {"seed": 1, "names": ["a", "b"]}
    assert len(record["rounds"]) == 1 and len(record["rounds"][0]["turns"]) == 1
    assert "stops early" in error_of(record)


def test_record_without_seed_has_no_meta():
    game = Game(Rules(2), auto_deal=False)
    assert "meta" not in to_record(game)


def test_replay_round_trip(rec, game3):
    again = replay(rec)
    assert again.result() == game3.result()
    again_rec = to_record(again)
    rec.pop("meta")
    assert again_rec == rec


def test_replay_ignores_unknown_keys(rec, game3):
    rec["meta"]["names"] = ["x", "y", "z"]
    rec["timing"] = [1, 2, 3]
    rec["rounds"][0]["comment"] = "hello"
    assert replay(rec).result() == game3.result()


def test_replay_defaults_for_missing_optional_keys(rec, game3):
    del rec["options"]
    del rec["edition"]
    del rec["result"]
    del rec["meta"]
    assert replay(rec).result() == game3.result()


def test_replay_requires_exact_card_names(rec):
    """Records spell card names exactly as the spec does (lowercase)."""
    name = rec["rounds"][0]["hands"][0][0]
    rec["rounds"][0]["hands"][0][0] = name.upper()
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert str(err.value) == (
        f"round 1, hand of seat 0, card 1: unknown card {name.upper()!r} (did you mean {name!r}?)"
    )


def test_dumps_round_trip(rec):
    text = dumps(rec)
    assert json.loads(text) == rec


def test_save_record(tmp_path, game3):
    path = tmp_path / "game.json"
    save_record(game3, str(path), meta={"event": "test"})
    data = load_json(str(path))
    assert data["meta"] == {"seed": 31, "event": "test"}
    assert replay(data).result() == game3.result()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# ------------------------------------------------------------- replay errors

def _find_illegal(rec, r, t, s):
    """A card not in seat s's hand at (round r, turn t) of the record (1-based r, t)."""
    game = Game(Rules(rec["players"]), auto_deal=False)
    from sushigo.engine.base.actions import encode
    from sushigo.engine.base.cards import parse_card

    for ri, rnd in enumerate(rec["rounds"], start=1):
        game.deal([[parse_card(c) for c in h] for h in rnd["hands"]])
        for ti, turn in enumerate(rnd["turns"], start=1):
            if (ri, ti) == (r, t):
                return next(c for c in range(12) if c not in game.hands[s])
            game.play([encode([parse_card(c) for c in p]) for p in turn])
    raise AssertionError


def test_illegal_move(rec):
    card = _find_illegal(rec, 2, 3, 1)
    rec["rounds"][1]["turns"][2][1] = [CARD_NAMES[card]]
    msg = error_of(rec)
    assert msg.startswith("round 2, turn 3, seat 1: illegal move")
    assert CARD_NAMES[card] in msg


def test_illegal_chopsticks_without_chopsticks(rec):
    # turn 1: nobody has chopsticks in the collection yet
    hand = rec["rounds"][0]["hands"][2]
    rec["rounds"][0]["turns"][0][2] = [hand[0], hand[1]]
    msg = error_of(rec)
    assert msg.startswith("round 1, turn 1, seat 2: illegal move")
    assert "chopsticks" in msg


def test_illegal_last_turn_pair(rec):
    rnd = rec["rounds"][2]
    last = rnd["turns"][-1]
    last[0] = last[0] + last[0]
    msg = error_of(rec)
    assert msg.startswith("round 3, turn 9, seat 0: illegal move")


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("hands", 1, 4), "soy_sauce", "round 1, hand of seat 1, card 5: unknown card 'soy_sauce'"),
        (("hands", 0, 0), 7, "round 1, hand of seat 0, card 1: expected a card name"),
        (("hands", 0, 0), None, "round 1, hand of seat 0, card 1: expected a card name"),
        (("turns", 3, 2, 0), "maki4", "round 1, turn 4, seat 2, card 1: unknown card 'maki4'"),
        (("turns", 3, 2, 0), ["egg"], "round 1, turn 4, seat 2, card 1: expected a card name"),
    ],
)
def test_unknown_or_bad_cards(rec, path, value, expected):
    node = rec["rounds"][0]
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    assert error_of(rec).startswith(expected)


def _set(rec, path, value):
    node = rec
    for p in path[:-1]:
        node = node[p]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        ((), [], "record"),
        (("format",), KeyError, "format"),
        (("format",), "sushigo-record/2", "format"),
        (("format",), 1, "format"),
        (("edition",), "party", "edition"),
        (("players",), KeyError, "players"),
        (("players",), "3", "players"),
        (("players",), 3.0, "players"),
        (("players",), True, "players"),
        (("players",), None, "players"),
        (("options",), [], "options"),
        (("options",), None, "options"),
        (("rounds",), KeyError, "rounds"),
        (("rounds",), {}, "rounds"),
        (("rounds",), "abc", "rounds"),
        (("rounds", 0), [], "round 1"),
        (("rounds", 1), None, "round 2"),
        (("rounds", 0, "hands"), KeyError, "round 1"),
        (("rounds", 0, "hands"), {}, "round 1"),
        (("rounds", 0, "hands", 2), "tempura", "round 1, hand of seat 2"),
        (("rounds", 0, "hands", 2), {}, "round 1, hand of seat 2"),
        (("rounds", 1, "turns"), KeyError, "round 2"),
        (("rounds", 1, "turns"), {"1": []}, "round 2"),
        (("rounds", 1, "turns", 4), "egg", "round 2, turn 5"),
        (("rounds", 1, "turns", 4), {}, "round 2, turn 5"),
        (("rounds", 1, "turns", 4, 1), "egg", "round 2, turn 5, seat 1"),
        (("rounds", 1, "turns", 4, 1), None, "round 2, turn 5, seat 1"),
        (("rounds", 1, "turns", 4, 1), [], "round 2, turn 5, seat 1"),
        (("rounds", 1, "turns", 4, 1), ["egg", "egg", "egg"], "round 2, turn 5, seat 1"),
    ],
)
def test_wrong_shapes(rec, path, value, where):
    if path == ():
        msg = error_of(value)
    else:
        _set(rec, path, value)
        msg = error_of(rec)
    if value is KeyError:
        assert f"missing key '{path[-1]}'" in msg, msg
    assert msg.startswith(where) or value is KeyError, msg


@pytest.mark.parametrize("bad", [None, 3, "record", [1, 2], 2.5])
def test_record_not_an_object(bad):
    assert error_of(bad).startswith("record")


def test_hand_of_wrong_size(rec):
    rec["rounds"][0]["hands"][1].append("egg")
    msg = error_of(rec)
    assert msg.startswith("round 1: impossible deal")
    assert "seat 1" in msg


def test_wrong_number_of_hands(rec):
    rec["rounds"][0]["hands"].pop()
    assert error_of(rec) == "round 1: 2 hands dealt for 3 players"


def test_wrong_number_of_picks(rec):
    rec["rounds"][2]["turns"][1].pop()
    assert error_of(rec) == "round 3, turn 2: 2 picks for 3 players"


@pytest.mark.parametrize("players", [0, 1, 6, 7, -3])
def test_wrong_player_count(rec, players):
    rec["players"] = players
    msg = error_of(rec)
    assert msg.startswith("players")
    assert str(players) in msg


def test_player_count_disagrees_with_hands(rec):
    rec["players"] = 4
    assert error_of(rec).startswith("round 1: 3 hands dealt for 4 players")


@pytest.mark.parametrize(
    "options",
    [{"pass_both_way": True}, {"reshuffle": "yes"}, {"reshuffle": 1}, {"pass_both_ways": None},
     {"dummy": False}],
)
def test_bad_options(rec, options):
    rec["options"] = options
    assert error_of(rec).startswith("options: ")


def test_options_change_the_game(rec):
    # the same picks are (almost surely) not legal when round 2 passes right
    rec["options"] = {"pass_both_ways": True}
    assert error_of(rec).startswith("round 2, turn 2")


def _two_player_tempura_game(reshuffle: bool) -> Game:
    """2p; round 1 deals all 14 tempura, round 2 deals tempura again (needs reshuffle)."""
    game = Game(Rules(2, reshuffle=reshuffle), auto_deal=False)
    deals = [
        [["tempura"] * 10, ["tempura"] * 4 + ["sashimi"] * 6],
        [["tempura"] * 2 + ["dumpling"] * 8, ["sashimi"] * 8 + ["dumpling"] * 2],
        [["egg"] * 5 + ["squid"] * 5, ["salmon"] * 10],
    ]
    from sushigo.engine.base.cards import parse_card

    for hands in deals:
        game.deal([[parse_card(c) for c in h] for h in hands])
        while game.phase is Phase.PICK:
            game.play([game.legal_actions(0)[0], game.legal_actions(1)[0]])
    return game


def test_impossible_deal_across_rounds():
    rec = to_record(_two_player_tempura_game(reshuffle=True))
    assert replay(rec).is_over
    rec["options"] = {"reshuffle": False}
    del rec["result"]
    msg = error_of(rec)
    assert msg.startswith("round 2: impossible deal")
    assert "tempura" in msg


def test_impossible_deal_reshuffle_keeps_puddings_out():
    game = Game(Rules(2, reshuffle=True), auto_deal=False)
    game.deal([[Card.PUDDING] * 10, [Card.TEMPURA] * 10])
    while game.phase is Phase.PICK:
        game.play([game.legal_actions(0)[0], game.legal_actions(1)[0]])
    game.deal([[Card.SASHIMI] * 10, [Card.TEMPURA] * 10])
    rec = to_record(game)
    rec["rounds"][1]["hands"][0][0] = "pudding"
    assert error_of(rec).startswith("round 2: impossible deal")


def test_impossible_deal_within_a_round(rec):
    rec["rounds"][0]["hands"][0] = ["squid"] * 9
    msg = error_of(rec)
    assert msg.startswith("round 1: impossible deal")


def test_impossible_deal_in_round_three(game3):
    rec = to_record(game3)
    # count what rounds 1-3 deal; replace a round-3 card by one whose copies are all used
    used = {}
    for rnd in rec["rounds"]:
        for h in rnd["hands"]:
            for c in h:
                used[c] = used.get(c, 0) + 1
    from sushigo.engine.base.cards import DECK_COUNTS, parse_card

    full = next((c for c in CARD_NAMES if used.get(c, 0) == DECK_COUNTS[parse_card(c)]), None)
    if full is None:  # make one: deal one more copy than exists
        full = min(CARD_NAMES, key=lambda c: DECK_COUNTS[parse_card(c)] - used.get(c, 0))
        need = DECK_COUNTS[parse_card(full)] - used.get(full, 0) + 1
    else:
        need = 1
    hand = rec["rounds"][2]["hands"][0]
    replaced = 0
    for i, c in enumerate(hand):
        if c != full and replaced < need:
            hand[i] = full
            replaced += 1
    assert replaced == need
    msg = error_of(rec)
    assert msg.startswith("round 3: impossible deal")


def test_record_stops_early_mid_round(rec):
    del rec["rounds"][1]["turns"][3:]
    assert error_of(rec) == "round 2: the record stops early, after turn 3 of 9"


def test_record_stops_early_no_turns(rec):
    rec["rounds"][2]["turns"] = []
    del rec["rounds"][2]["turns"][:]
    assert error_of(rec) == "round 3: the record stops early, after turn 0 of 9"


def test_record_stops_early_after_round(rec):
    del rec["rounds"][2]
    assert error_of(rec) == "the record stops early, after round 2 of 3"


def test_record_with_no_rounds(rec):
    rec["rounds"] = []
    assert "stops early" in error_of(rec)


def test_too_many_turns(rec):
    rnd = rec["rounds"][0]
    rnd["turns"].append(rnd["turns"][-1])
    assert error_of(rec) == "round 1: 10 turns, but hands hold only 9 cards"


def test_too_many_rounds(rec):
    rec["rounds"].append(copy.deepcopy(rec["rounds"][0]))
    assert error_of(rec).startswith("rounds: ")


def test_wrong_claimed_result(rec):
    rec["result"]["totals"][0] += 1
    msg = error_of(rec)
    assert msg.startswith("result: ")
    assert "totals" in msg


def test_claimed_winners_checked(rec):
    rec["result"]["winners"] = [9]
    assert error_of(rec).startswith("result: ")


# ---------------------------------------------------------------- score sheets

SPEC_SHEET = {
    "players": 4,
    "rounds": [
        [["tempura", "tempura", "wasabi", "squid"], ["maki3", "pudding"], [], ["egg"]],
    ],
}


def test_score_sheet_spec_example():
    # seat 0: tempura pair 5 + squid on wasabi 9 = 14; seat 1: only seat with
    # maki -> 6 (no second place), pudding waits; seat 2: 0; seat 3: egg 1.
    result = score_sheet(SPEC_SHEET).to_json()
    assert result["rounds"] == [[14, 6, 0, 1]]
    assert result["pudding"] == [0, 0, 0, 0]   # one round only: no pudding yet
    assert result["totals"] == [14, 6, 0, 1]
    assert result["winners"] == [0]
    assert result["puddings"] == [0, 1, 0, 0]


def test_the_spec_shows_its_score_sheet_and_that_sheet_s_result():
    """docs/spec/game-record.md: the base score sheet example is SPEC_SHEET and the
    "Result" example is what scoring it gives (it once showed [[12, 6, 0, 3]])."""
    import re

    spec = (Path(__file__).resolve().parents[3] / "docs" / "spec" / "game-record.md").read_text(encoding="utf-8")
    base = spec.split("## Sushi Go Party! records")[0]
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", base, re.DOTALL)]
    sheet = next(b for b in blocks if "rounds" in b and "format" not in b and "totals" not in b)
    shown = next(b for b in blocks if "totals" in b)
    assert sheet == SPEC_SHEET
    actual = score_sheet(sheet).to_json()
    assert {k: actual[k] for k in shown} == shown


THREE_ROUNDS = {
    "players": 4,
    "rounds": [
        [["tempura", "tempura", "wasabi", "squid"], ["maki3", "pudding"], [], ["egg"]],
        [["pudding", "pudding"], ["sashimi"] * 3, ["maki2", "maki2", "dumpling"],
         ["maki2", "maki1", "dumpling", "dumpling"]],
        [["pudding"], [], ["pudding", "egg"], ["wasabi", "salmon"]],
    ],
}
# Round 2: seat 1 sashimi 10; seat 2 maki 4 icons (most, 6) + 1 dumpling = 7;
#          seat 3 maki 3 icons (second, 3) + 2 dumplings 3 = 6.
# Round 3: seat 2 egg 1; seat 3 salmon on wasabi 6.
# Puddings 3 / 1 / 1 / 0 -> +6 / 0 / 0 / -6.


def test_score_sheet_three_rounds_with_pudding():
    result = score_sheet(THREE_ROUNDS).to_json()
    assert result["rounds"] == [[14, 6, 0, 1], [0, 10, 7, 6], [0, 0, 1, 6]]
    assert result["puddings"] == [3, 1, 1, 0]
    assert result["pudding"] == [6, 0, 0, -6]
    assert result["totals"] == [20, 16, 8, 7]
    assert result["winners"] == [0]


def test_score_sheet_partial_no_pudding():
    sheet = {"players": 4, "rounds": THREE_ROUNDS["rounds"][:2]}
    result = score_sheet(sheet).to_json()
    assert result["pudding"] == [0, 0, 0, 0]
    assert result["totals"] == [14, 16, 7, 7]
    assert result["winners"] == [1]


def test_score_sheet_two_players_no_penalty():
    sheet = {"players": 2, "rounds": [[["pudding"], []], [[], ["tempura"]], [["tempura"], []]]}
    result = score_sheet(sheet).to_json()
    assert result["pudding"] == [6, 0]
    assert result["totals"] == [6, 0]


def test_score_sheet_tie_shared():
    sheet = {"players": 3, "rounds": [[["egg"], ["egg"], []]]}
    assert score_sheet(sheet).to_json()["winners"] == [0, 1]


def sheet_error(data) -> str:
    with pytest.raises(RecordError) as info:
        score_sheet(data)
    msg = str(info.value)
    assert "\n" not in msg and msg
    return msg


def test_score_sheet_collection_larger_than_hand():
    sheet = {"players": 4, "rounds": [[["tempura"] * 9, [], [], []]]}
    msg = sheet_error(sheet)
    assert msg.startswith("round 1, seat 0")
    sheet = {"players": 4, "rounds": [[["tempura"] * 8, [], [], []]]}
    assert score_sheet(sheet).rounds == ((20, 0, 0, 0),)


def test_score_sheet_more_cards_than_deck():
    sheet = {"players": 2, "rounds": [[["squid"] * 3, ["squid"] * 2], [["squid"], []]]}
    # named at the seat whose squid passes the deck's 5, counting seats in order, round by round
    assert sheet_error(sheet) == "round 2, seat 0: 1 squid card here makes 6 in all rounds, but the deck holds 5"
    sheet = {"players": 2, "rounds": [[["squid"] * 3, ["squid"] * 2], [[], []]]}
    score_sheet(sheet)


@pytest.mark.parametrize(
    ("sheet", "start"),
    [
        ([], "score sheet"),
        ({"rounds": [[[], []]]}, "missing key 'players'"),
        ({"players": 6, "rounds": [[[]] * 6]}, "players"),
        ({"players": 1, "rounds": [[[]]]}, "players"),
        ({"players": "2", "rounds": [[[], []]]}, "players"),
        ({"players": 2}, "missing key 'rounds'"),
        ({"players": 2, "rounds": []}, "rounds"),
        ({"players": 2, "rounds": [[[], []]] * 4}, "rounds"),
        ({"players": 2, "rounds": {}}, "rounds"),
        ({"players": 2, "rounds": [[[]]]}, "round 1"),
        ({"players": 2, "rounds": [[[], []], {}]}, "round 2"),
        ({"players": 2, "rounds": [[[], "egg"]]}, "round 1, seat 1"),
        ({"players": 2, "rounds": [[[], ["egg", "eggs"]]]}, "round 1, seat 1, card 2"),
        ({"players": 2, "rounds": [[[], ["egg", 3]]]}, "round 1, seat 1, card 2"),
    ],
)
def test_score_sheet_errors(sheet, start):
    assert sheet_error(sheet).startswith(start)


# ----------------------------------------------------------------- load_json

def test_load_json_file(tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(SPEC_SHEET), encoding="utf-8")
    assert load_json(str(path)) == SPEC_SHEET
    with open(path, "rb") as f:
        assert load_json(f) == SPEC_SHEET
    with open(path, encoding="utf-8") as f:
        assert load_json(f) == SPEC_SHEET
    assert load_json(io.StringIO('{"a": 1}')) == {"a": 1}


def test_load_json_stdin(monkeypatch):
    class FakeStdin:
        buffer = io.BytesIO(b'{"players": 2}')

    monkeypatch.setattr("sys.stdin", FakeStdin())
    assert load_json("-") == {"players": 2}


def load_error(source, what="file") -> str:
    with pytest.raises(RecordError) as info:
        load_json(source, what)
    msg = str(info.value)
    assert "\n" not in msg and msg
    return msg


def test_load_json_not_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"players": 2,', encoding="utf-8")
    msg = load_error(str(path), "record")
    assert msg.startswith("record is not JSON")
    assert "line 1" in msg


def test_load_json_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "caf\u00e9"}'.encode("latin-1"))
    assert "not UTF-8" in load_error(str(path))


def test_load_json_too_large(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * MAX_INPUT_BYTES + b"{}")
    assert "too large" in load_error(str(path))
    ok = tmp_path / "ok.json"
    ok.write_bytes(b" " * (MAX_INPUT_BYTES - 2) + b"{}")
    assert load_json(str(ok)) == {}


def test_load_json_missing_file(tmp_path):
    missing = tmp_path / "nope.json"
    msg = load_error(str(missing))
    assert "no such file" in msg


def test_load_json_directory(tmp_path):
    assert "directory" in load_error(str(tmp_path))


def test_load_json_deeply_nested(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    load_error(str(path))


def test_load_json_empty(tmp_path):
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    assert "not JSON" in load_error(str(path))
