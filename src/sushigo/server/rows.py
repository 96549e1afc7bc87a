"""What the store reads back (a table's row, seats, events, happenings; a score sheet) and
the writes it takes (one transaction a batch of them): plain, frozen records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table's fixed facts and status (``rules``: the rule options as JSON)."""

    id: str
    created: float
    edition: str
    players: int
    rules: dict[str, Any]
    seed: int
    timer: int | None
    status: str
    finished: float | None = None
    result: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: bytes | None
    account: str | None = None
    """The id of the account that claimed the seat (``None``: a guest's, or a bot's)."""
    account_name: str | None = None
    """That account's name, as read back (not written)."""
    rating: dict[str, object] | None = None
    """That account's rating in the table's edition, as read back (``None``: none yet)."""
    account_bot: bool = False
    """That account is a bot account, as read back."""


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    seat: int
    action: int
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class HappeningRow:
    """Something that happened at a table beyond its decisions (numbered per table by ``n``)."""

    n: int
    kind: str
    seat: int | None
    at: float
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A scorekeeper's score sheet (``data``: the sheet, docs/spec/game-record.md)."""

    id: str
    token_hash: bytes
    created: float
    updated: float
    version: int
    data: dict[str, Any]


@dataclass(slots=True)
class LoadedTable:
    """A table as read back: its row, seats and (unless finished) its events and happenings."""

    row: TableRow
    seats: list[SeatRow]
    events: list[EventRow] = field(default_factory=list)
    happenings: list[HappeningRow] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.row.id


# ----------------------------------------------------------------- write operations


@dataclass(frozen=True, slots=True)
class CreateTable:
    row: TableRow
    seats: Sequence[SeatRow]


@dataclass(frozen=True, slots=True)
class AppendEvent:
    table_id: str
    event: EventRow


@dataclass(frozen=True, slots=True)
class SetName:
    table_id: str
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class SetStatus:
    table_id: str
    status: str
    finished: float | None = None
    result: dict[str, Any] | None = None
    record: str | None = None


@dataclass(frozen=True, slots=True)
class SetToken:
    """A human seat's token (its SHA-256), given when an invite or a rematch seat
    is claimed, and the account that claimed it (``None``: a guest)."""

    table_id: str
    seat: int
    token_hash: bytes
    account: str | None = None


@dataclass(frozen=True, slots=True)
class RateGame:
    """A rated game finished: every seat's rating changes (:mod:`sushigo.server.ratings`), in
    the transaction that stores its result.  ``players``: the rated player of each seat;
    ``ranks``: each seat's place (1 = first, equal places tie)."""

    table_id: str
    edition: str
    players: tuple[str, ...]
    ranks: tuple[float, ...]
    at: float


@dataclass(frozen=True, slots=True)
class AddHappening:
    table_id: str
    happening: HappeningRow


Op = CreateTable | AppendEvent | SetName | SetStatus | SetToken | AddHappening | RateGame
"""One write; a batch of them is one transaction."""


__all__ = ["AddHappening", "AppendEvent", "CreateTable", "EventRow", "HappeningRow", "LoadedTable", "Op",
           "RateGame", "SeatRow", "SetName", "SetStatus", "SetToken", "SheetRow", "TableRow"]
