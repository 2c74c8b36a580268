"""The Dask backend: the same batches as the local backend, played on a Dask cluster.

Only the executor differs: `play_batch` runs on the workers and the runner keeps writing results
in game-id order. Three things the cluster needs first:
- the user's strategy files: each worker gets a copy, and the spec that names a file loads the
  copy under the same spec string (`domsim.strategy.receive_file`), so results and records carry
  the spec as the user wrote it. A file must be self-contained; levels, modules and registered
  names are imported on the workers, which need domsim (and any such package) installed;
- the strategies defined in the session (`session:` specs, domsim.api): pickled to the workers
  (a notebook's class by value), registered there under the same spec;
- the log: worker records of `domsim.*` reach the parent's log through `forward_logging()`;
- the move-time limit: tasks run in worker threads, where the SIGALRM guard of
  `domsim.seat.seats` is inactive; the portable timing still replaces late moves, but a
  strategy that never returns hangs its batch."""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor
from contextlib import contextmanager, suppress
from pathlib import Path

from distributed import Client, KilledWorker, WorkerPlugin
from distributed.cfexecutor import ClientExecutor
from distributed.comm.core import CommClosedError

from ..seat.command import bot_command
from ..strategy import (
    load_strategy,
    one_line,
    receive_definitions,
    receive_file,
    session_definitions,
)
from .console import LOGGER
from .tourney import Tourney, TourneyError

CONNECT_TIMEOUT = "10s"


class DaskCluster:
    """A connection to the scheduler at `address`; `serving(tourney)` readies the workers."""

    #: How a run learns that the cluster failed it: its futures cancelled when the scheduler is
    #: lost, a batch whose workers kept dying, a connection that closed.
    failures = (CancelledError, KilledWorker, CommClosedError)

    def __init__(self, address: str) -> None:
        try:
            self.client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, ValueError, TypeError) as exc:
            raise TourneyError(f"cannot reach the Dask scheduler at {address}: "
                               f"{one_line(exc)}") from None
        self.threads = sum(self.client.nthreads().values())
        if not self.threads:
            self.client.close()
            raise TourneyError(f"the Dask cluster at {address} has no workers: start some")

    @contextmanager
    def serving(self, tourney: Tourney) -> Iterator[Callable[[], Executor]]:
        """Ship the strategy files and forward the log while the tourney runs; yields what makes
        its executor."""
        name = f"domsim-strategies-{uuid.uuid4().hex}"
        self.client.register_plugin(ShippedStrategies(tourney), name=name)
        self.client.forward_logging(LOGGER)
        try:
            yield lambda: DaskExecutor(self.client, pure=False)
        finally:
            with suppress(*self.failures):  # nothing to undo on a scheduler that is gone
                self.client.unforward_logging(LOGGER)
                self.client.unregister_worker_plugin(name)

    def close(self) -> None:
        self.client.close()


class ShippedStrategies(WorkerPlugin):
    """On each worker (also one that joins later): copy the user's strategy files, register the
    session's strategies, load every spec played in process once (so the worker's threads never
    load a file at the same time), and let `domsim`'s info records through to the forwarding
    handler."""

    def __init__(self, tourney: Tourney) -> None:
        specs = {spec for entrant in tourney.entrants for spec in entrant.members}
        self.specs = sorted(spec for spec in specs
                            if bot_command(spec, tourney.config.isolate) is None)
        files = {spec.path for spec in specs} - {None}
        self.files = {path: Path(path).expanduser().read_bytes() for path in sorted(files)}
        self.definitions = session_definitions(self.specs)

    def setup(self, worker) -> None:
        folder = Path(worker.local_directory) / "domsim-strategies"
        folder.mkdir(exist_ok=True)
        for path, source in self.files.items():
            copy = folder / f"{hashlib.sha256(source).hexdigest()[:16]}-{Path(path).name}"
            copy.write_bytes(source)
            receive_file(path, copy)
        receive_definitions(self.definitions)
        for spec in self.specs:
            load_strategy(spec)
        logging.getLogger(LOGGER).setLevel(logging.INFO)


class DaskExecutor(ClientExecutor):
    """`client.get_executor()` with the standard `shutdown` signature the runner calls."""

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            self._client.cancel([future for future in self._futures if not future.done()])
        super().shutdown(wait)
