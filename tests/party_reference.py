"""An independent reference model of Sushi Go Party! for the property tests.

It shares nothing with ``sushigo.engine.party.game`` or ``sushigo.engine.party.scoring``:
only the card ids (the :class:`~sushigo.engine.party.cards.PartyCard` enum, used for
names) are imported.  Card data (items, icons, numbers, box counts) is typed
in here from docs/rules.md §2.1 / §2.5-§2.8, and the action encoding from the table in
``sushigo/engine/party/actions.py``'s docstring.

:class:`Shadow` keeps its own copy of every seat's hand and collection and
applies each pick and each decision as the rules say.  It predicts which seat
must decide next (specials in number order), the legal actions of every seat,
plays miso soups, runs the **uramaki race turn by turn** (so race points are
recomputed, not read from the engine) and scores each finished round and the
desserts with its own tables.  What it cannot know (the cards a Menu draws,
the deal) it is told, as the engine reports them.

Rulings followed where the sources are silent (the engine's documented ones):
a seat uses at most one chopsticks and one spoon per turn; the original of a
numbered special is used before a special order copying it; specials with the
same number resolve original first, then by seat, then by play order; a card
played while specials resolve is placed at once; a spoon asks for one specific
card; flipping a wasabi un-triples its nigiri and a flipped nigiri leaves its
wasabi used; the race is checked at the end of each turn; a special order
counts as the card it copies (also for tea and soy sauce colours); the wasabi
card shows the nigiri's background colour unless ``wasabi_colour="own"``; when
every seat has the same temaki (or pudding) count nobody scores.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from sushigo.engine.party.cards import PartyCard

# ----------------------------------------------------------------- card data

NAME: dict[int, str] = {int(c): c.name.lower() for c in PartyCard}
ID: dict[str, int] = {v: k for k, v in NAME.items()}

FACE_DOWN = 46
# action encoding (actions.py table)
COPY_BASE = 46
COPY_FACE_DOWN = 92
COPY_ON_WASABI = 93          # egg, salmon, squid
PASS = 96
FLIP_BASE = 97
MAX_FLIP = 64

EGG, SALMON, SQUID = ID["egg"], ID["salmon"], ID["squid"]
WASABI, MISO, SO, TEMAKI = ID["wasabi"], ID["miso_soup"], ID["special_order"], ID["temaki"]
NIGIRI_VALUE = {EGG: 1, SALMON: 2, SQUID: 3}
NIGIRI_ORDER = (EGG, SALMON, SQUID)

DESSERT_ITEMS = ("pudding", "green_tea_ice_cream", "fruit")
APPETIZERS = ("tempura", "sashimi", "dumpling", "eel", "tofu", "onigiri", "edamame", "miso_soup")


def colour(card: int, wasabi_colour: str) -> str:
    """The background colour of a card id: its menu item's, but wasabi's is
    the nigiri's unless ``wasabi_colour`` is ``"own"``."""
    item = item_of(card)
    return "nigiri" if item == "wasabi" and wasabi_colour == "nigiri" else item


def item_of(card: int) -> str:
    """The menu item of a card id."""
    name = NAME[card]
    if name in ("egg", "salmon", "squid"):
        return "nigiri"
    if name.startswith("onigiri_"):
        return "onigiri"
    if name.startswith("fruit_"):
        return "fruit"
    return re.sub(r"\d+$", "", name)


def number_of(card: int) -> int:
    """The resolution number of a chopsticks/spoon/menu/takeout box, else 0."""
    if item_of(card) in ("chopsticks", "spoon", "menu", "takeout_box"):
        return int(re.search(r"\d+$", NAME[card]).group())
    return 0


def icons_of(card: int, roll: str) -> int:
    """Icons of a maki or uramaki card (0 for anything else)."""
    if card == FACE_DOWN or item_of(card) != roll or roll == "temaki":
        return 0
    return int(re.search(r"\d+$", NAME[card]).group())


FRUIT_ICONS = {  # watermelon, pineapple, orange
    ID["fruit_watermelon2"]: (2, 0, 0), ID["fruit_pineapple2"]: (0, 2, 0), ID["fruit_orange2"]: (0, 0, 2),
    ID["fruit_watermelon_pineapple"]: (1, 1, 0), ID["fruit_watermelon_orange"]: (1, 0, 1),
    ID["fruit_pineapple_orange"]: (0, 1, 1),
}

URAMAKI_SPLIT = {"4-4-4": (4, 4, 4), "3-5-4": (3, 5, 4), "4-5-3": (4, 5, 3)}


def box(item: str, uramaki_split: str = "4-4-4") -> dict[int, int]:
    """Cards of one menu item in the 181-card box and how many of each (docs/rules.md §2.1)."""
    if item == "nigiri":
        return {EGG: 4, SALMON: 5, SQUID: 3}
    if item == "maki":
        return {ID["maki1"]: 4, ID["maki2"]: 5, ID["maki3"]: 3}
    if item == "uramaki":
        a, b, c = URAMAKI_SPLIT[uramaki_split]
        return {ID["uramaki3"]: a, ID["uramaki4"]: b, ID["uramaki5"]: c}
    if item in ("temaki",):
        return {TEMAKI: 12}
    if item in APPETIZERS and item != "onigiri":
        return {ID[item]: 8}
    if item == "onigiri":
        return {ID[f"onigiri_{s}"]: 2 for s in ("circle", "triangle", "square", "rectangle")}
    if item in ("chopsticks", "spoon", "menu", "takeout_box"):
        return {c: 1 for c in NAME if item_of(c) == item}
    if item in ("soy_sauce", "tea", "special_order", "wasabi"):
        return {ID[item]: 3}
    if item in ("pudding", "green_tea_ice_cream"):
        return {ID[item]: 15}
    if item == "fruit":
        return {c: (2 if NAME[c].endswith("2") else 3) for c in FRUIT_ICONS}
    raise ValueError(item)


# ------------------------------------------------------------------ scoring

DUMPLING = (0, 1, 3, 6, 10, 15)
ONIGIRI = (0, 1, 4, 9, 16)
FRUIT = (-2, 0, 1, 3, 6, 10)
URAMAKI_PLACES = (8, 5, 2)


def ranked_places(values: Sequence[int], places: Sequence[int]) -> list[int]:
    """Places to the distinct positive values, best first; ties all get full points."""
    out = [0] * len(values)
    distinct = sorted({v for v in values if v > 0}, reverse=True)
    for place, v in enumerate(distinct[: len(places)]):
        for s, x in enumerate(values):
            if x == v:
                out[s] = places[place]
    return out


def most_fewest(counts: Sequence[int], points: int, penalty: bool) -> list[int]:
    out = [0] * len(counts)
    hi, lo = max(counts), min(counts)
    if hi == lo:
        return out
    for s, c in enumerate(counts):
        if c == hi:
            out[s] = points
        elif c == lo and penalty:
            out[s] = -points
    return out


def onigiri_points(kinds: Sequence[int]) -> int:
    shapes = Counter(k for k in kinds if k != FACE_DOWN and item_of(k) == "onigiri")
    total = 0
    while shapes:
        total += ONIGIRI[len(shapes)]
        shapes = Counter({k: v - 1 for k, v in shapes.items() if v > 1})
    return total


def score_round(cols: Sequence[Sequence[Entry]], menu: Sequence[str], race: Sequence[int],
                claimed: int, wasabi_colour: str = "nigiri") -> list[dict[str, int]]:
    """Every seat's breakdown of a finished round (collections as :class:`Entry`)."""
    n = len(cols)
    kinds = [[e.kind for e in col] for col in cols]
    counts = [Counter(k) for k in kinds]
    lines: list[dict[str, int]] = []
    for col in cols:
        nigiri = 0
        for e in col:
            if e.kind in NIGIRI_VALUE:
                tripled = e.on is not None and any(w is e.on for w in col) and e.on.kind == WASABI
                nigiri += NIGIRI_VALUE[e.kind] * (3 if tripled else 1)
        lines.append({"nigiri": nigiri})
    roll = menu[1]
    if roll == "maki":
        icons = [sum(icons_of(k, "maki") for k in ks) for ks in kinds]
        awards = ranked_places(icons, (6, 4, 2) if n >= 6 else (6, 3))
    elif roll == "temaki":
        awards = most_fewest([c[TEMAKI] for c in counts], 4, n > 2)
    else:
        icons = [sum(icons_of(k, "uramaki") for k in ks) for ks in kinds]
        best = max(icons)
        value = URAMAKI_PLACES[claimed] if claimed < 3 else 0
        awards = [race[s] + (value if best > 0 and icons[s] == best else 0) for s in range(n)]
    for line, a in zip(lines, awards):
        line[roll] = a
    have_edamame = sum(1 for c in counts if c[ID["edamame"]])
    for item in menu:
        if item not in APPETIZERS:
            continue
        for s, line in enumerate(lines):
            c = counts[s]
            if item == "tempura":
                v = c[ID["tempura"]] // 2 * 5
            elif item == "sashimi":
                v = c[ID["sashimi"]] // 3 * 10
            elif item == "dumpling":
                v = DUMPLING[min(5, c[ID["dumpling"]])]
            elif item == "eel":
                v = {0: 0, 1: -3}.get(c[ID["eel"]], 7)
            elif item == "tofu":
                v = {1: 2, 2: 6}.get(c[ID["tofu"]], 0)
            elif item == "onigiri":
                v = onigiri_points(kinds[s])
            elif item == "edamame":
                v = c[ID["edamame"]] * min(4, have_edamame - 1) if c[ID["edamame"]] else 0
            else:
                v = 3 * c[MISO]
            line[item] = v
    colours = [Counter(colour(k, wasabi_colour) for k in ks if k != FACE_DOWN) for ks in kinds]
    for item in ("takeout_box", "tea", "soy_sauce"):
        if item not in menu:
            continue
        for s, line in enumerate(lines):
            if item == "takeout_box":
                v = 2 * counts[s][FACE_DOWN]
            elif item == "tea":
                v = counts[s][ID["tea"]] * max(colours[s].values(), default=0)
            else:
                most = max(len(c) for c in colours)
                v = 4 * counts[s][ID["soy_sauce"]] if len(colours[s]) == most else 0
            line[item] = v
    return lines


def score_desserts(kept: Sequence[Sequence[int]], item: str, two_player_penalty: bool) -> list[int]:
    """End-of-game dessert points per seat from the dessert kinds each kept."""
    n = len(kept)
    if item == "pudding":
        return most_fewest([sum(1 for k in ks if k == ID["pudding"]) for ks in kept], 6,
                           n > 2 or two_player_penalty)
    if item == "green_tea_ice_cream":
        return [12 * (sum(1 for k in ks if k == ID["green_tea_ice_cream"]) // 4) for ks in kept]
    out = []
    for ks in kept:
        icons = [0, 0, 0]
        for k in ks:
            for i, x in enumerate(FRUIT_ICONS.get(k, (0, 0, 0))):
                icons[i] += x
        out.append(sum(FRUIT[min(5, x)] for x in icons))
    return out


def winners(totals: Sequence[int], dessert_cards: Sequence[int]) -> list[int]:
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    most = max(dessert_cards[s] for s in tied)
    return [s for s in tied if dessert_cards[s] == most]


# ------------------------------------------------------------------ the model

class Entry:
    """A card in a collection: physical ``card``, what it counts as (``kind``),
    its ``turn``, whether it is a special order ``copy``, the wasabi entry a
    nigiri sits ``on`` and whether a wasabi is ``filled``."""

    __slots__ = ("card", "copy", "filled", "kind", "on", "order", "turn")

    def __init__(self, card: int, kind: int, turn: int, copy: bool, order: int) -> None:
        self.card, self.kind, self.turn, self.copy, self.order = card, kind, turn, copy, order
        self.on: Entry | None = None
        self.filled = False

    def __repr__(self) -> str:
        return f"Entry({NAME.get(self.card)}, {NAME.get(self.kind, 'face_down')})"


def physical(action: int) -> int:
    """The physical card an action plays (the special order for copies)."""
    return action if action < COPY_BASE else SO


def copy_of(action: int) -> tuple[int, bool] | None:
    if COPY_BASE <= action < COPY_FACE_DOWN:
        return action - COPY_BASE, False
    if action == COPY_FACE_DOWN:
        return FACE_DOWN, False
    if COPY_ON_WASABI <= action < PASS:
        return NIGIRI_ORDER[action - COPY_ON_WASABI], True
    return None


class Shadow:
    """The reference model of one Party game (see the module docstring)."""

    def __init__(self, players: int, menu: Sequence[str], *, menu_card_draw: int = 4,
                 two_player_pudding_penalty: bool = False, uramaki_split: str = "4-4-4",
                 wasabi_colour: str = "nigiri") -> None:
        self.n = players
        self.menu = tuple(menu)
        self.draw = menu_card_draw
        self.penalty2 = two_player_pudding_penalty
        self.wasabi_colour = wasabi_colour
        self.requestable = sorted({c for item in self.menu for c in box(item, uramaki_split)})
        self.kept: list[list[int]] = [[] for _ in range(players)]
        self.kept_cards: list[list[int]] = [[] for _ in range(players)]
        self.breakdowns: list[list[dict[str, int]]] = []
        self.race_history: list[list[tuple[int, list[int]]]] = []
        self.round = 0

    # -- round / turn bookkeeping
    def start_round(self, hands: Sequence[Sequence[int]], deck_size: int) -> None:
        self.round += 1
        self.hands = [list(h) for h in hands]
        self.cols: list[list[Entry]] = [[] for _ in range(self.n)]
        self.turn = 1
        self.deck = deck_size
        self.claimed = 0
        self.race = [0] * self.n
        self.race_history.append([])
        self.order = 0
        self.pending: tuple | None = None
        self.queue: list[tuple] = []

    # -- legality
    def copy_actions(self, seat: int) -> list[int]:
        col = self.cols[seat]
        if not col:
            return [SO]
        acts = {COPY_FACE_DOWN if e.kind == FACE_DOWN else COPY_BASE + e.kind for e in col}
        if any(e.kind == WASABI and not e.filled for e in col):
            for i, nig in enumerate(NIGIRI_ORDER):
                if any(e.kind == nig and e.on is None for e in col):
                    acts.add(COPY_ON_WASABI + i)
        return sorted(acts)

    def play_actions(self, seat: int, cards: Sequence[int]) -> list[int]:
        acts = {c for c in cards if c != SO}
        if SO in cards:
            acts.update(self.copy_actions(seat))
        return sorted(acts)

    def flippable(self, seat: int) -> list[int]:
        return [FLIP_BASE + i for i, e in enumerate(self.cols[seat][:MAX_FLIP])
                if e.turn < self.turn and e.kind != FACE_DOWN]

    def legal(self, seat: int) -> list[int]:
        """Legal actions of ``seat`` now (a pick if no decision is pending)."""
        if self.pending is None:
            return self.play_actions(seat, self.hands[seat])
        kind, dseat = self.pending[0], self.pending[1]
        if seat != dseat:
            return []
        if kind == "chopsticks":
            return sorted(self.play_actions(seat, self.hands[seat]) + [PASS])
        if kind == "spoon":
            return sorted(self.play_actions(seat, self.requestable) + [PASS])
        if kind == "menu":
            return self.play_actions(seat, self.pending[4])
        return [PASS] + self.flippable(seat)

    # -- placing cards
    def place(self, seat: int, action: int) -> None:
        target = copy_of(action)
        if target is None:
            kind, copy, on_wasabi = action, False, False
        else:
            (kind, on_wasabi), copy = target, True
        self.order += 1
        e = Entry(physical(action), kind, self.turn, copy, self.order)
        col = self.cols[seat]
        if kind in NIGIRI_VALUE and (not copy or on_wasabi):
            empty = [w for w in col if w.kind == WASABI and not w.filled]
            if empty:
                empty[0].filled = True
                e.on = empty[0]
        col.append(e)
        if kind == MISO:
            self.miso.append((seat, e))
        item = item_of(kind) if kind != FACE_DOWN else ""
        if item in ("menu", "takeout_box"):
            self.queue.append((number_of(kind), int(copy), seat, e.order, item, e))

    def pick(self, actions: Sequence[int]) -> None:
        assert self.pending is None
        self.queue = []
        self.miso: list[tuple[int, Entry]] = []
        self.used: list[set[str]] = [set() for _ in range(self.n)]
        for s, a in enumerate(actions):
            self.hands[s].remove(physical(a))
        for s, a in enumerate(actions):
            self.place(s, a)
        for s, col in enumerate(self.cols):
            seen = set()
            for e in col:
                item = item_of(e.kind) if e.kind != FACE_DOWN else ""
                if e.turn < self.turn and item in ("chopsticks", "spoon"):
                    key = (item, number_of(e.kind))
                    if key not in seen:
                        seen.add(key)
                        # the seat's original card, if it has one, stands for the number
                        first = self.special_entry(s, item, key[1])
                        assert first is not None
                        self.queue.append((key[1], int(first.copy), s, first.order, item, first))

    def special_entry(self, seat: int, item: str, number: int) -> Entry | None:
        found = [e for e in self.cols[seat] if e.turn < self.turn and e.kind != FACE_DOWN
                 and item_of(e.kind) == item and number_of(e.kind) == number]
        originals = [e for e in found if not e.copy]
        return (originals or found or [None])[0]

    def next_decision(self) -> tuple[str, int, int] | None:
        """``(kind, seat, special card)`` of the next decision this turn, or
        ``None`` when the turn's specials are all resolved."""
        if self.pending is not None:
            return self.pending[:3]
        while self.queue:
            self.queue.sort(key=lambda q: q[:4])
            number, _, seat, _, item, entry = self.queue.pop(0)
            if item in ("chopsticks", "spoon"):
                if item in self.used[seat]:
                    continue
                e = self.special_entry(seat, item, number)
                if e is None:
                    continue
                if item == "chopsticks" and not self.hands[seat]:
                    continue
                if item == "spoon" and not any(self.hands[o] for o in range(self.n) if o != seat):
                    continue
                self.pending = (item, seat, e.kind, e)
                return self.pending[:3]
            if not any(x is entry for x in self.cols[seat]):
                continue
            self.cols[seat].remove(entry)
            if item == "menu":
                k = min(self.draw, self.deck)
                if k == 0:
                    continue
                self.deck -= k
                self.pending = ("menu", seat, entry.kind, k, None)
                return self.pending[:3]
            if self.flippable(seat):
                self.pending = ("takeout_box", seat, entry.kind)
                return self.pending[:3]
        return None

    def set_drawn(self, drawn: Sequence[int]) -> None:
        """The cards the pending menu drew (as the engine reports them)."""
        kind, seat, card, k, _ = self.pending
        assert kind == "menu" and len(drawn) == k, (drawn, k)
        self.pending = (kind, seat, card, k, tuple(drawn))

    def decide(self, action: int) -> int | None:
        """Apply the pending decision; returns the spoon's giver (or ``None``)."""
        kind, seat = self.pending[0], self.pending[1]
        if kind == "takeout_box":
            if action == PASS:
                self.pending = None
            else:
                self.cols[seat][action - FLIP_BASE].kind = FACE_DOWN
                if not self.flippable(seat):
                    self.pending = None
            return None
        if kind == "menu":
            drawn = self.pending[4]
            assert physical(action) in drawn
            self.deck += len(drawn) - 1
            self.pending = None
            self.place(seat, action)
            return None
        entry = self.pending[3]
        self.pending = None
        if action == PASS:
            return None
        self.used[seat].add(kind)
        card = physical(action)
        self.cols[seat].remove(entry)
        if kind == "chopsticks":
            self.hands[seat].remove(card)
            self.place(seat, action)
            self.hands[seat].append(entry.card)
            return None
        for k in range(1, self.n):
            giver = (seat + k) % self.n
            if card in self.hands[giver]:
                self.hands[giver].remove(card)
                self.hands[giver].append(entry.card)
                self.place(seat, action)
                return giver
        return None

    def end_turn(self) -> bool:
        """Miso soups, the uramaki race, passing.  Returns whether the round ended."""
        assert self.pending is None and not self.queue
        if len(self.miso) > 1:
            for s, e in self.miso:
                self.cols[s].remove(e)
        if self.menu[1] == "uramaki":
            icons = [sum(icons_of(e.kind, "uramaki") for e in col) for col in self.cols]
            reached = sorted({i for i in icons if i >= 10}, reverse=True)
            points = [0] * self.n
            for total in reached:
                group = [s for s in range(self.n) if icons[s] == total]
                value = URAMAKI_PLACES[self.claimed] if self.claimed < 3 else 0
                for s in group:
                    points[s] = value
                    self.cols[s] = [e for e in self.cols[s] if icons_of(e.kind, "uramaki") == 0]
                self.claimed = min(3, self.claimed + len(group))
            if reached:
                self.race_history[-1].append((self.turn, points))
            self.race = [a + b for a, b in zip(self.race, points)]
        self.hands = [self.hands[(s - 1) % self.n] for s in range(self.n)]
        self.turn += 1
        if self.hands[0]:
            return False
        self.breakdowns.append(score_round(self.cols, self.menu, self.race, self.claimed, self.wasabi_colour))
        for s, col in enumerate(self.cols):
            for e in col:
                if e.kind != FACE_DOWN and item_of(e.kind) in DESSERT_ITEMS:
                    self.kept[s].append(e.kind)
                    self.kept_cards[s].append(e.card)
        return True

    # -- results
    def dessert_points(self) -> list[int]:
        return score_desserts(self.kept, self.menu[-1], self.penalty2)

    def totals(self) -> list[int]:
        d = self.dessert_points()
        return [sum(sum(rnd[s].values()) for rnd in self.breakdowns) + d[s] for s in range(self.n)]

    def winners(self) -> list[int]:
        return winners(self.totals(), [len(k) for k in self.kept])


__all__ = ["Entry", "Shadow", "box", "item_of", "score_desserts", "score_round", "winners"]
