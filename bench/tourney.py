"""`domsim tourney` throughput and memory: wall time, CPU time and games/s for block games of the
four built-in levels (the default entrants: the README's headline command) on 1 and 2 workers
with the speed-up, the parent's peak memory for a run and a run ten times longer (flat memory:
the two peaks should be close), and the wall and CPU time of `domsim calibrate --all` at its
default games. Targets: 10,000 games in <= 45 s wall on 2 workers of an idle machine and <= 95
CPU-s; calibrate --all in <= 110 CPU-s.

    python bench/tourney.py [--games 10000] [--long-games 100000] [--variant block]
                            [--no-calibrate]

Each run is a fresh process (so peak RSS is that run's alone) writing to a temporary folder. Its
CPU time is that of all its processes (getrusage of the children), printed with the load average
before it: on a busy machine the wall times mean little, the CPU times still compare.
`--long-games 0` skips the long run."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENTRANTS = ["-p", "easy", "-p", "medium", "-p", "hard", "-p", "insane"]


def measured(command: list[str]) -> tuple[float, float, float]:
    """Run `command` in a fresh process: (wall seconds, peak RSS in MiB of its largest process,
    CPU seconds of all its processes)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
             "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
             "usage = resource.getrusage(resource.RUSAGE_CHILDREN); "
             "print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime)")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", probe, *command], check=True,
                          capture_output=True, text=True)
    peak, cpu = done.stdout.split()[-2:]
    return time.perf_counter() - started, int(peak) / 1024, float(cpu)


def domsim() -> str:
    return str(Path(sys.executable).with_name("domsim"))


def run(variant: str, games: int, workers: int) -> tuple[float, float, float]:
    """(wall seconds, peak RSS in MiB, CPU seconds) of a tourney of the four levels."""
    with tempfile.TemporaryDirectory() as folder:
        return measured([domsim(), "tourney", "--variant", variant, "--games", str(games),
                         "--workers", str(workers), "--seed", "1", "--silent",
                         "--out", str(Path(folder) / "run"), *ENTRANTS])


def report(variant: str, games: int, workers: int) -> float:
    """Run once and print its figures; return the wall time."""
    load = os.getloadavg()[0]
    wall, peak, cpu = run(variant, games, workers)
    print(f"{variant} {games} games, {workers} worker(s): {wall:7.1f} s  "
          f"{games / wall:7.1f} games/s  CPU {cpu:7.1f} s ({cpu / games * 1000:5.2f} ms/game)  "
          f"peak RSS {peak:6.1f} MiB  (load before: {load:.1f})", flush=True)
    return wall


def calibrate_all() -> tuple[float, float]:
    """Wall and CPU seconds of `domsim calibrate --all` at its default games, into a temporary
    folder."""
    with tempfile.TemporaryDirectory() as folder:
        wall, _, cpu = measured([domsim(), "calibrate", "--all", "--seed", "1",
                                 "--out", str(Path(folder) / "calibration")])
        return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--long-games", type=int, default=100_000)
    parser.add_argument("--variant", default="block")
    parser.add_argument("--no-calibrate", action="store_true", help="skip calibrate --all")
    args = parser.parse_args()
    walls = {workers: report(args.variant, args.games, workers) for workers in (1, 2)}
    print(f"speed-up 1 -> 2 workers: {walls[1] / walls[2]:.2f}x")
    if args.long_games:
        report(args.variant, args.long_games, 2)
    if not args.no_calibrate:
        load = os.getloadavg()[0]
        wall, cpu = calibrate_all()
        print(f"calibrate --all (default games): {wall:.1f} s, CPU {cpu:.1f} s  (target <= 110 "
              f"CPU-s; load before: {load:.1f})")


if __name__ == "__main__":
    main()
