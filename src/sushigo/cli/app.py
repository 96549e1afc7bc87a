"""The ``sushigo`` command line: play, replay, score, bench.

Every error a user can cause (a bad file, a bad option) ends with one line on
standard error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import re
import statistics
import sys
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any, Final

import typer
from rich.console import Console
from rich.text import Text

from sushigo.analysis.evaluate import DEFAULT_SAMPLES
from sushigo.cli.errors import EXIT_BAD_INPUT, EXIT_USAGE
from sushigo.cli.errors import fail as _fail
from sushigo.engine import engine_build
from sushigo.engine.base.scoring import Result
from sushigo.engine.editions import by_result, edition_for, replay, score_sheet
from sushigo.engine.messages import msg, nmsg
from sushigo.engine.party.game import PartyResult
from sushigo.engine.records import RecordError, load_json, seat_names
from sushigo.i18n import LANGUAGES, _, _l, _n, from_environment, message_of, use
from sushigo.terminal.render import party_score_sheet_table, score_sheet_table, winners_line

app = typer.Typer(
    name="sushigo",
    help="Sushi Go! - an exact engine, a scorekeeper and a terminal game.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)



class BenchApi(str, Enum):
    step = "step"
    playout = "playout"


class BenchEngine(str, Enum):
    python = "python"
    batch = "batch"
    numpy = "numpy"


class BenchEdition(str, Enum):
    base = "base"
    party = "party"


class OutputFormat(str, Enum):
    json = "json"
    table = "table"


def _output_format(value: str) -> OutputFormat:
    """``--format``'s value, or a one-line usage error naming the choices."""
    try:
        return OutputFormat(value.strip().lower())
    except ValueError:
        _fail(_l("unknown format {value} (json or table)", value=repr(value)), EXIT_USAGE)


def _version(value: bool) -> None:
    if value:
        from sushigo import __version__

        # TRANSLATORS: `sushigo --version`; {build}: which engine runs ("compiled" or "python", as is)
        print(_("sushigo {version} ({build} engine)", version=__version__, build=engine_build()))
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.",
                                          callback=_version, is_eager=True)] = False,
) -> None:
    """Sushi Go! - an exact engine, a scorekeeper and a terminal game."""


FileArg = Annotated[str, typer.Argument(help="A JSON file, or - for standard input.", metavar="FILE")]
FormatOpt = Annotated[
    str,
    typer.Option("--format", "-f", metavar="json|table",
                 help="json (the result object of the format's spec) or table (a score sheet)."),
]

FORMAT_DOC: Final = "docs/spec/game-record.md in the sushigo sources"

_LANG_CHOICES: Final = ", ".join(LANGUAGES)
"""The languages of ``sushigo play --lang``, for its help and its error."""


@app.command("replay", epilog=f"The record format: {FORMAT_DOC}.")
def replay_command(file: FileArg, output: FormatOpt = "json") -> None:
    """Check a game record move by move and print its result.

    A game record (format sushigo-record/1) lists every hand dealt and every
    pick; `sushigo play` saves one for every game.  Anything wrong is one line
    on standard error naming the round, turn and seat, and exit status 1.
    """
    fmt = _output_format(output)
    try:
        data = load_json(file, msg("record"))
        result = replay(data).result()
    except RecordError as e:
        # TRANSLATORS: {file}: the file's path (or <stdin>); {why}: what is wrong with it
        _fail(_l("{file}: {why}", file=_label(file), why=message_of(e)))
    # TRANSLATORS: the title of `sushigo replay --format table`; {file}: the record's file name
    _print_result(result, data, fmt, _("Replay of {file}", file=os.path.basename(_label(file))))


@app.command("score", epilog=f"The score sheet format, with every card name: {FORMAT_DOC}.")
def score_command(file: FileArg, output: FormatOpt = "json") -> None:
    """Score the collections of a physical table (a score sheet file).

    A score sheet is JSON: the player count and, for each round played (1 to
    3), each seat's kept cards in the order they were played (a nigiri counts
    on a wasabi listed before it).  Puddings are scored once all three rounds
    are in.  The original game:

    \b
      {"players": 3, "rounds": [[["tempura", "tempura", "wasabi", "squid"],
                                 ["maki3", "pudding"], ["egg", "dumpling"]]]}

    Card names: tempura sashimi dumpling maki1 maki2 maki3 egg salmon squid
    wasabi chopsticks pudding.  Sushi Go Party! adds "edition": "party" and
    a menu (an official menu's name or its 8 items); special orders are
    written special_order>CARD, cards a takeout box flipped face_down:

    \b
      {"edition": "party", "players": 3, "menu": "Master Menu",
       "rounds": [[["temaki", "onigiri_circle", "face_down"], ["tofu", "tofu"], []]]}

    Impossible sheets (more copies of a card than the box holds, more cards
    than a hand, a card not on the menu, ...) are refused in one line.
    """
    fmt = _output_format(output)
    try:
        data = load_json(file, msg("score sheet"))
        result = score_sheet(data)
    except RecordError as e:
        # TRANSLATORS: {file}: the file's path (or <stdin>); {why}: what is wrong with it
        _fail(_l("{file}: {why}", file=_label(file), why=message_of(e)))
    _print_result(result, data, fmt, _("Score sheet"))


def _print_result(result: Result | PartyResult, data: Any, output: OutputFormat, title: str) -> None:
    """The result as the spec's JSON object, or as a score sheet table."""
    if output is OutputFormat.json:
        print(json.dumps(result.to_json()))
        return
    names = seat_names(data, len(result.totals))
    console = Console()
    final = len(result.rounds) == 3
    if not final:
        # TRANSLATORS: a score sheet's title before the game's end; {title}: "Score sheet" or "Replay of FILE"
        title = _("{title} after {rounds} round(s)", title=title, rounds=str(len(result.rounds)))
    console.print(Text(title, style="bold"))
    table, later = by_result(
        result,
        base=lambda r: (score_sheet_table(r, names, title=None), _("Puddings are scored after round 3.")),
        party=lambda r: (party_score_sheet_table(r, names, title=None), _("Desserts are scored after round 3.")),
    )
    console.print(table)
    console.print(winners_line(result, names) if final else Text(later))


def _label(file: str) -> str:
    return "<stdin>" if file == "-" else file


@app.command("bench")
def bench_command(
    players: Annotated[
        int, typer.Option("--players", "-p", min=2, max=8, help="Players per game (base 2-5, party 2-8).")
    ] = 4,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games to play.")] = 10_000,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Random seed.")] = 0,
    profile: Annotated[bool, typer.Option("--profile", help="Print a cProfile summary first.")] = False,
    api: Annotated[
        BenchApi, typer.Option("--api", help="step: legal_actions + play per turn; playout: Game.random_playout.")
    ] = BenchApi.step,
    repeat: Annotated[
        int, typer.Option("--repeat", "-r", min=1, max=100, help="Runs (same games); report the median.")
    ] = 1,
    edition: Annotated[
        BenchEdition, typer.Option("--edition", "-e", help="base (Sushi Go!) or party (Sushi Go Party!).")
    ] = BenchEdition.base,
    menu: Annotated[
        str | None,
        typer.Option("--menu", "-m", help="Party menu: an official name or 7 items separated by commas "
                     "(default: Sushi Go!)."),
    ] = None,
    engine: Annotated[
        BenchEngine, typer.Option("--engine", help="python (the engine); batch (whole games compiled with numba "
                                  "on every core, or numpy lockstep without numba); numpy (lockstep, B games).")
    ] = BenchEngine.python,
    batch_size: Annotated[
        int, typer.Option("--batch-size", min=1, help="Games per lockstep batch (--engine numpy, and --engine batch "
                          "without numba).")
    ] = 10_000,
) -> None:
    """Play random legal games with the engine in one process; last line: games per second."""
    from sushigo.engine.rules import MAX_PLAYERS, Rules, RulesError
    from sushigo.sim.bench import profile_bench, run_bench

    if engine is not BenchEngine.python:
        _bench_batch(players, games, seed, batch_size, repeat, edition, compiled=engine is BenchEngine.batch)
        return

    if edition is BenchEdition.party:
        menu = menu if menu is not None else "Sushi Go!"
        try:
            menu_label = ", ".join(Rules.party(players, menu).menu)
        except RulesError as e:
            # TRANSLATORS: {menu}: the --menu value as typed (quoted); {why}: why it is not a menu
            _fail(_l("--menu {menu}: {why}", menu=repr(menu), why=message_of(e)), EXIT_USAGE)
    else:
        if menu is not None:
            _fail(_l("--menu is for --edition party"), EXIT_USAGE)
        if players > MAX_PLAYERS:
            _fail(_l("the base game is for 2-{most} players, not {players} (try --edition party)", most=MAX_PLAYERS,
                     players=players), EXIT_USAGE)
    if profile:
        print(profile_bench(players, min(games, 2000), seed, api=api.value, edition=edition.value, menu=menu))
    runs = []
    for _run_index in range(repeat):
        result = run_bench(players, games, seed, api=api.value, edition=edition.value, menu=menu)
        runs.append(result.games_per_second)
        fields = {"players": str(players), "games": str(result.games), "picks": str(result.picks), "api": api.value,
                  "seconds": f"{result.seconds:.3f}", "python": sys.version.split()[0], "build": engine_build()}
        if edition is BenchEdition.party:
            # TRANSLATORS: one run of `sushigo bench`; {menu}: the menu's cards (as in records); {api}: step or
            # playout and {build}: "compiled" or "python" (as is); the numbers are digits as programs read them
            print(_("{players} players, party ({menu}), {games} games, {picks} picks, api {api}, in {seconds} s "
                    "(Python {python}, {build} engine)", menu=menu_label, **fields))
        else:
            # TRANSLATORS: one run of `sushigo bench`; {api}: step or playout and {build}: "compiled" or "python"
            # (as is); the numbers are digits as programs read them
            print(_("{players} players, {games} games, {picks} picks, api {api}, in {seconds} s (Python {python}, "
                    "{build} engine)", **fields))
    print(_games_per_second(runs))


def _games_per_second(runs: list[float]) -> str:
    """The bench's last line, the median games per second: the same in every language (scripts read it)."""
    return f"{statistics.median(runs):.1f} games/s"


def _bench_batch(players: int, games: int, seed: int | None, batch_size: int, repeat: int,
                 edition: BenchEdition, *, compiled: bool) -> None:
    import resource
    import time

    from sushigo.engine.rules import MAX_PLAYERS

    name = "batch" if compiled else "numpy"
    if edition is not BenchEdition.base:
        _fail(_l("--engine {name} plays the original game only (no --edition party)", name=name), EXIT_USAGE)
    if players > MAX_PLAYERS:
        _fail(_l("the base game is for 2-{most} players, not {players}", most=MAX_PLAYERS, players=players), EXIT_USAGE)
    try:
        from sushigo.sim.batch import run_batch_bench
    except ImportError as e:
        _fail(_l("--engine {name} needs {module}: pip install 'sushigo[rl]'", name=name, module=str(e.name)))
    if compiled:
        try:
            from sushigo.sim.kernel import random_games

            random_games(players, 1, 0)  # compile (or load the cached machine code) before timing
        except ImportError:
            compiled = False  # no numba: the numpy lockstep engine
            print(_("numba is not installed (pip install 'sushigo[fast]'): using the numpy lockstep engine"))
    runs = []
    if compiled:
        import numba

        for _run_index in range(repeat):
            start = time.perf_counter()
            random_games(players, games, seed or 0)
            seconds = time.perf_counter() - start
            runs.append(games / seconds)
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            # TRANSLATORS: one run of `sushigo bench --engine batch`; the numbers are digits as programs read them
            print(_("{players} players, {games} games, engine batch (compiled, {threads} threads), in {seconds} s; "
                    "results {results} MiB, peak RSS {rss} MiB", players=str(players), games=str(games),
                    threads=str(numba.get_num_threads()), seconds=format(seconds, ".3f"),
                    results=format(games * players * 9 / 2**20, ".1f"), rss=format(rss, ".0f")))
        print(_games_per_second(runs))
        return
    for _run_index in range(repeat):
        done, seconds, state = run_batch_bench(players, games, seed, batch_size)
        runs.append(done / seconds)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        # TRANSLATORS: one run of `sushigo bench --engine numpy`; the numbers are digits as programs read them
        print(_("{players} players, {games} games, engine numpy (lockstep, batch size {size}), in {seconds} s; "
                "arrays of one batch {arrays} MiB, peak RSS {rss} MiB", players=str(players), games=str(done),
                size=str(min(batch_size, games)), seconds=format(seconds, ".3f"),
                arrays=format(state / 2**20, ".1f"), rss=format(rss, ".0f")))
    print(_games_per_second(runs))


def _default_save_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "sushigo", "games")


@app.command("play")
def play_command(
    players: Annotated[
        int, typer.Option("--players", "-p", min=2, max=8, help="Seats at the table (base 2-5, party 2-8).")
    ] = 4,
    humans: Annotated[
        int, typer.Option("--humans", "-H", min=0, max=8, help="Human seats (pass-and-play when more than one).")
    ] = 1,
    bot: Annotated[
        list[str], typer.Option("--bot", "-b", help="Bot for the other seats: greedy, random, ismcts[:time=S], "
                                "flatmc, learned or cmd:COMMAND (repeat per seat).")
    ] = ["greedy"],  # noqa: B006  typer's default; the command copies it, never mutates it
    name: Annotated[
        list[str], typer.Option("--name", "-n", help="Name of a human player (repeat).")
    ] = [],  # noqa: B006  typer's default; the command copies it, never mutates it
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed for the shuffle and the bots.")] = None,
    edition: Annotated[
        str, typer.Option("--edition", "-e", help="base (Sushi Go!) or party (Sushi Go Party!).")
    ] = "base",
    menu: Annotated[
        str | None,
        typer.Option("--menu", "-m", help="Party menu: an official name (any case) or 7 items separated by "
                     "commas.  Default: My First Meal."),
    ] = None,
    pass_both_ways: Annotated[
        bool, typer.Option("--pass-both-ways", help="Official variant: round 2 passes right (base only).")
    ] = False,
    reshuffle: Annotated[
        bool, typer.Option("--reshuffle", help="House rule: reshuffle all non-pudding cards between rounds "
                           "(base only).")
    ] = False,
    uramaki_split: Annotated[
        str | None, typer.Option("--uramaki-split", help="Party: copies of 3/4/5-icon uramaki, "
                                    "4-4-4 (default), 3-5-4 or 4-5-3.")
    ] = None,
    menu_card_draw: Annotated[
        int | None, typer.Option("--menu-card-draw", help="Party: cards a Menu card draws (default 4).")
    ] = None,
    two_player_pudding_penalty: Annotated[
        bool, typer.Option("--two-player-pudding-penalty",
                           help="Party: the fewest-pudding penalty applies with 2 players too.")
    ] = False,
    wasabi_colour: Annotated[
        str | None, typer.Option("--wasabi-colour", help="Party: the wasabi card's colour for tea and soy "
                                    "sauce, nigiri (default: the nigiri's) or own.")
    ] = None,
    save: Annotated[
        str | None, typer.Option("--save", help="Where to save the game record (a file).")
    ] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save the game record.")] = False,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="Seconds per decision for cmd: bots (default 10).")
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", "-l", metavar="LANG", help=f"The game's language: {_LANG_CHOICES}.  "
                                 "Default: the terminal's (LANGUAGE, LC_ALL, LC_MESSAGES or LANG), else English.")
    ] = None,
) -> None:
    """Play a full game in the terminal against bots, or pass-and-play.

    The game speaks the language of --lang, else the terminal's; a card is
    typed by its number, or by its English name as the records write it
    (squid, wasabi), in every language.
    """
    from sushigo.bots import EXTERNAL_PREFIX, parse_bot_spec
    from sushigo.engine.flags import FlagError, rules_from_flags

    language = _play_language(lang) if lang is not None else from_environment()

    try:
        rules = rules_from_flags(
            players, edition=edition, menu=menu, pass_both_ways=pass_both_ways, reshuffle=reshuffle,
            uramaki_split=uramaki_split, menu_card_draw=menu_card_draw,
            two_player_pudding_penalty=two_player_pudding_penalty, wasabi_colour=wasabi_colour,
        )
    except FlagError as e:
        _fail(message_of(e), EXIT_USAGE)
    if time_limit is not None and not time_limit > 0:
        _fail(_l("--time-limit must be more than 0 seconds, not {time_limit}", time_limit=str(time_limit)), EXIT_USAGE)
    if humans > players:
        _fail(_l("--humans {humans} is more than --players {players}", humans=str(humans), players=str(players)),
              EXIT_USAGE)
    for b in bot:
        if not b.strip().lower().startswith(EXTERNAL_PREFIX):
            try:
                parse_bot_spec(b)
            except ValueError as e:
                _fail(message_of(e), EXIT_USAGE)
    if save is None and not no_save:
        import datetime

        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        save = os.path.join(_default_save_dir(), f"game-{stamp}.json")
    if no_save:
        save = None
    # the front end checks the save path (and creates its folder) before the game
    table: dict[str, Any] = {"players": players, "humans": humans, "bots": list(bot), "seed": seed,
                             "save": save, "names": list(name) or None, "time_limit": time_limit}

    def party() -> int:
        from sushigo.terminal.party import DEFAULT_MENU, run_party_play

        return run_party_play(**table, menu=menu if menu is not None else DEFAULT_MENU, options=rules.options())

    def base() -> int:
        from sushigo.terminal.base import run_play

        return run_play(**table, pass_both_ways=pass_both_ways, reshuffle=reshuffle)

    def in_language(game: Callable[[], int]) -> int:
        use(language)  # in a copy of the context: the language ends with the game
        return game()

    game = edition_for(rules).select(base, party)
    raise typer.Exit(contextvars.copy_context().run(in_language, game))


def _play_language(value: str) -> str:
    """``--lang``'s value (any case), or a one-line usage error naming the languages."""
    lang = value.strip().lower()
    if lang not in LANGUAGES:
        _fail(_l("unknown language {value} for --lang (choose from: {choices})", value=repr(value),
                 choices=_LANG_CHOICES), EXIT_USAGE)
    return lang


@app.command("tournament")
def tournament_command(
    bots: Annotated[
        list[str], typer.Argument(help="The table, one bot per seat: a built-in bot with optional settings "
                                  "(greedy, random, ismcts:time=0.2) or cmd:COMMAND.", metavar="BOT...")
    ],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games to play.")] = 100,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Tournament seed (default: random, and printed).")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Processes (default: all cores; 1: this one).")
    ] = None,
    backend: Annotated[str, typer.Option("--backend", help="local (processes) or ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="Ray cluster to use with --backend ray.")
    ] = None,
    edition: Annotated[
        str, typer.Option("--edition", "-e", help="base (Sushi Go!) or party (Sushi Go Party!).")
    ] = "base",
    menu: Annotated[
        str | None, typer.Option("--menu", "-m", help="Party menu: an official name or 7 items separated "
                                    "by commas (default: My First Meal).")
    ] = None,
    pass_both_ways: Annotated[
        bool, typer.Option("--pass-both-ways", help="Official variant: round 2 passes right (base only).")
    ] = False,
    reshuffle: Annotated[
        bool, typer.Option("--reshuffle", help="House rule: reshuffle between rounds (base only).")
    ] = False,
    uramaki_split: Annotated[
        str | None, typer.Option("--uramaki-split", help="Party: 4-4-4 (default), 3-5-4 or 4-5-3.")
    ] = None,
    menu_card_draw: Annotated[
        int | None, typer.Option("--menu-card-draw", help="Party: cards a Menu card draws (default 4).")
    ] = None,
    two_player_pudding_penalty: Annotated[
        bool, typer.Option("--two-player-pudding-penalty", help="Party: pudding penalty with 2 players too.")
    ] = False,
    wasabi_colour: Annotated[
        str | None, typer.Option("--wasabi-colour", help="Party: wasabi's colour for tea and soy sauce, "
                                    "nigiri (default) or own.")
    ] = None,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="Seconds per decision for cmd: bots.")
    ] = None,
    no_duplicate: Annotated[
        bool, typer.Option("--no-duplicate", help="A fresh deal for every game (seats still rotate).")
    ] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="Folder to save games.jsonl and summary.json in.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play many games between bots (seats rotate, duplicate deals) and rate them."""
    from sushigo.cli.tournament import run_command
    from sushigo.engine.flags import FlagError, rules_from_flags
    from sushigo.tournament.schedule import TournamentError

    if len(bots) < 2:
        _fail(_l("a tournament needs 2 or more bots (one per seat), not {count}", count=len(bots)), EXIT_USAGE)
    try:
        rules = rules_from_flags(
            len(bots), edition=edition, menu=menu, pass_both_ways=pass_both_ways, reshuffle=reshuffle,
            uramaki_split=uramaki_split, menu_card_draw=menu_card_draw,
            two_player_pudding_penalty=two_player_pudding_penalty, wasabi_colour=wasabi_colour,
            # TRANSLATORS: a tournament's table size, starting an error about it ("9 bots: ...")
            label=nmsg("{n} bot", "{n} bots", len(bots)),
        )
    except FlagError as e:
        _fail(message_of(e), EXIT_USAGE)
    try:
        run_command(
            list(bots), games=games, seed=seed, workers=workers, backend=backend, ray_address=ray_address,
            rules=rules, time_limit=time_limit,
            duplicate=not no_duplicate, json_output=json_output, out=out, quiet=quiet,
        )
    except TournamentError as e:
        _fail(message_of(e), EXIT_USAGE if e.usage else EXIT_BAD_INPUT)


def _register_stats() -> None:
    from sushigo.cli.stats import stats_command

    app.command("stats", help="Tables and plots from tournament results (games.jsonl).")(stats_command)


_register_stats()


def _register_analyze() -> None:
    from sushigo.cli.analyze import analyze_command

    app.command("analyze", help="Value every decision of a finished game and mark the mistakes.")(analyze_command)


_register_analyze()


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port (0: any free port).")] = 8000,
    db: Annotated[str, typer.Option(
        help="Database: a SQLite file path or a URL (sqlite:///x.db, postgresql://user:pw@host/db).")] = "sushigo.db",
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", help="Another origin whose pages may open table sockets (repeatable).")] = None,
    shard: Annotated[str, typer.Option(
        help="Table-id prefix of this process when several share one database (docs/server.md).")] = "",
    tables_per_hour: Annotated[int, typer.Option(min=1, help="Tables one address may create per hour.")] = 30,
    connections_per_address: Annotated[int, typer.Option(
        min=1, help="WebSockets one address may hold open.")] = 50,
    trust_proxy: Annotated[str | None, typer.Option(
        help="Addresses of reverse proxies whose X-Forwarded-For names the client (comma-separated).")] = None,
    abandon_after: Annotated[float, typer.Option(
        min=0.001, help="Days without anything happening after which an unfinished table is abandoned.")] = 7.0,
    away_after: Annotated[float, typer.Option(
        min=0, help="Seconds a player must be gone, while the table waits on them, before others may "
                    "hand their seat to a bot.")] = 60.0,
    analysis_samples: Annotated[int, typer.Option(
        min=1, help="Playouts per legal action when the server analyses a game (Analyse my game, "
                    "uploaded replays): fewer is faster and coarser.")] = DEFAULT_SAMPLES,
    header_timeout: Annotated[float, typer.Option(
        min=0.1, max=300, help="Seconds a connection has to send a whole request's headers before "
                               "the server closes it.")] = 10.0,
    push_service: Annotated[list[str] | None, typer.Option(
        "--push-service", help="HOST:PORT of a Web Push service to post notifications to besides the "
                               "browsers' own (repeatable; for a push service of your own network).")] = None,
    push_contact: Annotated[str, typer.Option(
        help="The mailto: or https: address push services may write to about this server's "
             "notifications.")] = "mailto:sushigo@localhost",
) -> None:
    """Run the online game server: lobby, browser tables, live play over WebSockets."""
    try:
        from sushigo.server.serve import ServeError, serve
    except ImportError as e:
        _fail(_l("the server needs its extra: pip install 'sushigo[server]' ({module} is missing)", module=str(e.name)))
    if not push_contact.startswith(("mailto:", "https://")):
        _fail(_l("--push-contact is a mailto: or https: address"))
    host_port = r"[A-Za-z0-9.\-]+:[0-9]{1,5}|\[[0-9A-Fa-f:.]+\]:[0-9]{1,5}"
    if any(not re.fullmatch(host_port, s) for s in push_service or ()):
        _fail(_l("--push-service is HOST:PORT (a push service's host name or address and its port)"))
    if shard and not (len(shard) == 1 and shard in "abcdefghijklmnopqrstuvwxyz0123456789"):
        _fail(_l("--shard must be one lower-case letter or digit (it starts the ids of this process's tables)"))
    try:
        serve(host, port, db, allow_origins=tuple(allow_origin or ()), shard=shard,
              tables_per_hour=tables_per_hour, connections_per_address=connections_per_address,
              trust_proxy=trust_proxy, idle_limit=abandon_after * 86400.0, away_after=away_after,
              analysis_samples=analysis_samples, header_timeout=header_timeout,
              push_services=tuple(push_service or ()), push_contact=push_contact)
    except ServeError as e:
        _fail(message_of(e))


@app.command("bot-connect", epilog="The bot API and the bridge: docs/bot-api.md.")
def bot_connect_command(
    spec: Annotated[str, typer.Argument(help="The bot: a built-in one (greedy, ismcts:time=1, ...) or "
                                             "cmd:PROGRAM, a program speaking sushigo-bot/1 "
                                             "(docs/bot-protocol.md).")],
    server: Annotated[str, typer.Option(help="The server's address, http(s)://host[:port].")],
    token: Annotated[str, typer.Option(
        envvar="SUSHIGO_BOT_TOKEN", help="The bot account's API token (or the SUSHIGO_BOT_TOKEN variable).")],
    games: Annotated[int | None, typer.Option(min=1, help="Stop after this many tables have ended.")] = None,
    tables: Annotated[int, typer.Option(min=1, max=8, help="Tables played at once (challenges past it are "
                                                           "declined).")] = 4,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds a cmd: program has for each decision.")] = 10.0,
    seed: Annotated[int | None, typer.Option(help="Seed of the bot's own random generator.")] = None,
    play_now: Annotated[str | None, typer.Option(
        help="Also wait in play now's queue of this edition (base or party) for people's tables that offer "
             "bots.")] = None,
    rated: Annotated[bool, typer.Option(help="In play now, take rated tables too.")] = False,
) -> None:
    """Play a bot account on a sushigo server: accept its challenges and play its tables, with reconnects."""
    from sushigo.bots import make_bot
    from sushigo.bots.external import ExternalBot
    from sushigo.connect import Bridge, BridgeError, BuiltinAnswers

    if not re.fullmatch(r"https?://[^\s/]+/?", server):
        _fail(_l("--server is the server's address, http(s)://host[:port]"))
    if play_now is not None and play_now not in ("base", "party"):
        _fail(_l("--play-now is base or party"))
    try:
        bot = make_bot(spec, seed, timeout=timeout)
    except ValueError as e:
        _fail(message_of(e))
    try:
        with contextlib.closing(bot):
            answers = bot if isinstance(bot, ExternalBot) else BuiltinAnswers(bot)
            bridge = Bridge(server, token.strip(), answers, games=games, tables=tables,
                            play_now=None if play_now is None else {"edition": play_now, "rated": rated},
                            say=lambda line: print(line, flush=True))
            finished = bridge.run()
    except BridgeError as e:
        _fail(message_of(e))
    except ValueError as e:
        _fail(message_of(e))
    # TRANSLATORS: `sushigo bot-connect`'s last line; {count}: how many tables the bot played to their end
    print(_n("{count} table ended", "{count} tables ended", finished, count=str(finished)), flush=True)


def _is_usage_error(error: BaseException) -> bool:
    """Typer raises click's (vendored) UsageError for bad arguments; match it by shape."""
    return hasattr(error, "format_message") and getattr(error, "exit_code", None) == EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    """Console entry point: run the app in the terminal's language
    (:func:`~sushigo.i18n.from_environment`: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``), turning every error into one line.  The language is set in a copy of
    the context, so that it ends with the command (a caller's own stays as it was)."""
    return contextvars.copy_context().run(_run, argv)


def _run(argv: list[str] | None) -> int:
    use(from_environment())  # before anything prints
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
    except Exception as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # plain `sushigo`: show the help
            try:
                print(e.format_message())  # type: ignore[attr-defined]
            except BrokenPipeError:  # `sushigo | head`
                return 1
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
