"""Seeds derived from a run's base seed (R-RNG): a game's seed depends on (base seed, game index)
only, and on the run's secret key when it has one (a run with bots in their own process: they
must not work the deals out from a guessed seed, docs/seat-protocol.md); every generator of a
game derives from the game seed and a purpose label."""

from __future__ import annotations

import hashlib
import random
import re
import secrets

from ._core import MatchRng


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any tuple of labels, stable across processes and Python versions."""
    text = "\x1f".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def run_seed(given: int | None) -> int:
    """The seed a new run deals from (a tourney, a study, one game: the one place it is drawn):
    `given`, else 63 random bits, too many for a bot told its seat's seed to find the run's by
    trying seeds (a small seed such as 1 it could: `run_key` is what guards a given seed)."""
    return secrets.randbelow(1 << 63) if given is None else given


def is_run_key(text: object) -> bool:
    """Whether `text` is a run key as `run_key` draws them (and a manifest keeps them)."""
    return isinstance(text, str) and re.fullmatch(r"[0-9a-f]{32}", text) is not None


def run_key(given: str | None, bots_out_of_process: bool) -> str | None:
    """A new run's secret key: `given` (a rerun's), else, where a bot plays in its own process,
    128 fresh random bits as 32 hex digits, mixed into every game seed (`game_seed`), so that
    no bot works the deals out from the seed however small; else none (the seeds of old)."""
    if given is not None or not bots_out_of_process:
        return given
    return secrets.token_hex(16)


def game_seed(base_seed: int, game_index: int, run_key: str | None = None) -> int:
    """Without a key, as every domsim before keys dealt; with one, a seed no one without the key
    can compute, whatever the base seed."""
    if run_key is None:
        return derive_seed("game", base_seed, game_index)
    return derive_seed("game", base_seed, game_index, run_key)


def deal_rng(seed: int) -> MatchRng:
    """The match generator: shuffles and lots, nothing else, so the deals never depend on play.
    The core's MT19937, the same bits as `random.Random` of the same seed."""
    return MatchRng(derive_seed("deal", seed))


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the generator of the strategy at `seat` of the game seeded `seed`: a one-way
    hash, so a bot told it (the seat protocol's `game` message) cannot recover the game's seed."""
    return derive_seed("seat", seed, seat)


def seat_rng(seed: int, seat: int) -> random.Random:
    """The generator domsim hands to the strategy at `seat`."""
    return random.Random(seat_seed(seed, seat))
