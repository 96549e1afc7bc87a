"""Saved tournaments: ``DIR/games.jsonl`` (one line per game) and ``DIR/summary.json``.

The formats are described in ``docs/tournaments.md``; ``sushigo stats``
reads them.  A folder that already holds either file is refused, never
overwritten.

>>> import tempfile, os
>>> from sushigo.tournament import run_tournament
>>> result = run_tournament(["random", "random"], games=2, seed=1, workers=1)
>>> folder = os.path.join(tempfile.mkdtemp(), "run")
>>> save_results(result, folder)
>>> [line["seats"] for line in read_games(os.path.join(folder, GAMES_FILE))]
[['random', 'random'], ['random', 'random']]
>>> save_results(result, folder)  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
sushigo.tournament.schedule.TournamentError: --out ... already holds games.jsonl: choose a new folder or remove it
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import TYPE_CHECKING, Any, Final, Iterator

from sushigo.tournament.schedule import TournamentError

if TYPE_CHECKING:
    from sushigo.tournament.runner import TournamentResult
    from sushigo.tournament.summary import TournamentSummary

GAMES_FILE: Final = "games.jsonl"
SUMMARY_FILE: Final = "summary.json"
SUMMARY_FORMAT: Final = "sushigo-tournament/1"
"""The ``format`` key of ``summary.json``."""


def prepare_out_dir(path: str) -> str:
    """Make sure results can be saved in folder ``path`` (created if missing)
    and that it holds no earlier results; return it.  Raises
    :class:`TournamentError` with one line otherwise."""
    shown = path
    if os.path.exists(path) and not os.path.isdir(path):
        raise TournamentError(f"--out {shown}: not a folder", usage=False)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise TournamentError(f"--out {shown}: can't create the folder: {e.strerror or e}", usage=False) from None
    for name in (GAMES_FILE, SUMMARY_FILE):
        if os.path.lexists(os.path.join(path, name)):
            raise TournamentError(
                f"--out {shown} already holds {name}: choose a new folder or remove it", usage=False
            )
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise TournamentError(f"--out {shown}: can't write there: {e.strerror or e}", usage=False) from None
    return path


def _write_atomically(path: str, lines: Iterator[str]) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".sushigo-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(line)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def summary_json(result: TournamentResult, summary: TournamentSummary | None = None) -> dict[str, Any]:
    """The content of ``summary.json``: the ``--json`` summary plus the run's settings."""
    out: dict[str, Any] = {"format": SUMMARY_FORMAT}
    out.update((summary if summary is not None else result.summary()).to_json())
    out.update(result.settings())
    out["seconds"] = result.seconds
    return out


def save_results(result: TournamentResult, path: str, summary: TournamentSummary | None = None) -> None:
    """Write ``games.jsonl`` and ``summary.json`` of ``result`` into folder ``path``.

    Refuses (:class:`TournamentError`) a folder that already has either file.
    Games played with ``keep_records=False`` are saved with ``"record": null``.
    """
    prepare_out_dir(path)
    rules = result.rules
    _write_atomically(
        os.path.join(path, GAMES_FILE),
        (json.dumps(g.to_json(rules), separators=(",", ":")) + "\n" for g in result.games),
    )
    text = json.dumps(summary_json(result, summary), indent=1) + "\n"
    _write_atomically(os.path.join(path, SUMMARY_FILE), iter([text]))


def read_games(path: str) -> Iterator[dict[str, Any]]:
    """The games of a ``games.jsonl`` file, one dict per line, in order."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as e:
                raise TournamentError(f"{path}, line {number}: not JSON ({e.msg})", usage=False) from None
