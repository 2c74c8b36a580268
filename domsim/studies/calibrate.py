"""`domsim calibrate`: the built-in levels in each variant, one tourney per variant under one
folder, for the calibration report (domsim.pages.report)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..plan.config import TourneyConfig
from ..plan.games import Plan
from ..plan.pairings import builtin_levels, default_name
from ..results.manifest import Outcome
from ..rules import VARIANTS, RulesError, make_rules
from ..runner.tourney import TourneyError
from ..suggest import did_you_mean
from .dialcurve import dial_spec, strength_of


def calibration_variants(variants: tuple[str, ...], every: bool) -> list[str]:
    if every and variants:
        raise TourneyError("give --variant V or --all, not both")
    if not every and not variants:
        raise TourneyError("missing --variant V (repeat for more) or --all")
    unknown = [name for name in variants if name not in VARIANTS]
    if unknown:
        raise RulesError(f"unknown variant {unknown[0]!r}: {did_you_mean(unknown[0], VARIANTS)}"
                         "see `domsim variants`")
    return list(VARIANTS) if every else list(dict.fromkeys(variants))


def calibration_entrants(variant: str, players: int | None, levels: tuple[str, ...] = (),
                         dial: tuple[float, ...] = ()) -> list[str]:
    """The levels (default: every built-in one, weakest first), then the dial at each of the
    `dial` strengths. Teams are whole teams of one level, but where the variant sets a partner
    floor (R-LEVEL: kozel's is hard) each level plays with a partner of at least the floor, as a
    player at that level would (the dial's partner is the floor below strength 1, where the dial
    is insane)."""
    levels = tuple(levels) or tuple(builtin_levels())
    entrants = [*levels, *(dial_spec(strength) for strength in dial)]
    floor = make_rules(variant, players).variant.partner_floor
    if not floor:
        return entrants
    ladder = builtin_levels()
    strong_enough = ladder[ladder.index(floor):]
    return [name if name in strong_enough or strength_of(name) == 1 else f"{name}+{floor}"
            for name in entrants]


def run_calibration(variants: list[str], out: Path, *, games: int, seed: int,
                    run_key: str | None = None,
                    players: int | None, levels: tuple[str, ...], dial: tuple[float, ...],
                    on_fault: str,
                    run: Callable[[Plan, Path, list[str], list[str]], Outcome],
                    min_deals: int = 1,
                    steps: Callable[[TourneyConfig, Path], bool] | None = None,
                    time_control: str | None = None) -> tuple[list[Path], Outcome]:
    """One tourney per variant in out/<variant>, its games rounded up to whole deal sets (every
    level meets every other on the same deals), at least `min_deals` of them, played by `run`
    (a session runner, given what was rounded to say and the names of the levels: the ladder,
    every dial setting given as a level too); then `steps` plays the variant's ladder step by
    step (False: it stopped early). Stops at the first run that ends early. Returns the
    finished run folders and the last outcome."""
    done: list[Path] = []
    outcome = Outcome(0, 0, 0)
    for variant in variants:
        config = TourneyConfig(variant=variant, players=players, games=games,
                               entrants=tuple(calibration_entrants(variant, players, levels,
                                                                    dial)),
                               seed=seed, on_fault=on_fault, time_control=time_control,
                               run_key=run_key)
        plan, note = Plan.of(config).in_whole_deal_sets(min_deals)
        config = plan.config
        ladder = [default_name(spec) for spec in config.entrants[:len(levels or builtin_levels())]]
        outcome = run(plan, out / variant, [note] if note else [], ladder)
        done.append(out / variant)
        if outcome.partial or (steps is not None and not steps(config, out)):
            break
    return done, outcome
