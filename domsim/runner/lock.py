"""One writer per run folder: an exclusive `flock` on the folder itself, with a note naming the
holder (pid, host, start, command) for the writer that is refused.

The lock is on the folder's own descriptor, not on a file in it, so nothing stale can block a
later run: the kernel drops the lock when the holder exits, however it dies. The note is only
information and is removed on release. A forked child (a local worker) closes its copies of the
descriptors at once: a lock is its parent's, and a child that outlives the session (a study's
worker: domsim.runner.studypool) would otherwise hold it on past the release."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import weakref
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..errors import DomsimError

HOLDER = ".writer"
_held: weakref.WeakSet[RunLock] = weakref.WeakSet()  # this process's locks


def _drop_parents_locks() -> None:
    """In a forked child: its copies of the locks' descriptors closed, and the locks left to the
    parent (a release here does nothing)."""
    for lock in list(_held):
        with contextlib.suppress(OSError):
            os.close(lock.fd)
        lock.fd = -1
    _held.clear()


os.register_at_fork(after_in_child=_drop_parents_locks)


class LockedError(DomsimError):
    """The folder is in use by another writer; the message is one line naming it."""


class RunLock:
    """Held from `acquire` until `release` (or the process's end)."""

    def __init__(self, folder: Path, fd: int) -> None:
        self.folder, self.fd = folder, fd

    @classmethod
    def acquire(cls, folder: Path, command: Sequence[str]) -> RunLock:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LockedError(f"{folder} is in use by another run ({holder(folder)}): wait "
                              "for it to end, or choose another --out") from None
        lock = cls(folder, fd)
        _held.add(lock)
        note = {"pid": os.getpid(), "host": socket.gethostname(),
                "started": datetime.now(UTC).isoformat(timespec="seconds"),
                "command": " ".join(command)}
        try:
            (folder / HOLDER).write_text(json.dumps(note) + "\n", encoding="utf-8")
        except BaseException:
            lock.release()
            raise
        return lock

    def release(self) -> None:
        if self.fd < 0:
            return
        (self.folder / HOLDER).unlink(missing_ok=True)
        _held.discard(self)
        os.close(self.fd)  # drops the lock
        self.fd = -1


def holder(folder: Path) -> str:
    """Who holds the folder, from its note (which the holder may not have written yet)."""
    try:
        note = json.loads((folder / HOLDER).read_text(encoding="utf-8"))
        return (f"pid {note['pid']} on {note['host']} since {note['started']}: "
                f"{note['command'] or '(Python API)'}")
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return "a process that has not said who it is yet"
