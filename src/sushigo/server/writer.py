"""The writer thread: every write of the tables goes through it, with *group
commit* (docs/server.md, "Storage"): whatever was queued while the previous
transaction ran is written in the next one, and each caller's future resolves
only once its rows are committed.  A failed write fails every later write of
that table queued meanwhile (its stored events never have a gap)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from sushigo.server.rows import CreateTable, Op
from sushigo.server.store import Store, StoreError, one_line


def _table_of(op: Op) -> str:
    return op.row.id if isinstance(op, CreateTable) else op.table_id


class Writer:
    """Group commit: queue writes from the event loop, commit them in batches
    on one thread of its own, resolve each caller's future once its batch is
    committed.

    A batch that fails is retried one operation at a time, so one bad write
    fails only its own future, and every later write of the same table fails
    too until :meth:`reset` (the table's stored events stay a gap-free prefix).
    """

    def __init__(self, store: Store, *, max_batch: int = 2000) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: asyncio.Queue[tuple[Op | None, asyncio.Future[None]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="sushigo-writer")
        self._failed: set[str] = set()
        self.batches = 0
        self.ops = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="sushigo-writer")

    def submit(self, op: Op) -> asyncio.Future[None]:
        """Queue ``op``; the future resolves once it is committed (or fails with :class:`StoreError`)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((op, fut))
        return fut

    async def barrier(self) -> None:
        """Wait until everything queued before this call is committed or failed."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((None, fut))
        await fut

    def reset(self, table_id: str) -> None:
        """Accept writes of ``table_id`` again (after it was reloaded)."""
        self._failed.discard(table_id)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self.max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            results: list[BaseException | None] = [None] * len(batch)
            todo = []
            for i, (op, _) in enumerate(batch):
                if op is not None and _table_of(op) in self._failed:
                    results[i] = StoreError("an earlier change of this table could not be stored")
                elif op is not None:
                    todo.append(i)
            ops: list[Op] = [op for i in todo if (op := batch[i][0]) is not None]
            try:
                if ops:
                    await loop.run_in_executor(self._thread, self.store.write, ops)
            except Exception:
                for i in todo:
                    op = batch[i][0]
                    assert op is not None
                    if _table_of(op) in self._failed:
                        results[i] = StoreError("an earlier change of this table could not be stored")
                        continue
                    try:
                        await loop.run_in_executor(self._thread, self.store.write, [op])
                    except Exception as e:
                        self._failed.add(_table_of(op))
                        results[i] = StoreError(f"could not store the change: {one_line(e)}")
            self.batches += 1
            self.ops += len(ops)
            for (_, fut), err in zip(batch, results):
                if fut.done():
                    continue
                if err is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(err)

    async def stop(self) -> None:
        if self._task is not None:
            await self.barrier()
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._thread.shutdown(wait=True)


__all__ = ["Writer"]
