"""Playing a tournament's games: one scheduled game (:func:`play_scheduled`)
and one task's worth of them (:func:`play_chunk`), the same on every backend.

Built-in bots are made afresh for each game with ``make_bot(spec, seed)``;
external ``cmd:`` bots are kept alive per worker process (one program serves
many games), reseeded before each game, and closed when the worker ends.
"""

from __future__ import annotations

import atexit
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sushigo.bots import EXTERNAL_PREFIX, Bot, Player, make_bot, play_game
from sushigo.engine.editions import edition_for, to_record
from sushigo.engine.rules import Rules
from sushigo.i18n import _l
from sushigo.tournament.ratings import rank_seats
from sushigo.tournament.results import GameResult
from sushigo.tournament.schedule import ScheduledGame, derive_seed, one_line


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an external program (``cmd:COMMAND``)."""
    return spec.strip().lower().startswith(EXTERNAL_PREFIX)


_EXTERNAL_BOTS: dict[tuple[str, float | None, int], Bot] = {}
"""This process's live external bots, by (spec, time limit, listed index).  A
bot is made with a seed derived from the tournament seed and its index (the
program sees it as ``SUSHIGO_BOT_SEED``) and reseeded before every game."""
_closer_registered = False


def _external_bot(spec: str, time_limit: float | None, bot: int, seed: int) -> Bot:
    global _closer_registered
    key = (spec, time_limit, bot)
    found = _EXTERNAL_BOTS.get(key)
    if found is None:
        if not _closer_registered:
            # atexit for the main process and Ray workers; multiprocessing's
            # finalizers for pool workers, which leave with os._exit.
            from multiprocessing import util

            atexit.register(close_external_bots)
            util.Finalize(None, close_external_bots, exitpriority=10)
            _closer_registered = True
        found = _EXTERNAL_BOTS[key] = make_bot(spec, seed, timeout=time_limit)
    return found


def close_external_bots() -> None:
    """Close the external bots this process keeps (called when a worker ends)."""
    while _EXTERNAL_BOTS:
        _, bot = _EXTERNAL_BOTS.popitem()
        try:
            bot.close()
        except Exception:
            pass


def _incident_json(incident: Any, game: int, bot: int, spec: str) -> dict[str, Any]:
    to_json = getattr(incident, "to_json", None)
    if callable(to_json):
        fields = dict(to_json())
    elif dataclasses.is_dataclass(incident) and not isinstance(incident, type):
        fields = dataclasses.asdict(incident)
    elif isinstance(incident, dict):
        fields = dict(incident)
    else:
        fields = {"kind": "incident", "detail": str(incident)}
    out: dict[str, Any] = {"game_index": game, "bot": bot, "name": spec}
    for key, value in fields.items():
        plain = value is None or isinstance(value, (bool, int, float, str))
        out.setdefault(str(key), value if plain else str(value))
    return out


def play_scheduled(
    game: ScheduledGame, rules: Rules, *, time_limit: float | None = None, keep_record: bool = True
) -> GameResult:
    """Play one scheduled game and return its result (the same on every backend)."""
    bots: list[Bot] = []
    fresh: list[Bot] = []
    try:
        for spec, k, seed in zip(game.seats, game.bot_index, game.bot_seeds):
            if is_external(spec):
                bot = _external_bot(spec, time_limit, k, derive_seed(game.tournament_seed, "external", k))
                bot.rng.seed(seed)
            else:
                bot = make_bot(spec, seed, timeout=time_limit)
                fresh.append(bot)
            bots.append(bot)
        marks = [len(getattr(b, "incidents", ())) for b in bots]
        # cast: mypy doesn't match Bot's ClassVar ``name`` with Player's attribute.
        played = play_game(cast("list[Player]", bots), seed=game.deal_seed, rules=rules, game_id=game.game_id)
    finally:
        for bot in fresh:
            bot.close()
    result = played.result()
    tiebreak = edition_for(played).tiebreak(result)
    incidents = tuple(
        _incident_json(incident, game.game, k, spec)
        for bot, mark, k, spec in zip(bots, marks, game.bot_index, game.seats)
        for incident in list(getattr(bot, "incidents", ()))[mark:]
    )
    record = None
    if keep_record:
        meta = {
            "bots": list(game.seats),
            "names": list(game.seats),
            "bot_seeds": list(game.bot_seeds),
            "tournament": {"seed": game.tournament_seed, "game": game.game, "set": game.set},
        }
        record = to_record(played, meta=meta)
    return GameResult(
        game=game.game,
        set=game.set,
        deal_seed=game.deal_seed,
        seats=game.seats,
        bot_index=game.bot_index,
        bot_seeds=game.bot_seeds,
        totals=tuple(result.totals),
        winners=tuple(result.winners),
        ranks=rank_seats(result.totals, tiebreak),
        incidents=incidents,
        record=record,
    )


@dataclass(frozen=True, slots=True)
class ChunkOutcome:
    """What one task sends back: its games, or the one-line error that stopped it."""

    results: list[GameResult]
    error: str | None = None


def play_chunk(
    games: Sequence[ScheduledGame], rules: Rules, time_limit: float | None, keep_records: bool
) -> ChunkOutcome:
    """Play ``games`` in order (one task of a backend); errors come back as text."""
    results = []
    for game in games:
        try:
            results.append(play_scheduled(game, rules, time_limit=time_limit, keep_record=keep_records))
        except Exception as e:
            # TRANSLATORS: {game}: the game's number; {seats}: its bots' specs; {why}: the error that stopped it
            return ChunkOutcome(results, _l("game {game} ({seats}): {why}", game=str(game.game),
                                            seats=", ".join(game.seats), why=one_line(e) or type(e).__name__))
    return ChunkOutcome(results)
