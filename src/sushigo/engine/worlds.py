"""A seat's information set as JSON, so that a search bot can run away from the game.

A search bot (``ismcts``) does not read the game: it samples games that look
the same to its seat from ``view.world`` (:func:`~sushigo.engine.base.view.determinize`).
A bot playing over the network gets that world from :func:`world_document`
and rebuilds it with :func:`world_from_document`; its seat's view is then
:func:`~sushigo.engine.editions.seat_view` of the rebuilt game.

The document shows nothing the seat cannot see.  It is the state of
``sample_world(game, seat, Random(0))`` (or the Party sampler's): every card
the seat has not seen is dealt in a canonical arrangement of the cards it has
not seen, other seats' hidden picks are taken back, and the seed is gone.
On top of that the order of cards is canonical (the deals of earlier rounds
sorted, this round's deals rebuilt from the hands now held, in Party other
seats' hands sorted), so two games that look the same to the seat give the same document
(``tests/engine/test_worlds.py`` checks this over random games).  The order
of the cards of a hand the seat has held may therefore differ in the
rebuilt game; no rule depends on it.

Reading a document builds only the engine's own values (numbers, lists,
the game classes, their moves and played cards, a :class:`random.Random`),
never an arbitrary object, and refuses anything else with :class:`WorldError`.

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> game = Game(3, seed=2)
>>> game.play([game.legal_actions(seat)[0] for seat in range(3)])
>>> world = world_from_document(world_document(game, 1))
>>> seat_view(world, 1).hand == seat_view(game, 1).hand, world.seed
(True, None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from sushigo.engine.base.game import _GAME_STATE, Game
from sushigo.engine.base.view import _rewrite_deal, sample_world
from sushigo.engine.editions import AnyGame, AnyView, seat_view
from sushigo.engine.messages import told, told_of
from sushigo.engine.party.game import _PARTY_STATE, Decision, Move, PartyGame, Played, _played
from sushigo.engine.party.view import _rewrite_history, sample_party_world
from sushigo.engine.rules import Rules, RulesError
from sushigo.engine.turns import Phase

FORMAT: Final = "sushigo-world/1"
"""The ``format`` of a world document."""


MAX_DEPTH: Final = 20
"""How deep a world's state may nest (a game's nests about 10 deep)."""


class WorldError(ValueError):
    """A world document that cannot be read; the message says what is wrong in one line."""


def world_document(game: AnyGame, seat: int) -> dict[str, Any]:
    """The information set of ``seat`` as a JSON-ready dict (see the module docstring)."""
    if not 0 <= seat < game.players:
        raise told(ValueError, "there is no seat {seat}", seat=seat)
    world: AnyGame
    if isinstance(game, PartyGame):
        party = world = sample_party_world(game, seat, random.Random(0))
        for s in range(party.players):  # a Party view never shows the order of another seat's hand
            if s != seat:
                party.hands[s] = sorted(party.hands[s])
        _sort_deals(party)
        if party.phase is not Phase.OVER:
            _rewrite_history(party, seat)
        names: tuple[str, ...] = _PARTY_STATE
    else:
        base = world = sample_world(game, seat, random.Random(0))  # a hand the seat knows shows in its view in order
        _sort_deals(base)
        if base._history and base.phase is Phase.PICK:
            _rewrite_deal(base, resampled=list(range(base.players)))
        names = _GAME_STATE
    rules = world.rules
    return {
        "format": FORMAT,
        "edition": rules.edition,
        "seat": seat,
        "players": rules.players,
        "menu": list(rules.menu),
        "options": rules.options(),
        "picked": [game.has_committed(s) for s in range(game.players)],
        "state": {name: _encode(getattr(world, name)) for name in names if name != "rules"},
    }


def world_view(doc: Any, *, world: bool = False) -> AnyView:
    """The seat's view that a :func:`world_document` was made from (``world=True``: carrying
    the rebuilt game as its ``world``, as search bots want); :class:`WorldError` if it is not one.

    The same view as the seat's in the real game, but for the card order of the
    hands it held earlier this round (``seen_hands``, see the module docstring).
    """
    game = world_from_document(doc)
    seat, picked = doc.get("seat"), doc.get("picked")
    if type(seat) is not int or not 0 <= seat < game.players:
        raise told(WorldError, "the world's seat must be one of 0 to {last}", last=game.players - 1)
    if not (isinstance(picked, list) and len(picked) == game.players and all(type(p) is bool for p in picked)):
        # TRANSLATORS: "picked" is a key of a world document, as it is written
        raise told(WorldError, "the world's picked is a true or false for each seat")
    try:
        view = seat_view(game, seat, world=world)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as e:
        # TRANSLATORS: {why}: what went wrong (often Python's own words)
        raise told(WorldError, "the world is not a game the engine can play: {why}", why=told_of(e)) from None
    # the world took back the other seats' hidden picks; that they picked is public
    return replace(view, picked=tuple(picked))


def world_from_document(doc: Any) -> AnyGame:
    """The game a :func:`world_document` describes; :class:`WorldError` if it is not one."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise told(WorldError, 'a world document has "format": "{format}"', format=FORMAT)
    edition, players = doc.get("edition"), doc.get("players")
    if edition not in ("base", "party") or type(players) is not int:
        raise told(WorldError, "a world document names its edition ('base' or 'party') and its players")
    try:
        rules = Rules.from_options(players, doc.get("options"), edition=edition,
                                   menu=doc.get("menu") if edition == "party" else None)
    except (RulesError, TypeError, ValueError) as e:
        # TRANSLATORS: {why}: what is wrong with the rules
        raise told(WorldError, "the world's rules: {why}", why=told_of(e)) from None
    cls: type[Game] | type[PartyGame] = PartyGame if edition == "party" else Game
    names = set(_PARTY_STATE if edition == "party" else _GAME_STATE) - {"rules"}
    state = doc.get("state")
    if not isinstance(state, Mapping) or set(state) != names:
        # TRANSLATORS: {edition}: base or party; {keys}: the keys, as a list in Python
        raise told(WorldError, "a {edition} world's state has exactly the keys {keys}", edition=edition,
                   keys=str(sorted(names)))
    if _depth(state) > MAX_DEPTH:
        raise told(WorldError, "a world's state nests at most {depth} deep", depth=MAX_DEPTH)
    game = cls(rules, _shell=True)
    for name in sorted(names):
        try:
            setattr(game, name, _decode(state[name]))
        except (TypeError, ValueError, OverflowError) as e:
            # TRANSLATORS: {name}: a key of the world's state ("hands"); {why}: what is wrong with its value
            raise told(WorldError, "the world's {name}: {why}", name=name, why=told_of(e)) from None
    return game


def _sort_deals(world: AnyGame) -> None:
    """The deals of finished rounds in sorted order (their order is the real shuffle's)."""
    history: list[Any] = world._history
    history[:-1] = [([type(h)(sorted(h)) for h in dealt], turns) for dealt, turns in history[:-1]]


# ------------------------------------------------------- values, both ways
# None, booleans, numbers and strings stand for themselves, a list for a list;
# every other value is an object with one key, the name of its kind.

def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, Played):
        return {"played": [_encode(v) for v in value.__reduce__()[1]]}
    if isinstance(value, Move):
        return {"move": [_encode(v) for v in value]}
    if isinstance(value, Decision):
        return {"decision": [_encode(v) for v in value]}
    if isinstance(value, tuple):
        return {"tuple": [_encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"set": sorted(_encode(v) for v in value)}
    if isinstance(value, dict):
        return {"map": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, Phase):
        return {"phase": value.value}
    if isinstance(value, random.Random):
        version, internal, gauss = value.getstate()
        return {"random": [version, list(internal), gauss]}
    raise TypeError(f"a world holds no {type(value).__name__}")


def _depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (read without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, Mapping):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d)
            if d <= MAX_DEPTH:
                stack.extend((x, d + 1) for x in v)
    return deepest


def _items(value: Any) -> list[Any]:
    if not isinstance(value, list):
        # TRANSLATORS: {kind}: Python's name of a kind of value (dict, int, str)
        raise told(TypeError, "expected a list, not {kind}", kind=type(value).__name__)
    return [_decode(v) for v in value]


def _random(value: Any) -> random.Random:
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[1], list)
            and all(type(x) is int for x in value[1]) and (value[2] is None or type(value[2]) is float)):
        raise told(TypeError, "a random generator's state is [version, [numbers], gauss]")
    rng = random.Random()
    rng.setstate((value[0], tuple(value[1]), value[2]))
    return rng


def _map(value: Any) -> dict[Any, Any]:
    pairs = _items(value)
    if not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise told(TypeError, "a map is a list of [key, value] pairs")
    return dict(pairs)


_KINDS: Final[dict[str, Callable[[Any], Any]]] = {
    "tuple": lambda v: tuple(_items(v)),
    "set": lambda v: set(_items(v)),
    "map": _map,
    "phase": Phase,
    "random": _random,
    "move": lambda v: Move(*_items(v)),
    "decision": lambda v: Decision(*_items(v)),
    "played": lambda v: _played(*_items(v)),
}


def _decode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, list):
        return _items(value)
    if isinstance(value, dict) and len(value) == 1:
        ((kind, inner),) = value.items()
        if kind in _KINDS:
            return _KINDS[kind](inner)
    raise told(TypeError, "unreadable value {value}", value=str(value)[:60])
