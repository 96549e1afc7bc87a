"""examples/train_learned.py runs end to end (needs torch: the ``train`` extra; skipped without it)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")

from sushigo.bots import make_bot, play_game  # noqa: E402
from sushigo.bots.learned import Policy  # noqa: E402

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "train_learned.py"


def test_a_short_training_run_writes_a_playable_policy_and_its_curve(tmp_path: Path) -> None:
    out, log, curve = tmp_path / "p.json", tmp_path / "c.csv", tmp_path / "c.png"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--iterations", "3", "--envs", "16", "--hidden", "16",
         "--eval-every", "2", "--eval-games", "4", "--out", str(out), "--log", str(log), "--curve", str(curve),
         "--checkpoint", str(tmp_path / "ck.pt")],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(log.open()))
    assert [int(r["iteration"]) for r in rows] == [0, 2, 3]
    assert [int(r["games"]) for r in rows] == [0, 32, 48]
    assert all(0.0 <= float(r["vs_greedy"]) <= 1.0 for r in rows)
    assert curve.stat().st_size > 1000
    policy = Policy.load(out)
    assert policy.meta["trained"]["iterations"] == 3
    # resume: two more iterations continue the same curve
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--iterations", "2", "--envs", "16", "--eval-every", "2", "--eval-games", "4",
         "--out", str(out), "--log", str(log), "--curve", str(curve), "--resume", str(tmp_path / "ck.pt")],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(log.open()))
    assert [int(r["iteration"]) for r in rows] == [0, 2, 3, 4, 5]
    assert [int(r["games"]) for r in rows] == [0, 32, 48, 64, 80]
    assert Policy.load(out).meta["trained"]["iterations"] == 5
    bots = [make_bot(f"learned:file={out}", 0), make_bot("random", 1), make_bot("random", 2)]
    assert play_game(bots, seed=1).is_over
