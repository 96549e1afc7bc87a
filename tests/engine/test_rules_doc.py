"""docs/rules.md stays honest: what it names exists, and what it says agrees
with the code.

The first half checks the document itself (without running pytest's
collection): every test node id it names is a function in that test file,
every dotted ``sushigo....`` name it names resolves, every field of
:class:`sushigo.engine.rules.Rules` is a row of its options table, and its card and
menu tables equal the engine's.  The second half holds the focused tests the
conformance matrix cites for rules that had no test of their own; each one is
a hand-worked example (expected values typed in from the rules, never
computed by the engine).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import pytest

from engine.party.test_party_game import copy, dealt, kinds, play_turns
from sushigo import Card, Game, Rules, encode
from sushigo.engine.errors import IllegalActionError
from sushigo.engine.menus import OFFICIAL_MENUS, MenuError, check_menu, normalize_menu, parse_menu
from sushigo.engine.party.actions import FLIP_BASE, PASS
from sushigo.engine.party.cards import PartyCard, box_counts, parse_party_card
from sushigo.engine.party.game import PartyGame
from sushigo.engine.rules import RulesError
from sushigo.engine.turns import Phase

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"

_TICKED = re.compile(r"`([^`\n]+)`")
_NODE = re.compile(r"^(tests/[A-Za-z0-9_./-]+\.py)::([A-Za-z_]\w*)(?:::([A-Za-z_]\w*))?$")
_CODE = re.compile(r"^sushigo(?:\.[A-Za-z_]\w*)+$")
_ROW = re.compile(r"^\|(.*)\|\s*$")


# ================================================================ reading the doc

@lru_cache(maxsize=1)
def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def ticked() -> list[str]:
    """Every `backticked` span of the document, in order."""
    return _TICKED.findall(doc_text())


def section(title: str) -> str:
    """The text under the first heading whose title starts with ``title``, up
    to the next heading of the same or a higher level."""
    lines = doc_text().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^(#+)\s+(.*)$", line)
        if m and m.group(2).strip().startswith(title):
            level = len(m.group(1))
            out = []
            for rest in lines[i + 1:]:
                n = re.match(r"^(#+)\s", rest)
                if n and len(n.group(1)) <= level:
                    break
                out.append(rest)
            return "\n".join(out)
    raise AssertionError(f"docs/rules.md has no heading starting with {title!r}")


def table_rows(text: str) -> list[list[str]]:
    """The body rows of every Markdown table in ``text``, as lists of cells
    (header rows and the ``|---|`` rules left out)."""
    rows: list[list[str]] = []
    previous_was_row = False
    for line in text.splitlines():
        m = _ROW.match(line.strip())
        if not m:
            previous_was_row = False
            continue
        cells = [c.strip() for c in m.group(1).split("|")]
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            if rows and previous_was_row:
                rows.pop()  # the line before a rule is the header
            previous_was_row = True
            continue
        rows.append(cells)
        previous_was_row = True
    return rows


@cache
def _test_names(path: str) -> frozenset[str]:
    """``name`` and ``Class::method`` for every test function of a test file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(f"{node.name}::{item.name}")
    return frozenset(names)


def resolve(dotted: str) -> object:
    """Import the longest module prefix of ``dotted``, then getattr the rest."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        try:
            obj: object = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                continue
            raise
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


# ================================================================ the doc's names

def test_doc_exists_and_names_tests_and_code():
    names = ticked()
    assert sum(1 for t in names if "::" in t) >= 100, "the conformance matrix names too few tests"
    assert sum(1 for t in names if t.startswith("sushigo.")) >= 100, "the matrix names too little code"


def test_every_test_node_id_in_the_doc_exists():
    missing = []
    for token in sorted(set(ticked())):
        if "::" not in token:
            continue
        m = _NODE.match(token)
        if m is None:
            missing.append(f"{token} (not a node id: tests/FILE.py::function or ::Class::method)")
            continue
        path, first, second = m.groups()
        if not (ROOT / path).is_file():
            missing.append(f"{token} (no file {path})")
            continue
        name = f"{first}::{second}" if second else first
        if not name.split("::")[-1].startswith("test"):
            missing.append(f"{token} (not a test function name)")
        elif name not in _test_names(path):
            missing.append(f"{token} (no {name} in {path})")
    assert not missing, "docs/rules.md names tests that do not exist:\n  " + "\n  ".join(missing)


def test_every_code_name_in_the_doc_resolves():
    missing = []
    for token in sorted(set(ticked())):
        if not token.startswith("sushigo."):
            continue
        if not _CODE.match(token):
            missing.append(f"{token} (not a dotted name)")
            continue
        try:
            resolve(token)
        except (ImportError, AttributeError) as exc:
            missing.append(f"{token} ({type(exc).__name__}: {exc})")
    assert not missing, "docs/rules.md names code that does not exist:\n  " + "\n  ".join(missing)


def test_every_rules_field_is_a_named_option():
    rows = table_rows(section("3. Options"))
    named = {m.group(1) for cells in rows if (m := re.fullmatch(r"`(\w+)`", cells[0]))}
    fields = [f.name for f in dataclasses.fields(Rules)]
    missing = [f for f in fields if f not in named]
    assert not missing, (
        "fields of sushigo.engine.rules.Rules missing from the options table of docs/rules.md "
        f"(a row starting with | `name` |): {', '.join(missing)}"
    )


def test_every_official_menu_is_in_the_doc_with_its_items():
    rows = table_rows(section("2.2 Menus"))
    by_name = {cells[0]: cells for cells in rows}
    missing = [name for name in OFFICIAL_MENUS if name not in by_name]
    assert not missing, "official menus missing from the menu table of docs/rules.md: " + ", ".join(missing)
    wrong = []
    for name in OFFICIAL_MENUS:
        items = ", ".join(by_name[name][1:5]).replace("`", "")
        if parse_menu(items) != parse_menu(name):
            wrong.append(f"{name}: the doc lists {parse_menu(items)}, the engine {parse_menu(name)}")
        seats = re.fullmatch(r"(\d)\D+(\d)", by_name[name][5])
        allowed = []
        for n in range(2, 9):
            try:
                check_menu(parse_menu(name), n)
            except MenuError:
                continue
            allowed.append(n)
        if seats is None or list(range(int(seats[1]), int(seats[2]) + 1)) != allowed:
            wrong.append(f"{name}: the doc says {by_name[name][5]!r} players, the engine allows {allowed}")
    assert not wrong, "docs/rules.md lists an official menu wrongly:\n  " + "\n  ".join(wrong)


_COPIES = re.compile(r"`([a-z0-9_]+)` ×(\d+)")


def _copies_in(text: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for cells in table_rows(text):
        for name, n in _COPIES.findall(" ".join(cells)):
            counts[name] += int(n)
    return counts


def test_base_deck_table_equals_the_engine():
    from sushigo.engine.base.cards import DECK_COUNTS

    doc = _copies_in(section("1.1 Cards"))
    engine = Counter({card.name_in_records: n for card, n in DECK_COUNTS.items()})
    assert doc == engine, f"docs/rules.md's deck table {dict(doc)} differs from the engine's {dict(engine)}"


def test_party_box_table_equals_the_engine():
    doc = _copies_in(section("2.1 Components"))
    engine = Counter({card.name_in_records: n for card, n in box_counts().items()})
    assert doc == engine, f"docs/rules.md's box table {dict(doc)} differs from the engine's {dict(engine)}"


def test_matrix_rows_name_code_and_tests():
    rows = [cells for cells in table_rows(section("4. Conformance matrix")) if len(cells) == 5]
    assert len(rows) >= 100, f"the conformance matrix has only {len(rows)} rows"
    bad = []
    for number, _rule, status, code, tests in rows:
        if not re.search(r"`sushigo\.", code):
            bad.append(f"{number}: no code named")
        if not (re.search(r"`tests/", tests) or tests.strip().lower().startswith("none")):
            bad.append(f"{number}: no test named (write 'none' when there is none)")
        if status not in {"official", "clarification", "decision", "unverified", "house rule"}:
            bad.append(f"{number}: unknown status {status!r}")
    numbers = [cells[0] for cells in rows]
    dup = sorted(n for n, k in Counter(numbers).items() if k > 1)
    assert not dup, f"rule numbers used twice in the matrix: {dup}"
    assert not bad, "conformance matrix rows:\n  " + "\n  ".join(bad)


# ================================================================ focused rule tests

# ---------------------------------------------------------------- base game

def test_base_chopsticks_pair_is_one_hidden_pick():
    # Both cards of a chopsticks turn are chosen before the reveal: they are one
    # hidden pick, and nothing is placed until every seat has picked.
    T, SQ, W, CH = Card.TEMPURA, Card.SQUID, Card.WASABI, Card.CHOPSTICKS
    game = Game(2, auto_deal=False)
    game.deal([[CH, T, T, T, T, T, T, W, SQ, SQ], [Card.DUMPLING] * 10])
    game.play([CH, Card.DUMPLING])
    # seat 0 now holds seat 1's dumplings; a pair of two of them is one action
    game.play([Card.DUMPLING, game.hands[1][0]])
    pair = encode((W, SQ))
    assert game.hands[0].count(W) == 1 and game.hands[0].count(SQ) == 2
    assert game.is_legal(0, pair)
    assert game.commit(0, pair) is False
    assert game.collections[0] == [CH, Card.DUMPLING]      # nothing revealed yet
    with pytest.raises(IllegalActionError):
        game.commit(0, SQ)                                # no second choice after committing
    assert game.commit(1, game.legal_actions(1)[0]) is True
    assert game.collections[0] == [Card.DUMPLING, W, SQ]   # both at once, in the order chosen
    assert CH in game.hands[1]                            # the chopsticks went into the passed hand


# ---------------------------------------------------------------- Party: box and menus

PARTY_BOX = {  # RULES: the 181-card box, typed in (default uramaki split 4/4/4)
    "egg": 4, "salmon": 5, "squid": 3, "maki1": 4, "maki2": 5, "maki3": 3, "temaki": 12,
    "uramaki3": 4, "uramaki4": 4, "uramaki5": 4,
    "tempura": 8, "sashimi": 8, "dumpling": 8, "eel": 8, "tofu": 8, "edamame": 8, "miso_soup": 8,
    "onigiri_circle": 2, "onigiri_triangle": 2, "onigiri_square": 2, "onigiri_rectangle": 2,
    "chopsticks1": 1, "chopsticks2": 1, "chopsticks3": 1, "spoon4": 1, "spoon5": 1, "spoon6": 1,
    "menu7": 1, "menu8": 1, "menu9": 1, "takeout_box10": 1, "takeout_box11": 1, "takeout_box12": 1,
    "soy_sauce": 3, "tea": 3, "special_order": 3, "wasabi": 3,
    "pudding": 15, "green_tea_ice_cream": 15,
    "fruit_watermelon2": 2, "fruit_pineapple2": 2, "fruit_orange2": 2,
    "fruit_watermelon_pineapple": 3, "fruit_watermelon_orange": 3, "fruit_pineapple_orange": 3,
}


def test_party_box_counts_as_published():
    assert sum(PARTY_BOX.values()) == 181
    assert {c.name_in_records: n for c, n in box_counts().items()} == PARTY_BOX
    for split, (three, four, five) in {"4-4-4": (4, 4, 4), "3-5-4": (3, 5, 4), "4-5-3": (4, 5, 3)}.items():
        counts = {c.name_in_records: n for c, n in box_counts(split).items()}
        assert (counts["uramaki3"], counts["uramaki4"], counts["uramaki5"]) == (three, four, five)
        assert sum(counts.values()) == 181
    numbers = {f"chopsticks{n}": n for n in (1, 2, 3)} | {f"spoon{n}": n for n in (4, 5, 6)}
    numbers |= {f"menu{n}": n for n in (7, 8, 9)} | {f"takeout_box{n}": n for n in (10, 11, 12)}
    for name, n in numbers.items():
        assert parse_party_card(name).number == n
    assert parse_party_card("tea").number == 0


OFFICIAL = {  # RULES: the eight suggested menus, typed in (nigiri is always on the menu)
    "My First Meal": "maki, tempura, sashimi, miso soup, wasabi, tea, green tea ice cream",
    "Sushi Go!": "maki, tempura, sashimi, dumpling, chopsticks, wasabi, pudding",
    "Party Sampler": "temaki, tempura, dumpling, tofu, wasabi, menu, green tea ice cream",
    "Master Menu": "temaki, onigiri, tofu, sashimi, spoon, takeout box, fruit",
    "Points Platter": "uramaki, onigiri, dumpling, edamame, special order, tea, green tea ice cream",
    "Cutthroat Combo": "temaki, eel, tofu, miso soup, spoon, soy sauce, pudding",
    "Big Banquet": "maki, tempura, dumpling, eel, spoon, chopsticks, green tea ice cream",
    "Dinner for Two": "uramaki, onigiri, tofu, miso soup, menu, special order, fruit",
}


def test_official_menus_as_published():
    assert sorted(OFFICIAL_MENUS) == sorted(OFFICIAL)
    for name, items in OFFICIAL.items():
        words = [w.strip().replace(" ", "_") for w in items.split(",")]
        assert set(OFFICIAL_MENUS[name]) == set(words), name
        assert parse_menu(name) == parse_menu(items)
        assert parse_menu(name)[0] == "nigiri"


def test_menu_structure_is_one_roll_three_appetizers_two_specials_one_dessert():
    ok = ["uramaki", "eel", "tofu", "edamame", "tea", "wasabi", "fruit"]
    assert normalize_menu(ok) == ("nigiri", "uramaki", "eel", "tofu", "edamame", "tea", "wasabi", "fruit")
    bad = [
        ["maki", "temaki", "eel", "tofu", "tea", "wasabi", "fruit"],              # two rolls
        ["maki", "eel", "tofu", "tea", "wasabi", "spoon", "fruit"],               # two appetizers, three specials
        ["maki", "eel", "tofu", "edamame", "tea", "wasabi", "fruit", "pudding"],  # two desserts
        ["maki", "eel", "eel", "tofu", "tea", "wasabi", "fruit"],                 # an item twice
        ["maki", "eel", "tofu", "edamame", "tea", "wasabi"],                      # no dessert
    ]
    for items in bad:
        with pytest.raises(MenuError):
            normalize_menu(items)


def test_menu_player_count_restrictions():
    # menu and special order: not with 7-8 players; spoon and edamame: not with 2
    base = ["maki", "tempura", "sashimi", "dumpling", "tea", "wasabi", "pudding"]
    for item, barred in (("menu", {7, 8}), ("special_order", {7, 8}), ("spoon", {2}), ("edamame", {2})):
        items = list(base)
        if item == "edamame":
            items[3] = "edamame"
        else:
            items[4] = item
        menu = normalize_menu(items)
        for players in range(2, 9):
            if players in barred:
                with pytest.raises(MenuError):
                    check_menu(menu, players)
                with pytest.raises(RulesError):
                    Rules.party(players, menu)
            else:
                check_menu(menu, players)
                assert Rules.party(players, menu).players == players
    for players in range(2, 9):
        check_menu(normalize_menu(base), players)


def test_edition_options_do_not_mix():
    # Party always passes left and reshuffles: the base options are not Party options
    for option in ({"pass_both_ways": True}, {"reshuffle": True}):
        with pytest.raises(RulesError):
            Rules.party(3, "Sushi Go!", **option)
    # and the Party options are not base options
    for option in ({"uramaki_split": "3-5-4"}, {"menu_card_draw": 2}, {"two_player_pudding_penalty": True},
                   {"wasabi_colour": "own"}, {"menu": ("maki",)}):
        with pytest.raises(RulesError):
            Rules(3, **option)
    with pytest.raises(RulesError):
        Rules(6)                      # the base game seats 2-5
    assert Rules.party(6, "Sushi Go!").hand_size == 8
    # every Party round passes left
    game = PartyGame(Rules.party(4, "Sushi Go!"), seed=1)
    for _ in range(3):
        assert game.pass_step == 1 and game.passes_to(3) == 0 and game.receives_from(0) == 3
        before = [list(h) for h in game.hands]
        picks = [game.legal_actions(s)[0] for s in range(4)]
        game.play(picks)                   # turn 1 of a round: nothing to resolve
        for s in range(4):
            rest = Counter(before[s])
            rest[picks[s]] -= 1
            assert Counter(game.hands[(s + 1) % 4]) == +rest
        while game.turn != 1 and not game.is_over:
            for s in game.pending_seats:
                game.commit(s, game.legal_actions(s)[0])


# ---------------------------------------------------------------- Party: scripted rounds

E, SL, SQ = PartyCard.EGG, PartyCard.SALMON, PartyCard.SQUID
M1, M2, M3 = PartyCard.MAKI1, PartyCard.MAKI2, PartyCard.MAKI3
T, SA, D, W, P = PartyCard.TEMPURA, PartyCard.SASHIMI, PartyCard.DUMPLING, PartyCard.WASABI, PartyCard.PUDDING
MI, SO, TB10 = PartyCard.MISO_SOUP, PartyCard.SPECIAL_ORDER, PartyCard.TAKEOUT_BOX10
SP4, SP5 = PartyCard.SPOON4, PartyCard.SPOON5
U3, U4, U5 = PartyCard.URAMAKI3, PartyCard.URAMAKI4, PartyCard.URAMAKI5


TAKEOUT = "maki, tempura, sashimi, dumpling, takeout box, wasabi, pudding"


def test_flipped_nigiri_leaves_its_wasabi_used_and_a_flipped_dessert_is_not_kept():
    s0 = [W, SQ, P, TB10, E, T, T, SA, SA, SA]
    s1 = [M3, M2, T, T, D, D, D, SL, SL, SA]
    game = dealt(2, TAKEOUT, [s0, s1])
    play_turns(game, [s0, s1], 1, 3)
    game.play([TB10, T])
    assert (game.decision.kind, game.decision.seat) == ("takeout_box", 0)
    game.commit(0, FLIP_BASE + 1)          # the squid on the wasabi
    game.commit(0, FLIP_BASE + 2)          # the pudding
    game.commit(0, PASS)                   # keep the wasabi face up
    assert game.turn == 5
    play_turns(game, [s0, s1], 5, 10)
    # seat 0: the egg (turn 5) finds no empty wasabi: 1; no maki; tempura pair 5;
    # 3 sashimi 10; no dumpling; two face-down cards 4.  Seat 1: 2 salmon 4;
    # maki 5 icons 6; tempura pair 5; 1 sashimi 0; 3 dumplings 6.
    assert game.round_breakdowns == [[
        {"nigiri": 1, "maki": 0, "tempura": 5, "sashimi": 10, "dumpling": 0, "takeout_box": 4},
        {"nigiri": 4, "maki": 6, "tempura": 5, "sashimi": 0, "dumpling": 6, "takeout_box": 0},
    ]]
    # the flipped pudding is no dessert: not kept, shuffled back with the rest
    assert game.desserts == [[], []] and game.dessert_cards == [[], []]
    assert P in game.deck


SO_TAKEOUT = "maki, tempura, sashimi, dumpling, takeout box, special order, pudding"


def test_special_order_keeps_its_copy_when_the_original_is_flipped():
    s0 = [T, copy(T), TB10, T, SA, SA, SA, D, M1, E]
    s1 = [M3, M2, T, T, D, D, D, SL, SL, SA]
    game = dealt(2, SO_TAKEOUT, [s0, s1])
    play_turns(game, [s0, s1], 1, 2)
    game.play([TB10, T])
    game.commit(0, FLIP_BASE + 0)          # flip the tempura the special order copies
    game.commit(0, PASS)
    assert [(p.card, p.kind) for p in game.collections[0]] == [(T, 46), (SO, T)]   # 46: face down
    play_turns(game, [s0, s1], 4, 10)
    # seat 0: egg 1; maki 1 icon, second: 3; tempura: the copy + turn 4's = a pair, 5;
    # 3 sashimi 10; 1 dumpling 1; one face-down card 2
    assert game.round_breakdowns[0][0] == {
        "nigiri": 1, "maki": 3, "tempura": 5, "sashimi": 10, "dumpling": 1, "takeout_box": 2}
    assert sum(game.round_breakdowns[0][0].values()) == 22


SO_ONLY = "maki, tempura, sashimi, dumpling, special order, wasabi, pudding"


def test_copy_of_a_special_order_is_what_it_copies():
    s0 = [T, copy(T), copy(T), SA, SA, SA, D, D, M1, E]
    s1 = [M3, M2, T, T, D, D, D, SL, SL, SA]
    game = dealt(2, SO_ONLY, [s0, s1])
    play_turns(game, [s0, s1], 1, 2)
    legal = game.legal_actions(0)
    # the first special order counts as a tempura: copying it is copying a tempura
    assert copy(T) in legal and copy(SO) not in legal and int(SO) not in legal
    play_turns(game, [s0, s1], 3, 10)
    # seat 0: three tempura (one real, two copies) 5; egg 1; maki 1 icon 3;
    # 3 sashimi 10; 2 dumplings 3
    assert game.round_breakdowns[0][0] == {"nigiri": 1, "maki": 3, "tempura": 5, "sashimi": 10, "dumpling": 3}


URAMAKI = "uramaki, tempura, sashimi, dumpling, chopsticks, wasabi, pudding"


def test_uramaki_after_all_three_places_scores_nothing_and_discards():
    s0 = [U5, U5, T, U5, U5, T, SA, SA, SA, D]
    s1 = [U4, U4, U3, U4, U4, U3, D, D, D, E]
    game = dealt(2, URAMAKI, [s0, s1])
    play_turns(game, [s0, s1], 1, 2)
    assert game.uramaki_points == [8, 0]            # seat 0 reaches 10 first
    play_turns(game, [s0, s1], 3, 3)
    assert game.uramaki_points == [8, 5]            # seat 1 reaches 11: second place
    play_turns(game, [s0, s1], 4, 5)
    assert game.uramaki_points == [10, 5] and game.uramaki_claimed == 3   # seat 0 again: third, 2
    play_turns(game, [s0, s1], 6, 6)
    # seat 1 reaches 11 again: no place is left, it scores 0 and still discards
    assert game.uramaki_points == [10, 5]
    assert not any(k in (U3, U4, U5) for k in kinds(game, 1))
    assert Counter(game.discard) == Counter({U5: 4, U4: 4, U3: 2})
    play_turns(game, [s0, s1], 7, 10)
    # nobody has uramaki left at round end: no round-end award
    assert game.round_breakdowns == [[
        {"nigiri": 0, "uramaki": 10, "tempura": 5, "sashimi": 10, "dumpling": 1},
        {"nigiri": 1, "uramaki": 5, "tempura": 0, "sashimi": 0, "dumpling": 6},
    ]]


SPOON = "maki, tempura, sashimi, miso soup, spoon, wasabi, pudding"


def test_no_spoon_on_the_last_turn():
    s0 = [SP4, T, T, SA, SA, SA, M1, E, SL, SQ]
    s1 = [T, T, SA, SA, SA, M2, M3, E, SL, W]
    s2 = [M1, M2, T, T, SA, SA, E, SL, SL, W]
    game = dealt(3, SPOON, [s0, s1, s2])
    offered = play_turns(game, [s0, s1, s2], 1, 10)
    # offered from turn 2 (the turn after it was played) to turn 9; on turn 10
    # every other hand is empty once the picks are made
    assert offered == [(t, 0, SP4) for t in range(2, 10)]
    assert game.round == 2


def test_at_most_one_spoon_per_turn():
    h0 = [SP4, T, T, T, T, T, T, SA, SA, SA]
    h1 = [E, M1, M1, M1, M1, M2, M2, M2, M2, W]
    h2 = [SL, SP5, SL, SL, SQ, SQ, SQ, W, W, E]
    game = PartyGame(Rules.party(3, SPOON), auto_deal=False)
    game.deal([[int(c) for c in h] for h in (h0, h1, h2)])
    game.play([SP4, E, SL])
    assert game.phase is Phase.PICK                  # a spoon does nothing on the turn it is played
    game.play([SP5, T, M1])                          # seat 0 holds h2 now
    assert (game.decision.kind, game.decision.seat, game.decision.card) == ("spoon", 0, SP4)
    game.commit(0, PASS)
    assert game.phase is Phase.PICK                  # spoon 5 was played this turn: not offered
    game.play([M1, SL, T])
    assert (game.decision.seat, game.decision.card) == (0, SP4)
    assert game.spoon_giver(0, SQ) == 1
    game.commit(0, SQ)                               # spoon 4 used: spoon 5 is not offered this turn
    assert game.phase is Phase.PICK and game.turn == 4
    assert kinds(game, 0) == [SP5, M1, SQ]
    game.play([T, M1, SL])
    assert (game.decision.kind, game.decision.seat, game.decision.card) == ("spoon", 0, SP5)
    game.commit(0, PASS)
    assert game.phase is Phase.PICK and game.turn == 5


def test_miso_from_a_spoon_counts_as_played_that_turn():
    h0 = [SP4, MI, T, T, T, T, T, T, SA, SA]
    h1 = [E, MI, M1, M1, M1, M1, M2, M2, M2, M2]
    h2 = [SL, SL, SL, SL, SQ, SQ, SQ, W, W, W]
    game = PartyGame(Rules.party(3, SPOON), auto_deal=False)
    game.deal([[int(c) for c in h] for h in (h0, h1, h2)])
    game.play([SP4, E, SL])
    game.play([SL, MI, M1])          # seat 1 plays a miso from h0
    assert (game.decision.kind, game.decision.seat) == ("spoon", 0)
    assert game.spoon_giver(0, MI) == 2
    game.commit(0, MI)               # seat 0's spoon brings the other miso (from seat 2)
    # two misos played this turn: both are discarded
    assert game.turn == 3
    assert kinds(game, 0) == [SL] and kinds(game, 1) == [E]
    assert Counter(game.discard) == Counter({MI: 2})
