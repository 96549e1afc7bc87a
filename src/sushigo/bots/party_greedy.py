"""The greedy bot's judgement for Sushi Go Party!: one ply, from the seat's view alone.

Every decision of a Party game, the pick and each choice while specials
resolve, is valued the same way: the bot places the card (or applies the
use, the flip) in a copy of its collection and estimates what that
collection will be worth, for this seat, by the end of the round, plus its
share of the end-of-game dessert award.  The action whose estimate is
highest wins; only differences between actions matter.

The estimate (:class:`PartyEstimator`) adds up, for the items on the menu:

* points as they stand (:mod:`sushigo.engine.party.scoring`: nigiri with wasabi,
  tempura pairs, sashimi triples, dumplings, eel, tofu, onigiri, miso,
  tea, face-down cards);
* unfinished sets (a lone tempura or eel, a sashimi or two, one tofu, the
  next dumpling or onigiri shape, empty wasabi) at the chance of finishing
  them in the picks left this round, so they fade to nothing at its end;
* races against the other seats' public collections: maki icons, temaki
  cards, uramaki icons (the next unclaimed place), edamame (how many others
  have some), soy sauce (distinct colours), each blurred by how far the
  totals may still move this round;
* desserts, scored at the end of the game: the pudding race, sets of four
  green tea ice creams, fruit icons;
* specials: an unused chopsticks or spoon is worth something while enough
  picks remain to use it; a Menu is worth the expected best card of a draw
  from the cards the seat has not seen; a Takeout Box is worth the flips
  of low-value cards it allows; a miso soup loses its 3 points if another
  miso is likely to be played the same turn.

While specials resolve: chopsticks and spoons are used when the card is worth
more than keeping the special for later (a spoon asks for the card with the
best expected gain, the chance that a hand on the left holds it coming from
the cards the seat knows to be in each hand, else from the cards it has not
seen); a menu takes the best drawn card; a takeout box flips, one card at a
time, while a flip gains points.

The bot reads nothing but its :class:`~sushigo.engine.party.view.PartySeatView`.

>>> from sushigo.engine.rules import Rules
>>> from sushigo.engine.party.game import PartyGame
>>> from sushigo.engine.party.view import party_seat_view
>>> game = PartyGame(Rules.party(4, "Master Menu"), seed=1)
>>> bot = PartyGreedyBot(seed=0)
>>> bot.choose(party_seat_view(game, 2)) in game.legal_actions(2)
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import ClassVar, Final

from sushigo.bots.base import AnyView, Bot, legal_actions_of
from sushigo.bots.estimates import WASABI_BONUS, best_action, completion_chance, race_value
from sushigo.engine.base.actions import Action
from sushigo.engine.base.view import SeatView
from sushigo.engine.editions import by_view
from sushigo.engine.party.actions import PASS, copy_target, flip_position
from sushigo.engine.party.cards import (
    CHOPSTICKS_IDS,
    DESSERT_IDS,
    FACE_DOWN,
    FRUIT_ICONS,
    ITEM_OF,
    MAKI_ICONS,
    MENU_IDS,
    NIGIRI_IDS,
    ONIGIRI_IDS,
    SPOON_IDS,
    TAKEOUT_IDS,
    URAMAKI_ICONS,
    PartyCard,
    cards_of_item,
)
from sushigo.engine.party.scoring import (
    NIGIRI_FACE,
    URAMAKI_PLACES,
    URAMAKI_TARGET,
    colour_counts,
    eel_points,
    fruit_points,
    onigiri_points,
    party_maki_awards,
    party_pudding_awards,
    tea_points,
    temaki_awards,
    tofu_points,
)
from sushigo.engine.party.view import PartySeatView
from sushigo.engine.points import DUMPLING_POINTS
from sushigo.engine.rules import NUM_ROUNDS, PARTY_HAND_SIZES
from sushigo.engine.turns import Phase

C = PartyCard

CHOPSTICKS_VALUE: Final = 3.5
"""Worth of one usable chopsticks early in a round (an extra card after the reveal)."""
SPOON_VALUE: Final = 3.5
"""Worth of one usable spoon early in a round (a named card from another hand)."""
SPARE_SPECIAL: Final = 0.3
"""A second chopsticks (or spoon) is worth this share of the first."""
MISO_RIVAL_RATE: Final = 0.35
"""Chance that a seat holding a miso soup plays it this turn."""
TEA_GROWTH: Final = 0.25
"""Expected growth, per pick left, of a seat's largest colour group (for tea)."""
KEEP_BONUS: Final = 0.05
"""Declining a special (or flipping no more) wins ties: no pointless swaps."""

_TEMPURA: Final = int(C.TEMPURA)
_SASHIMI: Final = int(C.SASHIMI)
_DUMPLING: Final = int(C.DUMPLING)
_WASABI: Final = int(C.WASABI)
_PUDDING: Final = int(C.PUDDING)
_TEMAKI: Final = int(C.TEMAKI)
_EEL: Final = int(C.EEL)
_TOFU: Final = int(C.TOFU)
_EDAMAME: Final = int(C.EDAMAME)
_MISO: Final = int(C.MISO_SOUP)
_TEA: Final = int(C.TEA)
_SOY: Final = int(C.SOY_SAUCE)
_SO: Final = int(C.SPECIAL_ORDER)
_ICE: Final = int(C.GREEN_TEA_ICE_CREAM)
_SKIP: Final = MENU_IDS | TAKEOUT_IDS
"""Kinds worth nothing in a collection (they resolve and leave in the turn played)."""


# ------------------------------------------------------------ the deck


@lru_cache(maxsize=256)
def menu_composition(menu: tuple[str, ...], players: int, round_number: int) -> tuple[tuple[int, int], ...]:
    """``(card id, copies)`` of the deck a round of ``menu`` deals from (the
    default 4-4-4 uramaki split; this round's desserts split like the pile)."""
    desserts = (5, 3, 2) if players <= 5 else (7, 5, 3)
    comp: dict[int, float] = {}
    for item in menu:
        cards = cards_of_item(item)
        if item == menu[-1]:
            total = sum(cards.values())
            share = desserts[min(round_number, NUM_ROUNDS) - 1] / total
            for card, n in cards.items():
                comp[int(card)] = comp.get(int(card), 0) + n * share
        else:
            for card, n in cards.items():
                comp[int(card)] = comp.get(int(card), 0) + n
    return tuple(sorted((c, max(1, round(n))) for c, n in comp.items()))


@lru_cache(maxsize=256)
def _item_freqs(menu: tuple[str, ...], players: int, round_number: int) -> dict[str, float]:
    comp = menu_composition(menu, players, round_number)
    total = sum(n for _, n in comp)
    freqs: dict[str, float] = {}
    for card, n in comp:
        item = ITEM_OF[PartyCard(card)]
        freqs[item] = freqs.get(item, 0.0) + n / total
    return freqs


# ------------------------------------------------------- a collection


class Tableau:
    """One seat's collection as the estimator sees it (play order).

    ``kinds`` holds what each card counts as (:data:`FACE_DOWN` once
    flipped), ``turns`` when it was played, ``tripled`` the face value of a
    nigiri sitting on a wasabi (else 0) and ``wasabi_on`` the position of the
    nigiri on each wasabi (-1: empty; -2: used by a nigiri since flipped).
    """

    __slots__ = ("kinds", "tripled", "turns", "wasabi_on")

    def __init__(self, kinds: list[int], turns: list[int], tripled: list[int], wasabi_on: dict[int, int]) -> None:
        self.kinds = kinds
        self.turns = turns
        self.tripled = tripled
        self.wasabi_on = wasabi_on

    @classmethod
    def of(cls, played: Iterable[tuple[int, int, int, bool]]) -> Tableau:
        """From a view's :class:`~sushigo.engine.party.view.PlayedCard` entries.

        A nigiri shown on a wasabi sits on the first face-up wasabi before it
        that no earlier nigiri took (the engine fills wasabi in order).
        """
        kinds: list[int] = []
        turns: list[int] = []
        tripled: list[int] = []
        wasabi_on: dict[int, int] = {}
        for i, (_card, kind, turn, on_wasabi) in enumerate(played):
            kinds.append(kind)
            turns.append(turn)
            tripled.append(0)
            if kind == _WASABI:
                wasabi_on[i] = -1
            elif on_wasabi and kind in NIGIRI_IDS:
                free = next((w for w, n in wasabi_on.items() if n == -1), None)
                if free is not None:
                    wasabi_on[free] = i
                    tripled[i] = NIGIRI_FACE[kind]
        return cls(kinds, turns, tripled, wasabi_on)

    def copy(self) -> Tableau:
        return Tableau(self.kinds[:], self.turns[:], self.tripled[:], dict(self.wasabi_on))

    @property
    def empty_wasabi(self) -> int:
        return sum(1 for n in self.wasabi_on.values() if n == -1)

    def place(self, action: int, turn: int) -> Tableau:
        """A copy with the card of ``action`` played (a special order as its copy)."""
        target = copy_target(action)
        if target is None:
            kind, may_top = action, True
        else:
            kind, may_top = target
        t = self.copy()
        i = len(t.kinds)
        t.kinds.append(kind)
        t.turns.append(turn)
        t.tripled.append(0)
        if kind in NIGIRI_IDS and may_top:
            free = next((w for w, n in t.wasabi_on.items() if n == -1), None)
            if free is not None:
                t.wasabi_on[free] = i
                t.tripled[i] = NIGIRI_FACE[kind]
        elif kind == _WASABI:
            t.wasabi_on[i] = -1
        return t

    def without(self, kind: int) -> Tableau:
        """A copy without the last card counting as ``kind`` (a used chopsticks or spoon)."""
        t = self.copy()
        if kind not in t.kinds:
            return t
        i = len(t.kinds) - 1 - t.kinds[::-1].index(kind)
        del t.kinds[i], t.turns[i], t.tripled[i]
        t.wasabi_on = {(w - (w > i)): (n - (n > i) if n >= 0 else n) for w, n in t.wasabi_on.items() if w != i}
        return t

    def flip(self, pos: int) -> Tableau:
        """A copy with position ``pos`` turned face down (takeout box)."""
        t = self.copy()
        kind = t.kinds[pos]
        if kind == _WASABI:
            on = t.wasabi_on.pop(pos, -1)
            if on >= 0:
                t.tripled[on] = 0
        elif t.tripled[pos]:
            t.tripled[pos] = 0
            for w, n in t.wasabi_on.items():
                if n == pos:
                    t.wasabi_on[w] = -2
        t.kinds[pos] = FACE_DOWN
        return t


# ------------------------------------------------------- the estimate


def _fruit_icons(cards: Iterable[int]) -> tuple[int, int, int]:
    icons = [0, 0, 0]
    for c in cards:
        for i, n in enumerate(FRUIT_ICONS.get(c, (0, 0, 0))):
            icons[i] += n
    return icons[0], icons[1], icons[2]




class PartyEstimator:
    """End-of-round worth of a collection for the seat of ``view`` (see the module doc)."""

    def __init__(self, view: PartySeatView) -> None:
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator's view has no seat to decide for")
        self.view = view
        self.seat = seat
        n = self.players = view.players
        self.menu = view.menu
        self.items = frozenset(view.menu)
        self.dessert_item = view.menu[-1]
        hand = view.hand or ()
        self.picks_left = max(0, len(hand) - (1 if view.phase is Phase.PICK else 0))
        """Picks this seat makes this round after the current turn."""
        self.later_picks = (NUM_ROUNDS - view.round) * PARTY_HAND_SIZES[n]
        self.freq = _item_freqs(view.menu, n, view.round)
        others = [s for s in range(n) if s != seat]
        cols = view.collections
        kinds = [[p.kind for p in col] for col in cols]
        self.others_maki = [sum(MAKI_ICONS.get(k, 0) for k in kinds[s]) for s in others]
        self.others_temaki = [kinds[s].count(_TEMAKI) for s in others]
        self.others_uramaki = max((sum(URAMAKI_ICONS.get(k, 0) for k in kinds[s]) for s in others), default=0)
        self.others_edamame = sum(1 for s in others if _EDAMAME in kinds[s])
        self.wasabi_colour = view.rules.wasabi_colour
        self.others_colours = max((len(colour_counts(kinds[s], self.wasabi_colour)) for s in others), default=0)
        dessert_counts = [sum(1 for k in view.desserts[s] if k == _PUDDING) + kinds[s].count(_PUDDING)
                          for s in range(n)]
        self.others_puddings = [dessert_counts[s] for s in others]
        self.kept_desserts = [int(c) for c in view.desserts[seat]]
        claimed = view.uramaki_claimed
        self.uramaki_place = URAMAKI_PLACES[claimed] if claimed < len(URAMAKI_PLACES) else 0
        self.maki_spread = round(2.0 * math.sqrt(self.picks_left))
        self.temaki_spread = round(0.7 * math.sqrt(self.picks_left))
        self.pudding_spread = math.ceil(math.sqrt(0.1 * (self.picks_left + self.later_picks)))
        self.dessert_picks = min(30, self.picks_left + self.later_picks)
        self._memo: dict[tuple[str, int], float] = {}

    # ------------------------------------------------------------ parts

    def _chance(self, need: int, item: str) -> float:
        return completion_chance(need, self.picks_left, self.freq.get(item, 0.0))

    def _cached(self, key: str, count: int, compute: Callable[[int], float]) -> float:
        value = self._memo.get((key, count))
        if value is None:
            value = self._memo[(key, count)] = compute(count)
        return value

    def _tempura(self, n: int) -> float:
        return 5.0 * (n // 2) + (5.0 * self._chance(1, "tempura") if n % 2 else 0.0)

    def _sashimi(self, n: int) -> float:
        missing = (3 - n % 3) % 3
        return 10.0 * (n // 3) + (10.0 * self._chance(missing, "sashimi") if missing else 0.0)

    def _dumpling(self, n: int) -> float:
        value = float(DUMPLING_POINTS[min(n, 5)])
        for more in range(1, 5 - n + 1):
            gain = DUMPLING_POINTS[n + more] - DUMPLING_POINTS[n + more - 1]
            value += gain * self._chance(more, "dumpling")
        return value

    def _eel(self, n: int) -> float:
        return -3.0 + 10.0 * self._chance(1, "eel") if n == 1 else float(eel_points(n))

    def _tofu(self, n: int) -> float:
        return 2.0 + 4.0 * self._chance(1, "tofu") if n == 1 else float(tofu_points(n))

    def _wasabi(self, empty: int) -> float:
        return sum(WASABI_BONUS * self._chance(k, "nigiri") for k in range(1, empty + 1))

    def _maki(self, icons: int) -> float:
        return race_value(icons, self.others_maki, party_maki_awards, self.maki_spread)

    def _temaki(self, count: int) -> float:
        return race_value(count, self.others_temaki, temaki_awards, self.temaki_spread)

    def _uramaki(self, icons: int) -> float:
        place = self.uramaki_place
        if icons >= URAMAKI_TARGET:
            return float(place)
        need = math.ceil((URAMAKI_TARGET - icons) / 4)
        reach = self._chance(need, "uramaki")
        rival = self.others_uramaki
        lead = 0.0 if icons == 0 else 1.0 if icons > rival else 0.5 if icons == rival else 0.1
        return place * (reach + (1.0 - reach) * lead)

    def _edamame(self, n: int) -> float:
        without = self.players - 1 - self.others_edamame
        expected = self.others_edamame + 0.5 * without * min(1.0, self.picks_left / 4)
        return n * min(4.0, expected)

    def _soy(self, soys: int, colours: int) -> float:
        diff = colours - self.others_colours
        if self.picks_left == 0:
            chance = 1.0 if diff >= 0 else 0.0
        else:
            chance = min(1.0, max(0.05, 0.55 + 0.2 * diff))
        return 4.0 * soys * chance

    def _specials(self, count: int, each: float) -> float:
        if count == 0:
            return 0.0
        usable = min(1.0, max(0, self.picks_left - 1) / 3)
        return each * usable * (1.0 + SPARE_SPECIAL * (count - 1))

    def _pudding(self, n: int) -> float:
        def award(counts: Sequence[int]) -> list[int]:
            return party_pudding_awards(counts)

        return race_value(n, self.others_puddings, award, self.pudding_spread)

    def _ice(self, n: int) -> float:
        rest = n % 4
        chance = completion_chance(4 - rest, self.dessert_picks, self.freq.get("green_tea_ice_cream", 0.0))
        return 12.0 * (n // 4) + 3.0 * rest * (0.3 + 0.7 * chance) if rest else 12.0 * (n // 4)

    def _desserts(self, kinds: list[int]) -> float:
        item = self.dessert_item
        mine = self.kept_desserts + [k for k in kinds if k in DESSERT_IDS]
        if item == "pudding":
            return self._cached("pudding", mine.count(_PUDDING), self._pudding)
        if item == "green_tea_ice_cream":
            return self._cached("ice", mine.count(_ICE), self._ice)
        return float(fruit_points(mine))

    # ------------------------------------------------------------- total

    def value(self, t: Tableau) -> float:
        """Estimated worth of tableau ``t`` at the end of the round (plus desserts)."""
        kinds = [k for k in t.kinds if k not in _SKIP]
        counts = Counter(kinds)
        items = self.items
        memo = self._cached
        total = float(sum(NIGIRI_FACE.get(k, 0) for k in kinds) + 2 * sum(t.tripled))
        empty = t.empty_wasabi
        if empty:
            total += memo("wasabi", empty, self._wasabi)
        if "maki" in items:
            total += memo("maki", sum(MAKI_ICONS.get(k, 0) for k in kinds), self._maki)
        elif "temaki" in items:
            total += memo("temaki", counts[_TEMAKI], self._temaki)
        elif "uramaki" in items:
            total += memo("uramaki", sum(URAMAKI_ICONS.get(k, 0) for k in kinds), self._uramaki)
        if "tempura" in items:
            total += memo("tempura", counts[_TEMPURA], self._tempura)
        if "sashimi" in items:
            total += memo("sashimi", counts[_SASHIMI], self._sashimi)
        if "dumpling" in items:
            total += memo("dumpling", counts[_DUMPLING], self._dumpling)
        if "eel" in items:
            total += memo("eel", counts[_EEL], self._eel)
        if "tofu" in items:
            total += memo("tofu", counts[_TOFU], self._tofu)
        if "onigiri" in items:
            total += self._onigiri(kinds)
        if "edamame" in items:
            total += memo("edamame", counts[_EDAMAME], self._edamame)
        if "miso_soup" in items:
            total += 3.0 * counts[_MISO]
        if "tea" in items and counts[_TEA]:
            total += tea_points(kinds, self.wasabi_colour) + TEA_GROWTH * counts[_TEA] * self.picks_left
        if "soy_sauce" in items and counts[_SOY]:
            total += self._soy(counts[_SOY], len(colour_counts(kinds, self.wasabi_colour)))
        total += 2.0 * counts[FACE_DOWN]
        chopsticks = sum(counts[c] for c in CHOPSTICKS_IDS)
        if chopsticks:
            total += self._specials(chopsticks, CHOPSTICKS_VALUE)
        spoons = sum(counts[c] for c in SPOON_IDS)
        if spoons:
            total += self._specials(spoons, SPOON_VALUE)
        return total + self._desserts(kinds)

    def _onigiri(self, kinds: list[int]) -> float:
        shapes = [k for k in kinds if k in ONIGIRI_IDS]
        now = onigiri_points(shapes)
        if not self.picks_left:
            return float(now)
        gains = [onigiri_points(shapes + [s]) - now for s in ONIGIRI_IDS]
        return now + 0.5 * (sum(gains) / len(gains)) * self._chance(1, "onigiri")

    # ----------------------------------------------------- specials

    def miso_penalty(self, t: Tableau) -> float:
        """Expected points lost by a miso soup played now (another miso this turn)."""
        view = self.view
        if view.phase is not Phase.PICK:
            this_turn = sum(
                1 for col in view.collections for p in col if p.kind == _MISO and p.turn == view.turn
            )
            mine = sum(1 for k, turn in zip(t.kinds, t.turns) if k == _MISO and turn == view.turn) - 1
            return 3.0 * (1 + mine) if this_turn or mine > 0 else 0.0
        freq = self.freq.get("miso_soup", 0.0)
        safe = 1.0
        for s in range(self.players):
            if s == self.seat:
                continue
            known = view.known_cards[s]
            if _MISO in known:
                has = 1.0
            else:
                unknown = max(0, view.hand_sizes[s] - len(known))
                has = 1.0 - (1.0 - freq) ** unknown
            safe *= 1.0 - MISO_RIVAL_RATE * has
        return 3.0 * (1.0 - safe)

    def unseen(self) -> Counter[int]:
        """Cards of this round's deck the seat has not seen (in the deck or in
        hands it has not held), estimated from the menu's deck."""
        view = self.view
        left = Counter(dict(menu_composition(view.menu, self.players, view.round)))
        seen: list[int] = [int(c) for c in view.hand or ()]
        for s, known in enumerate(view.known_cards):
            if s != self.seat:
                seen.extend(int(c) for c in known)
        for col in view.collections:
            seen.extend(p.card for p in col)
        if view.decision is not None:
            seen.extend(view.decision.drawn)
        left.subtract(seen)
        return +left

    def takeout_gain(self, t: Tableau, turn: int) -> float:
        """Points a takeout box would gain by greedily flipping cards of ``t`` played before ``turn``."""
        gain = 0.0
        current = t
        base = self.value(current)
        while True:
            best = 0.0
            best_t: Tableau | None = None
            for pos, kind in enumerate(current.kinds):
                if kind == FACE_DOWN or current.turns[pos] >= turn or kind in _SKIP:
                    continue
                flipped = current.flip(pos)
                delta = self.value(flipped) - base
                if delta > best + 1e-9:
                    best, best_t = delta, flipped
            if best_t is None:
                return gain
            gain += best
            current = best_t
            base += best

    def menu_gain(self, t: Tableau, draw: int = 4) -> float:
        """Expected marginal worth of the best of ``draw`` cards from the unseen deck."""
        pool = self.unseen()
        total = sum(pool.values())
        if not total:
            return 0.0
        base = self.value(t)
        turn = self.view.turn
        values: list[tuple[float, float]] = []
        for card, n in pool.items():
            if card in _SKIP:
                marginal = 0.0
            elif card == _SO:
                marginal = max(
                    (self.value(t.place(card_to_copy_action(k), turn)) - base
                     for k in set(t.kinds) if k not in _SKIP and k != FACE_DOWN),
                    default=0.0,
                )
            else:
                placed = t.place(card, turn)
                marginal = self.value(placed) - base
                if card == _MISO:
                    marginal -= 1.5
            values.append((marginal, n / total))
        values.sort()
        expected = 0.0
        below = 0.0
        for v, p in values:
            expected += v * ((below + p) ** draw - below ** draw)
            below += p
        return max(0.0, expected)

    def spoon_chance(self, card: int, pool: Counter[int], unknown_slots: int, pool_size: int) -> float:
        """Chance that some other hand holds ``card`` (certain when the seat knows it)."""
        view = self.view
        for s, known in enumerate(view.known_cards):
            if s != self.seat and any(int(c) == card for c in known):
                return 1.0
        copies = pool.get(card, 0)
        if not copies or not pool_size:
            return 0.0
        share = min(1.0, unknown_slots / pool_size)
        return 1.0 - (1.0 - share) ** copies


def card_to_copy_action(kind: int) -> int:
    """The special-order action copying ``kind`` (not on wasabi)."""
    from sushigo.engine.party.actions import encode_copy

    return encode_copy(kind)


# ------------------------------------------------------------ decisions


def party_action_values(view: PartySeatView) -> dict[Action, float]:
    """The estimated worth of the seat's position after each legal action.

    Only differences between actions matter.

    >>> from sushigo.engine.rules import Rules
    >>> from sushigo.engine.party.game import PartyGame
    >>> from sushigo.engine.party.view import party_seat_view
    >>> game = PartyGame(Rules.party(3, "Sushi Go!"), seed=0)
    >>> game.hands[0] = [int(PartyCard.SASHIMI), int(PartyCard.SALMON)]
    >>> values = party_action_values(party_seat_view(game, 0))
    >>> sorted(values) == sorted(game.legal_actions(0))
    True
    """
    actions = legal_actions_of(view)
    est = PartyEstimator(view)
    seat = est.seat
    turn = view.turn
    mine = Tableau.of(view.collections[seat])
    decision = view.decision if view.phase is Phase.RESOLVE else None
    values: dict[Action, float] = {}

    def play_value(t: Tableau, action: int) -> float:
        placed = t.place(action, turn)
        target = copy_target(action)
        kind = target[0] if target is not None else action
        value = est.value(placed)
        if kind in MENU_IDS:
            value += est.menu_gain(t)
        elif kind in TAKEOUT_IDS:
            value += est.takeout_gain(t, turn)
        elif kind == _MISO:
            value -= est.miso_penalty(placed)
        return value

    if decision is None or decision.kind == "menu":
        for action in actions:
            values[action] = play_value(mine, action)
        return values
    if decision.kind == "takeout_box":
        for action in actions:
            pos = flip_position(action)
            values[action] = est.value(mine) + KEEP_BONUS if pos is None else est.value(mine.flip(pos))
        return values
    used = mine.without(decision.card)
    if decision.kind == "chopsticks":
        for action in actions:
            values[action] = est.value(mine) + KEEP_BONUS if action == PASS else play_value(used, action)
        return values
    # spoon: the expected worth of asking for each card
    pool = est.unseen()
    pool_size = sum(pool.values())
    unknown_slots = sum(
        max(0, view.hand_sizes[s] - len(view.known_cards[s])) for s in range(view.players) if s != seat
    )
    empty = est.value(used)
    for action in actions:
        if action == PASS:
            values[action] = est.value(mine) + KEEP_BONUS
            continue
        target = copy_target(action)
        card = _SO if target is not None else action
        chance = est.spoon_chance(card, pool, unknown_slots, pool_size)
        values[action] = empty if chance <= 0 else chance * play_value(used, action) + (1 - chance) * empty
    return values


class PartyGreedyBot(Bot):
    """The greedy bot for Party views (:func:`party_action_values`).

    :class:`~sushigo.bots.greedy.GreedyBot` (``make_bot("greedy")``) uses the
    same judgement for Party views and its own for base-game views; this class
    is the Party half on its own.
    """

    name: ClassVar[str] = "greedy"

    def choose(self, view: AnyView) -> Action:
        return by_view(view, base=_not_party, party=self._choose)

    def _choose(self, view: PartySeatView) -> Action:
        return best_action(legal_actions_of(view), lambda: party_action_values(view), self.rng)


def _not_party(view: SeatView) -> Action:
    raise TypeError("PartyGreedyBot plays Sushi Go Party! views only (use GreedyBot)")


__all__ = [
    "PartyEstimator",
    "PartyGreedyBot",
    "Tableau",
    "menu_composition",
    "party_action_values",
]
