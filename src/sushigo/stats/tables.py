"""A :class:`~sushigo.stats.Report` as plain text tables, and as GitHub markdown.

:func:`report_tables` lays the report out as :class:`TextTable` values
(strings only); ``sushigo stats`` prints them with rich, or with
:func:`to_markdown` for pasting into documentation.  Titles, columns, labels and notes
are in this context's language (:func:`sushigo.i18n.use`); the numbers are written as
they are in every language, for programs and documents to read.

>>> table = TextTable("Demo", ("Bot", "Mean"), (("greedy", "41.0"),), "lr")
>>> print(to_markdown([table]))
### Demo
<BLANKLINE>
| Bot | Mean |
| :--- | ---: |
| greedy | 41.0 |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sushigo.engine.messages import N_
from sushigo.i18n import _
from sushigo.stats import Report, card_rank

# TRANSLATORS: the columns of `sushigo stats`' tables (message ids, shown translated)
EDITION, PLAYERS, GAMES, MEAN_SCORE, SD, MIN, MEDIAN, MAX = (
    N_("Edition"), N_("Players"), N_("Games"), N_("Mean score"), N_("SD"), N_("Min"), N_("Median"), N_("Max"))
BOT, WIN_RATE, CATEGORY, CARD, BUDGET, WINS = N_("Bot"), N_("Win rate"), N_("Category"), N_("Card"), N_("Budget"), \
    N_("Wins")


def _columns(*names: str) -> tuple[str, ...]:
    return tuple(_(name) for name in names)


class TextTable(NamedTuple):
    """A titled table of strings; ``align`` has one ``'l'`` or ``'r'`` per column."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str
    note: str = ""


def fmt_number(value: float | None, digits: int = 1) -> str:
    """A number with ``digits`` decimals; ``-`` for ``None``.

    >>> fmt_number(41), fmt_number(2.345, 2), fmt_number(None)
    ('41.0', '2.35', '-')
    """
    return "-" if value is None else f"{value:.{digits}f}"


def fmt_percent(value: float | None) -> str:
    """A fraction as a percentage with one decimal.

    >>> fmt_percent(0.25), fmt_percent(None)
    ('25.0%', '-')
    """
    return "-" if value is None else f"{100 * value:.1f}%"


def fmt_budget(kind: str, value: float) -> str:
    """A budget setting as written in bot specs, with its unit.

    >>> fmt_budget("time", 0.2), fmt_budget("iterations", 500.0)
    ('time=0.2 s', 'iterations=500')
    """
    return f"{kind}={value:g}" + (" s" if kind == "time" else "")


def _whole(value: float) -> str:
    """A count or score: no decimals when whole, else at most two.

    >>> _whole(41), _whole(42.5), _whole(10 / 3)
    ('41', '42.5', '3.33')
    """
    return f"{value:.2f}".rstrip("0").rstrip(".")


def report_tables(report: Report) -> list[TextTable]:
    """The tables of ``sushigo stats``, in order (see ``docs/statistics.md``)."""
    tables = [
        TextTable(
            _("Scores by player count"),
            _columns(EDITION, PLAYERS, GAMES, MEAN_SCORE, SD, MIN, MEDIAN, MAX, N_("Mean winning score"),
                     N_("SD (winning)")),
            tuple(
                (r.edition, str(r.players), str(r.games), fmt_number(r.score.mean), fmt_number(r.score.sd),
                 _whole(r.score.min), _whole(r.score.median), _whole(r.score.max),
                 fmt_number(r.winning_score.mean), fmt_number(r.winning_score.sd))
                for r in report.by_players
            ),
            "lrrrrrrrrr",
            _("Every seat's final score; the winning score is the winner's total in each game."),
        ),
        TextTable(
            _("Scores by bot"),
            _columns(EDITION, PLAYERS, BOT, GAMES, MEAN_SCORE, SD, MIN, MEDIAN, MAX, WIN_RATE),
            tuple(
                (r.edition, str(r.players), r.bot, str(r.games), fmt_number(r.score.mean),
                 fmt_number(r.score.sd), _whole(r.score.min), _whole(r.score.median), _whole(r.score.max),
                 fmt_percent(r.win_rate))
                for r in report.by_bot
            ),
            "lrlrrrrrrr",
            _("Games counts the seats a bot played; a win shared by k seats counts 1/k."),
        ),
    ]
    for edition, categories in report.categories.items():
        rows = [r for r in report.points if r.edition == edition]
        tables.append(
            TextTable(
                # TRANSLATORS: a table's title; {edition}: base or party (as in the files)
                _("Points per card type ({edition})", edition=edition),
                (_(CATEGORY), *(r.bot for r in rows)),
                (
                    *((c, *(f"{r.means[c]:.2f} ({fmt_percent(r.share(c))})" for r in rows)) for c in categories),
                    # TRANSLATORS: the last rows of the table of points per card type, under the categories
                    (_("total"), *(f"{r.total:.2f}" for r in rows)),
                    (_("games"), *(str(r.games) for r in rows)),
                ),
                "l" + "r" * len(rows),
                _("Mean points per game from each scoring category (share of the bot's points); "
                  "games counts the seats a bot played."),
            )
        )
    for edition in report.categories:
        picks = [r for r in report.first_picks if r.edition == edition]
        bots = tuple(dict.fromkeys(r.bot for r in picks))
        cards = tuple(dict.fromkeys(r.card for r in sorted(picks, key=lambda r: card_rank(r.card))))
        cell = {(r.bot, r.card): f"{fmt_percent(r.rate)} ({r.taken}/{r.available})" for r in picks}
        tables.append(
            TextTable(
                # TRANSLATORS: a table's title; {edition}: base or party (as in the files)
                _("First-pick take rate ({edition})", edition=edition),
                (_(CARD), *bots),
                tuple((card, *(cell.get((b, card), "-") for b in bots)) for card in cards),
                "l" + "r" * len(bots),
                _("How often a seat takes the card with its first pick of a round when its dealt hand "
                  "holds it (taken/available)."),
            )
        )
    if report.budgets:
        tables.append(
            TextTable(
                _("Win rate by search budget"),
                _columns(EDITION, PLAYERS, BOT, BUDGET, GAMES, WINS, WIN_RATE, N_("95% interval"), N_("Even share")),
                tuple(
                    (r.edition, str(r.players), r.group, fmt_budget(r.kind, r.value), str(r.games),
                     _whole(r.wins), fmt_percent(r.win_rate),
                     f"{fmt_percent(r.interval[0])} - {fmt_percent(r.interval[1])}", fmt_percent(r.chance))
                    for r in report.budgets
                ),
                "lrllrrrrr",
                _("Shared wins count 1/k; Wilson score interval; even share: the mean of 1/players."),
            )
        )
    return tables


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(tables: Sequence[TextTable]) -> str:
    """GitHub markdown: a ``###`` heading per table, the table, then its note in italics."""
    parts = []
    for t in tables:
        lines = [f"### {t.title}", ""]
        lines.append("| " + " | ".join(_cell(c) for c in t.columns) + " |")
        lines.append("| " + " | ".join(":---" if a == "l" else "---:" for a in t.align) + " |")
        lines.extend("| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows)
        if t.note:
            lines.extend(["", f"*{t.note}*"])
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
