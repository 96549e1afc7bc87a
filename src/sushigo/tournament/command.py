"""``sushigo tournament``: the command line over :func:`~sushigo.tournament.runner.run_tournament`.

:func:`run_command` checks the options, runs the tournament with a progress
bar on standard error, prints the summary (a table, or JSON with ``--json``)
and saves the games with ``--out``.  Every problem is a one-line
:class:`~sushigo.tournament.schedule.TournamentError`; ``sushigo.cli``
prints it and exits.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Iterator

from contextlib import contextmanager

from sushigo.rules import MAX_PLAYERS, MIN_PLAYERS, PARTY_MAX_PLAYERS, PARTY_MIN_PLAYERS, Rules, RulesError
from sushigo.tournament.runner import BACKENDS, check_bots, run_tournament
from sushigo.tournament.schedule import TournamentError

DEFAULT_MENU = "My First Meal"
"""The Party menu when ``--menu`` is not given (as in ``sushigo play``)."""


def build_rules(
    players: int,
    *,
    edition: str = "base",
    menu: str | None = None,
    pass_both_ways: bool = False,
    reshuffle: bool = False,
    uramaki_split: str | None = None,
    menu_card_draw: int | None = None,
    two_player_pudding_penalty: bool = False,
) -> Rules:
    """The rules from the command's options, or a one-line :class:`TournamentError`.

    >>> build_rules(3).options()
    {'pass_both_ways': False, 'reshuffle': False}
    >>> build_rules(6, edition="party", menu="big banquet").menu[1]
    'maki'
    >>> build_rules(6)
    Traceback (most recent call last):
        ...
    sushigo.tournament.schedule.TournamentError: 6 bots: the base game is for 2-5 players (Sushi Go Party! seats 2-8: add --edition party)
    """
    kind = edition.strip().lower()
    if kind not in ("base", "party"):
        raise TournamentError(f"--edition must be base or party, not {edition!r}")
    party_options: dict[str, Any] = {}
    if uramaki_split is not None:
        party_options["uramaki_split"] = uramaki_split
    if menu_card_draw is not None:
        party_options["menu_card_draw"] = menu_card_draw
    if two_player_pudding_penalty:
        party_options["two_player_pudding_penalty"] = True
    if kind == "party":
        from sushigo.party.menus import MenuError, parse_menu

        for flag, on in (("--pass-both-ways", pass_both_ways), ("--reshuffle", reshuffle)):
            if on:
                raise TournamentError(
                    f"{flag} is a base-game option (Sushi Go Party! always reshuffles and passes left)")
        chosen = menu if menu is not None else DEFAULT_MENU
        try:
            items = parse_menu(chosen)
        except MenuError as e:
            raise TournamentError(str(e) if "unknown menu" in str(e) else f"--menu {chosen!r}: {e}") from None
        if not PARTY_MIN_PLAYERS <= players <= PARTY_MAX_PLAYERS:
            raise TournamentError(
                f"{players} bots: Sushi Go Party! is for {PARTY_MIN_PLAYERS}-{PARTY_MAX_PLAYERS} players")
        try:
            return Rules.party(players, items, **party_options)
        except RulesError as e:
            raise TournamentError(f"{players} bots, menu {chosen!r}: {e}") from None
    if menu is not None:
        raise TournamentError("--menu is for Sushi Go Party! (add --edition party)")
    if party_options:
        flags = {"uramaki_split": "--uramaki-split", "menu_card_draw": "--menu-card-draw",
                 "two_player_pudding_penalty": "--two-player-pudding-penalty"}
        raise TournamentError(
            f"{flags[next(iter(party_options))]} is a Sushi Go Party! option (add --edition party)")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        hint = f" (Sushi Go Party! seats 2-{PARTY_MAX_PLAYERS}: add --edition party)" if players > MAX_PLAYERS else ""
        raise TournamentError(f"{players} bots: the base game is for {MIN_PLAYERS}-{MAX_PLAYERS} players{hint}")
    return Rules(players, pass_both_ways=pass_both_ways, reshuffle=reshuffle)


@contextmanager
def _progress_bar(enabled: bool, total: int) -> Iterator[Callable[[int, int], None] | None]:
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:  # no bar (and no stray blank line) in logs and pipes
        yield None
        return
    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("games", total=total)

        def update(done: int, _total: int) -> None:
            bar.update(task, completed=done)

        yield update


def run_command(
    bots: list[str],
    *,
    games: int = 100,
    seed: int | None = None,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    edition: str = "base",
    menu: str | None = None,
    pass_both_ways: bool = False,
    reshuffle: bool = False,
    uramaki_split: str | None = None,
    menu_card_draw: int | None = None,
    two_player_pudding_penalty: bool = False,
    time_limit: float | None = None,
    duplicate: bool = True,
    json_output: bool = False,
    out: str | None = None,
    quiet: bool = False,
) -> None:
    """Run ``sushigo tournament`` with these options and print its summary."""
    if len(bots) < 2:
        raise TournamentError(f"a tournament needs 2 or more bots (one per seat), not {len(bots)}")
    backend = backend.strip().lower()
    if backend not in BACKENDS:
        raise TournamentError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if ray_address is not None and backend != "ray":
        raise TournamentError("--ray-address is for --backend ray")
    if time_limit is not None and not time_limit > 0:
        raise TournamentError(f"--time-limit must be more than 0 seconds, not {time_limit}")
    rules = build_rules(
        len(bots), edition=edition, menu=menu, pass_both_ways=pass_both_ways, reshuffle=reshuffle,
        uramaki_split=uramaki_split, menu_card_draw=menu_card_draw,
        two_player_pudding_penalty=two_player_pudding_penalty,
    )
    check_bots(bots, time_limit)
    if backend == "ray":
        from sushigo.tournament._ray import import_ray

        import_ray()  # fail before anything else when Ray is missing
    if out is not None:
        from sushigo.tournament.store import prepare_out_dir

        prepare_out_dir(out)
    with _progress_bar(not quiet and not json_output, games) as progress:
        result = run_tournament(
            bots, games=games, seed=seed, rules=rules, workers=workers, backend=backend,
            duplicate=duplicate, time_limit=time_limit, keep_records=out is not None,
            ray_address=ray_address, progress=progress,
        )
    summary = result.summary()
    if out is not None:
        from sushigo.tournament.store import save_results

        save_results(result, out, summary)
    if json_output:
        print(json.dumps(summary.to_json()))
        return
    from rich.console import Console

    from sushigo.tournament.summary import render

    console = Console()
    render(result, console, summary)
    if out is not None:
        import os

        console.print(f"Saved {len(result.games)} games to {os.path.join(out, 'games.jsonl')} "
                      f"and the summary to {os.path.join(out, 'summary.json')}.", highlight=False)
    sys.stdout.flush()
