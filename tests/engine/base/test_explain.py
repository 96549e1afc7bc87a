"""The round explanations say what score_round scores (src/sushigo/engine/base/explain.py)."""

from __future__ import annotations

import random

import pytest

from sushigo import Card as C
from sushigo import Game
from sushigo.engine.base.explain import explain_collection, explain_puddings, explain_round
from sushigo.engine.base.scoring import score_round
from sushigo.engine.messages import from_json, render


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_figure_is_the_engines_points_in_random_games(players: int) -> None:
    rng = random.Random(players)
    for _ in range(60):
        game = Game(players, seed=rng.randrange(2**32))
        game.random_playout(rng)
        for r in range(1, 4):
            cols = game.round_collections(r)
            story = explain_round(cols)
            for seat, (figures, line) in enumerate(zip(story.figures, score_round(cols))):
                got = {f.category: f.points for f in figures}
                for category, points in line.items():
                    assert got.get(category, 0) == points, (seat, category, cols[seat])
                kinds = {"tempura": [C.TEMPURA], "sashimi": [C.SASHIMI], "dumpling": [C.DUMPLING],
                         "nigiri": [C.EGG, C.SALMON, C.SQUID, C.WASABI], "maki": [C.MAKI1, C.MAKI2, C.MAKI3]}
                present = {k for k, cards in kinds.items() if any(c in cols[seat] for c in cards)}
                assert set(got) == present
                for f in figures:
                    assert f.text.endswith(f" {f.points}")
            race = render(story.races[0])
            assert race.startswith("maki icons") or "nobody" in race


@pytest.mark.parametrize(("cards", "text"), [
    ([C.SASHIMI] * 3, "3 sashimi: 1 set of three, 10"),
    ([C.SASHIMI] * 2, "2 sashimi: no set of three, 0"),
    ([C.SASHIMI] * 7, "7 sashimi: 2 sets of three, 20"),
    ([C.TEMPURA], "1 tempura: no pair, 0"),
    ([C.TEMPURA] * 5, "5 tempura: 2 pairs, 10"),
    ([C.DUMPLING] * 6, "6 dumplings: 15"),
    ([C.SALMON, C.WASABI, C.SQUID, C.WASABI], "salmon 2, squid on wasabi 9, 1 wasabi left empty: 11"),
    ([C.WASABI], "1 wasabi left empty: 0"),
])
def test_sentences_worked_by_hand(cards: list[int], text: str) -> None:
    assert [f.text for f in explain_collection(cards)] == [text]


def test_maki_race_sentences() -> None:
    tie = explain_round([[C.MAKI3, C.MAKI1], [C.MAKI2, C.MAKI2], [C.MAKI1]])
    assert render(tie.races[0]) == "maki icons 4, 4, 1: 3, 3, 0"
    assert [f.text for f in tie.figures[0]] == ["4 maki icons: tied for the most with 1 other, 3"]
    assert [f.text for f in tie.figures[2]] == ["1 maki icon: no award, 0"]
    second = explain_round([[C.MAKI3], [C.MAKI2], [C.MAKI2], [C.MAKI2], []])
    assert [f.text for f in second.figures[1]] == ["2 maki icons: tied for second with 2 others, 1"]
    assert second.figures[4] == ()
    assert render(explain_round([[C.EGG], [C.PUDDING]]).races[0]) == "nobody has a maki roll: no maki points"


def test_puddings_and_json() -> None:
    assert render(explain_puddings([2, 2, 0, 0, 0])) == "puddings 2, 2, 0, 0, 0: +3, +3, -2, -2, -2"
    assert render(explain_puddings([1, 1, 1])) == "puddings 1, 1, 1: everyone has the same, no pudding points"
    story = explain_round([[C.TEMPURA, C.TEMPURA], [C.MAKI1]])
    data = story.to_json()
    for seat in data["figures"]:
        for f in seat:
            assert render(from_json(f.pop("msg"))) == f["text"]
    assert [render(from_json(r)) for r in data.pop("races_msg")] == data["races"]
    assert data == {
        "figures": [[{"category": "tempura", "count": 2, "points": 5, "text": "2 tempura: 1 pair, 5"}],
                    [{"category": "maki", "count": 1, "points": 6, "text": "1 maki icon: the most, 6"}]],
        "races": ["maki icons 0, 1: 0, 6"],
    }
