"""The JSON bodies the routes take, as pydantic models: exact keys, exact JSON
types, read under a size limit (``docs/server.md``, "HTTP" and "Scorekeeper").

A route takes one as a dependency, ``body: Annotated[InviteBody,
Depends(InviteBody.read)]``: :meth:`JsonBody.read` reads the body (413 past
its ``LIMIT``), decodes it (400 with the decoder's one line) and validates it.
A body that fails validation is answered with the line its own validators
gave (:func:`says`), or else with the model's ``SHAPE``, the line that says
what the body is.  The create-table body is
:class:`sushigo.server.protocol.CreateTable`.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Final, Self

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidatorFunctionWrapHandler, field_validator
from pydantic_core import PydanticCustomError

from sushigo.engine.messages import msg
from sushigo.engine.records import RecordError, parse_json
from sushigo.engine.sheets import sheet_rules
from sushigo.i18n import Phrase, _l, message_of
from sushigo.server.replies import read_body
from sushigo.server.routes.errors import Refused

MAX_SHEET: Final = 65536
"""Largest body of a score or sheet request (bytes)."""

NOT_A_SHEET: Final = _l("the sheet must be a JSON object (docs/spec/game-record.md)")
_ROUNDS: Final = _l("rounds: a score sheet has 1 to 3 rounds")
_IN_SHEET: Final[dict[str, Phrase]] = {
    NOT_A_SHEET: _l("sheet: the sheet must be a JSON object (docs/spec/game-record.md)"),
    _ROUNDS: _l("sheet: rounds: a score sheet has 1 to 3 rounds"),
}
"""A sheet's problems, as the ``sheet`` key of a body says them."""

_SAYS: Final = "says"
"""The error type of a validator's own line (the answer is that line)."""


def says(line: str) -> PydanticCustomError:
    """A validation error whose line is the 400's whole message (a :class:`~sushigo.i18n.Phrase`
    stays one: its context keeps it)."""
    return PydanticCustomError(_SAYS, "{line}", {"line": line})


async def read_limited(request: Request, limit: int) -> bytes:
    """The request's body; :class:`Refused` (413) once it is longer than ``limit`` bytes."""
    body = await read_body(request, limit)
    if isinstance(body, JSONResponse):
        raise Refused.by(body)
    return body


def decode_json(raw: bytes) -> Any:
    """A body's JSON (Unicode text only: :func:`~sushigo.engine.records.parse_json`); else 400."""
    try:
        return parse_json(raw, msg("the body"))
    except RecordError as e:
        raise Refused(400, message_of(e)) from None  # the engine's line


def documented(model: type[BaseModel]) -> dict[str, Any]:
    """A route's ``openapi_extra``: its JSON body is ``model`` (FastAPI reads it through a dependency)."""
    return {"requestBody": {"required": True,
                            "content": {"application/json": {"schema": model.model_json_schema()}}}}


class JsonBody(BaseModel):
    """A JSON request body: exactly the model's keys, of exactly their JSON types."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    LIMIT: ClassVar[int] = 1024
    """Largest body (bytes)."""
    EMPTY: ClassVar[bytes] = b"null"
    """What an empty body reads as."""
    SHAPE: ClassVar[str] = _l("the body is not what this route takes")
    """The 400's line for a body of another shape."""

    @classmethod
    async def read(cls, request: Request) -> Self:
        """The request's body as this model, or :class:`Refused` (413 or 400, one line)."""
        return cls.of(cls.decode(await read_limited(request, cls.LIMIT) or cls.EMPTY))

    @classmethod
    def decode(cls, raw: bytes) -> Any:
        return decode_json(raw)

    @classmethod
    def of(cls, data: Any) -> Self:
        """``data`` as this model, or :class:`Refused` (400, one line)."""
        try:
            return cls.model_validate(data)
        except ValidationError as e:
            errors = e.errors()
            line = errors[0].get("ctx", {}).get("line", errors[0]["msg"]) \
                if errors and all(err["type"] == _SAYS for err in errors) else cls.SHAPE
            raise Refused(400, line) from None


CreatorToken = Annotated[str, Field(min_length=1, max_length=128)]


class CancelBody(JsonBody):
    """``POST /api/tables/{id}/cancel``: the creator cancels a waiting table."""

    SHAPE = _l('the body is {"creator": TOKEN}, the creator token the table was created with')
    creator: CreatorToken


class InviteBody(JsonBody):
    """``POST /api/tables/{id}/invite``: the creator makes a new invite for a human seat."""

    SHAPE = _l('the body is {"creator": TOKEN, "seat": N}: the creator token and a human seat, from 0')
    creator: CreatorToken
    seat: int

    @field_validator("seat", mode="wrap")
    @classmethod
    def _seat_number(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise says(_l('"seat" is a seat number, from 0')) from None


class SeatBody(JsonBody):
    """``POST .../analysis``: the seat whose decisions to analyse."""

    SHAPE = _l('the body is {"seat": N}, the seat to analyse (from 0)')
    seat: int

    @classmethod
    def decode(cls, raw: bytes) -> Any:
        try:
            return json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise Refused(400, _l("the body is not JSON")) from None


def sheet_problem(data: Any) -> str | None:
    """Why ``data`` can't be kept as a sheet (its setup must be readable), or None."""
    if not isinstance(data, dict):
        return NOT_A_SHEET
    try:
        sheet_rules(data)
    except RecordError as e:
        return message_of(e)
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list) or len(rounds) > 3:
        return _ROUNDS
    return None


def _keepable(sheet: Any) -> Any:
    problem = sheet_problem(sheet)
    if problem is not None:
        raise says(_IN_SHEET.get(problem) or _l("sheet: {why}", why=problem))
    return sheet


class NewSheet(JsonBody):
    """``POST /api/sheets``: a score sheet to keep (other keys are ignored)."""

    model_config = ConfigDict(extra="ignore")
    LIMIT = MAX_SHEET
    EMPTY = b""
    SHAPE = _IN_SHEET[NOT_A_SHEET]
    sheet: Any = Field(default=None, validate_default=True)
    """The sheet (docs/spec/game-record.md): one whose setup is readable, 1 to 3 rounds."""

    _keepable = field_validator("sheet")(_keepable)


class SavedSheet(JsonBody):
    """``PUT /api/sheets/{id}``: a kept sheet's new text, with its edit token (other keys are ignored)."""

    model_config = ConfigDict(extra="ignore")
    LIMIT = MAX_SHEET
    EMPTY = b""
    SHAPE = _l('the body is {"token": EDIT_TOKEN, "sheet": SHEET}')
    token: str
    sheet: Any

    _keepable = field_validator("sheet")(_keepable)


Secret = Annotated[str, Field(max_length=4096)]
"""A password or recovery code as sent (the service says what one may be)."""


class Credentials(JsonBody):
    """``POST /api/account/signup`` and ``/signin``: a name and a password."""

    LIMIT = 8192
    SHAPE = _l('the body is {"name": NAME, "password": PASSWORD}')
    name: Annotated[str, Field(max_length=100)]
    password: Secret


class PasswordBody(JsonBody):
    """``POST /api/account/codes`` and ``/delete``: the signed-in account's password."""

    LIMIT = 8192
    SHAPE = _l('the body is {"password": PASSWORD}, your password')
    password: Secret


class NewPassword(JsonBody):
    """``POST /api/account/password``: the password and the new one."""

    LIMIT = 16384
    SHAPE = _l('the body is {"password": PASSWORD, "new_password": NEW_PASSWORD}')
    password: Secret
    new_password: Secret


class Recovery(JsonBody):
    """``POST /api/account/recover``: a name, one of its recovery codes and a new password."""

    LIMIT = 8192
    SHAPE = _l('the body is {"name": NAME, "code": RECOVERY_CODE, "new_password": NEW_PASSWORD}')
    name: Annotated[str, Field(max_length=100)]
    code: Annotated[str, Field(max_length=100)]
    new_password: Secret


class NewToken(JsonBody):
    """``POST /api/account/tokens``: the password and a label for the new API token."""

    LIMIT = 8192
    SHAPE = _l('the body is {"password": PASSWORD, "label": LABEL}, your password and a name for the token')
    password: Secret
    label: Annotated[str, Field(max_length=200)]


class TokenId(JsonBody):
    """``POST /api/account/tokens/revoke``: the id of the token to revoke."""

    SHAPE = _l('the body is {"id": TOKEN_ID}, the id GET /api/account/tokens lists')
    id: Annotated[str, Field(min_length=1, max_length=40)]


class JoinBody(JsonBody):
    """``POST /api/play/join``: a place in play now's queue."""

    SHAPE = _l('the body is {"edition": "base"|"party", "menu": NAME|null, "sizes": [N, ...], "bots_after": SECONDS, '
             '"rated": BOOL, "name": NAME (a guest\'s), "push": BOOL}')
    edition: Annotated[str, Field(max_length=10)]
    menu: Annotated[str, Field(max_length=100)] | None = None
    sizes: Annotated[list[int], Field(min_length=1, max_length=7)] = Field(default_factory=lambda: [2, 3, 4])
    bots_after: float | int = 30
    rated: bool = False
    name: Annotated[str, Field(max_length=100)] | None = None
    push: bool = False


class ChallengeBody(JsonBody):
    """``POST /api/challenge/{name}``: the table a bot account is challenged to."""

    SHAPE = _l('the body is {"edition": "base"|"party", "players": N, "menu": NAME|null, "timer": SECONDS|null, '
             '"rated": BOOL}, each optional')
    EMPTY = b"{}"
    edition: Annotated[str, Field(max_length=10)] = "base"
    players: int = 2
    menu: Annotated[str, Field(max_length=100)] | None = None
    timer: int | None = None
    rated: bool = False


class BotPick(JsonBody):
    """``POST /api/bot/game/{id}/pick``: one of the ``legal`` entries of the seat's ``pick`` message."""

    SHAPE = _l('the body is {"seq": SEQ, "pick": ENTRY}: the pick message\'s seq and one of its legal entries')
    seq: int
    pick: Annotated[list[Annotated[str, Field(max_length=100)]], Field(min_length=1, max_length=4)]


class BotSeq(JsonBody):
    """``POST /api/bot/game/{id}/withdraw``: the ``seq`` of the state the seat decided on."""

    SHAPE = _l('the body is {"seq": SEQ}, the seq of the pick message the hidden pick answered')
    seq: int


class BotChat(JsonBody):
    """``POST /api/bot/game/{id}/chat``: a line for the table's chat."""

    SHAPE = _l('the body is {"text": TEXT}')
    text: Annotated[str, Field(min_length=1, max_length=500)]


class BotQueueBody(JsonBody):
    """``POST /api/bot/queue``: a bot account's place in play now (it takes bot seats of people's matches)."""

    SHAPE = _l('the body is {"edition": "base"|"party", "sizes": [N, ...], "rated": BOOL}, sizes and rated optional '
             '(rated: rated tables too)')
    edition: Annotated[str, Field(max_length=10)]
    menu: Annotated[str, Field(max_length=100)] | None = None
    sizes: Annotated[list[int], Field(min_length=1, max_length=7)] = Field(default_factory=lambda: [2, 3, 4, 5])
    rated: bool = False


class DeclineBody(JsonBody):
    """``POST /api/bot/challenge/{id}/decline``: why, optionally (the challenger reads it)."""

    SHAPE = _l('the body is {"reason": TEXT} or {} (the reason is optional)')
    EMPTY = b"{}"
    reason: Annotated[str, Field(max_length=200)] | None = None


class TicketBody(JsonBody):
    """``POST /api/play/status``, ``/confirm``, ``/leave``: the place's ticket."""

    SHAPE = _l('the body is {"ticket": TICKET}, the ticket /api/play/join gave (null: the signed-in account\'s place; '
             'status also takes "push": BOOL)')
    ticket: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    push: bool | None = None


class SubscriptionBody(JsonBody):
    """``POST /api/push/subscribe``: a browser's push subscription (``PushSubscription.toJSON()``)."""

    model_config = ConfigDict(extra="ignore")
    LIMIT = 8192
    SHAPE = _l('the body is a push subscription: {"endpoint": URL, "keys": {"p256dh": KEY, "auth": KEY}}')
    endpoint: Annotated[str, Field(max_length=4000)]
    keys: dict[str, Annotated[str, Field(max_length=300)]]


class EndpointBody(JsonBody):
    """``POST /api/push/unsubscribe`` and ``/status``: this device's endpoint (``null``: every device)."""

    LIMIT = 8192
    SHAPE = _l('the body is {"endpoint": URL}, this device\'s push endpoint (null: every device of the account)')
    endpoint: Annotated[str, Field(max_length=4000)] | None = None


__all__ = [
    "MAX_SHEET",
    "BotChat",
    "BotPick",
    "BotSeq",
    "CancelBody",
    "ChallengeBody",
    "Credentials",
    "DeclineBody",
    "EndpointBody",
    "InviteBody",
    "JoinBody",
    "JsonBody",
    "NewPassword",
    "NewSheet",
    "NewToken",
    "PasswordBody",
    "Recovery",
    "SavedSheet",
    "SeatBody",
    "SubscriptionBody",
    "TicketBody",
    "TokenId",
    "decode_json",
    "documented",
    "read_limited",
    "says",
    "sheet_problem",
]
