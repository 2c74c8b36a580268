"""What reading and summing a run costs as it grows (issue 37): `domsim stats` on a 10,000-game and
a 100,000-game run (wall seconds and peak RSS of the process), and the tourney's parent process
(its own peak RSS, not a worker's) that played each. The targets: `stats` on 100,000 games within
3.5 s (or 2.5x the 10,000-game time) and 400 MB, the parent within 1.3x from 10,000 to 100,000.

    python bench/stats_cost.py [--folder DIR] [--games 10000 100000] [--workers 2]

Each figure is measured in a fresh Python process (`resource.getrusage(RUSAGE_SELF)`), the
stats time as the least of --rounds runs. Runs already in --folder are reused."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

TOURNEY = '''
import json, resource, sys
from domsim import api
api.tourney("block", ["easy", "medium"], games={games}, seed=1, workers={workers},
            out={out!r})
print(json.dumps({{"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
'''

STATS = '''
import json, resource, sys, time
started = time.perf_counter()
from domsim.analysis import run_statistics
from domsim.results.run import load_run
from pathlib import Path
run_statistics(load_run(Path({out!r})))
print(json.dumps({{"seconds": time.perf_counter() - started,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
'''


def measured(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp/domsim-stats-cost"))
    parser.add_argument("--games", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    figures = {}
    for games in args.games:
        out = args.folder / f"block-{games}"
        parent = None
        if not (out / "manifest.json").is_file():
            parent = measured(TOURNEY.format(games=games, workers=args.workers, out=str(out)))
        runs = [measured(STATS.format(out=str(out))) for _ in range(args.rounds)]
        figures[games] = {"seconds": min(run["seconds"] for run in runs),
                          "rss_mb": max(run["rss_mb"] for run in runs),
                          "parent_mb": parent and parent["rss_mb"]}
        parent_text = ("reused" if parent is None else f"{parent['rss_mb']:.0f} MB")
        print(f"{games:>7} games: stats {figures[games]['seconds']:.2f} s, "
              f"{figures[games]['rss_mb']:.0f} MB peak; the tourney's parent {parent_text}",
              flush=True)
    small, large = min(args.games), max(args.games)
    if small != large:
        ratio = figures[large]["seconds"] / figures[small]["seconds"]
        print(f"stats {large} / {small} games: {ratio:.2f}x the time, "
              f"{figures[large]['rss_mb'] / figures[small]['rss_mb']:.2f}x the memory")
        parents = figures[small]["parent_mb"], figures[large]["parent_mb"]
        if all(parents):
            print(f"the tourney's parent: {parents[1] / parents[0]:.2f}x its memory")


if __name__ == "__main__":
    main()
