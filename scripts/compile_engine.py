"""Compile the engine (``sushigo.engine``) with mypyc, in place: an optional build step.

    pip install -e '.[test]'                 # mypy, which brings mypyc
    python scripts/compile_engine.py          # build the extension modules next to the sources
    python scripts/compile_engine.py --status # says which engine is imported
    python scripts/compile_engine.py --clean  # remove them: the pure-Python engine again

The engine is already ``mypy --strict``; mypyc turns the same modules into C
extensions (a C compiler and the Python headers are needed).  Python imports
an extension module before the ``.py`` of the same name, so a checkout
installed with ``pip install -e`` runs the compiled engine until ``--clean``.
Nothing else changes: the package is the same, every test passes on both, and
without a compiler the pure-Python engine works everywhere.  The tests refuse
to run on extensions older than their sources (tests/conftest.py).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
ENGINE = SRC / "sushigo" / "engine"
GROUP = "sushigo_engine"
"""The name of the shared library every compiled module of the engine links to."""
COMPILED = (
    "turns.py",
    "base/game.py", "base/scoring.py", "base/view.py",
    "party/game.py", "party/scoring.py", "party/view.py",
)
"""The hot paths: the two state machines, their scoring and their seat views
(search determinizes through them).  The rest of the engine (records, sheets,
menus, names, explanations) parses what people and files give it and stays
interpreted, where a wrong type is the engine's own one-line error."""


def sources() -> list[Path]:
    """The engine modules to compile."""
    return [ENGINE / name for name in COMPILED]


def extensions() -> list[Path]:
    """The compiled files in place now."""
    return sorted([*ENGINE.rglob("*.so"), *ENGINE.rglob("*.pyd"), *SRC.glob(f"{GROUP}__mypyc*")])


def clean(quiet: bool = False) -> int:
    for path in extensions():
        path.unlink()
        if not quiet:
            print(f"removed {path.relative_to(ROOT)}")
    return 0


def build(quiet: bool = False) -> int:
    """Compile the engine in place; 0 when it is, else the pure-Python engine stays
    (``quiet``: say nothing and do not check the import: the build hook's use)."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        if not quiet:
            print("error: mypyc is not installed (pip install mypy)", file=sys.stderr)
        return 2
    clean(quiet=True)
    paths = [str(p.relative_to(SRC)) for p in sources()]
    code = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='sushigo-engine-compiled', script_args=['build_ext', '--inplace', '--build-temp', "
        f"{str(ROOT / 'build' / 'mypyc')!r}, '--build-lib', {str(ROOT / 'build' / 'mypyc' / 'lib')!r}],\n"
        f"      ext_modules=mypycify({paths!r}, opt_level='3', group_name={GROUP!r}, "
        f"target_dir={str(ROOT / 'build' / 'mypyc')!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=SRC, capture_output=True, text=True)
    if done.returncode != 0:
        if not quiet:
            print(done.stdout[-4000:], done.stderr[-4000:], sep="\n", file=sys.stderr)
            print("error: mypyc failed (above); the pure-Python engine is still in place", file=sys.stderr)
        clean(quiet=True)
        return 1
    for path in extensions():
        path.touch()  # unchanged shims keep their old time otherwise; the tests compare it with the source's
    if quiet:
        return 0
    print(f"compiled {len(paths)} engine modules with mypyc ({len(extensions())} files in src/)")
    return status()


def status() -> int:
    code = "import sushigo.engine.base.game as g; print(g.__file__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    where = done.stdout.strip()
    kind = "compiled (mypyc)" if where.endswith((".so", ".pyd")) else "pure Python"
    print(f"the imported engine is {kind}: {where or done.stderr.strip()}")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--clean", action="store_true", help="remove the compiled modules")
    group.add_argument("--status", action="store_true", help="say which engine Python imports")
    args = parser.parse_args(argv)
    if args.clean:
        return clean()
    if args.status:
        return status()
    return build()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
