"""The ``learned`` bot: its input is the documented observation, its network
reads back what was written, and the shipped policy plays legal, reproducible
and clearly better-than-random games."""

from __future__ import annotations

import base64
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sushigo import Game
from sushigo.bots import BOTS, LearnedBot, RandomBot, make_bot, play_game
from sushigo.bots.learned import (
    FORMAT,
    INPUT_SIZE,
    LEGACY_INPUT_SIZE,
    ROUND_TWO_AT,
    Policy,
    network_input,
    shipped_policy,
)
from sushigo.engine.base.view import seat_view
from sushigo.engine.observation import features, observation_size, padded_positions
from sushigo.engine.rules import Rules

ROOT = Path(__file__).resolve().parents[2]


def _views(games: int, seed: int) -> list:  # type: ignore[type-arg]
    """Seat views from random games of every table size, every turn."""
    rng = random.Random(seed)
    views = []
    for g in range(games):
        players = 2 + g % 4
        game = Game(Rules(players, pass_both_ways=g % 2 == 1), seed=seed * 100 + g)
        while not game.is_over:
            views.extend(seat_view(game, s) for s in range(players))
            game.play([rng.choice(game.legal_actions(s)) for s in range(players)])
    return views


def test_network_input_is_the_padded_observation_the_table_size_and_the_options() -> None:
    for view in _views(8, 1):
        x = network_input(view)
        obs = features(view)
        assert len(x) == INPUT_SIZE == observation_size(5) + 4 + 2
        positions = padded_positions(view.players)
        assert [x[p] for p in positions] == obs
        rest = set(range(observation_size(5))) - set(positions)
        assert all(x[p] == 0.0 for p in rest)
        assert x[-6:-2] == [1.0 if k == view.players - 2 else 0.0 for k in range(4)]
        both = view.rules.pass_both_ways
        assert x[-2:] == [float(both), float(both and view.pass_step < 0)]
    rounds = set()
    for seed in range(6):
        game = Game(Rules(3, pass_both_ways=True), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            view = seat_view(game, 0)
            x = network_input(view)
            assert x[-2] == 1.0 and x[-1] == (1.0 if game.round == 2 else 0.0) == (view.pass_step < 0)
            assert x[ROUND_TWO_AT] == (game.round == 2)
            rounds.add(game.round)
            game.play([rng.choice(game.legal_actions(s)) for s in range(3)])
    assert rounds == {1, 2, 3}


def test_batch_inputs_equal_the_bots_with_both_passing_rules() -> None:
    np = pytest.importorskip("numpy")
    from sushigo.envs.vector import network_inputs
    from sushigo.sim.batch import BatchGame

    for both in (False, True):
        rules = Rules(3, pass_both_ways=both)
        batch = BatchGame(rules, 6, seed=5)
        engines = [Game(rules, auto_deal=False) for _ in range(6)]
        rng = np.random.default_rng(1)
        while not batch.is_over:
            if batch.turn == 1:
                for g, game in enumerate(engines):
                    game.deal([[int(c) for c in batch.dealt[g, s]] for s in range(3)])
            xs = network_inputs(batch.observations(), 3, pass_both_ways=both)
            for g, game in enumerate(engines):
                for s in range(3):
                    assert (np.array(network_input(seat_view(game, s)), dtype=np.float32) == xs[g, s]).all()
            actions = batch.random_actions(rng)
            batch.step(actions)
            for g, game in enumerate(engines):
                game.play([int(a) for a in actions[g]])


def test_network_input_equals_the_batch_engines_padded_observations() -> None:
    np = pytest.importorskip("numpy")
    from sushigo.sim.batch import BatchGame

    batch = BatchGame(4, 20, seed=3)
    engines = [Game(4, auto_deal=False) for _ in range(20)]
    rng = np.random.default_rng(0)
    while not batch.is_over:
        if batch.turn == 1:
            for g, game in enumerate(engines):
                game.deal([[int(c) for c in batch.dealt[g, s]] for s in range(4)])
        padded = batch.observations(padded=True)
        for g, game in enumerate(engines):
            for s in range(4):
                x = np.array(network_input(seat_view(game, s))[:-6], dtype=np.float32)
                assert (x == padded[g, s]).all()
        actions = batch.random_actions(rng)
        batch.step(actions)
        for g, game in enumerate(engines):
            game.play([int(a) for a in actions[g]])


def test_plain_python_scores_equal_numpys() -> None:
    np = pytest.importorskip("numpy")
    policy = shipped_policy()
    views = _views(4, 2)[::7]
    x = np.array([network_input(v) for v in views], dtype=np.float32)
    batch = policy.logits_batch(x)
    for row, view in zip(batch, views):
        plain = policy.logits(network_input(view))
        assert len(plain) == 156
        assert np.allclose(plain, row, rtol=1e-4, atol=1e-4)
        legal = list(view.legal_actions)
        assert np.allclose(policy.logits(network_input(view), legal), row[legal], rtol=1e-4, atol=1e-4)


def _layer(rows: int, cols: int, rng: random.Random) -> tuple[list[list[float]], list[float]]:
    return [[rng.uniform(-1, 1) for _ in range(cols)] for _ in range(rows)], [rng.uniform(-1, 1) for _ in range(rows)]


def test_a_policy_file_round_trips_and_computes_a_relu_network() -> None:
    import struct

    rng = random.Random(0)
    layers = [_layer(6, INPUT_SIZE, rng), _layer(156, 6, rng)]

    def b64(values: list[float]) -> str:
        return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()

    doc = {"format": FORMAT, "layers": [
        {"shape": [len(w), len(w[0])], "weights": b64([v for row in w for v in row]), "bias": b64(b)}
        for w, b in layers]}
    policy = Policy.from_json(json.loads(json.dumps(doc)))
    x = [rng.choice([0.0, 0.0, 1.0, 2.0, 0.5]) for _ in range(INPUT_SIZE)]
    (w1, b1), (w2, b2) = layers
    hidden = [max(0.0, sum(w * v for w, v in zip(row, x)) + b) for row, b in zip(w1, b1)]
    expected = [sum(w * h for w, h in zip(row, hidden)) + b for row, b in zip(w2, b2)]
    assert policy.logits(x) == pytest.approx(expected, rel=1e-4, abs=1e-4)  # float32 weights


_NAN = base64.b64encode(b"\x00\x00\xc0\x7f").decode()  # one float32 NaN


@pytest.mark.parametrize("doc,message", [
    ({"format": "other"}, "not a sushigo-policy/1 file"),
    ({"format": FORMAT, "layers": [{"shape": [2, 3], "weights": "", "bias": ""}]}, "does not match its shape"),
    ({"format": FORMAT, "layers": [{"weights": ""}]}, "bad sushigo-policy/1 file"),
    ({"format": FORMAT, "layers": []}, "at least one layer"),
    ({"format": FORMAT, "layers": [{"shape": [0, 165], "weights": "", "bias": ""}]}, "layer size must be"),
    ({"format": FORMAT, "layers": [{"shape": [1e400, 1], "weights": "", "bias": ""}]}, "layer size must be"),
    ({"format": FORMAT, "layers": [{"shape": [256.9, 1], "weights": "", "bias": ""}]}, "layer size must be"),
    ({"format": FORMAT, "layers": [{"shape": [1, 1], "weights": "not base64!", "bias": ""}]}, "not base64"),
    ({"format": FORMAT, "layers": [{"shape": [1, 1], "weights": _NAN, "bias": _NAN}]}, "finite"),
    ({"format": FORMAT, "layers": [{"shape": [1, 1], "weights": 5, "bias": ""}]}, "base64 text"),
    ({"format": FORMAT, "activation": "tanh", "layers": []}, "only ReLU"),
])
def test_bad_policy_files_are_refused_in_one_line(doc: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=message) as info:
        Policy.from_json(doc)
    assert "\n" not in str(info.value)


def test_a_policy_without_the_option_flags_still_plays() -> None:
    """Policy files written before the option flags read the first 165 inputs."""
    rng = random.Random(3)
    legacy = Policy([_layer(8, LEGACY_INPUT_SIZE, rng), _layer(156, 8, rng)])
    full = Policy([(_pad(w), b) for w, b in [legacy.layers[0]]] + legacy.layers[1:])
    for view in _views(3, 4)[::5]:
        x = network_input(view)
        assert legacy.logits(x) == full.logits(x) and legacy.inputs == LEGACY_INPUT_SIZE
        np = pytest.importorskip("numpy")
        assert np.allclose(legacy.logits_batch(np.array([x]))[0], full.logits(x), rtol=1e-4, atol=1e-4)
    bot = LearnedBot(seed=0, policy=legacy)
    game = play_game([bot, RandomBot(seed=1), RandomBot(seed=2)], seed=4, rules=Rules(3, pass_both_ways=True))
    assert game.is_over


def _pad(w: list[list[float]]) -> list[list[float]]:
    """First-layer weights widened with zero columns for the option flags."""
    return [row + [0.0] * (INPUT_SIZE - len(row)) for row in w]


def test_a_policy_that_does_not_fit_the_input_is_refused(tmp_path: Path) -> None:
    rng = random.Random(1)
    with pytest.raises(ValueError, match=r"167 inputs \(or 165, without the option flags\) to 156"):
        Policy([_layer(156, 10, rng)])
    w, b = _layer(156, INPUT_SIZE, rng)
    with pytest.raises(ValueError, match="as many biases as weight rows"):
        Policy([(w, b[:-1])])
    with pytest.raises(ValueError, match="do not fit together"):
        Policy([_layer(6, INPUT_SIZE, rng), _layer(156, 7, rng)])
    path = tmp_path / "p.json"
    path.write_text("{}")
    with pytest.raises(ValueError, match="not a sushigo-policy/1 file"):
        Policy.load(path)


def test_the_shipped_policy_says_how_it_was_trained() -> None:
    doc = json.loads((ROOT / "src/sushigo/bots/data/learned.json").read_text())
    assert doc["format"] == FORMAT
    trained = doc["trained"]
    assert trained["games"] > 0 and trained["script"] == "examples/train_learned.py"
    assert next(layer["shape"][1] for layer in doc["layers"]) == INPUT_SIZE


def test_the_learned_bot_is_registered_with_a_temperature_setting() -> None:
    assert BOTS["learned"] is LearnedBot
    assert make_bot("learned:temperature=0.5", 1).temperature == 0.5
    with pytest.raises(ValueError, match="temperature"):
        make_bot("learned:temperature=-1", 1)
    with pytest.raises(ValueError, match="no setting 'depth'"):
        make_bot("learned:depth=2", 1)


@pytest.mark.slow
def test_best_action_play_is_deterministic_and_legal_and_sampling_follows_the_seed() -> None:
    for players in (2, 3, 4, 5):
        first = play_game([LearnedBot(seed=s) for s in range(players)], seed=7)
        again = play_game([LearnedBot(seed=100 + s) for s in range(players)], seed=7)
        assert first.result().totals == again.result().totals  # temperature 0 ignores the seed
        warm = [play_game([LearnedBot(seed=s, temperature=1.0) for s in range(players)], seed=7).result().totals
                for _ in range(2)]
        assert warm[0] == warm[1]


@pytest.mark.slow
def test_the_bot_decides_the_same_before_and_after_others_commit() -> None:
    """Seats that commit one at a time (terminal, server) show ``picked`` flags;
    the network was trained on simultaneous picks and does not read them."""
    for seed in range(20):
        game = Game(4, seed=seed)
        while not game.is_over:
            before = [network_input(seat_view(game, s)) for s in range(4)]
            for s in range(4):
                view = seat_view(game, s)
                assert network_input(view) == before[s]
                game.commit(s, LearnedBot(seed=0).choose(view))


@pytest.mark.slow
def test_the_shipped_policy_beats_random_players() -> None:
    """80 four-player games, the learned bot at each seat in turn against 3
    random bots: it wins far more than the fair 25% (the training run measured
    its win rates on 400+ games: docs/bots.md and docs/rl.md)."""
    wins = 0.0
    games = 80
    for g in range(games):
        seat = g % 4
        bots: list[LearnedBot | RandomBot] = [RandomBot(seed=10 * g + s) for s in range(4)]
        bots[seat] = LearnedBot(seed=g)
        result = play_game(bots, seed=g // 4).result()
        wins += 1 / len(result.winners) if seat in result.winners else 0.0
    assert wins / games > 0.6


def test_a_tournament_seats_the_learned_bot() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sushigo", "tournament", "learned", "greedy", "random", "-g", "6", "-w", "1",
         "-s", "1", "-q", "--json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert "learned" in json.dumps(summary)


def test_the_bot_plays_a_policy_file_named_in_its_spec(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    mine.write_text((ROOT / "src/sushigo/bots/data/learned.json").read_text())
    bot = make_bot(f"learned:file={mine}", 1)
    assert bot.policy is not shipped_policy()
    game = Game(3, seed=5)
    assert bot.choose(seat_view(game, 0)) == LearnedBot(seed=1).choose(seat_view(game, 0))
    (tmp_path / "bad.json").write_text("{nope")
    for spec, message in [(f"learned:file={tmp_path / 'missing.json'}", "cannot read policy file"),
                          (f"learned:file={tmp_path / 'bad.json'}", "is not JSON"),
                          (f"learned:file={tmp_path}", "cannot read policy file")]:
        with pytest.raises(ValueError, match=message) as info:
            make_bot(spec, 1)
        assert "\n" not in str(info.value)
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ValueError, match=r"binary.json is not text"):
        make_bot(f"learned:file={tmp_path / 'binary.json'}", 1)
    # a file trained again is read again (the cache follows the file)
    doc = json.loads(mine.read_text())
    doc["trained"]["games"] = 12345
    mine.write_text(json.dumps(doc))
    assert make_bot(f"learned:file={mine}", 1).policy.meta["trained"]["games"] == 12345
    proc = subprocess.run(
        [sys.executable, "-m", "sushigo", "tournament", f"learned:file={tmp_path / 'missing.json'}", "random",
         "-g", "2", "-w", "1", "-q"], capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "cannot read policy file" in proc.stderr + proc.stdout
