"""Plots of a :class:`~sushigo.stats.Report` with matplotlib (the ``plots`` extra).

matplotlib is imported only when :func:`write_plots` runs; without it,
:class:`PlotsUnavailableError` says how to install it.  Figures are drawn on
the non-interactive Agg canvas and saved without dates or version stamps, so
the same report gives the same files.

================================  ==============================================
file                              what it shows
================================  ==============================================
``scores_by_players.FMT``         score boxplots per bot, one panel per player
                                  count, the mean winning score dashed
``points_by_category.FMT``        mean points per game from each category, bars
                                  per bot, one panel per edition
``first_pick_rates.FMT``          first-pick take rate per card, bars per bot
``win_rate_by_budget.FMT``        win rate against search budget (log x), 95%
                                  Wilson intervals; only with budget bots
================================  ==============================================
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any, Final

from sushigo.i18n import _l
from sushigo.stats import Report, StatsError, card_rank
from sushigo.stats.tables import fmt_budget

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PLOT_FORMATS: Final = ("png", "svg")

_METADATA: Final[dict[str, dict[str, None]]] = {
    "png": {"Date": None, "Software": None},
    "svg": {"Date": None, "Creator": None},
}


class PlotsUnavailableError(StatsError):
    """matplotlib is not installed."""


def _figure(panels: int, width: float = 4.2, height: float = 3.6) -> tuple[Figure, list[Any]]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    cols = min(panels, 4)
    rows = math.ceil(panels / cols)
    fig = Figure(figsize=(width * cols, height * rows), layout="constrained")
    FigureCanvasAgg(fig)
    axes = [fig.add_subplot(rows, cols, i + 1) for i in range(panels)]
    return fig, axes


def _bars(ax: Any, groups: list[str], series: list[tuple[str, list[float]]], scale: float = 1.0) -> None:
    """Grouped bars: one group per x label, one bar per series."""
    width = 0.8 / max(len(series), 1)
    for i, (label, values) in enumerate(series):
        xs = [x - 0.4 + width * (i + 0.5) for x in range(len(groups))]
        ax.bar(xs, [v * scale for v in values], width, label=label)
    ax.set_xticks(range(len(groups)), groups, rotation=45, ha="right")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _scores(report: Report) -> Figure:
    fig, axes = _figure(len(report.by_players))
    for ax, row in zip(axes, report.by_players):
        bots = [r for r in report.by_bot if (r.edition, r.players) == (row.edition, row.players)]
        data = [list(report.scores[(r.edition, r.players, r.bot)]) for r in bots]
        ax.boxplot(data)
        ax.set_xticks(range(1, len(bots) + 1), [r.bot for r in bots], rotation=30, ha="right")
        ax.axhline(row.winning_score.mean, color="tab:red", linestyle="--",
                   label=f"mean winning score {row.winning_score.mean:.1f}")
        ax.set_title(f"{row.edition}, {row.players} players ({row.games} games)")
        ax.set_ylabel("final score")
        ax.legend(fontsize="small", loc="lower right")
    fig.suptitle("Scores by player count")
    return fig


def _points(report: Report) -> Figure:
    fig, axes = _figure(len(report.categories), width=6.5)
    for ax, (edition, categories) in zip(axes, report.categories.items()):
        rows = [r for r in report.points if r.edition == edition]
        _bars(ax, list(categories), [(r.bot, [r.means[c] for c in categories]) for r in rows])
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_title(edition)
        ax.set_ylabel("mean points per game")
    fig.suptitle("Points per card type")
    return fig


def _first_picks(report: Report) -> Figure:
    fig, axes = _figure(len(report.categories), width=7.5)
    for ax, edition in zip(axes, report.categories):
        picks = [r for r in report.first_picks if r.edition == edition]
        bots = list(dict.fromkeys(r.bot for r in picks))
        cards = sorted({r.card for r in picks}, key=card_rank)
        rate = {(r.bot, r.card): r.rate for r in picks}
        _bars(ax, cards, [(b, [rate.get((b, c), 0.0) for c in cards]) for b in bots], scale=100)
        ax.set_ylim(0, 100)
        ax.set_title(edition)
        ax.set_ylabel("taken first when in hand (%)")
    fig.suptitle("First-pick take rate per card")
    return fig


def _budgets(report: Report) -> Figure:
    kinds = list(dict.fromkeys(r.kind for r in report.budgets))
    fig, axes = _figure(len(kinds), width=5.5)
    for ax, kind in zip(axes, kinds):
        rows = [r for r in report.budgets if r.kind == kind]
        for table in dict.fromkeys((r.edition, r.players, r.group) for r in rows):
            mine = [r for r in rows if (r.edition, r.players, r.group) == table]
            edition, players, group = table
            label = f"{group}, {players}p" + (" Party" if edition == "party" else "")
            xs = [r.value for r in mine]
            ys = [100 * r.win_rate for r in mine]
            err = [[100 * (r.win_rate - r.interval[0]) for r in mine],
                   [100 * (r.interval[1] - r.win_rate) for r in mine]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
        chance = sum(r.chance * r.games for r in rows) / sum(r.games for r in rows)
        ax.axhline(100 * chance, color="gray", linestyle=":", label=f"even share {100 * chance:.0f}%")
        ax.set_xscale("log")
        ax.set_xticks([r.value for r in rows], [fmt_budget(kind, r.value).split("=")[1] for r in rows])
        ax.minorticks_off()
        ax.margins(x=0.1)
        ax.set_ylim(-2, 102)
        ax.set_xlabel("seconds per decision" if kind == "time" else "iterations per decision")
        ax.set_ylabel("win rate (%), 95% interval")
        ax.legend(fontsize="small")
    fig.suptitle("Win rate by search budget")
    return fig


def write_plots(report: Report, out_dir: str, fmt: str = "png") -> list[str]:
    """Draw the report's plots into ``out_dir`` (created if needed); return the files written.

    Raises :class:`PlotsUnavailableError` without matplotlib and
    :class:`~sushigo.stats.StatsError` when ``out_dir`` cannot be written.
    """
    if fmt not in PLOT_FORMATS:
        raise ValueError(_l("plot format must be png or svg, not {format}", format=repr(fmt)))
    try:
        import matplotlib
    except ImportError:
        raise PlotsUnavailableError(
            _l("plots need matplotlib: pip install 'sushigo[plots]' (the tables work without it)")
        ) from None
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        # TRANSLATORS: {why}: the system's reason
        raise StatsError(_l("--out {path}: cannot create the folder: {why}", path=out_dir,
                            why=e.strerror or str(e))) from None
    drawings = [("scores_by_players", _scores)]
    if report.points:  # games saved without records have no breakdowns or picks
        drawings += [("points_by_category", _points), ("first_pick_rates", _first_picks)]
    if report.budgets:
        drawings.append(("win_rate_by_budget", _budgets))
    written = []
    with matplotlib.rc_context({
        "svg.hashsalt": "sushigo-stats",  # fixed element ids instead of random ones
        "svg.fonttype": "path",
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "font.size": 9,
    }):
        for name, draw in drawings:
            path = os.path.join(out_dir, f"{name}.{fmt}")
            fig = draw(report)
            try:
                fig.savefig(path, format=fmt, metadata=_METADATA[fmt])
            except OSError as e:
                raise StatsError(_l("{path}: cannot write it: {why}", path=path, why=e.strerror or str(e))) from None
            written.append(path)
    return written
