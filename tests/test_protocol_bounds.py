"""Nothing a bot sends stops the run (issue 36): every decoder of a bot's bytes, the JSON one
and the core's compact one, answers anything, however deep or odd, with a message or the
protocol's own error; a tourney with a bot that sends a line of 300,000 `[` plays every game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domsim._core import Pipes
from domsim.seat.process import PIPE_ERRORS
from domsim.seat.protocol import ProtocolError, decode, move_of
from domsim.tiles import TILES
from domsim.view import Move

ROOT = Path(__file__).resolve().parent.parent
DOMSIM = str(Path(sys.executable).with_name("domsim"))
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=30)
LEGAL = tuple(Move(tile, end) for tile in TILES[:5] for end in range(2))


def decoded(line: bytes) -> dict | None:
    try:
        message = decode(line)
    except ProtocolError:
        return None
    assert isinstance(message, dict)
    return message


@settings(deadline=None)  # a loaded CI machine: no time limit per example
@given(st.binary(max_size=2000))
def test_any_bytes_decode_to_a_message_or_the_protocol_error(line):
    decoded(line)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400_000), st.sampled_from([b"[", b'{"a":', b'{"type":"move","id":[']))
def test_any_nesting_decodes_to_a_message_or_the_protocol_error(depth, opening):
    decoded(opening * depth)
    decoded(b'{"type":"move","tile":' + opening * depth + b"}")


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["type", "id", "index", "tile", "end"]), JSON))
def test_any_move_reply_names_a_legal_move_or_none(message):
    assert move_of(message, LEGAL) in (None, *LEGAL)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=300), st.binary(max_size=40).map(b"m ".__add__),
                          st.from_regex(rb"m -?[0-9]{1,30} -?[0-9]{1,30}", fullmatch=True))
                .map(lambda b: b.replace(b"\n", b" ")), min_size=1, max_size=5))
def test_the_compact_decoder_reads_any_line_as_a_reply_or_bytes(lines):
    to_bot, _ = os.pipe()
    from_bot, bot_writes = os.pipe()
    try:
        pipes = Pipes(to_bot, from_bot, 1 << 20)
        os.write(bot_writes, b"".join(line + b"\n" for line in lines))
        for _ in lines:
            try:
                line = pipes.read_line(5.0, True)
            except PIPE_ERRORS:
                continue
            assert type(line) in (bytes, tuple, int)
    finally:
        for fd in (to_bot, from_bot, bot_writes):
            os.close(fd)


@pytest.mark.sandbox
@pytest.mark.parametrize("spec", [
    f"exec:{ROOT / 'tests' / 'hostile' / 'attacker.py'} deep",
    str(ROOT / "tests" / "hostile" / "deep_strategy.py"),
])
def test_a_bot_sending_deep_json_plays_every_game(tmp_path, spec):
    out = tmp_path / "run"
    command = [DOMSIM, "tourney", "--variant", "block", "-p", spec, "-p", "easy", "--games",
               "6", "--seed", "7", "-j", "1", "--silent", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert json.loads((out / "manifest.json").read_text())["games_completed"] == 6
    assert len(pq.read_table(out / "games.parquet")) == 6
