"""`domsim tourney` throughput and memory: wall time and games/s for block games of easy, medium
and hard on 1 and 2 workers with the speed-up, and the parent's peak memory for a run and a
run ten times longer (flat memory: the two peaks should be close).

    python bench/tourney.py [--games 10000] [--long-games 100000] [--variant block]

Each run is a fresh `domsim tourney` process (so peak RSS is that run's alone) writing to a
temporary folder."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENTRANTS = ["-p", "easy", "-p", "medium", "-p", "hard"]


def run(variant: str, games: int, workers: int) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB of the largest process: the parent or a worker)."""
    with tempfile.TemporaryDirectory() as folder:
        command = [str(Path(sys.executable).with_name("domsim")), "tourney", "--variant", variant,
                   "--games", str(games), "--workers", str(workers), "--seed", "1", "--silent",
                   "--out", str(Path(folder) / "run"), *ENTRANTS]
        probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
                 "stdout=subprocess.DEVNULL); "
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", probe, *command], check=True,
                              capture_output=True, text=True)
        return time.perf_counter() - started, int(done.stdout.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--long-games", type=int, default=100_000)
    parser.add_argument("--variant", default="block")
    args = parser.parse_args()
    walls = {}
    for workers in (1, 2):
        wall, peak = run(args.variant, args.games, workers)
        walls[workers] = wall
        print(f"{args.variant} {args.games} games, {workers} worker(s): {wall:7.1f} s  "
              f"{args.games / wall:7.1f} games/s  peak RSS {peak:6.1f} MiB", flush=True)
    print(f"speed-up 1 -> 2 workers: {walls[1] / walls[2]:.2f}x")
    wall, peak = run(args.variant, args.long_games, 2)
    print(f"{args.variant} {args.long_games} games, 2 workers: {wall:7.1f} s  "
          f"{args.long_games / wall:7.1f} games/s  peak RSS {peak:6.1f} MiB")


if __name__ == "__main__":
    main()
