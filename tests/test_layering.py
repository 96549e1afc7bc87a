"""The architecture stays honest: the engine runs on the standard library alone,
the import contracts name real packages and the package map in the docs is current.

The contracts themselves (``lint-imports``), ``mypy --strict`` and ``ruff`` are
static checks, run by ``.ci/run`` before the tests (CONTRIBUTING.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "sushigo"
ROOT = SRC.parent.parent


def test_every_contract_names_real_packages() -> None:
    """A contract over a package that was renamed away would check nothing."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    for contract in config["contracts"]:
        containers = contract.get("containers", [""])
        names = [n.strip() for layer in contract.get("layers", []) for n in layer.split("|")]
        names += contract.get("source_modules", []) + contract.get("ancestors", [])
        for container in containers:
            for name in names:
                full = f"{container}.{name}" if container else name
                assert (SRC.parent / full.replace(".", "/")).is_dir() or (
                    SRC.parent / (full.replace(".", "/") + ".py")).is_file(), (contract["id"], full)


def test_the_engine_imports_only_the_standard_library() -> None:
    """Importing every engine module (and the package's public API) loads no third-party module."""
    code = (
        "import pkgutil, sys\n"
        "import sushigo, sushigo.engine\n"
        "for info in pkgutil.walk_packages(sushigo.engine.__path__, 'sushigo.engine.'):\n"
        "    __import__(info.name)\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "print(','.join(sorted(t for t in top if t not in sys.stdlib_module_names and t != 'sushigo'"
        " and t != 'sushigo_engine__mypyc' and not t.startswith('_'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_learned_bot_plays_on_the_standard_library() -> None:
    """The shipped network is evaluated in plain Python: no numpy needed to seat it."""
    code = (
        "import sys\n"
        "from sushigo.bots import make_bot, play_game\n"
        "game = play_game([make_bot('learned', 0), make_bot('random', 1)], seed=1)\n"
        "print(game.is_over, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def test_the_package_map_in_docs_is_current() -> None:
    """docs/architecture.md's map is drawn from the imports; a change of imports must redraw it."""
    pytest.importorskip("grimp")
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "architecture.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_no_server_module_is_over_500_lines() -> None:
    """The server stays in rooms: a module that grows past 500 lines is split by what it does
    (docs/architecture.md, "The server's map")."""
    server = ROOT / "src" / "sushigo" / "server"
    sizes = {str(p.relative_to(server)): len(p.read_text(encoding="utf-8").splitlines())
             for p in server.rglob("*.py")}
    assert sizes and {p: n for p, n in sizes.items() if n > 500} == {}
