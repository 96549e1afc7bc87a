"""Saved tournaments: ``DIR/games.jsonl`` (one line per game) and ``DIR/summary.json``.

The formats are described in ``docs/tournaments.md``; ``sushigo stats``
reads them.  A folder that already holds either file is refused, never
overwritten.  While a tournament runs, finished games are appended to
``DIR/games.partial.jsonl`` (:class:`PartialGames`), so an interrupted or
failed run keeps every game it finished; a complete run replaces it with
``games.jsonl`` in game order.

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
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, Final

from sushigo.engine.records import write_atomically
from sushigo.i18n import _l, message_of
from sushigo.tournament.lines import GAMES_FILE, LineError, read_lines
from sushigo.tournament.schedule import TournamentError

if TYPE_CHECKING:
    from sushigo.engine.rules import Rules
    from sushigo.tournament.results import GameResult, TournamentResult, TournamentSummary

PARTIAL_FILE: Final = "games.partial.jsonl"
"""Games appended as they finish (any order); removed when ``games.jsonl`` is written."""
SUMMARY_FILE: Final = "summary.json"
SUMMARY_FORMAT: Final = "sushigo-tournament/1"
"""The ``format`` key of ``summary.json``."""


def prepare_out_dir(path: str) -> str:
    """Make sure results can be saved in folder ``path`` (created if missing)
    and that it holds no earlier results; return it.  Raises
    :class:`TournamentError` with one line otherwise."""
    shown = path
    if os.path.exists(path) and not os.path.isdir(path):
        raise TournamentError(_l("--out {path}: not a folder", path=shown), usage=False)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        # TRANSLATORS: {why}: the system's reason, such as "Permission denied"
        raise TournamentError(_l("--out {path}: can't create the folder: {why}", path=shown, why=e.strerror or str(e)),
                              usage=False) from None
    for name in (GAMES_FILE, SUMMARY_FILE, PARTIAL_FILE):
        if os.path.lexists(os.path.join(path, name)):
            # TRANSLATORS: {file}: a results file's name, such as games.jsonl
            raise TournamentError(
                _l("--out {path} already holds {file}: choose a new folder or remove it", path=shown, file=name),
                usage=False,
            )
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise TournamentError(_l("--out {path}: can't write there: {why}", path=shown, why=e.strerror or str(e)),
                              usage=False) from None
    return path


def summary_json(result: TournamentResult, summary: TournamentSummary | None = None) -> dict[str, Any]:
    """The content of ``summary.json``: the ``--json`` summary plus the run's settings."""
    out: dict[str, Any] = {"format": SUMMARY_FORMAT}
    out.update((summary if summary is not None else result.summary()).to_json())
    out.update(result.settings())
    out["seconds"] = result.seconds
    return out


def save_results(
    result: TournamentResult,
    path: str,
    summary: TournamentSummary | None = None,
    *,
    partial: PartialGames | None = None,
) -> None:
    """Write ``games.jsonl`` and ``summary.json`` of ``result`` into folder ``path``.

    Refuses (:class:`TournamentError`) a folder that already has either file
    (or, unless it is ``partial``'s, an unfinished ``games.partial.jsonl``).
    Games played with ``keep_records=False`` are saved with ``"record": null``.
    The ``partial`` file of this run is removed once both files are written.
    """
    if partial is None:
        prepare_out_dir(path)
    rules = result.rules
    try:
        write_atomically(
            os.path.join(path, GAMES_FILE),
            (json.dumps(g.to_json(rules), separators=(",", ":")) + "\n" for g in result.games),
        )
        text = json.dumps(summary_json(result, summary), indent=1) + "\n"
        write_atomically(os.path.join(path, SUMMARY_FILE), [text])
        if partial is not None:
            partial.remove()
    except OSError as e:
        why = e.strerror or str(e)
        if partial is not None:
            # TRANSLATORS: {why}: the system's reason; {partial}: the file that keeps the games played
            raise TournamentError(_l("--out {path}: can't save the results: {why}; the games are in {partial}",
                                     path=path, why=why, partial=partial.path), usage=False) from None
        raise TournamentError(_l("--out {path}: can't save the results: {why}", path=path, why=why),
                              usage=False) from None


class PartialGames:
    """Appends finished games to ``DIR/games.partial.jsonl`` as they arrive.

    Use as ``run_tournament(..., on_games=partial.add)``; every batch is
    flushed to disk before the next game is reported, so a run that stops
    (Ctrl-C, a failing game, a killed worker) keeps what it finished.
    """

    def __init__(self, folder: str, rules: Rules) -> None:
        self.path = os.path.join(folder, PARTIAL_FILE)
        self.rules = rules
        self.count = 0
        try:
            # open across add() calls, closed by close() or remove()
            self._file: IO[str] | None = open(self.path, "x", encoding="utf-8")  # noqa: SIM115
        except OSError as e:
            raise TournamentError(_l("--out {path}: can't write there: {why}", path=folder,
                                     why=e.strerror or str(e)), usage=False) from None

    def add(self, games: list[GameResult]) -> None:
        """Append ``games`` and flush them to disk."""
        if self._file is None:
            return
        for g in games:
            self._file.write(json.dumps(g.to_json(self.rules), separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.count += len(games)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def remove(self) -> None:
        """Close and delete the file (the complete results are saved)."""
        self.close()
        if os.path.exists(self.path):
            os.unlink(self.path)


def read_games(path: str) -> Iterator[dict[str, Any]]:
    """The games of a ``games.jsonl`` file, one dict per line, in order, each
    checked against the schema (:func:`sushigo.tournament.lines.check_line`)."""
    try:
        for _source, line in read_lines(path):
            yield line
    except LineError as e:
        raise TournamentError(message_of(e), usage=False) from None
