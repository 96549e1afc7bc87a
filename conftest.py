"""Collection that never aborts: the doctests of a module that needs an optional
extra which is not installed are skipped, with the extra named, instead of
stopping the run with an import error.

pytest collects the doctests of every module under ``src/sushigo``
(``--doctest-modules`` in pyproject.toml).  The engine needs the standard
library only; the server, the environments, the batch engine and a few
adapters import the packages of an extra (``pip install -e '.[server]'``...).
A module whose import fails on anything else (a bug) still fails collection.
"""

from __future__ import annotations

import re

import pytest

OPTIONAL = {
    "fastapi": "server", "starlette": "server", "uvicorn": "server", "websockets": "server",
    "sqlalchemy": "server", "pydantic": "server", "psycopg": "postgres",
    "numpy": "rl", "gymnasium": "rl", "pettingzoo": "rl", "numba": "fast",
    "pyspiel": "openspiel", "open_spiel": "openspiel", "ray": "ray", "matplotlib": "plots", "torch": "train",
}
"""Top-level modules of the optional dependencies, and the extra that brings each."""

_MISSING = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport:
    report: pytest.CollectReport = yield
    if report.failed and isinstance(collector, pytest.Module | pytest.Package | pytest.File):
        found = _MISSING.search(str(report.longrepr))
        top = found.group(1).split(".")[0] if found else None
        if top in OPTIONAL:
            report.outcome = "skipped"
            report.longrepr = (str(collector.path), 0,
                               f"Skipped: needs {top} (pip install -e '.[{OPTIONAL[top]}]')")
    return report
