"""Hostile on purpose: a strategy file that, at every choice, writes a line of 300,000 `[` to
the seat host's reply channel (fd 3 in `python -m domsim.seat.host`: the real stdout, kept
there) before it plays the first legal move."""

import os

from domsim.strategy import Strategy

REPLIES = 3


class Deep(Strategy):
    def choose(self, view):
        os.write(REPLIES, b"[" * 300_000 + b"\n")
        return view.legal_moves[0]
