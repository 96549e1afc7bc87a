"""Sushi Go Party! game records and score sheets (``docs/spec/game-record.md``,
edition ``"party"``).

A Party record has the base record's shape plus a ``menu``; each seat's
entry of a turn lists its moves in the order they happened: the pick, then
what it did with chopsticks, spoons, menus and takeout boxes
(``chopsticks2:egg``, ``spoon4:tofu``, ``menu7:egg,eel,tofu,tea:eel``,
``takeout_box10:0,2``).  :func:`replay_party` re-plays a record with the
engine and :func:`party_score_sheet` scores a physical table's collections.
Anything wrong raises :class:`~sushigo.engine.records.RecordError` with one line
naming the round, turn and seat.

>>> import random
>>> from sushigo.engine.rules import Rules
>>> game = PartyGame(Rules.party(3, "Master Menu"), seed=5)
>>> game.random_playout(random.Random(5))
>>> record = to_party_record(game)
>>> record["edition"], record["menu"][:3], record["meta"]
('party', ['nigiri', 'temaki', 'sashimi'], {'seed': 5})
>>> again = replay_party(record)
>>> again.result() == game.result(), again.history() == game.history()
(True, True)
>>> sheet = {"edition": "party", "players": 2, "menu": "Sushi Go!",
...          "rounds": [[["wasabi", "squid", "tempura", "tempura"], ["maki3", "pudding"]]]}
>>> party_score_sheet(sheet).rounds
((14, 6),)
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from sushigo.engine.errors import DealError, GameOverError, IllegalActionError, InvalidActionError, UnknownCardError
from sushigo.engine.menus import Menu, MenuError, check_menu, parse_menu
from sushigo.engine.names import did_you_mean
from sushigo.engine.party.actions import (
    FLIP_BASE,
    MAX_FLIP,
    PASS,
    copy_target,
    parse_party_action,
    party_action_name,
    played_card,
)
from sushigo.engine.party.cards import (
    DESSERT_IDS,
    FACE_DOWN,
    MENU_IDS,
    TAKEOUT_IDS,
    URAMAKI_ICONS,
    PartyCard,
    cards_of_item,
)
from sushigo.engine.party.game import Decision, Move, PartyGame, PartyResult, Played
from sushigo.engine.party.scoring import (
    URAMAKI_PLACES,
    URAMAKI_TARGET,
    party_winners,
    score_desserts,
    score_party_round,
)
from sushigo.engine.points import Breakdown
from sushigo.engine.records import (
    RECORD_FORMAT,
    RecordError,
    add_meta_and_result,
    check_claimed_result,
    check_format,
    deal_round,
    edition_of,
    expect,
    record_rounds,
    too_many_copies,
    type_name,
)
from sushigo.engine.rules import (
    NUM_ROUNDS,
    PARTY_MAX_PLAYERS,
    PARTY_MIN_PLAYERS,
    Rules,
    RulesError,
)
from sushigo.engine.turns import Phase

EDITION: Final = "party"

_CARD_BY_NAME: Final[dict[str, PartyCard]] = {c.name_in_records: c for c in PartyCard}
_SPECIAL_KINDS: Final = ("chopsticks", "spoon", "menu", "takeout_box")
_VIA: Final[dict[int, tuple[str, int]]] = {
    int(c): (c.item, c.number) for c in PartyCard if c.item in _SPECIAL_KINDS
}
"""Card id of each numbered special -> (kind, number)."""
_NUMBERS: Final[dict[str, tuple[int, ...]]] = {
    kind: tuple(sorted(n for k, n in _VIA.values() if k == kind)) for kind in _SPECIAL_KINDS
}
_MOVE_RE: Final = re.compile(r"(chopsticks|spoon|menu|takeout_box)(\d+):(.*)", re.DOTALL)
_NIGIRI_VALUE: Final = {int(PartyCard.EGG): 1, int(PartyCard.SALMON): 2, int(PartyCard.SQUID): 3}
_WASABI: Final = int(PartyCard.WASABI)
_SO: Final = int(PartyCard.SPECIAL_ORDER)
_RACE_TOTALS: Final[dict[int, tuple[int, ...]]] = {
    sum(places): places
    for places in (
        tuple(p for i, p in enumerate(URAMAKI_PLACES) if mask >> i & 1) for mask in range(8)
    )
}
"""Race points a seat can score in one round -> the places (8/5/2) that make them up."""


# ----------------------------------------------------------------- writing


def to_party_record(game: PartyGame, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game record of a Party game (finished or not) as a JSON-ready dict.

    Adds ``meta`` (the seed when known, plus anything given) and, for a
    finished game, ``result``.  Declined chopsticks and spoons are not
    written; a takeout box that flipped nothing while it could have is
    written ``takeout_boxN:``.
    """
    rounds = []
    for dealt, turns in game.history():
        rounds.append(
            {
                "hands": [[PartyCard(c).name_in_records for c in hand] for hand in dealt],
                "turns": [_turn_text(moves, game.players) for moves in turns],
            }
        )
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "edition": EDITION,
        "players": game.players,
        "menu": list(game.rules.menu),
        "options": game.rules.options(),
        "rounds": rounds,
    }
    return add_meta_and_result(record, game, meta)


def _turn_text(moves: Sequence[Move], players: int) -> list[list[str]]:
    """One turn's moves (engine order) as each seat's list of move strings."""
    out: list[list[str]] = [[] for _ in range(players)]
    # an open takeout box per seat: (its card id, index in out[seat], flipped positions)
    boxes: list[tuple[int, int, list[int]] | None] = [None] * players
    for m in moves:
        s = m.seat
        if m.via < 0:
            out[s].append(party_action_name(m.action))
            boxes[s] = None
            continue
        kind, number = _VIA[m.via]
        if kind == "takeout_box":
            box = boxes[s]
            if box is None or box[0] != m.via:
                box = (m.via, len(out[s]), [])
                out[s].append("")
                boxes[s] = box
            if m.action != PASS:
                box[2].append(m.action - FLIP_BASE)
            out[s][box[1]] = f"takeout_box{number}:" + ",".join(map(str, box[2]))
            if m.action == PASS:
                boxes[s] = None
            continue
        boxes[s] = None
        if m.action == PASS:
            continue
        action = party_action_name(m.action)
        if kind == "menu":
            drawn = ",".join(PartyCard(c).name_in_records for c in m.drawn)
            out[s].append(f"menu{number}:{drawn}:{action}")
        else:
            out[s].append(f"{kind}{number}:{action}")
    return out


# ----------------------------------------------------------------- reading


class _Move(NamedTuple):
    """One parsed move string."""

    text: str
    kind: str  # "pick" or a special's kind
    number: int = 0
    action: int = -1
    drawn: tuple[int, ...] = ()
    flips: tuple[int, ...] = ()


def _party_players(data: Mapping[str, Any]) -> int:
    if "players" not in data:
        raise RecordError("missing key 'players'")
    players = expect(data["players"], int, "players", "the player count")
    if not PARTY_MIN_PLAYERS <= players <= PARTY_MAX_PLAYERS:
        raise RecordError(
            f"players: Sushi Go Party! is for {PARTY_MIN_PLAYERS}-{PARTY_MAX_PLAYERS} players, not {players}"
        )
    return int(players)


_OPTION_TYPES: Final[dict[str, type]] = {
    "uramaki_split": str,
    "menu_card_draw": int,
    "two_player_pudding_penalty": bool,
    "wasabi_colour": str,
}


def _party_rules(data: Mapping[str, Any], players: int) -> Rules:
    """The menu and options of a Party record or score sheet, checked."""
    if "menu" not in data:
        raise RecordError(
            "edition: 'party' needs the key 'menu' (the game's 8 menu items, or an official menu name)"
        )
    raw = data["menu"]
    if not isinstance(raw, (str, list)):
        raise RecordError(f"menu: must be a list of menu items or a menu name, not {type_name(raw)}")
    try:
        menu: Menu = parse_menu(raw)
        check_menu(menu, players)
    except MenuError as e:
        raise RecordError(f"menu: {e}") from None
    options = data.get("options", {})
    expect(options, dict, "options", "the options")
    for key, value in options.items():
        kind = _OPTION_TYPES.get(key)
        if kind is not None:
            expect(value, kind, f"options, {key}", f"option {key!r}")
    try:
        return Rules.from_options(players, options, edition=EDITION, menu=menu)
    except RulesError as e:
        raise RecordError(f"options: {e}") from None


def _card_name(name: Any, where: str, rules: Rules) -> PartyCard:
    """A card of this game's menu, spelled exactly as in records."""
    if not isinstance(name, str):
        raise RecordError(f"{where}: expected a card name, not {type_name(name)}")
    card = _CARD_BY_NAME.get(name)
    if card is None:
        raise RecordError(f"{where}: unknown card {name!r}{did_you_mean(name, tuple(_CARD_BY_NAME))}")
    if card.item not in rules.menu:
        raise RecordError(f"{where}: {name!r} is not on this game's menu")
    return card


def _play_action(text: Any, where: str, rules: Rules) -> int:
    """A play action (a card, or a special order with its copy) from its text."""
    if not isinstance(text, str):
        raise RecordError(f"{where}: expected a card to play, not {type_name(text)}")
    if ">" not in text:
        return int(_card_name(text, where, rules))
    try:
        action = parse_party_action(text)
    except (InvalidActionError, UnknownCardError, ValueError) as e:
        raise RecordError(f"{where}: bad special order {text!r}: {' '.join(str(e).split())}") from None
    exact = party_action_name(action)
    if exact != text:
        raise RecordError(f"{where}: bad special order {text!r} (did you mean {exact!r}?)")
    target = copy_target(action)
    assert target is not None
    if "special_order" not in rules.menu:
        raise RecordError(f"{where}: 'special_order' is not on this game's menu")
    if target[0] != FACE_DOWN and PartyCard(target[0]).item not in rules.menu:
        raise RecordError(f"{where}: {text!r} copies a card that is not on this game's menu")
    return action


def _parse_move(text: Any, where: str, first: bool, rules: Rules) -> _Move:
    if not isinstance(text, str):
        raise RecordError(f"{where}: a move is a string, not {type_name(text)}")
    match = _MOVE_RE.fullmatch(text)
    if first:
        if match is not None:
            raise RecordError(f"{where}: the first move of a seat is its pick (a card), not {text!r}")
        return _Move(text, "pick", action=_play_action(text, where, rules))
    if match is None:
        raise RecordError(
            f"{where}: bad move {text!r} (after the pick: chopsticksN:CARD, spoonN:CARD, "
            "menuN:DRAWN:CARD or takeout_boxN:POSITIONS)"
        )
    kind, digits, rest = match.group(1), match.group(2), match.group(3)
    number = int(digits) if len(digits) <= 3 else -1
    if number not in _NUMBERS[kind] or digits != str(number):
        numbers = _NUMBERS[kind]
        raise RecordError(
            f"{where}: bad move {text!r}: {kind} cards are numbered {numbers[0]}-{numbers[-1]}"
        )
    if kind not in rules.menu:
        raise RecordError(f"{where}: bad move {text!r}: {kind} is not on this game's menu")
    if kind == "takeout_box":
        flips: list[int] = []
        for part in rest.split(",") if rest else []:
            if not (part.isascii() and part.isdigit()) or part != str(int(part)) or int(part) >= MAX_FLIP:
                raise RecordError(
                    f"{where}: bad move {text!r}: flip positions are numbers 0..{MAX_FLIP - 1}"
                    " separated by commas"
                )
            flips.append(int(part))
        if len(set(flips)) != len(flips):
            raise RecordError(f"{where}: bad move {text!r}: a position is flipped twice")
        return _Move(text, kind, number, flips=tuple(flips))
    drawn: tuple[int, ...] = ()
    if kind == "menu":
        if ":" not in rest:
            raise RecordError(f"{where}: bad move {text!r} (expected menu{number}:DRAWN,CARDS:CARD)")
        drawn_text, rest = rest.split(":", 1)
        drawn = tuple(
            int(_card_name(c, f"{where}, {text!r}, drawn card {i + 1}", rules))
            for i, c in enumerate(drawn_text.split(",") if drawn_text else [])
        )
    action = _play_action(rest, f"{where}, {text!r}", rules)
    return _Move(text, kind, number, action, drawn)


def _commit(game: PartyGame, seat: int, action: int, where: str, text: str) -> None:
    try:
        game.check_legal(seat, action)
    except (IllegalActionError, InvalidActionError, GameOverError) as e:
        raise RecordError(f"{where}: illegal move {text!r}: {' '.join(str(e).split())}") from None
    game.commit(seat, action)


def _drawing(game: PartyGame) -> Decision:
    """The menu decision waiting for its draw (``Phase.DRAW``)."""
    d = game._decision  # the engine has no public accessor for it in Phase.DRAW
    assert d is not None and d.kind == "menu"
    return d


def _describe(queue: deque[_Move]) -> str:
    return f"its next move is {queue[0].text!r}" if queue else "it has no more moves this turn"


def _resolve(game: PartyGame, queues: list[deque[_Move]], at: str) -> None:
    """Feed the seats' moves to the specials as the engine resolves them."""
    while game.phase in (Phase.RESOLVE, Phase.DRAW):
        if game.phase is Phase.DRAW:
            d = _drawing(game)
            number = PartyCard(d.card).number
            q = queues[d.seat]
            where = f"{at}, seat {d.seat}"
            if not q or q[0].kind != "menu" or q[0].number != number:
                raise RecordError(
                    f"{where}: menu{number} draws cards now, but {_describe(q)}"
                    f" (expected 'menu{number}:DRAWN:CARD')"
                )
            m = q.popleft()
            try:
                game.draw(m.drawn)
            except DealError as e:
                raise RecordError(f"{where}: impossible menu draw {m.text!r}: {e}") from None
            _commit(game, d.seat, m.action, where, m.text)
            continue
        d2 = game.decision
        assert d2 is not None
        number = PartyCard(d2.card).number
        q = queues[d2.seat]
        where = f"{at}, seat {d2.seat}"
        ours = bool(q) and q[0].kind == d2.kind and q[0].number == number
        if d2.kind in ("chopsticks", "spoon"):
            if ours:
                m = q.popleft()
                _commit(game, d2.seat, m.action, where, m.text)
            else:
                game.commit(d2.seat, PASS)
        elif d2.kind == "takeout_box":
            if not ours:
                game.commit(d2.seat, PASS)
                continue
            m = q.popleft()
            for pos in m.flips:
                if game.decision != d2:
                    raise RecordError(
                        f"{where}: illegal move {m.text!r}: nothing is left to flip at position {pos}"
                    )
                size = len(game.collection(d2.seat))
                if pos >= size or (FLIP_BASE + pos) not in game.legal_actions(d2.seat):
                    why = (
                        f"the collection holds {size} cards" if pos >= size
                        else "only face-up cards from earlier turns can be flipped"
                    )
                    raise RecordError(
                        f"{where}: illegal move {m.text!r}: position {pos} can't be flipped ({why})"
                    )
                game.commit(d2.seat, FLIP_BASE + pos)
            if game.decision == d2:
                game.commit(d2.seat, PASS)
        else:  # a menu that already drew (only when the game deals itself)
            if not ours or q[0].drawn != d2.drawn:
                raise RecordError(f"{where}: menu{number} drew cards, but {_describe(q)}")
            m = q.popleft()
            _commit(game, d2.seat, m.action, where, m.text)


def replay_party(data: Any, *, partial: bool = False) -> PartyGame:
    """Check a complete Party game record move by move; return the finished game.

    Raises :class:`~sushigo.engine.records.RecordError` naming the round, turn and
    seat of the first problem, including a record that stops early (unless
    ``partial``: then the game is returned where the record stops, which is
    how an unfinished game is resumed or inspected).
    """
    expect(data, dict, "record", "the record")
    check_format(data)
    if "edition" not in data or edition_of(data) != EDITION:
        raise RecordError(f"edition: expected {EDITION!r}, not {json.dumps(data.get('edition', 'base'))}")
    players = _party_players(data)
    rules = _party_rules(data, players)
    rounds = record_rounds(data)
    game = PartyGame(rules, auto_deal=False)
    k = rules.hand_size

    def read_hand(hand: Any, at: str) -> list[int]:
        expect(hand, list, at, "a hand")
        return [int(_card_name(c, f"{at}, card {i + 1}", rules)) for i, c in enumerate(hand)]

    for r, rnd in enumerate(rounds, start=1):
        where = f"round {r}"
        turns = deal_round(rnd, where, players, k, read_hand, game.deal)
        for t, turn in enumerate(turns, start=1):
            at = f"{where}, turn {t}"
            expect(turn, list, at, "a turn")
            if len(turn) != players:
                raise RecordError(f"{at}: {len(turn)} seats' moves for {players} players")
            queues: list[deque[_Move]] = []
            for s, moves in enumerate(turn):
                seat_at = f"{at}, seat {s}"
                expect(moves, list, seat_at, "the moves of a seat")
                if not moves:
                    raise RecordError(f"{seat_at}: no pick (a seat's moves start with the card it picked)")
                queues.append(deque(
                    _parse_move(m, seat_at if len(moves) == 1 else f"{seat_at}, move {i + 1}", i == 0, rules)
                    for i, m in enumerate(moves)
                ))
            picks = [q.popleft() for q in queues]
            for s, pick in enumerate(picks):
                try:
                    game.check_legal(s, pick.action)
                except (IllegalActionError, InvalidActionError, GameOverError) as e:
                    raise RecordError(
                        f"{at}, seat {s}: illegal pick {pick.text!r}: {' '.join(str(e).split())}"
                    ) from None
            game.play([p.action for p in picks])
            _resolve(game, queues, at)
            for s, q in enumerate(queues):
                if q:
                    raise RecordError(
                        f"{at}, seat {s}: move {q[0].text!r} was never used (the engine offered no "
                        f"such decision after the seat's earlier moves; moves are listed in the order they happen)"
                    )
        if len(turns) < k and not partial:
            raise RecordError(f"{where}: the record stops early, after turn {len(turns)} of {k}")
        if len(turns) < k:
            return game
    if partial and not game.is_over:
        return game
    if not game.is_over:
        raise RecordError(f"the record stops early, after round {len(rounds)} of {NUM_ROUNDS}")
    hint = ""
    if ("wasabi_colour" not in data.get("options", {}) and "wasabi" in rules.menu
            and {"tea", "soy_sauce"} & set(rules.menu)):
        hint = (" (records written by sushigo 0.4 and earlier counted wasabi as a colour of its"
                " own: add \"wasabi_colour\": \"own\" to its options)")
    check_claimed_result(data, game.result().to_json(), hint)
    return game


# ------------------------------------------------------------ score sheets


_RESOLVED: Final = MENU_IDS | TAKEOUT_IDS
"""Menus and takeout boxes leave the collection when they resolve (the turn they are played)."""


class _SheetCard(NamedTuple):
    """One entry of a score sheet's collection."""

    card: int | None
    """The physical card (None for a face_down card, whatever it was)."""
    kind: int
    """What it scores as."""
    on: str = ""
    """What it sits on: "wasabi", "face_down" (a flipped wasabi) or nothing."""


def _sheet_card(text: Any, where: str, rules: Rules) -> _SheetCard:
    """A score sheet entry: a card, ``special_order>CARD[+wasabi]``, ``face_down``,
    ``face_down+wasabi`` (a flipped card that sat on a wasabi) or ``NIGIRI+face_down``
    (a nigiri whose wasabi a takeout box flipped)."""
    if text in ("face_down", "face_down+wasabi") or (isinstance(text, str) and text.endswith("+face_down")):
        if "takeout_box" not in rules.menu:
            raise RecordError(f"{where}: face_down cards come from a takeout box, which is not on this menu")
        if text in ("face_down", "face_down+wasabi"):
            return _SheetCard(None, FACE_DOWN, text[len("face_down+"):])
        nigiri = _play_action(text[:-len("+face_down")], where, rules)
        if nigiri not in _NIGIRI_VALUE:
            raise RecordError(f"{where}: {text!r}: only a nigiri sits on a flipped wasabi (+face_down)")
        return _SheetCard(nigiri, nigiri, "face_down")
    if isinstance(text, str) and text.strip().lower().startswith("face"):
        near = did_you_mean(text, ("face_down", "face_down+wasabi"))
        if near:
            raise RecordError(f"{where}: unknown card {text!r}{near}")
    action = _play_action(text, where, rules)
    target = copy_target(action)
    if (target is not None and target[0] in _RESOLVED) or (target is None and action in _RESOLVED):
        what = PartyCard(target[0] if target is not None else action).item
        brought = ("the card it brought is listed instead" if what == "menu"
                   else "the cards it flipped are listed as face_down")
        raise RecordError(f"{where}: {text!r} can't be in a collection at the end of a round: "
                          f"a {what.replace('_', ' ')} leaves it when it resolves ({brought})")
    if target is None:
        return _SheetCard(action, action)
    if target[0] == FACE_DOWN and "takeout_box" not in rules.menu:
        raise RecordError(f"{where}: face_down cards come from a takeout box, which is not on this menu")
    card = played_card(action)
    assert card is not None
    return _SheetCard(card, target[0], "wasabi" if target[1] else "")


def _tripled(entries: Sequence[_SheetCard], texts: Sequence[Any], where: str) -> tuple[int, dict[int, int]]:
    """The face value of a collection's nigiri that sit on a face-up wasabi.

    In play order, a nigiri goes on the oldest empty wasabi listed before it
    (a special order copying one only when written ``+wasabi``);
    ``face_down+wasabi`` fills one too (the nigiri on it was flipped later);
    ``NIGIRI+face_down`` sits on the oldest ``face_down`` card not yet
    holding one (its wasabi was flipped later), which no empty wasabi may
    precede: the nigiri would have gone on that one.

    Returns that value and which entry sits on which: ``{position: position of the
    wasabi or face_down card it sits on}``.
    """
    slots: list[str] = []  # "wasabi": an empty face-up wasabi; "face_down": a flipped card holding no nigiri
    where_slot: list[int] = []  # the position of each slot
    pairs: dict[int, int] = {}
    triple = 0
    for i, (e, text) in enumerate(zip(entries, texts)):
        at = f"{where}, card {i + 1}: {text!r}"
        if e.kind == _WASABI:
            slots.append("wasabi")
            where_slot.append(i)
        elif e.kind == FACE_DOWN and e.card is None and not e.on:
            slots.append("face_down")
            where_slot.append(i)
        elif e.on == "face_down":
            if "face_down" not in slots:
                raise RecordError(f"{at}, but no face_down card is listed before it")
            j = slots.index("face_down")
            if "wasabi" in slots[:j]:
                raise RecordError(f"{at}, but an empty wasabi is listed before the face_down card it sits "
                                  "on: the nigiri would have gone on that wasabi")
            del slots[j]
            pairs[i] = where_slot.pop(j)
        elif e.on == "wasabi" or (e.kind in _NIGIRI_VALUE and e.card != _SO):
            if "wasabi" in slots:
                j = slots.index("wasabi")
                del slots[j]
                pairs[i] = where_slot.pop(j)
                triple += _NIGIRI_VALUE.get(e.kind, 0)
            elif e.on == "wasabi":
                raise RecordError(f"{at}, but no empty wasabi is listed before it")
    return triple, pairs


def _race_claimed(race: Sequence[int], where: str) -> int:
    """How many of the 8/5/2 places the race points of one round claimed."""
    awards = [0] * len(URAMAKI_PLACES)
    for s, points in enumerate(race):
        places = _RACE_TOTALS.get(points)
        if places is None:
            raise RecordError(
                f"{where}, seat {s}: {points} uramaki race points is not a sum of distinct places "
                f"{'/'.join(map(str, URAMAKI_PLACES))}"
            )
        for p in places:
            awards[URAMAKI_PLACES.index(p)] += 1
    claimed = 0
    for i, count in enumerate(awards):
        if not count:
            continue
        if i != claimed:
            skipped = "taken by a tie" if i < claimed else "never reached"
            seat = next(s for s, p in enumerate(race) if URAMAKI_PLACES[i] in _RACE_TOTALS[p])
            raise RecordError(
                f"{where}, seat {seat}: {URAMAKI_PLACES[i]} race points, but that place was {skipped}"
                " (places go 8, then 5, then 2; a tie skips the next place)"
            )
        claimed = min(claimed + count, len(URAMAKI_PLACES))
    return claimed


def _count_copies(cards: Sequence[int], counts: dict[int, int], kept: dict[int, int], box: Mapping[int, int],
                  desserts_in: int, dessert: str, seat_at: str) -> None:
    """Count one collection's cards into its round's ``counts`` and the desserts
    ``kept`` so far, naming this seat when they pass what the box holds (per
    round; desserts over the rounds) or the desserts shuffled in so far."""
    here: dict[int, int] = {}
    for card in cards:
        here[card] = here.get(card, 0) + 1
    for card, n in sorted(here.items()):
        name = PartyCard(card).name_in_records
        if card in DESSERT_IDS:
            kept[card] = kept.get(card, 0) + n
            if kept[card] > box[card]:
                raise too_many_copies(seat_at, n, name, kept[card], "kept so far", f"the box holds {box[card]}")
        else:
            counts[card] = counts.get(card, 0) + n
            if counts[card] > box[card]:
                raise too_many_copies(seat_at, n, name, counts[card], "in this round", f"the box holds {box[card]}")
    total = sum(kept.values())
    if total > desserts_in and any(card in DESSERT_IDS for card in here):
        n = sum(m for card, m in here.items() if card in DESSERT_IDS)
        raise too_many_copies(seat_at, n, dessert, total, "kept so far", f"only {desserts_in} entered the deck")


def party_score_sheet(data: Any) -> PartyResult:
    """Score the collections of a physical Party table (1 to 3 rounds).

    Desserts are scored only when all three rounds are present.
    """
    return read_party_sheet(data).result


def party_sheet_rules(data: Any) -> Rules:
    """The rules of a Party score sheet's setup (``players``, ``menu``, ``options``), checked."""
    expect(data, dict, "score sheet", "the score sheet")
    return _party_rules(data, _party_players(data))


class PartySheet(NamedTuple):
    """A Party score sheet read and scored (:func:`read_party_sheet`)."""

    rules: Rules
    rounds: list[list[list[Played]]]
    """``rounds[r][s]``: seat ``s``'s collection of round ``r`` as the engine's
    :class:`~sushigo.engine.party.game.Played` cards (``on`` says which wasabi or
    flipped card a nigiri sits on; ``uid`` is the card's position in the sheet)."""
    desserts: list[list[int]]
    """Each seat's dessert cards kept (kinds), all rounds together."""
    result: PartyResult


def _played(entries: Sequence[_SheetCard], pairs: Mapping[int, int]) -> list[Played]:
    col = []
    for i, e in enumerate(entries):
        p = Played(e.card if e.card is not None else FACE_DOWN, e.kind, 0, i, copy=e.card == _SO)
        col.append(p)
    for i, slot in pairs.items():
        col[i].on = slot
        col[slot].filled = True
    return col


def read_party_sheet(data: Any) -> PartySheet:
    """Check and score a Party score sheet, keeping each seat's collections as cards.

    >>> sheet = read_party_sheet({"edition": "party", "players": 2, "menu": "Sushi Go!",
    ...                           "rounds": [[["wasabi", "egg", "squid"], ["pudding"]]]})
    >>> sheet.result.rounds, [p.on for p in sheet.rounds[0][0]]
    (((6, 0),), [-1, 0, -1])
    """
    expect(data, dict, "score sheet", "the score sheet")
    if "edition" in data and edition_of(data) != EDITION:
        raise RecordError(f"edition: expected {EDITION!r}, not {json.dumps(data['edition'])}")
    players = _party_players(data)
    rules = _party_rules(data, players)
    menu = rules.menu
    rounds = data.get("rounds")
    if rounds is None:
        raise RecordError("missing key 'rounds'")
    expect(rounds, list, "rounds", "the rounds")
    if not 1 <= len(rounds) <= NUM_ROUNDS:
        raise RecordError(f"rounds: a score sheet has 1 to {NUM_ROUNDS} rounds, not {len(rounds)}")
    race_rounds: list[list[int]] = [[0] * players for _ in rounds]
    claimed_by_round = [0] * len(rounds)
    if "uramaki" in data:
        if "uramaki" not in menu:
            raise RecordError("uramaki: this menu has no uramaki")
        race = expect(data["uramaki"], list, "uramaki", "the uramaki race points")
        if len(race) != len(rounds):
            raise RecordError(f"uramaki: {len(race)} rounds of race points for {len(rounds)} rounds")
        for r, row in enumerate(race, start=1):
            where = f"uramaki, round {r}"
            expect(row, list, where, "a round's race points")
            if len(row) != players:
                raise RecordError(f"{where}: {len(row)} seats' points for {players} players")
            for s, v in enumerate(row):
                expect(v, int, f"{where}, seat {s}", "race points")
            race_rounds[r - 1] = [int(v) for v in row]
            claimed_by_round[r - 1] = _race_claimed(row, where)
    k = rules.hand_size
    box: dict[int, int] = {}
    for item in menu:
        box.update({int(c): n for c, n in cards_of_item(item, rules.uramaki_split).items()})
    desserts_in = 0
    dessert_seen: dict[int, int] = {}
    desserts: list[list[int]] = [[] for _ in range(players)]
    breakdowns: list[list[Breakdown]] = []
    collections: list[list[list[Played]]] = []
    for r, rnd in enumerate(rounds, start=1):
        where = f"round {r}"
        expect(rnd, list, where, "a round")
        if len(rnd) != players:
            raise RecordError(f"{where}: {len(rnd)} collections for {players} players")
        desserts_in += rules.desserts_per_round[r - 1]
        counts: dict[int, int] = {}
        kinds: list[list[int]] = []
        tripled: list[int] = []
        played: list[list[Played]] = []
        for s, col in enumerate(rnd):
            seat_at = f"{where}, seat {s}"
            expect(col, list, seat_at, "a collection")
            if len(col) > k:
                raise RecordError(f"{seat_at}: {len(col)} cards, but a {players}-player hand holds {k}")
            entries = [_sheet_card(text, f"{seat_at}, card {i + 1}", rules) for i, text in enumerate(col)]
            _count_copies([e.card for e in entries if e.card is not None], counts, dessert_seen, box,
                          desserts_in, menu[-1], seat_at)
            seat_kinds = [e.kind for e in entries]
            desserts[s].extend(kind for kind in seat_kinds if kind in DESSERT_IDS)
            icons = sum(URAMAKI_ICONS.get(k, 0) for k in seat_kinds)
            if icons >= URAMAKI_TARGET:
                raise RecordError(
                    f"{seat_at}: {icons} uramaki icons at the end of the round, but a seat that reaches "
                    f"{URAMAKI_TARGET} scores in the race and discards its uramaki (list its race points under "
                    "'uramaki')")
            kinds.append(seat_kinds)
            triple, pairs = _tripled(entries, col, seat_at)
            tripled.append(triple)
            played.append(_played(entries, pairs))
        breakdowns.append(
            score_party_round(kinds, tripled, menu, race_rounds[r - 1], claimed_by_round[r - 1],
                              rules.wasabi_colour)
        )
        collections.append(played)
    result = _party_result(rules, breakdowns, desserts, final=len(rounds) == NUM_ROUNDS)
    return PartySheet(rules, collections, desserts, result)


def _party_result(
    rules: Rules, breakdowns: list[list[Breakdown]], desserts: list[list[int]], *, final: bool
) -> PartyResult:
    players = rules.players
    rounds = tuple(tuple(sum(line.values()) for line in rnd) for rnd in breakdowns)
    counts = tuple(len(d) for d in desserts)
    if final:
        dessert_lines = tuple(score_desserts(desserts, rules.menu[-1], rules.two_player_pudding_penalty))
    else:
        dessert_lines = tuple({rules.menu[-1]: 0} for _ in range(players))
    points = tuple(sum(d.values()) for d in dessert_lines)
    totals = tuple(sum(r[s] for r in rounds) + points[s] for s in range(players))
    return PartyResult(
        rounds=rounds,
        breakdown=tuple(tuple(dict(line) for line in rnd) for rnd in breakdowns),
        desserts=dessert_lines,
        dessert_cards=counts,
        pudding=points,
        totals=totals,
        winners=tuple(party_winners(totals, counts)),
    )


__all__ = [
    "PartySheet", "party_score_sheet", "party_sheet_rules", "read_party_sheet", "replay_party", "to_party_record",
]
