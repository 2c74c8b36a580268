"""The bot processes of a worker: one started per command and handed from game to game, each
free table of one to a seat, never one that has met the game's deal."""

from __future__ import annotations

import threading
from collections.abc import Collection

from .command import BotCommand
from .process import DEFAULT_CONFINEMENT, BotProcess, Confinement


def deal_keys(seed: int, first_deal: object = None) -> frozenset:
    """What identifies the deals of a game: its seed (every hand is dealt from it), and its
    fixed first deal if it has one (a deals file may give one deal to several seeds)."""
    return frozenset({("seed", seed), *((("deal", first_deal),) if first_deal else ())})


class BotPool:
    """The bot processes of a game, a batch, or all of a worker's batches: `take` one for a
    seat (a free table of one, started if none is free), `give` it back after the game, `close`
    kills every one. The tables of one process are shared by the games of one thread only."""

    def __init__(self, confinement: Confinement = DEFAULT_CONFINEMENT) -> None:
        self.confinement = confinement
        self._free: dict[BotProcess, list[int | None]] = {}  # its tables no game plays
        self._all: list[BotProcess] = []
        self._lock = threading.Lock()  # a Dask worker's threads share their process's pool

    def take(self, command: BotCommand, deal: frozenset = frozenset(), lane: object = None
             ) -> tuple[BotProcess, int | None]:
        """A bot of `command` and the table its seat plays at (None: it plays one game): one
        never given a game of `deal` (the keys of the game's deals: `deal_keys`), so that no
        bot process meets a deal twice, in any pairing or seating (docs/seat-protocol.md).
        With a `lane` (of a batch's games: domsim.seat.tables), a process given that lane's
        games or none: a lane's games never share a deal, so its processes never wait for a
        deal-free table while another lane's hold them."""
        thread = threading.get_ident()
        with self._lock:
            for bot in self._all:
                free = self._free.get(bot)
                if (bot.command == command and bot.thread == thread and free and bot.alive
                        and bot.deals.isdisjoint(deal)
                        and (lane is None or bot.lane in (lane, None))):
                    bot.deals |= deal
                    bot.lane = bot.lane if lane is None else lane
                    return bot, free.pop(0)
        bot = BotProcess(command, self.confinement)
        bot.deals |= deal
        bot.lane = lane
        tables = [None] if bot.tables == 1 else list(range(bot.tables))
        with self._lock:
            self._all = [known for known in self._all if not known.closed] + [bot]
            self._free = {known: self._free[known] for known in self._all if known in self._free}
            self._free[bot] = tables[1:]
        return bot, tables[0]

    def pids(self) -> list[int]:
        """The process ids of the bots it holds, for reading their CPU time (bench/seat.py)."""
        with self._lock:
            return [bot.process.pid for bot in self._all if not bot.closed]

    def give(self, bot: BotProcess, table: int | None) -> None:
        if bot.alive:
            with self._lock:
                self._free.setdefault(bot, []).append(table)

    def keep_for_run(self, commands: Collection[BotCommand]) -> None:
        """Ready the pool for a new run (a study's worker starting one: domsim.runner.studypool):
        kill the bots of every command but `commands`, and free the others of their lanes, which
        were the last run's."""
        with self._lock:
            gone = [bot for bot in self._all if bot.command not in commands]
            self._all = [bot for bot in self._all if bot.command in commands]
            for bot in gone:
                self._free.pop(bot, None)
            for bot in self._all:
                bot.lane = None
        for bot in gone:
            bot.close()

    def close(self) -> None:
        with self._lock:
            bots, self._all = self._all, []
            self._free.clear()
        for bot in bots:
            bot.close()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
