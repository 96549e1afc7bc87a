"""Sushi Go! (the original game) as an OpenSpiel game: ``python_sushigo``.

Needs the ``openspiel`` extra (``pip install 'sushigo[openspiel]'``).  Importing
this module registers the game with OpenSpiel; :func:`load_game` (or
``pyspiel.load_game("python_sushigo", {...})`` after the import) makes one.
Without OpenSpiel the module still imports, but :func:`load_game` raises
:class:`ImportError`.

- Simultaneous moves: at a decision node ``current_player()`` is
  ``PlayerId.SIMULTANEOUS`` and every seat picks at once
  (``apply_actions``, seat order).  Actions are the engine's integer encoding,
  156 ids with chopsticks pairs (:mod:`sushigo.engine.base.actions`); a seat's legal
  actions are :meth:`sushigo.engine.base.game.Game.legal_actions`.
- Chance deals card by card: each chance node draws one card *kind* from
  the cards left in the deck (outcome = card id, probability = copies left /
  cards left), seat 0's hand first, then seat 1's, ...  After
  ``players * hand_size`` draws the round is dealt to the engine.  Rounds 2
  and 3 deal from what is left of the deck, as in the real game (with
  ``reshuffle`` the engine first puts the discarded cards back, and the
  chance node draws from that).  A game is ``3 * hand_size`` joint moves and
  ``3 * players * hand_size`` draws (``max_game_length`` counts both).
- Parameters: ``players`` (2-5, default 4), ``pass_both_ways`` and
  ``reshuffle`` (the rule options of :class:`~sushigo.engine.rules.Rules`, default
  off) and ``reward``: ``"margin"`` (own total minus the mean of the others'),
  ``"win"`` (1 shared among the winners) or ``"rank"`` (+1 first to -1 last,
  ties averaged), as in :mod:`sushigo.envs.sushigo_v0`.  Rewards come at the
  end only (``RewardModel.TERMINAL``).
- Utility: every reward is constant-sum: ``"margin"`` and ``"rank"`` sum to 0
  (``ZERO_SUM``, as registered), ``"win"`` to 1 (a game loaded with it reports
  ``CONSTANT_SUM``).  ``min_utility``/``max_utility`` are safe bounds, not
  attained values.
- Observation (``observation_tensor``/``observation_string``, not perfect
  recall): the seat's view (:func:`sushigo.engine.base.view.seat_view`, the one place
  that decides what a seat may know): the tensor is
  :func:`sushigo.engine.observation.features` (size
  :func:`~sushigo.engine.observation.observation_size`), the string the view's
  :meth:`~sushigo.engine.base.view.SeatView.to_json` as compact JSON.  While a round is
  being dealt a seat sees no hand yet: it looks at its cards once the deal
  is complete.
- Information state (``information_state_string``, perfect recall; no
  tensor): everything the seat has observed, in order: for every turn of
  every round so far, the hand it held (as received) and, once revealed,
  every seat's pick.  Scores, puddings, the discard pile and the other
  seats' collections all follow from that.

>>> import pytest; pyspiel = pytest.importorskip("pyspiel")  # the openspiel extra
>>> import random
>>> from sushigo.engine.observation import observation_size
>>> game = load_game(players=3)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.observation_tensor(0)) == observation_size(3)
(True, True)
>>> rng = random.Random(1)
>>> while not state.is_terminal():
...     if state.is_chance_node():  # one card drawn from the deck
...         cards, probs = zip(*state.chance_outcomes())
...         state.apply_action(rng.choices(cards, probs)[0])
...     else:  # every seat picks at once
...         state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
>>> state.engine.result().totals, state.returns()
((35, 29, 44), [-1.5, -10.5, 12.0])
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, Final

from sushigo.engine.base.actions import NUM_ACTIONS, action_name
from sushigo.engine.base.cards import CARD_NAMES, NUM_CARD_TYPES, count_cards
from sushigo.engine.base.game import Game
from sushigo.engine.base.view import replay_hands, seat_view
from sushigo.engine.observation import features, observation_size
from sushigo.engine.rules import MAX_PLAYERS, MIN_PLAYERS, NUM_ROUNDS, Rules
from sushigo.engine.turns import Phase
from sushigo.envs.rewards import check_reward, final_rewards

try:
    import pyspiel
except ImportError:  # without the openspiel extra: the module imports, load_game raises
    pyspiel = None

SHORT_NAME: Final = "python_sushigo"
DEFAULT_PARAMS: Final[dict[str, Any]] = {
    "players": 4,
    "pass_both_ways": False,
    "reshuffle": False,
    "reward": "margin",
}
_INSTALL_HINT: Final = "the OpenSpiel game needs open_spiel: pip install 'sushigo[openspiel]'"


def _require_pyspiel() -> Any:
    if pyspiel is None:
        raise ImportError(_INSTALL_HINT)
    return pyspiel


def _max_total(hand_size: int) -> int:
    """An upper bound on a seat's final total: per round at most 4.5 points a
    card (squid on wasabi) plus the 6 of the maki award, then +6 for puddings."""
    return NUM_ROUNDS * (9 * hand_size // 2 + 6) + 6


def _utility_bounds(reward: str, hand_size: int) -> tuple[float, float]:
    if reward == "margin":
        bound = float(_max_total(hand_size) + 6)  # a total is never below -6
        return -bound, bound
    if reward == "win":
        return 0.0, 1.0
    return -1.0, 1.0


def _game_type(reward: str = "margin") -> Any:
    ps = _require_pyspiel()
    utility = ps.GameType.Utility.CONSTANT_SUM if reward == "win" else ps.GameType.Utility.ZERO_SUM
    return ps.GameType(
        short_name=SHORT_NAME,
        long_name="Sushi Go! (python, sushigo)",
        dynamics=ps.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=ps.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=ps.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=ps.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=DEFAULT_PARAMS,
    )


def _rules(params: dict[str, Any]) -> tuple[Rules, str]:
    unknown = sorted(set(params) - set(DEFAULT_PARAMS))
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r} for {SHORT_NAME}")
    merged = {**DEFAULT_PARAMS, **params}
    reward = check_reward(merged["reward"])
    for key in ("pass_both_ways", "reshuffle"):
        if not isinstance(merged[key], bool):
            raise ValueError(f"{key} must be true or false")
    rules = Rules(merged["players"], pass_both_ways=merged["pass_both_ways"], reshuffle=merged["reshuffle"])
    return rules, str(reward)


_GameBase: Any = pyspiel.Game if pyspiel is not None else object
_StateBase: Any = pyspiel.State if pyspiel is not None else object


class SushiGoGame(_GameBase):  # type: ignore[misc]
    """The game: makes states and observers (``params`` as in the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        ps = _require_pyspiel()
        params = dict(params or {})
        self.rules, self.reward = _rules(params)
        n, k = self.rules.players, self.rules.hand_size
        low, high = _utility_bounds(self.reward, k)
        super().__init__(
            _game_type(self.reward),
            ps.GameInfo(
                num_distinct_actions=NUM_ACTIONS,
                max_chance_outcomes=NUM_CARD_TYPES,
                num_players=n,
                min_utility=low,
                max_utility=high,
                utility_sum=1.0 if self.reward == "win" else 0.0,
                max_game_length=NUM_ROUNDS * k * (n + 1),
            ),
            {**DEFAULT_PARAMS, **params},
        )

    def new_initial_state(self) -> SushiGoState:
        """The start of a game: the first chance node of the first deal."""
        return SushiGoState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Every card dealt is a chance node: ``3 * players * hand_size``."""
        return NUM_ROUNDS * self.rules.players * self.rules.hand_size

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SushiGoObserver:
        """The observer of ``iig_obs_type`` (default: the observation, not perfect recall)."""
        return SushiGoObserver(self.rules.players, iig_obs_type, params)


class SushiGoState(_StateBase):  # type: ignore[misc]
    """A state: the engine's game plus the cards drawn so far for the next deal.

    ``engine`` is the :class:`sushigo.engine.base.game.Game` behind the state (dealt with
    ``auto_deal=False``): read it, but change it only through ``apply_action``
    and ``apply_actions``.  :meth:`record` gives the game record.
    """

    def __init__(self, game: SushiGoGame) -> None:
        super().__init__(game)
        self.engine = Game(game.rules, rng=random.Random(0), auto_deal=False)
        self.reward = game.reward
        self._drawn: list[int] = []
        self._left = count_cards(self.engine.deck)

    # ---------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        """``TERMINAL``, ``CHANCE`` while a round is dealt, else ``SIMULTANEOUS``."""
        phase = self.engine.phase
        if phase is Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        if phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        if not 0 <= player < self.engine.players:
            raise ValueError("every seat picks at once here: ask legal_actions(player) for each seat")
        return self.engine.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card id, probability)`` of the next card drawn: copies left / cards left."""
        if self.engine.phase is not Phase.DEAL:
            raise ValueError("not a chance node: the round has been dealt")
        total = sum(self._left)
        return [(c, n / total) for c, n in enumerate(self._left) if n]

    def _apply_action(self, action: int) -> None:
        """Draw one card (chance nodes only; decisions go through ``apply_actions``)."""
        engine = self.engine
        if engine.phase is not Phase.DEAL:
            raise ValueError("apply_action is for chance nodes; the seats pick with apply_actions")
        if not (0 <= action < NUM_CARD_TYPES and self._left[action]):
            raise ValueError(f"chance outcome {action} is not a card left in the deck")
        self._left[action] -= 1
        self._drawn.append(action)
        n, k = engine.players, engine.rules.hand_size
        if len(self._drawn) == n * k:
            drawn = self._drawn
            self._drawn = []
            engine.deal([drawn[s * k:(s + 1) * k] for s in range(n)])

    def _apply_actions(self, actions: Sequence[int]) -> None:
        # Raises sushigo.engine.errors.IllegalActionError (a ValueError) and changes
        # nothing if a pick is illegal.
        self.engine.play(list(actions))
        if self.engine.phase is Phase.DEAL:  # a round ended: the next deal draws from the deck now
            self._left = count_cards(self.engine.deck)  # (with reshuffle, the discard is back in it)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        return action_name(action)

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def returns(self) -> list[float]:
        """:func:`final_rewards` of the final scores; zeros until the game is over."""
        if not self.engine.is_over:
            return [0.0] * self.engine.players
        result = self.engine.result()
        return final_rewards(result.totals, result.winners, self.reward)

    def __str__(self) -> str:
        engine = self.engine
        if engine.is_over:
            head = "game over"
        elif engine.phase is Phase.DEAL:
            n, k = engine.players, engine.rules.hand_size
            head = f"round {engine.round}: dealing, {len(self._drawn)}/{n * k} cards drawn"
        else:
            head = f"round {engine.round}, turn {engine.turn}"
        lines = [head]
        scores = engine.result()
        for s in range(engine.players):
            lines.append(
                f"seat {s}: hand {_names(engine.hands[s])} collection {_names(engine.collections[s])}"
                f" puddings {scores.puddings[s]} score {scores.totals[s]}"
            )
        if self._drawn:
            lines.append(f"drawn {_names(self._drawn)}")
        lines.append(f"deck {sum(self._left)} cards")
        return "\n".join(lines)

    # ------------------------------------------------------------------ extras

    def record(self) -> dict[str, Any]:
        """The game record so far (:func:`sushigo.engine.editions.to_record`)."""
        from sushigo.engine.editions import to_record

        return to_record(self.engine, meta={"env": SHORT_NAME})


class SushiGoObserver:
    """The PyObserver of one observation type.

    The default type (``perfect_recall=False``, public and the seat's private
    information) gives the seat view: tensor and string.  ``perfect_recall=True``
    gives the information state string (no tensor).  Other types raise
    :class:`ValueError`.
    """

    def __init__(self, players: int, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> None:
        import numpy as np

        ps = _require_pyspiel()
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = ps.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != ps.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                "python_sushigo observes public information plus the observing seat's private "
                "information only (private_info=SINGLE_PLAYER, public_info=True)"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if not self.perfect_recall:
            self.tensor = np.zeros(observation_size(players), np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: SushiGoState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor`."""
        if self.tensor is not None:
            self.tensor[:] = features(seat_view(state.engine, player))

    def string_from(self, state: SushiGoState, player: int) -> str:
        """``player``'s observation string, or its information state string (perfect recall)."""
        if self.perfect_recall:
            return information_state_string(state.engine, player)
        return json.dumps(seat_view(state.engine, player).to_json(), separators=(",", ":"))


def information_state_string(game: Game, seat: int) -> str:
    """Everything ``seat`` has observed of ``game``, one line per turn:
    ``r<round>t<turn> hand=<hand held> picks=<every seat's pick>`` (picks once revealed).
    """
    lines = [f"seat {seat} of {game.players}"]
    for r, (dealt, turns) in enumerate(game.history(), 1):
        for t, hands in enumerate(replay_hands(dealt, turns, game.rules.pass_step(r))):
            if not hands[seat]:
                break
            # sorted: a hand is a set of cards, the order they were drawn in is not seen
            line = f"r{r}t{t + 1} hand={','.join(CARD_NAMES[c] for c in sorted(hands[seat]))}"
            if t < len(turns):
                line += " picks=" + ",".join(action_name(a) for a in turns[t])
            lines.append(line)
    return "\n".join(lines)


def _names(cards: Sequence[int]) -> str:
    return "[" + " ".join(CARD_NAMES[c] for c in cards) + "]"


def load_game(**params: Any) -> Any:
    """A ``pyspiel.Game`` of Sushi Go! (``players``, ``pass_both_ways``,
    ``reshuffle``, ``reward``; see the module docstring)."""
    ps = _require_pyspiel()
    return ps.load_game(SHORT_NAME, params)


if pyspiel is not None and SHORT_NAME not in {t.short_name for t in pyspiel.registered_games()}:
    pyspiel.register_game(_game_type(), SushiGoGame)
