"""Party round explanations say what the game scored (src/sushigo/engine/party/explain.py)."""

from __future__ import annotations

import random

import pytest

from sushigo.engine.menus import OFFICIAL_MENUS, MenuError, check_menu, parse_menu
from sushigo.engine.messages import render
from sushigo.engine.party.explain import explain_party_round
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import Rules


def _games(menu: str, seeds: int) -> list[PartyGame]:
    games = []
    for players in range(2, 9):
        try:
            check_menu(parse_menu(menu), players)
        except MenuError:
            continue
        for seed in range(seeds):
            game = PartyGame(Rules.party(players, menu), seed=seed)
            game.random_playout(random.Random(seed))
            games.append(game)
    return games


@pytest.mark.parametrize("menu", sorted(OFFICIAL_MENUS))
def test_every_figure_is_the_games_points(menu: str) -> None:
    for game in _games(menu, 6):
        for r in (1, 2, 3):
            story = explain_party_round(game, r)
            lines = game.round_breakdowns[r - 1]
            assert len(story.figures) == game.players
            for seat, (figures, line) in enumerate(zip(story.figures, lines)):
                got = {f.category: f.points for f in figures}
                assert set(got) <= set(line), (seat, got)
                for key, points in line.items():
                    assert got.get(key, 0) == points, (menu, game.players, r, seat, key)
                for f in figures:
                    assert f.text.endswith(f" {f.points}") or f.category == "uramaki", f.text
            rolls = [item for item in ("maki", "temaki", "uramaki") if item in game.rules.menu]
            assert len(story.races) == len(rolls)


def test_sentences_of_a_known_game() -> None:
    game = PartyGame(Rules.party(4, "Cutthroat Combo"), seed=5)
    game.random_playout(random.Random(5))
    story = explain_party_round(game, 2)
    texts = [[f.text for f in seat] for seat in story.figures]
    assert texts[1] == ["salmon 2: 2", "3 temaki: neither the most nor the fewest, 0", "2 eels: 7", "1 tofu: 2",
                        "2 miso soups kept: 6"]
    assert "3 soy sauce, 6 colours (the most): 12" in texts[2]
    assert [render(r) for r in story.races] == ["temaki cards 4, 3, 0, 2: 4, 0, -4, 0"]
    with pytest.raises(ValueError, match="has not been scored"):
        explain_party_round(PartyGame(Rules.party(3, "Master Menu"), seed=1), 1)


@pytest.mark.parametrize("menu", ["Cutthroat Combo", "Party Sampler", "Master Menu"])
def test_desserts_are_explained_with_the_points_the_result_gives(menu: str) -> None:
    from sushigo.engine.party.cards import FRUIT_ICONS
    from sushigo.engine.party.explain import FRUITS, explain_desserts

    for players in (3, 4, 6):
        for seed in range(15):
            game = PartyGame(Rules.party(players, menu), seed=seed)
            game.random_playout(random.Random(seed))
            figures = explain_desserts(game)
            result = game.result()
            assert [f.points for f in figures] == list(result.pudding)
            assert [f.count for f in figures] == list(result.dessert_cards)
            for f, kept in zip(figures, game.desserts):
                assert f.text.endswith(f", {f.points}")
                if menu == "Master Menu":  # fruit: each fruit's icons, counted here from the cards' icons
                    for i, fruit in enumerate(FRUITS):
                        icons = sum(FRUIT_ICONS[c][i] for c in kept)
                        assert f"{fruit} {icons} (" in f.text


@pytest.mark.parametrize("item", ["pudding", "green_tea_ice_cream", "fruit"])
def test_every_dessert_count_is_explained_with_the_scorer_s_points(item: str) -> None:
    """Hand-made dessert piles of 0 to 12 cards (random games rarely keep 8 green tea
    ice creams): each figure's points equal score_desserts', its count the cards."""
    from sushigo.engine.party.cards import DESSERT_IDS, ITEM_OF, PartyCard
    from sushigo.engine.party.explain import dessert_figures
    from sushigo.engine.party.scoring import score_desserts

    cards = [int(c) for c in PartyCard if int(c) in DESSERT_IDS and ITEM_OF[c] == item]
    rng = random.Random(7)
    for players in (2, 3, 5):
        for _ in range(200):
            piles = [[rng.choice(cards) for _ in range(rng.randrange(13))] for _ in range(players)]
            for penalty in (False, True):
                figures = dessert_figures(piles, item, penalty)
                scored = score_desserts(piles, item, penalty)
                assert [f.points for f in figures] == [s[item] for s in scored]
                assert [f.count for f in figures] == [len(p) for p in piles]
                assert all(f.category == item and f.text.endswith(f", {f.points}") for f in figures)
