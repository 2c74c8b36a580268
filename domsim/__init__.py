"""domsim: dominoes tournaments and simulation."""

__version__ = "0.2.0"
