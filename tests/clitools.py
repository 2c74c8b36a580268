"""Running the `domsim` command in-process for tests."""

from __future__ import annotations

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
