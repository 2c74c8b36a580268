"""Every command the README and the docs' quick starts show runs as written (issue 49, item 1):
each is taken from the pages' shell blocks and run from the checkout, with the venv's `domsim`
first on PATH (the README's setup), made small (fewer games, its folders under a temporary one)
and otherwise unchanged. The files the pages ask their reader to write (`my_bot.py`, `mybot`)
are written first, from the pages' own code where they show it."""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
#: A fenced block of shell: its language, its text. `console` and `text` blocks hold commands
#: after a `$ ` prompt and their output below them; `sh` blocks hold commands alone.
FENCE = re.compile(r"^```(sh|bash|console|text)\n(.*?)^```", re.M | re.S)
#: What each command writes a folder for (its --out, else a default under results/).
WRITES_A_FOLDER = {"tourney", "run", "compare", "calibrate", "tune"}
#: Options naming a file or folder a command writes: moved under the test's folder.
WRITTEN = {"--out", "--record", "--html"}
#: The small counts a command's lines are rewritten to: (option, value) set where the line
#: gives the option, or added where its default plays long.
SMALL = {
    "tourney": [("--games", "24")],
    "run": [("--games", "24")],
    "compare": [("--games", "40")],
    "calibrate": [("--games", "1"), ("--max-games", "60")],
    "tune": [("--games", "200"), ("--steps", "2")],
    "tune --strategy": [("--games", "48"), ("--confirm", "0")],
}
#: A bot in another language, as the pages' `exec:./mybot` names it: the example speaker of the
#: seat protocol, executable.
EXTERNAL = ROOT / "strategies" / "example_external.py"


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    text: str

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.text, comments=True)

    @property
    def name(self) -> str:
        argv = self.argv
        return argv[1] + (" --strategy" if "--strategy" in argv else "")

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


def commands(page: Path) -> list[Command]:
    """The domsim commands of a page's shell blocks, in order: a line continued by `\\` joined,
    a prompt's `$ ` dropped; in an `&&` list the domsim part (the installs before it are the
    setup this test runs in)."""
    text = page.read_text(encoding="utf-8")
    found = []
    for block in FENCE.finditer(text):
        prompted = block[1] in ("console", "text")
        first = text.count("\n", 0, block.start(2)) + 1
        pending, start = "", 0
        for number, raw in enumerate(block[2].splitlines()):
            start = start if pending else number
            if raw.endswith("\\"):
                pending += raw[:-1]
                continue
            line, pending = pending + raw, ""
            if prompted and not line.startswith("$ "):
                continue
            for part in line.removeprefix("$ ").split("&&"):
                part = part.strip()
                if re.match(r"(\.venv/bin/)?domsim ", part):
                    found.append(Command(page.relative_to(ROOT).as_posix(), first + start,
                                         part))
    return found


ALL = [command for page in PAGES for command in commands(page)]


def in_default_suite(command: Command) -> bool:
    """The README's first command, every `exec:` line and every one-game `play`, a second or
    two each; the rest (tourneys, studies: 2 to 150 s each, made small) are the slow suite's."""
    return command == ALL[0] or "exec:" in command.text or command.name == "play"


def small(command: Command, scratch: Path, number: int) -> list[str]:
    """The command's argv, its counts made small and what it writes moved under `scratch`:
    `results/...` where the page names it (so a later command finds it), else a folder of its
    own."""
    argv = command.argv
    settings = SMALL.get(command.name, [])
    for option, value in settings:
        if option in argv:
            argv[argv.index(option) + 1] = value
        else:
            argv += [option, value]
    own = scratch / str(number)
    for index, arg in enumerate(argv):
        if arg.startswith("results/"):
            argv[index] = str(scratch / arg)
        elif argv[index - 1] in WRITTEN:
            argv[index] = str(own / arg)
    if argv[1] in WRITES_A_FOLDER and "--out" not in argv:
        argv += ["--out", str(own / "out")]
    return argv


@pytest.fixture(scope="module")
def readers_files():
    """The files the pages ask their reader to write, in the checkout (where the reader stands)
    while the commands run: my_bot.py is the README's own MyBot, the bots in other languages
    (`./mybot`, `my bots/bot.py`) the example speaker of the seat protocol."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    my_bot = re.search(r"```python\n(.*?class MyBot\(Strategy\).*?)```", readme, re.S)
    external = EXTERNAL.read_text(encoding="utf-8")
    files = {ROOT / "my_bot.py": my_bot[1] if my_bot else "", ROOT / "mybot": external,
             ROOT / "my bots" / "bot.py": external}
    made = [path for path in (*files, ROOT / "my bots") if path.exists()]
    if made:
        pytest.fail(f"{made[0]} is in the checkout: move it, the pages' examples name it")
    try:
        for path, text in files.items():
            path.parent.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
        mybot = ROOT / "mybot"
        mybot.chmod(mybot.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)  # chmod +x
        yield
    finally:
        for path in files:
            path.unlink(missing_ok=True)
        if (ROOT / "my bots").is_dir():
            (ROOT / "my bots").rmdir()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("readme")


def test_the_pages_show_commands_and_every_exec_example_is_among_them():
    names = {command.name for command in ALL}
    assert {"tourney", "play", "compare", "calibrate", "tune --strategy"} <= names
    assert any("exec:" in command.text and command.page == "README.md" for command in ALL)


def test_the_rewrite_makes_a_line_small_and_writes_only_under_the_scratch_folder(tmp_path):
    line = Command("README.md", 1, "domsim tourney --variant block --games 10000 --out "
                   "results/mine   # all cores")
    assert small(line, tmp_path, 3) == ["domsim", "tourney", "--variant", "block", "--games",
                                        "24", "--out", str(tmp_path / "results/mine")]
    tune = Command("README.md", 2, "domsim tune --variant block --strategy hard --param "
                   "block=0:10")
    assert small(tune, tmp_path, 4)[-6:] == ["--games", "48", "--confirm", "0", "--out",
                                             str(tmp_path / "4" / "out")]


def marks(command: Command) -> list[pytest.MarkDecorator]:
    if "--backend" in command.argv:  # the cluster it names is the reader's own
        return [pytest.mark.skip(reason="needs a Dask cluster (tests/test_dask.py plays on one)")]
    return [] if in_default_suite(command) else [pytest.mark.slow]


@pytest.mark.parametrize("number,command", [
    pytest.param(number, command, id=str(command), marks=marks(command))
    for number, command in enumerate(ALL)])
def test_the_command_runs_as_written(number, command, readers_files, scratch):
    argv = small(command, scratch, number)
    (scratch / str(number)).mkdir()  # where a file it writes goes (--html FILE)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"{command}\n{shlex.join(argv)}\n{done.stdout}{done.stderr}"
