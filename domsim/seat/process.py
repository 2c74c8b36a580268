"""One bot in its own process (docs/seat-protocol.md), as `command.BotCommand` says to start it:
started under a memory limit in its own process group (in the sandbox unless told otherwise),
greeted with `hello`, asked under deadlines (one game's ask, or every table's in one round
trip: domsim.seat.tables), and killed with everything it forked (domsim.seat.kill)."""

from __future__ import annotations

import contextlib
import functools
import math
import os
import resource
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass

from .._core import Pipes, State
from ..limits import GRACE_SECONDS, SEAT_MEMORY_MB
from ..printable import printable
from ..spec import Spec
from ..strategy import StrategyError, check_declared, check_required, load_strategy
from ..version import __version__
from . import sandbox
from .alarm import start_without_signals
from .command import BotCommand, bot_command
from .kill import stopped_tree
from .logs import LogBudget, log, log_stderr, named_here
from .protocol import ENCODINGS, PROTOCOL_VERSION, ProtocolError, decode, encode
from .trace import TRACE, protocol_trace
from .watchdog import watchdog

#: Where `Confinement.about` names what this machine's sandbox cannot give (the run's header
#: says it on the terminal).
WEAKER = "; weaker here: "

#: Seconds a bot may take to start and answer `hello`, and to answer `game` and `game_over`.
STARTUP_SECONDS = 10.0
#: Lines of its stderr, and characters of each (and of its first line), that the error of a bot
#: that fails to start quotes.
LAST_WORDS_LINES = 3
LAST_WORDS_CHARS = 200
#: Longest line a bot may write, in bytes.
MAX_LINE = 1 << 20
#: The request no compact reply names: that of a JSON message.
NO_REQUEST = (1 << 64) - 1
#: The most tables (games at once) a bot process may offer to play.
MAX_TABLES = 64
#: In one round trip every reply must come within one move time limit of the request (`game`
#: and `game_over`: their wait). So that a bot is never late for being asked together, a round
#: trip may ask twice as many as the last only if that one took at most half this share of the
#: least of those; one that took more halves the next.
SLOW_SHARE = 0.25
#: Bytes a bot may write in one game that answer nothing (unknown messages, lines that are
#: not JSON): past this the bot is killed, whatever its time limit (none, say).
MAX_JUNK_BYTES = 4 << 20

#: The CPU this process keeps to, with the bots it starts, once it starts one (None: no
#: pinning): each worker of the local pool has its own (domsim.runner.local). A hand-over
#: between two processes on one CPU costs a few microseconds; across the CPUs of an idle
#: virtual machine, tens, as each wakes the other's CPU (bench/seat.py).
_home_cpu: int | None = None

#: What the Pipes raise when the bot does not take its input in time (TimeoutError), has
#: closed either end (BrokenPipeError, EOFError), or writes a line too long (ValueError).
PIPE_ERRORS = (OSError, EOFError, ValueError)


#: Commands whose bot went wrong in a round trip of several asks: from then on this process
#: asks their bots one move at a time in this run (BotProcess.exchange).
_asked_alone: set[BotCommand] = set()


def forget_asked_alone() -> set[BotCommand]:
    """A run starts with every command's bots asked several moves at once, also in a worker
    that played earlier runs (a study's: domsim.runner.studypool); returns the commands it
    forgets, whose bots started since are asked one move at a time."""
    forgotten = set(_asked_alone)
    _asked_alone.clear()
    return forgotten


class BotFault(Exception):
    """The bot broke the protocol, died or stopped answering; the message is one line.
    `seconds`: how long the bot had had its ask, when it was one of several games'."""

    seconds: float | None = None

    def again(self) -> BotFault:
        """The same fault, for another game the bot was asked in."""
        fault = type(self)(*self.args)
        fault.seconds = self.seconds
        return fault


@dataclass(slots=True)
class Ask:
    """A message for a bot (a dict, its encoding, or a state: the compact `choose` of its
    seat to move), for `table` of a bot of several (None: of one); its reply of `reply_type`
    (or `error`) to request `request` is late after `limit` seconds and never waited for past
    `wait` (None: no limit)."""

    message: dict | bytes | State
    reply_type: str
    wait: float | None
    limit: float | None = None
    request: int = 0
    table: int | None = None


@dataclass(frozen=True)
class Confinement:
    """How bot processes are held: their memory in MiB (0: no limit), and whether in the
    sandbox (domsim.seat.sandbox; else only in a process group of their own)."""

    memory_mb: int = SEAT_MEMORY_MB
    sandboxed: bool = True

    def about(self) -> str:
        """For the manifest and the run's header: with what this machine cannot give."""
        if not self.sandboxed:
            return "own process, no sandbox (--no-sandbox): it can read what domsim can"
        weaker = sandbox.weaker_here(self.memory_mb)
        here = f"{WEAKER}{', '.join(weaker)}" if weaker else ""
        return f"own process, in the sandbox ({sandbox.version()}){here}"


DEFAULT_CONFINEMENT = Confinement()


def keep_bots_on(cpu: int | None) -> None:
    """From the first bot it starts, this process and its bots run on `cpu` (None: anywhere)."""
    global _home_cpu
    _home_cpu = cpu


def _keep_to_home_cpu() -> None:
    """Pin this thread, and so the bot about to be forked from it, to the home CPU."""
    if _home_cpu is not None and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):  # a CPU taken away meanwhile: no pinning
            os.sched_setaffinity(0, {_home_cpu})


def check_spec(spec: Spec, isolate: bool | None, confinement: Confinement) -> dict | None:
    """Check that a spec can play (StrategyError if not), without loading it into this process
    when it plays in its own: then its bot's `hello` reply, else None. A strategy defined in
    the session cannot be isolated (`isolate` True)."""
    if isolate is True and spec.kind == "session":
        raise StrategyError(f"{spec.text!r} is defined in this Python session: it cannot play in "
                            "its own process (isolate); put it in a file and give its path")
    command = bot_command(spec, isolate)
    if command is None:
        load_strategy(spec)
        return None
    hello = check_bot(command, confinement)
    required = hello.get("required")
    check_required(spec, map(str, required) if isinstance(required, list) else ())
    if spec.parameters:  # sent with each game (Spec.without_parameters): checked here, once
        declared = hello.get("parameters")
        check_declared(spec, {str(name): str(kind) for name, kind in declared.items()}
                       if isinstance(declared, dict) else {})
    return hello


@functools.lru_cache(maxsize=64)
def check_bot(command: BotCommand, confinement: Confinement) -> dict:
    """Start the bot once and shake hands (StrategyError if it cannot); its `hello` reply."""
    if confinement.sandboxed:
        try:
            sandbox.require()
        except sandbox.SandboxError as exc:
            raise StrategyError(str(exc)) from None
    try:
        bot = BotProcess(command, confinement)
    except BotFault as exc:
        raise StrategyError(f"{command.spec.text!r}: {exc}") from None
    bot.close()
    return bot.hello


class BotProcess:
    """One running bot: started in its own session (process group), in the sandbox unless
    `confinement` says otherwise, with stdin/stdout pipes and stderr to the log, and greeted
    with `hello`. Raises BotFault if it cannot be."""

    def __init__(self, command: BotCommand, confinement: Confinement) -> None:
        self.command = command
        self.label = command.spec.label
        self._cgroups = sandbox.Cgroups()
        self._closed = False
        self._sandboxed = confinement.sandboxed
        argv, memory_mb, passed, env = command.argv, confinement.memory_mb, (), None
        renames: tuple[tuple[str, str], ...] = ()
        if confinement.sandboxed:
            try:
                wrapped = sandbox.wrap(argv, command.cwd, command.found, memory_mb,
                                       command.python_path)
            except sandbox.SandboxError as exc:
                raise BotFault(str(exc)) from None
            argv, passed, env, self._cgroups = (wrapped.argv, wrapped.fds, wrapped.env,
                                                wrapped.cgroups)
            renames = wrapped.renames
            memory_mb = 0  # set inside, by prlimit
        self._cpu = sandbox.CpuShare(self._cgroups.cpu_weight)
        _keep_to_home_cpu()
        try:
            self.process = subprocess.Popen(
                argv, cwd=command.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, bufsize=0, pass_fds=passed,
                env=env)
        except OSError as exc:
            self._cpu.close()
            sandbox.remove_cgroups(self._cgroups.groups)
            raise BotFault(f"cannot start {argv[0]}: {exc.strerror}") from None
        finally:
            for fd in passed:
                os.close(fd)
        if memory_mb and hasattr(resource, "prlimit"):
            limit = memory_mb << 20
            # If the process already exited, the handshake says so.
            with contextlib.suppress(OSError, ValueError):
                resource.prlimit(self.process.pid, resource.RLIMIT_AS, (limit, limit))
        self._pipes = Pipes(self.process.stdin.fileno(), self.process.stdout.fileno(), MAX_LINE)
        self.trace = protocol_trace(os.environ.get(TRACE))
        self.game = "start"  # the game it plays, as the trace names it
        self.compact = False  # `choose` in the compact encoding (the host asked for it)
        self.tables = 1  # games it plays at once (the host offered them)
        self.batch_cap = 1  # asks sent in the next round trip (domsim.seat.tables)
        self.most_at_once = 1  # asks a round trip may ever send
        self.thread = threading.get_ident()  # whose games may share its tables
        self.deals: set = set()  # the keys of every deal it has been given (BotPool.take)
        self.lane: object = None  # the lane whose games it is given, if any (BotPool.take)
        self.log = LogBudget(self.label)
        self._junk = 0  # bytes of this game that answered nothing
        self._last_junk: str | None = None  # what the last such line was
        self._stderr_tail: deque[str] = deque(maxlen=LAST_WORDS_LINES)
        self._stderr_fd = self.process.stderr.fileno()
        self._stderr = threading.Thread(
            target=log_stderr, args=(self.process.stderr, self.log, renames, self._stderr_tail),
            daemon=True)
        start_without_signals(self._stderr)
        try:
            with self._cpu.asked():  # its start is a wait for its hello: lowered once it came
                self.hello = self._shake_hands(renames)
        except BotFault as exc:
            self.close()  # its stderr read to the end
            raise type(exc)(f"{exc}{self._last_words()}") from None

    def _shake_hands(self, renames: tuple[tuple[str, str], ...]) -> dict:
        """Its `hello` reply, the first line it writes: any other line is refused at once."""
        # Traced, a bot is offered JSON alone: every line then passes through `tell` and
        # `_read_line`, none through the core's compact round trip.
        self.tell({"type": "hello", "protocol": PROTOCOL_VERSION, "domsim": __version__,
                   "encodings": ["json"] if self.trace else list(ENCODINGS)})
        line = self._read_line(time.monotonic() + STARTUP_SECONDS)
        if line is None:
            raise BotTimeout(f"printed nothing within {STARTUP_SECONDS:g} s (no hello)")
        try:
            hello = decode(line)
        except ProtocolError:
            hello = None
        if hello is None or hello["type"] not in ("hello", "error"):
            raise BotFault(f"its first line is not the protocol's hello (docs/seat-protocol.md): "
                           f"{_quoted(line.decode(errors='replace'))}")
        if hello["type"] == "error":
            raise BotFault(named_here(str(hello.get("message")), renames))
        if hello.get("protocol") != PROTOCOL_VERSION:
            raise BotFault(f"speaks protocol {hello.get('protocol')!r}, domsim speaks "
                           f"{PROTOCOL_VERSION} (docs/seat-protocol.md, Versions): update the bot")
        self.compact = hello.get("encoding") == "compact"
        tables = hello.get("tables", 1)
        if self.compact and type(tables) is int and 1 <= tables <= MAX_TABLES:
            self.tables = tables
            self.most_at_once = 1 if self.command in _asked_alone else tables
        return hello

    def _last_words(self) -> str:
        """The last lines of its stderr, for the error of a bot that failed to start."""
        return "; its stderr ended: " + " | ".join(map(_quoted, self._stderr_tail)) \
            if self._stderr_tail else ""

    def new_game(self, game: str, spec: Spec) -> None:
        """A game starts (`game`: its name in the trace; `spec`: its seat's, values included):
        the per-game budgets of logging and unanswered output start afresh. Its stderr is
        logged under the game's spec when it plays one game at a time; when several, a line may
        be any of theirs: once their values differ, under the spec without them."""
        self.game = game.replace(" ", "-") or self.game
        label = (spec.label if self.tables == 1 or spec.label == self.log.named
                 else self.command.spec.without_parameters().label)
        if label != self.log.named and self._stderr.is_alive():
            self.log.settle(self._stderr_fd)
        self.log.name(label)
        self.log.new_game()
        self._junk, self._last_junk = 0, None

    @property
    def alive(self) -> bool:
        return not self._closed and self.process.poll() is None

    @property
    def closed(self) -> bool:
        return self._closed

    def exchange(self, asks: list[Ask]) -> list[tuple[dict | int, float] | BotFault]:
        """What `answer` gives for each of `asks`, sent in one write and their replies read in
        order, each within its `wait` of the write; the in-time replies share the round trip's
        time equally (none more than the time to its own). How many the next round trip may
        ask follows `SLOW_SHARE`.

        Each ask gets its reply however late (its seat judges it), or a BotFault: when the bot
        dies, stops answering, floods or breaks the protocol, every ask not answered yet gets
        the fault, the bot is killed at once (no process of it outlives a game it was asked
        in), and this command's bots are asked one move at a time in this process from then
        on, where a fault costs one game."""
        waits = [ask.wait for ask in asks]
        if None in waits:
            watchdog.stop()  # no limit: a bot may think as long as it likes
        else:
            watchdog.allow(time.perf_counter(), max(waits) + GRACE_SECONDS)
        with self._cpu.asked():
            return self._round_trip(asks)

    def _round_trip(self, asks: list[Ask]) -> list[tuple[dict | int, float] | BotFault]:
        started = time.monotonic()
        read: list[tuple[dict | int, float]] = []
        try:
            for ask in asks:
                if type(ask.message) is State:
                    self._pipes.queue_state(ask.message, ask.request, ask.table)
                else:
                    self._pipes.queue(ask.message if type(ask.message) is bytes
                                      else encode(ask.message), ask.table)
            self._pipes.flush(STARTUP_SECONDS)
        except PIPE_ERRORS as exc:
            return self._gone_wrong(asks, read, self._fault(exc, STARTUP_SECONDS), started)
        try:
            while len(read) < len(asks):
                self._read_replies(asks, started, read)
        except BotFault as exc:
            return self._gone_wrong(asks, read, exc, started)
        return self._shared_times(asks, read)

    def _gone_wrong(self, asks: list[Ask], read: list, fault: BotFault, started: float) -> list:
        """`exchange`'s answers when the round trip went wrong after `read`: see there."""
        fault.seconds = time.monotonic() - started
        if len(asks) == 1:
            return [fault]
        self.close()
        _asked_alone.add(self.command)
        log.warning("%s: %s in a round trip of %d games' asks: killed; a fault in each of the %d "
                    "not answered, and this bot is asked one move at a time in this worker from "
                    "now on", self.label, fault, len(asks), len(asks) - len(read))
        return [*read, *(fault.again() for _ in asks[len(read):])]

    def _read_replies(self, asks: list[Ask], started: float, read: list) -> None:
        """Read on from the reply to `asks[len(read)]`: the compact replies that answer their
        asks in a row (Pipes.replies), then whatever line comes next, read as `ask` would."""
        rest, offset = asks[len(read):], time.monotonic() - started
        try:
            indices, times, line = self._pipes.replies(
                [NO_REQUEST if type(ask.message) is dict else ask.request for ask in rest],
                [None if ask.wait is None else ask.wait - offset for ask in rest])
        except PIPE_ERRORS as exc:
            raise self._fault(exc, STARTUP_SECONDS) from None
        read += [(index, offset + seconds) for index, seconds in zip(indices, times, strict=False)]
        if len(read) == len(asks):
            return
        ask = asks[len(read)]
        request = ask.message.get("id") if type(ask.message) is dict else ask.request
        reply = self._await(line, None if ask.wait is None else started + ask.wait, ask.wait,
                            ask.reply_type, request)
        read.append((reply, time.monotonic() - started))

    def _shared_times(self, asks: list[Ask], read: list) -> list[tuple[dict | int, float]]:
        """The answers of a round trip that went right, their times shared (`exchange`); the
        next round trip's size follows from this one's time (`SLOW_SHARE`)."""
        total = read[-1][1]
        bounds = [ask.wait if ask.limit is None else ask.limit for ask in asks]
        known = [bound for bound in bounds if bound is not None]  # a `game`: its wait
        allowed = SLOW_SHARE * min(known) if known else math.inf
        if total > allowed:
            self.batch_cap = max(1, len(asks) // 2)
        elif len(asks) == self.batch_cap and 2 * total <= allowed:
            self.batch_cap = min(self.most_at_once, 2 * len(asks))
        share = total / len(read)
        return [(reply, at if ask.limit is not None and at > ask.limit else min(share, at))
                for (reply, at), ask in zip(read, asks, strict=True)]

    def tell(self, message: dict | bytes, seconds: float = STARTUP_SECONDS) -> None:
        """Send one message, or its encoding (BotFault if the bot does not take it within
        `seconds`)."""
        line = message if type(message) is bytes else encode(message)
        if self.trace:
            self.trace.write(self.label, self.game, ">", line)
        try:
            self._pipes.send(line, seconds)
        except PIPE_ERRORS as exc:
            raise self._fault(exc, seconds) from None

    def ask(self, message: dict | bytes | State, seconds: float | None, reply_type: str,
            request: int = 0, table: int | None = None) -> dict | int:
        """Send `message` (or its encoding, for request `request`; or a state, as the compact
        `choose` of its seat to move's view, request `request`), for `table` of a bot of
        several, and return the bot's reply of `reply_type` (or `error`) to it, read within
        `seconds` (None: no limit): for a state, the bare index of its move when the bot names
        it so. BotFault if none comes, or if the bot dies."""
        deadline = None if seconds is None else time.monotonic() + seconds
        with self._cpu.asked():
            if type(message) is State:  # the hot path: the whole round trip in one call
                try:
                    line = self._pipes.ask_state(message, request, table, STARTUP_SECONDS,
                                                 seconds)
                except PIPE_ERRORS as exc:
                    raise self._fault(exc, STARTUP_SECONDS) from None
                if type(line) is int:
                    return line
            else:
                if type(message) is dict:
                    request = message.get("id")
                    message = encode(message)
                self.tell(message if table is None else b"T %d %s" % (table, message))
                line = self._read_line(deadline)
            return self._await(line, deadline, seconds, reply_type, request)

    def _await(self, line: bytes | tuple[int, int] | None, deadline: float | None,
               seconds: float | None, reply_type: str, request: int | None) -> dict:
        """The reply of `reply_type` (or `error`) to `request`, the first line read being
        `line`; lines that answer nothing are ignored."""
        while True:
            if line is None:
                raise BotTimeout(f"no {reply_type} within {seconds:g} s")
            reply = self._reply_in(line)
            if reply is not None:
                if reply["type"] in (reply_type, "error") and reply.get("id") == request:
                    return reply
                self._ignore(line, f"ignored a {reply['type']!r} message")
            line = self._read_line(deadline)

    def _reply_in(self, line: bytes | tuple[int, int]) -> dict | None:
        """The message a line holds (a compact reply comes as (ID, INDEX)); None, the line
        ignored, if it holds none."""
        if type(line) is tuple:
            return {"type": "move", "id": line[0], "index": line[1]}
        try:
            return decode(line)
        except ProtocolError as exc:
            self._ignore(line, f"ignored a line: {exc}")
            return None

    def _ignore(self, line: bytes | tuple[int, int], note: str) -> None:
        """A line that answers nothing: logged within the budget, and counted (BotFault once
        the game's allowance is spent, so a flood ends even with no time limit)."""
        self._junk += len(line if type(line) is bytes else b"m %d %d" % line) + 1
        if self._junk > MAX_JUNK_BYTES:
            raise BotFault(f"wrote over {MAX_JUNK_BYTES >> 20} MiB in a game that answered "
                           "nothing")
        self._last_junk = note
        self.log.write(note)

    def _read_line(self, deadline: float | None) -> bytes | tuple[int, int] | None:
        """The next line, or None once `deadline` passes, even while the bot keeps writing."""
        try:
            line = self._pipes.read_line(None if deadline is None
                                         else deadline - time.monotonic(), self.compact)
        except PIPE_ERRORS as exc:
            raise self._fault(exc, STARTUP_SECONDS) from None
        if self.trace and type(line) is bytes:
            self.trace.write(self.label, self.game, "<", line)
        return line

    def _fault(self, error: Exception, send_seconds: float) -> BotFault:
        """The bot's fault that a call of the Pipes raised `error` for."""
        if isinstance(error, TimeoutError):
            return BotFault(f"did not read its input for {send_seconds:g} s")
        if isinstance(error, (BrokenPipeError, EOFError)):
            return BotFault(self._ended())
        return BotFault(str(error))  # a line longer than MAX_LINE, or the OS's refusal

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if self._sandboxed and code > 128:  # bwrap exits 128 + N for a bot killed by signal N
            code = 128 - code
        ended = f"exited with status {code}" if code >= 0 else f"killed by signal {-code}"
        return f"{ended} after a line that answers nothing ({self._last_junk})" \
            if self._last_junk else ended

    def close(self) -> None:
        """Kill the bot with every process it started (its group, and the descendants that
        left the group with setsid), reap it, and log the rest of its stderr. Once only: its
        pid, reaped, may be another process's later."""
        if self._closed:
            return
        self._closed = True
        self._cpu.ending()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGSTOP)  # nothing in the group forks now
        for pid in [*stopped_tree(self.process.pid), self.process.pid]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._stderr.join(timeout=1)  # a child it forked may still hold the pipe: no longer
        self._pipes.close()
        self.process.stdin.close()
        self.process.stdout.close()
        self._cpu.close()
        sandbox.remove_cgroups(self._cgroups.groups)


def _quoted(text: str) -> str:
    """A bot's line quoted in a one-line error: printable, and cut."""
    cut = text if len(text) <= LAST_WORDS_CHARS else text[:LAST_WORDS_CHARS] + "..."
    return f"'{printable(cut.rstrip(), lines=False)}'"


class BotTimeout(BotFault):
    """No answer within the time allowed."""
