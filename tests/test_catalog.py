"""`domsim strategies` lists each strategy's spec parameters with their types and defaults."""

from __future__ import annotations

from clitools import invoke

from domsim.strategy import Strategy, parameter_list


class Tunable(Strategy):
    def __init__(self, depth: int, *, greedy: bool = True, name="x") -> None:
        pass


def test_parameters_are_listed_with_type_and_default():
    assert parameter_list(Tunable) == ("depth: int", "greedy: bool = True", "name: str = 'x'")


def test_the_catalogue_shows_every_weight_of_hard():
    output = invoke("strategies").output
    block = output[output.index("\nhard "):output.index("\ninsane ")]
    for weight in ("shed: float = 1.0", "double: float = 2.0", "stuck: float = 8.0"):
        assert weight in block
    assert block.count(": float = ") == 10
    assert "doubles_first: bool = False" in output
