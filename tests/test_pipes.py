"""The pipes to a bot process (domsim._core.Pipes, used by domsim.seat.process): lines are
read whole and in order within a deadline, however the bot writes them, and every way a stream
can end is told apart."""

import contextlib
import os
import signal
import time

import pytest

from domsim._core import Pipes
from domsim.engine import State, start_next_hand
from domsim.rules import make_rules
from domsim.seeding import deal_rng
from domsim.view import ViewBuilder


@pytest.fixture
def ends():
    """(domsim's Pipes, the bot's end of its stdin to read, the bot's stdout to write)."""
    to_bot_read, to_bot = os.pipe()
    from_bot, from_bot_write = os.pipe()
    pipes = Pipes(to_bot, from_bot, 100)
    yield pipes, to_bot_read, from_bot_write
    pipes.close()
    for fd in (to_bot_read, to_bot, from_bot, from_bot_write):
        with contextlib.suppress(OSError):
            os.close(fd)


def test_lines_come_whole_and_in_order_however_they_are_written(ends):
    pipes, _, bot = ends
    os.write(bot, b"first\nsec")
    assert pipes.read_line(1, False) == b"first"
    assert pipes.read_line(0.05, False) is None  # half a line is not a line
    os.write(bot, b"ond\nm 3 1\nm 3\n")
    assert pipes.read_line(1, False) == b"second"
    assert pipes.read_line(1, True) == (3, 1)  # a compact reply, for a compact bot
    assert pipes.read_line(1, True) == b"m 3"  # not one: the line as it came


def test_a_compact_reply_is_a_line_for_a_json_bot(ends):
    pipes, _, bot = ends
    os.write(bot, b"m 3 1\n")
    assert pipes.read_line(1, False) == b"m 3 1"


def test_the_deadline_holds_while_the_bot_keeps_writing(ends):
    pipes, _, bot = ends
    os.write(bot, b"x" * 60)
    started = time.monotonic()
    assert pipes.read_line(0.2, False) is None
    assert time.monotonic() - started >= 0.2


def test_a_line_past_the_limit_is_refused(ends):
    pipes, _, bot = ends
    os.write(bot, b"y" * 101)
    with pytest.raises(ValueError, match="longer than 100 bytes"):
        pipes.read_line(1, False)


def test_an_ended_output_is_told_from_a_silent_one(ends):
    pipes, _, bot = ends
    os.write(bot, b"last\n")
    os.close(bot)
    assert pipes.read_line(1, False) == b"last"
    with pytest.raises(EOFError):
        pipes.read_line(1, False)


def test_a_signal_handler_interrupts_a_wait_without_limit(ends):
    pipes, _, _ = ends

    class Stopped(Exception):
        pass

    def stop(*_):
        raise Stopped

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 0.1)
    try:
        with pytest.raises(Stopped):
            pipes.read_line(None, False)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_sending_tells_a_full_input_from_a_closed_one(ends):
    pipes, bot_input, _ = ends
    with pytest.raises(TimeoutError):
        pipes.send(b"z" * (1 << 20), 0.1)  # nobody reads: the pipe fills
    os.close(bot_input)
    with pytest.raises(BrokenPipeError):
        pipes.send(b"z\n", 1)


def test_a_state_is_asked_as_its_movers_compact_view(ends):
    pipes, bot_input, bot = ends
    rules = make_rules("draw")
    state = State(rules)
    start_next_hand(state, deal_rng(4))
    view = ViewBuilder().view(state, state.advance())
    os.write(bot, b"m 8 0\nm 9 1\n")  # a stale reply, then this request's
    assert pipes.ask_state(state, 9, None, 1, 1) == (8, 0)  # not this request's: the pair
    assert pipes.read_line(1, True) == (9, 1)
    os.write(bot, b"m 10 1\n")
    assert pipes.ask_state(state, 10, 3, 1, 1) == 1  # this request's: its move index alone
    assert os.read(bot_input, 4096) == view.wire(9) + b"T 3 " + view.wire(10)


def test_asks_queued_go_in_one_write_each_line_for_its_table(ends):
    pipes, bot_input, _ = ends
    state = State(make_rules("block"))
    start_next_hand(state, deal_rng(2))
    view = ViewBuilder().view(state, state.advance())
    pipes.queue(b'{"type":"game"}\n', 0)
    pipes.queue_state(state, 5, 1)
    pipes.queue(b'{"type":"quit"}\n', None)
    os.set_blocking(bot_input, False)
    with pytest.raises(BlockingIOError):  # nothing is sent before the flush
        os.read(bot_input, 4096)
    pipes.flush(1)
    assert os.read(bot_input, 4096) == (b'T 0 {"type":"game"}\n' + b"T 1 " + view.wire(5)
                                        + b'{"type":"quit"}\n')


def test_replies_in_a_row_are_read_at_once_up_to_the_first_other_line(ends):
    pipes, _, bot = ends
    os.write(bot, b"m 4 2\nm 7 0\n{\"type\":\"ready\"}\nm 9 1\n")
    indices, times, line = pipes.replies([4, 7, (1 << 64) - 1, 9], [1, 1, 1, 1])
    assert indices == [2, 0] and line == b'{"type":"ready"}'
    assert len(times) == 3 and times == sorted(times) and 0 <= times[0] < 1
    assert pipes.replies([9], [1]) == ([1], pytest.approx([0], abs=0.5), None)
    os.write(bot, b"m 3 1\n")  # the reply to another request stops the row too
    assert pipes.replies([2], [1])[::2] == ([], b"m 3 1")


def test_replies_stop_when_an_asks_time_is_up(ends):
    pipes, _, bot = ends
    os.write(bot, b"m 1 0\n")
    started = time.monotonic()
    indices, times, line = pipes.replies([1, 2], [1, 0.2])
    assert (indices, len(times), line) == ([0], 1, None)  # the second never came
    assert 0.2 <= time.monotonic() - started < 1


def test_a_closed_pipes_touches_no_file(ends):
    pipes, _, bot = ends
    os.write(bot, b"never read\n")
    pipes.close()
    with pytest.raises(OSError):
        pipes.read_line(1, False)
    with pytest.raises(OSError):
        pipes.send(b"x\n", 1)
