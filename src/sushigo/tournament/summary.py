"""What a tournament says about each bot: wins, scores, ranks, ratings, incidents.

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

import statistics
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sushigo.tournament.ratings import Rating, mean_interval, openskill_ratings, wilson_interval

if TYPE_CHECKING:
    from rich.console import Console

    from sushigo.tournament.runner import TournamentResult


@dataclass(frozen=True, slots=True)
class BotSummary:
    """One listed bot's results over the tournament."""

    index: int
    """Its place in the list of bots."""
    name: str
    """Its spec, as listed."""
    games: int
    wins: float
    """Games won, a win shared by ``k`` seats counting ``1/k``."""
    win_rate: float
    win_rate_ci: tuple[float, float]
    """95% Wilson interval of the win rate."""
    mean_score: float
    mean_score_ci: tuple[float, float] | None
    """95% interval of the mean score (normal approximation; ``None`` for one game)."""
    mean_rank: float
    """Mean finishing place, 1 = first; tied seats share the average place."""
    rating: Rating
    """openskill Plackett-Luce rating from every game's ranking, in game order."""
    incidents: dict[str, int] = field(default_factory=dict)
    """External-bot incidents by kind."""

    def to_json(self) -> dict[str, Any]:
        """Its entry in the ``--json`` summary (the first five keys are fixed)."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": _number(self.wins),
            "win_rate": self.win_rate,
            "mean_score": self.mean_score,
            "ci95": {
                "win_rate": list(self.win_rate_ci),
                "mean_score": list(self.mean_score_ci) if self.mean_score_ci is not None else None,
            },
            "mean_rank": self.mean_rank,
            "rating": {"mu": self.rating.mu, "sigma": self.rating.sigma, "ordinal": self.rating.ordinal},
            "incidents": dict(self.incidents),
        }


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """The per-bot summaries (in listed order) and the incidents of a tournament."""

    bots: tuple[BotSummary, ...]
    seed: int
    games: int
    incidents: tuple[dict[str, Any], ...] = ()
    """Every external-bot incident, in game order."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``{"bots": [...], "seed": S, "games": N}``."""
        return {"bots": [b.to_json() for b in self.bots], "seed": self.seed, "games": self.games}


def summarize(result: TournamentResult) -> TournamentSummary:
    """Summarize ``result`` bot by bot (see :class:`BotSummary`)."""
    n = len(result.specs)
    games = result.games
    ratings = openskill_ratings(n, [g.bot_index for g in games], [g.ranks for g in games])
    incidents = tuple(i for g in games for i in g.incidents)
    bots = []
    for k, spec in enumerate(result.specs):
        seats = [g.seat_of(k) for g in games]
        scores = [float(g.totals[s]) for g, s in zip(games, seats)]
        wins = sum((Fraction(1, len(g.winners)) for g, s in zip(games, seats) if s in g.winners), Fraction(0))
        played = len(games)
        kinds = Counter(str(i.get("kind", "incident")) for i in incidents if i.get("bot") == k)
        bots.append(
            BotSummary(
                index=k,
                name=spec,
                games=played,
                wins=float(wins),
                win_rate=float(wins / played) if played else 0.0,
                win_rate_ci=wilson_interval(float(wins), played),
                mean_score=statistics.fmean(scores) if scores else 0.0,
                mean_score_ci=mean_interval(scores),
                mean_rank=statistics.fmean(g.ranks[s] for g, s in zip(games, seats)) if games else 0.0,
                rating=ratings[k],
                incidents=dict(sorted(kinds.items())),
            )
        )
    return TournamentSummary(bots=tuple(bots), seed=result.seed, games=len(games), incidents=incidents)


# ------------------------------------------------------------- the table


def describe(result: TournamentResult) -> str:
    """One line saying what was played."""
    n = len(result.specs)
    rules = result.rules
    if rules.is_party:
        from sushigo.party.menus import menu_name

        name = menu_name(rules.menu)
        what = f"Sushi Go Party! ({name or 'custom menu: ' + ', '.join(rules.menu[1:])})"
    else:
        variants = [o.replace("_", " ") for o, on in rules.options().items() if on]
        what = "Sushi Go!" + (f" ({', '.join(variants)})" if variants else "")
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
            f"{_number(round(b.wins, 2))}",
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
