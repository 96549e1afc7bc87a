"""Hidden information, in one place: what each seat may know, and determinization.

In Sushi Go! every revealed card is public; hands are secret.  A seat knows
its own hand, and it also knows the current contents of every hand it has
already held this round, because every change to a hand after it left the
seat (the cards later holders took, the chopsticks they put back) was
revealed.  :func:`seat_view` builds exactly that; :func:`spectator_view`
shows only public information; :func:`sample_world` deals the cards a seat
cannot see at random, consistently with everything it has seen (the
determinization that search bots need).

>>> from sushigo import Game
>>> game = Game(3, seed=2)
>>> view = seat_view(game, 0)
>>> view.hand == game.hand(0), view.known_hands[1]
(True, None)
>>> world = sample_world(game, 0, seed=5)
>>> world.hand(0) == game.hand(0)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sushigo.engine.base.actions import Action, action_name, card_ids
from sushigo.engine.base.cards import CARD_NAMES, DECK_COUNT_LIST, NUM_CARD_TYPES, Card, count_cards
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import Result, wasabi_pairs
from sushigo.engine.copies import by_fields
from sushigo.engine.messages import told
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase

_CHOPSTICKS = int(Card.CHOPSTICKS)


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything seat ``seat`` may know (``seat is None``: a spectator, who sees no hand).

    Rounds and turns count from 1.  Hands are tuples of :class:`Card`.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)  # copy and pickle, compiled too

    seat: int | None
    """The viewing seat, or ``None`` for a spectator."""
    players: int
    round: int
    turn: int
    phase: Phase
    pass_step: int
    """+1 when hands go left this round, -1 when they go right."""
    hand: tuple[Card, ...] | None
    """The seat's own hand (``None`` for a spectator)."""
    legal_actions: tuple[Action, ...]
    """The seat's legal action ids now (empty if it need not pick)."""
    committed: Action | None
    """The seat's own hidden pick this turn, if it committed one."""
    collections: tuple[tuple[Card, ...], ...]
    """Every seat's revealed cards this round, in play order."""
    puddings: tuple[int, ...]
    """Puddings per seat: kept from earlier rounds plus this round's."""
    hand_sizes: tuple[int, ...]
    picked: tuple[bool, ...]
    """Which seats have committed a pick this turn (not what they picked)."""
    seen_hands: tuple[tuple[Card, ...], ...]
    """The hands this seat held at each turn of this round so far, as received."""
    known_hands: tuple[tuple[Card, ...] | None, ...]
    """Current hand of every seat whose hand this seat has held this round, else ``None``."""
    known_cards: tuple[tuple[Card, ...], ...]
    """Cards known to be in each seat's hand: all of a known hand, else the chopsticks put back into it."""
    discard: tuple[int, ...]
    """Count vector of the public discard pile (cards of earlier rounds)."""
    result: Result
    """Scores of the finished rounds (pudding adjustment once the game is over)."""
    rules: Rules
    """The rules of the game (public)."""
    world: Game | None = field(default=None, repr=False, compare=False)
    """The seat's information set as a game (only from ``seat_view(..., world=True)``).

    A copy of the game in which every card this seat cannot see has been
    replaced by a canonical arrangement of the cards it has not seen,
    computed from what this view shows: two games that look the same to the
    seat give worlds with the same cards in every place, so reading it
    reveals nothing hidden.  (They may list the cards of a hand dealt
    earlier in another order: the order of a deal, whose cards are all
    known to the seat by now, is kept from the real game.)
    :func:`determinize` deals its unseen cards at random.
    """

    def to_json(self) -> dict[str, Any]:
        """A JSON-friendly dict with card names (for bots and network play):
        the same keys as the Party view's where the editions share a notion
        (``edition``, ``legal``, the text form of each legal action, and
        ``on_wasabi``, per seat and collection card: does it sit on a wasabi)."""

        def names(cards: tuple[Card, ...] | None) -> list[str] | None:
            return None if cards is None else [c.name_in_records for c in cards]

        return {
            "edition": "base",
            "seat": self.seat,
            "players": self.players,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase.value,
            "pass_step": self.pass_step,
            "hand": names(self.hand),
            "legal_actions": list(self.legal_actions),
            "legal": [action_name(a) for a in self.legal_actions],
            "committed": self.committed,
            "collections": [names(c) for c in self.collections],
            "on_wasabi": on_wasabi(self.collections),
            "puddings": list(self.puddings),
            "hand_sizes": list(self.hand_sizes),
            "picked": list(self.picked),
            "seen_hands": [names(h) for h in self.seen_hands],
            "known_hands": [names(h) for h in self.known_hands],
            "known_cards": [names(h) for h in self.known_cards],
            "discard": {
                Card(c).name_in_records: n for c, n in enumerate(self.discard) if n
            },
            "scores": [list(r) for r in self.result.rounds],
            "result": self.result.to_json(),
        }


def on_wasabi(collections: Sequence[Sequence[int]]) -> list[list[bool]]:
    """Per collection card: is it a nigiri on a wasabi.

    >>> on_wasabi([[Card.WASABI, Card.SQUID, Card.EGG]])
    [[False, True, False]]
    """
    return [[i in pairs for i in range(len(col))] for col, pairs in ((c, wasabi_pairs(c)) for c in collections)]


_CARD: tuple[Card, ...] = tuple(Card)  # Card(c) is an enum lookup; indexing is several times faster


def _cards(ids: list[int] | tuple[int, ...]) -> tuple[Card, ...]:
    card = _CARD
    return tuple([card[c] for c in ids])


def round_hands(game: Game) -> list[list[list[int]]]:
    """``hands[t][s]``: the hand seat ``s`` held at turn ``t`` (0-based) of the current round.

    Rebuilt from the deal and the revealed picks, so it needs no extra
    bookkeeping in the engine's hot path.
    """
    if not game._history or game.phase is Phase.DEAL or game.is_over:
        return []
    dealt, turns = game._history[-1]
    return replay_hands(dealt, turns, game.pass_step)


def replay_hands(dealt: Sequence[Sequence[int]], turns: Sequence[Sequence[int]], step: int
                 ) -> list[list[list[int]]]:
    """``hands[t][s]`` of one round from its deal and its turns' actions (seat
    order), passing ``step`` seats a turn: ``len(turns) + 1`` entries, the last
    being the hands after the last turn played.

    >>> replay_hands([[0, 1], [2, 3]], [[0, 3]], 1)
    [[[0, 1], [2, 3]], [[2], [1]]]
    """
    n = len(dealt)
    hands = [list(h) for h in dealt]
    out = [[h[:] for h in hands]]
    for actions in turns:
        for s in range(n):
            hand = hands[s]
            picked = card_ids(actions[s])
            for c in picked:
                hand.remove(c)
            if len(picked) == 2:
                hand.append(_CHOPSTICKS)
        hands = [hands[(s - step) % n] for s in range(n)]
        out.append([h[:] for h in hands])
    return out


def knows_hand(game: Game, viewer: int, seat: int) -> bool:
    """Whether ``viewer`` knows the current contents of the hand ``seat`` holds.

    True once that hand has passed through ``viewer`` this round: after
    ``m`` turns for the seat ``m`` passes downstream of the viewer.
    """
    if game.phase is not Phase.PICK:
        return False
    passes = (game.pass_step * (seat - viewer)) % game.players
    return passes <= game.turn - 1


def seat_view(game: Game, seat: int, *, world: bool = False) -> SeatView:
    """What ``seat`` may know of ``game`` now.

    With ``world=True`` the view also carries :attr:`SeatView.world`, the
    seat's information set as a game, for :func:`determinize`.
    """
    if not 0 <= seat < game.players:
        raise told(ValueError, "there is no seat {seat}", seat=seat)
    history = round_hands(game)
    known = tuple(
        _cards(game.hands[k]) if knows_hand(game, seat, k) else None for k in range(game.players)
    )
    return SeatView(
        seat=seat,
        hand=_cards(game.hands[seat]),
        legal_actions=tuple(game.legal_actions(seat)),
        committed=game.committed_action(seat),
        seen_hands=tuple(_cards(h[seat]) for h in history),
        known_hands=known,
        known_cards=tuple(_cards(known_cards(game, seat, k)) for k in range(game.players)),
        world=sample_world(game, seat, random.Random(0)) if world else None,
        **_public(game),
    )


def seat_members(game: Game, seat: int, history: Sequence[Sequence[Sequence[int]]],
                 public_known: Sequence[list[str]]) -> dict[str, Any]:
    """The members of ``seat_view(game, seat).to_json()`` that are the seat's own
    (every other member is the spectator's), built straight from the game: for
    many seats at once, given the round's hands ``history`` (:func:`round_hands`)
    and the spectator's ``known_cards``, which is what a seat knows of a hand
    it has not held.

    >>> game = Game(3, seed=2)
    >>> spectator = spectator_view(game).to_json()
    >>> own = seat_members(game, 1, round_hands(game), spectator["known_cards"])
    >>> {**spectator, **own} == seat_view(game, 1).to_json()
    True
    """
    if not 0 <= seat < game.players:
        raise told(ValueError, "there is no seat {seat}", seat=seat)
    names = _NAMES
    hands = game.hands
    players = range(game.players)
    knows = [knows_hand(game, seat, k) for k in players]
    held = [[names[c] for c in hands[k]] if knows[k] else None for k in players]
    legal = game.legal_actions(seat)
    return {
        "seat": seat,
        "hand": [names[c] for c in hands[seat]],
        "legal_actions": legal,
        "legal": [action_name(a) for a in legal],
        "committed": game.committed_action(seat),
        "seen_hands": [[names[c] for c in h[seat]] for h in history],
        "known_hands": held,
        "known_cards": [held[k] if knows[k] else public_known[k] for k in players],
    }


_NAMES: tuple[str, ...] = tuple(CARD_NAMES)


def determinize(view: SeatView, rng: random.Random) -> Game:
    """A game consistent with everything ``view`` shows, its hidden cards dealt at random.

    Needs a view made with ``seat_view(game, seat, world=True)``.  Samples
    like :func:`sample_world` on the real game would (the same
    distribution), but from the view alone: search bots call this and never
    see the real game.

    >>> game = Game(4, seed=3)
    >>> view = seat_view(game, 1, world=True)
    >>> world = determinize(view, random.Random(0))
    >>> world.hand(1) == view.hand, seat_view(world, 1) == view
    (True, True)
    """
    if view.world is None or view.seat is None:
        raise told(ValueError, "determinize needs a seat's view made with world=True")
    return sample_world(view.world, view.seat, rng)


def spectator_view(game: Game) -> SeatView:
    """The public view: collections, puddings, sizes and scores; no hand at all."""
    return SeatView(
        seat=None,
        hand=None,
        legal_actions=(),
        committed=None,
        seen_hands=(),
        known_hands=(None,) * game.players,
        known_cards=tuple(_cards(known_cards(game, None, k)) for k in range(game.players)),
        **_public(game),
    )


def _public(game: Game) -> dict[str, Any]:
    return {
        "players": game.players,
        "round": game.round,
        "turn": game.turn,
        "phase": game.phase,
        "pass_step": game.pass_step,
        "collections": tuple(_cards(c) for c in game.collections),
        "puddings": tuple(game.puddings()),
        "hand_sizes": tuple(len(h) for h in game.hands),
        "picked": tuple(game.has_committed(s) for s in range(game.players)),
        "discard": tuple(count_cards(game.discard)),
        "result": game.result(),
        "rules": game.rules,
    }


def known_cards(game: Game, viewer: int | None, seat: int) -> list[int]:
    """The cards ``viewer`` knows to be in the hand ``seat`` holds now (card ids).

    The whole hand once it has passed through ``viewer`` this round.  Before
    that (and always for a spectator, ``viewer=None``), only the chopsticks
    that seats put back into it (public, since the chopsticks left their
    collections) and that nobody has taken out since.
    """
    if game.phase is not Phase.PICK:
        return []
    if viewer is not None and knows_hand(game, viewer, seat):
        return list(game.hands[seat])
    _dealt, turns = game._history[-1]
    n = game.players
    step = game.pass_step
    pile = (seat - step * len(turns)) % n
    chopsticks = 0
    for t, actions in enumerate(turns):
        picked = card_ids(actions[(pile + step * t) % n])
        for c in picked:
            if c == _CHOPSTICKS and chopsticks:
                chopsticks -= 1
        if len(picked) == 2:
            chopsticks += 1
    return [_CHOPSTICKS] * chopsticks


def unseen_cards(game: Game, seat: int) -> list[int]:
    """Count vector of the cards ``seat`` cannot see anywhere.

    The whole deck minus every public card (collections, kept puddings, the
    discard pile) and minus the cards it knows in any hand
    (:func:`known_cards`).  These cards are in the unknown part of the hands
    and in the draw pile.
    """
    unseen = list(DECK_COUNT_LIST)
    seen = count_cards(c for col in game.collections for c in col)
    seen[Card.PUDDING] += sum(game.kept_puddings)
    for i, c in enumerate(count_cards(game.discard)):
        seen[i] += c
    for k in range(game.players):
        for c in known_cards(game, seat, k):
            seen[c] += 1
    for i in range(NUM_CARD_TYPES):
        unseen[i] -= seen[i]
    return unseen


def sample_world(
    game: Game,
    seat: int,
    rng: random.Random | None = None,
    *,
    seed: int | None = None,
) -> Game:
    """A copy of ``game`` with everything ``seat`` cannot see dealt at random.

    Hands the seat has not held this round keep the cards it knows are in them
    (:func:`known_cards`) and are filled up to their sizes from the cards it
    has not seen, the rest become the draw pile in random order, and
    the earlier deal of this round is rewritten to match, so the copy is a
    complete, consistent game.  Other seats' hidden picks this turn are
    dropped (those seats pick again in the copy); the seat's own is kept.
    The copy's own random generator is reseeded from ``rng``, and it deals
    its later rounds itself, even when ``game`` was made with ``auto_deal=False``
    (a replayed record, a table with physical cards).
    """
    if rng is None:
        rng = random.Random(seed)
    world = game.clone()
    world.seed = None  # the real seed would rebuild every hidden card
    world._rng = random.Random(rng.getrandbits(64))
    world._auto_deal = True  # a world deals its later rounds from its sampled deck
    if game.phase is not Phase.PICK:
        pool = _expand(unseen_cards(game, seat))
        rng.shuffle(pool)
        world.deck = pool
        return world
    n = game.players
    unknown_seats = [k for k in range(n) if not knows_hand(game, seat, k)]
    pool = _expand(unseen_cards(game, seat))
    rng.shuffle(pool)
    for k in unknown_seats:
        known = known_cards(game, seat, k)
        size = len(game.hands[k]) - len(known)
        world.hands[k] = known + pool[len(pool) - size:]
        del pool[len(pool) - size:]
    world.deck = pool
    for k in range(n):
        if k != seat and world._pending[k] is not None:
            world._pending[k] = None
            world._npending -= 1
    _rewrite_deal(world, resampled=unknown_seats)
    return world


def _expand(counts: list[int]) -> list[int]:
    cards: list[int] = []
    for card, count in enumerate(counts):
        cards.extend([card] * count)
    return cards


def _rewrite_deal(world: Game, resampled: list[int]) -> None:
    """Make the recorded deal of the current round agree with the current hands.

    Only the hands now held by the ``resampled`` seats change; the deal of a
    hand the viewer has held is kept as it was, card order included, so the
    viewer's own view of the copy equals its view of the real game.
    """
    dealt, turns = world._history[-1]
    n = world.players
    step = world.pass_step
    passes = len(turns)
    keep = {(k - step * passes) % n for k in range(n) if k not in resampled}
    hands = [h[:] for h in world.hands]
    for actions in reversed(turns):
        # undo the pass: the hand seat s holds came from seat s - step
        hands = [hands[(s + step) % n] for s in range(n)]
        for s in range(n):
            picked = card_ids(actions[s])
            if len(picked) == 2:
                hands[s].remove(_CHOPSTICKS)
            hands[s].extend(picked)
    new_deal = [dealt[p] if p in keep else tuple(hands[p]) for p in range(n)]
    world._history[-1] = (new_deal, turns)
