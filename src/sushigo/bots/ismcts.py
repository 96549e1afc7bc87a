"""Information-set Monte Carlo tree search (ISMCTS), for both editions.

The bot searches from its seat's view alone.  Every iteration it
determinizes: :func:`~sushigo.engine.base.view.determinize` deals the cards the seat
cannot see at random, consistently with everything it has seen (the
view carries the seat's information set as a game, built without the real
hidden cards), so the search never reads a hidden card.  It then plays the
sampled game to its end:

* the bot's own decisions follow the tree: one node per sequence of its
  own actions (an *open-loop* information-set tree: what the other seats
  do in between is sampled, not branched on), each chosen by UCB1 with
  availability counts, since which actions are legal depends on the
  sample (Cowling, Powley and Whitehouse 2012, SO-ISMCTS);
* the other seats' picks come from the playout policy, which reads only
  that seat's own hand and the public collections.  Picks go in one seat
  at a time through the engine's hidden-commit path
  (:meth:`~sushigo.engine.base.game.Game.commit`): no seat's choice can depend on
  another's pick of the same turn, so simultaneous picks stay simultaneous;
* past the tree, every seat plays the playout policy to the end of the
  game (:mod:`sushigo.bots.policy` in the base game,
  :mod:`sushigo.bots.party_policy` in Party).

The reward is the seat's final standing: half its share of the win (a
shared win counts 1/k), half its score margin over the best other seat,
squashed into [0, 1].  The action visited most at the root is played.

Settings (``ismcts:iterations=2000``, ``ismcts:time=0.5,c=0.7``):

* ``iterations``: iterations per decision (default 1000 when no ``time``);
* ``time``: seconds per decision instead (wall clock), whichever ends first
  when both are given;
* ``c``: the UCB1 exploration constant (default 0.7);
* ``policy``: ``heuristic`` (default) or ``random`` playouts;
* ``epsilon``: the heuristic policy's chance of a random pick (0.15).

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> game = Game(4, seed=5)
>>> bot = ISMCTSBot(seed=1, iterations=200)
>>> action = bot.choose(seat_view(game, 0, world=True))
>>> action in game.legal_actions(0), bot.last_iterations
(True, 200)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import ClassVar, Final

from sushigo.bots.base import AnyView, Bot, legal_actions_of
from sushigo.bots.party_policy import party_heuristic_action, party_heuristic_playout
from sushigo.bots.policy import heuristic_pick
from sushigo.engine.base.actions import Action
from sushigo.engine.base.game import Game
from sushigo.engine.base.scoring import Result
from sushigo.engine.base.view import SeatView, determinize
from sushigo.engine.editions import by_view
from sushigo.engine.messages import told
from sushigo.engine.party.game import PartyResult
from sushigo.engine.party.view import PartySeatView, determinize_party
from sushigo.engine.turns import Phase

DEFAULT_ITERATIONS: Final = 1000
MARGIN_SCALE: Final = 20.0
"""A score margin of this many points moves the margin half of the reward from 0.5 to 1."""

Policy = Callable[[Game, int, random.Random], int]


class Node:
    """One information set of the searching seat: statistics per own action."""

    __slots__ = ("avail", "children", "visits", "wins")

    def __init__(self) -> None:
        self.visits: dict[int, int] = {}
        self.wins: dict[int, float] = {}
        self.avail: dict[int, int] = {}
        self.children: dict[int, Node] = {}

    def select(self, actions: list[int], c: float, rng: random.Random) -> int:
        """UCB1 with availability counts; an action never tried goes first."""
        visits = self.visits
        avail = self.avail
        untried = []
        for a in actions:
            avail[a] = avail.get(a, 0) + 1
            if a not in visits:
                untried.append(a)
        if untried:
            return untried[int(rng.random() * len(untried))]
        wins = self.wins
        best = actions[0]
        best_score = -1.0
        log = math.log
        sqrt = math.sqrt
        for a in actions:
            n = visits[a]
            score = wins[a] / n + c * sqrt(log(avail[a]) / n)
            if score > best_score:
                best, best_score = a, score
        return best

    def descend(
        self, actions: list[int], c: float, rng: random.Random, path: list[tuple[Node, int]], grow: bool
    ) -> tuple[int, Node | None]:
        """Select an action (:meth:`select`), note it on ``path`` and return it
        with its child node; ``None`` once the iteration leaves the tree (a new
        child is added first when ``grow``)."""
        action = self.select(actions, c, rng)
        path.append((self, action))
        child = self.children.get(action)
        if child is None and grow:
            self.children[action] = Node()
        return action, child

    def update(self, action: int, reward: float) -> None:
        self.visits[action] = self.visits.get(action, 0) + 1
        self.wins[action] = self.wins.get(action, 0.0) + reward


def reward(totals: tuple[int, ...], winners: tuple[int, ...], seat: int) -> float:
    """The seat's standing at the end of a game, in [0, 1] (see the module doc).

    >>> reward((50, 30, 20), (0,), 0), reward((50, 30, 20), (0,), 2)
    (1.0, 0.0)
    >>> reward((30, 30), (0, 1), 1)
    0.5
    """
    share = 1.0 / len(winners) if seat in winners else 0.0
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    margin = min(1.0, max(-1.0, (totals[seat] - best_other) / MARGIN_SCALE))
    return 0.5 * share + 0.25 * (1.0 + margin)


def _back_up(path: list[tuple[Node, int]], result: Result | PartyResult, seat: int) -> None:
    """Credit the seat's reward for a finished playout to every action on ``path``."""
    r = reward(result.totals, result.winners, seat)
    for node, action in path:
        node.update(action, r)


class ISMCTSBot(Bot):
    """Information-set MCTS from the seat's view (see the module doc)."""

    name: ClassVar[str] = "ismcts"
    wants_world: ClassVar[bool] = True
    tree: ClassVar[bool] = True
    """Grow a tree below the root (``False``: flat Monte Carlo)."""
    settings: ClassVar[dict[str, type]] = {
        "iterations": int,
        "time": float,
        "c": float,
        "policy": str,
        "epsilon": float,
    }

    def __init__(
        self,
        seed: int | None = None,
        *,
        rng: random.Random | None = None,
        iterations: int | None = None,
        time: float | None = None,
        c: float = 0.7,
        policy: str = "heuristic",
        epsilon: float = 0.15,
    ) -> None:
        super().__init__(seed, rng=rng)
        if iterations is not None and iterations < 1:
            raise told(ValueError, "ismcts iterations must be at least 1")
        if time is not None and not (time > 0 and math.isfinite(time)):
            raise told(ValueError, "ismcts time must be a positive number of seconds")
        if not (c >= 0 and math.isfinite(c)):
            raise told(ValueError, "ismcts c must be a number >= 0")
        if policy not in ("heuristic", "random"):
            raise told(ValueError, "ismcts policy must be 'heuristic' or 'random', not {policy}", policy=repr(policy))
        if not 0 <= epsilon <= 1:
            raise told(ValueError, "ismcts epsilon must be between 0 and 1")
        self.iterations = iterations if iterations is not None or time is not None else DEFAULT_ITERATIONS
        self.time = time
        self.c = c
        self.policy = policy
        self.epsilon = epsilon
        self.yield_every: int | None = None
        """Release the GIL after every this many iterations (``time.sleep(0)``), so that
        the process's other threads run while it searches: a server's event loop shares
        its process with its bots, and CPython left it waiting up to a second for the GIL
        while one search ran (``None``: never)."""
        self.last_iterations = 0
        """Iterations the last decision ran."""
        self.last_visits: dict[int, int] = {}
        """Root visit counts of the last decision, per action."""
        self.searches = 0
        """Decisions searched so far (decisions with one legal action are not searched)."""
        self.total_iterations = 0
        """Iterations run over all :attr:`searches`."""

    def choose(self, view: AnyView) -> Action:
        actions = legal_actions_of(view)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        if view.world is None or view.seat is None:
            raise ValueError("ismcts needs a seat's view made with world=True (see Bot.wants_world)")
        iterate = by_view(view, base=self._base_iteration, party=self._party_iteration)
        root = Node()
        deadline = None if self.time is None else time.perf_counter() + self.time
        limit = self.iterations
        polite = self.yield_every
        done = 0
        while True:
            iterate(root)
            done += 1
            if limit is not None and done >= limit:
                break
            if polite and done % polite == 0:
                time.sleep(0)
            if deadline is not None and (done & 7) == 0 and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.searches += 1
        self.total_iterations += done
        self.last_visits = dict(root.visits)
        best = max(actions, key=lambda a: (root.visits.get(a, 0), root.wins.get(a, 0.0)))
        return best

    # ------------------------------------------------------------ base game

    def _base_iteration(self, view: SeatView) -> Callable[[Node], None]:
        seat = view.seat
        assert seat is not None
        rng = self.rng
        c = self.c
        eps = self.epsilon
        tree = self.tree
        if self.policy == "heuristic":
            def pick(game: Game, s: int) -> int:
                return heuristic_pick(game, s, rng, eps)
        else:
            def pick(game: Game, s: int) -> int:
                acts = game.legal_actions(s)
                return acts[int(rng.random() * len(acts))]

        def iteration(root: Node) -> None:
            world = determinize(view, rng)
            node: Node | None = root
            path: list[tuple[Node, int]] = []
            players = range(world.players)
            commit = world.commit
            while world._phase is Phase.PICK:
                if node is not None:
                    own, node = node.descend(world.legal_actions(seat), c, rng, path, tree)
                else:
                    own = pick(world, seat)
                # one seat at a time, picks hidden until the last: ours first,
                # so no other seat's choice can depend on it
                commit(seat, own)
                for s in players:
                    if s != seat:
                        commit(s, pick(world, s))
            _back_up(path, world.result(), seat)

        return iteration

    # ---------------------------------------------------------------- Party

    def _party_iteration(self, view: PartySeatView) -> Callable[[Node], None]:
        seat = view.seat
        assert seat is not None
        rng = self.rng
        c = self.c
        eps = self.epsilon
        tree = self.tree
        heuristic = self.policy == "heuristic"

        def iteration(root: Node) -> None:
            world = determinize_party(view, rng)
            node: Node | None = root
            path: list[tuple[Node, int]] = []
            while node is not None and world._phase is not Phase.OVER:
                pending = world.pending_seats
                if world._phase is Phase.PICK and seat in pending:
                    # our hidden pick first: the others cannot see it
                    pending = [seat] + [s for s in pending if s != seat]
                for s in pending:
                    if s == seat and node is not None:
                        a, node = node.descend(world.legal_actions(s), c, rng, path, tree)
                    elif heuristic:
                        a = party_heuristic_action(world, s, rng, eps)
                    else:
                        acts = world.legal_actions(s)
                        a = acts[int(rng.random() * len(acts))]
                    world.commit(s, a)
            if heuristic:
                party_heuristic_playout(world, rng, eps)
            else:
                world.random_playout(rng)
            _back_up(path, world.result(), seat)

        return iteration


class FlatMCBot(ISMCTSBot):
    """Flat Monte Carlo: ISMCTS without a tree below the root.

    Each iteration determinizes, tries one of its legal actions (UCB1 over
    the root's actions, the same settings as ``ismcts``) and plays the
    game out with the playout policy.  A baseline that shows what the tree
    adds.

    >>> from sushigo import Game
    >>> from sushigo.engine.base.view import seat_view
    >>> game = Game(3, seed=5)
    >>> FlatMCBot(seed=1, iterations=50).choose(seat_view(game, 2, world=True)) in game.legal_actions(2)
    True
    """

    name: ClassVar[str] = "flatmc"
    tree: ClassVar[bool] = False


__all__ = ["DEFAULT_ITERATIONS", "FlatMCBot", "ISMCTSBot", "Node", "reward"]
