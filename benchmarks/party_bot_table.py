"""Every bot against `random` and `greedy` on every official Sushi Go Party! menu: the table in docs/bots.md.

    python benchmarks/party_bot_table.py [GAMES] [WORKERS] [--bots a;b;...] [--opponents a;b] [--out FILE]
    python benchmarks/party_bot_table.py --table [--out FILE]

For each official menu (4 players; Dinner for Two, a two-player menu, at 2),
each bot of ``--bots`` (default ``random;greedy;learned;flatmc:time=0.2;
ismcts:time=0.2``, separated by ``;`` since a bot's settings are separated
by commas) and each opponent of ``--opponents`` (default ``random;greedy``),
plays GAMES games (default 24): one bot against
PLAYERS-1 copies of the opponent, the bot's seat rotating over the same
deal (duplicate deals, as benchmarks/bot_strength.py).  A shared win counts
1/k.  Prints a Markdown table: win rate with its 95% Wilson interval,
the bot's mean score against the opponents' mean, and the bot's mean
seconds per decision (decisions with one legal action included).

Results are kept per game in FILE (default ``party_bot_table.jsonl``), so
an interrupted run picks up where it stopped; delete the file to start
over.  ``--table`` plays nothing and prints the table of every game in
FILE, whatever its count per bot (so cheap bots can have more games than
search bots: run the script once per group of bots, then ``--table``).
Every game is seeded: with iteration-limited bots a rerun gives the same
table, with time-limited ones it depends on the machine's speed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sushigo.bots import make_bot, play_game
from sushigo.engine.menus import OFFICIAL_MENUS
from sushigo.engine.rules import Rules
from sushigo.tournament.ratings import wilson_interval as wilson

DEFAULT_BOTS = "random;greedy;learned;flatmc:time=0.2;ismcts:time=0.2"


def players_for(menu: str) -> int:
    return 2 if menu == "Dinner for Two" else 4


class Timed:
    """A bot whose decisions are timed (wall clock)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.wants_world = getattr(bot, "wants_world", False)
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, view: Any) -> int:
        start = time.perf_counter()
        action = self.bot.choose(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return int(action)


def one_game(job: tuple[str, str, str, int]) -> dict[str, Any]:
    spec, opponent, menu, g = job
    players = players_for(menu)
    deal, seat = divmod(g, players)
    bots: list[Any] = [make_bot(opponent, 1000 * g + s) for s in range(players)]
    timed = Timed(make_bot(spec, 1000 * g + seat))
    bots[seat] = timed
    result = play_game(bots, seed=deal, rules=Rules.party(players, menu)).result()
    others = [t for s, t in enumerate(result.totals) if s != seat]
    return {
        "bot": spec, "opponent": opponent, "menu": menu, "game": g,
        "share": 1 / len(result.winners) if seat in result.winners else 0.0,
        "score": result.totals[seat], "others": sum(others) / len(others),
        "seconds": timed.seconds, "decisions": timed.decisions,
    }


def table(rows: list[dict[str, Any]], bots: list[str], opponents: list[str]) -> str:
    head = ("| menu | bot | " + " | ".join(f"vs {o}: win (95% CI) | score vs {o}" for o in opponents)
            + " | ms/decision |")
    lines = [head, "|" + "---|" * (3 + 2 * len(opponents))]
    for menu in OFFICIAL_MENUS:
        for spec in bots:
            cells = []
            seconds = decisions = 0.0
            for opp in opponents:
                cell = [r for r in rows if r["bot"] == spec and r["opponent"] == opp and r["menu"] == menu]
                if not cell:
                    cells += ["", ""]
                    continue
                n = len(cell)
                wins = sum(r["share"] for r in cell)
                lo, hi = wilson(wins, n)
                cells.append(f"{wins / n:.0%} ({lo:.0%}-{hi:.0%}, n={n})")
                cells.append(f"{sum(r['score'] for r in cell) / n:.1f} vs {sum(r['others'] for r in cell) / n:.1f}")
                seconds += sum(r["seconds"] for r in cell)
                decisions += sum(r["decisions"] for r in cell)
            ms = f"{1000 * seconds / decisions:.{2 if seconds < decisions / 100 else 0}f}" if decisions else ""
            label = f"{menu} ({players_for(menu)}p)"
            lines.append(f"| {label} | `{spec}` | " + " | ".join(cells) + f" | {ms} |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    args = list(argv)
    only_table = "--table" in args
    args = [a for a in args if a != "--table"]
    options = {"--bots": DEFAULT_BOTS, "--opponents": "random;greedy", "--out": "party_bot_table.jsonl"}
    for key in list(options):
        if key in args:
            i = args.index(key)
            options[key] = args[i + 1]
            del args[i:i + 2]
    games = int(args[0]) if args else 24
    workers = int(args[1]) if len(args) > 1 else 2
    bots = options["--bots"].split(";")
    opponents = options["--opponents"].split(";")
    out = options["--out"]
    rows: list[dict[str, Any]] = []
    if os.path.exists(out):
        with open(out) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    if only_table:
        if not rows:
            raise SystemExit(f"no games in {out}")
        print(table(rows, list(dict.fromkeys(r["bot"] for r in rows)),
                    list(dict.fromkeys(r["opponent"] for r in rows))))
        return
    done = {(r["bot"], r["opponent"], r["menu"], r["game"]) for r in rows}
    jobs = [(spec, opp, menu, g) for spec in bots for opp in opponents for menu in OFFICIAL_MENUS
            for g in range(games) if (spec, opp, menu, g) not in done]
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool, open(out, "a") as f:
        for k, row in enumerate(pool.map(one_game, jobs, chunksize=1), 1):
            rows.append(row)
            f.write(json.dumps(row) + "\n")
            f.flush()
            if k % 50 == 0:
                print(f"{k}/{len(jobs)} games ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    print(table([r for r in rows if r["game"] < games], bots, opponents))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except ValueError as exc:  # a bad count, bot spec or menu: one line, no traceback
        raise SystemExit(f"error: {exc}") from None
