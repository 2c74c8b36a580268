"""The watchdog of a pool worker: it kills the process when a strategy call, or a wait on a bot,
overruns its allowance by far (domsim.seat.seats)."""

from __future__ import annotations

import faulthandler
import os


class Watchdog:
    """Kills this worker process when an in-process strategy call overruns its limit by far
    (C code that holds the interpreter, SIGALRM ignored, MoveTimeout caught): the runner then
    plays the worker's games again with the strategy in its own process, where the hang is a
    fault of its seat (domsim.runner.stream). Off unless `enable`d (pool workers).

    faulthandler's timer thread needs no interpreter lock, so it fires whatever the strategy
    does. Re-arming it costs ~25 us, so `allow(now, seconds)` re-arms it, for twice `seconds`,
    only when it would fire sooner than `seconds` from now: an in-process call (allowed its
    limit + grace) is killed between 1 and 2 times that after it started, never sooner, and a
    wait on a bot in its own process (allowed as long as the bot is) never sets it off."""

    def __init__(self) -> None:
        self.enabled = False
        self._fires_at = 0.0
        self._devnull = None

    def enable(self) -> None:
        self.enabled = True
        self._devnull = open(os.devnull, "w")  # noqa: SIM115 (open for the process's life)

    def allow(self, now: float, seconds: float) -> None:
        """Nothing fires before `now` (time.perf_counter()) + `seconds`."""
        if self.enabled and self._fires_at < now + seconds:
            faulthandler.dump_traceback_later(2 * seconds, exit=True, file=self._devnull)
            self._fires_at = now + 2 * seconds

    def stop(self) -> None:
        """After a batch (domsim.runner.worker.play_batch): nothing may fire while the worker
        waits for the next."""
        if self.enabled and self._fires_at:
            faulthandler.cancel_dump_traceback_later()
            self._fires_at = 0.0


watchdog = Watchdog()
enable_watchdog = watchdog.enable
stop_watchdog = watchdog.stop

