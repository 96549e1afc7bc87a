"""The architecture stays honest: the core is stdlib-only and strictly typed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CORE = ["cards", "rules", "scoring", "actions", "game", "view", "record", "bench", "observation"]
SRC = Path(__file__).resolve().parent.parent / "src" / "sushigo"


def test_core_imports_only_the_standard_library() -> None:
    code = (
        "import sys\n"
        + "".join(f"import sushigo.{m}\n" for m in CORE)
        + "import sushigo\n"
        + "third = sorted(m for m in ('rich', 'typer', 'click', 'numpy', 'pexpect', 'hypothesis',"
        " 'fastapi', 'starlette', 'sqlalchemy', 'pydantic', 'uvicorn')"
        " if m in sys.modules)\n"
        "print(','.join(third))\n"
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


def test_package_passes_mypy_strict() -> None:
    pytest.importorskip("mypy")
    files = [str(SRC)]  # the core, and the bots, CLI and terminal game around it
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *files],
        capture_output=True,
        text=True,
        cwd=SRC.parent.parent,  # where mypy finds its settings (pyproject.toml), wherever pytest runs
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
