"""Bots in their own process (docs/seat-protocol.md): which specs run that way, starting one
under a memory limit in its own process group, talking to it under deadlines, and killing the
whole group, so that nothing it forked outlives the run.

A spec `exec:COMMAND` names a program speaking the protocol; COMMAND is split as a POSIX shell
would (shlex), without a shell. With isolation on, any other spec but a built-in level runs in
`python -m domsim.seat_host SPEC`. A `BotPool` keeps the processes of one batch of games and
hands a free one to each seat, so a bot is started once per batch, not once per game."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import resource
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import __version__
from .protocol import PROTOCOL_VERSION, ProtocolError, decode, encode
from .strategy import (
    EXEC_PREFIX,
    SESSION_PREFIX,
    StrategyError,
    load_strategy,
    local_file,
    spec_file,
)

#: Specs that always stay in process: the built-in levels, with or without parameters.
BUILT_IN_LEVELS = ("easy", "medium", "hard", "insane")
#: Seconds a bot may take to start and answer `hello`, and to answer `game` and `game_over`.
STARTUP_SECONDS = 10.0
#: Address space a bot's process may use, in MiB (0: no limit).
SEAT_MEMORY_MB = 2048
#: Longest line a bot may write, in bytes; and stderr lines logged per bot process.
MAX_LINE = 1 << 20
MAX_STDERR_LINES = 200

BOTS_LOGGER = "domsim.seats"  # bots' stderr and protocol notes, at INFO
log = logging.getLogger(BOTS_LOGGER)


class BotFault(Exception):
    """The bot broke the protocol, died or stopped answering; the message is one line."""


@dataclass(frozen=True)
class BotCommand:
    """How to start one bot: its argv and working folder, and the files that define it (the
    program and scripts it names, or the strategy file the host loads)."""

    spec: str
    argv: tuple[str, ...]
    cwd: str
    files: tuple[str, ...]

    def about(self) -> dict:
        """For the manifest: the spec, the command, and a sha256 of each file that defines it."""
        return {"spec": self.spec, "origin": f"process: {shlex.join(self.argv)}",
                "files": {name: hashlib.sha256(Path(self.cwd, name).read_bytes()).hexdigest()
                          for name in self.files}}


def is_built_in(spec: str) -> bool:
    return spec.partition("?")[0].strip() in BUILT_IN_LEVELS


def bot_command(spec: str, isolate: bool) -> BotCommand | None:
    """The process a spec runs in, or None for a strategy played in process (a class defined
    in the session exists only in this process and its forks: it stays there, see
    `check_spec`)."""
    cwd = os.getcwd()
    if spec.startswith(EXEC_PREFIX):
        return _exec_command(spec, cwd)
    if isolate and not is_built_in(spec) and not spec.startswith(SESSION_PREFIX):
        path = spec_file(spec)
        # A file shipped to this process (a Dask worker) is loaded from its copy.
        host_spec = spec.replace(path, str(local_file(path)), 1) if path else spec
        return BotCommand(spec, (sys.executable, "-m", "domsim.seat_host", host_spec), cwd,
                          (path,) if path and Path(cwd, path).is_file() else ())
    return None


def check_spec(spec: str, isolate: bool, memory_mb: int) -> dict | None:
    """Check that a spec can play (StrategyError if not), without loading it into this process
    when it plays in its own: then its bot's `hello` reply, else None. A strategy defined in
    the session cannot be isolated."""
    if isolate and spec.startswith(SESSION_PREFIX):
        raise StrategyError(f"{spec!r} is defined in this Python session: it cannot play in its "
                            "own process (isolate); put it in a file and give its path")
    command = bot_command(spec, isolate)
    if command is None:
        load_strategy(spec)
        return None
    return check_bot(command, memory_mb)


def _exec_command(spec: str, cwd: str) -> BotCommand:
    try:
        argv = shlex.split(spec[len(EXEC_PREFIX):])
    except ValueError as exc:
        raise StrategyError(f"cannot read the command of {spec!r}: {exc}: check its quotes") \
            from None
    if not argv:
        raise StrategyError(f"{spec!r} names no program: write exec:PROGRAM [ARGUMENTS]")
    program = argv[0]
    if os.sep not in program and shutil.which(program) is None:
        raise StrategyError(f"{spec!r}: program {program!r} is not on PATH: give its path")
    if os.sep in program and not os.access(Path(cwd, program), os.X_OK):
        raise StrategyError(f"{spec!r}: {program} is not an executable file (looked in {cwd}): "
                            "check the path and chmod +x")
    files = tuple(arg for arg in argv if Path(cwd, arg).is_file())
    return BotCommand(spec, tuple(argv), cwd, files)


@functools.lru_cache(maxsize=64)
def check_bot(command: BotCommand, memory_mb: int) -> dict:
    """Start the bot once and shake hands (StrategyError if it cannot); its `hello` reply."""
    try:
        bot = BotProcess(command, memory_mb)
    except BotFault as exc:
        raise StrategyError(f"{command.spec!r}: {exc}") from None
    bot.close()
    return bot.hello


class BotProcess:
    """One running bot: started in its own session (process group) with stdin/stdout pipes and
    stderr to the log, and greeted with `hello`. Raises BotFault if it cannot be."""

    def __init__(self, command: BotCommand, memory_mb: int) -> None:
        self.command = command
        self.label = command.spec
        try:
            self.process = subprocess.Popen(
                command.argv, cwd=command.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, bufsize=0)
        except OSError as exc:
            raise BotFault(f"cannot start {command.argv[0]}: {exc.strerror}") from None
        if memory_mb and hasattr(resource, "prlimit"):
            limit = memory_mb << 20
            # If the process already exited, the handshake says so.
            with contextlib.suppress(OSError, ValueError):
                resource.prlimit(self.process.pid, resource.RLIMIT_AS, (limit, limit))
        os.set_blocking(self.process.stdin.fileno(), False)
        self._buffer = b""
        self._stderr = threading.Thread(target=_log_stderr,
                                        args=(self.process.stderr, self.label), daemon=True)
        start_without_signals(self._stderr)
        try:
            self.hello = self._shake_hands()
        except BotFault:
            self.close()
            raise

    def _shake_hands(self) -> dict:
        hello = self.ask({"type": "hello", "protocol": PROTOCOL_VERSION, "domsim": __version__},
                         STARTUP_SECONDS, "hello")
        if hello["type"] == "error":
            raise BotFault(str(hello.get("message")))
        if hello.get("protocol") != PROTOCOL_VERSION:
            raise BotFault(f"speaks protocol {hello.get('protocol')!r}, domsim speaks "
                           f"{PROTOCOL_VERSION}")
        return hello

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def tell(self, message: dict | bytes, seconds: float = STARTUP_SECONDS) -> None:
        """Send one message, or its encoding (BotFault if the bot does not take it within
        `seconds`)."""
        data = message if isinstance(message, bytes) else encode(message)
        deadline = time.monotonic() + seconds
        fd = self.process.stdin.fileno()
        while data:
            if not _wait(fd, select.POLLOUT, deadline):
                raise BotFault(f"did not read its input for {seconds:g} s")
            try:
                data = data[os.write(fd, data):]
            except BrokenPipeError:
                raise BotFault(self._ended()) from None

    def ask(self, message: dict | bytes, seconds: float | None, reply_type: str,
            request: int | None = None) -> dict:
        """Send `message` (or its encoding, for request `request`) and return the bot's reply of
        `reply_type` (or `error`) to it, read within `seconds` (None: no limit). BotFault if
        none comes, or if the bot dies."""
        self.tell(message)
        deadline = None if seconds is None else time.monotonic() + seconds
        if isinstance(message, dict):
            request = message.get("id")
        while True:
            line = self._read_line(deadline)
            if line is None:
                raise BotTimeout(f"no {reply_type} within {seconds:g} s")
            try:
                reply = decode(line)
            except ProtocolError as exc:
                log.info("%s: ignored a line: %s", self.label, exc)
                continue
            if reply["type"] in (reply_type, "error") and reply.get("id") == request:
                return reply
            log.info("%s: ignored a %r message", self.label, reply["type"])

    def _read_line(self, deadline: float | None) -> bytes | None:
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            if not _wait(fd, select.POLLIN, deadline):
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFault(self._ended())
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE:
                raise BotFault(f"wrote a line longer than {MAX_LINE} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with status {code}" if code >= 0 else f"killed by signal {-code}"

    def close(self) -> None:
        """Kill the bot with every process it started (its group, and the descendants that
        left the group with setsid), reap it, and log the rest of its stderr."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGSTOP)  # nothing in the group forks now
        for pid in [*stopped_tree(self.process.pid), self.process.pid]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._stderr.join(timeout=1)  # a child it forked may still hold the pipe: no longer
        self.process.stdin.close()
        self.process.stdout.close()


def stopped_tree(root: int) -> list[int]:
    """Every descendant of `root` (Linux: from /proc; elsewhere none), each stopped with
    SIGSTOP as it is found, so that none forks or exits while the tree is read."""
    found, frontier = [], [root]
    while frontier:
        children = [child for pid in frontier for child in _children(pid) if child not in found]
        for child in children:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGSTOP)
        found += children
        frontier = children
    return found


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    children = []
    for task in tasks:
        with contextlib.suppress(OSError):
            children += map(int, Path(f"/proc/{pid}/task/{task}/children").read_text().split())
    return children


class BotTimeout(BotFault):
    """No answer within the time allowed."""


def _wait(fd: int, event: int, deadline: float | None) -> bool:
    """Whether `fd` is ready for `event` before `deadline` (time.monotonic(); None: ever)."""
    poller = select.poll()
    poller.register(fd, event)
    while True:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        if poller.poll(None if left is None else left * 1000):
            return True
        if left is not None and time.monotonic() >= deadline:
            return False


def start_without_signals(thread: threading.Thread) -> None:
    """Start `thread` with SIGALRM and SIGINT blocked in it: the kernel then delivers them to
    the thread running the game, whose alarm must interrupt a strategy's sleep (domsim.seat)."""
    if not hasattr(signal, "pthread_sigmask"):
        thread.start()
        return
    saved = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
    try:
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, saved)


def _log_stderr(stream, label: str) -> None:
    """A bot's stderr, line by line, to the run's log (never to the terminal)."""
    with stream:
        for count, line in enumerate(stream):
            if count < MAX_STDERR_LINES:
                log.info("%s: stderr: %s", label, line.decode(errors="replace").rstrip())
            elif count == MAX_STDERR_LINES:
                log.info("%s: stderr: (further lines dropped)", label)


class BotPool:
    """The bot processes of one batch of games: `take` one for a seat (started if none is free),
    `give` it back after the game, `close` kills every one."""

    def __init__(self, memory_mb: int = SEAT_MEMORY_MB) -> None:
        self.memory_mb = memory_mb
        self._free: dict[BotCommand, list[BotProcess]] = {}
        self._all: list[BotProcess] = []

    def take(self, command: BotCommand) -> BotProcess:
        free = self._free.get(command)
        while free:
            bot = free.pop()
            if bot.alive:
                return bot
        bot = BotProcess(command, self.memory_mb)
        self._all.append(bot)
        return bot

    def give(self, bot: BotProcess) -> None:
        if bot.alive:
            self._free.setdefault(bot.command, []).append(bot)

    def close(self) -> None:
        for bot in self._all:
            bot.close()
        self._all.clear()
        self._free.clear()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
