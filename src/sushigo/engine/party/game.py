"""The Sushi Go Party! state machine (docs/rules.md §2.3-§2.10).

A turn has two stages.  First every seat picks one card at once (hidden until
the last seat commits, as in the base game).  Then the cards are revealed and
the specials resolve one at a time in card-number order: chopsticks (1-3) and
spoons (4-6) lying in a collection since an earlier turn may be used, menus
(7-9) and takeout boxes (10-12) played this turn act.  Each of those is a
decision of one seat (:attr:`PartyGame.decision`); the other seats wait.  Then
miso soups played together are discarded, the uramaki race is scored, and the
hands pass left.

>>> from sushigo.engine.rules import Rules
>>> game = PartyGame(Rules.party(4, "Cutthroat Combo"), seed=3)
>>> game.round, game.turn, len(game.hand(0)), game.phase.value
(1, 1, 9, 'pick')
>>> import random
>>> game.random_playout(random.Random(1))
>>> game.is_over, len(game.result().rounds)
(True, 3)

Rulings where the sources are silent (docs/party.md "Rulings" and docs/rules.md list them all):

- A seat uses at most one chopsticks and one spoon per turn (base rule).
- Specials with the same number (a special order copying chopsticks 2 and
  chopsticks 2 itself) resolve original first, then by seat.
- A card played while specials resolve is placed at once; a menu or takeout
  box played that way resolves later in the same turn, in number order.
- A spoon names one specific card (``maki3``, ``chopsticks2``...).
- Flipping a wasabi face down un-triples the nigiri on it; a flipped nigiri
  leaves its wasabi used.
- The uramaki race is checked at the end of each turn's resolution.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, SupportsIndex

from sushigo.engine.copies import by_fields, by_slots
from sushigo.engine.errors import (
    DealError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    as_action,
    as_actions,
)
from sushigo.engine.messages import Message, msg, render, told
from sushigo.engine.party.actions import (
    COPY_BASE,
    COPY_FACE_DOWN,
    COPY_ON_WASABI,
    FLIP_BASE,
    MAX_FLIP,
    PARTY_NUM_ACTIONS,
    PASS,
    copy_target,
    encode_copy,
    party_action_name,
)
from sushigo.engine.party.cards import (
    CHOPSTICKS_IDS,
    DESSERT_IDS,
    FACE_DOWN,
    MENU_IDS,
    NIGIRI_IDS,
    SPECIAL_NUMBER,
    SPOON_IDS,
    TAKEOUT_IDS,
    URAMAKI_ICONS,
    PartyCard,
    cards_of_item,
)
from sushigo.engine.party.scoring import (
    FACE_DOWN_POINTS,
    NIGIRI_FACE,
    party_winners,
    score_desserts,
    score_party_round,
    uramaki_race,
)
from sushigo.engine.points import Breakdown
from sushigo.engine.rules import NUM_ROUNDS, PARTY_MAX_PLAYERS, Rules
from sushigo.engine.turns import Phase, distinct, holds, shuffle, take

_SO: Final = int(PartyCard.SPECIAL_ORDER)
_WASABI: Final = int(PartyCard.WASABI)
_MISO: Final = int(PartyCard.MISO_SOUP)
_NUMBER: Final = {int(c): n for c, n in SPECIAL_NUMBER.items()}
_WAITING_IDS: Final = CHOPSTICKS_IDS | SPOON_IDS
"""Specials that wait in a collection to be used on a later turn."""
_QUEUED_IDS: Final = MENU_IDS | TAKEOUT_IDS
"""Specials that act on the turn they are played."""
# Compiled code reads its own module's Final names as C globals, other names
# through a dictionary each time: the hot paths use these.
_PICK: Final = Phase.PICK
_RESOLVE: Final = Phase.RESOLVE
_OVER: Final = Phase.OVER
_DEAL: Final = Phase.DEAL
_DRAW: Final = Phase.DRAW
_NIGIRI_IDS: Final = NIGIRI_IDS
_DESSERT_IDS: Final = DESSERT_IDS
_ACTS: Final = tuple(c in _WAITING_IDS or c in _QUEUED_IDS or c == _MISO for c in range(FACE_DOWN + 1))
"""By card id (or face down): whether playing the card sets something going (a special waits, a menu or
takeout box acts, a miso soup may be discarded)."""
_new_tuple: Final = tuple.__new__


def _ids_table(ids: Iterable[int]) -> tuple[bool, ...]:
    """By card id (or face down): whether it is among ``ids`` (a tuple index, where a
    set would hash the id: compiled, the hot paths ask these)."""
    members = set(ids)
    return tuple(c in members for c in range(FACE_DOWN + 1))


_IS_NIGIRI: Final = _ids_table(NIGIRI_IDS)
_IS_WAITING: Final = _ids_table(_WAITING_IDS)
_IS_QUEUED: Final = _ids_table(_QUEUED_IDS)
_IS_MENU: Final = _ids_table(MENU_IDS)
_IS_CHOPSTICKS: Final = _ids_table(CHOPSTICKS_IDS)
_IS_DESSERT: Final = _ids_table(DESSERT_IDS)
_IS_URAMAKI: Final = _ids_table(URAMAKI_ICONS)
_NIGIRI_VALUE: Final = tuple(NIGIRI_FACE.get(c, 0) for c in range(FACE_DOWN + 1))
"""By card id: a nigiri's face value (0 for any other card)."""
_NUMBERS: Final = tuple(_NUMBER.get(c, 0) for c in range(FACE_DOWN + 1))
"""By card id: a special's number (0 for any other card)."""


class Played:
    """One card in a collection.

    ``card`` is the physical card, ``kind`` what it counts as (the copied card
    for a special order, :data:`~sushigo.engine.party.cards.FACE_DOWN` once flipped),
    ``turn`` the turn it was played, ``uid`` an id unique in the round,
    ``on`` the uid of the wasabi a nigiri sits on (-1: none) and ``filled``
    whether a wasabi holds a nigiri.
    """

    __slots__ = ("card", "copy", "filled", "kind", "on", "turn", "uid")

    def __init__(self, card: int, kind: int, turn: int, uid: int, copy: bool = False) -> None:
        self.card = card
        self.kind = kind
        self.turn = turn
        self.uid = uid
        self.on = -1
        self.filled = False
        self.copy = copy

    def clone(self) -> Played:
        return _played(self.card, self.kind, self.turn, self.uid, self.copy, self.on, self.filled)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_played, (self.card, self.kind, self.turn, self.uid, self.copy, self.on, self.filled))

    def __repr__(self) -> str:
        kind = "face_down" if self.kind == FACE_DOWN else PartyCard(self.kind).name_in_records
        if self.card != self.kind:
            return f"<{PartyCard(self.card).name_in_records} as {kind}>"
        return f"<{kind}>"


class Decision(NamedTuple):
    """A decision of one seat while specials resolve.

    ``kind`` is ``"chopsticks"``, ``"spoon"``, ``"menu"`` or ``"takeout_box"``;
    ``card`` the special's card id (its number orders resolution); ``drawn``
    the cards a menu drew (only that seat may see them).
    """

    kind: str
    seat: int
    card: int
    drawn: tuple[int, ...] = ()

    @property
    def asks(self) -> str:
        """What the decision asks of its seat, in English (:attr:`asks_said`).

        >>> Decision("takeout_box", 0, 10).asks
        'flip earlier cards face down (2 points each), or stop'
        """
        return render(DECISION_ASKS[self.kind])

    @property
    def asks_said(self) -> Message:
        """What the decision asks of its seat, as a message (one source for every front end)."""
        return DECISION_ASKS[self.kind]


DECISION_ASKS: Final[dict[str, Message]] = {
    "chopsticks": msg("play one more card from your hand, or pass"),
    "spoon": msg("name a card of the menu: the first player on your left holding it gives it to you"
                 " and takes the spoon; or pass"),
    "menu": msg("choose one of the cards drawn (the rest go back)"),
    "takeout_box": msg("flip earlier cards face down ({points} points each), or stop", points=FACE_DOWN_POINTS),
}
"""What each decision after the reveal asks of its seat (:attr:`Decision.asks_said`)."""


class Move(NamedTuple):
    """One recorded decision: the pick (``via`` -1) or a special's use.

    ``via`` is the special's card id; ``drawn`` the cards a menu drew;
    ``action`` the action taken (for takeout boxes, one move per flip and a
    final :data:`~sushigo.engine.party.actions.PASS` unless nothing was left to
    flip); ``giver`` the seat that gave a spoon its card (-1: nobody);
    ``special`` the physical card of a chopsticks or spoon used (a special
    order may stand in for one).
    """

    seat: int
    via: int
    action: int
    drawn: tuple[int, ...] = ()
    giver: int = -1
    special: int = -1


def _decision(kind: str, seat: int, card: int, drawn: tuple[int, ...] = ()) -> Decision:
    """``Decision(kind, seat, card, drawn)`` without the named tuple's Python ``__new__``."""
    return _new_tuple(Decision, (kind, seat, card, drawn))


def _move(seat: int, via: int, action: int, drawn: tuple[int, ...] = (), giver: int = -1,
          special: int = -1) -> Move:
    """``Move(...)`` without the named tuple's Python ``__new__``."""
    return _new_tuple(Move, (seat, via, action, drawn, giver, special))


_PICK_MOVES: Final = tuple(tuple(_move(seat, -1, action) for action in range(PARTY_NUM_ACTIONS))
                           for seat in range(PARTY_MAX_PLAYERS))
"""Every seat's pick of every action as a move, made once: a reveal records them (moves are immutable)."""


@dataclass(frozen=True, slots=True)
class PartyResult:
    """The score sheet of a Party game (or of the rounds scored so far).

    Like :class:`~sushigo.engine.base.scoring.Result`; ``pudding`` holds the end-of-game
    dessert points (whatever the dessert), ``desserts`` their breakdown and
    ``dessert_cards`` how many dessert cards each seat kept (the tiebreak).
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)  # copy and pickle, compiled too

    rounds: tuple[tuple[int, ...], ...]
    breakdown: tuple[tuple[Breakdown, ...], ...]
    desserts: tuple[Breakdown, ...]
    dessert_cards: tuple[int, ...]
    pudding: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        """The result object of the record spec, plus Party's dessert keys."""
        return {
            "rounds": [list(r) for r in self.rounds],
            "pudding": list(self.pudding),
            "totals": list(self.totals),
            "winners": list(self.winners),
            "dessert_cards": list(self.dessert_cards),
            "desserts": [dict(d) for d in self.desserts],
            "breakdown": [[dict(line) for line in rnd] for rnd in self.breakdown],
        }


_PARTY_STATE: Final = (
    "rules", "players", "seed", "_rng", "_auto_deal", "deck", "dessert_pile", "discard",
    "round", "turn", "hands", "collections", "desserts", "dessert_cards", "_pending",
    "_npending", "_phase", "_queue", "_decision", "_used", "_uid", "_miso",
    "uramaki_claimed", "uramaki_points", "_breakdowns", "_finished",
    "_history", "_unknown_desserts", "_draw_wanted", "_waiting_specials", "_has_uramaki",
    "_race_points", "_waiting", "_menu_ids",
)
"""The attributes of a game: what a copy carries."""


class PartyGame:
    """One game of Sushi Go Party!.

    Args:
        rules: Party :class:`~sushigo.engine.rules.Rules` (``Rules.party(...)``).
        seed: seed for a private :class:`random.Random` (shuffles, menu draws).
        rng: a ready generator instead of ``seed`` (used, not copied).
        auto_deal: shuffle and deal from the deck (default).  With ``False``
            the caller supplies each round's hands with :meth:`deal` and each
            menu draw with :meth:`draw`, as a replayed record does.
    """

    __slots__ = _PARTY_STATE

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        auto_deal: bool = True,
        _shell: bool = False,
    ) -> None:
        if not rules.is_party:
            raise told(ValueError, "PartyGame needs Party rules (Rules.party(...))")
        self.rules = rules
        n = self.players = rules.players
        self._menu_ids = _menu_cards(rules)  # shared, never changed
        if _shell:
            return  # clone() fills in the rest
        self.seed = seed if rng is None else None
        self._rng = rng if rng is not None else random.Random(seed)
        self._auto_deal = auto_deal
        deck, desserts = _decks(rules)
        self.deck: list[int] = deck[:]
        self.dessert_pile: list[int] = desserts[:]
        if auto_deal:
            shuffle(self.dessert_pile, self._rng)
        self.discard: list[int] = []
        self.round = 1
        self.turn = 1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.collections: list[list[Played]] = [[] for _ in range(n)]
        self.desserts: list[list[int]] = [[] for _ in range(n)]
        """Dessert kinds each seat kept from finished rounds (scored at game end)."""
        self.dessert_cards: list[list[int]] = [[] for _ in range(n)]
        """The physical cards of :attr:`desserts` (a special order may copy a dessert)."""
        self._pending: list[int | None] = [None] * n
        self._npending = 0
        self._phase = _DEAL
        self._queue: list[tuple[int, int, int, int, str]] = []
        self._decision: Decision | None = None
        self._used: list[set[str]] = [set() for _ in range(n)]
        self._uid = 0
        self._miso: list[tuple[int, Played]] = []
        self.uramaki_claimed = 0
        self.uramaki_points = [0] * n
        self._breakdowns: list[list[Breakdown]] = []
        self._race_points: list[list[int]] = []
        self._finished: list[list[list[Played]]] = []
        self._history: list[tuple[list[tuple[int, ...]], list[list[Move]]]] = []
        self._unknown_desserts = 0
        self._draw_wanted = 0
        # Only these menus can leave a chopsticks or spoon waiting in a collection.
        self._waiting_specials = "chopsticks" in rules.menu or "spoon" in rules.menu
        self._has_uramaki = "uramaki" in rules.menu
        self._waiting = [0] * n
        self._prepare_round()

    # ------------------------------------------------------------------ state

    @property
    def phase(self) -> Phase:
        """``DEAL`` (waiting for :meth:`deal`), ``PICK``, ``RESOLVE`` (one seat
        decides, see :attr:`decision`), ``DRAW`` (waiting for :meth:`draw`) or ``OVER``."""
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is _OVER

    @property
    def decision(self) -> Decision | None:
        """The pending decision while specials resolve (also while a menu
        waits for its draw in ``Phase.DRAW``, with nothing drawn yet), else ``None``."""
        return self._decision if self._phase in (_RESOLVE, _DRAW) else None

    def hand(self, seat: int) -> tuple[PartyCard, ...]:
        """Seat ``seat``'s hand (hidden from the other seats)."""
        return tuple(PartyCard(c) for c in self.hands[seat])

    def collection(self, seat: int) -> tuple[Played, ...]:
        """Seat ``seat``'s collection this round, in play order (public)."""
        return tuple(self.collections[seat])

    @property
    def pending_seats(self) -> list[int]:
        """Seats whose action the game waits for now."""
        if self._phase is _PICK:
            return [s for s in range(self.players) if self._pending[s] is None]
        if self._phase is _RESOLVE and self._decision is not None:
            return [self._decision.seat]
        return []

    def has_committed(self, seat: int) -> bool:
        return self._pending[seat] is not None

    def committed_action(self, seat: int) -> int | None:
        return self._pending[seat]

    def receives_from(self, seat: int) -> int:
        return (seat - 1) % self.players

    def passes_to(self, seat: int) -> int:
        return (seat + 1) % self.players

    @property
    def pass_step(self) -> int:
        return 1

    # ------------------------------------------------------------- legality

    def _copy_actions(self, seat: int) -> list[int]:
        """Special-order actions for ``seat`` now (copy targets in its collection)."""
        col = self.collections[seat]
        kinds = {p.kind for p in col}
        if not kinds:
            return [_SO]
        actions = [COPY_FACE_DOWN if k == FACE_DOWN else COPY_BASE + k for k in kinds]
        if any(p.kind == _WASABI and not p.filled for p in col):
            for i, n in enumerate(sorted(NIGIRI_FACE)):
                if any(p.kind == n and p.on < 0 for p in col):
                    actions.append(COPY_ON_WASABI + i)
        return actions

    def _play_actions(self, seat: int, cards: list[int]) -> list[int]:
        """Actions that play one of ``cards`` (a special order with each copy)."""
        ids = distinct(cards)
        if _SO not in ids:
            return ids
        actions = [c for c in ids if c != _SO]
        actions.extend(self._copy_actions(seat))
        return sorted(actions)

    def legal_actions(self, seat: int) -> list[int]:
        """The legal action ids for ``seat`` now, ascending; empty when the
        game is not waiting for this seat."""
        if seat < 0 or seat >= self.players:
            raise told(IndexError, "there is no seat {seat}", seat=seat)
        if self._phase is _PICK:
            if self._pending[seat] is not None:
                return []
            return self._play_actions(seat, self.hands[seat])
        d = self._decision
        if self._phase is not _RESOLVE or d is None or d.seat != seat:
            return []
        if d.kind == "chopsticks":
            return self._play_actions(seat, self.hands[seat]) + [PASS]
        if d.kind == "spoon":
            return self._play_actions(seat, self._requestable()) + [PASS]
        if d.kind == "menu":
            return self._play_actions(seat, list(d.drawn))
        col = self.collections[seat]
        flips = [FLIP_BASE + i for i, p in enumerate(col[:MAX_FLIP])
                 if p.turn < self.turn and p.kind != FACE_DOWN]
        return [PASS] + flips

    def _requestable(self) -> list[int]:
        """Every card of the menu (what a spoon may ask for)."""
        return self._menu_ids

    def legal_action_mask(self, seat: int) -> list[bool]:
        mask = [False] * PARTY_NUM_ACTIONS
        for a in self.legal_actions(seat):
            mask[a] = True
        return mask

    def is_legal(self, seat: int, action: SupportsIndex) -> bool:
        try:
            self.check_legal(seat, action)
        except (IllegalActionError, InvalidActionError, GameOverError):
            return False
        return True

    def check_legal(self, seat: int, action: SupportsIndex) -> None:
        """Raise unless ``action`` is legal for ``seat`` now; the message says why."""
        act = action if type(action) is int else as_action(action)
        # The common case first: a pick of a plain card (not a special order) in hand.
        if (
            self._phase is _PICK
            and 0 <= act < COPY_BASE
            and act != _SO
            and 0 <= seat < self.players
            and self._pending[seat] is None
            and holds(self.hands[seat], act)
        ):
            return
        if self._phase is _OVER:
            raise told(GameOverError, "the game is over")
        if not 0 <= seat < self.players:
            raise told(IllegalActionError, "there is no seat {seat}", seat=seat)
        if not 0 <= act < PARTY_NUM_ACTIONS:
            raise told(InvalidActionError, "action {action} is outside 0..{last}", action=act,
                       last=PARTY_NUM_ACTIONS - 1)
        if act in self.legal_actions(seat):
            return
        if self._phase in (_DEAL, _DRAW):
            raise told(IllegalActionError, "the game is waiting for cards from the deck")
        if self._phase is _PICK and self._pending[seat] is not None:
            raise told(IllegalActionError, "seat {seat} has already picked this turn", seat=seat)
        if self._phase is _RESOLVE and (self._decision is None or self._decision.seat != seat):
            d = self._decision
            if d is None:
                raise told(IllegalActionError, "it is another seat's decision, not seat {seat}'s", seat=seat)
            # TRANSLATORS: {card} is the card in records ("spoon4") whose decision seat {owner} makes
            raise told(IllegalActionError, "it is seat {owner} ({card})'s decision, not seat {seat}'s", owner=d.seat,
                       card=PartyCard(d.card).name_in_records, seat=seat)
        name = party_action_name(act) if act != 10 else str(act)
        target = copy_target(act)
        if self._phase is _PICK or (self._decision and self._decision.kind == "chopsticks"):
            card = _SO if target else act
            if 0 <= card < FACE_DOWN and card not in self.hands[seat]:
                raise told(IllegalActionError, "{card} is not in seat {seat}'s hand", card=name.split(">")[0],
                           seat=seat)
            if target:
                # TRANSLATORS: {action} is a special order's action in records ("special_order>salmon")
                raise told(IllegalActionError, "seat {seat} has nothing to copy as {action}", seat=seat, action=name)
        # TRANSLATORS: {action} is the action as records write it ("salmon", "pass", "flip:2")
        raise told(IllegalActionError, "{action} is not a legal choice for seat {seat} now", action=name, seat=seat)

    # ------------------------------------------------------------ advancing

    def play(self, actions: Sequence[int]) -> None:
        """Every seat's pick at once (seat order); then specials resolve until
        a seat must decide (:attr:`decision`) or the turn ends."""
        if self._phase is _OVER:
            raise told(GameOverError, "the game is over")
        if self._phase is not _PICK:
            raise told(IllegalActionError, "the game is not waiting for picks")
        if self._npending:
            raise told(IllegalActionError, "some seats have committed picks; finish the turn with commit()")
        if len(actions) != self.players:
            raise told(IllegalActionError, "expected {players} picks, got {count}", players=self.players,
                       count=len(actions))
        picks = as_actions(actions)
        for seat, action in enumerate(picks):
            self.check_legal(seat, action)
        self._reveal(picks)

    def commit(self, seat: int, action: SupportsIndex) -> bool:
        """One seat's action: a hidden pick, or the pending decision.

        Returns ``True`` when this action let the game move on (the last pick
        of a turn, or any decision)."""
        act = action if type(action) is int else as_action(action)
        self.check_legal(seat, act)
        if self._phase is _PICK:
            self._pending[seat] = act
            self._npending += 1
            if self._npending < self.players:
                return False
            picks: list[int] = self._pending  # type: ignore[assignment]
            self._pending = [None] * self.players
            self._npending = 0
            self._reveal(picks)
            return True
        self._decide(act)
        return True

    def change_choices(self, seat: int) -> list[int]:
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

    def withdraw(self, seat: int) -> int:
        """Take back ``seat``'s hidden pick of this turn and return it (until
        the last seat commits; a special's decision, made in the open, cannot
        be taken back).  Raises :class:`IllegalActionError` when ``seat`` has
        no hidden pick.

        >>> from sushigo.engine.rules import Rules
        >>> g = PartyGame(Rules.party(2, "my first meal"), seed=1)
        >>> first = g.legal_actions(1)[0]
        >>> g.commit(1, first)
        False
        >>> g.withdraw(1) == first, g.pending_seats
        (True, [0, 1])
        """
        if not 0 <= seat < self.players:
            raise told(IllegalActionError, "there is no seat {seat}", seat=seat)
        action = self._pending[seat]
        if self._phase is not _PICK or action is None:
            raise told(IllegalActionError, "seat {seat} has no hidden pick to take back", seat=seat)
        self._pending[seat] = None
        self._npending -= 1
        return action

    def random_playout(self, rng: random.Random) -> None:
        """Play to the end with uniformly random legal actions (one
        ``rng.random()`` per decision, in seat order for picks)."""
        random_ = rng.random
        while self._phase is not _OVER:
            if self._phase is _PICK:
                if self._npending:
                    for s in self.pending_seats:
                        acts = self.legal_actions(s)
                        self.commit(s, acts[int(random_() * len(acts))])
                    continue
                picks = []
                for s, hand in enumerate(self.hands):
                    acts = self._play_actions(s, hand)  # not a bound method: compiled, a C call
                    picks.append(acts[int(random_() * len(acts))])
                self._reveal(picks)
            elif self._phase is _RESOLVE:
                seat = self._decision.seat  # type: ignore[union-attr]
                acts = self.legal_actions(seat)
                self._decide(acts[int(random_() * len(acts))])
            else:
                raise told(IllegalActionError, "random_playout needs a game that deals itself")

    # ---------------------------------------------------------- the turn

    def _place(self, seat: int, action: int) -> None:
        """Put the card of ``action`` (from nowhere: the caller removed it
        from where it was) into ``seat``'s collection, applying wasabi,
        copies and what happens when it is played."""
        target = copy_target(action) if action >= COPY_BASE else None
        col = self.collections[seat]
        self._uid += 1
        if target is not None:
            kind, on_wasabi = target
            p = Played(_SO, kind, self.turn, self._uid, True)
        else:
            kind, on_wasabi = action, False
            p = Played(action, action, self.turn, self._uid)
        if _IS_NIGIRI[kind] and (target is None or on_wasabi):
            for w in col:
                if w.kind == _WASABI and not w.filled:
                    w.filled = True
                    p.on = w.uid
                    break
        col.append(p)
        if not _ACTS[kind]:
            return  # nothing happens when this card is played
        if _IS_WAITING[kind]:
            self._waiting[seat] += 1
        if kind == _MISO:
            self._miso.append((seat, p))
        if _IS_QUEUED[kind]:
            self._queue.append((_NUMBERS[kind], int(p.copy), seat, p.uid, "menu" if _IS_MENU[kind] else "takeout_box"))

    def _reveal(self, picks: list[int]) -> None:
        self._history[-1][1].append(
            [_PICK_MOVES[seat][action] for seat, action in enumerate(picks)]
        )
        self._queue = []
        self._miso = []
        hands = self.hands
        for seat, action in enumerate(picks):
            take(hands[seat], action if action < COPY_BASE else _SO)
        for seat, action in enumerate(picks):
            self._place(seat, action)
        if self._waiting_specials:
            turn = self.turn
            played = self._waiting
            for seat, col in enumerate(self.collections):
                if not played[seat]:
                    continue  # no chopsticks or spoon came into this collection this round
                seen: list[int] = []  # the numbers queued (a number is one kind: chopsticks 1-3, spoon 4-6)
                for p in col:
                    if not (_IS_WAITING[p.kind] and p.turn < turn):
                        continue
                    number = _NUMBERS[p.kind]
                    if number not in seen:
                        seen.append(number)
                        kind = "chopsticks" if _IS_CHOPSTICKS[p.kind] else "spoon"
                        # a seat's original card takes its number's turn before any copy
                        entry = self._special_entry(seat, kind, number)
                        assert entry is not None
                        self._queue.append((number, int(entry.copy), seat, entry.uid, kind))
        if any(self._used):
            self._used = [set() for _ in range(self.players)]
        self._phase = _RESOLVE
        self._advance()

    def _advance(self) -> None:
        """Resolve specials in number order until a seat must decide."""
        while self._queue:
            self._queue.sort()
            number, _, seat, uid, kind = self._queue.pop(0)
            col = self.collections[seat]
            if kind in ("chopsticks", "spoon"):
                if kind in self._used[seat]:
                    continue
                entry = self._special_entry(seat, kind, number)
                if entry is None:
                    continue  # flipped or used up since
                if kind == "chopsticks" and not self.hands[seat]:
                    continue
                if kind == "spoon" and not self._others_hold_cards(seat):
                    continue
                self._decision = _decision(kind, seat, entry.kind)
                return
            entry = next((p for p in col if p.uid == uid), None)
            if entry is None:
                continue
            col.remove(entry)
            self.discard.append(entry.card)
            if kind == "menu":
                self._decision = _decision("menu", seat, entry.kind)
                k = min(self.rules.menu_card_draw, len(self.deck) + self._unknown_desserts)
                if k == 0:
                    continue
                if self._auto_deal:
                    drawn = tuple(self.deck[-k:])
                    del self.deck[-k:]
                    self._start_menu(drawn)
                    return
                self._draw_wanted = k
                self._phase = _DRAW
                return
            self._decision = _decision("takeout_box", seat, entry.kind)
            if len(self.legal_actions(seat)) > 1:
                return
        self._decision = None
        self._end_turn()

    def _others_hold_cards(self, seat: int) -> bool:
        """Whether a seat other than ``seat`` holds a card (a spoon has someone to ask)."""
        for s in range(self.players):  # noqa: SIM110 (a generator is slower compiled)
            if s != seat and self.hands[s]:
                return True
        return False

    def _special_entry(self, seat: int, kind: str, number: int) -> Played | None:
        best = None
        turn = self.turn
        for p in self.collections[seat]:
            # chopsticks and spoons have their own numbers: the number says the kind
            if (p.turn < turn and _NUMBERS[p.kind] == number and _IS_WAITING[p.kind]
                    and (best is None or (best.copy and not p.copy))):
                best = p
        return best

    def _start_menu(self, drawn: tuple[int, ...]) -> None:
        d = self._decision
        assert d is not None
        self._decision = _decision("menu", d.seat, d.card, drawn)
        self._phase = _RESOLVE

    def draw(self, cards: Sequence[int]) -> None:
        """Supply the cards a menu draws from the deck (``auto_deal=False``)."""
        if self._phase is not _DRAW:
            raise told(DealError, "the game is not waiting for a menu draw")
        try:
            ids = [operator.index(c) for c in cards]
        except TypeError:
            raise told(DealError, "a menu draws card ids") from None
        if len(ids) != self._draw_wanted:
            raise told(DealError, "the menu draws {wanted} cards, not {count}", wanted=self._draw_wanted,
                       count=len(ids))
        self._take_from_deck(ids, True)
        self._start_menu(tuple(ids))

    def _take_from_deck(self, ids: list[int], drawn: bool) -> None:
        """Remove ``ids`` from the deck (``auto_deal=False``), a menu's draw (``drawn``) or
        a deal: known cards, or desserts still unseen in it (which ones entered is learnt this way)."""
        deck = self.deck[:]
        pile = self.dessert_pile[:]
        unknown = self._unknown_desserts
        for c in ids:
            if c in deck:
                deck.remove(c)
            elif unknown and c in pile:
                pile.remove(c)
                unknown -= 1
            else:
                name = PartyCard(c).name_in_records if c in PartyCard._value2member_map_ else str(c)
                have = deck.count(c) + (min(unknown, pile.count(c)) if c in DESSERT_IDS else 0)
                if drawn:
                    raise told(DealError, "the menu draws more {card} than the deck holds ({left} left)", card=name,
                               left=have)
                raise told(DealError, "the deal needs more {card} than the deck holds ({left} left)", card=name,
                           left=have)
        self.deck = deck
        self.dessert_pile = pile
        self._unknown_desserts = unknown

    def _decide(self, action: int) -> None:
        d = self._decision
        assert d is not None
        seat = d.seat
        moves = self._history[-1][1][-1]
        moves.append(_move(seat, d.card, action, d.drawn))
        if d.kind == "takeout_box":
            if action == PASS:
                self._advance()
                return
            self.collections[seat][action - FLIP_BASE].kind = FACE_DOWN  # a flip: legal, so in range
            if len(self.legal_actions(seat)) <= 1:
                self._advance()
            return
        if d.kind == "menu":
            rest = list(d.drawn)
            take(rest, _card_of(action))
            self.deck.extend(rest)
            if self._auto_deal:
                shuffle(self.deck, self._rng)
            self._place(seat, action)
            self._advance()
            return
        if action == PASS:
            self._advance()
            return
        self._used[seat].add(d.kind)
        entry = self._special_entry(seat, d.kind, _NUMBERS[d.card])
        assert entry is not None
        card = _card_of(action)
        giver = self.spoon_giver(seat, card) if d.kind == "spoon" else None
        moves[-1] = _move(seat, d.card, action, (), -1 if giver is None else giver, entry.card)
        if d.kind == "chopsticks":
            take(self.hands[seat], card)
            self._place(seat, action)
            self.collections[seat].remove(entry)
            self.hands[seat].append(entry.card)
        else:
            self.collections[seat].remove(entry)
            for k in range(1, self.players):
                giver = (seat + k) % self.players
                if holds(self.hands[giver], card):
                    take(self.hands[giver], card)
                    self.hands[giver].append(entry.card)
                    self._place(seat, action)
                    break
            else:
                self.discard.append(entry.card)
        self._advance()

    def spoon_giver(self, seat: int, card: int) -> int | None:
        """The seat that would give ``card`` to ``seat``'s spoon now (left first)."""
        for k in range(1, self.players):
            giver = (seat + k) % self.players
            if holds(self.hands[giver], card):
                return giver
        return None

    def _end_turn(self) -> None:
        if len(self._miso) > 1:
            for seat, p in self._miso:
                self.collections[seat].remove(p)
                self.discard.append(p.card)
        self._miso = []
        if self._has_uramaki:
            icons = [self._uramaki_icons(s) for s in range(self.players)]
            if max(icons) >= 10:
                race = [i if i >= 10 else 0 for i in icons]
                points, self.uramaki_claimed = uramaki_race(race, self.uramaki_claimed)
                for s in range(self.players):
                    if race[s]:
                        self.uramaki_points[s] += points[s]
                        col = self.collections[s]
                        for p in [p for p in col if _IS_URAMAKI[p.kind]]:
                            col.remove(p)
                            self.discard.append(p.card)
        hands = self.hands
        hands.insert(0, hands.pop())  # each hand passes to the next seat
        self.turn += 1
        self._phase = _PICK
        if not self.hands[0]:
            self._end_round()

    def _uramaki_icons(self, seat: int) -> int:
        return sum(URAMAKI_ICONS.get(p.kind, 0) for p in self.collections[seat])

    # ---------------------------------------------------------- rounds

    def _end_round(self) -> None:
        n = self.players
        kinds = [[p.kind for p in col] for col in self.collections]
        tripled = [_tripled(col) for col in self.collections]
        # score_party_round adds the round-end award for the unclaimed place itself
        self._breakdowns.append(
            score_party_round(kinds, tripled, self.rules.menu, self.uramaki_points, self.uramaki_claimed,
                              self.rules.wasabi_colour)
        )
        self._finished.append(self.collections)
        self._race_points.append(self.uramaki_points)
        for seat, col in enumerate(self.collections):
            for p in col:
                if _IS_DESSERT[p.kind]:
                    self.desserts[seat].append(p.kind)
                    self.dessert_cards[seat].append(p.card)
                else:
                    self.discard.append(p.card)
        self.collections = [[] for _ in range(n)]
        if self.round == NUM_ROUNDS:
            self._phase = _OVER
            return
        self.round += 1
        self.turn = 1
        self._prepare_round()

    def _prepare_round(self) -> None:
        """Gather every card not kept as a dessert, add this round's desserts, deal."""
        self.deck.extend(self.discard)
        self.discard = []
        self.uramaki_claimed = 0
        self.uramaki_points = [0] * self.players
        self._waiting = [0] * self.players  # chopsticks and spoons played this round, per seat
        self._uid = 0
        add = self.rules.desserts_per_round[self.round - 1]
        self._phase = _DEAL
        if self._auto_deal:
            self.deck.extend(self.dessert_pile[-add:])
            del self.dessert_pile[-add:]
            shuffle(self.deck, self._rng)
            k = self.rules.hand_size
            hands = []
            for _ in range(self.players):
                hands.append(self.deck[-k:])
                del self.deck[-k:]
            self._start_round(hands)
        else:
            self._unknown_desserts += add

    def _start_round(self, hands: list[list[int]]) -> None:
        self.hands = hands
        self._history.append(([tuple(h) for h in hands], []))
        self._phase = _PICK

    def deal(self, hands: Sequence[Sequence[int]]) -> None:
        """Deal the given hands (``auto_deal=False``).  The round's desserts
        come from the dessert pile; which ones is only learnt from what is
        dealt (and drawn by menus)."""
        if self._phase is not _DEAL:
            raise told(DealError, "the game is not waiting for a deal")
        if len(hands) != self.players:
            raise told(DealError, "expected {players} hands, got {count}", players=self.players, count=len(hands))
        k = self.rules.hand_size
        ids: list[list[int]] = []
        for seat, hand in enumerate(hands):
            if len(hand) != k:
                raise told(DealError, "seat {seat} was dealt {count} cards, not {size}", seat=seat, count=len(hand),
                           size=k)
            try:
                ids.append([operator.index(c) for c in hand])
            except TypeError:
                raise told(DealError, "seat {seat} was dealt something that is not a card id", seat=seat) from None
        self._take_from_deck([c for hand in ids for c in hand], False)
        self._start_round(ids)

    # --------------------------------------------------------------- results

    @property
    def round_breakdowns(self) -> list[list[Breakdown]]:
        return [[dict(line) for line in rnd] for rnd in self._breakdowns]

    @property
    def round_race_points(self) -> list[list[int]]:
        """``[round][seat]`` uramaki race points scored during each finished
        round (a score sheet's ``uramaki`` key); the round-end award for
        places nobody reached is not among them."""
        return [points[:] for points in self._race_points]

    def round_collections(self, round_number: int) -> list[tuple[Played, ...]]:
        """Every seat's collection in round ``round_number`` (finished or current)."""
        if 1 <= round_number <= len(self._finished):
            cols = self._finished[round_number - 1]
        elif round_number == self.round and not self.is_over:
            cols = self.collections
        else:
            raise told(ValueError, "round {round} has not been played", round=round_number)
        return [tuple(col) for col in cols]

    def scores(self) -> list[int]:
        return list(self.result().totals)

    def result(self) -> PartyResult:
        """The score sheet so far; desserts and winners once the game is over."""
        n = self.players
        rounds = tuple(tuple(sum(line.values()) for line in rnd) for rnd in self._breakdowns)
        counts = tuple(len(d) for d in self.dessert_cards)
        if self.is_over:
            desserts = tuple(score_desserts(self.desserts, self.rules.menu[-1],
                                            self.rules.two_player_pudding_penalty))
        else:
            desserts = tuple({self.rules.menu[-1]: 0} for _ in range(n))
        dessert_points = tuple(sum(d.values()) for d in desserts)
        totals = tuple(sum(r[s] for r in rounds) + dessert_points[s] for s in range(n))
        return PartyResult(
            rounds=rounds,
            breakdown=tuple(tuple(dict(line) for line in rnd) for rnd in self._breakdowns),
            desserts=desserts,
            dessert_cards=counts,
            pudding=dessert_points,
            totals=totals,
            winners=tuple(party_winners(totals, counts)),
        )

    def history(self) -> list[tuple[list[tuple[int, ...]], list[list[Move]]]]:
        """Per round: the hands dealt and every turn's moves in the order made."""
        return [([tuple(h) for h in dealt], [list(t) for t in turns]) for dealt, turns in self._history]

    def clone(self) -> PartyGame:
        """An independent copy (its random generator too)."""
        g = PartyGame(self.rules, _shell=True)
        g.seed = self.seed
        g._auto_deal = self._auto_deal
        g.round = self.round
        g.turn = self.turn
        g._npending = self._npending
        g._phase = self._phase
        g._decision = self._decision
        g._uid = self._uid
        g.uramaki_claimed = self.uramaki_claimed
        g._waiting_specials = self._waiting_specials
        g._has_uramaki = self._has_uramaki
        g._draw_wanted = self._draw_wanted
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        g._rng = rng
        g.deck = self.deck[:]
        g.dessert_pile = self.dessert_pile[:]
        g.discard = self.discard[:]
        g.hands = [h[:] for h in self.hands]
        g.collections = [[p.clone() for p in col] for col in self.collections]
        uid_map = {p.uid: q for col, qcol in zip(self.collections, g.collections) for p, q in zip(col, qcol)}
        g._miso = [(s, uid_map[p.uid]) for s, p in self._miso]
        g.desserts = [d[:] for d in self.desserts]
        g.dessert_cards = [d[:] for d in self.dessert_cards]
        g._pending = self._pending[:]
        g._queue = self._queue[:]
        g._used = [set(u) for u in self._used]
        g.uramaki_points = self.uramaki_points[:]
        g._waiting = self._waiting[:]
        g._breakdowns = self._breakdowns[:]  # scored rounds never change (round_breakdowns copies)
        g._race_points = self._race_points[:]  # finished rounds never change
        g._finished = self._finished[:]  # finished rounds never change: share their lists
        g._history = [(dealt[:], [t[:] for t in turns]) for dealt, turns in self._history]
        g._unknown_desserts = self._unknown_desserts
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        return by_slots(self, _PARTY_STATE)  # copy and pickle, compiled too

    def all_cards(self) -> list[int]:
        """Every physical card wherever it is (for conservation checks)."""
        cards = self.deck + self.dessert_pile + self.discard
        for h in self.hands:
            cards += h
        for col in self.collections:
            cards += [p.card for p in col]
        for d in self.dessert_cards:
            cards += d
        if self._phase is _RESOLVE and self._decision and self._decision.drawn:
            cards += list(self._decision.drawn)
        return cards

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"round {self.round}, turn {self.turn}"
        return f"<PartyGame {self.players} players, {state}>"


def _played(card: int, kind: int, turn: int, uid: int, copy: bool, on: int, filled: bool) -> Played:
    p = Played(card, kind, turn, uid, copy)
    p.on = on
    p.filled = filled
    return p


def _card_of(action: int) -> int:
    """The physical card a play action puts down: the special order for a copy
    (:func:`~sushigo.engine.party.actions.played_card` for the play actions, compiled)."""
    return _SO if COPY_BASE <= action < PASS else action


def _tripled(col: list[Played]) -> int:
    """The face value of the nigiri on face-up wasabi in ``col`` (scored three times;
    which ones, :func:`on_face_up_wasabi` says)."""
    for p in col:
        if p.kind == _WASABI:
            break
    else:
        return 0  # no face-up wasabi (most collections): nothing to ask
    points = 0
    for p, on in zip(col, on_face_up_wasabi(col)):
        if on:
            points += _NIGIRI_VALUE[p.kind]
    return points


def on_face_up_wasabi(col: Sequence[Played]) -> list[bool]:
    """For each card of a collection: whether it sits on a wasabi that is
    still face up (only such a nigiri scores triple)."""
    face_up = {p.uid for p in col if p.kind == _WASABI}
    return [p.on in face_up for p in col]


@functools.lru_cache(maxsize=64)
def _decks(rules: Rules) -> tuple[list[int], list[int]]:
    """The deck and the dessert pile of ``rules``' menu before any shuffle (copy them)."""
    deck: list[int] = []
    desserts: list[int] = []
    dessert_item = rules.menu[-1]
    for item in rules.menu:
        for card, count in sorted(cards_of_item(item, rules.uramaki_split).items()):
            (desserts if item == dessert_item else deck).extend([int(card)] * count)
    return deck, desserts


@functools.lru_cache(maxsize=64)
def _menu_cards(rules: Rules) -> list[int]:
    cards: set[int] = set()
    for item in rules.menu:
        cards.update(int(c) for c in cards_of_item(item, rules.uramaki_split))
    return sorted(cards)


__all__ = ["Decision", "Move", "PartyGame", "PartyResult", "Played", "encode_copy", "on_face_up_wasabi"]
