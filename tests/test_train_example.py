"""examples/train_learned.py runs end to end (needs torch: the ``train`` extra; skipped without it)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")

pytestmark = pytest.mark.slow  # a short training run

from sushigo.bots import make_bot, play_game  # noqa: E402
from sushigo.bots.learned import Policy  # noqa: E402

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "train_learned.py"
SMALL = ["--envs", "16", "--hidden", "16", "--eval-every", "2", "--eval-games", "4", "--threads", "1"]


def _train(tmp_path: Path, name: str, *args: str) -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), *SMALL, *args, "--out", str(tmp_path / f"{name}.json"),
         "--log", str(tmp_path / f"{name}.csv"), "--curve", str(tmp_path / f"{name}.png")],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr


def test_a_short_training_run_writes_a_playable_policy_and_its_curve(tmp_path: Path) -> None:
    _train(tmp_path, "a", "--iterations", "3")
    rows = list(csv.DictReader((tmp_path / "a.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [0, 2, 3]
    assert [int(r["games"]) for r in rows] == [0, 32, 48]
    assert all(0.0 <= float(r["vs_greedy"]) <= 1.0 for r in rows)
    assert (tmp_path / "a.png").stat().st_size > 1000
    out = tmp_path / "a.json"
    assert Policy.load(out).meta["trained"]["iterations"] == 3
    bots = [make_bot(f"learned:file={out}", 0), make_bot("random", 1), make_bot("random", 2)]
    assert play_game(bots, seed=1).is_over


def test_a_resumed_run_is_the_run_that_was_not_interrupted(tmp_path: Path) -> None:
    _train(tmp_path, "whole", "--iterations", "4")
    _train(tmp_path, "parts", "--iterations", "2", "--checkpoint", str(tmp_path / "ck.pt"))
    _train(tmp_path, "parts", "--iterations", "2", "--resume", str(tmp_path / "ck.pt"))
    whole, parts = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("whole", "parts"))
    assert parts["layers"] == whole["layers"]  # same deals, same samples, same updates
    assert parts["trained"]["iterations"] == whole["trained"]["iterations"] == 4
    rows = list(csv.DictReader((tmp_path / "parts.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [0, 2, 4]
    assert [int(r["games"]) for r in rows] == [0, 32, 64]


PARTY_SCRIPT = SCRIPT.with_name("train_learned_party.py")


def test_a_short_party_training_run_writes_a_party_policy_that_plays_any_menu(tmp_path: Path) -> None:
    from sushigo.engine.rules import Rules

    out = tmp_path / "party.json"
    proc = subprocess.run(
        [sys.executable, str(PARTY_SCRIPT), "--envs", "4", "--workers", "1", "--hidden", "16", "--threads", "1",
         "--eval-every", "2", "--eval-games", "1", "--iterations", "2", "--out", str(out),
         "--log", str(tmp_path / "party.csv"), "--curve", str(tmp_path / "party.png")],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader((tmp_path / "party.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [0, 2]
    assert all(0.0 <= float(r["vs_greedy"]) <= 1.0 and 0.0 <= float(r["vs_random_master"]) <= 1.0 for r in rows)
    assert (tmp_path / "party.png").stat().st_size > 1000
    policy = Policy.load(out)
    assert policy.edition == "party" and policy.meta["trained"]["iterations"] == 2
    assert policy.meta["prior"]["values"] == "greedy" and policy.prior_scale > 0  # the default --prior
    for players, menu in ((2, "Dinner for Two"), (6, ["temaki", "onigiri", "tofu", "eel", "spoon",
                                                       "special_order", "fruit"])):
        bots = [make_bot(f"learned:file={out}", s) for s in range(players)]
        assert play_game(bots, seed=1, rules=Rules.party(players, menu)).is_over
