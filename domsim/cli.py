"""The `domsim` command line: parse, call the library, print. Library errors a user can cause
become one-line messages with a non-zero exit."""

from __future__ import annotations

import csv
import functools
import json
import logging
import math
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from . import api
from .analysis import run_statistics, statistics_lines
from .audit import replayed
from .clock import TimeControl, TimeControlError
from .deals import ORDERS, deal_line, run_deals, seed_deals
from .errors import DomsimError
from .game import STAND_IN, LoneSeeds
from .human import is_human
from .limits import BACKENDS, MAX_WORKERS, MOVE_TIME_LIMIT, SEAT_MEMORY_MB, SEAT_MEMORY_RANGE
from .pages.gamepage import write_page
from .plan.pairings import FORMATS
from .plan.scenario import load_scenario
from .printable import PrintableFormatter, printable
from .record import FAULT_POLICIES
from .results.atomic import strict_json
from .results.folder import OUTPUT_FORMATS, RECORDS, SUMMARY
from .results.run import load_run
from .results.summary import summary_table
from .rules import (
    HIGHEST_OPTION,
    OPTION_SPECS,
    VARIANTS,
    make_rules,
    parse_options,
)
from .runner.local import default_workers
from .runner.session import default_out, resume_hint
from .runner.tourney import RunFinished, check_config
from .seat.logs import BOTS_LOGGER
from .seat.process import Confinement, check_spec
from .seat.trace import traced
from .spec import Spec
from .stats import ELO_MODELS
from .strategy import strategy_catalog
from .studies import spsa
from .studies.calibrate import calibration_variants
from .studies.compare import COMPARE_LIMIT, DEFAULT_BOUNDS, check_bounds
from .studies.dialcurve import DEFAULT_SETTINGS
from .studies.steps import DEFAULT_MAX_GAMES
from .studies.steps import DEFAULT_TOLERANCE as DEFAULT_STEP_TOLERANCE
from .studies.tune import (
    DEFAULT_GAP_GAMES,
    DEFAULT_STEPS,
    DEFAULT_TOLERANCE,
)
from .transcript import transcript_lines
from .version import __version__


class Finite(click.FloatRange):
    """A finite number in the range (click's FloatRange lets nan through, and inf); `what` names
    it in the message."""

    def __init__(self, *args, what: str = "number", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.what = what
        if self.min is None and self.max is None:
            self.name = "float"  # the help shows FLOAT, not FLOAT RANGE

    def _describe_range(self) -> str:
        """No `[x<=None]` in the help of a number with no bounds."""
        return "" if self.min is None and self.max is None else super()._describe_range()

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite {self.what}", param, ctx)
        return number


def Seconds(zero: str = "no limit") -> Finite:  # noqa: N802 (a parameter type, as click's)
    """A number of seconds >= 0; `zero` says what 0 means."""
    return Finite(min=0, what=f"number of seconds (0: {zero})")


PROBABILITY = Finite(0, 1, min_open=True, max_open=True)


# Option bundles several commands share.
WORKERS_RANGE = click.IntRange(1, MAX_WORKERS)
WORKERS = click.option("--workers", "-j", type=WORKERS_RANGE, default=default_workers,
                       show_default="all cores",
                       help="Worker processes (with --backend dask: the cluster's threads).")
SILENT = click.option("--silent", is_flag=True, help="No progress bar and only errors on stderr.")
SEED = click.option("--seed", type=int, default=None, help="Run seed (default: random, printed).")
GAME_LINES = click.option(
    "--game-lines", is_flag=True,
    help="Print a line for each finished game, as cutechess does: `Finished game 12 (easy vs "
         "hard): hard wins {easy 55, hard 107, 5 hands}` (the id `show --game` takes); a "
         "forfeit says why, the scores then the board's.")
RUN_KEY = click.option(
    "--run-key", default=None, metavar="HEX",
    help="Rerun a run (or a game) with bots in their own process: the run_key of its manifest "
         "(or record) (default: a new secret key, so that no bot can work the deals out from "
         "the seed; none for built-in levels only).")
RULE_OPTIONS = click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                            help="Rule option, e.g. target=200.")
WRITE_RECORDS = click.option("--records", is_flag=True,
                             help="Also write every game record to records.jsonl.")
DEBUG = click.option(
    "--debug", is_flag=True,
    help="Write every line of the seat protocol, with the bot and the game, to protocol.log in "
         "the run folder (play: to stderr). Bots in their own process are then offered JSON "
         "only, so every line can be shown.")
TARGET = click.option("--target", type=click.IntRange(min=1), default=None,
                      help="Points to win a game.")
MOVE_LIMIT = click.option("--move-time-limit", type=Seconds(), default=MOVE_TIME_LIMIT,
                          show_default=True, metavar="SECONDS",
                          help="Per-move limit; a later move is made for the seat. 0: no limit.")
DEALS = click.option(
    "--deals", type=click.Path(exists=True, dir_okay=False), default=None, metavar="FILE",
    help="Play these first-hand deals (a records file, or `domsim deals`' output), every deal "
         "in every seating; without --games each once.")
DEALS_ORDER = click.option(
    "--deals-order", type=click.Choice(ORDERS), default="in-order", show_default=True,
    help="The deals in file order, or shuffled from the seed (each round afresh).")
BACKEND = click.option("--backend", type=click.Choice(BACKENDS), default="local",
                       show_default=True,
                       help="Where games are played: local processes or a Dask cluster.")
SCHEDULER = click.option("--scheduler", metavar="ADDRESS",
                         help="Dask scheduler address (--backend dask).")
ISOLATE = click.option(
    "--isolate/--in-process", default=None,
    help="Every strategy but the built-in levels plays in its own process, in the sandbox, "
         "by default (--isolate says so); --in-process plays yours in domsim's process: "
         "faster, for your own trusted bots only (a strategy there can read every hand).")
def _seat_memory(ctx, param, value: int) -> int:
    low, high = SEAT_MEMORY_RANGE
    if value != 0 and not low <= value <= high:
        raise click.BadParameter(f"{value} is not 0 (no limit) nor in the range {low} to {high} "
                                 "MiB")
    return value


SEAT_MEMORY = click.option(
    "--seat-memory", type=int, default=SEAT_MEMORY_MB, show_default=True, callback=_seat_memory,
    metavar="MIB", help="Memory limit of a bot's sandbox and of each of its processes "
    f"({SEAT_MEMORY_RANGE[0]} to {SEAT_MEMORY_RANGE[1]}). 0: no limit.")
SANDBOX = click.option(
    "--sandbox/--no-sandbox", default=None,
    help="Bots in their own process run in the sandbox (bubblewrap: no network, no other "
         "process, nothing but /tmp writable) [default]; --no-sandbox where it cannot start, "
         "with weaker isolation (the manifest says so).")

def on_fault_option(default: str, why: str):
    return click.option(
        "--on-fault", type=click.Choice(FAULT_POLICIES), default=default, show_default=True,
        help="What a seat's fault (a timeout, an error, an illegal move, a crash) costs: forfeit "
             "scores its side's game as lost (the record says why), substitute lets the "
             f"stand-in ({STAND_IN}) make the seat's moves and counts the game. {why}")


def renamed_option(old: str, new: str, kind: click.ParamType):
    """`old`, the name an option had before it was `new`: hidden, still taken, with a one-line
    note (its value is `old_<name>`; `renamed_value` takes it)."""
    def note(ctx: click.Context, param: click.Parameter, value: object) -> object:
        if value is not None:
            click.echo(f"domsim: {old} is now {new}; the old name will go", err=True)
        return value
    return click.option(old, f"old_{old.lstrip('-').replace('-', '_')}", type=kind,
                        default=None, hidden=True, callback=note)


def renamed_value(ctx: click.Context, name: str, old_value: object) -> object:
    """The value of option `name`, given under its new name or its old one (not both)."""
    if old_value is None:
        return ctx.params[name]
    if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT:
        raise click.ClickException(f"{_flag(ctx, f'old_{name}')} is {_flag(ctx, name)}'s old "
                                   "name: give it once")
    return old_value


MAX_FAULT_RATE = click.option(
    "--max-fault-rate", type=Finite(0, 1), default=api.MAX_FAULT_RATE, show_default=True,
    metavar="RATE", help="Warn, while the run plays, when an entrant faults in more than this "
                         "share of its games (after 10 of them).")
STOP_ON_FAULTS = click.option(
    "--stop-on-faults", is_flag=True,
    help="Stop the run (resumably) instead of warning when --max-fault-rate is passed.")


def _time_control(ctx, param, value: str | None) -> str | None:
    if value is not None:
        try:
            TimeControl.parse(value)
        except TimeControlError as exc:
            raise click.BadParameter(str(exc)) from None
    return value


TIME_CONTROL = click.option(
    "--time-control", default=None, metavar="BASE+INC", callback=_time_control,
    help="A game clock per seat: BASE seconds a game, INC added after each move (60+0.5); "
         "out of time, a bot takes over the seat. insane and the dial spend a share of it.")


def user_errors(command):
    """Turn the library's user-facing errors into click's one-line failure."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except DomsimError as exc:  # a bot's words among them: made printable
            raise click.ClickException(printable(str(exc))) from None
        except BrokenPipeError:  # `domsim stats RUN | head`: click ends quietly, as Unix tools do
            raise
        except OSError as exc:  # a full disk, a folder that cannot be made or read
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}: nothing already "
                                       "written was removed") from None

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="domsim")
def main() -> None:
    """Dominoes tournaments and simulation: every rule set, bots from easy to insane."""


@main.command(short_help="List every rule set: players, hands, target, options.")
def variants() -> None:
    """List every rule set with its player counts, hand sizes, target and options.

    Example: domsim variants
    """
    for v in VARIANTS.values():
        sizes = ", ".join(f"{n}p: {size}" for n, size in sorted(v.hand_sizes.items()))
        target = v.target or "single hand"
        options = ", ".join(_option_help(name) for name in v.options) or "none"
        click.echo(f"{v.name:<16} players {'/'.join(map(str, v.player_counts)):<6} "
                   f"hand {sizes:<20} target {target:<12} options: {options}")
        click.echo(f"{'':<16} {v.description} (seed {v.seed})")


def _option_help(name: str) -> str:
    default, choices, lowest = OPTION_SPECS[name]
    if choices:
        return f"{name}={'|'.join(choices)}"
    return f"{name}=INT {lowest}..{HIGHEST_OPTION}"


@main.command(short_help="Play one game and print its transcript.")
@click.option("--variant", "-v", required=True, help="Rule set (see `domsim variants`).")
@click.option("--player", "-p", "players_specs", multiple=True, metavar="SPEC",
              help="Strategy per seat in seat order; one spec fills every seat.")
@click.option("--players", "-n", type=int, default=None, help="Number of players.")
@click.option("--seed", type=int, default=None,
              help="Game seed (default: random, printed first, so the game can be played again).")
@RUN_KEY
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Rule option, e.g. target=200, capicu_bonus=25.")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game record (JSON) to this file; an existing file is refused.")
@click.option("--html", "page", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the game's page to this file (as `show --html`); an existing "
                   "file is refused.")
@MOVE_LIMIT
@TIME_CONTROL
@ISOLATE
@SEAT_MEMORY
@SANDBOX
@DEBUG
@user_errors
def play(variant, players_specs, players, seed, run_key, options, record, page,
         move_time_limit, time_control, isolate, seat_memory, sandbox, debug) -> None:
    """Play one game and print its transcript, then any seat's faults. Without --seed the game
    is dealt from a random seed, printed first: --seed with it plays the same game again. With
    a bot in its own process a secret run key is drawn too, as a tourney's (so that no bot
    works the deals out from a small seed): both printed, --seed with --run-key replays it.

    A SPEC is a level (easy, medium, hard, insane), a file (path/to/bot.py[:Class]), a module
    (package.module:Class) or a registered name, with optional parameters (hard?key=value), or
    a program speaking the seat protocol in its own process: 'exec:./mybot --depth 3'.

    Example: domsim play --variant fives -p easy -p easy --seed 7 --record game.json
    """
    for path, option in ((record, "--record"), (page, "--html")):
        if path is not None and path.exists():
            raise click.ClickException(f"{path} exists: choose another {option} file")
    texts = list(players_specs) or ["easy"]
    specs = [Spec.of(text) for text in texts]
    with traced("-" if debug else None):  # a bot that fails its check shows its handshake
        for spec in dict.fromkeys(specs):
            if not is_human(spec):
                check_spec(spec, isolate, Confinement(seat_memory, sandbox is not False))
    person = any(map(is_human, specs))
    if person and record is None:  # a game someone played is kept
        record = default_out(f"play-{variant}").with_suffix(".json")
        record.parent.mkdir(parents=True, exist_ok=True)
    seeds = LoneSeeds.draw(specs, isolate, seed, run_key)
    if (seeds.seed, seeds.key) != (seed, run_key):  # drawn: printed first, to deal it again
        click.echo(f"seed {seeds.seed}: replay this game with {seeds.replay()}")
    with _bots_stderr_shown():
        game = api.play(variant, texts, seed=seeds.seed, run_key=seeds.key, players=players,
                        options=parse_options(options), move_time_limit=move_time_limit or None,
                        isolate=isolate, seat_memory=seat_memory, sandbox=sandbox is not False,
                        time_control=time_control, debug=debug,
                        terminal=ConsoleTerminal() if person else None)
    lines = list(transcript_lines(game))
    left = person and any(faults["replaced"] for faults in game["faults"])
    for line in lines if not person else lines[-1:] if left else ():
        click.echo(line)
    for seat, faults in enumerate(game["faults"]):
        if faults["first"] is not None:
            click.echo(printable(_fault_line(seat, game["seats"][seat], faults), lines=False))
    if record is not None:
        try:
            with record.open("x", encoding="utf-8") as out:
                out.write(json.dumps(game) + "\n")
        except OSError as exc:
            raise click.ClickException(f"cannot write {record}: {exc.strerror}") from None
        click.echo(f"record written to {record}")
    if page is not None:
        seat = next((s for s, spec in enumerate(game["seats"]) if is_human(Spec.of(spec))),
                    None)
        _write_page(game, page, f"{game['variant']}, seed {game['seed']}", view_seat=seat)


def _write_page(record: dict, page: Path, title: str, index: int = 0,
                view_seat: int | None = None) -> None:
    players = len(record.get("seats") or ())
    if view_seat is not None and view_seat >= players:
        raise click.UsageError(f"--view {view_seat}: the game has seats 0 to {players - 1}")
    try:
        write_page(record, page, title=title, game=index, view_seat=view_seat)
    except OSError as exc:
        raise click.ClickException(f"cannot write {page}: {exc.strerror}") from None
    click.echo(f"page written to {page}")


class ConsoleTerminal:
    """A human seat's terminal: stdout and stdin (domsim.human.Terminal), in colour when stdout
    is a terminal that has it and NO_COLOR (no-color.org) is not set."""

    def __init__(self) -> None:
        self.color = (sys.stdout.isatty() and not os.environ.get("NO_COLOR")
                      and os.environ.get("TERM") != "dumb")

    @property
    def width(self) -> int:
        """The terminal's columns now (COLUMNS, else the terminal's own, else 80)."""
        return shutil.get_terminal_size().columns

    def say(self, line: str) -> None:
        click.echo(line, color=self.color)

    def ask(self, prompt: str) -> str | None:
        try:
            return input(prompt)
        except (EOFError, KeyboardInterrupt):
            click.echo()
            return None


@contextmanager
def _bots_stderr_shown() -> Iterator[None]:
    """One game has no run log and no progress bar: a bot's stderr goes to the terminal, and
    so do domsim's warnings (a fault's), made printable, as a run's are."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(PrintableFormatter("%(message)s"))
    domsim_log, bots = logging.getLogger("domsim"), logging.getLogger(BOTS_LOGGER)
    saved = bots.level
    domsim_log.addHandler(handler)
    bots.setLevel(logging.INFO)
    try:
        yield
    finally:
        domsim_log.removeHandler(handler)
        bots.setLevel(saved)


def _fault_line(seat: int, spec: str, faults: dict) -> str:
    counts = ", ".join(f"{faults[kind]} {kind}" for kind in ("errors", "illegal", "timeouts")
                       if faults[kind])
    taken = "; a bot took over the seat" if faults["replaced"] else ""
    if not counts:  # a person who left the table: no fault of a program
        return f"Seat {seat} ({spec}): {faults['first']}{taken}"
    return f"Faults at seat {seat} ({spec}): {counts}; first: {faults['first']}{taken}"


@main.command(short_help="List every strategy domsim can find.")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
def strategies(paths) -> None:
    """List every strategy domsim can find, with where it comes from and what it does: the
    registered ones (built-in levels and installed packages), the shipped examples, and the .py
    files in PATHS (files or folders), with their parameters (type and default). Any listed
    SPEC works as `-p SPEC`, parameters after a `?`: `hard?shed=2&block=3`. Exits 1 when one
    cannot be loaded (its line says why).

    Example: domsim strategies my_bots/
    """
    infos = strategy_catalog(paths)
    for info in infos:
        click.echo(f"{info.spec:<40} {info.description}")
        click.echo(f"{'':<40} from {info.origin}")
        for line in _item_lines(("parameters:", *info.parameters) if info.parameters else (), 78):
            click.echo(f"{'':<40} {line}")
    failed = [info.spec for info in infos if info.failed]
    if failed:
        raise click.ClickException(f"{len(failed)} strategy file(s) or module(s) cannot be "
                                   f"loaded, the first {failed[0]}: see its error above")


def _item_lines(items: tuple[str, ...], width: int) -> list[str]:
    """Items joined by ", " into lines of at most `width` characters, never splitting one."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 2 + len(item) <= width:
            lines[-1] += (" " if lines[-1].endswith(":") else ", ") + item
        else:
            lines.append(item)
    return lines


@main.command(short_help="Check every action and result of game records.")
@click.argument("file", required=False, type=click.Path(path_type=Path))
@click.option("--run", "run_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also check the records (default: the run's records.jsonl) against this "
                   "run's manifest and games table: seats, seeds, results, faults.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the recomputed records (results filled in) as JSON Lines.")
@user_errors
def replay(file, run_dir, as_json) -> None:
    """Re-apply every action of every game in FILE and check every result, and for a tourney's
    records that the deals are those the seed makes.

    Exits 1 naming the game, hand and action of the first illegal action, or every result that
    disagrees with the file (with --json the file's results are ignored).

    Example: domsim replay game.json; domsim replay --run results/block-20261129-101500
    """
    if file is None and run_dir is None:
        raise click.UsageError("give a record FILE, or --run DIR for a run's records")
    if file is None:
        file = run_dir / RECORDS
        if not file.is_file():
            raise click.ClickException(f"{file} does not exist: the run kept no records (run "
                                       "it with --records), or give the records FILE")
    elif file.is_dir():
        raise click.ClickException(f"{file} is a folder: give a records file, or check a run's "
                                   f"records with: domsim replay --run {file}")
    elif not file.exists():
        raise click.ClickException(f"{file} does not exist: give a records file (`play "
                                   "--record`'s, a run's records.jsonl)")
    recomputed, problems = replayed(file, run_dir, stated=not as_json)
    for result in recomputed if as_json else ():
        click.echo(json.dumps(result))
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        sys.exit(1)
    if not as_json:
        against = f", and agrees with the run in {run_dir}" if run_dir else ""
        click.echo(f"{len(recomputed)} game(s) replayed: every action legal, every result "
                   f"agrees{against}")


STANDINGS_GAMES = click.option(
    "--standings-every", type=click.IntRange(min=0), default=0, metavar="N",
    help="Show the standings (W-L-S, points, Elo with its interval, strongest first) every N "
         "games, above the bar and in run.log. 0: never.")
STANDINGS_SECONDS = click.option(
    "--standings-seconds", type=Seconds("never"), default=0, metavar="T",
    help="Also every T seconds. 0: never.")

def _with_target(options: tuple[str, ...], target: int | None) -> dict | None:
    """The rule options -o gives, with --target's (None: neither given)."""
    if not options and target is None:
        return None
    parsed = parse_options(options)
    if target is not None and "target" in parsed:
        raise click.UsageError("--target and --option target=... both set the target: give one")
    return parsed | ({} if target is None else {"target": target})


TOURNEY_SETTINGS = {  # click parameter -> tourney setting (only explicitly given ones are used)
    "variant": "variant", "players": "players", "games": "games", "entrants": "entrants",
    "form": "format", "seed": "seed", "duplicate": "duplicate", "output_format": "output_format",
    "move_time_limit": "move_time_limit", "records": "records", "deals": "deals",
    "deals_order": "deals_order", "isolate": "isolate", "seat_memory": "seat_memory",
    "sandbox": "sandbox", "on_fault": "on_fault", "time_control": "time_control",
    "run_key": "run_key",
}


@main.command(short_help="Play a tournament between strategies in parallel.")
@click.option("--variant", "-v", help="Rule set (see `domsim variants`); required unless --resume.")
@click.option("--players", "-n", type=int, default=None, help="Number of players.")
@click.option("--games", "-g", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Total number of games, spread over the pairings, rounded up to whole deal "
                   "sets (every pairing plays every deal in every seating).")
@click.option("--games-per-pairing", type=click.IntRange(min=1), default=None, metavar="N",
              help="Instead of --games: N games for every pairing, rounded up to whole deals "
                   "(each deal in every seating).")
@click.option("--player", "-p", "entrants", multiple=True, metavar="[NAME=]SPEC",
              help="An entrant (repeat; default: the built-in levels); a+b is a team; NAME= "
                   "names it (default: the spec, a file by its stem).")
@click.option("--format", "form", type=click.Choice(FORMATS), default="round-robin",
              show_default=True, help="gauntlet: the first entrant against each other one.")
@click.option("--seed", type=int, default=None, help="Run seed (default: random, kept in the "
              "manifest). With bots in their own process the games also depend on the run's "
              "secret key (its manifest's run_key): --seed alone then reproduces nothing a bot "
              "could guess; --resume and --run-key reproduce the run.")
@RUN_KEY
@GAME_LINES
@DEBUG
@click.option("--workers", "-j", type=WORKERS_RANGE, default=default_workers,
              show_default="all cores",
              help="Worker processes (with --backend dask: the cluster's threads).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default results/<variant>-<timestamp>); never overwritten.")
@click.option("--output-format", type=click.Choice(OUTPUT_FORMATS), default="parquet",
              show_default=True, help="Format of the games table.")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Play each deal once per seating, so deal luck cancels.")
@TARGET
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Rule option, e.g. capicu_bonus=25.")
@MOVE_LIMIT
@TIME_CONTROL
@WRITE_RECORDS
@DEALS
@DEALS_ORDER
@ISOLATE
@SEAT_MEMORY
@SANDBOX
@on_fault_option("forfeit", "A tourney forfeits, as fastchess and cutechess do: a bot's "
                            "results are its own moves'.")
@MAX_FAULT_RATE
@STOP_ON_FAULTS
@click.option("--resume", is_flag=True, help="Finish the interrupted run (or comparison) in "
              "--out.")
@SILENT
@BACKEND
@SCHEDULER
@STANDINGS_GAMES
@STANDINGS_SECONDS
@click.pass_context
@user_errors
def tourney(ctx, out, options, target, resume, workers, silent, backend, scheduler,
            games_per_pairing, standings_every, standings_seconds, max_fault_rate,
            stop_on_faults, game_lines, debug, **settings) -> None:
    """Play a tournament between strategies in parallel; write games, summary and manifest.

    Every pairing plays the same deals; by default each deal once per seating (2 players swap
    hands, 3-4 players rotate seats, teams swap places). Results go to --out: games.parquet (or
    .csv), summary.csv, manifest.json, run.log and, with --records, records.jsonl; docs/SCHEMA.md
    describes every column.

    Example: domsim tourney --variant block --games 10000 -p easy -p medium -p hard
    """
    given = {TOURNEY_SETTINGS[name]: value for name, value in settings.items()
             if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT}
    if (rule_options := _with_target(options, target)) is not None:
        given["options"] = rule_options
    _tourney(given, out, resume, games_per_pairing=games_per_pairing, workers=workers,
             backend=backend, scheduler=scheduler, silent=silent,
             standings_every=standings_every, standings_seconds=standings_seconds,
             max_fault_rate=max_fault_rate, stop_on_faults=stop_on_faults,
             game_lines=game_lines, debug=debug)


@main.command(short_help="Run the tourney a scenario file (TOML) describes.")
@click.argument("scenario", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--games", "-g", type=click.IntRange(min=1), help="Instead of the file's games.")
@click.option("--seed", type=int, help="Instead of the file's seed.")
@click.option("--workers", "-j", type=WORKERS_RANGE, default=None,
              help="Worker processes (default: the file's, else all cores).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: the file's, else results/<scenario>-<timestamp>).")
@click.option("--resume", is_flag=True, help="Finish the interrupted run in --out.")
@SILENT
@click.option("--backend", type=click.Choice(BACKENDS), default=None,
              help="Instead of the file's backend (default local).")
@click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler address (--backend dask).")
@STANDINGS_GAMES
@STANDINGS_SECONDS
@MAX_FAULT_RATE
@STOP_ON_FAULTS
@user_errors
def run(scenario, games, seed, workers, out, resume, silent, backend, scheduler, standings_every,
        standings_seconds, max_fault_rate, stop_on_faults) -> None:
    """Run the tourney a SCENARIO file (TOML) describes, as `domsim tourney` would.

    Its keys are tourney's options: variant, players, games, entrants (the -p specs), format,
    seed, workers, out, output_format, duplicate, target, options (a table), move_time_limit,
    time_control (BASE+INC), records, isolate, seat_memory, deals (a file), deals_order,
    on_fault (forfeit, the default, or substitute), backend, scheduler; paths are read from the
    file's folder. The options given here override the file's.

    Example: domsim run scenarios/block-levels.toml --games 1200
    """
    loaded = load_scenario(scenario, check_config)
    given = loaded.settings | {key: value for key, value in (("games", games), ("seed", seed))
                               if value is not None}
    backend = backend or loaded.backend or "local"
    _tourney(given, out or loaded.out, resume, name=scenario.stem,
             workers=workers or loaded.workers or default_workers(), backend=backend,
             scheduler=scheduler or (loaded.scheduler if backend == "dask" else None),
             silent=silent, standings_every=standings_every,
             standings_seconds=standings_seconds, max_fault_rate=max_fault_rate,
             stop_on_faults=stop_on_faults)


def _tourney(given: dict, out: Path | None, resume: bool, *, silent: bool,
             name: str | None = None, **session) -> None:
    """Run through the API, print the summary table, and say how to resume a run that stopped
    early. A new run's folder defaults to results/<name or variant>-<time>."""
    if out is None and not resume and given.get("variant"):
        out = default_out(name or given["variant"])
    try:
        results = api.tourney(**given, out=out, resume=resume, progress=not silent,
                              command=["domsim", *sys.argv[1:]], **session)
    except RunFinished as finished:
        click.echo(str(finished))
        return
    if isinstance(results, api.Comparison):  # --resume of a comparison's folder
        _compare_output(results, results.path)
        return
    for line in summary_table(results.path / SUMMARY):
        click.echo(line)
    done, total = results.manifest["games_completed"], results.manifest["games"]
    if results.partial:
        raise click.ClickException(f"{results.stopped or 'stopped'} after {done} of {total} "
                                   f"games; {resume_hint(results.path)}")
    click.echo(f"{total} games written to {results.path}")


@main.command(short_help="Rewrite a domsim 0.1 run folder for this version.")
@click.argument("old_dir", type=click.Path(path_type=Path))
@click.argument("new_dir", type=click.Path(file_okay=False, path_type=Path))
@user_errors
def upgrade(old_dir, new_dir) -> None:
    """Rewrite a run folder of domsim 0.1 in this version's format, in NEW_DIR (OLD_DIR is only
    read): typed columns, entrant columns, records with their run seed and deal, checksums. A
    partial run stays partial: resume NEW_DIR to finish it.

    Example: domsim upgrade results/block-20261101 results/block-20261101-v2
    """
    from .upgrade import upgrade_run

    outcome = upgrade_run(old_dir, new_dir, ["domsim", *sys.argv[1:]])
    written = f"{outcome.done} of {outcome.total} games written to {new_dir}"
    click.echo(f"{written} (partial): {resume_hint(new_dir)}" if outcome.partial else
               f"{written} (complete)")


@main.command(short_help="Write a deal book of first-hand deals, for --deals.")
@click.argument("paths", nargs=-1, metavar="[RUN_DIR] FILE",
                type=click.Path(path_type=Path))
@click.option("--variant", "-v", default=None,
              help="Instead of a run: deal for this rule set (see `domsim variants`).")
@click.option("--count", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --variant: the number of deals [100].")
@click.option("--players", "-n", type=int, default=None, help="With --variant: players.")
@click.option("--seed", type=int, default=None,
              help="With --variant: the run seed the deals come from [0].")
@RULE_OPTIONS
@user_errors
def deals(paths, variant, count, players, seed, options) -> None:
    """Write a deal book to FILE (JSON Lines, one first-hand deal a line, in deal order) for
    `domsim tourney --deals FILE`: the deals a run in RUN_DIR played, or with --variant the
    first N deals a tourney with --seed S deals (deal i from the seed's game seed i), without
    playing. Another run, or another tool, then plays the same deals. An existing FILE is
    refused.

    Example: domsim deals results/block-20261129-101500 block.deals.jsonl

    Example: domsim deals --variant block --count 500 --seed 7 block-500.deals.jsonl
    """
    wanted = 1 if variant else 2
    if len(paths) != wanted:
        raise click.UsageError("give RUN_DIR FILE, or --variant V [--count N] [--seed S] FILE")
    if not variant and (count, players, seed, options) != (None, None, None, ()):
        raise click.UsageError("--count, --players, --seed and --option go with --variant")
    file = paths[-1]
    if file.exists():
        raise click.ClickException(f"{file} exists: choose another file")
    if variant:
        rules = make_rules(variant, players, parse_options(options))
        lines = [deal_line(rules, deal, deal_id=deal_id, seed=game)
                 for deal_id, game, deal in seed_deals(rules, seed or 0, count or 100)]
    else:
        run = load_run(paths[0])
        lines = [deal_line(run.rules, deal, deal_id=deal_id, seed=game)
                 for deal_id, game, deal in run_deals(run.rules, run.config, run.table)]
    try:
        with file.open("x", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
    except OSError as exc:
        raise click.ClickException(f"cannot write {file}: {exc.strerror}") from None
    click.echo(f"{len(lines)} deals written to {file}")


@main.command(short_help="Print one game's transcript, or write its page.")
@click.argument("source", metavar="RUN_DIR|FILE", type=click.Path(exists=True, path_type=Path))
@click.option("--game", "-g", default=None, metavar="N",
              help="The game: its game id as the run stores it (0, 1, ...); in a records file "
                   "without game ids, its place from 1. Required for a run.")
@click.option("--html", "page", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the game's page to this file instead (one self-contained HTML file: the "
                   "table drawn, every action stepped with keys and buttons); an existing file "
                   "is refused.")
@click.option("--view", "view_seat", type=click.IntRange(min=0), default=None, metavar="SEAT",
              help="With --html: the page opens as this seat sees the table (default: every "
                   "hand face up).")
@user_errors
def show(source, game, page, view_seat) -> None:
    """Print the transcript of one game: every deal, every play, draw and pass with the open
    ends after it, each hand's result and the scores; or with --html write its page. From a run
    folder the game comes from its records.jsonl, or, when the run kept no records, it is played
    again from its seed and seats (and checked against the run's games table); from a records
    file (`play --record`, records.jsonl) it is read.

    Example: domsim show results/block-20261129-101500 --game 17 --html game17.html
    """
    from .show import file_game, run_game

    if page is not None and page.exists():
        raise click.ClickException(f"{page} exists: choose another --html file")
    if view_seat is not None and page is None:
        raise click.UsageError("--view goes with --html")
    game = None if game is None else game_number(game)
    if source.is_dir():
        if game is None:
            raise click.UsageError("give the game: --game N (a game id of the run)")
        shown = run_game(load_run(source), game)
    else:
        shown = file_game(source, game)
    click.echo(shown.source)
    if page is not None:
        _write_page(shown.record, page, shown.name, shown.index, view_seat)
    else:
        for line in transcript_lines(shown.record, shown.index):
            click.echo(line)
    for problem in shown.problems:
        click.echo(problem, err=True)
    if shown.problems:
        sys.exit(1)


def game_number(text: str) -> int:
    """--game's value: a game id, or a place in a file, as a whole number from 0."""
    if not text.strip().isdigit():
        raise click.ClickException(f"--game {text!r}: give a game by its number (0, 1, ...), "
                                   "as the run's games table or the records file holds it")
    return int(text)


SAMPLES = click.option("--samples", type=click.IntRange(min=0), default=1000, show_default=True,
                       help="Bootstrap resamplings of whole deals for the rating intervals.")


@main.command(short_help="Print a run's statistics: ratings, win rates, LOS.")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print every figure as one JSON object.")
@SAMPLES
@user_errors
def stats(run_dir, as_json, samples) -> None:
    """Print the statistics of a finished or partial run: joint ratings with bootstrap intervals
    (strongest first; a calibration run's in entrant order, with the ladder verdict) and the
    probability each entrant is stronger than each other, and per
    pair of entrants the win rate, Elo, normalized Elo and LOS over duplicate deals with the
    deal outcomes and the variance saved by duplicate play.

    Example: domsim stats results/block-20261129-101500 --json
    """
    figures = run_statistics(load_run(run_dir), samples)
    if as_json:
        click.echo(strict_json(figures))
        return
    for line in statistics_lines(figures):
        click.echo(line)


@main.command(short_help="Is strategy A stronger than B? A sequential test.")
@click.argument("a", metavar="A", required=False)
@click.argument("b", metavar="B", required=False)
@click.option("--variant", "-v", help="Rule set (see `domsim variants`); required unless "
              "--resume.")
@click.option("--players", "-n", type=int, default=None, help="Number of players.")
@click.option("--elo0", type=Finite(), default=None,
              help=f"Elo of A over B under H0 [{DEFAULT_BOUNDS[0]:g}].")
@click.option("--elo1", type=Finite(), default=None,
              help=f"Elo of A over B under H1 [{DEFAULT_BOUNDS[1]:g}].")
@click.option("--elo-model", type=click.Choice(ELO_MODELS), default="logistic",
              show_default=True, help="Unit of --elo0/--elo1 (normalized: fishtest's nElo).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=None,
              help="Without --elo0/--elo1: play exactly this many games, no test; with them: "
                   f"the most to play [{COMPARE_LIMIT}].")
@click.option("--alpha", type=PROBABILITY,
              default=0.05, show_default=True, help="SPRT: the chance of accepting H1 under H0.")
@click.option("--beta", type=PROBABILITY,
              default=0.05, show_default=True, help="SPRT: the chance of accepting H0 under H1.")
@SEED
@RUN_KEY
@GAME_LINES
@DEBUG
@WORKERS
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default results/compare-<timestamp>); never overwritten.")
@RULE_OPTIONS
@TARGET
@MOVE_LIMIT
@TIME_CONTROL
@DEALS
@DEALS_ORDER
@WRITE_RECORDS
@SILENT
@ISOLATE
@SEAT_MEMORY
@SANDBOX
@BACKEND
@SCHEDULER
@on_fault_option("forfeit", "A test forfeits, as fastchess does: a crashing bot loses.")
@MAX_FAULT_RATE
@STOP_ON_FAULTS
@click.option("--resume", is_flag=True, help="Go on with the interrupted comparison in --out "
              "(A, B and the settings are its own): the same verdict after the same games.")
@click.pass_context
@user_errors
def compare(ctx, a, b, variant, players, elo0, elo1, elo_model, games, alpha, beta, seed,
            run_key, game_lines, debug, workers, out, options, target, move_time_limit,
            time_control, deals, deals_order, records, silent, isolate, seat_memory, sandbox,
            backend, scheduler, on_fault, max_fault_rate, stop_on_faults, resume) -> None:
    """Is strategy A stronger than B? Play duplicate deals (every deal in every seating) until a
    sequential probability ratio test on the deals (fishtest's GSPRT) accepts H0 (Elo of A =
    elo0) or H1 (= elo1), then print the verdict, the Elo estimate with its interval, the games
    it took and the variance duplicate play saved. A and B are [NAME=]SPEC, as tourney's -p.

    Example: domsim compare my_bot.py hard --variant block --elo0 0 --elo1 30

    Example: domsim compare --out results/compare-20261201-101500 --resume
    """
    command = ["domsim", *sys.argv[1:]]
    faults = api.FaultWatch(max_fault_rate, stop_on_faults)
    if resume:
        _resume_alone(ctx, out, SESSION_PARAMETERS, "comparison")
        try:
            result = api.resume_compare(out, workers=workers, progress=not silent,
                                        command=command, faults=faults, backend=backend,
                                        scheduler=scheduler, debug=debug)
        except RunFinished as finished:
            click.echo(str(finished))
            return
        _compare_output(result, out)
        return
    if a is None or b is None or variant is None:
        raise click.UsageError("give A, B and --variant (or --out DIR --resume)")
    elo0, elo1 = _sprt_bounds(elo0, elo1, games, elo_model)
    out = out or default_out("compare")
    result = api.compare(a, b, variant, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                         elo_model=elo_model, sequential=elo0 is not None,
                         games=games or COMPARE_LIMIT, players=players, seed=seed,
                         options=_with_target(options, target), isolate=isolate,
                         move_time_limit=move_time_limit, deals=deals, deals_order=deals_order,
                         records=records, backend=backend, scheduler=scheduler,
                         seat_memory=seat_memory, sandbox=sandbox is not False,
                         on_fault=on_fault, time_control=time_control, run_key=run_key,
                         game_lines=game_lines, debug=debug, out=out, workers=workers,
                         progress=not silent, command=command,
                         max_fault_rate=max_fault_rate, stop_on_faults=stop_on_faults)
    _compare_output(result, out)


def _resume_alone(ctx: click.Context, out: Path | None, session: tuple[str, ...],
                  what: str) -> None:
    """--resume takes --out and the options of how this session runs (`session`), no more."""
    given = [name for name in ctx.params if name not in session
             and ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT]
    if out is None or given:
        allowed = ", ".join(f"--{name.replace('_', '-')}" for name in session
                            if name not in ("out", "resume"))
        raise click.ClickException(f"--resume takes --out DIR alone (and {allowed}): the "
                                   f"{what}'s own settings go on")


#: What a resumed comparison may be given: how this session runs, not what the run is.
SESSION_PARAMETERS = ("out", "workers", "silent", "resume", "max_fault_rate", "stop_on_faults",
                      "backend", "scheduler", "debug")


def _compare_output(result: api.Comparison, out: Path) -> None:
    """The comparison's lines; a comparison that stopped early says how to resume it."""
    for line in result.lines:
        click.echo(line)
    if result.partial:
        raise click.ClickException(f"{result.stopped} after {result.manifest['games_completed']} "
                                   f"games; {resume_hint(out, 'compare')}")


def _sprt_bounds(elo0, elo1, games: int | None,
                 model: str = "logistic") -> tuple[float | None, float | None]:
    """The bounds --elo0/--elo1 ask for (both or neither; the defaults without --games, each
    within ELO_LIMITS of the model); none (no test) for --games alone."""
    if (elo0 is None) != (elo1 is None):
        raise click.ClickException("give --elo0 and --elo1 together")
    if elo0 is None:
        if games is not None:
            return None, None
        elo0, elo1 = DEFAULT_BOUNDS
    check_bounds(elo0, elo1, model)
    return elo0, elo1


@main.command(short_help="Calibrate each rule set's levels; write the report.")
@click.option("--variant", "-v", "variants", multiple=True,
              help="Rule set to calibrate (repeat for more).")
@click.option("--all", "every", is_flag=True, help="Calibrate every rule set.")
@click.option("--players", "-n", type=int, default=None, help="Number of players.")
@click.option("--games", "-g", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Games per rule set of the overview (every level against every other), "
                   "rounded up to whole deal sets, and to the 30 deals a verdict needs.")
@click.option("--tolerance-elo", "tolerance", type=Finite(0, 400, min_open=True),
              default=DEFAULT_STEP_TOLERANCE, show_default=True, metavar="ELO",
              help="A step is decided once it is significant at 95% or its interval lies "
                   "within +-ELO: the levels are then equal within it.")
@renamed_option("--tolerance", "--tolerance-elo", Finite(0, 400, min_open=True))
@click.option("--precision", type=Finite(0, 400, min_open=True), default=None, metavar="ELO",
              help="Also play each step on until its 95% interval (corrected for the looks) "
                   "is at most +-ELO wide, within --max-games: e.g. 20 for +-20 Elo.")
@click.option("--max-games", type=click.IntRange(min=2), default=DEFAULT_MAX_GAMES,
              show_default=True, help="The most games a step plays before it is undecided.")
@click.option("--level", "levels", multiple=True, metavar="SPEC",
              help="A level to calibrate, weakest first (repeat; default: every built-in one).")
@click.option("--dial", "with_dial", is_flag=True,
              help="Also play the dial strategy at strengths "
                   f"{', '.join(f'{s:g}' for s in DEFAULT_SETTINGS)} and fit its curve.")
@click.option("--setting", "settings", multiple=True, type=Finite(0, 1),
              metavar="STRENGTH", help="A dial strength to play instead (repeat; implies --dial).")
@click.option("--seed", type=int, default=None, help="Run seed (default: random).")
@RUN_KEY
@WORKERS
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Report folder (default results/calibrate-<timestamp>); never overwritten.")
@TIME_CONTROL
@SAMPLES
@SILENT
@on_fault_option("substitute", "A calibration substitutes: the built-in levels are trusted, and "
                               "a rare timeout of a loaded machine should not decide a game.")
@MAX_FAULT_RATE
@STOP_ON_FAULTS
@BACKEND
@SCHEDULER
@click.option("--resume", is_flag=True, help="Go on with the interrupted calibration in --out "
              "(its own settings): runs finished are kept, the rest played.")
@click.pass_context
@user_errors
def calibrate(ctx, variants, every, players, games, tolerance, old_tolerance, precision,
              max_games, levels, with_dial, settings, seed, run_key, workers, out, time_control,
              samples, silent, on_fault, max_fault_rate, stop_on_faults, backend, scheduler,
              resume) -> None:
    """Calibrate the levels of each rule set and write the one-page report.

    First an overview: every level (and with --dial the dial at several strengths) against
    every other, for the heatmap, the hand endings, the timing and the dial's curve. Then each
    step of the ladder, a level against the one below it, is played head to head on fresh
    duplicate deals until it is decided: significant at 95%, or equal within --tolerance-elo,
    or undecided at --max-games; each step says how many games it took and why it stopped. The
    report (report.html, levels.json, tables/) opens with one table of every rule set's levels.
    Teams are whole teams of one level, but in kozel each level plays with a partner of at
    least hard (R-LEVEL).

    Example: domsim calibrate --all --dial --out results/calibration
    """
    if resume:
        _resume_alone(ctx, out, CALIBRATE_SESSION, "calibration")
    tolerance = renamed_value(ctx, "tolerance", old_tolerance)
    try:
        study = api.calibrate(
            calibration_variants(variants, every) if not resume else None, levels=levels,
            dial=settings or (DEFAULT_SETTINGS if with_dial else ()), games=games,
            players=players, tolerance=tolerance, precision=precision, max_games=max_games,
            seed=seed, run_key=run_key, on_fault=on_fault, time_control=time_control,
            samples=samples, out=out, resume=resume, workers=workers, progress=not silent,
            max_fault_rate=max_fault_rate, stop_on_faults=stop_on_faults, say=click.echo,
            backend=backend, scheduler=scheduler, command=["domsim", *sys.argv[1:]])
    except RunFinished as finished:
        click.echo(str(finished))
        return
    click.echo(f"report written to {study.page}")
    if study.partial:
        raise click.ClickException(f"{study.stopped}; the report covers what finished. Resume "
                                   f"with: domsim calibrate --out {study.path} --resume")


#: What a resumed calibration may be given: how this session runs, not what the study is.
CALIBRATE_SESSION = ("out", "workers", "silent", "resume", "max_fault_rate", "stop_on_faults",
                     "backend", "scheduler")


@main.command(short_help="Tune the dial, or a strategy's own parameters.")
@click.option("--variant", "-v", help="Rule set (see `domsim variants`); required unless --resume.")
@click.option("--players", "-n", type=int, default=None, help="Number of players.")
@click.option("--against", "level", default=None, metavar="SPEC",
              help="The opponent: the level the dial's win rate is against [medium]; with "
                   "--strategy, what the perturbed players meet [the strategy at its start].")
@click.option("--win-rate", type=PROBABILITY,
              default=None, help="Dial: target win rate against --against [0.65].")
@click.option("--levels", "count", type=int, default=None, metavar="N",
              help="Dial, instead of one target: N levels evenly spaced in Elo from easy (dial 0) "
                   "to insane (dial 1), each inner one searched against the nearest built-in "
                   "level.")
@click.option("--gap-games", type=click.IntRange(min=1), default=None,
              help=f"Dial, with --levels: games measuring each built-in step "
                   f"[{DEFAULT_GAP_GAMES}].")
@click.option("--win-rate-tolerance", "tolerance", type=Finite(0, 1, min_open=True),
              default=DEFAULT_TOLERANCE, show_default=True, metavar="SHARE",
              help="Dial: width of the indifference zone around the target win rate (the tests' "
                   "H0 and H1), a share of the games.")
@renamed_option("--tolerance", "--win-rate-tolerance", Finite(0, 1, min_open=True))
@click.option("--steps", type=click.IntRange(min=1), default=DEFAULT_STEPS, show_default=True,
              help="Dial: most bisection steps (a search).")
@click.option("--strategy", default=None, metavar="SPEC",
              help="SPSA: the strategy whose --param values to tune (a level, file, module or "
                   "exec: bot: a value goes where its command has {NAME}, else with each game).")
@click.option("--param", "params", multiple=True, metavar="NAME=LOW:HIGH[:START]",
              help="SPSA: a numeric parameter of --strategy and its range (START: the spec's "
                   "value, else the strategy's default, else the middle); repeatable.")
@click.option("--confirm", type=click.IntRange(min=0), default=spsa.CONFIRM_GAMES,
              show_default=True,
              help="SPSA: games of the closing duel of the tuned values against the start (0: "
                   "none).")
@click.option("--c-end", type=Finite(0, 0.5, min_open=True), default=spsa.C_END,
              show_default=True,
              help="SPSA: the perturbation at the end, as a share of each parameter's range.")
@click.option("--r-end", type=Finite(0, 1, min_open=True), default=spsa.R_END,
              show_default=True,
              help="SPSA: the learning rate at the end, a_k / c_k^2 (fishtest's r_end).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=None,
              help=f"Dial: most games a step plays [{COMPARE_LIMIT}]. SPSA: the games of the "
                   f"whole tuning [{spsa.DEFAULT_GAMES}].")
@SEED
@WORKERS
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default results/tune-<timestamp>); never overwritten.")
@RULE_OPTIONS
@SILENT
@on_fault_option("forfeit", "A tune's games forfeit, as compare's.")
@BACKEND
@SCHEDULER
@click.option("--resume", is_flag=True, help="Go on with the interrupted tune in --out (its own "
              "settings): what finished is kept, the rest played.")
@ISOLATE
@click.pass_context
@user_errors
def tune(ctx, variant, players, level, win_rate, count, gap_games, tolerance, old_tolerance,
         steps, strategy, params, confirm, c_end, r_end, games, seed, workers, out, options,
         silent, on_fault, backend, scheduler, resume, isolate) -> None:
    """Tune the dial, or (--strategy) a strategy's own parameters.

    The dial: the strength that wins a target share of the games against a level: bisect the
    strength, each step a sequential test on duplicate deals, and print the setting with its
    95% interval (Fieller's, from a logistic line in the strength fitted to the games of the
    steps near the last bracket), the bracket itself, and the games and time it took. With
    --levels N: the settings of N levels evenly spaced in Elo from easy to insane, each with its
    interval.

    --strategy SPEC --param NAME=LOW:HIGH ...: SPSA as fishtest tunes an engine: each
    iteration plays the strategy with every parameter nudged up or down at random, and with the
    opposite nudges, against --against on one deal in every seating, and moves the values
    towards the better of the two; --games in all, then a duel of the tuned values against the
    start (--confirm games) with its interval. Prints NAME=VALUE and the spec to paste.

    Example: domsim tune --variant block --against medium --win-rate 0.65

    Example: domsim tune --variant block --levels 5

    Example: domsim tune --variant block --strategy hard --param block=0:10 --param lock=0:12
    """
    if resume:
        _resume_alone(ctx, out, TUNE_SESSION, "tune")
        strategy = "" if spsa.is_spsa(out) else None
    _one_mode(ctx, strategy is not None)
    tolerance = renamed_value(ctx, "tolerance", old_tolerance)
    if strategy is None and count is not None and (level is not None or win_rate is not None):
        raise click.ClickException("--levels sets its own targets: drop --against/--win-rate")
    if strategy is None and count is None and gap_games is not None:
        raise click.ClickException("--gap-games goes with --levels N")
    try:
        if strategy is not None:
            study = api.tune_parameters(
                strategy or None, params, against=level, variant=variant,
                games=games or spsa.DEFAULT_GAMES, confirm=confirm, seed=seed, players=players,
                options=parse_options(options), on_fault=on_fault, c_end=c_end, r_end=r_end,
                isolate=isolate, out=out, resume=resume, workers=workers, progress=not silent,
                backend=backend, scheduler=scheduler, command=["domsim", *sys.argv[1:]])
        else:
            study = api.tune(variant, against=level or "medium",
                             win_rate=0.65 if win_rate is None else win_rate, levels=count,
                             gap_games=gap_games or DEFAULT_GAP_GAMES, tolerance=tolerance,
                             steps=steps, games=games or COMPARE_LIMIT, seed=seed,
                             players=players, options=parse_options(options), on_fault=on_fault,
                             out=out, resume=resume, workers=workers, progress=not silent,
                             backend=backend, scheduler=scheduler,
                             command=["domsim", *sys.argv[1:]])
    except RunFinished as finished:
        click.echo(str(finished))
        return
    for line in study.lines:
        click.echo(line)
    if study.stopped:
        raise click.ClickException(f"{study.stopped}; {resume_hint(study.path, 'tune')}")


#: The options of each of tune's modes (the rest belong to both).
DIAL_OPTIONS = ("win_rate", "count", "gap_games", "tolerance", "old_tolerance", "steps")
SPSA_OPTIONS = ("params", "confirm", "c_end", "r_end", "isolate")


def _one_mode(ctx: click.Context, tuning_parameters: bool) -> None:
    """tune's options of the other mode are refused, named."""
    other = DIAL_OPTIONS if tuning_parameters else SPSA_OPTIONS
    given = [name for name in other
             if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT]
    if given:
        flags = ", ".join(_flag(ctx, name) for name in given)
        mode = ("tuning a strategy's parameters (--strategy)" if tuning_parameters
                else "tuning the dial; --strategy SPEC tunes a strategy's parameters")
        raise click.ClickException(f"{flags}: not an option when {mode}")


def _flag(ctx: click.Context, name: str) -> str:
    return next(p.opts[0] for p in ctx.command.params if p.name == name)


#: What a resumed tune may be given: how this session runs, not what the tune is.
TUNE_SESSION = ("out", "workers", "silent", "resume", "backend", "scheduler")


@main.command(short_help="Build the calibration report from existing runs.")
@click.argument("run_dirs", metavar="RUN_DIR...", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Report folder (default results/report-<timestamp>); never overwritten.")
@click.option("--samples", type=click.IntRange(min=0), default=None,
              help="Bootstrap resamplings of whole deals for the rating intervals [default: "
                   "the calibration's own, as its report was written; else 1000].")
@user_errors
def report(run_dirs, out, samples) -> None:
    """Build the calibration report (report.html, SVG charts, CSV tables) from finished or
    partial runs, one section per run. A calibration's folder (or a run in one) gives its steps
    from its calibration.json, and its --samples, as the calibration's own report does.

    Example: domsim report results/block-levels results/kozel-levels --out results/report
    """
    if not run_dirs:
        raise click.ClickException("give at least one RUN_DIR: a tourney's --out folder")
    out = out or default_out("report")
    if out.exists():
        raise click.ClickException(f"{out} already exists: choose another --out")
    page = api.report(run_dirs, out, samples)
    with (page.parent / "tables" / "verdicts.csv").open(encoding="utf-8", newline="") as table:
        for row in csv.DictReader(table):  # each run's, as the page gives it
            click.echo(f"{row['variant']}: {row['verdict']}")
    click.echo(f"report written to {page}")
