"""How every ``sushigo`` command fails: one line on stderr and an exit code.

>>> EXIT_BAD_INPUT, EXIT_USAGE
(1, 2)
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

EXIT_BAD_INPUT = 1
"""The input (a file, a sheet, a record) is wrong."""
EXIT_USAGE = 2
"""The command line is wrong."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``sushigo: error: message`` as one line on stderr and exit."""
    one_line = " ".join(str(message).split())
    print(f"sushigo: error: {one_line}", file=sys.stderr)
    raise typer.Exit(code)
