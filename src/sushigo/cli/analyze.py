"""``sushigo analyze``: what every decision of a finished game was worth.

:func:`analyze_command` is a typer command function; ``sushigo.cli.app``
registers it as ``analyze``.  It replays the record (either edition), runs
:func:`sushigo.analysis.game.analyze_game` for the chosen seats with a
progress bar on standard error, and prints per seat a table of decisions,
an evaluation chart and a summary, or with ``--json`` the
``sushigo-analysis/1`` document (``docs/analysis.md``).  Every problem is
one line on standard error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer
from rich.cells import cell_len

from sushigo.analysis.evaluate import DEFAULT_SAMPLES
from sushigo.analysis.game import LABELS, GameAnalysis, SeatAnalysis, action_label, action_label_said, analyze_game
from sushigo.cli.errors import EXIT_USAGE, fail
from sushigo.cli.tournament import progress_bar
from sushigo.engine.editions import AnyGame, replay
from sushigo.engine.messages import N_, Words, from_json, msg
from sushigo.engine.records import RecordError, load_json, seat_names
from sushigo.i18n import _, _l, _n, message_of, say

MARKS = {None: "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The chess marks of each label, after the move played."""

HEADER = (
    # TRANSLATORS: the columns of `sushigo analyze`'s table of a seat's decisions: where it was decided
    # (round.turn), the kind of decision (pick, chopsticks, ...), the action played, the best action, the
    # expected points lost, their standard error (±), the expected final margin, the expected win share
    N_("turn"), N_("decision"), N_("played"), N_("best"), N_("loss"), "±", N_("margin"), N_("win"),
)
"""The table's columns (message ids; ``±`` is a symbol)."""

KINDS = {
    # TRANSLATORS: kinds of decision in `sushigo analyze`'s table (Sushi Go Party!'s specials)
    "pick": N_("pick"), "chopsticks": N_("chopsticks"), "spoon": N_("spoon"), "menu": N_("menu"),
    "takeout_box": N_("takeout box"),
}
"""The decision column's words for each kind of decision (message ids)."""

CHART_HEIGHT = 9
"""Rows of the evaluation chart."""


def analyze_command(
    file: Annotated[str, typer.Argument(help="A finished game's record (JSON), or - for standard input.",
                                        metavar="RECORD")],
    seat: Annotated[
        list[int] | None, typer.Option("--seat", "-s", help="A seat to analyse, from 0 (repeatable; "
                                          "default: every seat).")
    ] = None,
    budget: Annotated[
        int, typer.Option("--budget", "-b", min=1, help="Playouts per legal action of each decision.")
    ] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="The analysis seed: the same seed, the same numbers.")] = 0,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Processes (default: every core).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sushigo-analysis/1 JSON document.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Value every decision of a finished game from what the deciding seat knew, and mark the mistakes.

    Each legal action is played out BUDGET times on worlds dealt from the
    seat's view at that moment (never the record's hidden cards); the loss of
    the action played is its expected final margin below the best action's,
    labelled inaccuracy (?!), mistake (?) or blunder (??) from the thresholds
    in docs/analysis.md.
    """
    label = _l("standard input") if file == "-" else file
    try:
        data = load_json(file, msg("record"))
        game = replay(data)
    except RecordError as e:
        # TRANSLATORS: {file}: the record's path (or "standard input"); {why}: what is wrong with it
        fail(_l("{file}: {why}", file=label, why=message_of(e)))
    if not game.is_over:
        fail(_l("{file}: the game is not finished", file=label))
    seats = list(dict.fromkeys(seat)) if seat else list(range(game.players))
    for s in seats:
        if not 0 <= s < game.players:
            fail(_l("--seat {seat}: a {players}-player game has seats 0 to {last}", seat=str(s), players=game.players,
                    last=game.players - 1), EXIT_USAGE)
    # TRANSLATORS: what the progress bar of `sushigo analyze` counts
    with progress_bar(not quiet, 0, _("decisions")) as progress:
        report = analyze_game(game, seats, samples=budget, seed=seed, jobs=jobs or os.cpu_count() or 1,
                              progress=progress)
    if as_json:
        doc = report.to_json(lambda a: action_label(game, a), lambda a: action_label_said(game, a))
        print(json.dumps(doc, indent=1))
        return
    given = seat_names(data, game.players)
    # TRANSLATORS: a named seat in `sushigo analyze`'s report ("Ann (seat 0)")
    names = [_("{name} (seat {seat})", name=given[s], seat=str(s)) if given else _("Seat {n}", n=str(s))
             for s in range(game.players)]
    for i, seat_report in enumerate(report.seats):
        if i:
            print()
        print("\n".join(seat_lines(game, report, seat_report, names[seat_report.seat])))


def _said(game: AnyGame, action: int) -> str:
    """An action of ``game`` as a label, in this context's language (:func:`action_label`'s words)."""
    return say(from_json(action_label_said(game, action)))


def _count(label: str, n: int) -> str:
    """How a seat's summary counts a label (``3 inaccuracies (?!)``)."""
    mark = MARKS[label]
    # TRANSLATORS: counts in a seat's summary in `sushigo analyze` ("2 inaccuracies (?!), 1 mistake (?), ...")
    if label == "inaccuracy":
        return _n("{n} inaccuracy ({mark})", "{n} inaccuracies ({mark})", n, mark=mark)
    if label == "mistake":
        return _n("{n} mistake ({mark})", "{n} mistakes ({mark})", n, mark=mark)
    return _n("{n} blunder ({mark})", "{n} blunders ({mark})", n, mark=mark)


def _kind(kind: str) -> str:
    return _(KINDS[kind]) if kind in KINDS else kind.replace("_", " ")


def _pad(text: str, width: int, right: bool) -> str:
    """``text`` padded to ``width`` terminal cells (a wide character takes two)."""
    space = " " * max(width - cell_len(text), 0)
    return space + text if right else text + space


def seat_lines(game: AnyGame, report: GameAnalysis, seat: SeatAnalysis, name: str) -> list[str]:
    """A seat's table of decisions, its evaluation chart and its summary, as lines of text
    (in this context's language; the table's numbers as they are, for programs to read)."""
    t = report.thresholds
    rows = []
    for d in seat.decisions:
        ev = d.evaluation
        played = ev.value(d.action)
        rows.append((
            f"{d.round}.{d.turn}",
            _kind(d.kind),
            (_said(game, d.action) + " " + MARKS[d.label]).strip(),
            "" if ev.best.action == d.action or f"{d.loss:.1f}" == "0.0" else _said(game, ev.best.action),
            f"{d.loss:.1f}", f"{d.loss_se:.1f}", f"{played.margin:+.1f}", f"{100 * played.win:.0f}%",
        ))
    header = tuple(_(h) if h != "±" else h for h in HEADER)
    party = report.edition == "party"
    keep = [i for i in range(len(HEADER)) if party or HEADER[i] != "decision"]
    widths = {i: max(cell_len(header[i]), *(cell_len(r[i]) for r in rows)) if rows else cell_len(header[i])
              for i in keep}

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(_pad(cells[i], widths[i], i >= 4) for i in keep).rstrip()

    lines = [
        # TRANSLATORS: the first line of a seat's report in `sushigo analyze`; {name}: "Ann (seat 0)"
        _("{name}: {decisions} decisions analysed ({forced} forced), {samples} playouts per action, seed {seed}",
          name=name, decisions=str(len(seat.decisions)), forced=str(seat.forced), samples=str(report.samples),
          seed=str(report.seed)),
        "",
        line(header),
    ]
    lines.extend(line(r) for r in rows)
    lines.append("")
    lines.extend(chart_lines(seat))
    lines.append("")
    counts = say(Words(tuple(_count(x, seat.count(x)) for x in LABELS), listing=True))  # the language's commas
    lines.append(_("{name}: average loss {loss} points a decision", name=name, loss=format(seat.mean_loss, ".2f")))
    lines.append(f"  {counts}")
    # TRANSLATORS: the thresholds (expected points lost) of the labels of `sushigo analyze`
    lines.append(_("Labels by expected points lost: inaccuracy {inaccuracy}, mistake {mistake}, blunder {blunder}.",
                   inaccuracy=format(t.inaccuracy, "g"), mistake=format(t.mistake, "g"),
                   blunder=format(t.blunder, "g")))
    # TRANSLATORS: the note under `sushigo analyze`'s report, on two lines ("margin" and "win": the table's columns)
    lines.extend(_("margin: the expected final score less the best other seat's, after the\n"
                   "decision played; win: the expected win share.").splitlines())
    return lines


def chart_lines(seat: SeatAnalysis, height: int = CHART_HEIGHT) -> list[str]:
    """The evaluation chart: the expected final margin after each decision, one column each.

    ``#`` bars rise from (or hang below) the zero line; the row under the
    axis marks the labelled decisions (``i`` inaccuracy, ``m`` mistake,
    ``B`` blunder) and the last row numbers the rounds where they start.
    """
    if not seat.decisions:
        return [_("(no decision to chart)")]
    values = [d.evaluation.value(d.action).margin for d in seat.decisions]
    top, bottom = max(max(values), 0.0), min(min(values), 0.0)
    span = (top - bottom) or 1.0
    step = span / (height - 1)
    zero = round(top / step)  # the row of 0

    def row_of(v: float) -> int:
        return round((top - v) / step)

    rows = []
    for r in range(height):
        cells = []
        for v in values:
            vr = row_of(v)
            filled = (vr <= r <= zero) if v >= 0 else (zero <= r <= vr)
            cells.append("#" if filled and not (r == zero and vr != zero) else ("-" if r == zero else " "))
        level = 0.0 if r == zero else top - r * step
        axis = f"{level:+6.1f} |" if r in (0, zero, height - 1) else "       |"
        rows.append(axis + "".join(cells))
    marks = {"inaccuracy": "i", "mistake": "m", "blunder": "B"}
    rows.append("       |" + "".join(marks.get(d.label or "", " ") for d in seat.decisions))
    ticks, last = [], None
    for d in seat.decisions:
        ticks.append(str(d.round) if d.round != last else " ")
        last = d.round
    # TRANSLATORS: the label of the chart's last row, under the rounds' numbers (the axis's labels are 7
    # characters wide: a longer word shifts this row)
    rows.append(_pad(_("round"), 7, True) + " " + "".join(ticks))
    return [_("Expected final margin after each decision (points):")] + rows


__all__ = ["analyze_command", "chart_lines", "seat_lines"]
