"""`domsim strategies` lists each strategy's spec parameters with their types and defaults."""

from __future__ import annotations

from clitools import invoke

from domsim.strategy import Strategy, parameter_list


class Tunable(Strategy):
    def __init__(self, depth: int, *, greedy: bool = True, name="x") -> None:
        pass


def test_parameters_are_listed_with_type_and_default():
    assert parameter_list(Tunable) == ("depth: int (required)", "greedy: bool = True",
                                       "name: str = 'x'")


def test_a_strategy_whose_specs_must_give_a_parameter_is_listed_not_an_error(tmp_path):
    """It plays as `FILE?depth=1`: the catalogue lists it, saying the parameter is required,
    and exits 0 (it called it an error that could not be loaded)."""
    bot = tmp_path / "deep.py"
    bot.write_text("from domsim.strategy import Strategy\n\n\nclass Deep(Strategy):\n"
                   "    def __init__(self, *, depth: int) -> None:\n"
                   "        self.depth = depth\n\n"
                   "    def choose(self, view):\n        return view.legal_moves[0]\n")
    result = invoke("strategies", str(bot))
    assert result.exit_code == 0, result.output
    assert "parameters: depth: int (required)" in result.output
    assert "error" not in result.output


def test_the_catalogue_shows_every_weight_of_hard():
    output = invoke("strategies").output
    block = output[output.index("\nhard "):output.index("\ninsane ")]
    for weight in ("shed: float = 1.0", "double: float = 2.0", "stuck: float = 8.0"):
        assert weight in block
    assert block.count(": float = ") == 10
    assert "doubles_first: bool = False" in output
