"""`python -m domsim.seat_host SPEC`: a Python strategy behind the seat protocol, in its own
process (`--isolate`). It answers domsim's messages on stdout and nothing else: whatever the
strategy prints goes to stderr, which domsim writes to the run's log.

The strategy is built afresh for every game from the `game` message's seed and seat, with the
generator an in-process seat would get, so an isolated game plays as it would in process."""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

from .protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    ViewDecoder,
    decode,
    encode,
    move_message,
    rules_from,
)
from .rules import Rules, private_copy
from .seeding import seat_rng
from .strategy import Strategy, StrategyError, StrategyFactory, load_strategy, one_line


class Host:
    """The strategy a spec names, driven by protocol messages: `answer(message)` returns the
    reply (None for a message that needs none)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.factory: StrategyFactory | None = None
        self.strategy: Strategy | None = None
        self.rules: Rules | None = None  # the game's, as the `game` message gave them
        self.own_rules: Rules | None = None  # the strategy's copy, which it may change
        self.views = ViewDecoder()

    def answer(self, message: dict) -> dict | None:
        handler = getattr(self, f"_on_{message['type']}", None)
        if handler is None:
            return None
        try:
            return handler(message)
        except BaseException as exc:  # the strategy's fault, whatever it raised
            self.strategy = None
            return {"type": "error", "id": message.get("id"), "message": one_line(exc)}

    def _on_hello(self, message: dict) -> dict:
        try:
            self.factory = load_strategy(self.spec)
        except StrategyError as exc:
            return {"type": "error", "message": str(exc)}
        return {"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.spec,
                "origin": self.factory.origin, "class": self.factory.cls.__qualname__}

    def _on_game(self, message: dict) -> dict:
        self.strategy = None
        self.rules = rules_from(message["rules"])
        self.own_rules = private_copy(self.rules)  # as in process (domsim.seat.Seat)
        self.views = ViewDecoder()
        strategy = self.factory(seat_rng(message["seed"], message["seat"]))
        strategy.start_game(message["seat"], self.own_rules)
        self.strategy = strategy
        return {"type": "ready"}

    def _on_choose(self, message: dict) -> dict:
        view = self.views.view(message, self.rules).with_rules(self.own_rules)
        choice = self.strategy.choose(view)
        return move_message(message["id"], choice)

    def _on_game_over(self, message: dict) -> dict:
        if self.strategy is not None:
            self.strategy.end_game(tuple(message["scores"]), tuple(message["winners"]))
        return {"type": "done"}


def serve(host: Host, requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer every message until `quit` or the end of input."""
    for line in requests:
        try:
            message = decode(line)
        except ProtocolError as exc:
            print(f"seat host: {exc}", file=sys.stderr)
            continue
        if message["type"] == "quit":
            return
        reply = host.answer(message)
        if reply is not None:
            replies.write(encode(reply))
            replies.flush()


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.exit("usage: python -m domsim.seat_host SPEC")
    # The protocol keeps the real stdout; the strategy's prints go to stderr.
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(Host(args[0]), sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
