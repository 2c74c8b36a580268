"""The `domsim` command line: parse, call the library, print. Library errors a user can cause
become one-line messages with a non-zero exit."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from . import __version__
from .game import play_game
from .record import RecordError, read_records, verify
from .rules import OPTION_SPECS, VARIANTS, RulesError, make_rules, parse_options
from .strategy import StrategyError
from .transcript import transcript_lines

USER_ERRORS = (RulesError, StrategyError, RecordError)


def user_errors(command):
    """Turn the library's user-facing errors into click's one-line failure."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except USER_ERRORS as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="domsim")
def main() -> None:
    """Dominoes tournaments and simulation: every rule set, bots from easy to insane."""


@main.command()
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
    return f"{name}=INT>={lowest}"


@main.command()
@click.option("--variant", "-v", required=True, help="Rule set (see `domsim variants`).")
@click.option("--player", "-p", "players_specs", multiple=True, metavar="SPEC",
              help="Strategy per seat in seat order; one spec fills every seat.")
@click.option("--players", "-n", type=int, default=None, help="Number of players.")
@click.option("--seed", type=int, default=0, show_default=True, help="Game seed.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Rule option, e.g. target=200, capicu_bonus=25.")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game record (JSON) to this file; an existing file is refused.")
@user_errors
def play(variant, players_specs, players, seed, options, record) -> None:
    """Play one game and print its transcript.

    Example: domsim play --variant fives -p easy -p easy --seed 7 --record game.json
    """
    specs = list(players_specs) or ["easy"]
    count = players or (len(specs) if len(specs) > 1 else None)
    rules = make_rules(variant, count, parse_options(options))
    if len(specs) == 1:
        specs *= rules.players
    if record is not None and record.exists():
        raise click.ClickException(f"{record} exists: choose another --record file")
    game = play_game(rules, specs, seed)
    for line in transcript_lines(game):
        click.echo(line)
    if record is not None:
        record.write_text(json.dumps(game) + "\n", encoding="utf-8")
        click.echo(f"record written to {record}")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Print the recomputed records (results filled in) as JSON Lines.")
@user_errors
def replay(file, as_json) -> None:
    """Re-apply every action of every game in FILE and check every result.

    Exits 1 naming the game, hand and action of the first illegal action, or every result that
    disagrees with the file (with --json the file's results are ignored).

    Example: domsim replay game.json
    """
    problems = []
    records = read_records(file)
    for index, record in enumerate(records):
        recomputed, found = verify(record, index)
        if recomputed is None:
            problems += found
        elif as_json:
            click.echo(json.dumps(recomputed))
        else:
            problems += found
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        sys.exit(1)
    if not as_json:
        click.echo(f"{len(records)} game(s) replayed: every action legal, every result agrees")
