"""The base of every error domsim raises to a user: `except domsim.DomsimError` catches a rule
set, option, deal or move the rules refuse (RulesError), a bad spec or strategy, setting, time
control, scenario, record, run folder, study folder, bot sandbox or seat-protocol message, each
with a one-line message. It is a ValueError, as each of them was, and it is the Rust core's, so
that the rules' errors, raised there, sit under it too."""

from ._core import DomsimError

__all__ = ["DomsimError"]
