"""The story of a game (sushigo.engine.narration and both editions' narrators),
checked against the game's own record over many random games of both editions."""

from __future__ import annotations

import random
import re

import pytest

from sushigo.engine.base.cards import CARD_LABELS
from sushigo.engine.editions import narrator, new_game, story_of, to_record
from sushigo.engine.menus import OFFICIAL_MENUS, menu_name
from sushigo.engine.narration import Line, lines_seen_by
from sushigo.engine.party.actions import PASS, flip_position
from sushigo.engine.party.cards import CHOPSTICKS_IDS, MENU_IDS, PARTY_LABELS, SPOON_IDS, TAKEOUT_IDS, PartyCard
from sushigo.engine.rules import Rules, RulesError


def _party_tables() -> list[Rules]:
    out = []
    for menu in OFFICIAL_MENUS:
        for n in (2,) if menu == "Dinner for Two" else (3, 5, 8):
            try:
                out.append(Rules.party(n, menu))
            except RulesError:  # an item barred at this table size
                out.append(Rules.party(6, menu))
    return out


TABLES = [Rules(n) for n in (2, 3, 4, 5)] + [Rules(4, pass_both_ways=True)] + _party_tables()


def _play(rules: Rules, seed: int) -> tuple[object, list[Line]]:
    """A random game told by a narrator that follows it decision by decision."""
    game = new_game(rules, seed=seed)
    teller = narrator(game)
    rng = random.Random(seed)
    lines: list[Line] = []
    while not game.is_over:
        seat = game.pending_seats[0]
        game.commit(seat, rng.choice(game.legal_actions(seat)))
        lines += teller.update()
    return game, lines


def _pick_text(move: str) -> str:
    return move.split("+wasabi")[0]


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.edition}-{r.players}-{menu_name(r.menu) or ''}")
def test_every_turn_is_told_as_the_record_has_it(rules: Rules) -> None:
    for seed in range(12):
        game, lines = _play(rules, seed)
        assert story_of(game) == lines  # told again from the history: the same story
        record = to_record(game)
        for number, rnd in enumerate(record["rounds"], 1):
            for turn, moves in enumerate(rnd["turns"], 1):
                told = [line for line in lines if line.round == number and line.turn == turn]
                picks = [line for line in told if line.kind == "pick"]
                assert [line.seat for line in picks] == list(range(rules.players))
                for line, seat_moves in zip(picks, moves):
                    if rules.is_party:
                        assert line.cards == (_pick_text(seat_moves[0]),)
                    else:  # the base game records a chopsticks pair as both cards, in play order
                        assert list(line.cards) == seat_moves
                    assert line.text.startswith(f"{{{line.seat}}} ")
            ends = [line for line in lines if line.round == number and line.turn is None]
            totals = [sum(b.values()) for b in game.round_breakdowns[number - 1]]
            scored = ", ".join(f"{{{s}}} {p}" for s, p in enumerate(totals))
            assert ends[0].text == f"Round {number} scored: {scored}."
        result = game.result()
        last = lines[-1]
        assert last.kind == "game"
        assert all(f"{{{w}}}" in last.text for w in result.winners)
        assert str(max(result.totals)) in last.text


@pytest.mark.parametrize("rules", [r for r in TABLES if r.is_party], ids=lambda r: f"{r.players}-{menu_name(r.menu)}")
def test_every_party_special_is_told(rules: Rules) -> None:
    for seed in range(12):
        game, lines = _play(rules, seed)
        for number, (_, turns) in enumerate(game.history(), 1):
            for turn, moves in enumerate(turns, 1):
                told = [line for line in lines if line.round == number and line.turn == turn]
                used = [m for m in moves if (m.via in CHOPSTICKS_IDS or m.via in SPOON_IDS) and m.action != PASS]
                assert [line.seat for line in told if line.kind in ("chopsticks", "spoon")] == [m.seat for m in used]
                for line, m in zip([x for x in told if x.kind in ("chopsticks", "spoon")], used):
                    assert PARTY_LABELS[PartyCard(m.via)] in line.text
                    if m.via in SPOON_IDS:
                        assert (f"{{{m.giver}}} gave it" in line.text) == (m.giver >= 0)
                        assert ("nobody had one" in line.text) == (m.giver < 0)
                menus = [m for m in moves if m.via in MENU_IDS]
                menu_lines = [x for x in told if x.kind == "menu"]
                assert [x.seat for x in menu_lines] == [m.seat for m in menus]
                for line, m in zip(menu_lines, menus):
                    drawn = [PARTY_LABELS[PartyCard(c)] for c in m.drawn]
                    assert line.private is not None and all(d in line.private for d in drawn)
                    assert f"drew {len(m.drawn)} cards" in line.text
                    hidden = set(drawn) - {PARTY_LABELS[PartyCard(c)] for c in m.drawn if c == m.action}
                    # the public text names no drawn card but the one played
                    public = line.text.split(" and played ")[0]
                    assert not any(h in public for h in hidden)
                boxes = {(m.seat, m.via) for m in moves if m.via in TAKEOUT_IDS}
                box_lines = [x for x in told if x.kind == "takeout_box"]
                assert len(box_lines) == len(boxes)
                for seat, via in boxes:
                    flips = sum(flip_position(m.action) is not None for m in moves if (m.seat, m.via) == (seat, via))
                    (line,) = [x for x in box_lines if x.seat == seat and PARTY_LABELS[PartyCard(via)] in x.text]
                    assert ("flipped nothing" in line.text) == (flips == 0)
                    if flips:
                        named = line.text.split("flipped ")[1].split(" face down")[0]
                        assert len(re.split(r", | and ", re.sub(r"\([^)]*\)", "", named))) == flips
        uramaki = [line for line in lines if line.kind == "uramaki"]
        for line in uramaki:
            gained = int(re.search(r"\+(\d+)", line.text).group(1))
            assert line.seat is not None
            assert gained <= game.round_breakdowns[line.round - 1][line.seat]["uramaki"]


def test_only_the_menu_seat_reads_what_its_menu_drew() -> None:
    rules = Rules.party(4, "Party Sampler")
    seen = 0
    for seed in range(30):
        _, lines = _play(rules, seed)
        for line in lines:
            if line.private is None:
                continue
            assert line.kind == "menu"
            seen += 1
            others = [s for s in range(4) if s != line.seat]
            assert lines_seen_by([line], line.seat)[0]["text"] == line.private
            assert all(lines_seen_by([line], s)[0]["text"] == line.text for s in others + [None])  # type: ignore[list-item]
            assert "private" not in line.to_json(line.seat)
    assert seen > 10


def test_base_chopsticks_pair_is_told_as_both_cards_in_order() -> None:
    game = new_game(Rules(2), auto_deal=False)
    teller = narrator(game)
    names = ["tempura", "sashimi", "dumpling", "maki1", "maki2", "maki3", "egg", "salmon", "squid", "wasabi",
             "chopsticks", "pudding"]
    C = {n: i for i, n in enumerate(names)}
    game.deal([[C["chopsticks"], C["wasabi"], C["squid"], C["egg"]] + [C["tempura"]] * 6,
               [C["sashimi"]] * 3 + [C["egg"]] + [C["dumpling"]] * 6])
    game.play([C["chopsticks"], C["sashimi"]])
    assert [x.render(["Ana", "Ben"]) for x in teller.update()] == ["Ana played Chopsticks.", "Ben played Sashimi."]
    # Ana now holds Ben's old hand; give her the pair from it: she was passed sashimi, egg, dumplings
    pair = next(a for a in game.legal_actions(0) if a >= 12)
    game.play([pair, game.legal_actions(1)[0]])
    (ana, _) = teller.update()
    first, second = (CARD_LABELS[c] for c in divmod(pair - 12, 12))
    assert ana.text == f"{{0}} used chopsticks to play {first}, then {second}; the chopsticks go back into the hand."
    assert ana.kind == "pick" and len(ana.cards) == 2


def test_base_nigiri_on_a_wasabi_is_told() -> None:
    game = new_game(Rules(2), auto_deal=False)
    teller = narrator(game)
    game.deal([[9, 8] + [0] * 8, [9, 6] + [1] * 8])  # wasabi, squid / wasabi, egg
    game.play([9, 9])
    teller.update()
    game.play([6, 8])  # hands passed: seat 0 holds wasabi-less egg hand... each plays the other's nigiri
    assert [x.render(["Ana", "Ben"]) for x in teller.update()] == [
        "Ana played Egg nigiri on a wasabi.", "Ben played Squid nigiri on a wasabi."]
