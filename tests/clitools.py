"""Running the `domsim` command in-process for tests."""

from __future__ import annotations

import signal
import subprocess
import sys

from click.testing import CliRunner

from domsim.cli import main


def invoke(*args):
    """Run `domsim ARGS...`; exceptions that escape the CLI fail the test with their traceback."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def one_line_error(result, text):
    """The command failed with exit 1 and a single stderr line containing `text`."""
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], result.stderr


#: Runs `domsim ARGS` and kills the process outright (SIGKILL) at the CALLS-th batch it counts.
KILLED_AT = '''
import os
import signal
import sys

from domsim.cli import main
from domsim.runner import console

calls = []


def check(self, tally):
    calls.append(1)
    if len(calls) == {calls}:
        os.kill(os.getpid(), signal.SIGKILL)


console.FaultWatch.check = check
sys.argv = ["domsim", *{args!r}]
main()
'''


def killed_at(calls: int, *args: str) -> subprocess.CompletedProcess:
    """`domsim ARGS...` in a process of its own, killed with SIGKILL at its CALLS-th batch (as
    `kill -9` would: nothing of it runs after)."""
    script = KILLED_AT.format(calls=calls, args=list(args))
    killed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    return killed


def interrupted_at(monkeypatch, calls: int, *args: str):
    """`domsim ARGS...` in process, with Ctrl-C at its CALLS-th batch."""
    from domsim.runner import console

    seen = []

    def interrupt(self, tally):
        seen.append(1)
        if len(seen) == calls:
            raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(console.FaultWatch, "check", interrupt)
        return invoke(*args)
