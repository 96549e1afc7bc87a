"""The optional parts of a test run: Debian's chromium for the browser tests and
a PostgreSQL server for the PostgreSQL variants.

Where one is missing its tests are skipped with the reason below, and the
root ``conftest.py`` ends the run with that same line (one per missing part),
so a run says what it did not test and what to install.  ``.ci/run`` installs
and starts both.
"""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
PG_URL_VAR = "SUSHIGO_TEST_PG_URL"


def browser_skip_reason() -> str:
    return f"browser tests skipped: {CHROMIUM} not found (apt-get install chromium; .ci/run installs it)"


def pg_skip_reason() -> str:
    return (
        f"PostgreSQL tests skipped: {PG_URL_VAR} is not set (apt-get install postgresql, "
        f'then export {PG_URL_VAR}="$(.ci/postgres.sh)"; .ci/run does both)'
    )


def pg_url() -> str | None:
    """The test PostgreSQL database's URL, or None where there is none."""
    return os.environ.get(PG_URL_VAR) or None


def missing() -> list[str]:
    """The skip reason of each missing part (empty when everything is there)."""
    lines = []
    if not CHROMIUM.exists():
        lines.append(browser_skip_reason())
    if pg_url() is None:
        lines.append(pg_skip_reason())
    return lines
