"""The scorekeeper's view of a score sheet (sushigo.engine.sheets): the same
result as ``sushigo score``, explanations that add up, and entries (counts of
what the table sees) that write back to a sheet scoring the same."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sheet_samples import base_sheet, party_sheet, random_sheet
from sushigo.engine.editions import score_sheet
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.records import RecordError
from sushigo.engine.rules import Rules
from sushigo.engine.sheets import entry_of, explain_sheet, palette, setup, sheet_rules, where_of


def rebuilt(data: dict[str, Any], story: dict[str, Any]) -> dict[str, Any]:
    """The sheet the scorekeeper page writes from the entries' counts: each
    entry's tokens, ordered by rank (what static/scorekeeper.js does)."""
    rounds = []
    for rnd in story["rounds"]:
        cols = []
        for counts in rnd["entries"]:
            entries = sorted((entry_of(k) for k in counts), key=lambda e: e.rank)
            cols.append([t for e in entries for _ in range(counts[e.key]) for t in e.tokens])
        rounds.append(cols)
    return {**data, "rounds": rounds}


def test_explained_sheets_score_as_sushigo_score_and_figures_add_up() -> None:
    rng = random.Random(2026)
    for _ in range(600):
        data = random_sheet(rng)
        story = explain_sheet(data)
        result = score_sheet(data).to_json()
        assert story["result"] == result
        for r, rnd in enumerate(story["rounds"]):
            for s, figures in enumerate(rnd["figures"]):
                assert sum(f["points"] for f in figures) == result["rounds"][r][s], (data, r, s)
                assert all(f["text"] for f in figures)
        if len(data["rounds"]) == 3:
            assert story["end"]["winners"]
            if data.get("edition") == "party":
                assert [f["points"] for f in story["end"]["figures"]] == result["pudding"]
        else:
            assert story["end"] is None


def test_entries_write_back_to_a_sheet_that_scores_the_same() -> None:
    """Counts lose the order of play; the ranks put every nigiri back where it sat."""
    rng = random.Random(7)
    forms = set()
    for _ in range(600):
        data = random_sheet(rng)
        story = explain_sheet(data)
        again = rebuilt(data, story)
        assert score_sheet(again).to_json() == story["result"]
        twice = explain_sheet(again)["rounds"]
        assert [r["entries"] for r in twice] == [r["entries"] for r in story["rounds"]]
        # the same points per category (a nigiri sentence lists the nigiri in the sheet's order)
        assert ([[[(f["category"], f["points"]) for f in seat] for seat in r["figures"]] for r in twice]
                == [[[(f["category"], f["points"]) for f in seat] for seat in r["figures"]] for r in story["rounds"]])
        forms.update(k for rnd in story["rounds"] for seat in rnd["entries"] for k in seat if " " in k)
    assert {"wasabi egg", "wasabi squid"} <= forms


def test_played_games_score_as_the_engine_scored_them() -> None:
    rng = random.Random(3)
    for _ in range(100):
        data, game = base_sheet(rng)
        story = explain_sheet(data)
        played = [list(r) for r in game.result().rounds][:len(data["rounds"])]
        assert story["result"]["rounds"] == played
        data, pgame = party_sheet(rng)
        story = explain_sheet(data)
        assert story["result"]["rounds"] == [list(r) for r in pgame.result().rounds][:len(data["rounds"])]


def test_the_palette_offers_every_entry_a_played_game_leaves() -> None:
    """Whatever a table can have in front of a seat has a button on the scorekeeper."""
    rng = random.Random(11)
    for _ in range(400):
        data = random_sheet(rng)
        offered = {e.key for e in palette(sheet_rules(data))}
        for rnd in explain_sheet(data)["rounds"]:
            for seat in rnd["entries"]:
                assert set(seat) <= offered, (data.get("menu"), set(seat) - offered)


def test_every_entry_of_every_official_menu_is_a_legal_collection() -> None:
    for menu in OFFICIAL_MENUS:
        players = 2 if menu == "Dinner for Two" else 4
        rules = Rules.party(players, menu)
        for entry in palette(rules):
            data = {"edition": "party", "players": players, "menu": menu,
                    "rounds": [[list(entry.tokens)] + [[]] * (players - 1)]}
            story = explain_sheet(data)
            assert story["rounds"][0]["entries"][0] == {entry.key: 1}, (menu, entry)
            assert entry_of(entry.key).label == entry.label


def test_hand_worked_base_sheet() -> None:
    data = {"players": 3, "rounds": [
        [["wasabi", "squid", "egg", "maki3", "maki2"], ["maki3", "tempura", "tempura"], ["sashimi"] * 3],
        [["pudding", "pudding"], ["pudding"], ["dumpling"] * 3],
        [["maki1"], ["maki1", "wasabi"], []]]}
    story = explain_sheet(data)
    assert [f["text"] for f in story["rounds"][0]["figures"][0]] == [
        "squid on wasabi 9, egg 1: 10", "5 maki icons: the most, 6"]
    assert [f["text"] for f in story["rounds"][0]["figures"][1]] == [
        "2 tempura: 1 pair, 5", "3 maki icons: second, 3"]
    assert story["rounds"][0]["entries"][0] == {"wasabi squid": 1, "egg": 1, "maki3": 1, "maki2": 1}
    assert story["result"]["totals"] == [16 + 6 + 3, 8 + 0 + 3, 10 + 6 - 6]
    assert story["end"]["lines"] == ["puddings 2, 1, 0: +6, 0, -6"]
    assert story["end"]["winners"] == "{0} wins with 25 points."


def test_tie_broken_by_desserts_is_said_in_words() -> None:
    data = {"players": 3, "rounds": [[["tempura", "tempura", "pudding"], ["tempura", "tempura"] + ["dumpling"] * 3, []],
                                      [[], ["pudding"], []], [["pudding"], [], []]]}
    story = explain_sheet(data)
    assert story["result"]["totals"] == [11, 11, -6]
    assert story["end"]["winners"] == "{0} and {1} tied on 11 points; the tie goes to the most puddings: {0} wins."


@pytest.mark.parametrize("data, where", [
    ({"players": 2, "rounds": [[["egg"] * 11, []]]}, {"round": 1, "seat": 0}),
    ({"players": 2, "rounds": [[["egg"], ["salmon", "tofu"]]]}, {"round": 1, "seat": 1}),
    ({"edition": "party", "players": 2, "menu": "Sushi Go!", "rounds": [[["tofu"], []]]}, {"round": 1, "seat": 0}),
    ({"edition": "party", "players": 3, "menu": "Master Menu",
      "rounds": [[["special_order>squid+wasabi"], [], []]]}, {"round": 1, "seat": 0}),
    # too many copies: named at the seat whose cards pass what the box (a round) or the deck (all rounds) holds,
    # counting the seats in order, round by round
    ({"edition": "party", "players": 2, "menu": "Sushi Go!", "rounds": [[["tempura"] * 8, ["tempura"] * 7]]},
     {"round": 1, "seat": 1}),
    ({"players": 2, "rounds": [[["squid"] * 3, []], [["squid"] * 3, []], [["squid"] * 3, ["squid"]]]},
     {"round": 2, "seat": 0}),
    ({"players": 3, "rounds": [[["wasabi"] * 2, ["wasabi"] * 2, []], [[], ["wasabi"], ["wasabi"] * 2]]},
     {"round": 2, "seat": 2}),
    # desserts: more of one fruit than the box holds, more kept than were shuffled in so far
    ({"edition": "party", "players": 3, "menu": "Master Menu",
      "rounds": [[["fruit_orange2"], [], ["fruit_orange2"] * 2]]}, {"round": 1, "seat": 2}),
    ({"edition": "party", "players": 3, "menu": "Sushi Go!",
      "rounds": [[["pudding"] * 2, ["pudding"] * 3, []], [["pudding"] * 2, ["pudding"] * 2, []]]},
     {"round": 2, "seat": 1}),
    # race points: the seat that claims a place nobody reached or a tie took
    ({"edition": "party", "players": 3, "menu": "Points Platter", "rounds": [[[], [], []]],
      "uramaki": [[0, 0, 5]]}, {"round": 1, "seat": 2}),
    ({"edition": "party", "players": 3, "menu": "Points Platter", "rounds": [[[], [], []]],
      "uramaki": [[8, 8, 5]]}, {"round": 1, "seat": 2}),
])
def test_errors_say_where(data: dict[str, Any], where: dict[str, int]) -> None:
    """Every impossible entry is named at its round and seat (the scorekeeper
    shows it at that player); the line says how many of the seat's own cards
    pass the limit."""
    with pytest.raises(RecordError) as info:
        explain_sheet(data)
    assert where_of(info.value) == where
    assert "\n" not in str(info.value)


def test_too_many_copies_says_how_many_at_the_seat() -> None:
    base = {"players": 3, "rounds": [[["wasabi"] * 2, ["wasabi"] * 2, []], [[], ["wasabi"], ["wasabi"] * 2]]}
    with pytest.raises(RecordError, match=r"^round 2, seat 2: 2 wasabi cards here make 7 in all rounds, "
                                          r"but the deck holds 6$"):
        explain_sheet(base)
    party = {"edition": "party", "players": 3, "menu": "Sushi Go!",
             "rounds": [[["squid"] * 2, ["egg"], ["squid"] * 2]]}
    with pytest.raises(RecordError, match=r"^round 1, seat 2: 2 squid cards here make 4 in this round, "
                                          r"but the box holds 3$"):
        explain_sheet(party)
    puddings = {"edition": "party", "players": 3, "menu": "Sushi Go!",
                "rounds": [[["pudding"] * 2, ["pudding"] * 3, []], [["pudding"] * 2, ["pudding"] * 2, []]]}
    with pytest.raises(RecordError, match=r"^round 2, seat 1: 2 pudding cards here make 9 kept so far, "
                                          r"but only 8 entered the deck$"):
        explain_sheet(puddings)


def test_setup_of_each_edition() -> None:
    base = setup({"players": 5})
    assert base["hand_size"] == 7 and base["menu"] is None and not base["race"]
    assert [d["item"] for d in base["dishes"]][:2] == ["tempura", "sashimi"] or base["dishes"]
    party = setup({"edition": "party", "players": 6, "menu": "Big Banquet"})
    assert party["race"] == ("uramaki" in party["menu"])
    assert {e["group"] for e in party["entries"]} <= set(party["menu"])
    with pytest.raises(RecordError):
        setup({"edition": "party", "players": 9, "menu": "Big Banquet"})
