"""How every ``sushigo`` command fails: one line on stderr and an exit code.

The line starts ``sushigo: error:`` in every language (what scripts look for); the
message after it is said in the command's language (``sushigo.cli.app.main`` takes
the terminal's) when it is a :class:`~sushigo.i18n.Phrase` (``_l("...")``) or the
engine's :class:`~sushigo.engine.messages.Told` (``message_of(error)``).

>>> EXIT_BAD_INPUT, EXIT_USAGE
(1, 2)
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

from sushigo.i18n import localized

EXIT_BAD_INPUT = 1
"""The input (a file, a sheet, a record) is wrong."""
EXIT_USAGE = 2
"""The command line is wrong."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``sushigo: error: message`` as one line on stderr and exit (``message``
    in this context's language when it is a Phrase or a Told)."""
    one_line = " ".join(localized(message).split())
    print(f"sushigo: error: {one_line}", file=sys.stderr)
    raise typer.Exit(code)
