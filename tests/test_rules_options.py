"""Variants, player counts and options (R-DETAIL option names and values, targets per variant):
what make_rules accepts and what it refuses."""

import re

import pytest

from domsim.rules import VARIANTS, RulesError, make_rules, parse_options


@pytest.mark.parametrize(("variant", "target"), [
    ("draw", 100), ("block", 100), ("fives", 150), ("allfives", 150), ("kozel", 101),
    ("partnership", 100), ("partnership-1v1", 100),
])
def test_r_detail_default_targets(variant, target):
    """R-SCORE-BASIC, R-FIVES, R-SPINNER, R-KOZEL, R-PARTNERSHIP, R-PARTNERSHIP-1V1 targets."""
    assert make_rules(variant).target == target


def test_r_classic_has_no_target():
    assert make_rules("classic").target == 0


def test_eight_rule_sets():
    assert set(VARIANTS) == {"draw", "block", "fives", "allfives", "classic", "kozel",
                             "partnership", "partnership-1v1"}


@pytest.mark.parametrize(("variant", "players"), [
    ("draw", 2), ("block", 2), ("fives", 2), ("allfives", 2), ("classic", 2), ("kozel", 4),
    ("partnership", 4), ("partnership-1v1", 2),
])
def test_default_player_count_is_the_smallest(variant, players):
    assert make_rules(variant).players == players


@pytest.mark.parametrize("variant", ["draw", "block", "fives", "allfives", "kozel",
                                     "partnership", "partnership-1v1"])
def test_r_detail_target_overridable(variant):
    assert make_rules(variant, None, {"target": 250}).target == 250
    assert make_rules(variant, None, {"target": "75"}).target == 75  # as the CLI passes it


def test_r_partnership_options_accepted():
    rules = make_rules("partnership", 4, {"capicu_bonus": "25", "count": "losers",
                                          "fish": "maker", "lead": "fid", "target": 50})
    assert (rules.capicu_bonus, rules.count, rules.fish, rules.lead, rules.target) == (
        25, "losers", "maker", "fid", 50)
    assert rules.options() == {"target": 50, "capicu_bonus": 25, "count": "losers",
                               "fish": "maker", "lead": "fid"}


def test_rules_options_lists_only_changes():
    rules = make_rules("partnership", 4, {"target": 100, "count": "losers", "capicu_bonus": 0})
    assert rules.options() == {"count": "losers"}


@pytest.mark.parametrize(("variant", "players", "options", "words"), [
    ("kozel", 2, {}, 'kozel is played by 4 players, not 2'),  # kozel is 4 players only
    ("kozel", 3, {}, 'kozel is played by 4 players, not 3'),
    ("partnership", 2, {}, 'partnership is played by 4 players, not 2'),
    ("fives", 4, {}, 'fives is played by 2 players, not 4'),
    ("nosuchgame", None, {}, "unknown variant 'nosuchgame': choose one of draw,"),
    ("draw", 2, {"colour": "red"},  # unknown option
     "draw has no option 'colour' (options: target)"),
    ("draw", 2, {"capicu_bonus": 25},  # partnership options belong to partnership only
     "draw has no option 'capicu_bonus' (options: target)"),
    ("kozel", 4, {"count": "losers"}, "kozel has no option 'count' (options: target)"),
    ("block", 2, {"lead": "fid"}, "block has no option 'lead' (options: target)"),
    ("fives", 2, {"fish": "maker"}, "fives has no option 'fish' (options: target)"),
    ("classic", 2, {"target": 10},  # classic is one hand without points
     "classic has no option 'target' (options: none)"),
    ("draw", 2, {"target": 0}, 'option target=0 must be an integer from 1 to 1000000'),
    ("draw", 2, {"target": -5}, 'option target=-5 must be an integer from 1 to 1000000'),
    ("kozel", 4, {"target": 0}, 'option target=0 must be an integer from 1 to 1000000'),
    ("draw", 2, {"target": "abc"}, "option target='abc' must be an integer >= 1"),
    ("draw", 2, {"target": "1.5"}, "option target='1.5' must be an integer >= 1"),
    ("partnership", 4, {"capicu_bonus": -1},
     'option capicu_bonus=-1 must be an integer from 0 to 1000000'),
    ("partnership", 4, {"capicu_bonus": "many"},
     "option capicu_bonus='many' must be an integer >= 0"),
    ("partnership", 4, {"count": "winners"},
     "option count='winners' is not allowed: use one of all, losers"),
    ("partnership", 4, {"fish": "heavier"},
     "option fish='heavier' is not allowed: use one of lower, maker"),
    ("partnership", 4, {"lead": "random"},
     "option lead='random' is not allowed: use one of winner, fid"),
])
def test_r_detail_make_rules_refuses(variant, players, options, words):
    """R-DETAIL: option names and values; anything else is refused with a one-line error that
    says why."""
    with pytest.raises(RulesError, match=re.escape(words)) as caught:
        make_rules(variant, players, options)
    assert "\n" not in str(caught.value)


def test_r_detail_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


def test_parse_options_key_value_pairs():
    assert parse_options(["target=200", "count = losers"]) == {"target": "200",
                                                               "count": "losers"}
    with pytest.raises(RulesError, match="option 'target' must be written KEY=VALUE"):
        parse_options(["target"])
    with pytest.raises(RulesError, match="option '=5' must be written KEY=VALUE"):
        parse_options(["=5"])
