"""The built-in strategy levels (installed as `domsim.strategies`) and examples to copy."""
