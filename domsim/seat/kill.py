"""Killing a bot's whole tree: every process it forked, found before any can fork again."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path


def stopped_tree(root: int) -> list[int]:
    """Every descendant of `root` (Linux: from /proc; elsewhere none), each stopped with
    SIGSTOP as it is found, so that none forks or exits while the tree is read."""
    found, frontier = [], [root]
    while frontier:
        children = [child for pid in frontier for child in child_pids(pid) if child not in found]
        for child in children:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGSTOP)
        found += children
        frontier = children
    return found


def child_pids(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    children = []
    for task in tasks:
        with contextlib.suppress(OSError):
            children += map(int, Path(f"/proc/{pid}/task/{task}/children").read_text().split())
    return children
