"""The perft files of core/tests/perft/ (see core/src/perft.rs), recomputed through the Python
bindings: the deals `MatchRng(seed)` makes under `domsim.rules`' presets, the action sequences
of each depth from them (every line of up to PYTHON_NODES sequences; `cargo test` checks the
rest), and the outcomes of random play. R-DEAL, R-LEAD, R-MUST, R-END and each variant's
scoring meet here: a rule that changes changes these numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from domsim.engine import DRAW, PASS, Action, MatchRng, State, start_next_hand
from domsim.rules import VARIANTS, make_rules
from domsim.tiles import tile_name, tiles_of

PERFT = Path(__file__).resolve().parent.parent / "core" / "tests" / "perft"
#: Perft lines counting more sequences than this are left to `cargo test` (Python is slower).
PYTHON_NODES = 5_000
CONFIGS = [(name, players) for name, v in VARIANTS.items() for players in v.player_counts]


def test_there_is_a_perft_file_for_every_variant_and_player_count():
    assert sorted(p.name for p in PERFT.glob("*.perft")) == sorted(
        f"{name}-{players}.perft" for name, players in CONFIGS)
    assert len(CONFIGS) == 16


def perft(state: State, depth: int) -> int:
    """Action sequences of `depth` actions (a forced draw or pass is one) from `state`."""
    if depth == 0:
        return 1
    if state.hand_over:
        return 0
    moves = state.legal_moves()
    if not moves:
        child = state.copy()
        assert child.step_forced()
        return perft(child, depth - 1)
    total = 0
    for move in moves:
        child = state.copy()
        child.play(move)
        total += perft(child, depth - 1)
    return total


def deal_lines(state: State) -> list[str]:
    hands = " | ".join(" ".join(map(tile_name, tiles_of(h))) for h in state.hands)
    return [f"hands {hands}", f"boneyard {' '.join(map(tile_name, state.boneyard))}",
            f"leader {state.leader}"]


def random_lines(rules, seed: int, hands: int) -> list[str]:
    """Random play as core/src/perft.rs plays it: deals from MatchRng(seed), choices from
    MatchRng(seed + 1), a new match once one is decided."""
    deals, picks = MatchRng(seed), MatchRng(seed + 1)
    state = State(rules)
    ends = {"domino": 0, "blocked": 0, "target": 0}
    wins = [0] * rules.players
    points = actions = draws = passes = 0
    for _ in range(hands):
        if state.match_over:
            state = State(rules)
        start_next_hand(state, deals)
        while not state.hand_over:
            if not state.step_forced():
                moves = state.legal_moves()
                state.play(moves[picks.randrange(len(moves))])
        result = state.last_hand_result
        ends[result.end] += 1
        for seat in result.winners:
            wins[seat] += 1
        points += sum(result.points)
        kinds = [Action.of(a).kind for a in state.history]
        actions, draws, passes = (actions + len(kinds), draws + kinds.count(DRAW),
                                  passes + kinds.count(PASS))
    return [f"ends domino {ends['domino']} blocked {ends['blocked']} target {ends['target']}",
            f"wins {' '.join(map(str, wins))}",
            f"actions {actions} draws {draws} passes {passes}", f"points {points}"]


def sections(path: Path) -> list[list[str]]:
    text = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    return [block.splitlines() for block in "\n".join(text).strip().split("\n\n")]


@pytest.mark.parametrize("name, players", CONFIGS)
def test_the_bindings_agree_with_the_perft_file(name, players):
    rules = make_rules(name, players)
    checked = 0
    for lines in sections(PERFT / f"{name}-{players}.perft"):
        kind, seed, *rest = lines[0].split()
        if kind == "deal":
            state = State(rules)
            start_next_hand(state, MatchRng(int(seed)))
            assert lines[1:4] == deal_lines(state)
            for line in lines[4:]:
                _, depth, nodes = line.split()
                if int(nodes) <= PYTHON_NODES:
                    assert perft(state, int(depth)) == int(nodes), line
                    checked += 1
        else:
            assert kind == "random"
            assert lines[1:] == random_lines(rules, int(seed), int(rest[0]))
    assert checked >= 6
