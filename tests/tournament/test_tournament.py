"""Tournaments: schedules, duplicate deals, determinism, summaries, ratings, files, the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from piped import piped_env
from sushigo.bots import Bot
from sushigo.engine.editions import replay
from sushigo.engine.rules import Rules
from sushigo.tournament import (
    GameResult,
    TournamentError,
    TournamentResult,
    derive_seed,
    play,
    play_scheduled,
    read_games,
    run_tournament,
    runner,
    save_results,
    schedule,
    scheduled_game,
    summarize,
)

ROOT = Path(__file__).resolve().parents[2]
BOTS_DIR = Path(__file__).resolve().parents[1] / "bots"


def sushigo(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sushigo", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**piped_env(COLUMNS="100"), **(env or {})},
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], *needles: str, code: int | None = None) -> None:
    assert proc.returncode != 0, proc.stdout
    if code is not None:
        assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert lines[0].startswith("sushigo: error: ")
    for needle in needles:
        assert needle in lines[0], lines[0]


def round1_hands(game: GameResult) -> list[list[str]]:
    assert game.record is not None
    hands: list[list[str]] = game.record["rounds"][0]["hands"]
    return hands


# ------------------------------------------------------------- schedules


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_every_bot_sits_every_seat_within_a_set(n: int) -> None:
    specs = [f"bot{k}" for k in range(n)]
    games = schedule(specs, 3 * n, seed=11)
    assert [g.game for g in games] == list(range(3 * n))
    for g in games:
        assert g.set == g.game // n
        i = g.game % n
        for k in range(n):
            # bot k at seat (k + i) % n in even sets, (i - k) % n in odd ones
            seat = (k + i) % n if g.set % 2 == 0 else (i - k) % n
            assert g.bot_index[seat] == k
        assert g.seats == tuple(specs[k] for k in g.bot_index)
        assert g.seat_of(g.bot_index[0]) == 0
    for j in range(3):
        in_set = [g for g in games if g.set == j]
        for k in range(n):
            assert sorted(g.seat_of(k) for g in in_set) == list(range(n))
    # over two sets, each bot passes to each of its listed neighbours equally often
    passes: dict[tuple[int, int], int] = {}
    for g in games[: 2 * n]:
        for seat in range(n):
            pair = (g.bot_index[seat], g.bot_index[(seat + 1) % n])
            passes[pair] = passes.get(pair, 0) + 1
    for k in range(n):
        right, left = (k, (k + 1) % n), (k, (k - 1) % n)
        assert passes.get(right, 0) == passes.get(left, 0) > 0


def test_seeds_are_a_pure_function_of_the_tournament_seed_and_the_game() -> None:
    specs = ["a", "b", "c"]
    games = schedule(specs, 9, seed=5)
    assert [scheduled_game(specs, g, seed=5) for g in (8, 0, 4)] == [games[8], games[0], games[4]]
    assert schedule(specs, 9, seed=6) != games
    # duplicate: one deal per set; every game its own bot seeds
    assert [len({g.deal_seed for g in games if g.set == j}) for j in range(3)] == [1, 1, 1]
    assert len({g.deal_seed for g in games}) == 3
    assert len({s for g in games for s in g.bot_seeds}) == 27
    assert games[0].deal_seed == derive_seed(5, "deal", "set", 0)
    # a bot's seed belongs to the bot, not to the seat it sits in
    assert games[1].bot_seeds[games[1].seat_of(2)] == derive_seed(5, "game", 1, "bot", 2)
    fresh = schedule(specs, 9, seed=5, duplicate=False)
    assert len({g.deal_seed for g in fresh}) == 9
    assert [g.bot_index for g in fresh] == [g.bot_index for g in games]


def test_a_partial_last_set_plays_the_first_rotations() -> None:
    games = schedule(["a", "b", "c"], 7, seed=1)
    assert [g.set for g in games] == [0, 0, 0, 1, 1, 1, 2]
    assert games[6].bot_index == games[0].bot_index
    seats_of_a = Counter(g.seat_of(0) for g in games)
    assert seats_of_a == {0: 3, 1: 2, 2: 2}


# ------------------------------------------------------------- playing


def test_duplicate_deals_give_every_bot_every_hand_of_the_same_deck() -> None:
    specs = ["greedy", "random", "random"]
    result = run_tournament(specs, games=6, seed=21, workers=1)
    assert [g.game for g in result.games] == list(range(6))
    for j in range(2):
        in_set = [g for g in result.games if g.set == j]
        deck = round1_hands(in_set[0])
        for g in in_set:
            assert g.deal_seed == in_set[0].deal_seed
            assert g.record is not None and g.record["meta"]["seed"] == g.deal_seed
            assert round1_hands(g) == deck  # the same deal, seat by seat
        for k in range(3):  # ... and bot k holds each seat's hand once: the deck rotated
            assert sorted(map(sorted, (round1_hands(g)[g.seat_of(k)] for g in in_set))) == sorted(map(sorted, deck))
    assert round1_hands(result.games[0]) != round1_hands(result.games[3])


def test_without_duplicate_deals_every_game_is_dealt_afresh() -> None:
    result = run_tournament(["random", "random"], games=4, seed=21, workers=1, duplicate=False)
    assert len({g.deal_seed for g in result.games}) == 4
    assert len({json.dumps(round1_hands(g)) for g in result.games}) == 4
    assert [g.bot_index for g in result.games] == [(0, 1), (1, 0), (0, 1), (1, 0)]


def test_results_are_what_the_engine_says() -> None:
    result = run_tournament(["greedy", "random", "random", "greedy"], games=4, seed=2, workers=1)
    for g in result.games:
        assert g.record is not None
        game = replay(g.record)
        assert tuple(game.result().totals) == g.totals
        assert tuple(game.result().winners) == g.winners
        assert g.record["meta"]["bots"] == list(g.seats)
        assert g.record["meta"]["bot_seeds"] == list(g.bot_seeds)
        assert min(g.ranks) >= 1 and sum(g.ranks) == 10  # 1+2+3+4, ties averaged
        assert all(g.ranks[s] == min(g.ranks) for s in g.winners)
        assert g == play_scheduled(scheduled_game(result.specs, g.game, seed=2), result.rules)


def test_same_seed_same_games_whatever_the_workers(tmp_path: Path) -> None:
    specs = ["greedy", "random", "greedy:", "random"]
    one = run_tournament(specs, games=10, seed=99, workers=1)
    again = run_tournament(specs, games=10, seed=99, workers=1)
    two = run_tournament(specs, games=10, seed=99, workers=2)
    assert one.games == again.games == two.games
    assert one.summary().to_json() == two.summary().to_json()
    save_results(one, str(tmp_path / "a"))
    save_results(two, str(tmp_path / "b"))
    assert (tmp_path / "a" / "games.jsonl").read_bytes() == (tmp_path / "b" / "games.jsonl").read_bytes()
    other = run_tournament(specs, games=10, seed=100, workers=1)
    assert other.games != one.games


def test_progress_is_reported_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    run_tournament(["random", "random"], games=5, seed=1, workers=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (5, 5)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_random_seed_is_chosen_and_kept() -> None:
    result = run_tournament(["random", "random"], games=2, workers=1, keep_records=False)
    assert isinstance(result.seed, int)
    assert result.games[0].record is None
    assert run_tournament(["random", "random"], games=2, seed=result.seed, workers=1,
                          keep_records=False).games == result.games


@pytest.mark.parametrize(
    "players, menu",
    [(2, "Dinner for Two"), (6, "Big Banquet"), (3, "Master Menu")],
)
def test_party_tournaments(players: int, menu: str) -> None:
    rules = Rules.party(players, menu)
    specs = ["greedy"] + ["random"] * (players - 1)
    result = run_tournament(specs, games=players, seed=8, rules=rules, workers=1)
    deck = round1_hands(result.games[0])
    for g in result.games:
        assert g.record is not None and g.record["edition"] == "party"
        assert round1_hands(g) == deck
        game = replay(g.record)
        assert tuple(game.result().totals) == g.totals
        line = g.to_json(rules)
        assert line["edition"] == "party" and line["menu"] == list(rules.menu)
    assert [b.games for b in result.summary().bots] == [players] * players


# ------------------------------------------------------------- summaries


def fake_game(game: int, bot_index: tuple[int, ...], totals: tuple[int, ...], winners: tuple[int, ...],
              ranks: tuple[float, ...]) -> GameResult:
    n = len(bot_index)
    return GameResult(game=game, set=game // n, deal_seed=0, seats=tuple(f"b{k}" for k in bot_index),
                      bot_index=bot_index, bot_seeds=(0,) * n, totals=totals, winners=winners, ranks=ranks)


def test_summary_arithmetic_with_shared_wins() -> None:
    games = [
        fake_game(0, (0, 1, 2), (40, 40, 30), (0, 1), (1.5, 1.5, 3.0)),   # b0 and b1 share
        fake_game(1, (2, 0, 1), (50, 20, 20), (0,), (1.0, 2.5, 2.5)),     # b2 wins
        fake_game(2, (1, 2, 0), (33, 33, 33), (0, 1, 2), (2.0, 2.0, 2.0)),  # three-way share
    ]
    result = TournamentResult(specs=("b0", "b1", "b2"), seed=1, rules=Rules(3), duplicate=True,
                              backend="local", workers=1, time_limit=None, games=games)
    bots = summarize(result).bots
    assert [b.wins for b in bots] == pytest.approx([1 / 2 + 1 / 3, 1 / 2 + 1 / 3, 1 + 1 / 3])
    assert sum(b.wins for b in bots) == pytest.approx(3)
    assert [b.mean_score for b in bots] == pytest.approx([(40 + 20 + 33) / 3, (40 + 20 + 33) / 3, (30 + 50 + 33) / 3])
    assert [b.mean_rank for b in bots] == pytest.approx([(1.5 + 2.5 + 2) / 3, (1.5 + 2.5 + 2) / 3, (3 + 1 + 2) / 3])
    for b in bots:
        lo, hi = b.win_rate_ci
        assert 0 <= lo <= b.win_rate <= hi <= 1
        assert b.mean_score_ci is not None and b.mean_score_ci[0] <= b.mean_score <= b.mean_score_ci[1]


def test_greedy_rates_above_random() -> None:
    result = run_tournament(["random", "greedy", "random", "random"], games=60, seed=4, workers=2,
                            keep_records=False)
    bots = result.summary().bots
    greedy = bots[1]
    for other in (bots[0], bots[2], bots[3]):
        assert greedy.rating.mu > other.rating.mu
        assert greedy.rating.ordinal > other.rating.ordinal
        assert greedy.mean_rank < other.mean_rank
        assert greedy.win_rate > other.win_rate


# ------------------------------------------------------------- external bots


class FakeExternal(Bot):
    """Stands in for ExternalBot: plays the first legal action, reports an incident per game."""

    name = "cmd"
    made: list[FakeExternal] = []

    def __init__(self, seed: int | None) -> None:
        super().__init__(seed)
        self.incidents: list[dict[str, Any]] = []
        self.closed = False
        self.games = 0
        FakeExternal.made.append(self)

    def choose(self, view: Any) -> int:
        return int(view.legal_actions[0])

    def start_game(self, game_id: str, seat: int, rules: Rules) -> None:
        self.games += 1
        self.incidents.append({"game": game_id, "round": 1, "turn": 1, "seat": seat, "kind": "timeout",
                               "detail": f"draw {self.rng.randrange(1000)}"})

    def close(self) -> None:
        self.closed = True


def test_external_bots_live_across_games_and_report_incidents(monkeypatch: pytest.MonkeyPatch) -> None:
    real_make_bot = runner.make_bot

    def make_bot(spec: str, seed: int | None = None, *, timeout: float | None = None) -> Bot:
        return FakeExternal(seed) if spec.startswith("cmd:") else real_make_bot(spec, seed, timeout=timeout)

    monkeypatch.setattr(runner, "make_bot", make_bot)  # checking the specs
    monkeypatch.setattr(play, "make_bot", make_bot)  # playing the games
    FakeExternal.made = []
    specs = ["cmd:fake", "random", "cmd:fake"]
    result = run_tournament(specs, games=6, seed=3, workers=1)
    live = [b for b in FakeExternal.made if b.games]
    assert len(live) == 2 and all(b.games == 6 for b in live)  # one per listed bot, for every game
    assert all(b.closed for b in FakeExternal.made)
    assert all(len(g.incidents) == 2 for g in result.games)
    first = result.games[0].incidents[0]
    assert first["game_index"] == 0 and first["kind"] == "timeout" and first["name"] == "cmd:fake"
    assert {i["bot"] for g in result.games for i in g.incidents} == {0, 2}
    assert [b.incidents for b in result.summary().bots] == [{"timeout": 6}, {}, {"timeout": 6}]
    # reseeded per game: the same draws again
    FakeExternal.made = []
    assert run_tournament(specs, games=6, seed=3, workers=1).games == result.games


def test_a_real_external_bot_serves_many_games_per_worker(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = f"cmd:{sys.executable} {BOTS_DIR / 'good.py'} --log {log}"
    result = run_tournament([bot, "random", "greedy"], games=12, seed=5, workers=2, time_limit=10)
    assert not any(g.incidents for g in result.games)
    pids = {json.loads(line)["pid"] for line in log.read_text().splitlines()}
    assert 1 <= len(pids) <= 2  # one program per worker process, not one per game
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in pids)  # closed when the workers ended


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie is as good as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


# ------------------------------------------------------------- bad input (API)


@pytest.mark.parametrize(
    "specs, kwargs, needle",
    [
        (["greedy"], {}, "2 or more bots"),
        (["greedy", "clever"], {}, "unknown bot 'clever'"),
        (["greedy", "greedy:depth=2"], {}, "no setting 'depth'"),
        (["random"] * 6, {}, "6 bots"),
        (["random"] * 3, {"rules": Rules(4)}, "3 bots for a 4-player game"),
        (["random"] * 2, {"games": 0}, "games must be"),
        (["random"] * 2, {"backend": "dask"}, "unknown backend"),
        (["random"] * 2, {"workers": 0}, "workers must be"),
        (["random"] * 2, {"time_limit": 0}, "more than 0"),
    ],
)
def test_bad_settings_raise_one_line(specs: list[str], kwargs: dict[str, Any], needle: str) -> None:
    with pytest.raises(TournamentError) as info:
        run_tournament(specs, **{"seed": 1, "workers": 1, **kwargs})
    assert needle in str(info.value) and "\n" not in str(info.value)


# ------------------------------------------------------------- the command


def test_command_json_matches_the_saved_games(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = sushigo("tournament", "greedy", "random", "random", "--games", "7", "--seed", "12",
                   "--workers", "2", "--json", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    summary = json.loads(proc.stdout)
    assert [b["name"] for b in summary["bots"]] == ["greedy", "random", "random"]
    for b in summary["bots"]:
        assert list(b)[:5] == ["name", "games", "wins", "win_rate", "mean_score"]
    lines = list(read_games(str(out / "games.jsonl")))
    assert [line["game"] for line in lines] == list(range(7))
    for k, entry in enumerate(summary["bots"]):  # recomputed by hand from the games
        seats = [line["bot_index"].index(k) for line in lines]
        wins = sum(Fraction(1, len(line["winners"])) for line, s in zip(lines, seats) if s in line["winners"])
        scores = [line["totals"][s] for line, s in zip(lines, seats)]
        assert entry["games"] == 7
        assert entry["wins"] == pytest.approx(float(wins))
        assert entry["win_rate"] == pytest.approx(float(wins) / 7)
        assert entry["mean_score"] == pytest.approx(sum(scores) / 7)
        assert entry["mean_rank"] == pytest.approx(sum(line["ranks"][s] for line, s in zip(lines, seats)) / 7)
    saved = json.loads((out / "summary.json").read_text())
    assert saved["bots"] == summary["bots"]
    assert {"seed": 12, "games": 7, "players": 3, "edition": "base", "menu": None, "backend": "local",
            "duplicate": True}.items() <= saved.items()
    assert saved["options"] == {"pass_both_ways": False, "reshuffle": False}
    keys = ["game", "set", "deal_seed", "edition", "menu", "players", "seats", "bot_index", "bot_seeds",
            "totals", "winners", "ranks", "incidents", "record"]
    for line in lines:
        assert list(line) == keys
        assert line["seats"] == [["greedy", "random", "random"][k] for k in line["bot_index"]]
        assert list(replay(line["record"]).result().totals) == line["totals"]
    record = tmp_path / "game3.json"
    record.write_text(json.dumps(lines[3]["record"]))
    replayed = sushigo("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["totals"] == lines[3]["totals"]
    again = sushigo("tournament", "greedy", "random", "random", "--games", "7", "--seed", "12",
                    "--workers", "1", "--out", str(tmp_path / "again"), "--quiet")
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "again" / "games.jsonl").read_bytes() == (out / "games.jsonl").read_bytes()
    refused = sushigo("tournament", "random", "random", "--games", "2", "--out", str(out))
    assert_one_line_error(refused, "already holds games.jsonl", code=1)
    assert [line["game"] for line in read_games(str(out / "games.jsonl"))] == list(range(7))
    assert not (out / "games.partial.jsonl").exists()  # replaced by the complete results


@pytest.mark.slow
def test_an_interrupted_tournament_keeps_the_games_it_finished(tmp_path: Path) -> None:
    """Ctrl-C in the middle of a run: every finished game is on disk, and replays."""
    import signal
    import time

    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "sushigo", "tournament", "ismcts:iterations=60", "greedy", "--games", "40",
         "--seed", "3", "--workers", "1", "--quiet", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # a shell that starts the tests in the background ignores SIGINT for its children: undo that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    partial = out / "games.partial.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (partial.exists() and partial.read_text().count("\n") >= 1):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "finished game(s) kept in" in stderr
    lines = list(read_games(str(partial)))
    assert 1 <= len(lines) < 40  # games are kept a chunk at a time (5 of 40 games on one worker)
    for line in lines:
        assert list(replay(line["record"]).result().totals) == line["totals"]
    assert not (out / "games.jsonl").exists()
    again = sushigo("tournament", "random", "random", "--games", "2", "--out", str(out))
    assert_one_line_error(again, "already holds games.partial.jsonl", code=1)


def test_command_table_and_party_options(tmp_path: Path) -> None:
    proc = sushigo("tournament", "greedy", "random", "--games", "3", "--seed", "4", "--edition", "party",
                   "--menu", "dinner-for-two", "--uramaki-split", "3-5-4", "--out", str(tmp_path / "p"))
    assert proc.returncode == 0, proc.stderr
    assert "seed 4" in proc.stdout and "Sushi Go Party! (Dinner for Two)" in proc.stdout
    assert "greedy" in proc.stdout and "not a multiple of 2" in proc.stdout
    assert proc.stderr == ""  # no progress bar when stderr is not a terminal
    line = next(read_games(str(tmp_path / "p" / "games.jsonl")))
    assert line["edition"] == "party" and line["menu"][0] == "nigiri"
    assert line["record"]["options"]["uramaki_split"] == "3-5-4"


@pytest.mark.parametrize(
    "args, needle, code",
    [
        (["greedy", "clever"], "unknown bot 'clever'", 2),
        (["greedy", "greedy:depth=2"], "no setting 'depth'", 2),
        (["greedy"], "2 or more bots", 2),
        (["random"] * 6, "6 bots: the base game is for 2-5 players", 2),
        (["random"] * 9 + ["--edition", "party"], "9 bots: Sushi Go Party! is for 2-8 players", 2),
        (["random"] * 8 + ["--edition", "party", "--menu", "party sampler"], "Menu card", 2),
        (["random", "random", "--edition", "party", "--menu", "lunch"], "unknown menu 'lunch'", 2),
        (["random", "random", "--menu", "Sushi Go!"], "--menu is for Sushi Go Party!", 2),
        (["random", "random", "--edition", "party", "--reshuffle"], "--reshuffle is a base-game option", 2),
        (["random", "random", "--games", "0"], "--games", 2),
        (["random", "random", "--backend", "dask"], "--backend must be one of local, ray", 2),
        (["random", "random", "--time-limit", "0"], "--time-limit", 2),
        (["random", "random", "--ray-address", "auto"], "--ray-address is for --backend ray", 2),
        (["random", "cmd:"], "cmd: needs a command", 2),
    ],
)
def test_command_bad_input_is_one_line(args: list[str], needle: str, code: int) -> None:
    assert_one_line_error(sushigo("tournament", *args), needle, code=code)


def test_command_unwritable_out(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_one_line_error(sushigo("tournament", "random", "random", "--out", str(blocker)), "not a folder", code=1)
    assert_one_line_error(sushigo("tournament", "random", "random", "--out", str(blocker / "sub")),
                          "can't create", code=1)
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert_one_line_error(sushigo("tournament", "random", "random", "--out", str(locked)), "can't write", code=1)


def test_command_ray_backend_without_ray() -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from sushigo.cli.app import main\n"
        "sys.exit(main(['tournament', 'random', 'random', '--games', '2', '--backend', 'ray']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert_one_line_error(proc, "--backend ray needs Ray", "pip install", code=1)


class BrokenBot(Bot):
    name = "broken"

    def choose(self, view: Any) -> int:
        raise RuntimeError("out of\nsoy sauce")


def test_a_failing_game_stops_the_tournament_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    real_make_bot = runner.make_bot

    def make_bot(spec: str, seed: int | None = None, *, timeout: float | None = None) -> Bot:
        return BrokenBot(seed) if spec == "random:" else real_make_bot(spec, seed, timeout=timeout)

    monkeypatch.setattr(runner, "make_bot", make_bot)  # checking the specs
    monkeypatch.setattr(play, "make_bot", make_bot)  # playing the games
    with pytest.raises(TournamentError) as info:
        run_tournament(["greedy", "random:"], games=4, seed=1, workers=1)
    assert str(info.value) == "game 0 (greedy, random:): out of soy sauce"
    assert not info.value.usage
