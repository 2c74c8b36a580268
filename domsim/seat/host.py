"""`python -m domsim.seat.host SPEC`: a Python strategy behind the seat protocol, in its own
process (`--isolate`). It answers domsim's messages on stdout and nothing else: whatever the
strategy prints goes to stderr, which domsim writes to the run's log.

The strategy is built afresh for every game with the generator an in-process seat would get
(seeded with the `game` message's seat seed), so an isolated game plays as it would in process,
and with the `game` message's `parameters` where it has some: one host plays every value of a
spec's parameters (a tune's nudges among them), so domsim starts it once for them all.
Offered the compact encoding by the same domsim version, the host takes it: views then cost
about a microsecond each way instead of tens, and it plays up to `TABLES` games at once, each
line for one of them prefixed `T TABLE ` (docs/seat-protocol.md, "Tables"): domsim then asks
for a move in each of them in one round trip. It answers every line a read brings before it
writes, in one write: a round trip of several requests costs the two processes one hand-over
each way."""

from __future__ import annotations

import os
import random
import sys

from .._core import WireViews
from ..rules import Rules, private_copy
from ..spec import Spec
from ..strategy import (
    Strategy,
    StrategyError,
    StrategyFactory,
    declared_parameters,
    load_strategy,
    one_line,
    required_parameters,
    short_repr,
)
from ..version import __version__
from ..view import Move
from .protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    ViewDecoder,
    compact_reply,
    decode,
    encode,
    move_message,
    rules_from,
)

#: Games one host plays at once, when it speaks the compact encoding: as many as domsim takes
#: (seat.process.MAX_TABLES). Each holds its strategy: 64 of a bot that builds a 20 MB table
#: an instance fill 1.3 GB of its `--seat-memory`.
TABLES = 64
#: Bytes asked of the kernel by one read of the requests.
CHUNK = 1 << 16


class Host:
    """The strategy a spec names, driven by protocol messages: `answer(message)` returns the
    reply (None for a message that needs none)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.factory: StrategyFactory | None = None
        self.strategy: Strategy | None = None
        self.rules: Rules | None = None  # the game's, as the `game` message gave them
        self._rules_message: dict | None = None  # and the message they were read from
        self.own_rules: Rules | None = None  # the strategy's copy, which it may change
        self.views = ViewDecoder()
        self.compact = False  # views come as compact lines (crate::wire)
        self.wire_views: WireViews | None = None

    def table(self) -> Host:
        """A host for another table of this process: the same strategy class and encoding,
        its own game."""
        other = Host(self.spec)
        other.factory, other.compact = self.factory, self.compact
        other.rules, other._rules_message = self.rules, self._rules_message
        return other

    def answer(self, message: dict) -> dict | None:
        handler = getattr(self, f"_on_{message['type']}", None)
        if handler is None:
            return None
        try:
            return handler(message)
        except BaseException as exc:  # the strategy's fault, whatever it raised
            return self._raised(message.get("id"), exc)

    def _raised(self, request: int | None, exc: BaseException) -> dict:
        """The `error` reply to a strategy that raised; its traceback goes to stderr (the run's
        log), so that its author sees the file and line."""
        import traceback  # here: a host whose strategy never raises does without it

        self.strategy = None
        traceback.print_exception(exc, file=sys.stderr)
        return {"type": "error", "id": request, "message": one_line(exc), "raised": True}

    def _on_hello(self, message: dict) -> dict:
        try:
            self.factory = load_strategy(self.spec, values_per_game=True)
        except StrategyError as exc:
            return {"type": "error", "message": str(exc)}
        required = required_parameters(self.factory.cls)
        self.compact = ("compact" in message.get("encodings", ())
                        and message.get("domsim") == __version__)
        return {"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.spec.text,
                "origin": self.factory.origin, "class": self.factory.cls.__qualname__,
                "parameters": declared_parameters(self.factory.cls),
                **({"required": list(required)} if required else {}),
                "encoding": "compact" if self.compact else "json",
                **({"tables": TABLES} if self.compact else {})}

    def _on_game(self, message: dict) -> dict:
        self.strategy = None
        if message["rules"] != self._rules_message:  # the games of a run share theirs
            self.rules, self._rules_message = rules_from(message["rules"]), message["rules"]
        self.own_rules = private_copy(self.rules)  # as in process (domsim.seat.seats.Seat)
        if self.compact:
            self.wire_views = WireViews(self.rules, self.own_rules)
        else:
            self.views = ViewDecoder()
        parameters = message.get("parameters")
        factory = load_strategy(self.spec.with_parameters(parameters)) if parameters \
            else self.factory
        strategy = factory(random.Random(message["seat_seed"]))
        strategy.start_game(message["seat"], self.own_rules)
        self.strategy = strategy
        return {"type": "ready"}

    def _on_choose(self, message: dict) -> dict:
        view = self.views.view(message, self.rules).with_rules(self.own_rules)
        choice = self.strategy.choose(view)
        reply = move_message(message["id"], choice)
        return reply if _is_legal(choice, view.legal_moves) else _returned(reply, choice)

    def compact_choice(self, line: bytes) -> bytes:
        """The reply to a compact `choose` line: `m ID INDEX` for a legal move, else the JSON
        `move` (or `error`) that says what the strategy did."""
        try:
            request, view = self.wire_views.view(line)
        except (ValueError, AttributeError) as exc:  # AttributeError: no game started
            return encode({"type": "error", "message": f"a view that cannot be read: {exc}"})
        try:
            choice = self.strategy.choose(view)
        except BaseException as exc:  # the strategy's fault, whatever it raised
            return encode(self._raised(request, exc))
        index = view.index_of(choice)
        return (compact_reply(request, index) if index is not None
                else encode(_returned(move_message(request, choice), choice)))

    def _on_game_over(self, message: dict) -> dict:
        if self.strategy is not None:
            self.strategy.end_game(tuple(message["scores"]), tuple(message["winners"]))
        return {"type": "done"}


def _is_legal(choice: object, legal_moves: tuple) -> bool:
    try:
        return type(choice) in (Move, tuple) and choice in legal_moves
    except Exception:  # a strange object's comparison: no legal move
        return False


def _returned(reply: dict, choice: object) -> dict:
    """A `move` reply naming no legal move, with what the strategy returned (`returned`), so
    that its fault says so in the strategy's terms."""
    return {**reply, "returned": short_repr(choice)}


def serve(host: Host, requests: int, replies: int) -> None:
    """Answer every message read from the descriptor `requests` on `replies`, until `quit` or
    the end of input; the lines of one read are answered in one write."""
    tables: dict[int, Host] = {}
    pending = b""
    while chunk := os.read(requests, CHUNK):
        *lines, pending = (pending + chunk).split(b"\n")
        answers, answer = [], None
        for line in lines:
            table, line = _table_of(line)
            if table is not None:
                if table not in tables:
                    tables[table] = host.table()
                answer = _reply(tables[table], line)
            else:
                answer = _reply(host, line)
            if answer is QUIT:
                break
            if answer:
                answers.append(answer)
        _write_all(replies, b"".join(answers))
        if answer is QUIT:
            return


QUIT = object()  # what `_reply` returns for `quit`


def _table_of(line: bytes) -> tuple[int | None, bytes]:
    """The table a line is for (None: the process, or a host of one table) and the message."""
    if line[:2] != b"T ":
        return None, line
    number, _, message = line[2:].partition(b" ")
    try:
        return int(number), message
    except ValueError:
        return None, line


def _reply(host: Host, line: bytes) -> bytes | object | None:
    """The encoded reply to one line, QUIT, or None (a line that needs none)."""
    if line[:2] == b"c ":
        return host.compact_choice(line)
    try:
        message = decode(line)
    except ProtocolError as exc:
        print(f"seat host: {exc}", file=sys.stderr)
        return None
    if message["type"] == "quit":
        return QUIT
    reply = host.answer(message)
    return None if reply is None else encode(reply)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.exit("usage: python -m domsim.seat.host SPEC")
    # The protocol keeps the real stdout; the strategy's prints go to stderr.
    replies = os.dup(sys.stdout.fileno())
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(Host(Spec.of(args[0])), sys.stdin.fileno(), replies)


if __name__ == "__main__":
    main()
