"""A tournament's summary for people: what was played, the table of bots, incidents.

The numbers come from :func:`~sushigo.tournament.results.summarize`.

>>> from sushigo.tournament import run_tournament
>>> summary = run_tournament(["greedy", "random"], games=4, seed=3, workers=1,
...                          keep_records=False).summary()
>>> [(b.name, b.games) for b in summary.bots]
[('greedy', 4), ('random', 4)]
>>> sum(b.wins for b in summary.bots)
4.0
>>> list(summary.to_json()["bots"][0])[:5]
['name', 'games', 'wins', 'win_rate', 'mean_score']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sushigo.engine.editions import edition_for
from sushigo.engine.messages import N_
from sushigo.i18n import _, say
from sushigo.tournament.results import BotSummary, TournamentResult, TournamentSummary, plain_number, summarize

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["BotSummary", "TournamentSummary", "describe", "render", "summarize"]


# ------------------------------------------------------------- the table


COLUMNS = (
    # TRANSLATORS: the columns of `sushigo tournament`'s table: the bot, its games, its wins, its win
    # percentage (95% confidence interval), its mean score (confidence interval), its mean place, its rating
    # and openskill's μ and σ (symbols, kept as they are)
    (N_("bot"), "left"), (N_("games"), "right"), (N_("wins"), "right"), (N_("win % (CI)"), "right"),
    (N_("score (CI)"), "right"), (N_("rank"), "right"), (N_("rating"), "right"), ("μ", "right"), ("σ", "right"),
)
"""The table's columns (message ids, but the symbols ``μ`` and ``σ``) and how each is aligned."""


def describe(result: TournamentResult) -> str:
    """One line saying what was played (in this context's language)."""
    n = len(result.specs)
    games = len(result.games)
    deals = _("duplicate deals") if result.duplicate else _("a fresh deal per game")
    sets = -(-games // n)
    what = say(edition_for(result.rules).described(result.rules))  # the game, in a few words
    # TRANSLATORS: what a tournament played; {what}: the game ("Sushi Go! (pass both ways)"); {deals}: "duplicate
    # deals" or "a fresh deal per game"; the numbers are digits as programs read them
    return _("{games} games of {what}, {players} players, seats rotating in {sets} set(s) of {players}, {deals}; "
             "seed {seed}", games=str(games), what=what, players=str(n), sets=str(sets),
             deals=deals, seed=str(result.seed))


PLACES = {
    # TRANSLATORS: where an incident happened, after its game ("game 0, round 1, turn 3, seat 1")
    "round": N_(", round {value}"), "turn": N_(", turn {value}"), "seat": N_(", seat {value}"),
}
"""Where an incident happened (message ids, each with its ``, ``)."""


def render(result: TournamentResult, console: Console, summary: TournamentSummary | None = None) -> None:
    """Print the human summary: what was played, the table, incidents, notes."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    summary = summary if summary is not None else result.summary()
    # TRANSLATORS: the heading of a tournament's summary; {what}: what was played ("5 games of Sushi Go!, ...")
    console.print(Text(_("Tournament: {what}", what=describe(result)), style="bold"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    for header, justify in COLUMNS:
        bot = header == "bot"
        table.add_column(Text(_(header) if header not in ("μ", "σ") else header), justify=justify,  # type: ignore[arg-type]
                         no_wrap=not bot, overflow="fold", min_width=10 if bot else None)
    best = max(b.rating.ordinal for b in summary.bots)
    for b in summary.bots:
        lo, hi = b.win_rate_ci
        score = f"{b.mean_score:.1f}"
        if b.mean_score_ci is not None:
            score += f" ± {(b.mean_score_ci[1] - b.mean_score_ci[0]) / 2:.1f}"
        table.add_row(
            Text(b.name, style="bold" if b.rating.ordinal == best else ""),
            str(b.games),
            f"{plain_number(round(b.wins, 2))}",
            f"{100 * b.win_rate:.1f} ({100 * lo:.0f}-{100 * hi:.0f})",
            score,
            f"{b.mean_rank:.2f}",
            f"{b.rating.ordinal:.1f}",
            f"{b.rating.mu:.1f}",
            f"{b.rating.sigma:.1f}",
        )
    console.print(table)
    n = len(result.specs)
    if len(result.games) % n:
        console.print(Text(
            _("Note: {games} games is not a multiple of {players}, so the last set is cut short and seats are not "
              "perfectly balanced.", games=str(len(result.games)), players=str(n)), style="yellow"))
    if summary.incidents:
        console.print(Text(_("External-bot incidents:"), style="bold"))
        for b in summary.bots:
            if b.incidents:
                # the incidents' kinds are the bot protocol's words (docs/bot-protocol.md), as in summary.json
                counts = ", ".join(f"{kind} x{count}" for kind, count in b.incidents.items())
                console.print(Text(f"  {b.name}: {counts}"))
        examples: dict[tuple[object, object], dict[str, Any]] = {}
        for i in summary.incidents:  # the first of each kind of each bot, three at most
            examples.setdefault((i.get("bot"), i.get("kind")), i)
        for i in list(examples.values())[:3]:
            where = "".join(_(PLACES[key], value=str(i[key])) for key in PLACES if i.get(key) is not None)
            game = i.get("game_index", i.get("game"))
            # TRANSLATORS: an example of an external bot's incidents; {bot}: its spec; {where}: ", round 1, turn 3,
            # seat 1" (or nothing); {kind}: the incident's kind and {detail} what happened (the bot protocol's
            # words, in English)
            console.print(Text("  " + _("e.g. {bot}, game {game}{where}: {kind}: {detail}", bot=str(i.get("name")),
                                        game=str(game), where=where, kind=str(i.get("kind", "incident")),
                                        detail=str(i.get("detail", "")))))
    speed = len(result.games) / result.seconds if result.seconds > 0 else float("inf")
    if result.backend == "local" and result.workers <= 1:
        where = _("in this process")
    elif result.backend == "local":
        where = _("on {workers} local worker(s)", workers=str(result.workers))
    else:
        where = _("on {workers} Ray CPU(s)", workers=str(result.workers))
    # TRANSLATORS: the notes under a tournament's table (CI, Rank, Rating: its columns); {where}: "in this process"
    # or "on 4 local worker(s)"; the numbers are digits as programs read them
    console.print(Text(_("CI: 95% (Wilson for win %). Rank: mean place (1 = first, ties shared). Rating: openskill "
                         "Plackett-Luce μ - 3σ over every game's ranking, in game order. Played in {seconds} s "
                         "({speed} games/s) {where}.", seconds=format(result.seconds, ".1f"),
                         speed=format(speed, ".1f"),
                         where=where), style="dim"))
