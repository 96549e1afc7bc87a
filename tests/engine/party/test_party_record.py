"""Sushi Go Party! game records and score sheets (docs/spec/game-record.md,
section "Sushi Go Party! records")."""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheet_samples import allowed, random_menu, sheet_text
from sushigo.engine.editions import replay, save_record, score_sheet, to_record
from sushigo.engine.menus import OFFICIAL_MENUS, RESTRICTIONS
from sushigo.engine.party.actions import PASS
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.record import party_score_sheet, replay_party, to_party_record
from sushigo.engine.records import RECORD_FORMAT, RecordError, dumps
from sushigo.engine.rules import Rules, RulesError

C = PartyCard
DOCS = Path(__file__).resolve().parents[3] / "docs" / "spec" / "game-record.md"


# ------------------------------------------------------------------ helpers


def random_game(rules: Rules, seed: int) -> PartyGame:
    game = PartyGame(rules, seed=seed)
    game.random_playout(random.Random(seed))
    return game


def stepped_game(rules: Rules, seed: int) -> PartyGame:
    """A random game through the public per-decision API (commit)."""
    game = PartyGame(rules, seed=seed)
    rng = random.Random(seed * 7 + 1)
    while not game.is_over:
        for s in game.pending_seats:
            game.commit(s, rng.choice(game.legal_actions(s)))
    return game


def error_of(data: Any, fn: Any = replay_party) -> str:
    with pytest.raises(RecordError) as info:
        fn(data)
    msg = str(info.value)
    assert msg and "\n" not in msg and msg.strip() == msg
    return msg


def record(players: int, menu: Any, hands: list[list[str]], turns: list[list[list[str]]],
           **extra: Any) -> dict[str, Any]:
    return {"format": RECORD_FORMAT, "edition": "party", "players": players, "menu": menu,
            "rounds": [{"hands": hands, "turns": turns}], **extra}


# ------------------------------------------------------------- round trips

OFFICIAL_TABLES = [
    (menu, players)
    for menu in OFFICIAL_MENUS
    for players in range(2, 9)
    if allowed(players, menu) is not None
]


@pytest.mark.parametrize(("menu", "players"), OFFICIAL_TABLES)
def test_round_trip_official_menus(menu: str, players: int) -> None:
    rules = Rules.party(players, menu)
    for seed in range(3):
        game = random_game(rules, seed)
        rec = json.loads(json.dumps(to_party_record(game)))
        assert rec["edition"] == "party" and rec["players"] == players
        assert rec["menu"] == list(rules.menu) and rec["menu"][0] == "nigiri"
        assert rec["options"] == rules.options()
        assert rec["meta"] == {"seed": seed}
        again = replay_party(rec)
        assert again.result() == game.result()
        assert again.history() == game.history()
        assert again.result().to_json() == rec["result"]
        # the generic entry points dispatch on the edition
        assert replay(rec).result() == game.result()
        assert to_record(game) == to_party_record(game)


def test_every_move_kind_appears_in_round_trips() -> None:
    seen: set[str] = set()
    for menu in ("Master Menu", "Party Sampler", "Big Banquet", "Dinner for Two", "Points Platter"):
        for seed in range(3):
            rec = to_party_record(random_game(Rules.party(4, menu), seed))
            for rnd in rec["rounds"]:
                for turn in rnd["turns"]:
                    for moves in turn:
                        if moves[0].startswith("special_order>"):
                            seen.add("special_order")
                        seen.update(re.sub(r"\d.*", "", m) for m in moves[1:])
    assert seen >= {"chopsticks", "spoon", "menu", "takeout_box", "special_order"}


def test_round_trip_custom_menus_options_and_commit_api() -> None:
    rng = random.Random(2024)
    done = 0
    while done < 40:
        players = rng.randint(2, 8)
        options = {"uramaki_split": rng.choice(["4-4-4", "3-5-4", "4-5-3"]),
                   "menu_card_draw": rng.randint(1, 8),
                   "two_player_pudding_penalty": rng.random() < 0.5,
                   "wasabi_colour": rng.choice(["nigiri", "own"])}
        try:
            rules = Rules.party(players, random_menu(rng), **options)
        except RulesError:
            continue
        game = stepped_game(rules, done) if done % 2 else random_game(rules, done)
        rec = json.loads(dumps(to_party_record(game, meta={"names": ["x"] * players})))
        assert rec["options"] == options and rec["meta"]["names"] == ["x"] * players
        again = replay_party(rec)
        assert again.result() == game.result(), rec["menu"]
        assert again.history() == game.history(), rec["menu"]
        done += 1


def test_official_menu_name_is_accepted_when_reading() -> None:
    game = random_game(Rules.party(3, "Cutthroat Combo"), 4)
    rec = to_party_record(game)
    rec["menu"] = "Cutthroat Combo"
    del rec["options"]  # missing options mean the defaults
    assert replay_party(rec).result() == game.result()
    rec["menu"] = "cutthroat-combo"
    assert replay_party(rec).result() == game.result()


def test_save_record_writes_a_party_record(tmp_path: Path) -> None:
    game = random_game(Rules.party(5, "Big Banquet"), 9)
    path = tmp_path / "party.json"
    save_record(game, str(path), meta={"names": ["a", "b", "c", "d", "e"]})
    data = json.loads(path.read_text())
    assert data["edition"] == "party" and data["meta"]["names"][0] == "a"
    assert replay(data).result() == game.result()


def test_record_of_an_unfinished_game() -> None:
    game = PartyGame(Rules.party(4, "Party Sampler"), seed=3)
    rng = random.Random(3)
    while game.round < 2 or game.turn < 4:
        for s in game.pending_seats:
            game.commit(s, rng.choice(game.legal_actions(s)))
    rec = to_party_record(game)
    assert "result" not in rec and len(rec["rounds"]) == 2
    assert error_of(rec) == "round 2: the record stops early, after turn 3 of 9"
    partial = replay_party(rec, partial=True)
    assert (partial.round, partial.turn) == (2, 4)
    assert partial.history() == game.history()


# ------------------------------------------------ hand-written small records

CHOP_MENU = ["nigiri", "maki", "tempura", "sashimi", "dumpling", "chopsticks", "special_order", "pudding"]
CHOP_HANDS = [
    ["chopsticks1", "egg", "salmon", "tempura", "tempura", "maki2", "sashimi", "dumpling", "dumpling", "squid"],
    ["egg", "special_order", "tempura", "maki3", "sashimi", "sashimi", "dumpling", "pudding", "maki1", "salmon"],
]
CHOP_TURNS = [
    [["chopsticks1"], ["egg"]],
    [["tempura", "chopsticks1:special_order>tempura"], ["squid"]],
    [["egg"], ["chopsticks1"]],
    [["salmon"], ["maki2"]],
]


def test_chopsticks_and_special_order_moves() -> None:
    game = replay_party(record(2, CHOP_MENU, CHOP_HANDS, CHOP_TURNS), partial=True)
    assert [sheet_text(p) for p in game.collection(0)] == ["tempura", "special_order>tempura", "egg", "salmon"]
    assert [sheet_text(p) for p in game.collection(1)] == ["egg", "squid", "chopsticks1", "maki2"]
    # turn 4: seat 1 could use chopsticks1 and wrote nothing: a pass
    last = game.history()[0][1][3]
    assert [(m.seat, m.via, m.action) for m in last][-1] == (1, int(C.CHOPSTICKS1), PASS)
    rec = to_party_record(game)
    assert rec["rounds"][0]["turns"] == CHOP_TURNS  # the pass is not written


def test_chopsticks_moves_must_be_legal_and_in_order() -> None:
    def broken(seat_moves: list[str]) -> str:
        turns = copy.deepcopy(CHOP_TURNS)
        turns[1][0] = seat_moves
        return error_of(record(2, CHOP_MENU, CHOP_HANDS, turns))

    msg = broken(["tempura", "chopsticks1:squid"])
    assert msg.startswith("round 1, turn 2, seat 0: illegal move 'chopsticks1:squid'"), msg
    assert "squid is not in seat 0's hand" in msg
    msg = broken(["tempura", "chopsticks2:egg"])
    assert msg.startswith("round 1, turn 2, seat 0: move 'chopsticks2:egg' was never used"), msg
    msg = broken(["tempura", "chopsticks1:sashimi", "chopsticks1:maki3"])
    assert msg.startswith("round 1, turn 2, seat 0: move 'chopsticks1:maki3' was never used"), msg
    msg = broken(["chopsticks1:egg"])
    assert msg.startswith("round 1, turn 2, seat 0: the first move of a seat is its pick"), msg
    msg = broken(["tempura", "chopsticks4:egg"])
    assert "chopsticks cards are numbered 1-3" in msg and msg.startswith("round 1, turn 2, seat 0, move 2")
    msg = broken(["tempura", "spoon4:egg"])
    assert "spoon is not on this game's menu" in msg
    msg = broken(["tempura", "chopsticks1:special_order>eel"])
    assert "not on this game's menu" in msg
    msg = broken(["tempura", "chopsticks1:Egg"])
    assert "did you mean 'egg'" in msg
    msg = broken(["tempura", "chopsticks1:special_order>egg+wasabi"])
    assert msg.startswith("round 1, turn 2, seat 0: illegal move"), msg
    msg = broken(["tempura", "chopsticks1"])
    assert "bad move 'chopsticks1'" in msg
    msg = broken(["tempura", 3])  # type: ignore[list-item]
    assert "move 2: a move is a string, not a whole number" in msg


SPOON_HANDS = [
    ["spoon4", "temaki", "eel", "eel", "tofu", "egg", "miso_soup", "soy_sauce", "temaki", "salmon"],
    ["tofu", "eel", "temaki", "egg", "squid", "miso_soup", "tofu", "pudding", "temaki", "eel"],
    ["eel", "tofu", "temaki", "salmon", "miso_soup", "squid", "soy_sauce", "tofu", "egg", "temaki"],
]


@pytest.mark.parametrize(("asked", "giver"), [("eel", 1), ("pudding", 2), ("squid", None)])
def test_spoon_moves_derive_the_giver(asked: str, giver: int | None) -> None:
    turns = [
        [["spoon4"], ["tofu"], ["eel"]],
        [["tofu", f"spoon4:{asked}"], ["temaki"], ["squid"]],
    ]
    game = replay_party(record(3, "Cutthroat Combo", SPOON_HANDS, turns), partial=True)
    spoon_move = game.history()[0][1][1][-1]
    assert spoon_move.via == int(C.SPOON4)
    assert spoon_move.giver == (-1 if giver is None else giver)
    kept = [sheet_text(p) for p in game.collection(0)]
    if giver is None:  # nobody had it: the spoon is discarded
        assert kept == ["tofu"]
        assert all(C.SPOON4 not in game.hand(s) for s in range(3))
    else:  # the giver's hand (now passed on) holds the spoon
        assert kept == ["tofu", asked]
        assert C.SPOON4 in game.hand((giver + 1) % 3)
    assert to_party_record(game)["rounds"][0]["turns"] == turns


MENU_HANDS = [
    ["menu7", "temaki", "tempura", "dumpling", "tofu", "egg", "wasabi", "salmon", "temaki", "tempura"],
    ["wasabi", "temaki", "tempura", "dumpling", "tofu", "squid", "egg", "tofu", "dumpling", "green_tea_ice_cream"],
]


def test_menu_move_draws_and_plays() -> None:
    turns = [[["menu7", "menu7:squid,tofu,egg,temaki:squid"], ["wasabi"]]]
    game = replay_party(record(2, "Party Sampler", MENU_HANDS, turns), partial=True)
    assert [sheet_text(p) for p in game.collection(0)] == ["squid"]
    move = game.history()[0][1][0][-1]
    assert move.drawn == (C.SQUID, C.TOFU, C.EGG, C.TEMAKI) and move.action == C.SQUID
    assert to_party_record(game)["rounds"][0]["turns"] == turns
    # menu_card_draw changes how many cards the move lists
    rec = record(2, "Party Sampler", MENU_HANDS, [[["menu7", "menu7:squid,tofu:tofu"], ["wasabi"]]],
                 options={"menu_card_draw": 2})
    assert [sheet_text(p) for p in replay_party(rec, partial=True).collection(0)] == ["tofu"]


@pytest.mark.parametrize(
    ("moves", "needles"),
    [
        (["menu7"], ("round 1, turn 1, seat 0: menu7 draws cards now, but it has no more moves",)),
        (["menu7", "menu8:squid,tofu,egg,temaki:squid"], ("menu7 draws cards now", "'menu8:")),
        (["menu7", "menu7:squid,tofu,egg:squid"], ("impossible menu draw", "draws 4 cards, not 3")),
        (["menu7", "menu7:squid,squid,squid,egg:squid"], ("impossible menu draw", "squid")),
        (["menu7", "menu7:squid,tofu,egg,temaki:dumpling"], ("illegal move", "menu7:")),
        (["menu7", "menu7:squid,tofu,eel,temaki:squid"], ("'eel' is not on this game's menu",)),
        (["menu7", "menu7:squid:tofu,egg,temaki"], ("'menu7:squid:tofu,egg,temaki'",)),
        (["menu7", "menu7:squid,tofu,egg,temaki:squid", "menu7:egg,egg,egg,egg:egg"], ("was never used",)),
    ],
)
def test_broken_menu_moves(moves: list[str], needles: tuple[str, ...]) -> None:
    msg = error_of(record(2, "Party Sampler", MENU_HANDS, [[moves, ["wasabi"]]]))
    assert msg.startswith("round 1, turn 1, seat 0"), msg
    for needle in needles:
        assert needle in msg, msg


TAKEOUT_HANDS = [
    ["temaki", "sashimi", "takeout_box10", "tofu", "egg", "onigiri_circle", "sashimi", "salmon", "temaki", "tofu"],
    ["sashimi", "temaki", "onigiri_square", "tofu", "takeout_box11", "squid", "egg", "temaki", "tofu", "sashimi"],
    ["onigiri_triangle", "tofu", "sashimi", "temaki", "egg", "salmon", "temaki", "tofu", "takeout_box12", "squid"],
]


def takeout_turns(seat0: list[str], seat1: list[str] | None = None) -> list[list[list[str]]]:
    return [
        [["temaki"], ["sashimi"], ["onigiri_triangle"]],
        [["sashimi"], ["tofu"], ["temaki"]],
        [seat0, seat1 or ["takeout_box12"], ["takeout_box10", "takeout_box10:"]],
    ]


def test_takeout_box_moves() -> None:
    rec = record(3, "Master Menu", TAKEOUT_HANDS, takeout_turns(["takeout_box11", "takeout_box11:1,0"]))
    game = replay_party(rec, partial=True)
    assert [sheet_text(p) for p in game.collection(0)] == ["face_down", "face_down"]
    assert [sheet_text(p) for p in game.collection(1)] == ["sashimi", "tofu"]
    assert [sheet_text(p) for p in game.collection(2)] == ["onigiri_triangle", "temaki"]
    moves = [(m.seat, m.via, m.action) for m in game.history()[0][1][2]][3:]
    # number order: box 10 (seat 2) passes, box 11 flips two (then nothing is left), box 12 passes
    assert moves == [(2, 33, PASS), (0, 34, 97 + 1), (0, 34, 97 + 0), (1, 35, PASS)]
    written = to_party_record(game)["rounds"][0]["turns"]
    assert written == takeout_turns(["takeout_box11", "takeout_box11:1,0"], ["takeout_box12", "takeout_box12:"])
    # one flip, then a pass
    game = replay_party(
        record(3, "Master Menu", TAKEOUT_HANDS, takeout_turns(["takeout_box11", "takeout_box11:1"])), partial=True)
    assert [sheet_text(p) for p in game.collection(0)] == ["temaki", "face_down"]
    moves = [(m.seat, m.via, m.action) for m in game.history()[0][1][2]][3:]
    assert moves == [(2, 33, PASS), (0, 34, 97 + 1), (0, 34, PASS), (1, 35, PASS)]


@pytest.mark.parametrize(
    ("moves", "needles"),
    [
        (["takeout_box11", "takeout_box11:5"], ("position 5 can't be flipped", "holds 2 cards")),
        (["takeout_box11", "takeout_box11:0,0"], ("flipped twice",)),
        (["takeout_box11", "takeout_box11:0,x"], ("flip positions are numbers",)),
        (["takeout_box11", "takeout_box11:\u00b2"], ("flip positions are numbers",)),  # a digit, not ASCII
        (["takeout_box11", "takeout_box11:0,1,1"], ("flipped twice",)),
        (["takeout_box11", "takeout_box10:0"], ("'takeout_box10:0' was never used",)),
        (["takeout_box11", "takeout_box13:0"], ("takeout_box cards are numbered 10-12",)),
        (["temaki", "takeout_box11:0"], ("was never used",)),
    ],
)
def test_broken_takeout_moves(moves: list[str], needles: tuple[str, ...]) -> None:
    hands = copy.deepcopy(TAKEOUT_HANDS)
    msg = error_of(record(3, "Master Menu", hands, takeout_turns(moves)))
    assert msg.startswith("round 1, turn 3, seat 0"), msg
    for needle in needles:
        assert needle in msg, msg


def test_takeout_nothing_left_to_flip_message() -> None:
    # three flips asked, only two cards can be flipped
    turns = takeout_turns(["takeout_box11", "takeout_box11:0,1,2"])
    msg = error_of(record(3, "Master Menu", TAKEOUT_HANDS, turns))
    assert msg.startswith("round 1, turn 3, seat 0: illegal move 'takeout_box11:0,1,2': nothing is left"), msg


# ------------------------------------------------------------ broken records


@pytest.fixture(scope="module")
def party_rec() -> dict[str, Any]:
    return to_party_record(random_game(Rules.party(4, "Master Menu"), 17))


def edit(rec: dict[str, Any], fn: Any) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    fn(rec)
    return rec


@pytest.mark.parametrize(
    ("change", "start", "needle"),
    [
        (lambda r: r.pop("format"), "missing key 'format'", ""),
        (lambda r: r.update(edition="partyy"), "edition", "partyy"),
        (lambda r: r.pop("menu"), "edition: 'party' needs the key 'menu'", ""),
        (lambda r: r.update(menu="Nope"), "menu: unknown menu 'Nope'", ""),
        (lambda r: r.update(menu=3), "menu: must be a list", ""),
        (lambda r: r.update(menu=["nigiri", "maki"]), "menu: a menu has 3 appetizers", ""),
        (lambda r: r.update(menu=[1, 2]), "menu", "list of item names"),
        (lambda r: r.update(players=9), "players: Sushi Go Party! is for 2-8 players, not 9", ""),
        (lambda r: r.update(players=2), "menu: spoon can't be used with 2 players", ""),
        (lambda r: r.update(players="4"), "players", "whole number"),
        (lambda r: r.update(options={"turbo": True}), "options", "turbo"),
        (lambda r: r.update(options={"uramaki_split": 5}), "options, uramaki_split", "must be a string"),
        (lambda r: r.update(options={"uramaki_split": "5-5-5"}), "options", "uramaki_split must be one of"),
        (lambda r: r.update(options={"menu_card_draw": 0}), "options", "1 to 8"),
        (lambda r: r.update(options={"menu_card_draw": True}), "options, menu_card_draw", "whole number"),
        (lambda r: r.update(options={"pass_both_ways": True}), "options", "pass_both_ways"),
        (lambda r: r.update(options=[]), "options", "must be an object"),
        (lambda r: r.update(rounds={}), "rounds", "must be a list"),
        (lambda r: r["rounds"].append(r["rounds"][0]), "rounds: a game has 3 rounds", ""),
        (lambda r: r["rounds"].pop(), "the record stops early, after round 2 of 3", ""),
        (lambda r: r["rounds"][1]["turns"].pop(), "round 2: the record stops early, after turn 8 of 9", ""),
        (lambda r: r["rounds"][1]["turns"].append([["egg"]] * 4), "round 2: 10 turns", ""),
        (lambda r: r["rounds"][0].pop("hands"), "round 1: missing key 'hands'", ""),
        (lambda r: r["rounds"][0]["hands"].pop(), "round 1: 3 hands dealt for 4 players", ""),
        (lambda r: r["rounds"][0]["hands"][1].__setitem__(2, "eel"),
         "round 1, hand of seat 1, card 3: 'eel' is not on this game's menu", ""),
        (lambda r: r["rounds"][0]["hands"][1].__setitem__(2, "chopsticks"), "round 1, hand of seat 1, card 3",
         "did you mean 'chopsticks1', 'chopsticks2' or 'chopsticks3'?"),
        (lambda r: r["rounds"][0]["hands"][1].__setitem__(2, "Temaki"), "round 1, hand of seat 1, card 3",
         "did you mean 'temaki'"),
        (lambda r: r["rounds"][0]["hands"][1].__setitem__(2, None), "round 1, hand of seat 1, card 3",
         "not null"),
        (lambda r: r["rounds"][0]["hands"][1].append("egg"), "round 1: impossible deal", "seat 1"),
        (lambda r: [h.__setitem__(i, "takeout_box10") for h in r["rounds"][0]["hands"] for i in range(9)],
         "round 1: impossible deal", "takeout_box10"),
        (lambda r: r["rounds"][0]["turns"][2].pop(), "round 1, turn 3: 3 seats' moves for 4 players", ""),
        (lambda r: r["rounds"][0]["turns"][2].__setitem__(1, []), "round 1, turn 3, seat 1: no pick", ""),
        (lambda r: r["rounds"][0]["turns"][2].__setitem__(1, "egg"), "round 1, turn 3, seat 1", "must be a list"),
        (lambda r: r["rounds"][0]["turns"][2].__setitem__(1, ["pass"]), "round 1, turn 3, seat 1",
         "unknown card 'pass'"),
        (lambda r: r["rounds"][0]["turns"][2].__setitem__(1, ["flip:0"]), "round 1, turn 3, seat 1",
         "unknown card"),
        (lambda r: r["rounds"][0]["turns"][2][1].append("spoon4:egg"), "round 1, turn 3, seat 1",
         "'spoon4:egg' was never used"),
        (lambda r: r["rounds"][0]["turns"][2][1].append("takeout_box12:0"), "round 1, turn 3, seat 1",
         "'takeout_box12:0' was never used"),
        (lambda r: r["result"].update(totals=[0, 0, 0, 0]), "result: the record says totals", ""),
        (lambda r: r.update(result=[1]), "result: must be an object", ""),
    ],
)
def test_broken_records(party_rec: dict[str, Any], change: Any, start: str, needle: str) -> None:
    msg = error_of(edit(party_rec, change))
    assert msg.startswith(start), msg
    assert needle in msg, msg
    if not start.startswith("edition"):
        assert error_of(edit(party_rec, change), replay) == msg  # same through the dispatcher


def test_illegal_pick_names_round_turn_seat(party_rec: dict[str, Any]) -> None:
    rec = copy.deepcopy(party_rec)
    hand = set(rec["rounds"][1]["hands"][2])
    missing = next(c for c in ("egg", "salmon", "squid", "temaki", "tofu", "sashimi") if c not in hand)
    rec["rounds"][1]["turns"][0][2][0] = missing
    msg = error_of(rec)
    assert msg.startswith(f"round 2, turn 1, seat 2: illegal pick '{missing}'"), msg


def test_the_base_path_still_rejects_other_editions(party_rec: dict[str, Any]) -> None:
    msg = error_of(edit(party_rec, lambda r: r.update(edition="deluxe")), replay)
    assert msg.startswith("edition"), msg


MOVE_TEXT = st.sampled_from(
    ["egg", "temaki", "tofu", "sashimi", "fruit_orange2", "spoon4", "takeout_box10", "special_order>egg",
     "spoon4:egg", "spoon5:tofu", "takeout_box10:0", "takeout_box11:", "takeout_box12:0,1", "menu7:egg:egg",
     "chopsticks1:egg", "pass", "", "spoon4:", ":", "flip:0"]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_records_never_crash(party_rec: dict[str, Any], data: st.DataObject) -> None:
    rec = copy.deepcopy(party_rec)
    for _ in range(data.draw(st.integers(1, 3))):
        r = data.draw(st.integers(0, 2))
        t = data.draw(st.integers(0, 8))
        s = data.draw(st.integers(0, 3))
        moves = rec["rounds"][r]["turns"][t][s]
        how = data.draw(st.integers(0, 3))
        if how == 0:
            moves.append(data.draw(MOVE_TEXT))
        elif how == 1 and len(moves) > 1:
            moves.pop()
        elif how == 2:
            moves[data.draw(st.integers(0, len(moves) - 1))] = data.draw(MOVE_TEXT)
        else:
            other = rec["rounds"][r]["turns"][data.draw(st.integers(0, 8))][s]
            rec["rounds"][r]["turns"][t][s] = copy.deepcopy(other)
    try:
        game = replay_party(rec)
    except RecordError as e:
        assert str(e) and "\n" not in str(e)
    else:
        assert game.is_over


# ------------------------------------------------------------- score sheets

SHEET_A = {
    "edition": "party",
    "players": 3,
    "menu": ["nigiri", "uramaki", "eel", "tofu", "miso_soup", "special_order", "wasabi", "pudding"],
    "rounds": [
        [
            ["wasabi", "squid", "special_order>squid", "uramaki5", "uramaki4", "eel", "eel", "pudding"],
            ["salmon", "wasabi", "special_order>salmon+wasabi", "tofu", "tofu", "miso_soup", "uramaki3"],
            ["egg", "eel", "pudding", "pudding", "uramaki3"],
        ],
        [
            ["tofu", "special_order>tofu", "miso_soup", "pudding"],
            ["eel", "uramaki5"],
            ["uramaki4", "uramaki3", "wasabi"],
        ],
        [
            ["egg", "wasabi", "egg", "egg"],
            ["pudding", "pudding", "pudding", "uramaki4"],
            ["uramaki4", "miso_soup"],
        ],
    ],
    "uramaki": [[0, 0, 8], [0, 8, 5], [0, 0, 0]],
}
"""Worked by hand:

Round 1.  Seat 0: squid on wasabi 9 + copied squid (not on wasabi) 3 = 12
nigiri; 2 eels 7; 9 uramaki icons left, the most, after seat 2 took 8 in the
race: 5.  Total 24.  Seat 1: salmon 2 (no wasabi before it) + copied salmon
on wasabi 6 = 8; 2 tofu 6; miso 3.  Total 17.  Seat 2: egg 1, 1 eel -3,
race 8.  Total 6.

Round 2.  Seat 0: tofu + copied tofu = 2 tofu 6, miso 3: 9.  Seat 1: 1 eel -3,
race 8: 5.  Seat 2: race 5, then the most icons left (7) take the third
place, 2: 7.

Round 3.  Seat 0: egg 1 + egg on wasabi 3 + egg 1 = 5.  Seats 1 and 2 tie
with 4 icons left: 8 each, plus miso 3 for seat 2: 8 and 11.

Puddings 2, 3, 2: +6 for seat 1, -6 for seats 0 and 2.
Totals 24+9+5-6 = 32, 17+5+8+6 = 36, 6+7+11-6 = 18.
"""

SHEET_B = {
    "edition": "party",
    "players": 4,
    "menu": "Master Menu",
    "rounds": [
        [
            ["temaki", "temaki", "face_down", "face_down", "sashimi", "fruit_watermelon2"],
            ["onigiri_circle", "onigiri_square", "onigiri_circle", "temaki", "squid", "spoon4"],
            ["sashimi", "sashimi", "sashimi", "tofu", "egg"],
            ["tofu", "tofu", "tofu", "face_down"],
        ]
    ],
}
"""Worked by hand: temaki 2/1/0/0 -> +4, 0, -4, -4.  Seat 0: two face-down
cards 4: 8.  Seat 1: squid 3, onigiri {circle, square} 4 + {circle} 1: 8.
Seat 2: egg 1, three sashimi 10, one tofu 2: 9.  Seat 3: three tofu 0, a
face-down card 2: -2.  Desserts wait for round 3."""


def test_hand_worked_sheet_with_uramaki_wasabi_and_special_orders() -> None:
    result = party_score_sheet(SHEET_A)
    assert result.breakdown[0] == (
        {"nigiri": 12, "uramaki": 5, "eel": 7, "tofu": 0, "miso_soup": 0},
        {"nigiri": 8, "uramaki": 0, "eel": 0, "tofu": 6, "miso_soup": 3},
        {"nigiri": 1, "uramaki": 8, "eel": -3, "tofu": 0, "miso_soup": 0},
    )
    assert result.rounds == ((24, 17, 6), (9, 5, 7), (5, 8, 11))
    assert result.desserts == ({"pudding": -6}, {"pudding": 6}, {"pudding": -6})
    assert result.dessert_cards == (2, 3, 2)
    assert result.pudding == (-6, 6, -6)
    assert result.totals == (32, 36, 18)
    assert result.winners == (1,)
    assert score_sheet(SHEET_A) == result  # the generic entry point dispatches


def test_hand_worked_sheet_with_face_down_cards_and_temaki() -> None:
    result = party_score_sheet(SHEET_B)
    assert result.breakdown[0] == (
        {"nigiri": 0, "temaki": 4, "sashimi": 0, "tofu": 0, "onigiri": 0, "takeout_box": 4},
        {"nigiri": 3, "temaki": 0, "sashimi": 0, "tofu": 0, "onigiri": 5, "takeout_box": 0},
        {"nigiri": 1, "temaki": -4, "sashimi": 10, "tofu": 2, "onigiri": 0, "takeout_box": 0},
        {"nigiri": 0, "temaki": -4, "sashimi": 0, "tofu": 0, "onigiri": 0, "takeout_box": 2},
    )
    assert result.to_json()["totals"] == [8, 8, 9, -2]
    assert result.pudding == (0, 0, 0, 0) and result.dessert_cards == (1, 0, 0, 0)
    assert result.winners == (2,)


def test_docs_example_sheet_scores_as_documented() -> None:
    text = DOCS.read_text()
    section = text[text.index("## Sushi Go Party! records"):]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    sheet = next(json.loads(b) for b in blocks if '"uramaki"' in b and '"rounds": [\n' in b)
    result = next(json.loads(b) for b in blocks if b.lstrip().startswith('{"rounds"'))
    assert sheet == SHEET_A
    out = party_score_sheet(sheet).to_json()
    assert {k: out[k] for k in result} == result


def _sheet_of(game: PartyGame, with_race: bool) -> dict[str, Any]:
    sheet: dict[str, Any] = {
        "edition": "party", "players": game.players, "menu": list(game.rules.menu),
        "options": game.rules.options(),
        "rounds": [[[sheet_text(p, col) for p in col] for col in game.round_collections(r)] for r in (1, 2, 3)],
    }
    if with_race:
        sheet["uramaki"] = game.round_race_points
    return sheet


def _sheet_games() -> list[PartyGame]:
    rng = random.Random(77)
    games = []
    for menu in OFFICIAL_MENUS:
        for players in (2, 4, 7):
            rules = allowed(players, menu)
            if rules is not None:
                game = PartyGame(rules, seed=players)
                game.random_playout(random.Random(players))
                games.append(game)
    while len(games) < 40:
        items = random_menu(rng)
        rules = allowed(rng.randint(2, 8), items)
        if rules is not None:
            game = PartyGame(rules, seed=len(games))
            game.random_playout(random.Random(len(games)))
            games.append(game)
    return games


def test_sheets_of_played_games_score_like_the_engine() -> None:
    """The collections of a played game, written as a score sheet (with the
    uramaki race points), score exactly as the engine scored the game."""
    for game in _sheet_games():
        uramaki = "uramaki" in game.rules.menu
        result = party_score_sheet(json.loads(json.dumps(_sheet_of(game, uramaki))))
        assert result == game.result(), game.rules.menu




def test_sheets_with_flipped_wasabi_or_nigiri_score_like_the_engine() -> None:
    """Games where takeout boxes flip wasabi and nigiri on them: written with
    ``face_down+wasabi`` and ``NIGIRI+face_down``, their sheets score as the engine."""
    seen: Counter[str] = Counter()
    menus = ["maki, tempura, sashimi, dumpling, takeout box, wasabi, pudding",
             "uramaki, tofu, eel, onigiri, takeout box, wasabi, fruit",
             "temaki, tempura, eel, tofu, takeout box, wasabi, green tea ice cream"]
    seed = 0
    while min(seen["face_down+wasabi"], seen["+face_down"]) < 10:
        seed += 1
        assert seed < 2000, f"too few flipped wasabi in 2000 games: {dict(seen)}"
        rules = Rules.party(2 + seed % 5, menus[seed % 3])
        game = PartyGame(rules, seed=seed)
        game.random_playout(random.Random(seed))
        sheet = _sheet_of(game, "uramaki" in rules.menu)
        texts = [t for rnd in sheet["rounds"] for col in rnd for t in col]
        if not any("+" in t and "face_down" in t for t in texts):
            continue
        seen.update("face_down+wasabi" if t == "face_down+wasabi" else "+face_down"
                    for t in texts if t == "face_down+wasabi" or t.endswith("+face_down"))
        assert party_score_sheet(json.loads(json.dumps(sheet))) == game.result(), sheet


def test_engine_uramaki_round_end_award_counted_once() -> None:
    """Regression: the engine once added the round-end uramaki award twice."""
    game = PartyGame(Rules.party(3, "Points Platter"), seed=0)
    game.random_playout(random.Random(0))
    assert party_score_sheet(_sheet_of(game, True)) == game.result()


@pytest.mark.parametrize(
    ("change", "start", "needle"),
    [
        (lambda d: d.update(players=1), "players", "2-8"),
        (lambda d: d.pop("menu"), "edition: 'party' needs the key 'menu'", ""),
        (lambda d: d.update(edition="base"), "edition: expected 'party'", ""),
        (lambda d: d.update(rounds=[]), "rounds: a score sheet has 1 to 3 rounds, not 0", ""),
        (lambda d: d["rounds"].append(d["rounds"][0]), "rounds: a score sheet has 1 to 3 rounds, not 4", ""),
        (lambda d: d["rounds"][1].pop(), "round 2: 2 collections for 3 players", ""),
        (lambda d: d["rounds"][1][2].append("tempura"), "round 2, seat 2, card 4: 'tempura' is not on", ""),
        (lambda d: d["rounds"][1][2].append("face_down"), "round 2, seat 2, card 4: face_down cards", ""),
        (lambda d: d["rounds"][1][2].append("special_order>face_down"), "round 2, seat 2, card 4: face_down", ""),
        (lambda d: d["rounds"][1][2].append("special_order>egg+tofu"), "round 2, seat 2, card 4", "special order"),
        (lambda d: d["rounds"][1][2].append("special_order>tofu+wasabi"), "round 2, seat 2, card 4", "wasabi"),
        (lambda d: d["rounds"][1][2].append(7), "round 2, seat 2, card 4", "not a whole number"),
        (lambda d: d["rounds"][1][0].insert(0, "special_order>egg+wasabi"), "round 2, seat 0, card 1",
         "no empty wasabi is listed before it"),
        (lambda d: d["rounds"][1][0].extend(["egg"] * 7), "round 2, seat 0: 11 cards", "holds 10"),
        (lambda d: d["rounds"][0][2].extend(["wasabi", "wasabi"]),
         "round 1, seat 2: 2 wasabi cards here make 4 in this round, but the box holds 3", ""),
        (lambda d: d["rounds"][0][2].extend(["special_order"] * 2),
         "round 1, seat 2: 2 special_order cards here make 4", ""),
        (lambda d: d["rounds"][0][2].extend(["pudding"] * 3),
         "round 1, seat 2: 5 pudding cards here make 6 kept so far", "only 5 entered"),
        (lambda d: [c.extend(["pudding"] * 3) for c in d["rounds"][2]],
         "round 3, seat 1: 6 pudding cards here make 13 kept so far", "only 10 entered"),
        (lambda d: d["rounds"][2][0].extend(["pudding"] * 4), "round 3, seat 1: 3 pudding cards here make 11 kept",
         "only 10 entered"),
        (lambda d: d.update(uramaki=[[0, 0, 8]]), "uramaki: 1 rounds of race points for 3 rounds", ""),
        (lambda d: d["uramaki"].__setitem__(1, [0, 8]), "uramaki, round 2: 2 seats' points for 3 players", ""),
        (lambda d: d["uramaki"].__setitem__(1, [0, 8, 3]), "uramaki, round 2, seat 2: 3 uramaki race points", ""),
        (lambda d: d["uramaki"].__setitem__(1, [0, 5, 0]), "uramaki, round 2, seat 1: 5 race points", "never reached"),
        (lambda d: d["uramaki"].__setitem__(1, [8, 8, 5]), "uramaki, round 2, seat 2: 5 race points", "taken by a tie"),
        (lambda d: d["uramaki"].__setitem__(1, [0, 8, "5"]), "uramaki, round 2, seat 2", "whole number"),
        (lambda d: d.update(uramaki={}), "uramaki: the uramaki race points must be a list", ""),
        (lambda d: d.update(options={"uramaki_split": "3-5-4", "x": 1}), "options: unknown rule option 'x'", ""),
    ],
)
def test_broken_sheets(change: Any, start: str, needle: str) -> None:
    msg = error_of(edit(SHEET_A, change), party_score_sheet)
    assert msg.startswith(start), msg
    assert needle in msg, msg


def test_sheet_uramaki_key_needs_uramaki_on_the_menu() -> None:
    sheet = dict(SHEET_B, uramaki=[[0, 0, 0, 0]])
    assert error_of(sheet, party_score_sheet) == "uramaki: this menu has no uramaki"


def test_sheet_uramaki_ties_and_multiple_places() -> None:
    # seats 0 and 1 tie for first (8 each, second place skipped), seat 2 gets third
    sheet = {"edition": "party", "players": 3, "menu": "Points Platter",
             "rounds": [[["uramaki3"], [], ["uramaki3"]]], "uramaki": [[8, 8, 2]]}
    assert [line["uramaki"] for line in party_score_sheet(sheet).breakdown[0]] == [8, 8, 2]
    # one seat took first and second place, then ties for the most icons left: third place too
    sheet["uramaki"] = [[13, 0, 0]]
    assert [line["uramaki"] for line in party_score_sheet(sheet).breakdown[0]] == [15, 0, 2]
    sheet["uramaki"] = [[0, 0, 0]]
    assert [line["uramaki"] for line in party_score_sheet(sheet).breakdown[0]] == [8, 0, 8]


def test_sheet_uramaki_split_option_changes_box_counts() -> None:
    sheet: dict[str, Any] = {"edition": "party", "players": 4, "menu": "Points Platter",
                             "rounds": [[["uramaki4"] * 2, ["uramaki4"] * 2, ["uramaki4"], []]]}
    assert error_of(sheet, party_score_sheet) == ("round 1, seat 2: 1 uramaki4 card here makes 5 in this round, "
                                                  "but the box holds 4")
    for split in ("4-5-3", "3-5-4"):
        sheet["options"] = {"uramaki_split": split}
        assert party_score_sheet(sheet).rounds
    sheet["rounds"][0][3] = ["uramaki4"]
    assert error_of(sheet, party_score_sheet) == ("round 1, seat 3: 1 uramaki4 card here makes 6 in this round, "
                                                  "but the box holds 5")


def test_sheet_two_player_pudding_penalty_option() -> None:
    rounds = [[["pudding"], []], [[], []], [[], []]]
    sheet = {"edition": "party", "players": 2, "menu": "Sushi Go!", "rounds": rounds}
    assert party_score_sheet(sheet).pudding == (6, 0)
    sheet["options"] = {"two_player_pudding_penalty": True}
    assert party_score_sheet(sheet).pudding == (6, -6)


def test_sheet_wasabi_colour_option() -> None:
    # tea: wasabi + squid + egg make one colour group of 3 (default) or a wasabi and a nigiri group of 2
    rounds = [[["tea", "wasabi", "squid", "egg"], ["tea", "tempura", "tempura"]]]
    sheet = {"edition": "party", "players": 2, "menu": "My First Meal", "rounds": rounds}
    assert [b["tea"] for b in party_score_sheet(sheet).breakdown[0]] == [3, 2]
    sheet["options"] = {"wasabi_colour": "own"}
    assert [b["tea"] for b in party_score_sheet(sheet).breakdown[0]] == [2, 2]
    sheet["options"] = {"wasabi_colour": "green"}
    assert error_of(sheet, party_score_sheet) == "options: wasabi_colour must be one of nigiri, own, not 'green'"
    sheet["options"] = {"wasabi_colour": 1}
    assert error_of(sheet, party_score_sheet).startswith("options, wasabi_colour: ")


def test_an_old_record_scored_with_wasabi_of_its_own_is_told_how_to_replay() -> None:
    """Records written before the option existed lack the key: replay reads the default
    ("nigiri"); when that changes the recorded result, the error says what to add."""
    for seed in range(200):
        game = random_game(Rules.party(4, "My First Meal", wasabi_colour="own"), seed)
        unscored = {k: v for k, v in to_party_record(game).items() if k not in ("result", "options")}
        if replay_party(unscored).result() != game.result():
            break
    else:
        pytest.fail("no game of 200 where the wasabi colour changes the result")
    old = to_party_record(game)
    del old["options"]["wasabi_colour"]
    message = error_of(old, replay_party)
    assert message.startswith("result: the record says ")
    assert message.endswith('(records written by sushigo 0.4 and earlier counted wasabi as a colour of its own: '
                            'add "wasabi_colour": "own" to its options)')
    old["options"]["wasabi_colour"] = "own"
    assert replay_party(old).result() == game.result()

def test_sheet_menu_restrictions() -> None:
    sheet = {"edition": "party", "players": 8, "menu": "Party Sampler", "rounds": [[[]] * 8]}
    assert error_of(sheet, party_score_sheet) == "menu: the Menu card can't be used with 7-8 players"
    assert RESTRICTIONS["menu"] == (7, 8)


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20)
    | st.sampled_from(["egg", "face_down", "special_order>egg+wasabi", "uramaki5", "pudding", "Sushi Go!",
                       "Points Platter", "party", "tofu", "wasabi"]),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(
        st.sampled_from(["edition", "players", "menu", "rounds", "uramaki", "options"]), kids, max_size=6),
    max_leaves=30,
))
def test_arbitrary_sheets_never_crash(data: Any) -> None:
    if isinstance(data, dict):
        data = {**data, "edition": "party"}
    for fn in (party_score_sheet, score_sheet, replay):
        try:
            fn(data)
        except RecordError as e:
            assert str(e) and "\n" not in str(e)
