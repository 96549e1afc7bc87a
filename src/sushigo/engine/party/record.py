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
from sushigo.engine.messages import Message, Param, msg, told, told_of
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
        raise told(RecordError, "missing key 'players'")
    players = expect(data["players"], int, "players", msg("the player count"))
    if not PARTY_MIN_PLAYERS <= players <= PARTY_MAX_PLAYERS:
        raise told(RecordError, "players: Sushi Go Party! is for {least}-{most} players, not {players}",
                   least=PARTY_MIN_PLAYERS, most=PARTY_MAX_PLAYERS, players=players)
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
        raise told(RecordError,
                   "edition: 'party' needs the key 'menu' (the game's 8 menu items, or an official menu name)")
    raw = data["menu"]
    if not isinstance(raw, (str, list)):
        # TRANSLATORS: {actual}: a kind of JSON value ("a whole number", "an object")
        raise told(RecordError, "menu: must be a list of menu items or a menu name, not {actual}",
                   actual=type_name(raw))
    try:
        menu: Menu = parse_menu(raw)
        check_menu(menu, players)
    except MenuError as e:
        # TRANSLATORS: {why}: what is wrong with the menu
        raise told(RecordError, "menu: {why}", why=told_of(e)) from None
    options = data.get("options", {})
    expect(options, dict, "options", msg("the options"))
    for key, value in options.items():
        kind = _OPTION_TYPES.get(key)
        if kind is not None:
            # TRANSLATORS: {name}: a rule option's name in quotes ('menu_card_draw')
            expect(value, kind, f"options, {key}", msg("option {name}", name=repr(key)))
    try:
        return Rules.from_options(players, options, edition=EDITION, menu=menu)
    except RulesError as e:
        raise told(RecordError, "options: {why}", why=told_of(e)) from None


def _one_line(error: BaseException) -> Param:
    """What ``error`` says (:func:`~sushigo.engine.messages.told_of`), on one line."""
    text = str(error)
    line = " ".join(text.split())
    return told_of(error) if line == text else line


def _card_name(name: Any, where: Param, rules: Rules) -> PartyCard:
    """A card of this game's menu, spelled exactly as in records."""
    if not isinstance(name, str):
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1, card 1"); {actual}: a kind of JSON
        # value ("a list", "a whole number")
        raise told(RecordError, "{where}: expected a card name, not {actual}", where=where, actual=type_name(name))
    card = _CARD_BY_NAME.get(name)
    if card is None:
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1, card 1"); {name}: what it says, in
        # quotes; {hint} is empty or " (did you mean 'tofu'?)"
        raise told(RecordError, "{where}: unknown card {name}{hint}", where=where, name=repr(name),
                   hint=did_you_mean(name, tuple(_CARD_BY_NAME)))
    if card.item not in rules.menu:
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1, card 1"); {name}: a card in quotes
        raise told(RecordError, "{where}: {name} is not on this game's menu", where=where, name=repr(name))
    return card


def _play_action(text: Any, where: Param, rules: Rules) -> int:
    """A play action (a card, or a special order with its copy) from its text."""
    if not isinstance(text, str):
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1"); {actual}: a kind of JSON value
        raise told(RecordError, "{where}: expected a card to play, not {actual}", where=where, actual=type_name(text))
    if ">" not in text:
        return int(_card_name(text, where, rules))
    try:
        action = parse_party_action(text)
    except (InvalidActionError, UnknownCardError, ValueError) as e:
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1"); {move}: what it says, in quotes;
        # {why}: what is wrong with it
        raise told(RecordError, "{where}: bad special order {move}: {why}", where=where, move=repr(text),
                   why=_one_line(e)) from None
    exact = party_action_name(action)
    if exact != text:
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1"); {move} and {exact}: special orders
        # as records write them, in quotes
        raise told(RecordError, "{where}: bad special order {move} (did you mean {exact}?)", where=where,
                   move=repr(text), exact=repr(exact))
    target = copy_target(action)
    assert target is not None
    if "special_order" not in rules.menu:
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1")
        raise told(RecordError, "{where}: 'special_order' is not on this game's menu", where=where)
    if target[0] != FACE_DOWN and PartyCard(target[0]).item not in rules.menu:
        # TRANSLATORS: {where}: a place in the file ("round 2, turn 3, seat 1"); {move}: a special order in quotes
        raise told(RecordError, "{where}: {move} copies a card that is not on this game's menu", where=where,
                   move=repr(text))
    return action


def _parse_move(text: Any, where: Param, first: bool, rules: Rules) -> _Move:
    if not isinstance(text, str):
        # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {actual}: a kind of JSON value
        raise told(RecordError, "{where}: a move is a string, not {actual}", where=where, actual=type_name(text))
    match = _MOVE_RE.fullmatch(text)
    if first:
        if match is not None:
            # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move, in quotes
            raise told(RecordError, "{where}: the first move of a seat is its pick (a card), not {move}", where=where,
                       move=repr(text))
        return _Move(text, "pick", action=_play_action(text, where, rules))
    if match is None:
        # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1, move 2"); {move}: a move, in
        # quotes. The moves in capitals are how records write them: CARD, DRAWN and POSITIONS may be translated.
        raise told(RecordError, "{where}: bad move {move} (after the pick: chopsticksN:CARD, spoonN:CARD, "
                   "menuN:DRAWN:CARD or takeout_boxN:POSITIONS)", where=where, move=repr(text))
    kind, digits, rest = match.group(1), match.group(2), match.group(3)
    number = int(digits) if len(digits) <= 3 else -1
    if number not in _NUMBERS[kind] or digits != str(number):
        numbers = _NUMBERS[kind]
        # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1, move 2"); {move}: a move, in
        # quotes; {kind}: a special's name in records (chopsticks, spoon, menu, takeout_box)
        raise told(RecordError, "{where}: bad move {move}: {kind} cards are numbered {first}-{last}", where=where,
                   move=repr(text), kind=kind, first=numbers[0], last=numbers[-1])
    if kind not in rules.menu:
        # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1, move 2"); {move}: a move, in
        # quotes; {kind}: a special's name in records (chopsticks, spoon, menu, takeout_box)
        raise told(RecordError, "{where}: bad move {move}: {kind} is not on this game's menu", where=where,
                   move=repr(text), kind=kind)
    if kind == "takeout_box":
        flips: list[int] = []
        for part in rest.split(",") if rest else []:
            if not (part.isascii() and part.isdigit()) or part != str(int(part)) or int(part) >= MAX_FLIP:
                # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1, move 2"); {move}: a move,
                # in quotes
                raise told(RecordError,
                           "{where}: bad move {move}: flip positions are numbers 0..{last} separated by commas",
                           where=where, move=repr(text), last=MAX_FLIP - 1)
            flips.append(int(part))
        if len(set(flips)) != len(flips):
            # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1, move 2"); {move}: a move, in
            # quotes
            raise told(RecordError, "{where}: bad move {move}: a position is flipped twice", where=where,
                       move=repr(text))
        return _Move(text, kind, number, flips=tuple(flips))
    drawn: tuple[int, ...] = ()
    if kind == "menu":
        if ":" not in rest:
            # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1, move 2"); {move}: a move, in
            # quotes; menu{number}:DRAWN,CARDS:CARD is how records write the move (DRAWN, CARDS and CARD may be
            # translated)
            raise told(RecordError, "{where}: bad move {move} (expected menu{number}:DRAWN,CARDS:CARD)", where=where,
                       move=repr(text), number=str(number))
        drawn_text, rest = rest.split(":", 1)
        cards: list[int] = []
        for i, c in enumerate(drawn_text.split(",") if drawn_text else []):
            # TRANSLATORS: a place in a record: {where} is a place ("round 2, turn 3, seat 1, move 2"), {move} a
            # move in quotes, {card} counts from 1
            at = msg("{where}, {move}, drawn card {card}", where=where, move=repr(text), card=i + 1)
            cards.append(int(_card_name(c, at, rules)))
        drawn = tuple(cards)
    # TRANSLATORS: a place in a record: {where} is a place ("round 2, turn 3, seat 1, move 2"), {move} a move in quotes
    action = _play_action(rest, msg("{where}, {move}", where=where, move=repr(text)), rules)
    return _Move(text, kind, number, action, drawn)


def _commit(game: PartyGame, seat: int, action: int, where: Param, text: str) -> None:
    try:
        game.check_legal(seat, action)
    except (IllegalActionError, InvalidActionError, GameOverError) as e:
        # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move, in quotes;
        # {why}: why it is illegal
        raise told(RecordError, "{where}: illegal move {move}: {why}", where=where, move=repr(text),
                   why=_one_line(e)) from None
    game.commit(seat, action)


def _drawing(game: PartyGame) -> Decision:
    """The menu decision waiting for its draw (``Phase.DRAW``)."""
    d = game._decision  # the engine has no public accessor for it in Phase.DRAW
    assert d is not None and d.kind == "menu"
    return d


def _describe(queue: deque[_Move]) -> Message:
    """What a seat does next in the record (it says so when a special waits for another move)."""
    if queue:
        # TRANSLATORS: said of a seat of a record; {move}: a move in quotes
        return msg("its next move is {move}", move=repr(queue[0].text))
    # TRANSLATORS: said of a seat of a record
    return msg("it has no more moves this turn")


def _resolve(game: PartyGame, queues: list[deque[_Move]], at: Param) -> None:
    """Feed the seats' moves to the specials as the engine resolves them."""
    while game.phase in (Phase.RESOLVE, Phase.DRAW):
        if game.phase is Phase.DRAW:
            d = _drawing(game)
            number = PartyCard(d.card).number
            q = queues[d.seat]
            where = msg("{where}, seat {seat}", where=at, seat=d.seat)
            if not q or q[0].kind != "menu" or q[0].number != number:
                # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); menu{number} is a Menu
                # card's name in records; {next}: what the seat does next ("its next move is 'tofu'")
                raise told(RecordError,
                           "{where}: menu{number} draws cards now, but {next} (expected 'menu{number}:DRAWN:CARD')",
                           where=where, number=str(number), next=_describe(q))
            m = q.popleft()
            try:
                game.draw(m.drawn)
            except DealError as e:
                # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move in quotes;
                # {why}: what is wrong with the draw
                raise told(RecordError, "{where}: impossible menu draw {move}: {why}", where=where, move=repr(m.text),
                           why=told_of(e)) from None
            _commit(game, d.seat, m.action, where, m.text)
            continue
        d2 = game.decision
        assert d2 is not None
        number = PartyCard(d2.card).number
        q = queues[d2.seat]
        where = msg("{where}, seat {seat}", where=at, seat=d2.seat)
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
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move in
                    # quotes; {position}: a card's place in the collection, from 0
                    raise told(RecordError,
                               "{where}: illegal move {move}: nothing is left to flip at position {position}",
                               where=where, move=repr(m.text), position=pos)
                size = len(game.collection(d2.seat))
                if pos >= size:
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move in
                    # quotes; {position}: a card's place in the collection, from 0
                    raise told(RecordError, "{where}: illegal move {move}: position {position} can't be flipped "
                               "(the collection holds {size} cards)", where=where, move=repr(m.text), position=pos,
                               size=size)
                if (FLIP_BASE + pos) not in game.legal_actions(d2.seat):
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move in
                    # quotes; {position}: a card's place in the collection, from 0
                    raise told(RecordError, "{where}: illegal move {move}: position {position} can't be flipped "
                               "(only face-up cards from earlier turns can be flipped)", where=where,
                               move=repr(m.text), position=pos)
                game.commit(d2.seat, FLIP_BASE + pos)
            if game.decision == d2:
                game.commit(d2.seat, PASS)
        else:  # a menu that already drew (only when the game deals itself)
            if not ours or q[0].drawn != d2.drawn:
                # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); menu{number} is a Menu
                # card's name in records; {next}: what the seat does next ("its next move is 'tofu'")
                raise told(RecordError, "{where}: menu{number} drew cards, but {next}", where=where,
                           number=str(number), next=_describe(q))
            m = q.popleft()
            _commit(game, d2.seat, m.action, where, m.text)


def replay_party(data: Any, *, partial: bool = False) -> PartyGame:
    """Check a complete Party game record move by move; return the finished game.

    Raises :class:`~sushigo.engine.records.RecordError` naming the round, turn and
    seat of the first problem, including a record that stops early (unless
    ``partial``: then the game is returned where the record stops, which is
    how an unfinished game is resumed or inspected).
    """
    expect(data, dict, msg("record"), msg("the record"))
    check_format(data)
    if "edition" not in data or edition_of(data) != EDITION:
        # TRANSLATORS: {expected} and {value}: editions as a record writes them ('party', "base")
        raise told(RecordError, "edition: expected {expected}, not {value}", expected=repr(EDITION),
                   value=json.dumps(data.get("edition", "base")))
    players = _party_players(data)
    rules = _party_rules(data, players)
    rounds = record_rounds(data)
    game = PartyGame(rules, auto_deal=False)
    k = rules.hand_size

    def read_hand(hand: Any, at: Param) -> list[int]:
        expect(hand, list, at, msg("a hand"))
        return [int(_card_name(c, msg("{where}, card {card}", where=at, card=i + 1), rules))
                for i, c in enumerate(hand)]

    for r, rnd in enumerate(rounds, start=1):
        where = msg("round {round}", round=r)
        turns = deal_round(rnd, where, players, k, read_hand, game.deal)
        for t, turn in enumerate(turns, start=1):
            at = msg("{where}, turn {turn}", where=where, turn=t)
            expect(turn, list, at, msg("a turn"))
            if len(turn) != players:
                # TRANSLATORS: {where}: a place in the record ("round 2, turn 3")
                raise told(RecordError, "{where}: {count} seats' moves for {players} players", where=at,
                           count=len(turn), players=players)
            queues: list[deque[_Move]] = []
            for s, moves in enumerate(turn):
                seat_at = msg("{where}, seat {seat}", where=at, seat=s)
                expect(moves, list, seat_at, msg("the moves of a seat"))
                if not moves:
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1")
                    raise told(RecordError, "{where}: no pick (a seat's moves start with the card it picked)",
                               where=seat_at)
                queue: deque[_Move] = deque()
                for i, m in enumerate(moves):
                    # TRANSLATORS: a place in a record: {where} is a place ("round 2, turn 3, seat 1"), {number}
                    # counts from 1
                    move_at = msg("{where}, move {number}", where=seat_at, number=i + 1) if len(moves) > 1 else seat_at
                    queue.append(_parse_move(m, move_at, i == 0, rules))
                queues.append(queue)
            picks = [q.popleft() for q in queues]
            for s, pick in enumerate(picks):
                try:
                    game.check_legal(s, pick.action)
                except (IllegalActionError, InvalidActionError, GameOverError) as e:
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move in
                    # quotes; {why}: why it is illegal
                    raise told(RecordError, "{where}: illegal pick {move}: {why}",
                               where=msg("{where}, seat {seat}", where=at, seat=s), move=repr(pick.text),
                               why=_one_line(e)) from None
            game.play([p.action for p in picks])
            _resolve(game, queues, at)
            for s, q in enumerate(queues):
                if q:
                    # TRANSLATORS: {where}: a place in the record ("round 2, turn 3, seat 1"); {move}: a move in quotes
                    raise told(RecordError, "{where}: move {move} was never used (the engine offered no such "
                               "decision after the seat's earlier moves; moves are listed in the order they happen)",
                               where=msg("{where}, seat {seat}", where=at, seat=s), move=repr(q[0].text))
        if len(turns) < k and not partial:
            raise told(RecordError, "{where}: the record stops early, after turn {turn} of {turns}", where=where,
                       turn=len(turns), turns=k)
        if len(turns) < k:
            return game
    if partial and not game.is_over:
        return game
    if not game.is_over:
        raise told(RecordError, "the record stops early, after round {round} of {rounds}", round=len(rounds),
                   rounds=NUM_ROUNDS)
    hint: Param = ""
    if ("wasabi_colour" not in data.get("options", {}) and "wasabi" in rules.menu
            and {"tea", "soy_sauce"} & set(rules.menu)):
        # TRANSLATORS: added after "the record says totals [...], replay gives [...]"; keep the space in front
        # when the language puts one there. "wasabi_colour" and "own" are written as they are in records.
        hint = msg(" (records written by sushigo 0.4 and earlier counted wasabi as a colour of its own: "
                   "add \"wasabi_colour\": \"own\" to its options)")
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


def _sheet_card(text: Any, where: Param, rules: Rules) -> _SheetCard:
    """A score sheet entry: a card, ``special_order>CARD[+wasabi]``, ``face_down``,
    ``face_down+wasabi`` (a flipped card that sat on a wasabi) or ``NIGIRI+face_down``
    (a nigiri whose wasabi a takeout box flipped)."""
    if text in ("face_down", "face_down+wasabi") or (isinstance(text, str) and text.endswith("+face_down")):
        if "takeout_box" not in rules.menu:
            # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1, card 3")
            raise told(RecordError, "{where}: face_down cards come from a takeout box, which is not on this menu",
                       where=where)
        if text in ("face_down", "face_down+wasabi"):
            return _SheetCard(None, FACE_DOWN, text[len("face_down+"):])
        nigiri = _play_action(text[:-len("+face_down")], where, rules)
        if nigiri not in _NIGIRI_VALUE:
            # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1, card 3"); {card}: what it says,
            # in quotes
            raise told(RecordError, "{where}: {card}: only a nigiri sits on a flipped wasabi (+face_down)",
                       where=where, card=repr(text))
        return _SheetCard(nigiri, nigiri, "face_down")
    if isinstance(text, str) and text.strip().lower().startswith("face"):
        near = did_you_mean(text, ("face_down", "face_down+wasabi"))
        if near:
            raise told(RecordError, "{where}: unknown card {name}{hint}", where=where, name=repr(text), hint=near)
    action = _play_action(text, where, rules)
    target = copy_target(action)
    if (target is not None and target[0] in _RESOLVED) or (target is None and action in _RESOLVED):
        if PartyCard(target[0] if target is not None else action).item == "menu":
            # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1, card 3"); {card}: a card in quotes
            raise told(RecordError, "{where}: {card} can't be in a collection at the end of a round: a menu leaves "
                       "it when it resolves (the card it brought is listed instead)", where=where, card=repr(text))
        # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1, card 3"); {card}: a card in quotes;
        # face_down is written as records write it
        raise told(RecordError, "{where}: {card} can't be in a collection at the end of a round: a takeout box "
                   "leaves it when it resolves (the cards it flipped are listed as face_down)", where=where,
                   card=repr(text))
    if target is None:
        return _SheetCard(action, action)
    if target[0] == FACE_DOWN and "takeout_box" not in rules.menu:
        raise told(RecordError, "{where}: face_down cards come from a takeout box, which is not on this menu",
                   where=where)
    card = played_card(action)
    assert card is not None
    return _SheetCard(card, target[0], "wasabi" if target[1] else "")


def _tripled(entries: Sequence[_SheetCard], texts: Sequence[Any], where: Param) -> tuple[int, dict[int, int]]:
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
        at = msg("{where}, card {card}", where=where, card=i + 1)
        if e.kind == _WASABI:
            slots.append("wasabi")
            where_slot.append(i)
        elif e.kind == FACE_DOWN and e.card is None and not e.on:
            slots.append("face_down")
            where_slot.append(i)
        elif e.on == "face_down":
            if "face_down" not in slots:
                # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1, card 3"); {card}: what it
                # says, in quotes ('egg+face_down'); face_down is written as records write it
                raise told(RecordError, "{where}: {card}, but no face_down card is listed before it", where=at,
                           card=repr(text))
            j = slots.index("face_down")
            if "wasabi" in slots[:j]:
                # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1, card 3"); {card}: what it
                # says, in quotes ('egg+face_down'); face_down is written as records write it
                raise told(RecordError, "{where}: {card}, but an empty wasabi is listed before the face_down card "
                           "it sits on: the nigiri would have gone on that wasabi", where=at, card=repr(text))
            del slots[j]
            pairs[i] = where_slot.pop(j)
        elif e.on == "wasabi" or (e.kind in _NIGIRI_VALUE and e.card != _SO):
            if "wasabi" in slots:
                j = slots.index("wasabi")
                del slots[j]
                pairs[i] = where_slot.pop(j)
                triple += _NIGIRI_VALUE.get(e.kind, 0)
            elif e.on == "wasabi":
                # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1, card 3"); {card}: what it
                # says, in quotes ('special_order>egg+wasabi')
                raise told(RecordError, "{where}: {card}, but no empty wasabi is listed before it", where=at,
                           card=repr(text))
    return triple, pairs


def _race_claimed(race: Sequence[int], where: Param) -> int:
    """How many of the 8/5/2 places the race points of one round claimed."""
    awards = [0] * len(URAMAKI_PLACES)
    for s, points in enumerate(race):
        places = _RACE_TOTALS.get(points)
        if places is None:
            # TRANSLATORS: {where}: a place in the score sheet ("uramaki, round 2, seat 1"); {places}: the
            # points of the places of the race, 8/5/2
            raise told(RecordError, "{where}: {points} uramaki race points is not a sum of distinct places {places}",
                       where=msg("{where}, seat {seat}", where=where, seat=s), points=points,
                       places="/".join(map(str, URAMAKI_PLACES)))
        for p in places:
            awards[URAMAKI_PLACES.index(p)] += 1
    claimed = 0
    for i, count in enumerate(awards):
        if not count:
            continue
        if i != claimed:
            seat = next(s for s, p in enumerate(race) if URAMAKI_PLACES[i] in _RACE_TOTALS[p])
            seat_at = msg("{where}, seat {seat}", where=where, seat=seat)
            if i < claimed:
                # TRANSLATORS: {where}: a place in the score sheet ("uramaki, round 2, seat 1")
                raise told(RecordError, "{where}: {points} race points, but that place was taken by a tie (places "
                           "go 8, then 5, then 2; a tie skips the next place)", where=seat_at, points=URAMAKI_PLACES[i])
            # TRANSLATORS: {where}: a place in the score sheet ("uramaki, round 2, seat 1")
            raise told(RecordError, "{where}: {points} race points, but that place was never reached (places go 8, "
                       "then 5, then 2; a tie skips the next place)", where=seat_at, points=URAMAKI_PLACES[i])
        claimed = min(claimed + count, len(URAMAKI_PLACES))
    return claimed


def _count_copies(cards: Sequence[int], counts: dict[int, int], kept: dict[int, int], box: Mapping[int, int],
                  desserts_in: int, dessert: str, seat_at: Param) -> None:
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
                raise too_many_copies(seat_at, n, name, kept[card], box[card], "kept")
        else:
            counts[card] = counts.get(card, 0) + n
            if counts[card] > box[card]:
                raise too_many_copies(seat_at, n, name, counts[card], box[card], "round")
    total = sum(kept.values())
    if total > desserts_in and any(card in DESSERT_IDS for card in here):
        n = sum(m for card, m in here.items() if card in DESSERT_IDS)
        raise too_many_copies(seat_at, n, dessert, total, desserts_in, "entered")


def party_score_sheet(data: Any) -> PartyResult:
    """Score the collections of a physical Party table (1 to 3 rounds).

    Desserts are scored only when all three rounds are present.
    """
    return read_party_sheet(data).result


def party_sheet_rules(data: Any) -> Rules:
    """The rules of a Party score sheet's setup (``players``, ``menu``, ``options``), checked."""
    expect(data, dict, msg("score sheet"), msg("the score sheet"))
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
    expect(data, dict, msg("score sheet"), msg("the score sheet"))
    if "edition" in data and edition_of(data) != EDITION:
        raise told(RecordError, "edition: expected {expected}, not {value}", expected=repr(EDITION),
                   value=json.dumps(data["edition"]))
    players = _party_players(data)
    rules = _party_rules(data, players)
    menu = rules.menu
    rounds = data.get("rounds")
    if rounds is None:
        raise told(RecordError, "missing key 'rounds'")
    expect(rounds, list, "rounds", msg("the rounds"))
    if not 1 <= len(rounds) <= NUM_ROUNDS:
        raise told(RecordError, "rounds: a score sheet has 1 to {most} rounds, not {count}", most=NUM_ROUNDS,
                   count=len(rounds))
    race_rounds: list[list[int]] = [[0] * players for _ in rounds]
    claimed_by_round = [0] * len(rounds)
    if "uramaki" in data:
        if "uramaki" not in menu:
            raise told(RecordError, "uramaki: this menu has no uramaki")
        race = expect(data["uramaki"], list, "uramaki", msg("the uramaki race points"))
        if len(race) != len(rounds):
            raise told(RecordError, "uramaki: {count} rounds of race points for {rounds} rounds", count=len(race),
                       rounds=len(rounds))
        for r, row in enumerate(race, start=1):
            # TRANSLATORS: a place in a score sheet: a round of its uramaki race points ("uramaki" is its key)
            where = msg("uramaki, round {round}", round=r)
            expect(row, list, where, msg("a round's race points"))
            if len(row) != players:
                # TRANSLATORS: {where}: a place in the score sheet ("uramaki, round 2")
                raise told(RecordError, "{where}: {count} seats' points for {players} players", where=where,
                           count=len(row), players=players)
            for s, v in enumerate(row):
                expect(v, int, msg("{where}, seat {seat}", where=where, seat=s), msg("race points"))
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
        where = msg("round {round}", round=r)
        expect(rnd, list, where, msg("a round"))
        if len(rnd) != players:
            raise told(RecordError, "{where}: {count} collections for {players} players", where=where,
                       count=len(rnd), players=players)
        desserts_in += rules.desserts_per_round[r - 1]
        counts: dict[int, int] = {}
        kinds: list[list[int]] = []
        tripled: list[int] = []
        played: list[list[Played]] = []
        for s, col in enumerate(rnd):
            seat_at = msg("{where}, seat {seat}", where=where, seat=s)
            expect(col, list, seat_at, msg("a collection"))
            if len(col) > k:
                raise told(RecordError, "{where}: {count} cards, but a {players}-player hand holds {size}",
                           where=seat_at, count=len(col), players=players, size=k)
            entries = [_sheet_card(text, msg("{where}, card {card}", where=seat_at, card=i + 1), rules)
                       for i, text in enumerate(col)]
            _count_copies([e.card for e in entries if e.card is not None], counts, dessert_seen, box,
                          desserts_in, menu[-1], seat_at)
            seat_kinds = [e.kind for e in entries]
            desserts[s].extend(kind for kind in seat_kinds if kind in DESSERT_IDS)
            icons = sum(URAMAKI_ICONS.get(k, 0) for k in seat_kinds)
            if icons >= URAMAKI_TARGET:
                # TRANSLATORS: {where}: a place in the score sheet ("round 2, seat 1"); 'uramaki' is the score
                # sheet's key, as it is written
                raise told(RecordError, "{where}: {icons} uramaki icons at the end of the round, but a seat that "
                           "reaches {target} scores in the race and discards its uramaki (list its race points "
                           "under 'uramaki')", where=seat_at, icons=icons, target=URAMAKI_TARGET)
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
