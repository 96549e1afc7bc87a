"""Regenerate the ``games.jsonl`` fixtures of ``tests/stats/test_stats.py``.

    python tests/data/stats/make_fixtures.py

Each line has the shape ``sushigo tournament --out DIR`` writes (see
``docs/statistics.md``), built here from real games played with
:func:`sushigo.bots.play_game` and recorded with :func:`sushigo.engine.editions.to_record`:

* ``mixed/``: 40 base games, 10 at each of 2-5 players, greedy and random
  bots alternating round the table, each deal played twice with the seats
  turned by one.
* ``budget/``: 16 two-player base games of an ``ismcts`` bot at four budgets
  against random.  There is no search bot here: **the budget seats are
  played by the greedy bot** and only labelled ``ismcts:time=...`` /
  ``ismcts:iterations=...``, which is all the budget statistics read.
* ``party/``: 4 three-player Sushi Go Party! games (Master Menu, Big Banquet).

The output is deterministic: same engine, same files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def rank_seats(totals: Sequence[int], tiebreak: Sequence[int]) -> list[float]:
    """1 = best, by total then tiebreak; seats still tied share the average place."""
    keys = list(zip(totals, tiebreak))
    return [
        sum(1 for o in keys if o > k) + (sum(1 for o in keys if o == k) + 1) / 2 for k in keys
    ]


def game_line(
    game: int, set_: int, deal_seed: int, listed: Sequence[str], turn: int, menu: str | None = None
) -> dict[str, Any]:
    """Play one game: listed bot ``(s + turn) % n`` sits at seat ``s``."""
    from sushigo.bots import make_bot, play_game
    from sushigo.engine.editions import to_record
    from sushigo.engine.rules import Rules

    n = len(listed)
    bot_index = [(s + turn) % n for s in range(n)]
    seats = [listed[i] for i in bot_index]
    bot_seeds = [1000 * game + s for s in range(n)]
    # The stand-in: a budget bot's seat is played by greedy (see the module docstring).
    bots = [make_bot(spec if not spec.startswith("ismcts") else "greedy", seed)
            for spec, seed in zip(seats, bot_seeds)]
    rules = Rules.party(n, menu) if menu is not None else Rules(n)
    played = play_game(bots, seed=deal_seed, rules=rules)
    result = played.result()
    record = to_record(played)
    tiebreak = record["result"].get("puddings") or record["result"].get("dessert_cards")
    return {
        "game": game,
        "set": set_,
        "deal_seed": deal_seed,
        "edition": rules.edition,
        "menu": list(rules.menu) if rules.is_party else None,
        "players": n,
        "seats": seats,
        "bot_index": bot_index,
        "bot_seeds": bot_seeds,
        "totals": list(result.totals),
        "winners": list(result.winners),
        "ranks": rank_seats(result.totals, tiebreak),
        "incidents": [],
        "record": record,
    }


def mixed() -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for players in range(2, 6):
        listed = ["greedy" if s % 2 == 0 else "random" for s in range(players)]
        for set_ in range(5):
            deal_seed = 100 * players + set_
            for turn in range(2):
                lines.append(game_line(len(lines), set_, deal_seed, listed, turn))
    return lines


def budget() -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for spec in ("ismcts:time=0.05", "ismcts:time=0.2", "ismcts:iterations=100", "ismcts:iterations=1000"):
        for _ in range(2):  # two sets (deals), each played with the seats both ways
            for turn in range(2):
                lines.append(game_line(len(lines), len(lines) // 2, 500 + len(lines) // 2,
                                       [spec, "random"], turn))
    return lines


def party() -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for set_, menu in enumerate(("Master Menu", "Big Banquet")):
        for turn in range(2):
            lines.append(game_line(len(lines), set_, 900 + set_, ["greedy", "random", "greedy"], turn, menu))
    return lines


def write(folder: str, lines: list[dict[str, Any]]) -> None:
    path = HERE / folder / "games.jsonl"
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    print(f"wrote {path.relative_to(HERE)}: {len(lines)} games, {path.stat().st_size} bytes")


def main() -> None:
    write("mixed", mixed())
    write("budget", budget())
    write("party", party())


if __name__ == "__main__":
    main()
