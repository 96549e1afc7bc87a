"""``sushigo tournament``: the command line over :func:`~sushigo.tournament.runner.run_tournament`.

:func:`run_command` checks the options, runs the tournament with a progress
bar on standard error, prints the summary (a table, or JSON with ``--json``)
and saves the games with ``--out``.  Every problem is a one-line
:class:`~sushigo.tournament.schedule.TournamentError`; ``sushigo.cli.app``
prints it and exits.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sushigo.engine.flags import rules_from_flags
from sushigo.engine.messages import nmsg
from sushigo.engine.rules import Rules
from sushigo.i18n import _, _l, localized, message_of
from sushigo.tournament.runner import BACKENDS, check_bots, run_tournament
from sushigo.tournament.schedule import TournamentError


@contextmanager
def progress_bar(enabled: bool, total: int, what: str | None = None) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error, counting ``what`` (words in this context's language; default:
    games) (none when disabled or not a terminal)."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:  # no bar (and no stray blank line) in logs and pipes
        yield None
        return
    if what is None:
        # TRANSLATORS: what a progress bar counts (a tournament's games)
        what = _("games")
    what = escape(what)
    with Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task(what, total=total)

        def update(done: int, _total: int) -> None:
            bar.update(task, completed=done, total=_total)

        yield update


def run_command(
    bots: list[str],
    *,
    games: int = 100,
    seed: int | None = None,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    rules: Rules | None = None,
    time_limit: float | None = None,
    duplicate: bool = True,
    json_output: bool = False,
    out: str | None = None,
    quiet: bool = False,
) -> None:
    """Run ``sushigo tournament`` with these options and print its summary.

    ``rules`` default to the base game for ``len(bots)`` players (the command
    line builds them with :func:`sushigo.engine.flags.rules_from_flags`).
    """
    if len(bots) < 2:
        raise TournamentError(_l("a tournament needs 2 or more bots (one per seat), not {count}", count=len(bots)))
    backend = backend.strip().lower()
    if backend not in BACKENDS:
        raise TournamentError(_l("--backend must be one of {choices}, not {backend}", choices=", ".join(BACKENDS),
                                 backend=repr(backend)))
    if ray_address is not None and backend != "ray":
        raise TournamentError(_l("--ray-address is for --backend ray"))
    if time_limit is not None and not time_limit > 0:
        raise TournamentError(_l("--time-limit must be more than 0 seconds, not {time_limit}",
                                 time_limit=str(time_limit)))
    if rules is None:
        rules = rules_from_flags(len(bots), label=nmsg("{n} bot", "{n} bots", len(bots)))
    check_bots(bots, time_limit)
    if backend == "ray":
        from sushigo.tournament._ray import import_ray

        import_ray()  # fail before anything else when Ray is missing
    partial = None
    if out is not None:
        from sushigo.tournament.store import PartialGames, prepare_out_dir

        prepare_out_dir(out)
        partial = PartialGames(out, rules)
    try:
        with progress_bar(not quiet and not json_output, games) as progress:
            result = run_tournament(
                bots, games=games, seed=seed, rules=rules, workers=workers, backend=backend,
                duplicate=duplicate, time_limit=time_limit, keep_records=out is not None,
                ray_address=ray_address, progress=progress,
                on_games=partial.add if partial is not None else None,
            )
    except BaseException as e:
        if partial is not None:
            partial.close()
            # TRANSLATORS: {path}: the games.jsonl file the finished games were saved in
            note = _l("{count} finished game(s) kept in {path}", count=str(partial.count), path=str(partial.path))
            if isinstance(e, TournamentError):
                # TRANSLATORS: {error}: why the tournament stopped; {note}: "N finished game(s) kept in PATH"
                raise TournamentError(_l("{error} ({note})", error=message_of(e), note=note), usage=e.usage) from None
            print(f"sushigo: stopped: {localized(note)}", file=sys.stderr)
        raise
    summary = result.summary()
    if out is not None:
        from sushigo.tournament.store import save_results

        save_results(result, out, summary, partial=partial)
    if json_output:
        print(json.dumps(summary.to_json()))
        return
    from rich.console import Console
    from rich.text import Text

    from sushigo.tournament.summary import render

    console = Console()
    render(result, console, summary)
    if out is not None:
        import os

        # TRANSLATORS: after a tournament with --out; {games}: a number; {path} and {summary}: the files
        console.print(Text(_("Saved {games} games to {path} and the summary to {summary}.",
                             games=str(len(result.games)), path=os.path.join(out, "games.jsonl"),
                             summary=os.path.join(out, "summary.json"))))
    sys.stdout.flush()
