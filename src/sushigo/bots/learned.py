"""The ``learned`` bot: a small neural policy trained by reinforcement learning.

The network (``examples/train_learned.py`` trains it with PPO on the batch
engine, :mod:`sushigo.envs.vector`) reads :func:`network_input`: the seat's
observation (:mod:`sushigo.engine.observation`) placed in the layout of a 5-player
table, the table size one-hot and the rule options (``pass_both_ways``, and
whether hands go right this round), so one network plays 2-5 players under
either passing rule.  It
outputs a score for each of the 156 actions; the bot plays the best legal one
(``learned:temperature=T`` samples with softmax temperature ``T`` instead).

It runs on the standard library: the weights ship as
``sushigo/bots/data/learned.json`` (format ``sushigo-policy/1``: float32 as
base64, with how they were trained), evaluated in plain Python in about a
millisecond per pick.  :meth:`Policy.logits_batch` evaluates many inputs at
once with numpy, for batch environments.  In Sushi Go Party! the bot plays a
second network, ``sushigo/bots/data/learned_party.json`` (trained by
``examples/train_learned_party.py``), that reads :func:`party_network_input`:
the observation in the 8-player layout, the table size and the menu, so one
network plays every menu and table size.  Its file's ``prior`` adds a
learned multiple of ``greedy``'s estimate of each action to the network's
scores (:meth:`Policy.party_scores`): the network learns what to change in
``greedy``'s play.

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> game = Game(4, seed=2)
>>> bot = LearnedBot(seed=0)
>>> bot.choose(seat_view(game, 1)) in game.legal_actions(1)
True
"""

from __future__ import annotations

import base64
import functools
import json
import math
import operator
import sys
from array import array
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Final

from sushigo.bots.base import AnyView, Bot, legal_actions_of
from sushigo.bots.party_greedy import party_action_values
from sushigo.engine.base.actions import NUM_ACTIONS, Action
from sushigo.engine.base.view import SeatView
from sushigo.engine.editions import by_view
from sushigo.engine.observation import MAX_PLAYERS, block_start, features, observation_size, padded_positions
from sushigo.engine.party.actions import PARTY_NUM_ACTIONS
from sushigo.engine.party.cards import NUM_PARTY_IDS, cards_of_item
from sushigo.engine.party.view import PartySeatView

FORMAT: Final = "sushigo-policy/1"
"""The ``format`` of a policy file."""

OBSERVATION_SIZE: Final = observation_size(MAX_PLAYERS["base"])
"""The 5-player observation layout every table size is placed in."""

INPUT_SIZE: Final = OBSERVATION_SIZE + 4 + 2
"""Length of :func:`network_input`: the 5-player observation, the table size one-hot, the two option flags."""

LEGACY_INPUT_SIZE: Final = OBSERVATION_SIZE + 4
"""Inputs of policies trained before the option flags (default rules only); they still load and play."""

SIZE_AT: Final = OBSERVATION_SIZE
"""Where the table size one-hot starts (2..5 players)."""

OPTIONS_AT: Final = OBSERVATION_SIZE + 4
"""Where the option flags start: ``pass_both_ways``, then 1 when hands go right this round."""

ROUND_TWO_AT: Final = block_start("round", MAX_PLAYERS["base"]) + 1
"""The observation entry that is 1 in the second round (the round whose hands go right)."""

_PICKED: Final = range(block_start("picked", MAX_PLAYERS["base"]), OBSERVATION_SIZE)
"""The ``picked`` block of the padded layout (left at 0, see :func:`network_input`)."""


def network_input(view: SeatView) -> list[float]:
    """The network's input for a base-game seat view (see the module docstring).

    The ``picked`` block stays 0: the network was trained on simultaneous
    picks, where every seat decides before anyone has committed, so the bot
    decides the same whether it is asked first or last (in the terminal and
    at the server seats commit one at a time).

    >>> from sushigo import Game
    >>> from sushigo.engine.rules import Rules
    >>> from sushigo.engine.base.view import seat_view
    >>> x = network_input(seat_view(Game(3, seed=0), 0))
    >>> len(x), x[-6:]
    (167, [0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    >>> network_input(seat_view(Game(Rules(3, pass_both_ways=True), seed=0), 0))[-2:]
    [1.0, 0.0]
    """
    obs = features(view)
    out = [0.0] * INPUT_SIZE
    for at, value in zip(padded_positions(view.players), obs):
        out[at] = value
    for at in _PICKED:
        out[at] = 0.0
    out[SIZE_AT + view.players - 2] = 1.0
    if view.rules.pass_both_ways:
        out[OPTIONS_AT] = 1.0
        out[OPTIONS_AT + 1] = 1.0 if view.pass_step < 0 else 0.0
    return out


PARTY_OBSERVATION_SIZE: Final = observation_size(MAX_PLAYERS["party"], "party")
"""The 8-player Party observation layout every Party table size is placed in."""

PARTY_SIZE_AT: Final = PARTY_OBSERVATION_SIZE
"""Where the Party table size one-hot starts (2..8 players)."""

PARTY_MENU_AT: Final = PARTY_SIZE_AT + 7
"""Where the menu starts: 1 for each card id (:mod:`sushigo.engine.party.cards`) the game's cards include."""

PARTY_URAMAKI_AT: Final = PARTY_MENU_AT + NUM_PARTY_IDS
"""The uramaki places already claimed this round, ÷ 3."""

PARTY_INPUT_SIZE: Final = PARTY_URAMAKI_AT + 1
"""Length of :func:`party_network_input`."""

_PARTY_PICKED: Final = range(block_start("picked", MAX_PLAYERS["party"], "party"),
                             block_start("decision", MAX_PLAYERS["party"], "party"))


@functools.cache
def menu_cards(menu: tuple[str, ...], uramaki_split: str = "4-4-4") -> tuple[int, ...]:
    """The card ids a game of ``menu`` is dealt from (its deck and dessert pile), ascending.

    >>> menu_cards(("nigiri", "maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"))[:6]
    (0, 1, 2, 3, 4, 5)
    """
    ids: set[int] = set()
    for item in menu:
        ids.update(int(c) for c in cards_of_item(item, uramaki_split))
    return tuple(sorted(ids))


def party_network_input(view: PartySeatView) -> list[float]:
    """The Party network's input for a seat view: the observation in the 8-player
    layout, the table size one-hot, the menu's card ids and the uramaki places
    claimed (the layout constants above).  As in :func:`network_input`, the
    ``picked`` block stays 0.

    >>> from sushigo.engine.rules import Rules
    >>> from sushigo.engine.party.game import PartyGame
    >>> from sushigo.engine.party.view import party_seat_view
    >>> game = PartyGame(Rules.party(4, menu="Master Menu"), seed=0)
    >>> x = party_network_input(party_seat_view(game, 0))
    >>> len(x), sum(x[:47]), x[PARTY_SIZE_AT:PARTY_SIZE_AT + 7]
    (902, 9.0, [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    """
    obs = features(view)
    out = [0.0] * PARTY_INPUT_SIZE
    for at, value in zip(padded_positions(view.players, "party"), obs):
        out[at] = value
    for at in _PARTY_PICKED:
        out[at] = 0.0
    out[PARTY_SIZE_AT + view.players - 2] = 1.0
    for card in menu_cards(view.rules.menu, view.rules.uramaki_split):
        out[PARTY_MENU_AT + card] = 1.0
    out[PARTY_URAMAKI_AT] = view.uramaki_claimed / 3.0
    return out


def _floats(text: str) -> list[float]:
    if not isinstance(text, str):
        raise ValueError("weights must be base64 text")
    try:
        raw = base64.b64decode(text, validate=True)
    except (ValueError, TypeError):
        raise ValueError("weights are not base64 text") from None
    values = array("f")
    if len(raw) % values.itemsize:
        raise ValueError("weights are not whole float32 numbers")
    values.frombytes(raw)
    if sys.byteorder != "little":
        values.byteswap()
    out = values.tolist()
    if not all(map(math.isfinite, out)):
        raise ValueError("weights must be finite numbers")
    return out


def _size(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 1 << 20:
        raise ValueError(f"a layer size must be a whole number from 1 to {1 << 20}, not {value!r}")
    return value


def greedy_prior(view: PartySeatView) -> dict[Action, float]:
    """``greedy``'s estimate of each legal action (:func:`party_action_values`) less the best
    one's: what a Party policy's ``prior`` adds to the scores, times its scale (and what
    ``examples/train_learned_party.py`` trains with)."""
    values = party_action_values(view)
    top = max(values.values())
    return {a: v - top for a, v in values.items()}


def _prior_scale(prior: Any, edition: str) -> float:
    """The scale of a policy file's ``prior`` (``{"values": "greedy", "scale": s}``), 0 without one."""
    if prior is None:
        return 0.0
    if edition != "party" or not isinstance(prior, dict) or prior.get("values") != "greedy":
        raise ValueError('a prior is {"values": "greedy", "scale": number}, in Party policies only')
    scale = prior.get("scale")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale):
        raise ValueError(f"a prior's scale must be a finite number, not {scale!r}")
    return float(scale)


class Policy:
    """A multilayer perceptron (ReLU between layers) read from a ``sushigo-policy/1`` file.

    ``layers`` are (weights, biases), weights as rows of the output units.
    """

    def __init__(self, layers: Sequence[tuple[list[list[float]], list[float]]],
                 meta: dict[str, Any] | None = None) -> None:
        if not layers:
            raise ValueError("a policy needs at least one layer")
        self.layers = [(list(map(list, w)), list(b)) for w, b in layers]
        self.meta = meta or {}
        """What the file says of how the policy was trained."""
        for w, b in self.layers:
            if not w or len(w) != len(b) or any(len(row) != len(w[0]) for row in w):
                raise ValueError("each layer needs as many biases as weight rows, all rows alike")
        for (w, _), (w2, _) in zip(self.layers, self.layers[1:]):
            if len(w2[0]) != len(w):
                raise ValueError("the policy's layer sizes do not fit together")
        self.inputs = len(self.layers[0][0][0])
        """How many of :func:`network_input`'s entries the network reads (:data:`LEGACY_INPUT_SIZE`: no option
        flags), or :data:`PARTY_INPUT_SIZE` for a Party policy."""
        outputs = len(self.layers[-1][0])
        if self.inputs in (INPUT_SIZE, LEGACY_INPUT_SIZE) and outputs == NUM_ACTIONS:
            self.edition = "base"
        elif self.inputs == PARTY_INPUT_SIZE and outputs == PARTY_NUM_ACTIONS:
            self.edition = "party"
        else:
            raise ValueError(f"a policy maps {INPUT_SIZE} inputs (or {LEGACY_INPUT_SIZE}, without the option "
                             f"flags) to {NUM_ACTIONS} action scores, or, in Party, {PARTY_INPUT_SIZE} inputs "
                             f"to {PARTY_NUM_ACTIONS}")
        """``"base"`` (reads :func:`network_input`) or ``"party"`` (reads :func:`party_network_input`)."""
        self.prior_scale = _prior_scale(self.meta.get("prior"), self.edition)
        """How much of ``greedy``'s judgement the scores add (a Party policy's optional ``prior``; 0: none)."""
        first = self.layers[0][0]
        self._columns = [list(col) for col in zip(*first)]  # the first layer by input, for sparse inputs
        self._arrays: list[tuple[Any, Any]] | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Policy:
        """A policy from the JSON of a policy file (raises ``ValueError`` if it is not one)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        if data.get("activation", "relu") != "relu":
            raise ValueError(f"only ReLU networks are supported, not {data.get('activation')!r}")
        layers = []
        try:
            for layer in data["layers"]:
                rows, cols = (_size(x) for x in layer["shape"])
                flat = _floats(layer["weights"])
                bias = _floats(layer["bias"])
                if len(flat) != rows * cols or len(bias) != rows:
                    raise ValueError("a layer's data does not match its shape")
                layers.append(([flat[r * cols:(r + 1) * cols] for r in range(rows)], bias))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad {FORMAT} file: {exc}") from None
        return cls(layers, {k: v for k, v in data.items() if k not in ("format", "layers")})

    @classmethod
    def load(cls, path: str | Path | None = None, edition: str = "base") -> Policy:
        """The policy in ``path``, or the one shipped with sushigo for ``edition`` (``"base"`` or ``"party"``)."""
        if path is None:
            name = {"base": "learned.json", "party": "learned_party.json"}[edition]
            text = resources.files("sushigo.bots").joinpath(f"data/{name}").read_text()
        else:
            text = Path(path).read_text()
        return cls.from_json(json.loads(text))

    def logits(self, x: Sequence[float], actions: Sequence[int] | None = None) -> list[float]:
        """The network's action scores for input ``x`` (only ``actions``' when given)."""
        (_, b1), *rest = self.layers
        h = list(b1)
        for value, column in zip(x, self._columns):  # the inputs are mostly zeros
            if value:
                h = [a + value * c for a, c in zip(h, column)]
        if not rest:
            return h if actions is None else [h[a] for a in actions]
        for w, b in rest[:-1]:
            h = [v if v > 0.0 else 0.0 for v in h]
            h = [sum(map(operator.mul, row, h), bias) for row, bias in zip(w, b)]
        w, b = rest[-1]
        h = [v if v > 0.0 else 0.0 for v in h]
        rows = range(len(w)) if actions is None else actions
        return [sum(map(operator.mul, w[a], h), b[a]) for a in rows]

    def party_scores(self, view: PartySeatView, actions: Sequence[int]) -> list[float]:
        """The scores of ``actions`` in a Party seat view: the network's, plus, with a ``prior``,
        :attr:`prior_scale` times ``greedy``'s estimate of each less the best legal action's
        (:func:`greedy_prior`), so the network learns what to change in ``greedy``'s play."""
        scores = self.logits(party_network_input(view), actions)
        if self.prior_scale:
            prior = greedy_prior(view)
            scores = [s + self.prior_scale * prior[a] for s, a in zip(scores, actions)]
        return scores

    def logits_batch(self, x: Any) -> Any:
        """Action scores for a ``[B, 167]`` array of inputs, with numpy (float32)
        (a legacy policy reads the first 165 columns)."""
        import numpy as np

        if self._arrays is None:
            self._arrays = [(np.asarray(w, dtype=np.float32).T.copy(), np.asarray(b, dtype=np.float32))
                            for w, b in self.layers]
        h = np.asarray(x, dtype=np.float32)[..., :self.inputs]
        for i, (w, b) in enumerate(self._arrays):
            h = (np.maximum(h, 0.0) if i else h) @ w + b
        return h


@functools.cache
def shipped_policy(edition: str = "base") -> Policy:
    """The policy that ships with sushigo for ``edition`` (loaded once)."""
    return Policy.load(edition=edition)


def _policy_file(path: str) -> Policy:
    try:
        stat = Path(path).stat()
    except OSError as exc:
        raise ValueError(f"cannot read policy file {path}: {exc.strerror or exc}") from None
    return _load_policy_file(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _load_policy_file(path: str, mtime_ns: int, size: int) -> Policy:
    """The policy in ``path`` (cached while the file stays the same)."""
    try:
        return Policy.load(path)
    except OSError as exc:
        raise ValueError(f"cannot read policy file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"policy file {path} is not text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"policy file {path} is not JSON: {exc.msg} (line {exc.lineno})") from None
    except ValueError as exc:
        raise ValueError(f"policy file {path}: {exc}") from None


class LearnedBot(Bot):
    """Plays the best legal action of the shipped network (see the module docstring).

    Args:
        seed: seed of the bot's generator (used with a temperature, and in Party).
        temperature: 0 (default) plays the best action; above 0 samples from
            the softmax of the scores divided by it.
        file: a ``sushigo-policy/1`` file to play instead of the shipped
            policy of its edition (your own training run:
            ``learned:file=run/learned.json``, ``learned:file=run/learned_party.json``).
        policy: a loaded :class:`Policy` to play (wins over ``file``).
    """

    name: ClassVar[str] = "learned"
    settings: ClassVar[dict[str, type]] = {"temperature": float, "file": str}

    def __init__(self, seed: int | None = None, *, temperature: float = 0.0, file: str | None = None,
                 policy: Policy | None = None) -> None:
        super().__init__(seed)
        if not temperature >= 0.0 or math.isinf(temperature):
            raise ValueError(f"temperature must be a finite number >= 0, not {temperature}")
        self.temperature = temperature
        if policy is None and file:
            policy = _policy_file(str(Path(file).resolve()))
        self._policies = {} if policy is None else {policy.edition: policy}

    def policy_for(self, edition: str) -> Policy:
        """The network this bot plays in ``edition`` (``"base"`` or ``"party"``)."""
        if edition not in self._policies:
            self._policies[edition] = shipped_policy(edition)
        return self._policies[edition]

    @property
    def policy(self) -> Policy:
        """The network this bot plays in the original game."""
        return self.policy_for("base")

    def choose(self, view: AnyView) -> Action:
        actions = legal_actions_of(view)
        if len(actions) == 1:
            return actions[0]
        scores = by_view(view, base=lambda v: self.policy.logits(network_input(v), actions),
                         party=lambda v: self.policy_for("party").party_scores(v, actions))
        if self.temperature == 0.0:
            return actions[max(range(len(actions)), key=scores.__getitem__)]
        top = max(scores)
        weights = [math.exp((s - top) / self.temperature) for s in scores]
        return self.rng.choices(actions, weights=weights)[0]
