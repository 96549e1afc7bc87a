"""Shared test setup: make tests/ importable (for the reference oracles) and
choose the hypothesis profile.

Property tests explore new random examples on every local run.  CI sets
``SUSHIGO_HYPOTHESIS_PROFILE=ci`` (see ``.ci/run``), which derandomizes them,
so a landing never depends on the luck of the draw; a failure found locally
is kept in ``.hypothesis/`` and replayed until it is fixed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile("ci", derandomize=True)
settings.register_profile("dev")
settings.load_profile(os.environ.get("SUSHIGO_HYPOTHESIS_PROFILE", "dev"))
