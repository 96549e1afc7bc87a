"""Shared test setup: make tests/ importable (for the reference oracles),
choose the hypothesis profile, and end the run with one line for each
optional part whose tests were skipped (``optional_parts``).

Property tests explore new random examples on every local run.  CI sets
``SUSHIGO_HYPOTHESIS_PROFILE=ci`` (see ``.ci/run``), which derandomizes them,
so a landing never depends on the luck of the draw; a failure found locally
is kept in ``.hypothesis/`` and replayed until it is fixed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile("ci", derandomize=True)
settings.register_profile("dev")
settings.load_profile(os.environ.get("SUSHIGO_HYPOTHESIS_PROFILE", "dev"))

# The tests read English whatever the developer's locale (the terminal game follows LANGUAGE,
# then LC_ALL, LC_MESSAGES, LANG: sushigo.i18n.from_environment); a test of another language
# says so itself.
os.environ["LANGUAGE"] = "en"


def _extensions() -> list[Path]:
    """The engine modules compiled in place (scripts/compile_engine.py)."""
    import sushigo.engine

    return sorted(Path(sushigo.engine.__file__).parent.rglob("*.so"))


def _stale_extensions() -> list[str]:
    """Engine modules whose compiled extension is older than the source: the
    tests would test the old code."""
    stale = []
    for ext in _extensions():
        source = ext.with_name(ext.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > ext.stat().st_mtime:
            stale.append(str(source.name))
    return stale


def pytest_configure(config: pytest.Config) -> None:
    if _extensions():
        # The doctests of src/ import a compiled module where pytest expects the
        # .py beside it; they are collected (and find no docstring tests in the
        # compiled functions) instead of failing as a mismatch.
        os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")
    stale = _stale_extensions()
    if stale:
        raise pytest.UsageError(
            f"the compiled engine is older than {', '.join(sorted(stale))}: "
            "run python scripts/compile_engine.py again (or --clean for the pure-Python engine)"
        )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives a browser is ``e2e`` whether or not its module says so,
    so that ``-m "not e2e"`` (the fast tier, CONTRIBUTING.md) never starts one."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) and item.get_closest_marker("e2e") is None:
            item.add_marker(pytest.mark.e2e)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line for each optional part (chromium, PostgreSQL) whose tests were
    skipped because it is missing, saying what to install; nothing otherwise.

    A summary rather than a report header: ``pytest -q`` (the README's
    command) prints no header.
    """
    import optional_parts

    reasons = [str(r.longrepr[2]) if isinstance(r.longrepr, tuple) else str(r.longrepr)
               for r in terminalreporter.stats.get("skipped", [])]
    for line in optional_parts.missing():
        if any(line in reason for reason in reasons):
            terminalreporter.write_line(line, yellow=True, bold=True)
