"""The ``sushigo`` command line: play, replay, score, bench.

Every error a user can cause (a bad file, a bad option) ends with one line on
standard error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from enum import Enum
from typing import Annotated, Any, NoReturn, Optional


import typer
from rich.console import Console
from rich.text import Text

from sushigo.record import RecordError, load_json, replay, score_sheet
from sushigo.scoring import Result
from sushigo.render import score_sheet_table, winners_line

app = typer.Typer(
    name="sushigo",
    help="Sushi Go! - an exact engine, a scorekeeper and a terminal game.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

EXIT_BAD_INPUT = 1
EXIT_USAGE = 2


class BenchApi(str, Enum):
    step = "step"
    playout = "playout"


class OutputFormat(str, Enum):
    json = "json"
    table = "table"


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``sushigo: error: message`` as one line on stderr and exit."""
    one_line = " ".join(str(message).split())
    print(f"sushigo: error: {one_line}", file=sys.stderr)
    raise typer.Exit(code)


def _names_from_meta(data: Any, players: int) -> list[str] | None:
    if isinstance(data, dict):
        meta = data.get("meta")
        if isinstance(meta, dict):
            names = meta.get("names")
            if (
                isinstance(names, list)
                and len(names) == players
                and all(isinstance(n, str) for n in names)
            ):
                return [str(n) for n in names]
    return None


FileArg = Annotated[str, typer.Argument(help="A JSON file, or - for standard input.", metavar="FILE")]
FormatOpt = Annotated[
    OutputFormat,
    typer.Option("--format", "-f", help="json (the spec's result object) or table (a score sheet)."),
]


@app.command("replay")
def replay_command(file: FileArg, output: FormatOpt = OutputFormat.json) -> None:
    """Check a game record move by move and print its result."""
    try:
        data = load_json(file, "record")
        result = replay(data).result()
    except RecordError as e:
        _fail(f"{_label(file)}: {e}")
    _print_result(result, data, output, "Replay of " + os.path.basename(_label(file)))


@app.command("score")
def score_command(file: FileArg, output: FormatOpt = OutputFormat.json) -> None:
    """Score the collections of a physical table (a score sheet file)."""
    try:
        data = load_json(file, "score sheet")
        result = score_sheet(data)
    except RecordError as e:
        _fail(f"{_label(file)}: {e}")
    _print_result(result, data, output, "Score sheet")


def _print_result(result: Result, data: Any, output: OutputFormat, title: str) -> None:
    """The result as the spec's JSON object, or as a score sheet table."""
    if output is OutputFormat.json:
        print(json.dumps(result.to_json()))
        return
    names = _names_from_meta(data, len(result.totals))
    console = Console()
    final = len(result.rounds) == 3
    if not final:
        title += f" after {len(result.rounds)} round(s)"
    console.print(Text(title, style="bold"))
    console.print(score_sheet_table(result, names, title=None))
    console.print(winners_line(result, names) if final else Text("Puddings are scored after round 3."))


def _label(file: str) -> str:
    return "<stdin>" if file == "-" else file


@app.command("bench")
def bench_command(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Players per game.")] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games to play.")] = 10_000,
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Random seed.")] = 0,
    profile: Annotated[bool, typer.Option("--profile", help="Print a cProfile summary first.")] = False,
    api: Annotated[
        BenchApi, typer.Option("--api", help="step: legal_actions + play per turn; playout: Game.random_playout.")
    ] = BenchApi.step,
    repeat: Annotated[
        int, typer.Option("--repeat", "-r", min=1, max=100, help="Runs (same games); report the median.")
    ] = 1,
) -> None:
    """Play random legal games with the engine in one process; last line: games per second."""
    from sushigo.bench import profile_bench, run_bench

    if profile:
        print(profile_bench(players, min(games, 2000), seed, api=api.value))
    runs = []
    for _ in range(repeat):
        result = run_bench(players, games, seed, api=api.value)
        runs.append(result.games_per_second)
        print(
            f"{players} players, {result.games} games, {result.picks} picks, api {api.value}, "
            f"in {result.seconds:.3f} s (Python {sys.version.split()[0]})"
        )
    print(f"{statistics.median(runs):.1f} games/s")


def _default_save_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "sushigo", "games")


@app.command("play")
def play_command(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Seats at the table (2-5).")] = 4,
    humans: Annotated[
        int, typer.Option("--humans", "-H", min=0, max=5, help="Human seats (pass-and-play when more than one).")
    ] = 1,
    bot: Annotated[
        list[str], typer.Option("--bot", "-b", help="Bot for the other seats: greedy or random (repeat per seat).")
    ] = ["greedy"],
    name: Annotated[list[str], typer.Option("--name", "-n", help="Name of a human player (repeat).")] = [],
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Seed for the shuffle and the bots.")] = None,
    pass_both_ways: Annotated[
        bool, typer.Option("--pass-both-ways", help="Official variant: round 2 passes right.")
    ] = False,
    reshuffle: Annotated[
        bool, typer.Option("--reshuffle", help="House rule: reshuffle all non-pudding cards between rounds.")
    ] = False,
    save: Annotated[
        Optional[str], typer.Option("--save", help="Where to save the game record (a file).")
    ] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save the game record.")] = False,
) -> None:
    """Play a full game in the terminal against bots, or pass-and-play."""
    from sushigo.bots import BOTS
    from sushigo.terminal import run_play

    if humans > players:
        _fail(f"--humans {humans} is more than --players {players}", EXIT_USAGE)
    for b in bot:
        if b not in BOTS:
            _fail(f"unknown bot {b!r} (choose from {', '.join(sorted(BOTS))})", EXIT_USAGE)
    if save is None and not no_save:
        import datetime

        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        save = os.path.join(_default_save_dir(), f"game-{stamp}.json")
    if no_save:
        save = None
    code = run_play(  # it checks the save path (and creates its folder) before the game
        players=players,
        humans=humans,
        bots=list(bot),
        seed=seed,
        pass_both_ways=pass_both_ways,
        reshuffle=reshuffle,
        save=save,
        names=list(name) or None,
    )
    raise typer.Exit(code)


def _is_usage_error(error: BaseException) -> bool:
    """Typer raises click's (vendored) UsageError for bad arguments; match it by shape."""
    return hasattr(error, "format_message") and getattr(error, "exit_code", None) == EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    """Console entry point: run the app, turning every error into one line."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="sushigo", standalone_mode=False)
    except typer.Exit as e:
        return int(e.exit_code)
    except typer.Abort:
        print("sushigo: aborted", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("sushigo: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as e:  # noqa: BLE001 - the last line of defence: never a traceback
        if type(e).__name__ == "NoArgsIsHelpError":  # plain `sushigo`: show the help
            print(e.format_message())  # type: ignore[attr-defined]
            return 0
        if _is_usage_error(e):
            ctx = getattr(e, "ctx", None)
            where = f"sushigo {ctx.info_name}" if ctx is not None and ctx.parent is not None else "sushigo"
            message = " ".join(e.format_message().split())  # type: ignore[attr-defined]
            print(f"sushigo: error: {message} (see '{where} --help')", file=sys.stderr)
            return EXIT_USAGE
        if os.environ.get("SUSHIGO_DEBUG"):
            raise
        print(
            f"sushigo: internal error: {type(e).__name__}: {' '.join(str(e).split())} "
            "(set SUSHIGO_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
        return 3
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
