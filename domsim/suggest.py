"""The name a user probably meant when they mistyped one (a variant, a level, an option, a
setting): "did you mean 'hard'?", or nothing when no name is close."""

from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """`did you mean 'X'? ` for the closest of `choices`, else the empty string."""
    import difflib  # here: only a mistake needs it, and every bot's process loads this module

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}? " if close else ""
