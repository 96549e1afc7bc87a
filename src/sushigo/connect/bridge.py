"""The bot bridge (docs/bot-api.md, "The bridge"): any bot sushigo knows plays
a bot account on a sushigo server, through the bot API, with the standard
library only: a program speaking the bot protocol ``sushigo-bot/1`` on its
standard input and output is handed each ``pick`` message as it is; a
built-in bot (:class:`BuiltinAnswers`) gets its seat's view, rebuilt from the
seat's information set that the game stream carries on request
(:mod:`sushigo.engine.worlds`).

The bridge follows the account's event stream: it accepts challenges (up to
``tables`` tables at once; past that it declines, "busy"), and for each table
that starts it follows the game stream in a thread of its own, hands each
``pick`` message to the program (:meth:`~sushigo.bots.external.ExternalBot.answer`:
one process answers every table in turn) and sends its answer.  A stream that
breaks (the network, a restart of the server) is opened again, waiting 1, 2,
4, ... up to ``retry`` seconds between tries; a stream that was quiet for 30
seconds (the server says at least an empty line every 10) counts as broken.
A revoked or wrong token stops it with :class:`BridgeError`.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any, Final, Protocol

from sushigo.bots.base import Bot
from sushigo.bots.external import legal_entries
from sushigo.engine.worlds import WorldError, world_view
from sushigo.i18n import _l

READ_TIMEOUT: Final = 30.0
"""Seconds without a byte after which a stream counts as broken and is opened again."""
PROTOCOL_KEYS: Final = frozenset({"seq", "deadline", "world"})
"""What a game stream's ``pick`` adds to the bot protocol's message (the program gets it without them)."""


class BridgeError(Exception):
    """Why the bridge stops (one line): a wrong or revoked token, a server that refuses it."""


class _Broken(Exception):
    """A stream or call that failed for now (the network, the server restarting): try again."""


class Answers(Protocol):
    """What plays the seats: the answer to a ``pick`` message (one of its ``legal`` entries),
    told each table's end. :class:`~sushigo.bots.external.ExternalBot` is one."""

    def answer(self, message: dict[str, Any]) -> list[str]: ...

    def end_game(self, game_id: str, result: dict[str, Any]) -> None: ...


class BuiltinAnswers:
    """A built-in bot answering ``pick`` messages that carry the seat's ``world``
    (the game stream's ``?world=true``): it chooses from the seat's view rebuilt from it.

    >>> from sushigo import Game
    >>> from sushigo.bots import make_bot
    >>> from sushigo.bots.external import pick_message
    >>> from sushigo.engine.base.view import seat_view
    >>> from sushigo.engine.worlds import world_document
    >>> game = Game(2, seed=1)
    >>> message = {**pick_message(seat_view(game, 0), "g1"), "world": world_document(game, 0)}
    >>> BuiltinAnswers(make_bot("greedy", seed=1)).answer(message) in message["legal"]
    True
    """

    wants_world = True

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def answer(self, message: dict[str, Any]) -> list[str]:
        """The bot's entry; :class:`~sushigo.engine.worlds.WorldError` if the message has no readable world."""
        if "world" not in message:
            raise WorldError("the pick message carries no world (a server older than the bot API's ?world=true)")
        view = world_view(message["world"], world=self.bot.wants_world)
        try:
            action = self.bot.choose(view)
            entry = legal_entries(view)[view.legal_actions.index(action)]
        except Exception as e:  # a world the engine took but the bot cannot play from
            raise WorldError(f"the bot cannot play from this world: {type(e).__name__}: {e}") from None
        if entry not in message.get("legal", [entry]):
            raise WorldError(f"the world's view offers {entry}, which the pick message does not list")
        return entry

    def end_game(self, game_id: str, result: dict[str, Any]) -> None:
        self.bot.end_game(game_id, result)


class Bridge:
    """A bot account played by ``bot`` on the server at ``server`` (``http(s)://host[:port]``).

    ``games``: stop once that many of its tables have ended (``None``: run until stopped);
    ``tables``: how many tables it plays at once; ``say``: where its one-line reports go.
    A ``bot`` whose ``wants_world`` is true (:class:`BuiltinAnswers`) follows its game streams
    with ``?world=true``.
    """

    def __init__(self, server: str, token: str, bot: Answers, *, games: int | None = None, tables: int = 4,
                 play_now: dict[str, Any] | None = None, retry: float = 30.0,
                 say: Callable[[str], None] = print) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.bot = bot
        self.games = games
        self.tables = tables
        self._world = bool(getattr(bot, "wants_world", False))
        """Whether its game streams carry the seat's ``world`` (which its bot reads)."""
        self.play_now = play_now
        """The body of its place in play now (``POST /api/bot/queue``), taken while it plays fewer than
        ``tables`` tables; ``None``: it plays challenges only."""
        self.retry = retry
        self.say = say
        self.finished = 0
        self.playing: dict[str, threading.Thread] = {}
        self._asking = threading.Lock()  # one program answers every table in turn
        self._placed = False  # asked for a place in play now since its last table started
        self._maybe_placed = False  # may hold a place in play now (asked for one, not left since)
        self._accepted: set[str] = set()  # tables of challenges it accepted, until their gameStart
        self._stop = threading.Event()

    # ------------------------------------------------------------------ the event stream

    def run(self) -> int:
        """Play until ``games`` tables have ended (or forever); the number that ended."""
        wait = 1.0
        try:
            while not self._stop.is_set():
                try:
                    self._placed = False  # (again: a place the bridge held may have ended while it was away)
                    self._mind_place()
                    for event in self._lines("/api/bot/stream/event"):
                        wait = 1.0
                        self._on_event(event)
                        self._mind_place()
                        if self._stop.is_set():
                            break
                except _Broken as e:
                    self.say(f"the event stream broke ({e}); again in {wait:g} s")
                    self._stop.wait(wait)
                    wait = min(wait * 2, self.retry)
        finally:
            if self._maybe_placed:  # nobody would play a table that seated it now
                with contextlib.suppress(BridgeError):
                    self._leave_place()
        for thread in list(self.playing.values()):
            thread.join()
        return self.finished

    def _busy(self) -> int:
        """Tables it plays, or accepted and not started yet."""
        return sum(t.is_alive() for t in self.playing.values()) + len(self._accepted)

    def _mind_place(self) -> None:
        """Hold a place in play now exactly while it wants one: it plays fewer than ``tables``
        tables, and (with ``games``) fewer than it has left to play."""
        if self.play_now is None:
            return
        busy = self._busy()
        wanted = not self._stop.is_set() and busy < self.tables and (
            self.games is None or self.finished + busy < self.games)
        if wanted and not self._placed:
            r = self._call("/api/bot/queue", self.play_now, quiet=(409,))  # 409: it holds one already
            self._placed = self._maybe_placed = True
            if r is not None:
                self.say(f"waiting in play now ({r.get('edition')}) for a table that offers bots")
        elif not wanted and self._maybe_placed:
            self._leave_place()

    def _leave_place(self) -> None:
        self._call("/api/bot/queue/leave", {}, quiet=(404, 409))  # none held, or one already seated
        self._placed = self._maybe_placed = False

    def stop(self) -> None:
        """Stop following new events (the tables being played end on their own)."""
        self._stop.set()

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            c = event["challenge"]
            what = f"{c['edition']}, {c['players']} players{', rated' if c.get('rated') else ''}"
            busy = self._busy()
            if busy >= self.tables:
                self._call(f"/api/bot/challenge/{c['id']}/decline", {"reason": f"busy: playing {busy} tables"})
                self.say(f"declined {c['challenger']['name']}'s challenge ({what}): busy")
            elif (answer := self._call(f"/api/bot/challenge/{c['id']}/accept", {})) is not None:
                self._accepted.add(answer["challenge"]["table"])
                self.say(f"accepted {c['challenger']['name']}'s challenge ({what})")
        elif kind == "gameStart":
            self._placed = False  # its place (if the table came from play now) is used: another one
            table = event["game"]["id"]
            self._accepted.discard(table)
            if table not in self.playing:
                thread = threading.Thread(target=self._play, args=(table,), name=f"table-{table}", daemon=True)
                self.playing[table] = thread
                thread.start()
        elif kind == "gameFinish":
            self.finished += 1
            playing = self.playing.get(event["game"]["id"])
            if playing is not None:
                playing.join()
            if self.games is not None and self.finished >= self.games:
                self.stop()
        elif kind == "closed":
            if "reason" not in event:
                raise BridgeError(_l("the server closed the stream: no reason given"))
            # TRANSLATORS: {reason}: the server's reason, as it sent it
            raise BridgeError(_l("the server closed the stream: {reason}", reason=str(event["reason"])))

    # ------------------------------------------------------------------ a table

    def _play(self, table: str) -> None:
        """Play the bot's seat at ``table`` until it ends (reconnecting when the stream breaks)."""
        wait = 1.0
        while True:
            try:
                world = "?world=true" if self._world else ""
                for message in self._lines(f"/api/bot/game/{table}/stream{world}"):
                    wait = 1.0
                    if message.get("type") == "game":
                        self.say(f"table {table}: playing seat {message['seat']}")
                    elif message.get("type") == "pick":
                        self._pick(table, message)
                    elif message.get("type") == "end":
                        self._end(table, message)
                        return
                    elif message.get("type") == "closed":
                        self.say(f"table {table}: the server closed the stream ({message.get('reason')})")
                        return
            except _Broken as e:
                self.say(f"table {table}: the stream broke ({e}); again in {wait:g} s")
            except BridgeError as e:  # the table is gone, not this bot's, or the token with it
                self.say(f"table {table}: {e}")
                return
            except (KeyError, TypeError, IndexError) as e:  # a message not as docs/bot-api.md says
                self.say(f"table {table}: unexpected message ({type(e).__name__}: {e}); the move timer plays on")
                return
            time.sleep(wait)
            wait = min(wait * 2, self.retry)

    def _pick(self, table: str, message: dict[str, Any]) -> None:
        asked = {k: v for k, v in message.items() if k not in PROTOCOL_KEYS}
        try:
            with self._asking:
                entry = self.bot.answer(message if self._world else asked)
        except WorldError as e:
            self.say(f"table {table}: {e}; the move timer decides")
            return
        # a stale pick (the move timer decided first) or a decision no longer open is not an error
        self._call(f"/api/bot/game/{table}/pick", {"seq": message["seq"], "pick": entry}, quiet=(409,))

    def _end(self, table: str, message: dict[str, Any]) -> None:
        result = message.get("result")
        if result is not None:
            with self._asking:
                self.bot.end_game(table, result)
            self.say(f"table {table}: finished, totals {result.get('totals')}")
        else:
            self.say(f"table {table}: {message.get('status', 'ended')}")

    # ------------------------------------------------------------------ HTTP

    def _request(self, path: str, body: dict[str, Any] | None = None) -> urllib.request.Request:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json, application/x-ndjson"}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        return urllib.request.Request(self.server + path, data=data, headers=headers,
                                      method="GET" if body is None else "POST")

    def _call(self, path: str, body: dict[str, Any], *, quiet: tuple[int, ...] = ()) -> dict[str, Any] | None:
        """POST a call; its answer, or ``None`` when refused (said, unless its status is ``quiet``).
        Past the token's calls a second it waits a second and sends again."""
        while True:
            try:
                with urllib.request.urlopen(self._request(path, body), timeout=READ_TIMEOUT) as r:
                    answer: dict[str, Any] = json.loads(r.read())
                    return answer
            except urllib.error.HTTPError as e:
                if e.code == 429:
                    time.sleep(1.0)
                    continue
                if e.code == 401:
                    raise BridgeError(_error_line(e)) from None
                if e.code not in quiet:
                    self.say(f"{path}: {e.code} {_error_line(e)}")
                return None
            except (OSError, ValueError, http.client.HTTPException) as e:
                self.say(f"{path}: {e}")
                return None

    def _lines(self, path: str) -> Iterator[dict[str, Any]]:
        """A stream's lines as they come (empty lines skipped)."""
        try:
            response = urllib.request.urlopen(self._request(path), timeout=READ_TIMEOUT)
        except urllib.error.HTTPError as e:
            if e.code == 429 or e.code >= 500:
                raise _Broken(f"{e.code} {_error_line(e)}") from None
            raise BridgeError(f"{e.code} {_error_line(e)}") from None
        except (OSError, http.client.HTTPException) as e:
            raise _Broken(str(getattr(e, "reason", e))) from None
        with response:
            try:
                for raw in response:
                    line = raw.strip()
                    if line:
                        yield json.loads(line)
            except (OSError, ValueError, http.client.HTTPException) as e:  # IncompleteRead: a cut mid-chunk
                raise _Broken(str(e) or type(e).__name__) from None
        raise _Broken("the server ended the stream")


def _error_line(e: urllib.error.HTTPError) -> str:
    """The server's one-line ``error``, or the status's reason."""
    try:
        return str(json.loads(e.read())["error"])
    except (OSError, ValueError, KeyError, TypeError):
        return str(e.reason)


__all__ = ["PROTOCOL_KEYS", "READ_TIMEOUT", "Answers", "Bridge", "BridgeError", "BuiltinAnswers"]
