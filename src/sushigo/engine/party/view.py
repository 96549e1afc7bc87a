"""What one seat may know in a Party game, and determinization.

Everything played is public: collections (special orders with what they
copy, face-down cards), kept desserts, who gave a spoon its card.  Hands are
secret, but a seat knows every hand it has held this round and follows it
afterwards, since every later change to it was public (picks, chopsticks put
back, cards given to spoons and spoons received).  A menu's draw is seen by
its player only.  :func:`party_seat_view` builds exactly that;
:func:`sample_party_world` deals everything a seat cannot see at random,
consistently with it.

>>> from sushigo.engine.rules import Rules
>>> from sushigo.engine.party.game import PartyGame
>>> game = PartyGame(Rules.party(3, "Master Menu"), seed=2)
>>> view = party_seat_view(game, 0)
>>> view.hand == game.hand(0), view.known_cards[1]
(True, ())
>>> world = sample_party_world(game, 0, seed=5)
>>> world.hand(0) == game.hand(0), world.hands[1] == game.hands[1]
(True, False)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sushigo.engine.copies import by_fields
from sushigo.engine.messages import told
from sushigo.engine.party.actions import PASS, party_action_name, played_card
from sushigo.engine.party.cards import CHOPSTICKS_IDS, DESSERT_IDS, FACE_DOWN, PartyCard
from sushigo.engine.party.game import Decision, PartyGame, PartyResult, Played, on_face_up_wasabi
from sushigo.engine.rules import Rules
from sushigo.engine.turns import Phase


class PlayedCard(NamedTuple):
    """A card in a collection: the physical ``card``, what it counts as
    (``kind``; :data:`~sushigo.engine.party.cards.FACE_DOWN` when flipped), the turn
    it was played and whether it sits on a face-up wasabi."""

    card: int
    kind: int
    turn: int
    on_wasabi: bool

    @property
    def text(self) -> str:
        """``'salmon'``, ``'special_order>salmon'``, ``'face_down'``..."""
        kind = "face_down" if self.kind == FACE_DOWN else PartyCard(self.kind).name_in_records
        if self.card == int(PartyCard.SPECIAL_ORDER) and self.kind != self.card:
            return f"special_order>{kind}"
        return kind


@dataclass(frozen=True, slots=True)
class PartySeatView:
    """Everything seat ``seat`` may know (``None``: a spectator)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return by_fields(self)  # copy and pickle, compiled too

    seat: int | None
    players: int
    menu: tuple[str, ...]
    round: int
    turn: int
    phase: Phase
    hand: tuple[PartyCard, ...] | None
    legal_actions: tuple[int, ...]
    """The seat's legal action ids now (empty if the game does not wait for it)."""
    committed: int | None
    """The seat's own hidden pick this turn, if committed."""
    decision: Decision | None
    """The pending decision while specials resolve; ``drawn`` only for its own seat."""
    collections: tuple[tuple[PlayedCard, ...], ...]
    desserts: tuple[tuple[PartyCard, ...], ...]
    """Dessert cards (as what they count as) each seat kept from finished rounds."""
    hand_sizes: tuple[int, ...]
    picked: tuple[bool, ...]
    known_cards: tuple[tuple[PartyCard, ...], ...]
    """Cards known to be in each seat's hand now (all of it for a hand this seat held)."""
    deck_size: int
    uramaki_claimed: int
    """Uramaki race places already scored this round (0-3)."""
    result: PartyResult
    rules: Rules
    """The rules of the game (public)."""
    world: PartyGame | None = field(default=None, repr=False, compare=False)
    """The seat's information set as a game (only from ``party_seat_view(..., world=True)``).

    A copy of the game in which every card this seat cannot see has been
    replaced by a canonical arrangement of the cards it has not seen,
    computed from what this view shows, so reading it reveals nothing
    hidden (as in the base game, only the order in which earlier deals list
    their now-known cards comes from the real game).
    :func:`determinize_party` deals its unseen cards at random.
    """

    def to_json(self) -> dict[str, Any]:
        """A JSON-friendly dict with card names (for bots and network play)."""

        def names(cards: tuple[PartyCard, ...] | None) -> list[str] | None:
            return None if cards is None else [c.name_in_records for c in cards]

        d = self.decision
        return {
            "edition": "party",
            "seat": self.seat,
            "players": self.players,
            "menu": list(self.menu),
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase.value,
            "hand": names(self.hand),
            "legal_actions": list(self.legal_actions),
            "legal": [party_action_name(a) for a in self.legal_actions],
            "committed": self.committed,
            "decision": None if d is None else {
                "kind": d.kind, "seat": d.seat, "card": PartyCard(d.card).name_in_records, "asks": d.asks,
                "asks_msg": d.asks_said.to_json(),
                "drawn": [PartyCard(c).name_in_records for c in d.drawn],
            },
            "collections": [[p.text for p in col] for col in self.collections],
            "on_wasabi": [[p.on_wasabi for p in col] for col in self.collections],
            "desserts": [names(x) for x in self.desserts],
            "hand_sizes": list(self.hand_sizes),
            "picked": list(self.picked),
            "known_cards": [names(x) for x in self.known_cards],
            "deck_size": self.deck_size,
            "uramaki_claimed": self.uramaki_claimed,
            "scores": [list(r) for r in self.result.rounds],
            "result": self.result.to_json(),
        }


def played_cards(col: Sequence[Played]) -> tuple[PlayedCard, ...]:
    """A collection as the views show it: each card with whether it sits on a face-up wasabi."""
    return tuple(PlayedCard(p.card, p.kind, p.turn, on) for p, on in zip(col, on_face_up_wasabi(col)))


def known_hand_cards(game: PartyGame, viewer: int) -> list[Counter[int]]:
    """Cards ``viewer`` knows to be in each seat's hand now (a multiset per seat).

    Rebuilt from the round's history: a hand is known in full once the
    viewer has held it, and every later change to it was public (picks,
    chopsticks put back, a card given to a spoon and the spoon received).
    Cards put into a hand the viewer never held are known too.
    """
    n = game.players
    if not game._history or game.phase in (Phase.DEAL, Phase.OVER):
        return [Counter() for _ in range(n)]
    dealt, turns = game._history[-1]
    actual = [list(h) for h in dealt]
    known: list[Counter[int]] = [Counter() for _ in range(n)]
    known[viewer] = Counter(dealt[viewer])
    in_progress = game.phase in (Phase.RESOLVE, Phase.DRAW)
    for i, moves in enumerate(turns):
        for m in moves:
            if m.action == PASS or (m.via != -1 and m.special < 0):
                continue  # declines, menus and takeout boxes change no hand
            card = _card_of(m.action)
            if m.via == -1 or m.via in CHOPSTICKS_IDS:
                holder, back = m.seat, m.special
            elif m.giver >= 0:
                holder, back = m.giver, m.special
            else:
                continue  # nobody had the card asked for: the spoon is discarded
            actual[holder].remove(card)
            _take(known[holder], card)
            if back >= 0:
                actual[holder].append(back)
                known[holder][back] += 1
        if i == len(turns) - 1 and in_progress:
            break
        actual = actual[-1:] + actual[:-1]
        known = known[-1:] + known[:-1]
        known[viewer] = Counter(actual[viewer])
    return known


def _card_of(action: int) -> int:
    card = played_card(action)
    assert card is not None
    return card


def _take(counter: Counter[int], card: int) -> None:
    if counter[card] > 0:
        counter[card] -= 1
        if not counter[card]:
            del counter[card]


def party_seat_view(game: PartyGame, seat: int | None, *, world: bool = False) -> PartySeatView:
    """What seat ``seat`` may know now (``None``: a spectator, public information only).

    With ``world=True`` (a seat only) the view also carries
    :attr:`PartySeatView.world`, for :func:`determinize_party`.
    """
    n = game.players
    if seat is not None and not 0 <= seat < n:
        raise told(IndexError, "there is no seat {seat}", seat=seat)
    d = game.decision
    if d is not None and d.seat != seat and d.drawn:
        d = d._replace(drawn=())
    if seat is None:
        known: list[Counter[int]] = [Counter() for _ in range(n)]
    else:
        known = known_hand_cards(game, seat)
    return PartySeatView(
        seat=seat,
        players=n,
        menu=game.rules.menu,
        round=game.round,
        turn=game.turn,
        phase=game.phase,
        hand=None if seat is None else game.hand(seat),
        legal_actions=() if seat is None else tuple(game.legal_actions(seat)),
        committed=None if seat is None else game.committed_action(seat),
        decision=d,
        collections=tuple(played_cards(col) for col in game.collections),
        desserts=tuple(tuple(PartyCard(c) for c in ds) for ds in game.desserts),
        hand_sizes=tuple(len(h) for h in game.hands),
        picked=tuple(game.has_committed(s) for s in range(n)),
        known_cards=tuple(tuple(PartyCard(c) for c in sorted(k.elements())) for k in known),
        deck_size=len(game.deck) + game._unknown_desserts,
        uramaki_claimed=game.uramaki_claimed,
        result=game.result(),
        rules=game.rules,
        world=sample_party_world(game, seat, random.Random(0)) if world and seat is not None else None,
    )


def determinize_party(view: PartySeatView, rng: random.Random) -> PartyGame:
    """A game consistent with everything ``view`` shows, its hidden cards dealt at random.

    Needs a view made with ``party_seat_view(game, seat, world=True)``;
    samples as :func:`sample_party_world` on the real game would, from the
    view alone.

    >>> from sushigo.engine.rules import Rules
    >>> game = PartyGame(Rules.party(4, "Master Menu"), seed=3)
    >>> view = party_seat_view(game, 1, world=True)
    >>> world = determinize_party(view, random.Random(0))
    >>> world.hand(1) == view.hand, party_seat_view(world, 1) == view
    (True, True)
    """
    if view.world is None or view.seat is None:
        raise told(ValueError, "determinize_party needs a seat's view made with world=True")
    return sample_party_world(view.world, view.seat, rng)


def party_spectator_view(game: PartyGame) -> PartySeatView:
    """Public information only (no hand, no hidden pick, no menu draw)."""
    return party_seat_view(game, None)


def sample_party_world(
    game: PartyGame,
    viewer: int,
    rng: random.Random | None = None,
    *,
    seed: int | None = None,
) -> PartyGame:
    """A copy of ``game`` where everything ``viewer`` cannot see is dealt at random.

    The viewer's hand, its hidden pick, its own menu draw and every card it
    knows to be in another hand stay; other seats' hidden picks are taken
    back (they stay in the hands until the reveal); the remaining cards of other hands, the deck, the
    dessert pile and another seat's menu draw are shuffled among those
    places (the dessert pile only ever holds desserts).  The copy gets a
    fresh random generator, so its future shuffles reveal nothing either.
    The copy deals itself from then on, even when ``game`` was dealt by hand
    (``auto_deal=False``: a replayed record).  The copy's history is rewritten to match: this round's deal is rebuilt
    from the sampled hands and other seats' menu draws are dropped, so views
    built inside the copy, for any seat, see only the copy's cards.  (A
    spoon that found nobody also tells everyone that no hand held that card;
    the sampler does not use that.)
    """
    if rng is None:
        rng = random.Random(seed)
    if game.phase in (Phase.DEAL, Phase.DRAW):
        raise told(ValueError, "sample_party_world needs a game that is not waiting for cards from the deck")
    world = game.clone()
    world._rng = random.Random(rng.random())
    world.seed = None
    if not world._auto_deal:
        # A game dealt by hand (a replayed record) knows only how many of the
        # pile's desserts went into the deck: put that many there (the pile is
        # pooled with the deck below, so which ones does not matter).
        unknown = world._unknown_desserts
        if unknown:
            world.deck.extend(world.dessert_pile[-unknown:])
            del world.dessert_pile[-unknown:]
        world._unknown_desserts = 0
        world._auto_deal = True
    if world.phase is Phase.OVER:
        return world
    n = world.players
    known = known_hand_cards(game, viewer)
    for s in range(n):
        pick = world._pending[s]
        if s != viewer and pick is not None:
            world._pending[s] = None  # the card is still in the hand until the reveal
            world._npending -= 1
    pool: list[int] = []
    for s in range(n):
        if s != viewer:
            pool.extend((Counter(world.hands[s]) - known[s]).elements())
    d = world._decision
    other_draw = world.phase is Phase.RESOLVE and d is not None and d.seat != viewer and bool(d.drawn)
    if other_draw and d is not None:
        pool.extend(d.drawn)
    pool.extend(world.deck)
    pool.extend(world.dessert_pile)
    pool.sort()  # the real arrangement must not show through the shuffle
    rng.shuffle(pool)
    pile_size = len(world.dessert_pile)
    dessert_at = [i for i, c in enumerate(pool) if c in DESSERT_IDS]
    chosen = set(rng.sample(dessert_at, pile_size))
    world.dessert_pile = [pool[i] for i in sorted(chosen)]
    rest = [c for i, c in enumerate(pool) if i not in chosen]
    for s in range(n):
        if s != viewer:
            mine = list(known[s].elements())
            k = len(world.hands[s]) - len(mine)
            world.hands[s] = mine + rest[:k]
            del rest[:k]
    if other_draw and d is not None:
        k = len(d.drawn)
        world._decision = d._replace(drawn=tuple(rest[:k]))
        del rest[:k]
    world.deck = rest
    _rewrite_history(world, viewer)
    return world


def _rewrite_history(world: PartyGame, viewer: int) -> None:
    """Make the copy's history agree with its sampled hands.

    The current round's deal is rebuilt by undoing this round's moves (all
    public) from the sampled hands, so views built inside the copy, for any
    seat, follow the copy's cards and never the real ones.  Other seats'
    menu draws, which the viewer never saw, are dropped from the history.
    """
    _dealt, turns = world._history[-1]
    hands = [list(h) for h in world.hands]
    in_progress = world.phase in (Phase.RESOLVE, Phase.DRAW)
    for i in range(len(turns) - 1, -1, -1):
        if not (i == len(turns) - 1 and in_progress):
            hands = hands[1:] + hands[:1]  # undo passing left
        for m in reversed(turns[i]):
            if m.action == PASS or (m.via != -1 and m.special < 0):
                continue
            holder = m.seat if m.via == -1 or m.via in CHOPSTICKS_IDS else m.giver
            if holder < 0:
                continue
            if m.special >= 0:
                hands[holder].remove(m.special)
            hands[holder].append(_card_of(m.action))
    rounds = world._history
    world._history = [
        (list(d), [[m._replace(drawn=()) if m.drawn and m.seat != viewer else m for m in moves]
                   for moves in ts])
        for d, ts in rounds[:-1]
    ] + [([tuple(h) for h in hands],
          [[m._replace(drawn=()) if m.drawn and m.seat != viewer else m for m in moves]
           for moves in turns])]
