"""Hostile on purpose: forks in its first `choose`. The child writes its pid to `pids` (a file)
and sleeps for an hour; with `bomb` it first starts 5 more sleeping children, and the parent
waits (up to 5 s) until all 6 have written."""

import os
import time
from pathlib import Path

from domsim.strategy import Strategy


class Forker(Strategy):
    def __init__(self, *, pids: str = "", bomb: bool = False) -> None:
        self.pids = pids
        self.bomb = bomb
        self.forked = False

    def choose(self, view):
        if not self.forked and os.fork() == 0:
            for _ in range(5 if self.bomb else 0):
                if os.fork() == 0:
                    break
            Path(self.pids).parent.mkdir(parents=True, exist_ok=True)  # in a sandbox's /tmp
            with Path(self.pids).open("a") as out:
                out.write(f"{os.getpid()}\n")
            time.sleep(3600)
            os._exit(0)
        if self.bomb and not self.forked:
            self.wait_for(6)
        self.forked = True
        return view.legal_moves[0]

    def wait_for(self, children: int) -> None:
        path = Path(self.pids)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if path.exists() and len(path.read_text().split()) >= children:
                return
            time.sleep(0.01)
