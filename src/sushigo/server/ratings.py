"""Ratings (docs/server.md, "Ratings"): every rated game updates the ratings
of everyone at its table, once, from its result, with openskill's
Plackett-Luce model (Weng and Lin 2011), per edition.

A rating is a skill ``mu`` with an uncertainty ``sigma``: a new player starts
at openskill's 25 ± 8.33 and moves fast while ``sigma`` is large.  Seats
tied on points and tie-break (a shared win) share a rank.  The built-in bots
are rated on the same scale from rated games against them (a bot seated
twice at one table is not updated by that game), except one, the
**anchor**: the ``random`` bot is held at :data:`ANCHOR_MU` forever, so that a
number means the same tomorrow as today (without an anchor the whole scale
would drift with who plays).  A rating is shown as ``1500 + 60 × (mu - 25)``:
a new player shows 1500, the random bot 1000.

>>> before = [(MU0, SIGMA0), (ANCHOR_MU, ANCHOR_SIGMA)]
>>> (mu, sigma), _ = rate(before, [1.0, 2.0])
>>> mu > MU0 and sigma < SIGMA0, shown(ANCHOR_MU), shown(MU0)
(True, 1000, 1500)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import case, func, literal, or_, select, update
from sqlalchemy.engine import Connection

from sushigo.server.rows import RateGame
from sushigo.server.schema import accounts_t, rating_changes_t, ratings_t

MU0: Final = 25.0
"""A new player's skill (openskill's default)."""
SIGMA0: Final = 25.0 / 3
"""A new player's uncertainty (openskill's default)."""
SCALE: Final = 60.0
"""Points shown per unit of ``mu``."""
SHOWN0: Final = 1500
"""What a new player's rating shows."""
ANCHOR: Final = "bot:random"
"""The player whose rating never moves: the random bot."""
ANCHOR_MU: Final = MU0 - 500 / SCALE
"""The anchor's skill: it shows 1000."""
ANCHOR_SIGMA: Final = 1.0
"""The anchor's uncertainty, as the model is told it (small: it is known)."""
PROVISIONAL: Final = 4.0
"""A rating with more uncertainty than this is provisional (shown with a "?")."""


def shown(mu: float) -> int:
    """The number a rating shows."""
    return round(SHOWN0 + (mu - MU0) * SCALE)


def player_of(kind: str, who: str) -> str:
    """The rated player of a seat: ``account:ID`` for an account's, ``bot:SPEC`` for a bot's."""
    return f"{kind}:{who}"


def rate(before: Sequence[tuple[float, float]], ranks: Sequence[float]) -> list[tuple[float, float]]:
    """Every seat's ``(mu, sigma)`` after a game in which seat ``s`` came ``ranks[s]``
    (1 = first, equal ranks tie), from their ``(mu, sigma)`` before it."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = model.rate(teams, ranks=[float(r) for r in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in after]


def to_json(mu: float, sigma: float, games: int) -> dict[str, object]:
    """A rating as the API shows it."""
    return {"rating": shown(mu), "mu": round(mu, 4), "sigma": round(sigma, 4), "games": games,
            "provisional": sigma > PROVISIONAL}


def rate_game(conn: Connection, op: RateGame) -> None:
    """Apply a rated game to the ratings in ``conn``'s transaction (read, rate, write: on
    PostgreSQL the rows are locked first, so two processes finishing games of one player
    take turns); the anchor keeps its rating.  A game rated before changes nothing again."""
    done = conn.execute(select(func.count()).select_from(rating_changes_t)
                        .where(rating_changes_t.c.table_id == op.table_id)).scalar()
    if done:
        return
    rows = {r.player: r for r in conn.execute(
        select(ratings_t).where(ratings_t.c.player.in_(set(op.players)), ratings_t.c.edition == op.edition)
        .with_for_update())}
    before = []
    for player in op.players:
        if player == ANCHOR:
            before.append((ANCHOR_MU, ANCHOR_SIGMA))
        elif player in rows:
            before.append((rows[player].mu, rows[player].sigma))
        else:
            before.append((MU0, SIGMA0))
    after = rate(before, op.ranks)
    for seat, (player, (mu0, sigma0), (mu1, sigma1)) in enumerate(zip(op.players, before, after)):
        twice = op.players.count(player) > 1  # a bot seated twice learns nothing of itself
        if player == ANCHOR or twice:
            mu1, sigma1 = mu0, sigma0
        conn.execute(rating_changes_t.insert().values(
            table_id=op.table_id, seat=seat, player=player, edition=op.edition, players=len(op.players),
            rank=float(op.ranks[seat]), mu_before=mu0, sigma_before=sigma0, mu_after=mu1, sigma_after=sigma1,
            at=op.at))
        if twice:
            continue  # (the anchor is written with its games counted, at its fixed rating)
        if player in rows:
            conn.execute(update(ratings_t).where(ratings_t.c.player == player, ratings_t.c.edition == op.edition)
                         .values(mu=mu1, sigma=sigma1, games=ratings_t.c.games + 1, updated=op.at))
        else:
            conn.execute(ratings_t.insert().values(player=player, edition=op.edition, mu=mu1, sigma=sigma1,
                                                   games=1, updated=op.at))


def ratings_of(conn: Connection, player: str) -> dict[str, dict[str, Any]]:
    """The player's rating per edition it has played rated games of."""
    return {r.edition: to_json(r.mu, r.sigma, r.games)
            for r in conn.execute(select(ratings_t).where(ratings_t.c.player == player))}


def history_of(conn: Connection, player: str, edition: str) -> list[dict[str, Any]]:
    """The player's rating after each rated game of ``edition``, oldest first."""
    q = (select(rating_changes_t).where(rating_changes_t.c.player == player, rating_changes_t.c.edition == edition)
         .order_by(rating_changes_t.c.at, rating_changes_t.c.table_id))
    return [{"table": r.table_id, "at": r.at, "players": r.players, "rank": r.rank,
             "before": shown(r.mu_before), "after": shown(r.mu_after), "change": shown(r.mu_after) - shown(r.mu_before)}
            for r in conn.execute(q)]


def changes_of(conn: Connection, player: str, tables: Sequence[str]) -> dict[str, int]:
    """What each of ``tables`` did to the player's shown rating (rated ones only)."""
    if not tables:
        return {}
    q = select(rating_changes_t).where(rating_changes_t.c.player == player, rating_changes_t.c.table_id.in_(tables))
    return {r.table_id: shown(r.mu_after) - shown(r.mu_before) for r in conn.execute(q)}


def leaderboard(conn: Connection, edition: str, players: int | None = None,
                limit: int = 100, *, bots: bool = False) -> list[dict[str, Any]]:
    """The best ``limit`` ratings of ``edition`` (of the players who played a rated game at
    tables of ``players`` seats, where given): the settled ones first, each part by rating.
    ``bots``: the bot accounts' board instead of the people's (the house bots are on both)."""
    kind = select(literal(player_of("account", "")) + accounts_t.c.id).where(accounts_t.c.bot == int(bots))
    q = select(ratings_t).where(ratings_t.c.edition == edition,
                                or_(~ratings_t.c.player.startswith(player_of("account", "")),
                                    ratings_t.c.player.in_(kind)))
    if players is not None:
        q = q.where(ratings_t.c.player.in_(select(rating_changes_t.c.player).where(
            rating_changes_t.c.edition == edition, rating_changes_t.c.players == players)))
    settling = case((ratings_t.c.sigma > PROVISIONAL, 1), else_=0)
    q = q.order_by(settling, ratings_t.c.mu.desc(), ratings_t.c.player).limit(limit)
    return [{"player": r.player, **to_json(r.mu, r.sigma, r.games)} for r in conn.execute(q)]


__all__ = ["ANCHOR", "ANCHOR_MU", "ANCHOR_SIGMA", "MU0", "PROVISIONAL", "SCALE", "SHOWN0", "SIGMA0", "changes_of",
           "history_of", "leaderboard", "player_of", "rate", "rate_game", "ratings_of", "shown", "to_json"]
