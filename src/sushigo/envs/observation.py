"""Observations as float32 numpy arrays: :func:`sushigo.engine.observation.features` as an array.

The layout (a table of blocks, rotated so the observer comes first) is
documented in :mod:`sushigo.engine.observation`, which computes it with the standard
library only; this module is what the environments call.

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> obs = encode(seat_view(Game(4, seed=1), 0))
>>> obs.shape == (observation_size(4, "base"),), obs.dtype.name, float(obs[:12].sum())
(True, 'float32', 8.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sushigo.engine.base.view import SeatView
from sushigo.engine.observation import features as _features
from sushigo.engine.observation import kinds, observation_size, padded_positions
from sushigo.engine.party.view import PartySeatView


def encode(view: SeatView | PartySeatView) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The observation of ``view`` (a seat's view; spectators have no observation)."""
    return np.asarray(_features(view), dtype=np.float32)


__all__ = ["encode", "kinds", "observation_size", "padded_positions"]
