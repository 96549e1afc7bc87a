"""The build hook that installs the compiled engine (hatchling's ``custom`` hook, pyproject.toml).

``pip install .`` and ``pip install -e .`` compile the engine's hot modules with
mypyc (``scripts/compile_engine.py``: the same modules, the same code, 2-3 times
faster); a wheel from ``python -m build`` carries them.  Where there is no C
compiler (or mypyc fails) the build says so in one line and the pure-Python
engine is installed: it behaves the same.  ``SUSHIGO_PURE_PYTHON=1`` asks for
the pure-Python engine.  ``sushigo --version`` says which one runs.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _compile_engine(root: str) -> ModuleType:
    path = Path(root) / "scripts" / "compile_engine.py"
    spec = importlib.util.spec_from_file_location("sushigo_compile_engine", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompiledEngineHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile the engine into the wheel (in place for an editable install)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._made: list[Path] = []
        if self.target_name != "wheel":
            return
        engine = _compile_engine(self.root)
        if os.environ.get("SUSHIGO_PURE_PYTHON"):
            if version == "editable":
                engine.clean(quiet=True)  # an earlier install's extensions would still be imported
            self._say("SUSHIGO_PURE_PYTHON is set: installing the pure-Python engine")
            return
        before = engine.extensions()
        if engine.build(quiet=True) != 0:
            self._say("the engine could not be compiled (no C compiler, or mypyc failed): "
                      "installing the pure-Python engine, which plays the same, 2-3 times slower")
            return
        if version == "editable":
            return  # the extensions sit next to the sources the editable install imports
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        src = Path(self.root) / "src"
        for path in engine.extensions():
            build_data["force_include"][str(path)] = str(path.relative_to(src))
        if not before:
            self._made = engine.extensions()  # built for this wheel only: removed once it is written

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        for path in getattr(self, "_made", []):
            path.unlink(missing_ok=True)

    def _say(self, line: str) -> None:
        print(f"sushigo: {line}", file=sys.stderr)
