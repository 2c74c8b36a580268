"""Several games played at once in one thread, so that a bot process playing several of them
(docs/seat-protocol.md, "Tables") is asked for all of them in one round trip.

Each game runs in a greenlet until one of its bots must answer (`ask`), and the next game runs.
When every game waits, the bot processes are swept in a fixed order: each is sent everything
asked of it in one write and reads its replies in order (`BotProcess.exchange`), and the games
it answered play on at once, so that what they ask next of a process later in the order is
answered in the same sweep: a game of two processes makes two moves a sweep, not one, and each
round trip carries about twice the asks. Games share nothing else: each plays exactly as it
would alone. A bot process lost to a fault (it died, stopped answering, flooded or broke the
protocol) is the fault of every game it was playing: each asked in the round trip gets the
fault, and so does each later ask of the killed process. No game is played again for anything
a bot did."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from greenlet import GreenletExit, getcurrent, greenlet

from .process import BotFault

if TYPE_CHECKING:
    from .process import Ask, BotProcess

T = TypeVar("T")

#: Games a worker plays at once (`play_at_once`) when not every bot in its own process is
#: domsim's host (runner.worker.games_at_once): an `exec:` program may take one a process.
GAMES_AT_ONCE = 32


class Hub:
    """The games of one `play_at_once`, and what each of them waits for."""

    def __init__(self) -> None:
        self.greenlet = getcurrent()
        self.waiting: dict[BotProcess, list[tuple[greenlet, Ask]]] = {}
        self.order: dict[BotProcess, int] = {}  # each bot's place in a sweep, first seen first

    def ask(self, bot: BotProcess, ask: Ask) -> tuple[Any, float]:
        """From a game: wait for `bot`'s answer to `ask` while the other games play on."""
        waiting = self.waiting.get(bot)
        if waiting is None:
            waiting = self.waiting[bot] = []
            self.order.setdefault(bot, len(self.order))
        waiting.append((getcurrent(), ask))
        return self.greenlet.switch()

    def next_bot(self, swept: set[BotProcess]) -> BotProcess | None:
        """The waiting bot first in the order that this sweep has not asked yet."""
        order = self.order
        return min((bot for bot in self.waiting if bot not in swept), key=order.__getitem__,
                   default=None)


_local = threading.local()  # the hub of this thread's play_at_once (Dask workers have several)


def current_hub() -> Hub | None:
    """The hub of the games this call is made from (None: a game played alone)."""
    hub = getattr(_local, "hub", None)
    return hub if hub is not None and getcurrent() is not hub.greenlet else None


def answer(bot: BotProcess, ask: Ask) -> tuple[dict | int, float]:
    """`bot`'s reply to `ask` (as `BotProcess.ask` gives it) and the seconds it took. Asked from
    one of several games played at once, in one round trip with what they ask of it too;
    BotFault (also when another of its games' fault lost the process)."""
    hub = current_hub() if bot.tables > 1 else None
    if hub is not None:
        return hub.ask(bot, ask)
    started = time.perf_counter()
    reply = bot.ask(ask.message, ask.wait, ask.reply_type, ask.request, ask.table)
    return reply, time.perf_counter() - started


def play_at_once(games: Sequence[Callable[[], T]], at_once: int,
                 lanes: Sequence[Hashable] | None = None) -> list[T]:
    """Every game's result, in order, played `at_once` at a time (1: one after the other). With
    `lanes` (each game's), `at_once` a lane, and a game that ends makes way for the next of its
    lane: its bots' tables go to a game of the same seats (BotPool.take), and the tables stay
    filled until a lane runs out of games. An exception of a game ends the others (their seats
    closed) and is raised."""
    if at_once <= 1 or len(games) <= 1 or getattr(_local, "hub", None) is not None:
        return [game() for game in games]
    hub, results = Hub(), [None] * len(games)
    ready: deque[tuple[greenlet, Any, BaseException | None]] = deque()
    playing: dict[greenlet, Hashable] = {}  # each game playing, and its lane
    queues: dict[Hashable, deque[int]] = {}  # each lane's games to play, in order
    for index in range(len(games)):
        queues.setdefault(None if lanes is None else lanes[index], deque()).append(index)

    def start_next(lane: Hashable) -> None:
        queue = queues[lane]
        if queue:
            index = queue.popleft()
            game = greenlet(lambda *_: _play_into(results, index, games[index]))
            playing[game] = lane
            ready.append((game, None, None))

    def play_ready() -> None:
        """Each ready game plays on to its next ask (or its end: the next game starts)."""
        while ready:
            game, value, error = ready.popleft()
            if error is None:
                game.switch(value)
            else:
                game.throw(error)
            if game.dead:
                start_next(playing.pop(game))

    _local.hub = hub
    try:
        for lane in queues:
            for _ in range(at_once):
                start_next(lane)
        play_ready()
        while hub.waiting:
            swept: set[BotProcess] = set()
            while (bot := hub.next_bot(swept)) is not None:
                swept.add(bot)
                _exchange(hub, bot, ready)
                play_ready()
    except BaseException:
        for game in list(playing):
            if not game.dead:
                game.throw(GreenletExit)  # its seats close, its bots go back to the pool
        raise
    finally:
        _local.hub = None
    return results


def _play_into(results: list, index: int, game: Callable[[], T]) -> None:
    results[index] = game()


def _exchange(hub: Hub, bot: BotProcess, ready: deque) -> None:
    """`bot` answers what it may be asked at once of what it waits for; its games are made
    ready."""
    waiting = hub.waiting.pop(bot)
    if bot.closed:  # lost to a fault of another of its games since these asked
        ready.extend((game, None, _lost()) for game, _ in waiting)
        return
    now, later = waiting[:bot.batch_cap], waiting[bot.batch_cap:]
    answers = bot.exchange([ask for _, ask in now])
    lost = False  # a fault: the bot is closed when its game goes on
    for (game, _), answer in zip(now, answers, strict=True):
        failed = isinstance(answer, BotFault)
        lost = lost or failed
        ready.append((game, None, answer) if failed else (game, answer, None))
    if lost:
        ready.extend((game, None, _lost()) for game, _ in later)
    elif later:
        hub.waiting[bot] = later


def _lost() -> BotFault:
    return BotFault("its process was killed for a fault in another of its games")
