"""Statistics over tournament results (``games.jsonl``, one game per line).

:func:`read_games` reads the lines ``sushigo tournament --out DIR`` writes
and checks them; :func:`compute` turns them into a :class:`Report`: score
distributions by player count and bot, mean points per scoring category,
first-pick take rates per card, and win rate against search budget with
Wilson intervals.  Everything here is pure and uses the standard library
only; :mod:`sushigo.stats.tables` formats a report, :mod:`sushigo.stats.plots`
draws it (matplotlib) and :mod:`sushigo.cli.stats` is ``sushigo stats``.

>>> summarize([30, 41, 35])
Summary(n=3, mean=35.333333333333336, sd=5.507570547286102, min=30, median=35, max=41)
>>> parse_budget("ismcts:iterations=500,c=0.7")
Budget(name='ismcts', kind='iterations', value=500.0, group='ismcts c=0.7')
>>> [round(x, 4) for x in wilson_interval(5, 10)]
[0.2366, 0.7634]
"""

from __future__ import annotations

import math
import os
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from sushigo.engine.base.cards import CARD_NAMES
from sushigo.engine.party.cards import PartyCard
from sushigo.i18n import _l, message_of
from sushigo.tournament.lines import EDITIONS, GAMES_FILE, LineError, check_line, read_lines
from sushigo.tournament.lines import kind_of as _kind
from sushigo.tournament.ratings import wilson_interval

BUDGET_KINDS: Final = ("time", "iterations")
"""Bot settings that set a search budget: seconds per decision, or iterations."""

_NUMBERED: Final = re.compile(r"(chopsticks|spoon|menu|takeout_box)\d+")


class StatsError(ValueError):
    """Unusable input; the one-line message names the file and line."""


# ------------------------------------------------------------------ the data


class FirstPick(NamedTuple):
    """One seat's first pick of a round: the card types in the dealt hand and the one taken."""

    round: int
    seat: int
    hand: frozenset[str]
    taken: str


class Budget(NamedTuple):
    """The search budget of a bot spec (see :func:`parse_budget`)."""

    name: str
    kind: str
    value: float
    group: str
    """The bot name with its other settings: what stays fixed while the budget varies."""


@dataclass(frozen=True, slots=True)
class GameLine:
    """What the statistics need from one line of ``games.jsonl``."""

    source: str
    """``FILE:LINE`` of the line."""
    game: int
    edition: str
    players: int
    seats: tuple[str, ...]
    """The bot spec at each seat, e.g. ``'greedy'`` or ``'ismcts:time=0.2'``."""
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[dict[str, int], ...] | None
    """Each seat's points per scoring category over the whole game (they sum to
    its total); ``None`` for a game saved without its record."""
    first_picks: tuple[FirstPick, ...]
    """Empty for a game saved without its record."""


def card_type(name: str) -> str:
    """The card type a record's card name (or Party pick) stands for.

    Numbered Party specials count as one type; a special order counts as
    itself, whatever it copies.

    >>> card_type("maki2"), card_type("takeout_box11"), card_type("special_order>egg")
    ('maki2', 'takeout_box', 'special_order')
    """
    name = name.partition(">")[0]
    match = _NUMBERED.fullmatch(name)
    return match.group(1) if match else name


def _card_order() -> dict[str, int]:
    order: dict[str, int] = {}
    for name in (*CARD_NAMES, *(c.name_in_records for c in PartyCard)):
        order.setdefault(card_type(name), len(order))
    return order


CARD_ORDER: Final[dict[str, int]] = _card_order()
"""Display order of card types: the base game's card order, then Party's."""


def card_rank(card: str) -> tuple[int, str]:
    """Sort key of a card type: :data:`CARD_ORDER`, unknown names last."""
    return CARD_ORDER.get(card, len(CARD_ORDER)), card


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def first_picks(record: Mapping[str, Any], players: int) -> list[FirstPick]:
    """Every seat's first pick of every round of a game record.

    A seat's first pick is the first card it reveals on turn 1 (``turns[0]``);
    in Party the first move of a seat is always its pick.

    >>> rnd = {"hands": [["egg", "squid", "egg"], ["maki1", "squid", "tempura"]],
    ...        "turns": [[["squid"], ["tempura"]]]}
    >>> [(p.seat, sorted(p.hand), p.taken) for p in first_picks({"rounds": [rnd]}, 2)]
    [(0, ['egg', 'squid'], 'squid'), (1, ['maki1', 'squid', 'tempura'], 'tempura')]
    """
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise StatsError(_l("record: 'rounds' must be a list, not {kind}", kind=_kind(rounds)))
    picks: list[FirstPick] = []
    for r, rnd in enumerate(rounds, start=1):
        if not isinstance(rnd, dict):
            raise StatsError(_l("record, round {round}: a round must be an object, not {kind}", round=str(r),
                                kind=_kind(rnd)))
        hands, turns = rnd.get("hands"), rnd.get("turns")
        if not isinstance(hands, list) or len(hands) != players:
            raise StatsError(_l("record, round {round}: 'hands' must be a list of {players} hands", round=str(r),
                                players=players))
        if not isinstance(turns, list) or not turns:
            raise StatsError(_l("record, round {round}: 'turns' must be a list with at least one turn", round=str(r)))
        first = turns[0]
        if not isinstance(first, list) or len(first) != players:
            raise StatsError(_l("record, round {round}, turn 1: expected one entry per seat ({players})", round=str(r),
                                players=players))
        for s in range(players):
            hand, pick = hands[s], first[s]
            if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
                raise StatsError(_l("record, round {round}, hand of seat {seat}: must be a list of card names",
                                    round=str(r), seat=s))
            if not isinstance(pick, list) or not pick or not isinstance(pick[0], str):
                raise StatsError(_l("record, round {round}, turn 1, seat {seat}: must be a list of card names",
                                    round=str(r), seat=s))
            picks.append(FirstPick(r, s, frozenset(card_type(c) for c in hand), card_type(pick[0])))
    return picks


def category_points(result: Mapping[str, Any], players: int) -> list[dict[str, int]]:
    """Each seat's points per category over a game, from a record's ``result``.

    Round categories come from ``breakdown``; the end-of-game points are
    ``pudding`` (base game) or each dessert of ``desserts`` (Party).

    >>> result = {"breakdown": [[{"tempura": 5, "maki": 6}, {"tempura": 0, "maki": 3}],
    ...                         [{"tempura": 0, "maki": 3}, {"tempura": 5, "maki": 6}]],
    ...           "pudding": [6, 0]}
    >>> category_points(result, 2)
    [{'tempura': 5, 'maki': 9, 'pudding': 6}, {'tempura': 5, 'maki': 9, 'pudding': 0}]
    """
    breakdown = result.get("breakdown")
    if not isinstance(breakdown, list):
        raise StatsError(_l("record result: 'breakdown' must be a list of rounds, not {kind}", kind=_kind(breakdown)))
    points: list[dict[str, int]] = [{} for _ in range(players)]

    def add(s: int, line: Any, where: str) -> None:
        if not isinstance(line, dict):
            # TRANSLATORS: {where}: the place in the record, as "record result, breakdown round 2, seat 1"
            raise StatsError(_l("{where}: expected an object of points per category, not {kind}", where=where,
                                kind=_kind(line)))
        for cat, value in line.items():
            if not _is_int(value):
                # TRANSLATORS: {where}: the place in the record, as "record result, breakdown round 2, seat 1";
                # {key}: a scoring category's key, such as 'maki'
                raise StatsError(_l("{where}: {key} must be a whole number, not {kind}", where=where, key=repr(cat),
                                    kind=_kind(value)))
            points[s][cat] = points[s].get(cat, 0) + value

    for r, rnd in enumerate(breakdown, start=1):
        if not isinstance(rnd, list) or len(rnd) != players:
            raise StatsError(_l("record result, breakdown round {round}: expected one object per seat ({players})",
                                round=str(r), players=players))
        for s, line in enumerate(rnd):
            add(s, line, _l("record result, breakdown round {round}, seat {seat}", round=str(r), seat=s))
    desserts = result.get("desserts")
    if isinstance(desserts, list) and len(desserts) == players:
        for s, line in enumerate(desserts):
            add(s, line, _l("record result, desserts, seat {seat}", seat=s))
    else:
        pudding = result.get("pudding")
        if not isinstance(pudding, list) or len(pudding) != players:
            raise StatsError(_l("record result: 'pudding' must be a list of {players} whole numbers", players=players))
        for s, value in enumerate(pudding):
            add(s, {"pudding": value}, _l("record result, pudding, seat {seat}", seat=s))
    return points


def _result_with_breakdown(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record's result; replayed from the moves when it lacks a breakdown."""
    result = record.get("result")
    if isinstance(result, dict) and "breakdown" in result:
        return result
    from sushigo.engine.editions import replay
    from sushigo.engine.records import RecordError

    try:
        return replay(record).result().to_json()
    except RecordError as e:
        raise StatsError(_l("record (replayed for its score breakdown): {why}", why=message_of(e))) from None


def parse_line(data: Any, source: str = "<line>") -> GameLine:
    """Check one decoded line of ``games.jsonl`` and keep what the statistics need.

    Raises :class:`StatsError` prefixed with ``source``.
    """
    try:
        return _parse_line(data, source)
    except StatsError as e:
        # TRANSLATORS: {source}: a file and line (FILE:LINE); {why}: what is wrong there
        raise StatsError(_l("{source}: {why}", source=source, why=message_of(e))) from None


def _parse_line(data: Any, source: str) -> GameLine:
    try:
        check_line(data)  # the schema the tournament writes (sushigo.tournament.lines)
    except LineError as e:
        raise StatsError(message_of(e)) from None
    game, edition, players = data["game"], data["edition"], data["players"]
    seats, totals, winners = data["seats"], data["totals"], data["winners"]
    record = data["record"]
    points: list[dict[str, int]] | None = None
    picks: list[FirstPick] = []
    if record is not None:  # null: a tournament run that did not keep records
        if record.get("players", players) != players:
            # TRANSLATORS: {record}: the record's player count (as it is written there); {players}: the line's
            raise StatsError(_l("the record is for {record} players, the line says {players}",
                                record=repr(record.get("players")), players=players))
        result = _result_with_breakdown(record)
        if "totals" in result and result["totals"] != totals:
            raise StatsError(_l("'totals' {totals} differ from the record's result {result}", totals=str(totals),
                                result=str(result["totals"])))
        points = category_points(result, players)
        for s, seat_points in enumerate(points):
            if sum(seat_points.values()) != totals[s]:
                raise StatsError(_l("the record's score breakdown gives seat {seat} {points} points, "
                                    "but its total is {total}",
                                    seat=s, points=str(sum(seat_points.values())), total=str(totals[s])))
        picks = first_picks(record, players)
    return GameLine(
        source=source,
        game=game,
        edition=edition,
        players=players,
        seats=tuple(seats),
        totals=tuple(totals),
        winners=tuple(sorted(winners)),
        points=None if points is None else tuple(points),
        first_picks=tuple(picks),
    )


def games_file(path: str) -> str:
    """``path`` itself, or ``path/games.jsonl`` when ``path`` is a folder."""
    if os.path.isdir(path):
        inner = os.path.join(path, GAMES_FILE)
        if not os.path.isfile(inner):
            # TRANSLATORS: {path}: a folder; {file}: the results file's name (games.jsonl)
            raise StatsError(_l("{path}: no {file} in this folder", path=path, file=GAMES_FILE))
        return inner
    return path


def read_games(paths: Iterable[str]) -> list[GameLine]:
    """Read and check every game line of ``paths`` (files, or folders holding ``games.jsonl``).

    Blank lines are skipped, and a file named twice is read once.  Raises
    :class:`StatsError` naming the file and line for anything unusable, and
    for a file without games.
    """
    games: list[GameLine] = []
    seen: set[str] = set()
    for path in paths:
        file = games_file(path)
        if os.path.realpath(file) in seen:
            continue
        seen.add(os.path.realpath(file))
        count = 0
        try:
            for source, data in read_lines(file):
                games.append(parse_line(data, source))
                count += 1
        except LineError as e:
            raise StatsError(message_of(e)) from None
        except FileNotFoundError:
            raise StatsError(_l("{file}: no such file", file=file)) from None
        except IsADirectoryError:
            raise StatsError(_l("{file}: it is a directory", file=file)) from None
        except PermissionError:
            raise StatsError(_l("{file}: permission denied", file=file)) from None
        except OSError as e:
            # TRANSLATORS: {why}: the system's reason
            raise StatsError(_l("{file}: cannot read it: {why}", file=file, why=e.strerror or str(e))) from None
        if not count:
            raise StatsError(_l("{file}: no games in this file", file=file))
    return games


# ------------------------------------------------------------ the statistics


class Summary(NamedTuple):
    """Count, mean, sample standard deviation (``None`` for one value), min, median, max."""

    n: int
    mean: float
    sd: float | None
    min: float
    median: float
    max: float

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def summarize(values: Sequence[float]) -> Summary:
    """The :class:`Summary` of a non-empty sequence of numbers."""
    return Summary(
        n=len(values),
        mean=statistics.fmean(values),
        sd=statistics.stdev(values) if len(values) > 1 else None,
        min=min(values),
        median=statistics.median(values),
        max=max(values),
    )


def parse_budget(spec: str) -> Budget | None:
    """The search budget of a bot spec (``name:key=value,...``), or ``None``.

    ``time`` (seconds per decision) or ``iterations`` is the budget; the
    other settings name the group.  External bots (``cmd:...``) have none.

    >>> parse_budget("ismcts:time=0.2")
    Budget(name='ismcts', kind='time', value=0.2, group='ismcts')
    >>> parse_budget("greedy") is None, parse_budget("cmd:bot --time=1") is None
    (True, True)
    """
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name == "cmd" or not rest:
        return None
    budget: tuple[str, float] | None = None
    others: list[str] = []
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, _, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key in BUDGET_KINDS and budget is None:
            try:
                number = float(value)
            except ValueError:
                return None
            if not math.isfinite(number) or number <= 0:
                return None
            budget = (key, number)
        else:
            others.append(f"{key}={value}")
    if budget is None:
        return None
    return Budget(name, budget[0], budget[1], " ".join([name, *sorted(others)]))


@dataclass(frozen=True, slots=True)
class PlayerCountRow:
    """Scores of every seat of the games with one player count."""

    edition: str
    players: int
    games: int
    score: Summary
    winning_score: Summary
    """The winner's total per game (shared winners have the same total)."""


@dataclass(frozen=True, slots=True)
class BotScoreRow:
    """Scores of one bot at one player count.  ``games`` counts seats played."""

    edition: str
    players: int
    bot: str
    games: int
    score: Summary
    wins: float
    """Games won; a win shared by ``k`` seats counts ``1/k``."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


@dataclass(frozen=True, slots=True)
class CategoryRow:
    """A bot's mean points per game from each scoring category (all player counts)."""

    edition: str
    bot: str
    games: int
    means: dict[str, float]

    @property
    def total(self) -> float:
        """Mean total score per game (the categories' means add up to it)."""
        return sum(self.means.values())

    def share(self, category: str) -> float | None:
        """The category's share of the bot's points (``None`` when its total is not positive)."""
        total = self.total
        return self.means.get(category, 0.0) / total if total > 0 else None


@dataclass(frozen=True, slots=True)
class FirstPickRow:
    """How often a bot takes a card type with its first pick of a round when it is in the hand."""

    edition: str
    bot: str
    card: str
    available: int
    """Seat-rounds whose dealt hand held the card."""
    taken: int
    """Of those, how many first picks took it."""

    @property
    def rate(self) -> float:
        return self.taken / self.available


@dataclass(frozen=True, slots=True)
class BudgetRow:
    """Win rate of one bot at one search budget, at one kind of table, with its 95% Wilson interval."""

    edition: str
    players: int
    group: str
    name: str
    kind: str
    value: float
    games: int
    wins: float
    chance: float
    """The win rate of an even share of the tables it played (mean of ``1/players``)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass(frozen=True, slots=True)
class Report:
    """Every statistic of :func:`compute`, ready to print, plot or dump as JSON."""

    games: int
    sources: tuple[str, ...]
    bots: tuple[str, ...]
    """Bot specs in order of first appearance."""
    by_players: tuple[PlayerCountRow, ...]
    by_bot: tuple[BotScoreRow, ...]
    categories: dict[str, tuple[str, ...]]
    """Scoring categories per edition, in order of first appearance."""
    points: tuple[CategoryRow, ...]
    first_picks: tuple[FirstPickRow, ...]
    budgets: tuple[BudgetRow, ...]
    scores: dict[tuple[str, int, str], tuple[int, ...]] = field(default_factory=dict)
    """Every final score per (edition, players, bot), for plots; not in :meth:`to_json`."""
    plots: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON-ready object (see ``docs/statistics.md``)."""
        return {
            "games": self.games,
            "inputs": list(self.sources),
            "bots": list(self.bots),
            "scores_by_players": [
                {"edition": r.edition, "players": r.players, "games": r.games,
                 "score": r.score.to_json(), "winning_score": r.winning_score.to_json()}
                for r in self.by_players
            ],
            "scores_by_bot": [
                {"edition": r.edition, "players": r.players, "bot": r.bot, "games": r.games,
                 "score": r.score.to_json(), "wins": r.wins, "win_rate": r.win_rate}
                for r in self.by_bot
            ],
            "points_by_category": [
                {"edition": r.edition, "bot": r.bot, "games": r.games, "total": r.total,
                 "categories": {c: {"mean": r.means[c], "share": r.share(c)}
                                for c in self.categories[r.edition]}}
                for r in self.points
            ],
            "first_picks": [
                {"edition": r.edition, "bot": r.bot, "card": r.card,
                 "available": r.available, "taken": r.taken, "rate": r.rate}
                for r in self.first_picks
            ],
            "win_rate_by_budget": [
                {"edition": r.edition, "players": r.players,
                 "bot": r.group, "name": r.name, "kind": r.kind, "value": r.value, "games": r.games,
                 "wins": r.wins, "win_rate": r.win_rate, "low": r.interval[0], "high": r.interval[1],
                 "chance": r.chance}
                for r in self.budgets
            ],
            "plots": list(self.plots),
        }


def compute(games: Sequence[GameLine]) -> Report:
    """All the statistics of a list of games (see the module docstring)."""
    bots: dict[str, None] = {}
    for g in games:
        bots.update(dict.fromkeys(g.seats))
    bot_rank = {b: i for i, b in enumerate(bots)}
    edition_rank = {e: i for i, e in enumerate(EDITIONS)}

    scores: dict[tuple[str, int], list[int]] = {}
    winning: dict[tuple[str, int], list[int]] = {}
    bot_scores: dict[tuple[str, int, str], list[int]] = {}
    bot_wins: dict[tuple[str, int, str], float] = {}
    categories: dict[str, dict[str, None]] = {}
    cat_sums: dict[tuple[str, str], dict[str, int]] = {}
    cat_games: dict[tuple[str, str], int] = {}
    available: dict[tuple[str, str, str], int] = {}
    taken: dict[tuple[str, str, str], int] = {}
    # (edition, players, group, kind, value) -> [games, wins, sum 1/players]
    budget_games: dict[tuple[str, int, str, str, float], list[float]] = {}
    budget_names: dict[str, str] = {}

    for g in games:
        key = (g.edition, g.players)
        scores.setdefault(key, []).extend(g.totals)
        winning.setdefault(key, []).append(g.totals[g.winners[0]])
        for s, bot in enumerate(g.seats):
            won = 1 / len(g.winners) if s in g.winners else 0.0
            bkey = (g.edition, g.players, bot)
            bot_scores.setdefault(bkey, []).append(g.totals[s])
            bot_wins[bkey] = bot_wins.get(bkey, 0.0) + won
            if g.points is not None:
                ckey = (g.edition, bot)
                cat_games[ckey] = cat_games.get(ckey, 0) + 1
                sums = cat_sums.setdefault(ckey, {})
                cats = categories.setdefault(g.edition, {})
                for cat, value in g.points[s].items():
                    cats.setdefault(cat)
                    sums[cat] = sums.get(cat, 0) + value
            budget = parse_budget(bot)
            if budget is not None:
                budget_names[budget.group] = budget.name
                budget_key = (g.edition, g.players, budget.group, budget.kind, budget.value)
                row = budget_games.setdefault(budget_key, [0, 0.0, 0.0])
                row[0] += 1
                row[1] += won
                row[2] += 1 / g.players
        for pick in g.first_picks:
            bot = g.seats[pick.seat]
            for card in pick.hand:
                akey = (g.edition, bot, card)
                available[akey] = available.get(akey, 0) + 1
                if card == pick.taken:
                    taken[akey] = taken.get(akey, 0) + 1

    category_names = {e: tuple(c) for e, c in sorted(categories.items(), key=lambda kv: edition_rank[kv[0]])}
    return Report(
        games=len(games),
        sources=tuple(dict.fromkeys(g.source.rpartition(":")[0] for g in games)),
        bots=tuple(bots),
        by_players=tuple(
            PlayerCountRow(e, n, len(winning[(e, n)]), summarize(scores[(e, n)]), summarize(winning[(e, n)]))
            for e, n in sorted(scores, key=lambda k: (edition_rank[k[0]], k[1]))
        ),
        by_bot=tuple(
            BotScoreRow(e, n, b, len(v), summarize(v), bot_wins[(e, n, b)])
            for (e, n, b), v in sorted(
                bot_scores.items(), key=lambda kv: (edition_rank[kv[0][0]], kv[0][1], bot_rank[kv[0][2]])
            )
        ),
        categories=category_names,
        points=tuple(
            CategoryRow(e, b, cat_games[(e, b)],
                        {c: cat_sums[(e, b)].get(c, 0) / cat_games[(e, b)] for c in category_names[e]})
            for e, b in sorted(cat_games, key=lambda k: (edition_rank[k[0]], bot_rank[k[1]]))
        ),
        first_picks=tuple(
            FirstPickRow(e, b, c, n, taken.get((e, b, c), 0))
            for (e, b, c), n in sorted(
                available.items(),
                key=lambda kv: (edition_rank[kv[0][0]], bot_rank[kv[0][1]], card_rank(kv[0][2])),
            )
        ),
        budgets=tuple(
            BudgetRow(e, n, group, budget_names[group], kind, value, int(v[0]), v[1], v[2] / v[0])
            for (e, n, group, kind, value), v in sorted(
                budget_games.items(), key=lambda kv: (edition_rank[kv[0][0]], *kv[0][1:])
            )
        ),
        scores={k: tuple(v) for k, v in bot_scores.items()},
    )


__all__ = [
    "BUDGET_KINDS",
    "CARD_ORDER",
    "GAMES_FILE",
    "BotScoreRow",
    "Budget",
    "BudgetRow",
    "CategoryRow",
    "FirstPick",
    "FirstPickRow",
    "GameLine",
    "PlayerCountRow",
    "Report",
    "StatsError",
    "Summary",
    "card_rank",
    "card_type",
    "category_points",
    "compute",
    "first_picks",
    "games_file",
    "parse_budget",
    "parse_line",
    "read_games",
    "summarize",
    "wilson_interval",
]
