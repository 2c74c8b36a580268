"""`domsim tune --strategy`: SPSA's cost per game against a plain tourney's, and the headline tune.

1. CPU per game: a tune of hard's block and lock weights against hard (--games, no confirmation)
   and a plain tourney of hard against hard of as many games, each a fresh process timed with
   all its workers (getrusage of the children). Target: the tune's CPU per game within 10% of
   the tourney's (its rounds are sessions of their own; that is what the ratio prices).
2. The headline: the same tune with its confirmation duel (--confirm games of the tuned values
   against the defaults), printing what the command prints: the values, the spec and the duel's
   Elo with its 95% interval. Target: the interval's high end at or above 0.

    python bench/spsa.py [--games 20000] [--confirm 4000] [--seed 1] [--variant block]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path

from tourney import domsim, measured

TUNE = ["--strategy", "hard", "--param", "block=0:10", "--param", "lock=0:12", "--against",
        "hard"]


def tune(variant: str, games: int, confirm: int, seed: int, out: Path) -> list[str]:
    return [domsim(), "tune", "--variant", variant, *TUNE, "--games", str(games), "--confirm",
            str(confirm), "--seed", str(seed), "--silent", "--out", str(out)]


def cost(variant: str, games: int, seed: int, folder: Path) -> None:
    """Print the tune's and the tourney's CPU per game and their ratio."""
    print(f"load average {os.getloadavg()[0]:.2f}")
    wall, _, tuned = measured(tune(variant, games, 0, seed, folder / "cost"))
    played = json.loads((folder / "cost" / "spsa.json").read_text())["result"]["games"]
    print(f"tune {played} games: {wall:.1f} s wall, CPU {tuned:.1f} s "
          f"({tuned / played * 1000:.2f} ms/game)")
    wall, _, plain = measured([domsim(), "tourney", "--variant", variant, "-p", "hard", "-p",
                               "hard2=hard", "--games", str(played), "--seed", str(seed),
                               "--silent", "--out", str(folder / "tourney")])
    print(f"tourney {played} games: {wall:.1f} s wall, CPU {plain:.1f} s "
          f"({plain / played * 1000:.2f} ms/game)")
    print(f"CPU per game, tune / tourney: {tuned / plain:.3f} (target <= 1.10)")


def headline(variant: str, games: int, confirm: int, seed: int, folder: Path) -> None:
    """Run the tune with its confirmation and print what it prints."""
    done = subprocess.run(tune(variant, games, confirm, seed, folder / "headline"),
                          check=True, capture_output=True, text=True)
    print(done.stdout.rstrip())
    figures = json.loads((folder / "headline" / "spsa.json").read_text())["result"]
    high = figures["confirmation"]["elo_high"]  # None: open (the score clamp's)
    weaker = high is not None and high < 0
    print(f"confirmation's 95% high end {'+inf' if high is None else f'{high:+.1f}'} Elo: "
          f"{'significantly weaker' if weaker else 'not significantly weaker'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--confirm", type=int, default=4_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="block")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cost(args.variant, args.games, args.seed, Path(folder))
        headline(args.variant, args.games, args.confirm, args.seed, Path(folder))


if __name__ == "__main__":
    main()
