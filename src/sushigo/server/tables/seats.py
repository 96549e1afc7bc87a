"""Tables and their seats: creating a table (from a create request, or as a
rematch), cancelling it, its invites and seat secrets (claim, re-invite),
names and the start once every seat is named, and the watchers that attach
to it and detach."""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from typing import Any

from sushigo.bots import make_bot, parse_bot_spec
from sushigo.engine.editions import new_game
from sushigo.engine.flags import FlagError, rules_from_flags
from sushigo.engine.messages import Seat as SeatSaid
from sushigo.engine.messages import msg, nmsg
from sushigo.engine.rules import Rules, RulesError
from sushigo.i18n import Phrase, _l, _ln, message_of
from sushigo.server.accounts import DELETED_NAME
from sushigo.server.protocol import CreateTable as CreateRequest
from sushigo.server.protocol import dump, error
from sushigo.server.store import OPEN_STATUSES, CreateTable, SeatRow, SetName, SetStatus, SetToken, StoreError, TableRow

from .base import ServiceBase
from .model import (
    ABANDONED,
    BOT_LIMITS,
    CANCELLED,
    FINISHED,
    PLAYING,
    SEAT_TAKEN,
    SERVER_SETTINGS,
    WAITING,
    Connection,
    LiveTable,
    Seat,
    TableError,
    _check_open,
    hash_token,
)


def _rules_from_request(req: CreateRequest) -> Rules:
    if req.players != len(req.seats):
        raise TableError("bad_request", _ln("{n} seat listed for {players} players",
                                            "{n} seats listed for {players} players", len(req.seats),
                                            players=req.players))
    try:
        return rules_from_flags(
            req.players, edition=req.edition,
            menu=(", ".join(req.menu) if isinstance(req.menu, list) else req.menu),
            pass_both_ways=req.pass_both_ways, reshuffle=req.reshuffle,
            uramaki_split=req.uramaki_split, menu_card_draw=req.menu_card_draw,
            two_player_pudding_penalty=req.two_player_pudding_penalty, wasabi_colour=req.wasabi_colour,
            label=nmsg("{n} seat", "{n} seats", req.players), options=req.options, keys=True,
        )
    except (FlagError, RulesError) as e:
        raise TableError("bad_request", message_of(e)) from None


def _ended_table(status: str, cancelling: bool) -> Phrase:
    """Why an ended table's creator can change nothing (``cancelling``: cancel it), by how it ended."""
    if cancelling:
        return _l("the table is finished; only a waiting table can be cancelled") if status == FINISHED else \
            _l("the table is cancelled; only a waiting table can be cancelled") if status == CANCELLED else \
            _l("the table is abandoned; only a waiting table can be cancelled") if status == ABANDONED else \
            _l("the table is {status}; only a waiting table can be cancelled", status=status)
    return _l("the table is finished; it is read-only") if status == FINISHED else \
        _l("the table is cancelled; it is read-only") if status == CANCELLED else \
        _l("the table is abandoned; it is read-only") if status == ABANDONED else \
        _l("the table is {status}; it is read-only", status=status)


def _bot_spec(entry: str, seat: int) -> str:
    spec = entry[4:].strip()
    if not spec:
        raise TableError("bad_request", _l("seat {seat}: 'bot:' needs a bot name", seat=str(seat)))
    if spec.lower().startswith("cmd:"):
        raise TableError("bad_request", _l("seat {seat}: external programs cannot play on the server", seat=str(seat)))
    try:
        _, settings = parse_bot_spec(spec)
    except ValueError as e:  # the bots' own words
        raise TableError("bad_request", _l("seat {seat}: {why}", seat=str(seat), why=str(e))) from None
    refused = sorted(set(settings) - SERVER_SETTINGS)
    if "file" in refused:
        raise TableError("bad_request", _l("seat {seat}: bots cannot load files on the server", seat=str(seat)))
    if refused:
        raise TableError("bad_request", _l("seat {seat}: setting {setting} cannot be used on the server",
                                           seat=str(seat), setting=repr(refused[0])))
    try:
        make_bot(spec, seed=0)
    except ValueError as e:
        raise TableError("bad_request", _l("seat {seat}: {why}", seat=str(seat), why=str(e))) from None
    for key, most in BOT_LIMITS.items():
        value = settings.get(key)
        if value is not None and not 0 < value <= most:
            raise TableError("bad_request",
                             _l("seat {seat}: {setting}={value} (on the server: more than 0, at most {most})",
                                seat=str(seat), setting=key, value=f"{value:g}", most=f"{most:g}"))
    return spec


class Seats(ServiceBase):
    """Create, cancel and rematch tables; claim, re-invite and name seats; attach and detach watchers."""

    async def create(self, req: CreateRequest, *, rematch_of: LiveTable | None = None, address: str = ""
                     ) -> tuple[LiveTable, dict[int, str], str]:
        """A new table from a create request; returns it, the human seats' tokens
        and the creator's token.  A rematch (``rematch_of``) gives no seat tokens:
        each player claims its seat (:meth:`claim_rematch`)."""
        rules = _rules_from_request(req)
        if req.rated and (req.seed is not None or req.hints or req.learn):
            raise TableError("bad_request", _l("a rated table has no seed, no hints and no lesson"))
        if req.turn_hours is not None and req.timer is not None:
            raise TableError("bad_request", _l("a table has a move timer (timer, seconds) or is turn-based "
                                               "(turn_hours), not both"))
        timer = req.turn_hours * 3600 if req.turn_hours is not None else req.timer
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, entry in enumerate(req.seats):
            kind = entry.strip().lower()
            if kind == "human" and rematch_of is not None:
                seats.append(Seat(i, "human", None, None, None))
            elif kind == "human":
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                seats.append(Seat(i, "human", None, None, None, invite_hash=hash_token(token)))
            elif kind.startswith("bot:"):
                seats.append(Seat(i, "bot", _bot_spec(entry.strip(), i), None, None))
            else:
                raise TableError("bad_request", _l("seat {seat}: {entry} is neither 'human' nor 'bot:NAME'",
                                                   seat=str(i), entry=repr(entry[:40])))
        if all(s.kind == "bot" for s in seats):
            raise TableError("bad_request", _l("a table needs at least one human seat"))
        seed = req.seed if req.seed is not None else secrets.randbits(63)
        table_id = self.prefix + secrets.token_urlsafe(9)
        creator = secrets.token_urlsafe(24)
        table = LiveTable(
            id=table_id, created=time.time(), rules=rules, seed=seed, timer=timer,
            status=WAITING, seats=seats, game=new_game(rules, seed=seed), opened=[0] * rules.players,
            seeded=req.seed is not None, learn=req.learn, private=req.private, chat=req.chat,
            chat_spectators=req.chat_spectators, hints=req.hints, rated=req.rated,
            turn_based=req.turn_hours is not None, creator_hash=hash_token(creator),
            rematch_of=rematch_of.id if rematch_of is not None else None,
            owner=rematch_of.owner if rematch_of is not None else address,
        )
        self._make_bots(table)
        stored_rules: dict[str, Any] = {"options": rules.options(), "creator": hash_token(creator).hex()}
        invites = {str(s.seat): s.invite_hash.hex() for s in seats if s.invite_hash is not None}
        if invites:
            stored_rules["invites"] = invites
        if rules.menu:  # Sushi Go Party!'s
            stored_rules["menu"] = list(rules.menu)
        if req.seed is not None:
            stored_rules["seeded"] = True
        for key in ("learn", "private", "chat_spectators", "hints", "rated"):
            if getattr(req, key):
                stored_rules[key] = True
        if req.turn_hours is not None:
            stored_rules["turn_based"] = True
        if not req.chat:
            stored_rules["chat"] = False
        if rematch_of is not None:
            stored_rules["rematch_of"] = rematch_of.id
        row = TableRow(table_id, table.created, rules.edition, rules.players, stored_rules, seed,
                       timer, WAITING)
        await self.writer.submit(CreateTable(row, [SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash)
                                                   for s in seats]))
        self.tables[table_id] = table
        return table, tokens, creator

    async def cancel(self, table_id: str, creator: str) -> LiveTable:
        """Cancel a table that has not started, for its creator (stored first)."""
        table = await self._creators_table(table_id, creator, cancelling=True)
        if table.status != WAITING or table.starting:
            raise TableError("not_waiting", _l("the game has started; only a waiting table can be cancelled"))
        try:
            await self.writer.submit(SetStatus(table.id, CANCELLED, time.time()))
        except StoreError:
            raise TableError("server_error", _l("the table could not be cancelled; try again")) from None
        self._end(table, CANCELLED)
        return table

    async def _creators_table(self, table_id: str, creator: str, *, cancelling: bool = False) -> LiveTable:
        """The open table ``table_id`` this process runs, if ``creator`` is its creator's token
        (``cancelling``: to cancel it; an ended table says so)."""
        table = self.tables.get(table_id)
        if table is None:
            summary = await self.summary(table_id)
            if summary is None:
                raise TableError("no_table", _l("no table {id}", id=repr(table_id)))
            if summary["status"] in OPEN_STATUSES:
                raise TableError("wrong_process", _l("this table is served by another server process"))
            raise TableError("not_waiting", _ended_table(summary["status"], cancelling))
        if table.creator_hash is None or not hmac.compare_digest(table.creator_hash, hash_token(creator)):
            raise TableError("not_creator", _l("this is not the creator's token of this table"))
        return table

    async def claim_rematch(self, table: LiveTable, seat: int | None) -> tuple[LiveTable, str, str | None]:
        """"Play again": the finished table's rematch (created by the first seat
        to ask: same seats, bots and options, a fresh seed), a new secret for
        ``seat`` there and, for the seat that created it, the new table's creator
        token (the caller sends them to that seat's socket only: the socket
        holds the old seat's secret, so each new seat goes to its old player)."""
        if seat is None or table.seats[seat].kind != "human":
            raise TableError("not_seated", _l("only the table's players can play again"))
        if table.status != FINISHED:
            raise TableError("not_over", _l("play again once the game is over"))
        creator = None
        async with table.rematch_lock:
            if table.rematch is None:
                req = self._rematch_request(table)
                new, _, creator = await self.create(req, rematch_of=table)
                try:
                    await self._happening(table, "rematch", seat, {"table": new.id})[1]
                except StoreError:
                    raise TableError("server_error", _l("the new table could not be linked; try again")) from None
                table.rematch = new.id
                table.moved = True
                self._publish(table)
            found = self.tables.get(table.rematch)
            if found is not None and found.seats[seat].token_hash is not None:
                raise TableError("already_claimed", _l("this seat took its place at the new table already"))
            if found is None or found.status != WAITING:
                raise TableError("not_waiting", _l("the new table has started or ended without this seat"))
            new = found
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            new.seats[seat].token_hash = digest
            new.seats[seat].account = table.seats[seat].account  # the same player, signed in or not
            new.seats[seat].account_name = table.seats[seat].account_name
            new.seats[seat].account_bot = table.seats[seat].account_bot
            try:
                await self.writer.submit(SetToken(new.id, seat, digest, new.seats[seat].account))
                if table.seats[seat].name is not None:
                    await self.rename(new, seat, table.seats[seat].name)  # type: ignore[arg-type]
            except (StoreError, TableError):
                new.seats[seat].token_hash = None
                new.seats[seat].account = new.seats[seat].account_name = None
                raise TableError("server_error", _l("the seat could not be stored; try again")) from None
            return new, token, creator

    def _rematch_request(self, table: LiveTable) -> CreateRequest:
        rules = table.rules
        seats = ["human" if s.kind == "human" else f"bot:{s.bot}" for s in table.seats]
        options = rules.options()
        fields: dict[str, Any] = {"edition": rules.edition, "players": rules.players, "seats": seats,
                                  "timer": None if table.turn_based else table.timer,
                                  "turn_hours": table.timer // 3600 if table.turn_based and table.timer else None,
                                  "learn": False, "private": table.private,
                                  "chat": table.chat, "chat_spectators": table.chat_spectators,
                                  "hints": table.hints, "rated": table.rated}
        if rules.menu:  # Sushi Go Party!'s
            fields["menu"] = list(rules.menu)
        fields["options"] = options
        return CreateRequest(**fields)

    def get(self, table_id: str) -> LiveTable | None:
        return self.tables.get(table_id)

    def seat_of(self, table: LiveTable, token: str) -> tuple[int | None, str]:
        """The seat ``token`` opens and how (constant time over every seat's
        hashes): ``(seat, "secret")`` the secret of the player who claimed it,
        ``(seat, "invite")`` its open invite (:meth:`claim` binds it),
        ``(seat, "spent")`` an invite that claimed it already or was replaced
        (it grants nothing), ``(None, "none")`` nothing of this table."""
        digest = hash_token(token)
        found: tuple[int | None, str] = (None, "none")
        for s in table.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = (s.seat, "secret")
            if s.invite_hash is not None and hmac.compare_digest(s.invite_hash, digest):
                found = (s.seat, "invite")
            for h in s.spent:
                if hmac.compare_digest(h, digest):
                    found = (s.seat, "spent")
        return found

    def seat_of_account(self, table: LiveTable, seat: int, account: str) -> int:
        """``seat``, when the account ``account`` holds it (it claimed it signed in), for a
        ``hello`` that names a seat instead of its secret; else :class:`TableError`."""
        holder = table.seats[seat].account if 0 <= seat < len(table.seats) else None
        if holder is None or not hmac.compare_digest(holder.encode(), account.encode()):
            raise TableError("not_your_seat", _l("this seat is not your account's"))
        return seat

    def forget_account(self, account: str) -> None:
        """An account was deleted: its seats at the tables in memory are anonymous guests' now
        (the store did the same to the stored seats)."""
        for table in list(self.tables.values()):
            changed = False
            for s in table.seats:
                if s.account == account:
                    s.account = s.account_name = None
                    s.name = DELETED_NAME
                    changed = True
            if changed:
                self.broadcast_seats(table)

    async def claim(self, table: LiveTable, seat: int, account: tuple[str, str] | None = None, *,
                    bot: bool = False) -> str:
        """Bind human ``seat``, opened with its invite, to a new secret (stored
        first) and return it: the caller sends it to the claiming socket only.
        ``account``: the id and name of the account signed in on that socket:
        the seat is that account's (it resumes from any browser signed into it,
        and bears its name); ``None``: a guest's.  ``bot``: that account is a bot account.

        The invite is spent from now on.  When the seat had a player already
        (the creator re-issued its invite, :meth:`reinvite`), that player's
        secret stops working: their sockets are told ``seat_taken`` and closed.
        """
        _check_open(table, "seats")
        s = table.seats[seat]
        invite, old, before, was_bot = s.invite_hash, s.token_hash, (s.account, s.account_name), s.account_bot
        if invite is None:
            raise TableError("seat_taken", SEAT_TAKEN)
        if table.rated and account is None:
            raise TableError("needs_account", _l("a rated table seats signed-in players only: sign in, then open "
                                                 "the invite again"))
        if table.rated and account is not None and any(x.account == account[0] for x in table.seats):
            raise TableError("already_seated", _l("your account has a seat at this rated table already"))
        secret = secrets.token_urlsafe(24)
        digest = hash_token(secret)
        s.invite_hash, s.token_hash = None, digest  # before any await: a second hello with it finds it spent
        s.account, s.account_name = account if account is not None else (None, None)
        s.account_bot = bot and account is not None
        s.spent.append(invite)
        if old is not None:
            s.spent.append(old)  # the secret it replaces: its holder is told the seat was taken
        try:
            _, stored = self._happening(table, "claim", seat, {} if old is None else {"replaced": old.hex()})
            await asyncio.gather(self.writer.submit(SetToken(table.id, seat, digest, s.account)), stored)
        except StoreError:
            s.invite_hash, s.token_hash = invite, old
            s.account, s.account_name = before
            s.account_bot = was_bot
            del s.spent[-1 if old is None else -2:]
            raise TableError("server_error", _l("the seat could not be claimed; try again")) from None
        if old is not None:
            for conn in table.connections_of(seat):
                conn.send(error("seat_taken", _l("your seat was claimed with the new invite the table's creator made")))
                conn.close(1008, "seat claimed with a new invite")
                self.detach(table, conn)
                conn.seat = None  # anything it still sends is a spectator's
            self._tell(table, "claim", msg("{seat}'s seat was claimed with its new invite.", seat=SeatSaid(seat)), seat)
            self.broadcast_seats(table)
        return secret

    async def reinvite(self, table_id: str, creator: str, seat: int) -> str:
        """A new invite for human ``seat`` of an open table, for its creator: the
        way back for a player who lost their secret.  Everyone at the table sees
        it (the seat's ``reinvited``, a line in the log); the seat's player keeps
        playing until someone opens the new invite (which then holds the seat)."""
        table = await self._creators_table(table_id, creator)
        _check_open(table, "invites")
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise TableError("bad_request", _l("seat {seat} is not a player's seat", seat=str(seat)))
        s = table.seats[seat]
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        try:
            await self._happening(table, "invite", seat, {"invite": digest.hex()})[1]
        except StoreError:
            raise TableError("server_error", _l("the invite could not be stored; try again")) from None
        if s.invite_hash is not None:
            s.spent.append(s.invite_hash)
        s.invite_hash = digest
        if s.token_hash is not None:
            self._tell(table, "invite", msg("The table's creator made a new invite for {seat}'s seat.",
                                            seat=SeatSaid(seat)), seat)
        self.broadcast_seats(table)
        return token

    async def rename(self, table: LiveTable, seat: int, name: str) -> None:
        """Name a human seat (stored first); the game starts once every human seat has a name."""
        _check_open(table, "names")
        s = table.seats[seat]
        if s.name != name:
            try:
                await self.writer.submit(SetName(table.id, seat, name))
            except StoreError:
                raise TableError("server_error", _l("the name could not be stored; try again")) from None
            s.name = name
        if not await self._start_if_ready(table):
            self.broadcast_seats(table)

    async def _start_if_ready(self, table: LiveTable) -> bool:
        """Start a waiting table whose human seats all have names (status stored first)."""
        if table.status != WAITING or table.starting:
            return False
        if any(x.name is None for x in table.seats if x.kind == "human"):
            return False
        table.starting = True
        now = time.time()
        try:
            _, start = self._happening(table, "start", None, {}, now)
            await self.writer.submit(SetStatus(table.id, PLAYING))
            await start
        except StoreError:
            raise TableError("server_error", _l("the game could not be started; try again")) from None
        finally:
            table.starting = False
        table.started = now
        table.opened_at = [now] * table.rules.players
        table.status = PLAYING
        table.moved = True
        self._after_change(table)
        self._publish(table)
        return True

    def attach(self, table: LiveTable, conn: Connection) -> None:
        """Add a watcher: it is sent its ``state`` and the whole log, the chat it may read, its mutes."""
        self.join(table, conn)
        table.connections.add(conn)
        talk = self.talk_seen_by(table, conn.seat)
        if talk:
            conn.send(dump({"type": "chat", "messages": talk}))
        if conn.seat is not None:
            if table.mutes.get(conn.seat):
                conn.send(dump({"type": "muted", "seats": sorted(table.mutes[conn.seat])}))
            opened, frame = table.hinted.get(conn.seat, (-1, ""))
            if frame and opened == table.opened[conn.seat] and conn.seat in table.game.pending_seats:
                conn.send(frame)
            s = table.seats[conn.seat]
            s.connections += 1
            s.away_since = None
            if s.connections == 1 and s.stand_in is not None:
                self._take_seat_back(table, s.seat)
            elif s.connections == 1 and s.seen:
                self._tell(table, "back", msg("{seat} is back.", seat=SeatSaid(s.seat)), s.seat)
            s.seen = True
            self.broadcast_seats(table)
        else:
            self.broadcast_seats(table)  # the number watching changed

    def detach(self, table: LiveTable, conn: Connection) -> None:
        if conn in table.connections:
            table.connections.discard(conn)
            if conn.seat is not None:
                s = table.seats[conn.seat]
                s.connections -= 1
                if s.connections == 0:
                    s.away_since = time.time()
                    self._tell(table, "away", msg("{seat} left the table.", seat=SeatSaid(s.seat)), s.seat)
            self.broadcast_seats(table)
        self.forget_if_idle(table)
