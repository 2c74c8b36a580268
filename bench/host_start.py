"""What one start of a bot's process costs (issue 49): the CPU of starting `python -m
domsim.seat.host SPEC` in the sandbox, shaking hands (`hello`) and closing it, for a strategy
file and a built-in level named by module. Each count of starts runs in a CPU-accounting cgroup
of its own (bench/seat_tourney.py's run_cpu: the sandboxed bots are reaped outside domsim's
tree), and a run of no starts is taken off, so that what is left is the starts' own CPU, every
process of them counted; median of `--repeats`.

    python bench/host_start.py [--starts 20] [--repeats 3] [--no-sandbox]"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from seat_tourney import ROOT, run_cpu

SPECS = [str(ROOT / "strategies" / "example_greedy.py"), "domsim.strategies.medium:Medium"]


def start(spec: str, starts: int, sandboxed: bool) -> None:
    from domsim.seat.command import bot_command
    from domsim.seat.process import BotProcess, Confinement
    from domsim.spec import Spec

    command = bot_command(Spec.of(spec), True)
    for _ in range(starts):
        BotProcess(command, Confinement(sandboxed=sandboxed)).close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("SPEC", "STARTS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        start(args.child[0], int(args.child[1]), not args.no_sandbox)
        return
    flags = ["--no-sandbox"] if args.no_sandbox else []
    for spec in SPECS:
        def cpu(starts: int, spec: str = spec) -> float:
            return run_cpu(["nice", sys.executable, __file__, *flags, "--child", spec,
                            str(starts)])[0]

        per_start = statistics.median((cpu(args.starts) - cpu(0)) / args.starts
                                      for _ in range(args.repeats))
        print(f"{Path(spec).name:34} {per_start * 1000:6.1f} ms CPU a start")


if __name__ == "__main__":
    main()
