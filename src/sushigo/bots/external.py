"""External bots: a program of any language plays a seat over JSON lines (``sushigo-bot/1``).

:class:`ExternalBot` runs a command as a subprocess (no shell), started on
first use and kept for every later game.  For each decision it writes one
``pick`` message (:func:`pick_message`) to the program's standard input and
reads one line back, ``{"pick": ENTRY}`` with ``ENTRY`` one of the message's
``legal`` entries; after each game it writes an ``end`` message.  Whatever
goes wrong with the program (garbage, an illegal pick, no answer within
``timeout`` seconds, a crash, a command that does not start) is recorded as
an :class:`Incident` and the seat plays a uniformly random legal action drawn
from the bot's own generator: the game always goes on.  ``docs/bot-protocol.md``
describes the protocol completely.  The transport uses :mod:`selectors` on
pipes, so it needs a POSIX system.

>>> from sushigo import Game
>>> from sushigo.engine.base.view import seat_view
>>> message = pick_message(seat_view(Game(2, seed=1), 0), "g1")
>>> message["type"], message["protocol"], message["round"], message["turn"]
('pick', 'sushigo-bot/1', 1, 1)
>>> message["legal"][:3]
[['tempura'], ['sashimi'], ['maki1']]
>>> import shlex, sys
>>> quitter = shlex.join([sys.executable, "-c", "pass"])   # exits without answering
>>> with ExternalBot(quitter, seed=3, timeout=5) as bot:
...     action = bot.choose(seat_view(Game(2, seed=1), 0))
>>> action in Game(2, seed=1).legal_actions(0), [i.kind for i in bot.incidents]
(True, ['died'])
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import signal
import subprocess
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, ClassVar, Final, Literal

from sushigo.bots.base import AnyView, Bot, legal_actions_of
from sushigo.engine.base.actions import Action, card_ids
from sushigo.engine.base.cards import Card
from sushigo.engine.base.view import SeatView
from sushigo.engine.editions import by_view
from sushigo.engine.party.actions import party_action_name
from sushigo.engine.party.cards import PartyCard
from sushigo.engine.party.view import PartySeatView
from sushigo.engine.rules import OPTION_NAMES, PARTY_OPTION_NAMES, Rules

_PUDDING: Final = int(PartyCard.PUDDING)

PROTOCOL: Final = "sushigo-bot/1"
"""The protocol name, sent in every ``pick`` message."""

MAX_LINE: Final = 1 << 20
"""Longest answer line accepted (bytes); a longer one is garbage and the process is killed."""

STARTUP_TIMEOUT: Final = 5.0
"""Default least time for the first answer of a fresh process (start-up included)."""

CLOSE_GRACE: Final = 1.0
"""Seconds :meth:`ExternalBot.close` waits for the program to exit on end of input."""

IncidentKind = Literal["garbage", "illegal", "timeout", "died", "start_failed"]
"""What went wrong: an unreadable answer, a pick not among ``legal``, no answer
in time, the process ended, or the command could not be started."""


@dataclass(frozen=True, slots=True)
class Incident:
    """One decision the external program failed; the seat played a random legal action instead."""

    game_id: str
    round: int
    turn: int
    seat: int
    kind: IncidentKind
    detail: str
    """One line saying what happened."""

    def to_json(self) -> dict[str, Any]:
        """The incident as a JSON-friendly dict."""
        return {"game": self.game_id, "round": self.round, "turn": self.turn,
                "seat": self.seat, "kind": self.kind, "detail": self.detail}


class _Misbehaviour(Exception):
    """The program failed this decision (internal; becomes an :class:`Incident`)."""

    def __init__(self, kind: IncidentKind, detail: str) -> None:
        super().__init__(detail)
        self.kind: IncidentKind = kind
        self.detail = detail


def legal_entries(view: AnyView) -> list[list[str]]:
    """The ``legal`` list of a pick message, in the order of ``view.legal_actions``.

    Base game: the card names of each action, one or two (chopsticks, in play
    order).  Party: one string per action, its text form
    (:func:`~sushigo.engine.party.actions.party_action_name`).
    """
    return by_view(view, base=lambda v: [[Card(c).name_in_records for c in card_ids(a)] for a in v.legal_actions],
                   party=lambda v: [[party_action_name(a)] for a in v.legal_actions])


def pick_message(view: AnyView, game_id: str) -> dict[str, Any]:
    """The ``pick`` message asking the seat of ``view`` for a decision (see ``docs/bot-protocol.md``)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has nothing to pick")
    n = view.players
    msg: dict[str, Any] = {
        "type": "pick",
        "protocol": PROTOCOL,
        "game": game_id,
        "seat": seat,
        "players": n,
        "round": view.round,
        "turn": view.turn,
    }
    msg.update(by_view(view, base=_base_pick, party=_party_pick))
    return msg


def _party_pick(view: PartySeatView) -> dict[str, Any]:
    """The Party half of :func:`pick_message`."""
    seat, n, d = view.seat or 0, view.players, view.decision
    return {
        "edition": "party",
        "menu": list(view.menu),
        "decision": None if d is None else {
            "kind": d.kind,
            "card": PartyCard(d.card).name_in_records,
            "drawn": [PartyCard(c).name_in_records for c in d.drawn],
        },
        "hand": [c.name_in_records for c in view.hand or ()],
        "collections": [[p.text for p in col] for col in view.collections],
        "puddings": [
            sum(c == _PUDDING for c in ds) + sum(p.kind == _PUDDING for p in col)
            for ds, col in zip(view.desserts, view.collections)
        ],
        "on_wasabi": [[p.on_wasabi for p in col] for col in view.collections],
        "desserts": [[c.name_in_records for c in ds] for ds in view.desserts],
        "scores": _scores(view),
        "legal": legal_entries(view),
        "options": {k: getattr(view.rules, k) for k in PARTY_OPTION_NAMES},
        "pass_to": (seat + 1) % n,
        "receive_from": (seat - 1) % n,
        "hand_sizes": list(view.hand_sizes),
        "known_cards": [[c.name_in_records for c in k] for k in view.known_cards],
        "deck_size": view.deck_size,
        "uramaki_claimed": view.uramaki_claimed,
    }


def _base_pick(view: SeatView) -> dict[str, Any]:
    """The original game's half of :func:`pick_message`."""
    seat, n = view.seat or 0, view.players
    return {
        "edition": "base",
        "hand": [c.name_in_records for c in view.hand or ()],
        "collections": [[c.name_in_records for c in col] for col in view.collections],
        "puddings": list(view.puddings),
        "scores": _scores(view),
        "legal": legal_entries(view),
        "options": {k: getattr(view.rules, k) for k in OPTION_NAMES},
        "pass_to": (seat + view.pass_step) % n,
        "receive_from": (seat - view.pass_step) % n,
        "hand_sizes": list(view.hand_sizes),
        "known_cards": [[c.name_in_records for c in k] for k in view.known_cards],
    }


def _scores(view: AnyView) -> list[int]:
    return [sum(r[s] for r in view.result.rounds) for s in range(view.players)]


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_answer(line: bytes, legal: Mapping[tuple[str, ...], Action]) -> Action:
    """The action of an answer line, given the legal entries (lower-cased) and their actions.

    Raises the internal misbehaviour error (``garbage`` or ``illegal``) otherwise.

    >>> parse_answer(b'{"pick": ["Squid"]}', {("squid",): 8})
    8
    """
    try:
        answer = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _Misbehaviour("garbage", f"not JSON: {_short(line)}") from None
    if not isinstance(answer, dict) or "pick" not in answer:
        raise _Misbehaviour("garbage", f"not an object with key 'pick': {_short(line)}")
    pick = answer["pick"]
    if not isinstance(pick, list) or not pick or not all(isinstance(p, str) for p in pick):
        raise _Misbehaviour("garbage", f"'pick' is not a list of strings: {_short(pick)}")
    action = legal.get(tuple(p.lower() for p in pick))
    if action is None:
        raise _Misbehaviour("illegal", f"{_short(pick)} is not among the legal entries")
    return action


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process and whatever it started (its own process group), then reap it.

    The group outlives a reaped leader while members remain, and its id is
    not reused meanwhile, so killing it is safe even after the leader exited.
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if proc.returncode is None:
        try:
            proc.kill()
        except OSError:
            pass
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass


class ExternalBot(Bot):
    """A seat played by an external program speaking ``sushigo-bot/1`` on stdin/stdout.

    Args:
        command: the command line, split with :func:`shlex.split` (no shell).
        seed: seed of the bot's generator, used for the random fallback
            actions; also given to the program as ``SUSHIGO_BOT_SEED``.
        timeout: seconds the program has to answer each decision.
        startup_timeout: seconds for the first answer of a freshly started
            process, start-up included (default: ``timeout``, but at least
            :data:`STARTUP_TIMEOUT`, so that an interpreter or a model can load).
        stderr: where the program's standard error goes: an open file
            (with a file descriptor) or a descriptor (``None``: discarded).

    One process serves every game in turn; it starts on the first decision
    and again on the next decision after it died or was killed for a
    timeout.  :attr:`incidents` lists every decision it failed.
    """

    name: ClassVar[str] = "cmd"

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        *,
        timeout: float = 10.0,
        startup_timeout: float | None = None,
        stderr: IO[Any] | int | None = None,
    ) -> None:
        super().__init__(seed)
        argv = shlex.split(command)
        if not argv:
            raise ValueError("an external bot needs a command to run")
        if not timeout > 0 or (startup_timeout is not None and not startup_timeout > 0):
            raise ValueError("an external bot's timeouts must be positive")
        self.command = command
        self.argv = argv
        self.timeout = float(timeout)
        self.startup_timeout = float(
            startup_timeout if startup_timeout is not None else max(timeout, STARTUP_TIMEOUT)
        )
        self.stderr = stderr
        self.incidents: list[Incident] = []
        """Every decision the program failed, oldest first."""
        self.starts = 0
        """How many processes were started (restarts included)."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._fresh = False
        self._buf = bytearray()
        self._game_id = ""

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The running process, if any."""
        return self._proc

    def start_game(self, game_id: str, seat: int, rules: Rules) -> None:
        """Remember the game's id: every pick message of this game carries it."""
        self._game_id = str(game_id)

    def choose(self, view: AnyView) -> Action:
        """Ask the program; on any misbehaviour record an incident and pick at random."""
        actions = legal_actions_of(view)
        message = pick_message(view, self._game_id)
        legal = {tuple(p.lower() for p in e): a for e, a in zip(message["legal"], actions)}
        try:
            return parse_answer(self._ask(message), legal)
        except _Misbehaviour as exc:
            self.incidents.append(Incident(
                self._game_id, view.round, view.turn, message["seat"], exc.kind, exc.detail,
            ))
            return actions[self.rng.randrange(len(actions))]

    def answer(self, message: dict[str, Any]) -> list[str]:
        """The program's answer to a ``pick`` message made elsewhere (a server's game
        stream, :mod:`sushigo.connect`): one entry of ``message["legal"]``.  A
        misbehaviour is recorded as an :class:`Incident` and a random entry is the answer."""
        entries = [list(e) for e in message["legal"]]
        legal = {tuple(p.lower() for p in e): i for i, e in enumerate(entries)}
        try:
            return entries[parse_answer(self._ask(message), legal)]
        except _Misbehaviour as exc:
            self.incidents.append(Incident(str(message.get("game", "")), int(message["round"]),
                                           int(message["turn"]), int(message["seat"]), exc.kind, exc.detail))
            return entries[self.rng.randrange(len(entries))]

    def end_game(self, game_id: str, result: dict[str, Any]) -> None:
        """Send the ``end`` message (no answer expected); a dead program is restarted later."""
        if self._proc is None:
            return
        line = _encode({"type": "end", "game": str(game_id), "result": result})
        try:
            self._send(line, time.monotonic() + self.timeout)
        except _Misbehaviour:
            self._stop()

    def close(self) -> None:
        """End the process: close its input, wait briefly for it to exit, then kill it."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=min(self.timeout, CLOSE_GRACE))
        except subprocess.TimeoutExpired:
            pass
        self._stop()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ExternalBot({self.command!r}, seed={self.seed!r}, timeout={self.timeout!r})"

    # -- the process -------------------------------------------------------

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        if self.seed is not None:
            env["SUSHIGO_BOT_SEED"] = str(self.seed)
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if self.stderr is None else self.stderr,
                bufsize=0,
                env=env,
                start_new_session=True,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise _Misbehaviour("start_failed", f"cannot start {self.argv[0]!r}: {exc}") from None
        assert proc.stdin is not None
        os.set_blocking(proc.stdin.fileno(), False)
        self._proc = proc
        self._finalizer = weakref.finalize(self, _kill_group, proc)
        self._fresh = True
        self._buf.clear()
        self.starts += 1
        return proc

    def _stop(self) -> None:
        """Kill and reap the process (and its process group), if there is one."""
        proc, self._proc = self._proc, None
        self._buf.clear()
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if proc is not None:
            _kill_group(proc)

    def _died(self, proc: subprocess.Popen[bytes], what: str) -> _Misbehaviour:
        try:
            proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            pass
        code = proc.returncode
        self._stop()
        status = "still running: killed" if code is None else f"exit status {code}"
        return _Misbehaviour("died", f"{what} ({status})")

    def _ask(self, message: dict[str, Any]) -> bytes:
        """Send one message and return the answer line (without its newline)."""
        proc = self._proc if self._proc is not None else self._start()
        limit = self.startup_timeout if self._fresh else self.timeout
        deadline = time.monotonic() + limit
        self._discard_stale(proc)
        self._send(_encode(message), deadline)
        line = self._read_line(proc, deadline, limit)
        self._fresh = False
        return line

    def _discard_stale(self, proc: subprocess.Popen[bytes]) -> None:
        """Drop output left over from earlier decisions (extra lines after an answer)."""
        self._buf.clear()
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while sel.select(0):
                if not os.read(fd, 65536):
                    raise self._died(proc, "closed its output")

    def _send(self, data: bytes, deadline: float) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        fd = proc.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._stop()
                    raise _Misbehaviour("timeout", "did not read its input in time (killed)")
                if not sel.select(remaining):
                    continue
                try:
                    written = os.write(fd, view)
                except BlockingIOError:
                    continue
                except OSError:  # BrokenPipeError: the reading end is gone
                    raise self._died(proc, "stopped reading its input") from None
                view = view[written:]

    def _read_line(self, proc: subprocess.Popen[bytes], deadline: float, limit: float) -> bytes:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                end = self._buf.find(b"\n")
                if end >= 0:
                    line = bytes(self._buf[:end])
                    del self._buf[: end + 1]
                    return line
                if len(self._buf) > MAX_LINE:
                    self._stop()
                    raise _Misbehaviour("garbage", f"answer longer than {MAX_LINE} bytes (killed)")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._stop()
                    raise _Misbehaviour("timeout", f"no answer within {limit:g} s (killed)")
                if not sel.select(remaining):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._died(proc, "ended without answering")
                self._buf += chunk


def _encode(message: Mapping[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
