"""Scoring pieces both editions share: the dumpling table, the tempura,
sashimi and wasabi values, and the shape of a seat's points per category.

>>> DUMPLING_POINTS[3], sum({"tempura": 5, "maki": 3}.values())
(6, 8)
"""

from __future__ import annotations

from typing import Final

DUMPLING_POINTS: Final[tuple[int, ...]] = (0, 1, 3, 6, 10, 15)
"""Points for 0..5 dumplings; five or more score 15 (a lookup, not a running sum)."""

Breakdown = dict[str, int]
"""Points per category, e.g. ``{'tempura': 5, ..., 'maki': 3}``; its sum is the score."""

TEMPURA_PAIR_POINTS: Final = 5
"""Points for each pair of tempura (docs/rules.md §1.5, §2.5)."""
SASHIMI_SET_POINTS: Final = 10
"""Points for each set of three sashimi."""
WASABI_FACTOR: Final = 3
"""A nigiri on a wasabi scores this many times its face value."""
