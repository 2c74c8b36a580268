"""`domsim tune --strategy FILE`: the CPU of an SPSA tune of a bot file against that of a tourney
of as many games of it (issue 49, item 3), every process counted: domsim's, its workers' and the
bots'. Each command runs in a CPU-accounting cgroup of its own (bench/seat_tourney.py's run_cpu):
getrusage of the children misses the sandboxed bots, whose processes are killed and reaped
outside domsim's tree (a bot burning 5 ms a move: 1.8 s by getrusage, 37 s in process).
The bot is a strategy file with
two numeric parameters, tuned against medium as the issue's example tunes `mybots/my_bot.py`;
in its own process in the sandbox unless `--in-process`; with `--exec`, the example speaker of the
seat protocol (strategies/example_external.py, its one parameter `doubles`) instead. Target: the
tune's CPU within 1.5x the tourney's, median of `--repeats` runs each, interleaved.

    python bench/tune_file_cost.py [--games 1200] [--repeats 3] [--variant block] [--in-process]
                                   [--exec]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

from seat_tourney import run_cpu
from tourney import domsim

BOT = '''
from domsim.strategy import Strategy


class MyBot(Strategy):
    description = "heaviest tile first, doubles and the numbers kept in hand weighed"

    def __init__(self, *, variety: float = 1.0, doubles: float = 1.0) -> None:
        self.variety, self.doubles = variety, doubles

    def choose(self, view):
        def worth(move):
            left = [tile for tile in view.hand if tile != move.tile]
            kept = len({n for tile in left for n in (tile.a, tile.b)})
            return (move.tile.pips + self.doubles * move.tile.is_double + self.variety * kept,
                    self.rng.random())
        return max(view.legal_moves, key=worth)
'''
PARAMS = ["--param", "variety=0:5", "--param", "doubles=0:4"]
EXTERNAL = "exec:python3 " + str(Path(__file__).resolve().parent.parent / "strategies"
                                 / "example_external.py")
EXTERNAL_PARAMS = ["--param", "doubles=0:8"]


def tune(bot: str, variant: str, games: int, out: Path, in_process: bool) -> list[str]:
    params = EXTERNAL_PARAMS if bot == EXTERNAL else PARAMS
    return [domsim(), "tune", "--variant", variant, "--strategy", bot, *params,
            "--against", "medium", "--games", str(games), "--confirm", "0", "--seed", "1",
            "--silent", "--out", str(out), *(["--in-process"] if in_process else [])]


def tourney(bot: str, variant: str, games: int, out: Path, in_process: bool) -> list[str]:
    return [domsim(), "tourney", "--variant", variant, "-p", bot, "-p", "medium",
            "--games", str(games), "--seed", "1", "--silent", "--out", str(out),
            *(["--in-process"] if in_process else [])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--variant", default="block")
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--exec", action="store_true", help="the example exec: bot")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.games} games of "
          f"{'an exec: bot' if args.exec else 'a bot file'} against medium, "
          f"{'in process' if args.in_process else 'in its own process, sandboxed'}")
    tuned, plain = [], []
    with tempfile.TemporaryDirectory() as folder:
        bot = Path(folder) / "my_bot.py"
        bot.write_text(BOT)
        bot = EXTERNAL if args.exec else str(bot)
        for number in range(args.repeats):
            out = Path(folder) / f"tune-{number}"
            cpu, wall = run_cpu(tune(bot, args.variant, args.games, out, args.in_process))
            games = json.loads((out / "spsa.json").read_text())["result"]["games"]
            tuned.append(cpu)
            print(f"tune    {games} games: {wall:6.1f} s wall, CPU {cpu:6.1f} s", flush=True)
            cpu, wall = run_cpu(tourney(bot, args.variant, games,
                                            Path(folder) / f"tourney-{number}", args.in_process))
            plain.append(cpu)
            print(f"tourney {games} games: {wall:6.1f} s wall, CPU {cpu:6.1f} s", flush=True)
    tune_cpu, tourney_cpu = statistics.median(tuned), statistics.median(plain)
    print(f"median CPU: tune {tune_cpu:.1f} s, tourney {tourney_cpu:.1f} s; tune / tourney "
          f"{tune_cpu / tourney_cpu:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
