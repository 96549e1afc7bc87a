"""End-of-game rewards of the RL adapters (standard library only, so every adapter shares them).

``"margin"``: own total minus the mean of the others' totals; ``"win"``: 1
shared among the winners (ties broken by puddings, as the rules say), else 0;
``"rank"``: +1 for first down to -1 for last, tied places averaged.  All three
are constant-sum: margin and rank sum to 0, win to 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

REWARDS: Final = ("margin", "win", "rank")


def check_reward(kind: str) -> str:
    """``kind`` if it is one of :data:`REWARDS`, else a one-line ``ValueError``."""
    if kind not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {kind!r}")
    return kind


def final_rewards(totals: Sequence[int], winners: Sequence[int], kind: str) -> list[float]:
    """The end-of-game reward of every seat.

    >>> final_rewards([30, 20, 10], [0], "margin"), final_rewards([30, 20, 10], [0], "rank")
    ([15.0, 0.0, -15.0], [1.0, 0.0, -1.0])
    """
    n = len(totals)
    if check_reward(kind) == "margin":
        return [t - (sum(totals) - t) / (n - 1) for t in totals]
    if kind == "win":
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    out = []  # rank
    for t in totals:
        better = sum(1 for u in totals if u > t)
        ties = sum(1 for u in totals if u == t) - 1
        rank = better + ties / 2  # 0 = first
        out.append(1.0 - 2.0 * rank / (n - 1))
    return out
