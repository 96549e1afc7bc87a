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
from sushigo.tournament.results import BotSummary, TournamentResult, TournamentSummary, plain_number, summarize

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["BotSummary", "TournamentSummary", "describe", "render", "summarize"]


# ------------------------------------------------------------- the table


def describe(result: TournamentResult) -> str:
    """One line saying what was played."""
    n = len(result.specs)
    rules = result.rules
    what = edition_for(rules).describe(rules)
    games = len(result.games)
    deals = "duplicate deals" if result.duplicate else "a fresh deal per game"
    sets = -(-games // n)
    return (f"{games} games of {what}, {n} players, seats rotating in {sets} set(s) of {n}, "
            f"{deals}; seed {result.seed}")


def render(result: TournamentResult, console: Console, summary: TournamentSummary | None = None) -> None:
    """Print the human summary: what was played, the table, incidents, notes."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    summary = summary if summary is not None else result.summary()
    console.print(Text("Tournament: " + describe(result), style="bold"))
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    for header, justify in (("bot", "left"), ("games", "right"), ("wins", "right"),
                            ("win % (CI)", "right"), ("score (CI)", "right"),
                            ("rank", "right"), ("rating", "right"), ("μ", "right"), ("σ", "right")):
        table.add_column(header, justify=justify, no_wrap=header != "bot",  # type: ignore[arg-type]
                         overflow="fold", min_width=10 if header == "bot" else None)
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
            f"Note: {len(result.games)} games is not a multiple of {n}, so the last set is cut short "
            "and seats are not perfectly balanced.", style="yellow"))
    if summary.incidents:
        console.print(Text("External-bot incidents:", style="bold"))
        for b in summary.bots:
            if b.incidents:
                counts = ", ".join(f"{kind} x{count}" for kind, count in b.incidents.items())
                console.print(Text(f"  {b.name}: {counts}"))
        examples: dict[tuple[object, object], dict[str, Any]] = {}
        for i in summary.incidents:  # the first of each kind of each bot, three at most
            examples.setdefault((i.get("bot"), i.get("kind")), i)
        for i in list(examples.values())[:3]:
            where = ", ".join(f"{key} {i[key]}" for key in ("round", "turn", "seat") if i.get(key) is not None)
            game = i.get("game_index", i.get("game"))
            console.print(Text(f"  e.g. {i.get('name')}, game {game}{', ' + where if where else ''}: "
                               f"{i.get('kind', 'incident')}: {i.get('detail', '')}"))
    speed = len(result.games) / result.seconds if result.seconds > 0 else float("inf")
    where = "in this process" if result.backend == "local" and result.workers <= 1 else (
        f"on {result.workers} {'local worker(s)' if result.backend == 'local' else 'Ray CPU(s)'}")
    console.print(Text(f"CI: 95% (Wilson for win %). Rank: mean place (1 = first, ties shared). Rating: openskill "
                       f"Plackett-Luce μ - 3σ over every game's ranking, in game order. "
                       f"Played in {result.seconds:.1f} s ({speed:.1f} games/s) {where}.", style="dim"))
