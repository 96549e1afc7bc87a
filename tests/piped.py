"""The environment of a ``sushigo`` process whose output the tests read from a pipe.

rich, which draws the tables, the terminal game and the tournament's progress
bar, treats a pipe as a terminal when ``FORCE_COLOR``, ``TTY_COMPATIBLE`` or
``TTY_INTERACTIVE`` says so (many CI setups set ``FORCE_COLOR``): colour
codes, a progress bar, a cleared screen.  The tests check what a pipe gets,
so these are removed; the width is each caller's to fix (``COLUMNS``).  The
language is English (``LANGUAGE=en``, which the terminal reads before ``LANG``),
whatever the developer's locale, unless a test changes it.
"""

from __future__ import annotations

import os

TERMINAL_VARS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def piped_env(**changes: str | None) -> dict[str, str]:
    """``os.environ`` without :data:`TERMINAL_VARS`, with ``changes`` applied
    (a string sets a variable, None removes it)."""
    env = {k: v for k, v in os.environ.items() if k not in TERMINAL_VARS}
    env["LANGUAGE"] = "en"
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env
