"""``sushigo stats``: tables and plots from tournament results.

:func:`stats_command` is a typer command function; ``sushigo.cli.app`` registers
it as ``stats``.  Errors end with one line on standard error and a non-zero
exit status (1 for bad input, 2 for bad usage), never a traceback.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Annotated, NoReturn

import typer

from sushigo.cli.errors import EXIT_BAD_INPUT, EXIT_USAGE
from sushigo.cli.errors import fail as cli_fail
from sushigo.i18n import _, _l, localized, message_of
from sushigo.stats import StatsError, compute, read_games
from sushigo.stats.tables import TextTable, report_tables, to_markdown


class PlotFormat(str, Enum):
    png = "png"
    svg = "svg"


def _fail(message: str, usage: bool = False) -> NoReturn:
    cli_fail(message, EXIT_USAGE if usage else EXIT_BAD_INPUT)


def stats_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="games.jsonl files, or folders holding one (sushigo tournament --out DIR).",
            metavar="PATH",
            show_default=False,
        ),
    ],
    out: Annotated[
        str | None,
        typer.Option("--out", "-o", metavar="DIR", help="Also draw the plots into this folder (needs "
                     "matplotlib: pip install 'sushigo[plots]')."),
    ] = None,
    plot_format: Annotated[
        PlotFormat | None, typer.Option("--format", "-f", help="Plot file format with --out (default png).")
    ] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print GitHub markdown tables (for pasting into docs).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Statistics of tournament games: scores, points per card type, first picks, win rate by budget."""
    if markdown and as_json:
        _fail(_l("--markdown and --json are alternatives: choose one"), usage=True)
    if plot_format is not None and out is None:
        _fail(_l("--format sets the plot files' format: add --out DIR"), usage=True)
    try:
        report = compute(read_games(paths))
        if out is not None:
            from dataclasses import replace

            from sushigo.stats.plots import write_plots

            fmt = (plot_format or PlotFormat.png).value
            report = replace(report, plots=tuple(write_plots(report, out, fmt)))
    except StatsError as e:
        _fail(message_of(e))
    if not report.points:
        note = _l("the games were saved without records: no points per card type or first picks")
        print(f"sushigo: note: {localized(note)}", file=sys.stderr)
    if as_json:
        print(json.dumps(report.to_json(), indent=1))
        return
    tables = report_tables(report)
    if markdown:
        print(to_markdown(tables))
    else:
        # TRANSLATORS: the heading of `sushigo stats`' tables; {sources}: the files read
        heading = _("{games} games from {sources}", games=str(report.games), sources=", ".join(report.sources))
        _print_rich(tables, heading)
    for path in report.plots:
        # TRANSLATORS: `sushigo stats --out` drew a plot into the file {path}
        print(_("wrote {path}", path=str(path)), file=sys.stderr)


def _print_rich(tables: list[TextTable], heading: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    console = Console()
    console.print(Text(heading, style="bold"))
    for t in tables:  # the words are text, not markup (a translation may hold brackets)
        table = Table(title=escape(t.title), caption=escape(t.note) or None, title_style="bold")
        for name, align in zip(t.columns, t.align):
            table.add_column(escape(name), justify="left" if align == "l" else "right")
        for row in t.rows:
            table.add_row(*row)
        console.print()
        console.print(table)
