"""External bots (``cmd:COMMAND``, protocol ``sushigo-bot/1``) with real subprocesses.

The bots under test live in ``tests/bots/``: ``good.py`` logs every message
it receives (with its PID) and plays the first or last legal entry;
``misbehave.py`` fails on purpose in one of several ways.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from sushigo.bots import Bot, RandomBot, make_bot, play_game
from sushigo.bots.base import AnyView
from sushigo.bots.external import PROTOCOL, ExternalBot, Incident
from sushigo.engine.base.actions import Action, card_ids
from sushigo.engine.base.cards import Card
from sushigo.engine.base.game import Game
from sushigo.engine.base.view import seat_view
from sushigo.engine.party.actions import party_action_name
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.party.game import PartyGame
from sushigo.engine.party.view import party_seat_view
from sushigo.engine.rules import Rules

HERE = Path(__file__).resolve().parents[1]
ROOT = HERE.parent
GOOD = HERE / "bots" / "good.py"
MISBEHAVE = HERE / "bots" / "misbehave.py"
EXAMPLE = ROOT / "examples" / "bots" / "first_legal.py"

BASE_KEYS = {
    "type": str, "protocol": str, "game": str, "seat": int, "players": int, "round": int,
    "turn": int, "hand": list, "collections": list, "puddings": list, "scores": list, "legal": list,
}
PARTY_KEYS = {
    "type": str, "protocol": str, "edition": str, "game": str, "seat": int, "players": int,
    "menu": list, "round": int, "turn": int, "hand": list, "collections": list,
    "desserts": list, "scores": list, "legal": list, "decision": (dict, type(None)),
}
PARTY_TABLES = [
    ("Master Menu", 3), ("Master Menu", 5), ("Party Sampler", 2), ("Party Sampler", 6),
    ("Cutthroat Combo", 4), ("Cutthroat Combo", 7), ("Dinner for Two", 3), ("Dinner for Two", 6),
    ("Points Platter", 6), ("Big Banquet", 8),
]


def command(script: Path, *args: str | Path | float) -> str:
    return shlex.join([sys.executable, str(script), *map(str, args)])


class Log:
    """Reads the messages a test bot logged, incrementally."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    @staticmethod
    def _complete(text: str) -> list[str]:
        """The whole lines of ``text``: a bot still running may be writing the last one."""
        return text.splitlines() if text.endswith("\n") else text.splitlines()[:-1]

    def all(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self._complete(self.path.read_text(encoding="utf-8"))]

    def new(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as f:
            f.seek(self.offset)
            lines = self._complete(f.read())
        self.offset += sum(len(line.encode("utf-8")) + 1 for line in lines)
        return [json.loads(line) for line in lines]

    def pids(self) -> list[int]:
        return list(dict.fromkeys(entry["pid"] for entry in self.all()))


@pytest.fixture
def log(tmp_path: Path) -> Log:
    return Log(tmp_path / "messages.jsonl")


@pytest.fixture
def bots() -> Iterator[list[ExternalBot]]:
    """External bots made by a test; every one is closed (and checked) afterwards."""
    made: list[ExternalBot] = []
    yield made
    for bot in made:
        proc = bot.process
        bot.close()
        assert bot.process is None
        assert proc is None or proc.poll() is not None


def external(bots: list[ExternalBot], cmd: str, seed: int = 0, **kw: Any) -> ExternalBot:
    bot = ExternalBot(cmd, seed, **kw)
    bots.append(bot)
    return bot


def gone(pid: int) -> bool:
    """The process has exited and was reaped (no zombie left)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


class LastBot(Bot):
    """In-process twin of ``good.py --pick last``."""

    name: ClassVar[str] = "last"

    def choose(self, view: AnyView) -> Action:
        return view.legal_actions[-1]


def picks(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["msg"] for e in entries if e["msg"]["type"] == "pick"]


def base_names(cards: Sequence[int]) -> list[str]:
    return [Card(c).name_in_records for c in cards]


def party_names(cards: Sequence[int]) -> list[str]:
    return [PartyCard(c).name_in_records for c in cards]


def check_types(msg: dict[str, Any], keys: dict[str, Any]) -> None:
    for key, kind in keys.items():
        assert key in msg, key
        assert isinstance(msg[key], kind), (key, msg[key])
    assert msg["type"] == "pick" and msg["protocol"] == PROTOCOL
    assert all(isinstance(e, list) and e and all(isinstance(x, str) for x in e) for e in msg["legal"])


def check_base_message(msg: dict[str, Any], game: Game, seat: int, game_id: str) -> None:
    check_types(msg, BASE_KEYS)
    n = game.players
    assert (msg["game"], msg["seat"], msg["players"]) == (game_id, seat, n)
    assert (msg["round"], msg["turn"]) == (game.round, game.turn)
    assert 1 <= msg["round"] <= 3 and 1 <= msg["turn"] <= game.rules.hand_size
    assert msg["hand"] == base_names(game.hands[seat])
    assert msg["legal"] == [base_names(card_ids(a)) for a in game.legal_actions(seat)]
    assert msg["collections"] == [base_names(c) for c in game.collections]
    assert msg["puddings"] == game.puddings()
    assert msg["scores"] == [sum(r[s] for r in game.result().rounds) for s in range(n)]
    assert msg["edition"] == "base" and msg["pass_to"] == (seat + game.pass_step) % n


def check_party_message(msg: dict[str, Any], game: PartyGame, seat: int, game_id: str) -> None:
    check_types(msg, PARTY_KEYS)
    n = game.players
    assert msg["edition"] == "party" and msg["menu"] == list(game.rules.menu)
    assert (msg["game"], msg["seat"], msg["players"]) == (game_id, seat, n)
    assert (msg["round"], msg["turn"]) == (game.round, game.turn)
    assert 1 <= msg["round"] <= 3 and 1 <= msg["turn"] <= game.rules.hand_size
    assert msg["hand"] == party_names(game.hand(seat))
    assert msg["legal"] == [[party_action_name(a)] for a in game.legal_actions(seat)]
    view = party_seat_view(game, seat)
    assert msg["collections"] == [[p.text for p in col] for col in view.collections]
    assert msg["desserts"] == [party_names(d) for d in game.desserts]
    pudding = int(PartyCard.PUDDING)
    assert msg["puddings"] == [
        game.desserts[s].count(pudding) + sum(p.kind == pudding for p in game.collections[s])
        for s in range(game.players)
    ]
    assert msg["scores"] == [sum(r[s] for r in game.result().rounds) for s in range(n)]
    d = game.decision
    if d is None:
        assert msg["decision"] is None
    else:
        assert d.seat == seat
        assert msg["decision"] == {
            "kind": d.kind, "card": PartyCard(d.card).name_in_records, "drawn": party_names(d.drawn),
        }


# ------------------------------------------------------------ a good bot


def test_good_bot_messages_follow_the_protocol_in_base_games(bots: list[ExternalBot], log: Log) -> None:
    bot = external(bots, command(GOOD, "--log", log.path), seed=1)
    results = []
    for n in (2, 3, 4, 5):
        seat = n - 2
        game = Game(n, seed=10 + n)
        game_id = f"base-{n}"
        others = [RandomBot(seed=s) for s in range(n)]
        bot.start_game(game_id, seat, game.rules)
        decisions = 0
        while not game.is_over:
            chosen = []
            for s in range(n):
                if s != seat:
                    chosen.append(others[s].choose(seat_view(game, s)))
                    continue
                action = bot.choose(seat_view(game, s))
                (msg,) = picks(log.new())
                check_base_message(msg, game, s, game_id)
                assert action == game.legal_actions(s)[0]  # good.py plays the first entry
                decisions += 1
                chosen.append(action)
            game.play(chosen)
        result = game.result().to_json()
        bot.end_game(game_id, result)
        assert decisions == 3 * game.rules.hand_size
        results.append(result)
    bot.close()  # the bot exits when its input ends: its log is complete
    ends = [e["msg"] for e in log.all() if e["msg"]["type"] == "end"]
    assert ends == [{"type": "end", "game": f"base-{n}", "result": r} for n, r in zip((2, 3, 4, 5), results)]
    assert bot.incidents == [] and bot.starts == 1
    assert len(log.pids()) == 1  # one process served every game


def test_good_bot_messages_follow_the_protocol_in_party_games(bots: list[ExternalBot], log: Log) -> None:
    bot = external(bots, command(GOOD, "--pick", "last", "--log", log.path), seed=2)
    kinds: set[str | None] = set()
    for i, (menu, n) in enumerate(PARTY_TABLES[:6]):
        seat = i % n
        game = PartyGame(Rules.party(n, menu), seed=i)
        game_id = f"party-{i}"
        others = [RandomBot(seed=s) for s in range(n)]
        bot.start_game(game_id, seat, game.rules)
        while not game.is_over:
            for s in game.pending_seats:
                if s != seat:
                    game.commit(s, others[s].choose(party_seat_view(game, s)))
                    continue
                action = bot.choose(party_seat_view(game, s))
                (msg,) = picks(log.new())
                check_party_message(msg, game, s, game_id)
                kinds.add(None if game.decision is None else game.decision.kind)
                assert action == game.legal_actions(s)[-1]
                game.commit(s, action)
        bot.end_game(game_id, game.result().to_json())
    assert {None, "spoon", "takeout_box", "menu"} <= kinds
    assert bot.incidents == [] and bot.starts == 1
    bot.close()
    ends = [e["msg"]["game"] for e in log.all() if e["msg"]["type"] == "end"]
    assert ends == [f"party-{i}" for i in range(6)]
    assert len(log.pids()) == 1


def test_good_bots_play_whole_games_with_play_game(bots: list[ExternalBot], log: Log) -> None:
    seats = [external(bots, command(GOOD, "--log", log.path), seed=s) for s in range(2)]
    tables: list[tuple[Rules, int]] = [(Rules(n), n) for n in (2, 3, 4, 5)]
    tables += [(Rules.party(n, menu), n) for menu, n in PARTY_TABLES]
    for g, (rules, n) in enumerate(tables):
        players: list[Bot] = [*seats, *(RandomBot(seed=s) for s in range(n - 2))]
        game = play_game(players, seed=g, rules=rules, game_id=f"g{g}")
        assert game.is_over
    assert all(bot.incidents == [] and bot.starts == 1 for bot in seats)
    for bot in seats:
        bot.close()
    entries = log.all()
    for pid in log.pids():
        mine = [e["msg"] for e in entries if e["pid"] == pid]
        assert [m["game"] for m in mine if m["type"] == "end"] == [f"g{g}" for g in range(len(tables))]
        assert {m["round"] for m in mine if m["type"] == "pick"} == {1, 2, 3}
        assert min(m["turn"] for m in mine if m["type"] == "pick") == 1
    assert len(log.pids()) == 2


def test_picks_are_used(bots: list[ExternalBot]) -> None:
    for rules, seed in [(Rules(3), 5), (Rules(5, pass_both_ways=True), 6),
                        (Rules.party(4, "Master Menu"), 7), (Rules.party(3, "Dinner for Two"), 8)]:
        n = rules.players
        ext = external(bots, command(GOOD, "--pick", "last"))
        played = play_game([ext, *(RandomBot(seed=s) for s in range(1, n))], seed=seed, rules=rules)
        twin = play_game([LastBot(seed=0), *(RandomBot(seed=s) for s in range(1, n))], seed=seed, rules=rules)
        first = play_game([RandomBot(seed=9), *(RandomBot(seed=s) for s in range(1, n))], seed=seed, rules=rules)
        assert ext.incidents == []
        assert played.history() == twin.history()
        assert played.history() != first.history()


def test_card_names_are_accepted_in_any_case(bots: list[ExternalBot]) -> None:
    bot = external(bots, command(GOOD, "--upper"))
    play_game([bot, RandomBot(seed=1)], seed=3)
    play_game([bot, RandomBot(seed=1), RandomBot(seed=2)], seed=3, rules=Rules.party(3, "Master Menu"))
    assert bot.incidents == []


def test_example_bot_plays_both_editions(bots: list[ExternalBot]) -> None:
    bot = external(bots, shlex.join([sys.executable, str(EXAMPLE)]))
    play_game([bot, RandomBot(seed=1), RandomBot(seed=2)], seed=1)
    play_game([bot, RandomBot(seed=1), RandomBot(seed=2)], seed=1, rules=Rules.party(3, "Party Sampler"))
    assert bot.incidents == [] and bot.starts == 1


def test_make_bot_builds_an_external_bot(bots: list[ExternalBot]) -> None:
    bot = make_bot(f"cmd:{command(GOOD)}", seed=4, timeout=2.5)
    assert isinstance(bot, ExternalBot)
    bots.append(bot)
    assert (bot.name, bot.timeout, bot.seed) == ("cmd", 2.5, 4)
    assert bot.process is None  # started lazily, on the first decision
    play_game([bot, RandomBot(seed=0)], seed=0)
    assert bot.incidents == [] and bot.process is not None
    with ExternalBot(command(GOOD)) as other:
        play_game([other, RandomBot(seed=0)], seed=0)
        proc = other.process
        assert proc is not None
    assert other.process is None and proc.poll() is not None


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError):
        ExternalBot("   ")
    with pytest.raises(ValueError):
        ExternalBot(command(GOOD), timeout=0)
    with pytest.raises(ValueError):
        make_bot("cmd:")


# ------------------------------------------------------------ misbehaving bots


def play_all(bot: ExternalBot, games: Sequence[tuple[Rules, int]]) -> None:
    """Play games with ``bot`` in seat 0; every action must be legal (the engine checks)."""
    for rules, seed in games:
        others = [RandomBot(seed=s) for s in range(1, rules.players)]
        game = play_game([bot, *others], seed=seed, rules=rules, game_id=f"game-{seed}")
        assert game.is_over


TWO_GAMES = [(Rules(2), 1), (Rules.party(3, "Cutthroat Combo"), 2)]


@pytest.mark.parametrize(
    ("mode", "every", "kind", "restarts"),
    [
        ("garbage", 5, "garbage", False),
        ("shape", 4, "garbage", False),
        ("illegal", 3, "illegal", False),
        ("exit", 9, "died", True),
        ("closeout", 12, "died", True),
        ("closein", 11, "died", True),
        ("flood", 14, "garbage", True),
    ],
)
def test_misbehaviour_is_recorded_and_the_game_goes_on(
    bots: list[ExternalBot], log: Log, mode: str, every: int, kind: str, restarts: bool
) -> None:
    bot = external(bots, command(MISBEHAVE, mode, every, "--log", log.path), seed=3, timeout=5)
    play_all(bot, TWO_GAMES)
    assert bot.incidents, mode
    assert {i.kind for i in bot.incidents} == {kind}
    asked = picks(log.all())
    for incident in bot.incidents:
        assert isinstance(incident, Incident) and incident.seat == 0
        assert incident.game_id in ("game-1", "game-2")
        assert incident.round >= 1 and incident.turn >= 1 and "\n" not in incident.detail
        assert incident.to_json()["kind"] == kind
    pids = log.pids()
    if restarts:
        assert bot.starts == len(pids) > 1  # restarted after each failure
    else:
        assert bot.starts == len(pids) == 1
    if mode in ("garbage", "shape", "illegal"):
        assert len(bot.incidents) == len(asked) // every  # one incident per failed decision
    proc = bot.process
    bot.close()
    assert proc is None or proc.poll() is not None
    assert all(gone(pid) for pid in pids)


def running(pid: int) -> bool:
    """The process exists and is not a zombie (an orphan's zombie is its new parent's to reap)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return not gone(pid)
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_what_a_bot_started_dies_with_it(bots: list[ExternalBot], log: Log) -> None:
    bot = external(bots, command(MISBEHAVE, "orphan", 5, "--log", log.path), timeout=5)
    play_all(bot, [(Rules(2), 3)])
    children = [e["child"] for e in log.all() if "child" in e]
    assert len(children) == len(bot.incidents) == 30 // 5
    assert {i.kind for i in bot.incidents} == {"died"}
    assert "exit status 3" in bot.incidents[0].detail
    bot.close()
    deadline = time.monotonic() + 2
    while any(running(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(running(pid) for pid in children)


def test_a_slow_bot_times_out_is_killed_and_restarted(bots: list[ExternalBot], log: Log) -> None:
    bot = external(bots, command(MISBEHAVE, "sleep", 8, "--sleep", 5, "--log", log.path),
                   seed=3, timeout=0.3)
    assert bot.startup_timeout == 5  # start-up may take longer than a decision
    started = time.monotonic()
    play_all(bot, [(Rules(3), 4)])  # 27 decisions: every process times out on its 8th
    elapsed = time.monotonic() - started
    kinds = [i.kind for i in bot.incidents]
    assert kinds == ["timeout"] * 3
    assert elapsed < 3 * 0.3 + 3  # never waits past the timeout
    bot.close()  # first: the last process may still be writing its log when the games end
    pids = log.pids()
    assert bot.starts == len(pids) == 4
    assert all(gone(pid) for pid in pids)


def test_a_slow_answer_costs_no_more_than_the_timeout(bots: list[ExternalBot]) -> None:
    bot = external(bots, command(MISBEHAVE, "sleep", 1, "--sleep", 5), seed=0, timeout=0.2,
                   startup_timeout=0.2)
    game = Game(2, seed=0)
    started = time.monotonic()
    action = bot.choose(seat_view(game, 0))
    assert time.monotonic() - started < 1.5
    assert action in game.legal_actions(0)
    assert [i.kind for i in bot.incidents] == ["timeout"] and bot.process is None


def test_a_command_that_does_not_exist(bots: list[ExternalBot]) -> None:
    bot = external(bots, "no-such-sushigo-bot --please", seed=5)
    play_all(bot, TWO_GAMES)
    assert bot.incidents and {i.kind for i in bot.incidents} == {"start_failed"}
    assert "no-such-sushigo-bot" in bot.incidents[0].detail
    assert bot.process is None and bot.starts == 0
    again = external(bots, "no-such-sushigo-bot --please", seed=5)
    play_all(again, TWO_GAMES)
    assert again.incidents == bot.incidents  # the fallback draws from the bot's own seeded generator


def test_extra_output_is_discarded_and_stderr_never_blocks(bots: list[ExternalBot], tmp_path: Path) -> None:
    extra = external(bots, command(MISBEHAVE, "extra", 2), timeout=5)
    chatty = external(bots, command(MISBEHAVE, "chatty", 1), timeout=5)  # 256 KiB of stderr per pick
    errors = (tmp_path / "stderr.txt").open("w", encoding="utf-8")
    logged = external(bots, command(MISBEHAVE, "chatty", 1), timeout=5, stderr=errors)
    play_game([extra, chatty, logged], seed=2)
    errors.close()
    assert extra.incidents == chatty.incidents == logged.incidents == []
    assert (tmp_path / "stderr.txt").stat().st_size > 27 * 256 * 1024


def test_end_game_and_close_survive_a_dead_bot(bots: list[ExternalBot]) -> None:
    bot = external(bots, command(MISBEHAVE, "closein", 6), timeout=5)
    game = play_game([bot, RandomBot(seed=1)], seed=1)  # end_game writes to a closed pipe
    assert game.is_over and bot.incidents and bot.incidents[0].kind == "died"
    bot.end_game("again", {})
    bot.close()
    bot.close()
    bot.end_game("after close", {})


def test_repr_and_close_before_use() -> None:
    bot = ExternalBot(shlex.join([sys.executable, "-c", "pass"]), seed=1, timeout=1)
    assert repr(bot).startswith("ExternalBot(") and bot.process is None
    assert bot.argv[1:] == ["-c", "pass"]
    bot.close()
