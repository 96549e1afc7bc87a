"""Speed as a ratio: a benchmark command and the yardstick, run in turn on one core.

A figure measured on one machine says nothing on another; the same figure
divided by the yardstick (``benchmarks/yardstick.py``: a fixed pure-Python
workload, units per second), measured alternately on the same core, does.
TAG's Java engine plays about 0.23 x yardstick random 4-player games per
second on the same core, so "x TAG" = games/s / (0.23 x yardstick).

    from yardstick_pairs import measure
    pairs = measure(["python", "-m", "sushigo", "bench", "--games", "5000"], rounds=5)

Each round runs the yardstick, then the command, each pinned with
``taskset -c CPU`` when taskset exists; a command's figure is read from the
last line of its output (the number before ``/s``, else the first number).

Run as a script it pairs any command with the yardstick:

    python benchmarks/yardstick_pairs.py --rounds 5 -- python benchmarks/search_speed.py 4 2000 20

The ratio is taken pair by pair, so a
machine that drifts between rounds still gives a true ratio; the median
pair is reported.
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

TAG_PER_YARDSTICK = 0.23
"""Random 4-player games per second of TAG's Java engine, per yardstick unit (same core)."""

_RATE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*[a-z]*/s\b")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


YARDSTICK = Path(__file__).resolve().parent / "yardstick.py"
"""The yardstick, kept in the repository unchanged (a copy of the team's shared one)."""


def yardstick_path() -> Path:
    """``benchmarks/yardstick.py``, beside this file."""
    if not YARDSTICK.is_file():
        sys.exit(f"error: no yardstick at {YARDSTICK}")
    return YARDSTICK


@dataclass(frozen=True)
class Pair:
    yardstick: float
    figure: float

    @property
    def ratio(self) -> float:
        return self.figure / self.yardstick


def _pinned(command: list[str], cpu: str | None) -> list[str]:
    if cpu is None or shutil.which("taskset") is None:
        return command
    return ["taskset", "-c", cpu, *command]


def figure_of(command: list[str], cpu: str | None = "0", env: dict[str, str] | None = None) -> float:
    """Run ``command`` (pinned to ``cpu``) and read its figure from its last
    line: the number before ``.../s`` (``6,490 games/s``), else the first number."""
    done = subprocess.run(_pinned(command, cpu), capture_output=True, text=True, env=env)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(f"error: {' '.join(command)} failed: {tail}")
    match = _RATE.search(lines[-1]) or _NUMBER.search(lines[-1])
    if match is None:
        sys.exit(f"error: no figure in the last line of {' '.join(command)}: {lines[-1]!r}")
    return float(match.group(1 if match.re is _RATE else 0).replace(",", ""))


def measure(command: list[str], rounds: int = 5, cpu: str | None = "0", units: int = 20000,
            env: dict[str, str] | None = None, echo: bool = True) -> list[Pair]:
    """``rounds`` pairs of (yardstick, figure), alternately: the command on
    ``cpu`` (one core, or several such as ``"0,1"``), the single-threaded
    yardstick on the first of them."""
    stick = [sys.executable, str(yardstick_path()), str(units)]
    stick_cpu = cpu.split(",")[0] if cpu else cpu
    pairs = []
    for k in range(rounds):
        pair = Pair(figure_of(stick, stick_cpu), figure_of(command, cpu, env))
        pairs.append(pair)
        if echo:
            print(f"  round {k + 1}: yardstick {pair.yardstick:,.0f}, figure {pair.figure:,.4g}, "
                  f"ratio {pair.ratio:.4g} ({1 / pair.ratio:,.0f} yardstick units each)", flush=True)
    return pairs


def median_ratio(pairs: list[Pair]) -> float:
    return statistics.median(p.ratio for p in pairs)


def summary(pairs: list[Pair], what: str, tag: bool = True) -> str:
    """Two lines: the medians, then the ratio (x TAG when ``tag``)."""
    ys = statistics.median(p.yardstick for p in pairs)
    fig = statistics.median(p.figure for p in pairs)
    ratio = median_ratio(pairs)
    first = f"{what}: {fig:,.4g} per second, yardstick {ys:,.0f} (medians of {len(pairs)} pairs)"
    if tag:
        return f"{first}\n{ratio / TAG_PER_YARDSTICK:.2f} x TAG ({ratio:.4g} per yardstick unit)"
    return f"{first}\n{ratio:.4g} per yardstick unit ({1 / ratio:,.0f} yardstick units each)"


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", default="0")
    parser.add_argument("--tag", action="store_true", help="the figure is random 4-player games/s: say x TAG")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    pairs = measure(command, rounds=args.rounds, cpu=args.cpu)
    print(summary(pairs, " ".join(command[-4:]), tag=args.tag))


if __name__ == "__main__":
    main(sys.argv[1:])
