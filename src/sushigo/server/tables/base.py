"""The state every room of :class:`~sushigo.server.tables.service.TableService`
shares (the store and its writer, the tables, the limits, the pools, the
running tasks), declared once, and the methods one room calls in another."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from sushigo.analysis.evaluate import DEFAULT_SAMPLES
from sushigo.engine.messages import Message
from sushigo.server.store import HappeningRow, LoadedTable, Store
from sushigo.server.writer import Writer

from .model import BOT_THREADS, HINT_SECONDS, AnalysisJob, Connection, LiveTable, _one_line, log


class ServiceBase(ABC):
    """The table service's shared state; each room (a mixin of
    :class:`~sushigo.server.tables.service.TableService`) adds its methods."""

    def __init__(self, store: Store, *, prefix: str = "", idle_limit: float = 7 * 86400.0,
                 away_after: float = 60.0, janitor_every: float = 300.0, hint_seconds: float = HINT_SECONDS,
                 analysis_workers: int = 2, analysis_samples: int = DEFAULT_SAMPLES) -> None:
        self.store = store
        self.prefix = prefix
        self.idle_limit = idle_limit
        self.away_after = away_after
        self.janitor_every = janitor_every
        self.writer = Writer(store)
        self.bot_threads = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="sushigo-bots")
        """Search bots think here, never on the writer's thread or the event loop."""
        self.hint_seconds = hint_seconds
        self._analysis_pool: ProcessPoolExecutor | None = None
        self._analysis_slots = asyncio.Semaphore(analysis_workers)
        self.analysis_workers = analysis_workers
        self.analysis_samples = analysis_samples
        self.hints_queued = 0
        self.hints_of: Counter[str] = Counter()
        """Hints waiting or computing, per address that created their tables."""
        self.analyses: dict[tuple[str, int], AnalysisJob] = {}
        """Game analyses asked for since this process started (finished ones are also stored)."""
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.picks = 0
        self.on_turn: Callable[[LiveTable, int], None] | None = None
        """Called when a turn-based table starts waiting on an account's seat that nobody watches
        (the app sends that account's devices a notification)."""

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished task; one that failed is logged as one line (its
        exception retrieved, never an "exception was never retrieved")."""
        self._tasks.discard(task)
        if task.cancelled():
            return
        e = task.exception()
        if e is not None:
            log.error("a server task failed: %s", _one_line(e))

    # What one room calls in another: declared here, defined in the room named.

    # ------------------------------------------------------------------ in :mod:`.lifecycle`

    @abstractmethod
    def _end(self, table: LiveTable, status: str) -> None:
        """End a table that will not be played (cancelled or abandoned)."""

    @abstractmethod
    def _repair(self, table: LiveTable, item: LoadedTable) -> None:
        """Store what a failed write left out of a table just loaded."""

    @abstractmethod
    def _restore(self, item: LoadedTable) -> LiveTable:
        """A table from its stored rows."""

    @abstractmethod
    def _make_bots(self, table: LiveTable) -> None:
        """Name the bot seats and make their bots."""

    @abstractmethod
    def _happening(self, table: LiveTable, kind: str, seat: int | None, data: dict[str, Any],
                   at: float | None = None) -> tuple[HappeningRow, asyncio.Future[None]]:
        """Store one happening; the future resolves once it is committed."""

    @abstractmethod
    def _meta(self, table: LiveTable) -> dict[str, Any]:
        """The meta of the table's record."""

    @abstractmethod
    def forget_if_idle(self, table: LiveTable) -> None:
        """Drop an ended table nobody watches from memory."""

    # ------------------------------------------------------------------ in :mod:`.drivers`

    @abstractmethod
    def _seat_bot(self, table: LiveTable, seat: int, bot: str, by: int | None) -> None:
        """Let ``bot`` play for human ``seat``."""

    @abstractmethod
    def _seat_player(self, table: LiveTable, seat: int, at: float) -> None:
        """The seat is its player's again."""

    @abstractmethod
    def _take_seat_back(self, table: LiveTable, seat: int) -> None:
        """The player of a seat a bot plays for is back (stored)."""

    @abstractmethod
    def _after_change(self, table: LiveTable) -> None:
        """Start bots for pending bot seats and timers for pending human seats."""

    @abstractmethod
    def _clear_deadline(self, table: LiveTable, seat: int) -> None:
        """Stop the seat's move timer."""

    # ------------------------------------------------------------------ in :mod:`.talk`

    @abstractmethod
    def talk_seen_by(self, table: LiveTable, seat: int | None, rows: Sequence[HappeningRow] | None = None
                     ) -> list[dict[str, Any]]:
        """The chat messages and reactions ``seat`` may read."""

    @abstractmethod
    def _tell(self, table: LiveTable, kind: str, said: Message, seat: int) -> None:
        """Add a line of the server's own to the log and send it."""

    # ------------------------------------------------------------------ in :mod:`.frames`

    @abstractmethod
    def join(self, table: LiveTable, conn: Connection) -> None:
        """Send a socket that joins its ``state`` and the whole log."""

    @abstractmethod
    def acknowledge(self, conn: Connection, seq: int, action: int | None) -> None:
        """Tell ``conn`` its decision is stored."""

    @abstractmethod
    def _publish_log(self, table: LiveTable) -> None:
        """Send every watcher the log lines it has not been sent."""

    @abstractmethod
    def broadcast_seats(self, table: LiveTable) -> None:
        """Send every watcher the ``seats`` frame."""

    @abstractmethod
    def _publish(self, table: LiveTable) -> None:
        """Tell every watcher what changed."""

    # ------------------------------------------------------------------ in :mod:`.decisions`

    @abstractmethod
    def _apply(self, table: LiveTable, seat: int, action: int, by: str = "seat", at: float | None = None) -> None:
        """Apply one decision to the game in memory."""

    @abstractmethod
    async def _decide(self, table: LiveTable, seat: int, action: int | None, by: str, *, change: bool = False) -> int:
        """Apply, store and publish one decision."""

    # ------------------------------------------------------------------ in :mod:`.jobs`

    @abstractmethod
    def _want_hint(self, table: LiveTable, seat: int) -> None:
        """Start the hint for ``seat``'s open decision."""

    # ------------------------------------------------------------------ in :mod:`.lobby`

    @abstractmethod
    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """The table's summary, live or stored."""

    @abstractmethod
    async def record(self, table_id: str) -> str | None:
        """The table's stored record."""
