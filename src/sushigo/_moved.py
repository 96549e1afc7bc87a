"""The module names of sushigo 0.5 and earlier, kept working until 1.0.

0.6 gave the package its layers (``docs/architecture.md``): the rules moved
under :mod:`sushigo.engine`, fast simulation under :mod:`sushigo.sim`, the
terminal games under :mod:`sushigo.terminal` and the commands under
:mod:`sushigo.cli`.  Importing an old name still works, gives the very
same module object, and warns once with :class:`DeprecationWarning`:

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", DeprecationWarning)
...     from sushigo.game import Game as OldGame
>>> from sushigo.engine.base.game import Game
>>> OldGame is Game
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence
from typing import Final

MOVED: Final[dict[str, str]] = {
    "sushigo.actions": "sushigo.engine.base.actions",
    "sushigo.cards": "sushigo.engine.base.cards",
    "sushigo.game": "sushigo.engine.base.game",
    "sushigo.scoring": "sushigo.engine.base.scoring",
    "sushigo.view": "sushigo.engine.base.view",
    "sushigo.record": "sushigo.engine.editions",
    "sushigo.rules": "sushigo.engine.rules",
    "sushigo.editions": "sushigo.engine.editions",
    "sushigo.flags": "sushigo.engine.flags",
    "sushigo.observation": "sushigo.engine.observation",
    "sushigo.party": "sushigo.engine.party",
    "sushigo.party.menus": "sushigo.engine.menus",
    "sushigo.batch": "sushigo.sim.batch",
    "sushigo.batch_kernel": "sushigo.sim.kernel",
    "sushigo.bench": "sushigo.sim.bench",
    "sushigo.render": "sushigo.terminal.render",
    "sushigo.party_terminal": "sushigo.terminal.party",
    "sushigo.stats.command": "sushigo.cli.stats",
    "sushigo.tournament.command": "sushigo.cli.tournament",
}
"""Old module name -> new one (a package's submodules follow it)."""


def new_name(old: str) -> str | None:
    """The 0.6 name of a module called ``old`` before 0.6, or ``None``.

    >>> new_name("sushigo.party.scoring"), new_name("sushigo.engine.rules")
    ('sushigo.engine.party.scoring', None)
    """
    if old in MOVED:
        return MOVED[old]
    package, _, _rest = old.rpartition(".")
    while package:
        if package in MOVED:
            return f"{MOVED[package]}.{old[len(package) + 1:]}"
        package, _, _ = package.rpartition(".")
    return None


class _Alias(importlib.abc.Loader):
    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return self.module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


class MovedModules(importlib.abc.MetaPathFinder):
    """Finds an old module name and answers with the new module."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = new_name(fullname)
        if new is None:
            return None
        warnings.warn(
            f"{fullname} is now {new}; the old name goes away in sushigo 1.0", DeprecationWarning, stacklevel=2
        )
        module = importlib.import_module(new)
        return importlib.machinery.ModuleSpec(fullname, _Alias(module), is_package=hasattr(module, "__path__"))


def install() -> None:
    """Put the finder on :data:`sys.meta_path` (once)."""
    if not any(isinstance(f, MovedModules) for f in sys.meta_path):
        sys.meta_path.append(MovedModules())
