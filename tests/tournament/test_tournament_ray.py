"""The Ray backend plays exactly the games the local backend plays (one local Ray for the module)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from piped import piped_env
from sushigo.engine.rules import Rules
from sushigo.tournament import run_tournament

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow  # a local Ray cluster starts in seconds


def test_command_on_ray_prints_what_local_prints() -> None:
    """``--backend ray`` starts its own local Ray (this test runs before the fixture's)."""
    args = [sys.executable, "-m", "sushigo", "tournament", "greedy", "random", "random",
            "--games", "6", "--seed", "3", "--json"]
    env = piped_env(RAY_ADDRESS=None)  # piped: no progress bar on stderr, even with FORCE_COLOR
    on_ray = subprocess.run(args + ["--backend", "ray", "--workers", "2"], capture_output=True, text=True,
                            timeout=120, env=env)
    local = subprocess.run(args, capture_output=True, text=True, timeout=60, env=piped_env())
    assert on_ray.returncode == 0, on_ray.stderr
    assert on_ray.stdout == local.stdout
    assert on_ray.stderr == ""


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.mark.parametrize(
    "specs, rules",
    [
        (["greedy", "random", "random", "greedy"], None),
        (["ismcts:iterations=10", "flatmc:iterations=10", "greedy"], None),
        (["greedy", "random", "random", "random", "random", "random"], Rules.party(6, "Big Banquet")),
    ],
)
def test_ray_and_local_play_identical_games(local_ray: Any, specs: list[str], rules: Rules | None) -> None:
    local = run_tournament(specs, games=9, seed=17, rules=rules, workers=2)
    seen: list[int] = []
    on_ray = run_tournament(specs, games=9, seed=17, rules=rules, backend="ray",
                            progress=lambda done, total: seen.append(done))
    assert ray.is_initialized()  # it used the Ray it found, and left it running
    assert on_ray.backend == "ray"
    assert on_ray.games == local.games
    assert on_ray.summary().to_json() == local.summary().to_json()
    assert seen[-1] == 9
