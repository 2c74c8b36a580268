"""What insane's search costs a game, per variant, against another build of domsim.

    python bench/search_cost.py --baseline-python PATH [--games 40] [--rounds 3] [--variant V ...]

PATH is the Python of another checkout's venv, for example 541f5f4's, whose `insane` decides as
this build's `insane?preset=v0.2`:

    git worktree add /tmp/base 541f5f4 && python3 -m venv /tmp/base/.venv \\
        && /tmp/base/.venv/bin/pip install -e /tmp/base

The same games (fixed game seeds, insane in the even seats against hard) are played by three
searches, each in its own process:

- baseline: `--baseline-spec` (default `insane`) under PATH;
- v0.2: `insane?preset=v0.2` under this build: the baseline's choices, so the very same games and
  decisions (the bench checks that both made the same moves), and the ratio is what this build's
  core saves alone;
- lean: `insane` under this build, which chooses its own moves, so its games are others.

Per variant it prints each one's search CPU ms a game (the deciding thread's CPU time of insane's
decisions, summed; the least of --rounds runs made in interleaved rounds, which a busy machine
inflates least) and the ratios to the baseline, then the median and p99 CPU ms of the baseline's
and lean's decisions with more than one legal move (of those runs). The issue's target for lean
is <= 0.5.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time

BASE_SEED = 20261204
#: Games of 4-player variants cost several times a 2-player one's: fewer of them by default.
FOUR_PLAYER_SHARE = 0.5


def measure(variant: str, spec: str, games: int) -> dict:
    """Under whichever build runs this: insane's search CPU over `games` games and a digest of
    the moves it chose. Only calls that every domsim since 0.2 has."""
    from domsim.strategies.insane import Insane

    from domsim.game import play_game
    from domsim.rules import make_rules
    from domsim.seeding import game_seed

    cpu, moves, times = [0.0], [], []
    choose = Insane.choose

    def timed_choose(self, view):
        start = time.thread_time()
        move = choose(self, view)
        spent = time.thread_time() - start
        cpu[0] += spent
        if len(view.legal_moves) > 1:
            times.append(spent)
        moves.append(f"{move.tile.id}:{move.end}")
        return move

    Insane.choose = timed_choose
    rules = make_rules(variant, None)
    for index in range(games):
        specs = [spec if seat % 2 == 0 else "hard" for seat in range(rules.players)]
        play_game(rules, specs, game_seed(BASE_SEED, index), move_time_limit=None)
    digest = hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16]
    return {"cpu": cpu[0], "decisions": len(moves), "digest": digest, "times": times}


def run(python: str, variant: str, spec: str, games: int) -> dict:
    """`measure` in a fresh process of `python` (this file's, or the baseline's)."""
    done = subprocess.run([python, __file__, "--measure", variant, spec, str(games)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{python} could not measure {spec} in {variant}: "
                 f"{done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline-python", help="the Python of the other build's venv")
    parser.add_argument("--baseline-spec", default="insane")
    parser.add_argument("--games", type=int, default=40, help="games a 2-player variant")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", action="append", help="default: every variant")
    parser.add_argument("--measure", nargs=3, metavar=("VARIANT", "SPEC", "GAMES"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        variant, spec, games = args.measure
        print(json.dumps(measure(variant, spec, int(games))))
        return
    if not args.baseline_python:
        parser.error("--baseline-python PATH is required (see the docstring)")
    from strength import median_and_top  # bench/strength.py

    from domsim.rules import VARIANTS, make_rules

    searches = {"baseline": (args.baseline_python, args.baseline_spec),
                "v0.2": (sys.executable, "insane?preset=v0.2"),
                "lean": (sys.executable, "insane")}
    print(f"{'variant':16} {'games':>5}  baseline ms   v0.2 ms  ratio   lean ms  ratio  same moves"
          "  p50 ms base/lean  p99 ms base/lean")
    ratios = []
    for variant in args.variant or list(VARIANTS):
        four = make_rules(variant, None).players == 4
        games = max(1, round(args.games * (FOUR_PLAYER_SHARE if four else 1)))
        best: dict[str, dict] = {}
        for _ in range(args.rounds):
            for name, (python, spec) in searches.items():
                figures = run(python, variant, spec, games)
                if name not in best or figures["cpu"] < best[name]["cpu"]:
                    best[name] = figures
        ms = {name: 1000 * figures["cpu"] / games for name, figures in best.items()}
        same = best["baseline"]["digest"] == best["v0.2"]["digest"]
        ratios.append(ms["lean"] / ms["baseline"])
        (base_p50, base_p99), (lean_p50, lean_p99) = (
            median_and_top(best[name]["times"], 0.99) for name in ("baseline", "lean"))
        print(f"{variant:16} {games:5}  {ms['baseline']:11.1f} {ms['v0.2']:9.1f} "
              f"{ms['v0.2'] / ms['baseline']:6.2f} {ms['lean']:9.1f} {ratios[-1]:6.2f}  "
              f"{'yes' if same else 'NO':>10}  {base_p50:8.2f} / {lean_p50:5.2f}  "
              f"{base_p99:8.2f} / {lean_p99:5.2f}")
    print(f"lean / baseline: {min(ratios):.2f} to {max(ratios):.2f} over the variants")


if __name__ == "__main__":
    main()
