"""The Ray backend: the local backend's tasks (:func:`~sushigo.tournament.play.play_chunk`)
run as Ray tasks, one CPU each.  Ray is imported here only, so ``sushigo``
works without it.

Connects to the Ray this process already joined, else to ``address``
(``ray.init(address=...)``), else starts a local Ray with ``workers`` CPUs
and shuts it down afterwards.  Every node needs ``sushigo`` installed, as
the workers import it to play.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sushigo.engine.rules import Rules
from sushigo.i18n import _l
from sushigo.tournament.play import ChunkOutcome, play_chunk
from sushigo.tournament.schedule import ScheduledGame, TournamentError, one_line


def import_ray() -> Any:
    """The ``ray`` module, or a one-line :class:`TournamentError` saying how to get it."""
    try:
        import ray
    except ImportError:
        raise TournamentError(
            _l("--backend ray needs Ray, which is not installed: pip install 'sushigo[ray]'"), usage=False
        ) from None
    return ray


def run_ray(
    chunks: list[list[ScheduledGame]],
    rules: Rules,
    time_limit: float | None,
    keep_records: bool,
    workers: int,
    address: str | None,
    on_chunk: Callable[[ChunkOutcome], None],
) -> None:
    """Play ``chunks`` as Ray tasks, handing each outcome to ``on_chunk`` as it lands."""
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        quiet: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        try:
            if address is not None:
                ray.init(address=address, **quiet)
            else:
                ray.init(num_cpus=workers, **quiet)
        except Exception as e:
            if address is not None:
                # TRANSLATORS: {address}: the Ray cluster's address; {why}: Ray's reason
                raise TournamentError(_l("could not start or reach Ray at {address}: {why}", address=repr(address),
                                         why=one_line(e)), usage=False) from None
            raise TournamentError(_l("could not start or reach Ray: {why}", why=one_line(e)), usage=False) from None
        started = True
    try:
        task = ray.remote(num_cpus=1)(play_chunk)
        pending = [task.remote(chunk, rules, time_limit, keep_records) for chunk in chunks]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        outcome = ray.get(ref)
                    except ray.exceptions.RayError as e:  # a worker died, say
                        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
                        raise TournamentError(_l("a Ray task failed: {why}", why=first), usage=False) from None
                    on_chunk(outcome)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
