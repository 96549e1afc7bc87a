"""The ``sushigo`` command line (typer): the top of the house.

:mod:`~sushigo.cli.app` holds the commands (``play``, ``score``, ``replay``,
``serve``, ``bench``...); :mod:`~sushigo.cli.tournament` and
:mod:`~sushigo.cli.stats` the ``tournament`` and ``stats`` commands.  Nothing
else in the package imports from here.
"""

from sushigo.cli.app import main

__all__ = ["main"]
