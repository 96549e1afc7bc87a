"""The WebSocket protocol ``sushigo-ws/3`` and the create-table request (``docs/server.md``).

Client messages are checked strictly with pydantic: exact keys, exact JSON
types, bounded sizes.  :func:`parse_client` turns a text frame into a message
or a :class:`ProtocolError` with a code and one line naming the problem.

>>> parse_client('{"v": 1, "type": "pick", "seq": 4, "action": 7}')
Pick(v=1, type='pick', seq=4, action=7)
>>> try:
...     parse_client('{"v": 1, "type": "pick", "seq": "4", "action": 7}')
... except ProtocolError as e:
...     print(e.code, "-", e)
bad_message - pick.seq: Input should be a valid integer
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from sushigo.engine.messages import msg
from sushigo.engine.records import RecordError, parse_json
from sushigo.i18n import Phrase, _l, localized, message_of

VERSION: Final = 3
"""The ``v`` of every server message (3: what an event tells a socket comes in one ``update``)."""

ACCEPTED: Final = (1, 2, 3)
"""The ``v`` a client message may carry; the ``hello``'s says which frames the socket gets."""

UPDATES: Final = 3
"""The first version whose sockets get one ``update`` per event (``state``, ``progress``,
``log`` and ``ack`` in one frame); a socket whose ``hello`` says 1 or 2 gets a frame for each."""

PROTOCOL: Final = "sushigo-ws/3"

MAX_MESSAGE: Final = 4096
"""Longest client message accepted (characters); longer ones get ``too_large``."""

MAX_NAME: Final = 24

MAX_CHAT: Final = 200
"""Longest chat message (characters, after trimming)."""

REACTIONS: Final[dict[str, str]] = {
    "nice": "Nice one!", "wow": "Wow!", "oops": "Oops!", "moment": "One moment, please.",
    "thanks": "Thanks!", "gg": "Good game!",
}
"""The quick reactions: what a ``react`` message names, and the text everyone reads."""

TIMER_RANGE: Final = (5, 3600)
TURN_HOURS: Final = (1, 72)
"""A turn-based table's limit per move, in hours: ``turn_hours`` (docs/server.md, "Turn-based tables")."""
"""Seconds a move timer may give each decision (the lobby reads it from ``/api/options``)."""

_STRICT = ConfigDict(extra="forbid", strict=True)


class ProtocolError(ValueError):
    """A client message the server refuses; ``code`` is the ``error`` code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Hello(BaseModel):
    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None
    name: Annotated[str, Field(max_length=200)] | None = None
    last_seq: Annotated[int, Field(ge=0)] | None = None
    seat: Annotated[int, Field(ge=0, le=63)] | None = None
    """Without a token: the seat the socket's signed-in account holds (docs/server.md, "Accounts")."""


class Pick(BaseModel):
    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["pick"]
    seq: Annotated[int, Field(ge=0, le=1 << 31)]
    action: Annotated[int, Field(ge=0, le=1 << 16)]


class Rename(BaseModel):
    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["name"]
    name: Annotated[str, Field(max_length=200)]


class Ping(BaseModel):
    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["ping"]


class Withdraw(BaseModel):
    """Take back your hidden pick (until the last seat commits)."""

    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["withdraw"]
    seq: Annotated[int, Field(ge=0, le=1 << 31)]


class Chat(BaseModel):
    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["chat"]
    text: Annotated[str, Field(max_length=1000)]


class React(BaseModel):
    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["react"]
    reaction: Annotated[str, Field(max_length=20)]


class Mute(BaseModel):
    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["mute"]
    seat: Annotated[int, Field(ge=0, le=7)]
    muted: bool


class HandOver(BaseModel):
    """Let the greedy bot play for an away seat the table waits on."""

    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["hand_over"]
    seat: Annotated[int, Field(ge=0, le=7)]


class Rematch(BaseModel):
    """"Play again": a seat of a finished table asks for its seat at the new one."""

    model_config = _STRICT
    v: Literal[1, 2, 3]
    type: Literal["rematch"]


AnyClientMessage = Hello | Pick | Rename | Ping | Withdraw | Chat | React | Mute | HandOver | Rematch
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_CLIENT: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)
_TYPES: Final = ("hello", "pick", "name", "ping", "withdraw", "chat", "react", "mute", "hand_over", "rematch")


def _first_error(e: ValidationError, prefix: str) -> Phrase:
    err = e.errors()[0]
    parts = err["loc"][1:] if prefix else err["loc"]
    loc = ".".join(str(p) for p in parts) or "message"
    where = f"{prefix}.{loc}" if prefix else loc
    if err["type"] == "extra_forbidden":
        return _l("{where}: unknown key", where=where)
    if err["type"] == "missing":
        return _l("{where}: missing", where=where)
    return _l("{where}: {why}", where=where, why=err["msg"])  # pydantic's words


def parse_client(text: str | bytes) -> AnyClientMessage:
    """The message in one text frame, or :class:`ProtocolError`."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", _l("message of {n} characters (at most {most})",
                                            n=str(len(text)), most=str(MAX_MESSAGE)))
    try:
        data = parse_json(text, msg("the message"))
    except RecordError as e:
        why = _l("not a JSON object") if " is not JSON" in str(e) else message_of(e)
        raise ProtocolError("bad_message", why) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", _l("not a JSON object"))
    if "v" not in data:
        raise ProtocolError("bad_message", _l("missing key 'v' (the protocol version, {version})", version=VERSION))
    if type(data["v"]) is not int:  # strictly typed: 1.0, true and "1" are not the version 1
        raise ProtocolError("bad_message", _l("v must be the whole number {version}, not {v}",
                                              version=VERSION, v=json.dumps(data["v"])))
    if data["v"] not in ACCEPTED:
        raise ProtocolError("unsupported_version", _l("protocol version {v} (this server speaks {version}, 2 and 1)",
                                                      v=repr(data["v"]), version=VERSION))
    kind = data.get("type")
    if kind not in _TYPES:
        raise ProtocolError("bad_message", _l("unknown message type {type} (one of {types})",
                                              type=repr(kind), types=", ".join(_TYPES)))
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as e:
        raise ProtocolError("bad_message", _first_error(e, str(kind))) from None


def clean_name(name: str) -> str:
    """A display name, stripped; raises :class:`ProtocolError` (``bad_name``) if unusable.

    >>> clean_name("  Ana ")
    'Ana'
    """
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise ProtocolError("bad_name", _l("the name is empty"))
    if len(name) > MAX_NAME:
        raise ProtocolError("bad_name", _l("the name has {n} characters (at most {most})",
                                           n=str(len(name)), most=str(MAX_NAME)))
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ProtocolError("bad_name", _l("the name contains control characters"))
    return name


def clean_chat(text: str) -> str:
    """A chat message, trimmed; raises :class:`ProtocolError` (``bad_chat``) if unusable.

    Shown as text, never as HTML; line breaks and other control characters are refused.

    >>> clean_chat("  nice one <b>Ana</b> ")
    'nice one <b>Ana</b>'
    """
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise ProtocolError("bad_chat", _l("the message is empty"))
    if len(text) > MAX_CHAT:
        raise ProtocolError("bad_chat", _l("the message has {n} characters (at most {most})",
                                           n=str(len(text)), most=str(MAX_CHAT)))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in "\u200d\ufe0f" for ch in text):
        raise ProtocolError("bad_chat", _l("the message contains control characters"))
    return text


def _compact_encoder() -> Callable[[Any], str]:
    """``json.dumps(x, separators=(",", ":"))`` (what :func:`~sushigo.server.protocol.dump` writes),
    with the C encoder made once rather than at every call (a good part of the cost of a small
    value); the plain encoder where this Python's C encoder takes other arguments."""
    plain = json.JSONEncoder(separators=(",", ":"))
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return plain.encode
    try:
        chunks = make(None, plain.default, json.encoder.encode_basestring_ascii, None, ":", ",",
                      False, False, True)

        def encode(o: Any) -> str:
            return "".join(chunks(o, 0))

        sample = {"a": [1, 2.5, None, True, "\u00e9\"x"], "b": {"c": -0.125}, "d": "s", "e": 1e300}
        if encode(sample) != plain.encode(sample) or encode("x") != '"x"' or encode(3.0) != "3.0":
            return plain.encode
    except Exception:
        return plain.encode
    return encode


def _fast_encoder() -> Callable[[Any], str]:
    """Compact JSON through orjson (several times faster than the standard library on the
    frames' view documents), the standard library's for what orjson refuses (an int
    beyond 64 bits) or where orjson is missing."""
    slow = _compact_encoder()
    try:
        import orjson
    except ImportError:  # pragma: no cover - orjson is a dependency of the server extra
        return slow
    dumps, option = orjson.dumps, orjson.OPT_NON_STR_KEYS

    def encode(o: Any) -> str:
        try:
            return dumps(o, option=option).decode()
        except TypeError:
            return slow(o)

    return encode


encode = _fast_encoder()
"""Compact JSON (no spaces; any JSON parser reads the same value as ``json.dumps`` gives), for JSON
the server sends.

>>> encode({"a": [1, 2.5, None, True], "b": "é"}), encode(2**70)
('{"a":[1,2.5,null,true],"b":"é"}', '1180591620717411303424')
"""


def dump(message: dict[str, Any]) -> str:
    """One server message as a text frame (``v`` added)."""
    message["v"] = VERSION
    return encode(message)


def error(code: str, message: str) -> str:
    """An ``error`` frame."""
    return dump({"type": "error", "code": code, "message": localized(message)})


# ------------------------------------------------------------------ create a table


class CreateTable(BaseModel):
    """The body of ``POST /api/tables``."""

    model_config = _STRICT
    edition: Literal["base", "party"] = "base"
    players: Annotated[int, Field(ge=2, le=8)]
    seats: Annotated[list[Annotated[str, Field(max_length=200)]], Field(min_length=2, max_length=8)]
    pass_both_ways: bool = False
    reshuffle: bool = False
    menu: Annotated[str, Field(max_length=100)] | Annotated[
        list[Annotated[str, Field(max_length=60)]], Field(max_length=8)] | None = None
    uramaki_split: Annotated[str, Field(max_length=10)] | None = None
    menu_card_draw: Annotated[int, Field(ge=1, le=8)] | None = None
    two_player_pudding_penalty: bool = False
    wasabi_colour: Annotated[str, Field(max_length=10)] | None = None
    options: Annotated[dict[Annotated[str, Field(max_length=40)],
                            bool | int | Annotated[str, Field(max_length=40)]], Field(max_length=20)] | None = None
    """Rule options by name (``GET /api/options`` lists them: ``rule_options``); the flat keys
    above name the same options, as clients of earlier versions send them."""
    timer: Annotated[int, Field(ge=TIMER_RANGE[0], le=TIMER_RANGE[1])] | None = None
    seed: Annotated[int, Field(ge=0, lt=1 << 63)] | None = None
    learn: bool = False
    """A "Learn to play" table: the page teaches the game as it goes."""
    private: bool = False
    """Not listed in the lobby (its links work)."""
    chat: bool = True
    """Players may chat and react."""
    chat_spectators: bool = False
    """Spectators read the chat too."""
    hints: bool = False
    """Each seat is sent its own estimate of every legal action while it decides (``hint``)."""
    turn_hours: Annotated[int, Field(ge=TURN_HOURS[0], le=TURN_HOURS[1])] | None = None
    """A turn-based table: each move may take this many hours (the timer, in hours), and the
    table waits for its slowest player within them."""
    rated: bool = False
    """The game changes its players' ratings: every human seat is a signed-in account's; no seed,
    no hints, no lesson (docs/server.md, "Ratings")."""


_CREATE: TypeAdapter[CreateTable] = TypeAdapter(CreateTable)


def parse_create(body: bytes) -> CreateTable:
    """The create request in ``body``, or :class:`ProtocolError` (``bad_request``)."""
    try:
        data = parse_json(body, msg("the body"))
    except RecordError as e:
        raise ProtocolError("bad_request", message_of(e)) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_request", _l("the body is not a JSON object"))
    try:
        return _CREATE.validate_python(data)
    except ValidationError as e:
        raise ProtocolError("bad_request", _first_error(e, "")) from None
