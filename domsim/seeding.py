"""Seeds derived from a run's base seed (R-RNG): a game's seed depends on (base seed, game index)
only, and on the run's secret key when it has one (a run with bots in their own process: they
must not work the deals out from a guessed seed, docs/seat-protocol.md); every generator of a
game derives from the game seed and a purpose label."""

from __future__ import annotations

import hashlib
import random
import secrets

from ._core import MatchRng


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any tuple of labels, stable across processes and Python versions."""
    text = "\x1f".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def random_run_seed() -> int:
    """A run seed when none is given: 63 random bits, too many for a bot told its seat's seed to
    find the run's by trying seeds (a small seed such as 1 it could: docs/seat-protocol.md)."""
    return secrets.randbelow(1 << 63)


def new_run_key() -> str:
    """A run's secret key: 128 random bits, as 32 hex digits."""
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
