"""The module names of 0.5 keep working until 1.0 (src/sushigo/_moved.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

from sushigo._moved import MOVED, new_name


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_old_name_imports_the_new_module_with_a_warning(old: str) -> None:
    new = importlib.import_module(MOVED[old])
    code = (
        "import importlib, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    importlib.import_module({old!r})\n"
        "for w in caught:\n"
        "    print(w.category.__name__, w.message)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    message = f"DeprecationWarning {old} is now {MOVED[old]}; the old name goes away in sushigo 1.0"
    assert message in out.stdout.splitlines()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert importlib.import_module(old) is new


def test_old_submodules_and_names_still_work() -> None:
    code = (
        "import warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from sushigo.party.scoring import score_party_round\n"
        "from sushigo.party.menus import parse_menu\n"
        "from sushigo.record import replay, to_record, score_sheet, load_json, RecordError\n"
        "from sushigo.game import Game, IllegalActionError, Phase\n"
        "from sushigo.cards import Card, UnknownCardError\n"
        "import sushigo.engine.party.scoring as new, sushigo.engine.menus as menus\n"
        "assert score_party_round is new.score_party_round and parse_menu is menus.parse_menu\n"
        "game = Game(2, seed=1)\n"
        "game.random_playout(__import__('random').Random(1))\n"
        "print(replay(to_record(game)).result() == game.result())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_new_and_unknown_names_are_left_alone() -> None:
    assert new_name("sushigo.engine.base.game") is None
    assert new_name("sushigo.bots.greedy") is None
    assert new_name("sushigo.party.view") == "sushigo.engine.party.view"
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("sushigo.no_such_module")
