"""The game state machine: deal, pick, reveal, pass, score (docs/rules.md §1.3-§1.9).

A :class:`Game` is mutable, like python-chess's ``Board``: :meth:`Game.play`
advances a turn with every seat's pick at once; :meth:`Game.commit` takes one
seat's pick at a time and keeps it hidden until the last seat has picked,
then reveals.  :meth:`Game.clone` branches for search.

>>> from sushigo import Game, Card, encode
>>> game = Game(3, seed=7)
>>> game.round, game.turn, len(game.hand(0))
(1, 1, 9)
>>> while not game.is_over:
...     game.play([game.legal_actions(s)[0] for s in range(3)])
>>> game.result().totals == tuple(sum(r[s] for r in game.result().rounds) +
...                               game.result().pudding[s] for s in range(3))
True

Hidden information (per-seat views, determinization) lives in
:mod:`sushigo.engine.base.view`; records in :mod:`sushigo.engine.base.record`.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, SupportsIndex

from sushigo.engine.base.actions import NUM_ACTIONS, Action, card_ids
from sushigo.engine.base.cards import NUM_CARD_TYPES, Card, count_cards, full_deck
from sushigo.engine.base.scoring import Result, score_round
from sushigo.engine.copies import by_slots
from sushigo.engine.errors import (
    DealError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    as_action,
)
from sushigo.engine.messages import told
from sushigo.engine.points import Breakdown
from sushigo.engine.rules import NUM_ROUNDS, Rules
from sushigo.engine.turns import Phase, holds, shuffle, take

if TYPE_CHECKING:  # mypyc's native integers; plain ints when interpreted (no runtime import)
    from mypy_extensions import i64

_CHOPSTICKS: Final = int(Card.CHOPSTICKS)
_PUDDING: Final = int(Card.PUDDING)
_N: Final = NUM_CARD_TYPES
_FULL_DECK: Final = tuple(full_deck())
_CARDS: Final = tuple(Card)
"""``_CARDS[c] is Card(c)``: indexing a tuple, where calling the enum is a Python-level lookup."""


_PICK: Final = Phase.PICK
_DEAL: Final = Phase.DEAL
_OVER: Final = Phase.OVER
TYPE_SETS: Final = tuple(tuple(c for c in range(_N) if m >> c & 1) for m in range(1 << _N))
"""The card ids in each set of card types (bit ``c`` stands for card id ``c``), ascending:
a hand's legal single picks, from the mask of the types it holds (the compiled kernel
of :mod:`sushigo.sim.kernel` picks from the same table)."""


def _distinct(hand: list[int]) -> tuple[int, ...]:
    """The card ids in ``hand``, each once, ascending (what ``sorted(set(hand))`` gives).

    A table of all 4,096 sets rather than :func:`sushigo.engine.turns.distinct`'s
    cache: the base game's 12 card ids allow it, and compiled the playout loop runs
    at 2.9 x TAG with it against 2.0 with the cache (benchmarks/engine_speed.py)."""
    mask: i64 = 0  # compiled, native: ids are below 12 (mypyc writes ``one`` as C's int 1)
    one: i64 = 1
    for c in hand:
        mask |= one << c
    return TYPE_SETS[mask]


_GAME_STATE: Final = (
    "rules",
    "players",
    "seed",
    "_rng",
    "_auto_deal",
    "deck",
    "discard",
    "round",
    "turn",
    "hands",
    "collections",
    "kept_puddings",
    "_pending",
    "_npending",
    "_breakdowns",
    "_finished",
    "_history",
    "_phase",
    "_step",
)
"""The attributes of a game: what a copy carries."""


class Game:
    """One game of Sushi Go! (base edition).

    Args:
        rules: a :class:`~sushigo.engine.rules.Rules`, or just the number of players.
        seed: seed for a private :class:`random.Random` that shuffles the deck.
        rng: a ready random generator instead of ``seed`` (it is used, not
            copied; ``seed`` is then ignored and :attr:`seed` is ``None``).
        auto_deal: deal each round from the shuffled draw pile (default).  With
            ``False`` the caller deals every round with :meth:`deal`, as a
            replayed record does.

    The same seed (or rng state) and the same actions always give the same game.
    """

    __slots__ = _GAME_STATE

    rules: Rules
    players: int
    seed: int | None
    deck: list[int]
    """The draw pile, top card last.  Hidden from every seat."""
    discard: list[int]
    """Cards discarded at the end of earlier rounds (face up, public)."""
    round: int
    """The current round, 1 to 3 (3 once the game is over)."""
    turn: int
    """The current turn of the round, from 1."""
    hands: list[list[int]]
    """``hands[s]`` is the hand seat ``s`` holds now (card ids)."""
    collections: list[list[int]]
    """``collections[s]``: the cards seat ``s`` revealed this round, in play order."""
    kept_puddings: list[int]
    """Puddings each seat kept from finished rounds."""

    def __init__(
        self,
        rules: Rules | int,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        auto_deal: bool = True,
        _shell: bool = False,
    ) -> None:
        if isinstance(rules, int):
            rules = Rules(rules)
        self.rules = rules
        n = self.players = rules.players
        if _shell:
            return  # clone() fills in the rest
        # The seed is kept (for records) only when it made the deal.
        self.seed = seed if rng is None else None
        self._rng = rng if rng is not None else random.Random(seed)
        self._auto_deal = auto_deal
        self.deck = list(_FULL_DECK)
        if auto_deal:
            shuffle(self.deck, self._rng)
        self.discard = []
        self.round = 1
        self.turn = 1
        self.hands = [[] for _ in range(n)]
        self.collections = [[] for _ in range(n)]
        self.kept_puddings = [0] * n
        self._pending: list[int | None] = [None] * n
        self._npending = 0
        self._breakdowns: list[list[Breakdown]] = []
        self._finished: list[list[list[int]]] = []
        self._history: list[tuple[list[tuple[int, ...]], list[list[int]]]] = []
        self._phase = _DEAL
        self._step = 1
        if auto_deal:
            self._deal_from_pile()

    # ------------------------------------------------------------------ state

    @property
    def phase(self) -> Phase:
        """What the game waits for: a deal, picks, or nothing (over)."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """Whether all three rounds have been scored."""
        return self._phase is _OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Seat ``seat``'s current hand as cards (hidden from the other seats)."""
        return tuple([_CARDS[c] for c in self.hands[seat]])

    def collection(self, seat: int) -> tuple[Card, ...]:
        """Seat ``seat``'s collection this round, in play order (public)."""
        return tuple([_CARDS[c] for c in self.collections[seat]])

    def puddings(self) -> list[int]:
        """Puddings per seat: kept from earlier rounds plus this round's."""
        return [
            self.kept_puddings[s] + self.collections[s].count(_PUDDING)
            for s in range(self.players)
        ]

    @property
    def pass_step(self) -> int:
        """Where hands go after this turn: +1 to the left, -1 to the right."""
        return self.rules.pass_step(self.round)

    def receives_from(self, seat: int) -> int:
        """The seat whose hand ``seat`` picks up after this turn."""
        return (seat - self.pass_step) % self.players

    def passes_to(self, seat: int) -> int:
        """The seat that picks up ``seat``'s hand after this turn."""
        return (seat + self.pass_step) % self.players

    @property
    def pending_seats(self) -> list[int]:
        """Seats that still have to pick this turn (all of them until one commits)."""
        if self._phase is not _PICK:
            return []
        return [s for s in range(self.players) if self._pending[s] is None]

    def has_committed(self, seat: int) -> bool:
        """Whether ``seat`` committed a (still hidden) pick this turn."""
        return self._pending[seat] is not None

    def committed_action(self, seat: int) -> Action | None:
        """The hidden pick ``seat`` committed this turn (only that seat may know it)."""
        return self._pending[seat]

    # ------------------------------------------------------------- legality

    def can_use_chopsticks(self, seat: int) -> bool:
        """Chopsticks already lie in the collection and the hand has two cards."""
        return len(self.hands[seat]) >= 2 and _CHOPSTICKS in self.collections[seat]

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal action ids for ``seat`` now, ascending.

        Empty when the game is not waiting for this seat's pick.
        """
        if seat < 0:
            raise told(IndexError, "there is no seat {seat}", seat=seat)
        hand = self.hands[seat]
        if self._pending[seat] is not None or self._phase is not _PICK:
            return []
        kinds = _distinct(hand)
        if len(hand) < 2 or not holds(self.collections[seat], _CHOPSTICKS):
            return list(kinds)
        actions = list(kinds)
        for a in kinds:
            base = _N + _N * a
            if hand.count(a) >= 2:
                actions.extend([base + b for b in kinds])
            else:
                actions.extend([base + b for b in kinds if b != a])
        return actions

    def legal_action_mask(self, seat: int) -> list[bool]:
        """A list of :data:`~sushigo.engine.base.actions.NUM_ACTIONS` booleans, true where legal."""
        mask = [False] * NUM_ACTIONS
        for a in self.legal_actions(seat):
            mask[a] = True
        return mask

    def legal_picks(self, seat: int) -> list[tuple[Card, ...]]:
        """The legal picks for ``seat`` as card tuples (one card, or two in order)."""
        return [tuple(Card(c) for c in card_ids(a)) for a in self.legal_actions(seat)]

    def is_legal(self, seat: int, action: SupportsIndex) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        try:
            self.check_legal(seat, action)
        except (IllegalActionError, InvalidActionError, GameOverError):
            return False
        return True

    def check_legal(self, seat: int, action: SupportsIndex) -> None:
        """Raise :class:`IllegalActionError` (or :class:`GameOverError`,
        :class:`~sushigo.engine.errors.InvalidActionError`) unless ``action`` is legal
        for ``seat`` now; the message says why."""
        act = action if type(action) is int else as_action(action)
        if self._phase is not _PICK:
            if self._phase is _OVER:
                raise told(GameOverError, "the game is over")
            raise told(IllegalActionError, "the round has not been dealt yet")
        if not 0 <= seat < self.players:
            raise told(IllegalActionError, "there is no seat {seat}", seat=seat)
        if self._pending[seat] is not None:
            raise told(IllegalActionError, "seat {seat} has already picked this turn", seat=seat)
        hand = self.hands[seat]
        if 0 <= act < _N:
            if act not in hand:
                raise told(IllegalActionError, "{card} is not in seat {seat}'s hand", card=_CARDS[act].name_in_records,
                           seat=seat)
            return
        if not 0 <= act < NUM_ACTIONS:
            raise told(InvalidActionError, "action {action} is outside 0..{last}", action=act, last=NUM_ACTIONS - 1)
        a, b = divmod(act - _N, _N)
        if _CHOPSTICKS not in self.collections[seat]:
            raise told(IllegalActionError, "seat {seat} has no chopsticks in its collection from an earlier turn",
                       seat=seat)
        if len(hand) < 2:
            raise told(IllegalActionError, "chopsticks need at least two cards in hand")
        if a == b:
            if hand.count(a) < 2:
                raise told(IllegalActionError, "seat {seat}'s hand does not hold two {card}", seat=seat,
                           card=_CARDS[a].name_in_records)
        elif a not in hand or b not in hand:
            missing = _CARDS[a] if a not in hand else _CARDS[b]
            raise told(IllegalActionError, "{card} is not in seat {seat}'s hand", card=missing.name_in_records,
                       seat=seat)

    # ------------------------------------------------------------ advancing

    def play(self, actions: Sequence[Action]) -> None:
        """Advance one turn with every seat's pick (seat order), then reveal and pass.

        Raises :class:`IllegalActionError` (naming the seat) and changes nothing
        if any pick is illegal.
        """
        if self._npending:
            raise told(IllegalActionError, "some seats have committed picks; finish the turn with commit()")
        if len(actions) != self.players:
            raise told(IllegalActionError, "expected {players} picks, got {count}", players=self.players,
                       count=len(actions))
        given: Sequence[SupportsIndex] = actions  # numpy integers too
        picks = [a if type(a) is int else as_action(a) for a in given]  # as_actions, compiled
        hands = self.hands
        for seat, action in enumerate(picks):
            # Fast path for the common single-card pick (hands are empty
            # outside the pick phase); everything else is checked, and
            # explained, by check_legal.
            if not (0 <= action < _N and holds(hands[seat], action)):
                self.check_legal(seat, action)
        self._reveal(picks)

    def commit(self, seat: int, action: SupportsIndex) -> bool:
        """Take one seat's pick, hidden until every seat has picked.

        When the last seat commits, all picks are revealed at once and the hands
        pass.  Returns ``True`` when this commit completed the turn.
        """
        act = action if type(action) is int else as_action(action)
        self.check_legal(seat, act)
        self._pending[seat] = act
        self._npending += 1
        if self._npending < self.players:
            return False
        picks: list[int] = self._pending  # type: ignore[assignment]
        self._pending = [None] * self.players
        self._npending = 0
        self._reveal(picks)
        return True

    def change_choices(self, seat: int) -> list[Action]:
        """What ``seat`` may change its hidden pick to: the legal actions it had
        before committing (empty when it has no hidden pick)."""
        action = self._pending[seat]
        if action is None or self._phase is not _PICK:
            return []
        self._pending[seat] = None
        try:
            return self.legal_actions(seat)
        finally:
            self._pending[seat] = action

    def withdraw(self, seat: int) -> Action:
        """Take back ``seat``'s hidden pick of this turn and return it.

        In the physical game nobody sees a face-down card until every card is
        down, so a pick may be changed until the last seat commits (then the
        turn is revealed and there is nothing to take back).  The seat is
        pending again; :meth:`commit` takes its new pick.  Raises
        :class:`IllegalActionError` when ``seat`` has no hidden pick.

        >>> g = Game(2, seed=1)
        >>> first = g.legal_actions(0)[0]
        >>> g.commit(0, first)
        False
        >>> g.withdraw(0) == first, g.pending_seats
        (True, [0, 1])
        """
        if not 0 <= seat < self.players:
            raise told(IllegalActionError, "there is no seat {seat}", seat=seat)
        action = self._pending[seat]
        if action is None:
            raise told(IllegalActionError, "seat {seat} has no hidden pick to take back", seat=seat)
        self._pending[seat] = None
        self._npending -= 1
        return action

    def random_playout(self, rng: random.Random) -> None:
        """Play the game to its end, every seat picking uniformly at random
        among its legal actions (the rollout of Monte Carlo search).

        Seats that committed a pick this turn keep it.  Draws ``rng.random()``
        once per decision, in seat order, so it plays exactly the game that
        ``play([legal[int(rng.random() * len(legal))] ...])`` turn by turn would.
        """
        random_ = rng.random
        n = self.players
        if self._npending:
            for s in [s for s in range(n) if self._pending[s] is None]:
                actions = self.legal_actions(s)  # a method, not a bound one: compiled, a C call
                self.commit(s, actions[int(random_() * len(actions))])
        while self._phase is _PICK:
            hands = self.hands
            collections = self.collections
            picks = []
            for s in range(n):
                hand = hands[s]
                if len(hand) < 2 or not holds(collections[s], _CHOPSTICKS):
                    kinds = _distinct(hand)
                    picks.append(kinds[int(random_() * len(kinds))])
                else:
                    actions = self.legal_actions(s)
                    picks.append(actions[int(random_() * len(actions))])
            self._reveal(picks)

    def _reveal(self, actions: list[int]) -> None:
        """Place every pick, return used chopsticks to their hands, pass, and score."""
        hands = self.hands
        collections = self.collections
        for seat in range(self.players):
            action = actions[seat]
            hand = hands[seat]
            if action < _N:
                take(hand, action)
                collections[seat].append(action)
            else:
                a, b = divmod(action - _N, _N)
                take(hand, a)
                take(hand, b)
                collection = collections[seat]
                take(collection, _CHOPSTICKS)  # the oldest: it lay there before this turn
                collection.append(a)
                collection.append(b)
                hand.append(_CHOPSTICKS)
        self._history[-1][1].append(actions)
        n = self.players
        step = n - self._step  # seat s picks up the hand of seat s - step
        self.hands = [hands[(s + step) % n] for s in range(n)]
        self.turn += 1
        if not self.hands[0]:
            self._end_round()

    def _end_round(self) -> None:
        self._breakdowns.append(score_round(self.collections))
        discard = self.discard
        kept = self.kept_puddings
        for seat, collection in enumerate(self.collections):
            for c in collection:
                if c == _PUDDING:
                    kept[seat] += 1
                else:
                    discard.append(c)
        self._finished.append(self.collections)
        self.collections = [[] for _ in range(self.players)]
        if self.round == NUM_ROUNDS:
            self._phase = _OVER
            return
        self.round += 1
        self.turn = 1
        self._phase = _DEAL
        if self.rules.reshuffle:
            self.deck.extend(self.discard)
            self.discard = []
            if self._auto_deal:
                shuffle(self.deck, self._rng)
        if self._auto_deal:
            self._deal_from_pile()

    def _deal_from_pile(self) -> None:
        k = self.rules.hand_size
        deck = self.deck
        hands = []
        for _ in range(self.players):
            hands.append(deck[-k:])
            del deck[-k:]
        self._start_round(hands)

    def _start_round(self, hands: list[list[int]]) -> None:
        self.hands = hands
        self._step = self.rules.pass_step(self.round)
        self._history.append(([tuple(h) for h in hands], []))
        self._phase = _PICK

    def deal(self, hands: Sequence[Sequence[int]]) -> None:
        """Deal the given hands for the next round (games made with ``auto_deal=False``).

        Raises :class:`DealError` if the sizes are wrong or the draw pile does
        not hold those cards.
        """
        if self._phase is not _DEAL:
            raise told(DealError, "the game is not waiting for a deal")
        if len(hands) != self.players:
            raise told(DealError, "expected {players} hands, got {count}", players=self.players, count=len(hands))
        k = self.rules.hand_size
        for seat, hand in enumerate(hands):
            if len(hand) != k:
                raise told(DealError, "seat {seat} was dealt {count} cards, not {size}", seat=seat, count=len(hand),
                           size=k)
        ids: list[list[int]] = []
        for seat, hand in enumerate(hands):
            try:
                ids.append([operator.index(c) for c in hand])
            except TypeError:
                raise told(DealError, "seat {seat} was dealt something that is not a card id", seat=seat) from None
            for c in ids[-1]:
                if not 0 <= c < _N:
                    raise told(DealError, "seat {seat} was dealt {card}, which is not a card id", seat=seat, card=c)
        available = count_cards(self.deck)
        wanted = count_cards(c for hand in ids for c in hand)
        for card, count in enumerate(wanted):
            if count > available[card]:
                raise told(DealError, "the deal needs {count} {card} but only {left} are left in the deck",
                           count=count, card=_CARDS[card].name_in_records, left=available[card])
        for hand in ids:
            for c in hand:
                self.deck.remove(c)
        self._start_round(ids)

    # --------------------------------------------------------------- results

    @property
    def round_breakdowns(self) -> list[list[Breakdown]]:
        """``[round][seat]`` score breakdowns of the finished rounds."""
        return [[dict(line) for line in rnd] for rnd in self._breakdowns]

    def round_collections(self, round_number: int) -> list[tuple[Card, ...]]:
        """Every seat's collection in round ``round_number`` (1-based), in play
        order: as it ended for a finished round, as it stands for the current one."""
        if 1 <= round_number <= len(self._finished):
            cols = self._finished[round_number - 1]
        elif round_number == self.round and self._phase is _PICK:
            cols = self.collections
        else:
            raise told(ValueError, "round {round} has not been played", round=round_number)
        return [tuple([_CARDS[c] for c in col]) for col in cols]

    def scores(self) -> list[int]:
        """Each seat's points from finished rounds (pudding adjustment once over)."""
        return list(self.result().totals)

    def result(self) -> Result:
        """The score sheet so far; final (pudding adjustment, winners) once over."""
        puddings = self.kept_puddings if self.is_over else self.puddings()
        return Result.from_breakdowns(self._breakdowns, puddings, final=self.is_over)

    def history(self) -> list[tuple[list[tuple[int, ...]], list[list[int]]]]:
        """Per round: the hands dealt (card ids) and every turn's actions (seat order)."""
        return [([tuple(h) for h in dealt], [list(t) for t in turns]) for dealt, turns in self._history]

    # ----------------------------------------------------------------- misc

    def clone(self) -> Game:
        """An independent copy (its random generator too)."""
        g = Game(self.rules, _shell=True)
        g.seed = self.seed
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        g._rng = rng
        g._auto_deal = self._auto_deal
        g.deck = self.deck[:]
        g.discard = self.discard[:]
        g.round = self.round
        g.turn = self.turn
        g.hands = [h[:] for h in self.hands]
        g.collections = [c[:] for c in self.collections]
        g.kept_puddings = self.kept_puddings[:]
        g._pending = self._pending[:]
        g._npending = self._npending
        g._breakdowns = self._breakdowns[:]  # scored rounds never change (round_breakdowns copies)
        g._finished = self._finished[:]  # finished rounds never change: share their lists
        g._history = [(dealt[:], [t[:] for t in turns]) for dealt, turns in self._history]
        g._phase = self._phase
        g._step = self._step
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        return by_slots(self, _GAME_STATE)  # copy and pickle, compiled too

    def card_locations(self) -> dict[str, list[int]]:
        """Count vectors of every place a card can be (for conservation checks)."""
        in_hands = count_cards(c for h in self.hands for c in h)
        in_play = count_cards(c for col in self.collections for c in col)
        return {
            "deck": count_cards(self.deck),
            "discard": count_cards(self.discard),
            "hands": in_hands,
            "collections": in_play,
            "kept_puddings": [0] * _PUDDING + [sum(self.kept_puddings)],
        }

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"round {self.round}, turn {self.turn}"
        return f"<Game {self.players} players, {state}>"


def total_cards(game: Game) -> list[int]:
    """Sum of :meth:`Game.card_locations`; always equals the deck composition."""
    totals = [0] * _N
    for counts in game.card_locations().values():
        for i, c in enumerate(counts):
            totals[i] += c
    return totals
