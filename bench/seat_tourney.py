"""What isolation costs a tourney as users run it (issue 47), beside bench/seat.py's games: a
four-entrant round robin with duplicate deals (two strategy files and two built-in levels named
by module, so that every one plays in its own process, in the sandbox, and the processes the
schedule starts are counted) against the same four in domsim's process (`--in-process`); the
CPU of the whole run, every bot's included (the run and all it starts are held in a cgroup of
their own), median of `--repeats`, the two ways interleaved. Then the headline tourney
(`domsim tourney --variant block --games N`: the built-in levels, in process) with this
checkout's domsim and with `--against`'s.

    python bench/seat_tourney.py [--games 600 3000 10000] [--repeats 3]
                                 [--headline-games 10000] [--against /work/main/.venv/bin/domsim]

With several game counts it also prints what isolation costs a game once the bots' processes
are started (the difference between two counts), apart from what starting them costs.

Targets (issue 47): isolated <= 2.2x in process; the headline no slower than --against's."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMSIM = str(Path(sys.executable).with_name("domsim"))
ENTRANTS = [str(ROOT / "strategies" / "example_greedy.py"),
            str(ROOT / "strategies" / "example_counter.py"),
            "domsim.strategies.easy:Easy", "domsim.strategies.medium:Medium"]
CPUACCT = Path("/sys/fs/cgroup/cpuacct")  # cgroup v1; v2: the unified tree's cpu.stat
UNIFIED = Path("/sys/fs/cgroup")


def _group() -> tuple[Path, str] | None:
    """A fresh cgroup that counts CPU (its folder, the file to read), where this user may make
    one: the run and every process it starts stay in it (domsim's bots' cgroups are made in
    other controllers, or under it)."""
    name = f"domsim-bench-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    for parent, usage in ((CPUACCT, "cpuacct.usage"), (UNIFIED, "cpu.stat")):
        if (parent / usage).exists() and os.access(parent, os.W_OK):
            with contextlib.suppress(OSError):
                (parent / name).mkdir()
                return parent / name, usage
    return None


def _cpu_of(group: tuple[Path, str]) -> float:
    folder, usage = group
    text = (folder / usage).read_text()
    if usage == "cpuacct.usage":
        return int(text) / 1e9
    return int(dict(line.split() for line in text.splitlines())["usage_usec"]) / 1e6


def run_cpu(command: list[str]) -> tuple[float, float]:
    """(CPU seconds of the run and all it started, wall seconds)."""
    group = _group()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    join = None if group is None else \
        (lambda: (group[0] / "cgroup.procs").write_text(str(os.getpid())))
    try:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, preexec_fn=join)
        wall = time.perf_counter() - started
        if group is not None:
            return _cpu_of(group), wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # misses what no one reaped
        return (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime), wall
    finally:
        if group is not None:
            for _ in range(50):  # the last processes of the run may still be leaving
                with contextlib.suppress(OSError):
                    group[0].rmdir()
                    break
                time.sleep(0.1)


def tourney(domsim: str, out: Path, *args: str) -> list[str]:
    return ["nice", domsim, "tourney", "--variant", "block", "--silent", "--out", str(out),
            *args]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[600])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--headline-games", type=int, default=10000)
    parser.add_argument("--against", default="/work/main/.venv/bin/domsim")
    args = parser.parse_args()
    players = [arg for spec in ENTRANTS for arg in ("-p", spec)]
    ways = {"isolated, in the sandbox": (DOMSIM, "--isolate"),
            "in process": (DOMSIM, "--in-process"),
            "isolated, --against's": (args.against, "--isolate")}
    cpu: dict[tuple[str, int], list[float]] = {(way, g): [] for way in ways for g in args.games}
    headline: dict[str, list[tuple[float, float]]] = {DOMSIM: [], args.against: []}
    with tempfile.TemporaryDirectory() as scratch:
        for repeat in range(args.repeats):  # interleaved: a drift of the machine hits all
            for games in args.games:
                for way, (domsim, flag) in ways.items():
                    out = Path(scratch, f"{games}-{uuid.uuid4().hex[:6]}")
                    runs = cpu[way, games]
                    runs.append(run_cpu(tourney(domsim, out, *players, "--games", str(games),
                                                flag))[0])
                    print(f"  round {repeat + 1}: {games} games, {way}: CPU {runs[-1]:.2f} s",
                          flush=True)
            for domsim, runs in headline.items():
                if not args.headline_games:
                    break
                out = Path(scratch, f"headline-{len(runs)}-{uuid.uuid4().hex[:6]}")
                runs.append(run_cpu(tourney(domsim, out, "--games", str(args.headline_games))))
                print(f"  round {repeat + 1}: headline, {domsim}: CPU {runs[-1][0]:.2f} s, "
                      f"wall {runs[-1][1]:.2f} s", flush=True)
    median = {key: statistics.median(runs) for key, runs in cpu.items()}
    print("block, a round robin of 4 entrants (2 files, 2 levels by module) with duplicate "
          f"deals; CPU of the run, bots' included, median of {args.repeats}:")
    for games in args.games:
        in_process = median["in process", games]
        for way in ways:
            ratio = "" if way == "in process" else \
                f"{median[way, games] / in_process:5.2f}x in process (target <= 2.2x)"
            print(f"  {games:6d} games, {way:<26} {median[way, games]:8.2f} s  {ratio}")
    for fewer, more in itertools.pairwise(args.games):
        extra = median["in process", more] - median["in process", fewer]
        for way in ways:
            if way != "in process":
                print(f"  a game from {fewer} to {more}, {way:<26} "
                      f"{(median[way, more] - median[way, fewer]) / extra:5.2f}x in process")
    if args.headline_games:
        print(f"the headline tourney (block, {args.headline_games} games, built-in levels in "
              f"process), median of {args.repeats}:")
        for domsim, runs in headline.items():
            print(f"  {domsim:<40} CPU {statistics.median(c for c, _ in runs):7.2f} s, wall "
                  f"{statistics.median(w for _, w in runs):7.2f} s")


if __name__ == "__main__":
    main()
