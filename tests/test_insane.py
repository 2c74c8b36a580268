"""The insane level (R-LEVEL): legal, deterministic, blind to hidden tiles (R-VIEW), and its
exact endgame solver."""

from __future__ import annotations

import hashlib
import json
import math
import random
from pathlib import Path

from clitools import invoke, one_line_error
from domsim.strategies.insane import PRESETS, Insane
from domsim.strategies.medium import Medium
from positions import position, tile

from domsim.engine import State, start_next_hand
from domsim.engine.state import PLAY, Action
from domsim.game import play_game, play_hand
from domsim.rules import VARIANTS, make_rules
from domsim.search import CLASSIC_PIP, hand_value, play_out, sample_deals, solve
from domsim.tiles import Tile
from domsim.view import ViewBuilder, move_value

FAST = "insane?samples=8"


def _insane(seed: int) -> Insane:
    bot = Insane(samples=8)
    bot.rng = random.Random(seed)
    return bot


def test_insane_plays_legal_moves_in_every_variant_r_level():
    """One hand of every variant and player count with insane at every seat: play_hand raises
    on any move that is not legal."""
    for name, variant in VARIANTS.items():
        for players in variant.player_counts:
            state = State(make_rules(name, players))
            start_next_hand(state, random.Random(players))
            play_hand(state, [_insane(seat) for seat in range(players)], ViewBuilder())
            assert state.hand_over


def test_insane_is_deterministic_for_a_seed_r_rng():
    """R-RNG: the same seed and parameters replay the same game move for move."""
    rules = make_rules("draw", 2)
    first = play_game(rules, [FAST, "hard"], 11, move_time_limit=None)
    again = play_game(rules, [FAST, "hard"], 11, move_time_limit=None)
    assert first["hands"] == again["hands"]


def test_insane_weighs_deals_by_the_plays_except_in_classic():
    """The default `beta` is 0.4, and 0 (no weighting) in classic: the default replays the
    explicit value's game move for move (lean: the heavy-tile model alone)."""
    for variant, beta in (("draw", 0.4), ("classic", 0.0)):
        rules = make_rules(variant, 2)
        lean = f"{FAST}&preset=lean"
        default = play_game(rules, [lean, "hard"], 7, move_time_limit=None)
        explicit = play_game(rules, [f"{lean}&beta={beta}", "hard"], 7, move_time_limit=None)
        assert default["hands"] == explicit["hands"]


def test_insane_sees_only_the_view_r_view():
    """R-VIEW: two deals that differ only in seat 1's unplayed tiles and the tiles out of play
    give seat 0 the same view, so insane (same generator) makes the same choice."""
    mine = "6-6 5-6 4-6 3-6 2-5 1-4 0-3"
    deals = ("1-6 0-0 0-1 0-2 1-1 1-2 2-2", "1-6 0-4 0-5 1-3 1-5 2-3 2-4")
    choices = set()
    views = set()
    for hidden in deals:
        state = position("block", [mine, hidden], moves="0:6-6")
        state.play(next(m for m in state.legal_moves() if m >> 2 == Tile(1, 6).id))
        view = ViewBuilder().view(state, state.legal_moves())
        views.add((view.hand, view.history, view.hand_counts))
        choices.add(_insane(3).choose(view))
    assert len(views) == 1 and len(choices) == 1


def test_sampled_deals_stand_at_the_views_position():
    """The search's deals have the game's ends, seat to move and fives points, the seat's own
    hand, and the hidden tiles dealt to the right sizes."""
    state = position("fives", ["5-5 0-5 1-1 2-3 4-4 0-0 3-3", "5-6 0-1 1-2 2-2 2-6 3-4 4-6"],
                     boneyard="0-2", moves="0:5-5 1:5-6@0 0:0-5@1")
    view = ViewBuilder().view(state, state.legal_moves())
    for deal, weight in sample_deals(view, 5, seed=1):
        assert deal.ends[:2] == state.ends[:2] and deal.to_move == state.to_move == 1
        assert deal.hand_points == state.hand_points == [10, 0]  # 5-5 led counts 10
        assert deal.hands[1] == state.hands[1] and deal.hand_counts() == state.hand_counts()
        assert weight == 1.0


def test_exact_solver_finds_the_only_way_out_r_end():
    """Block, 2 players, all hands known. Ends 3|4; seat 0 holds 0-3 and 4-6, seat 1 holds
    5-6. 4-6 (the heavier, medium's choice) opens a 6 and seat 1 goes out (seat 0 loses 3);
    0-3 leaves 0|4, seat 1 passes and seat 0 goes out with 4-6, scoring 5-6 = 11 (R-END,
    R-SCORE-BASIC). (The search's choice on this one deal is pinned in
    core/src/search/evaluate.rs.)"""
    state = position("block", ["0-3 4-6", "3-4 5-6"], leader=1, moves="1:3-4")
    values = {}
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        values[str(move_value(move))] = solve(child, 0)
    assert values == {"0-3@0": 11, "4-6@1": -3}
    view = ViewBuilder().view(state, state.legal_moves())
    assert Medium().choose(view).tile == Tile(4, 6)


def test_classic_judge_values_the_win_then_the_pips_r_classic():
    """R-CLASSIC: seat 0 leads 1-1, seat 1 lays 1-2, and neither holds a 1 or a 2 with nothing
    to draw: blocked, the lower hand (seat 0: 3-4, 7 pips, against 5-5, 10) wins. The judge
    gives the win share plus CLASSIC_PIP per pip the other holds more."""
    state = position("classic", ["1-1 3-4", "1-2 5-5"], lead="1-1",
                     moves="0:1-1 1:1-2@0 0:pass 1:pass")
    assert state.hand_over and state.hand_results[-1].winners == (0,)
    assert math.isclose(hand_value(state, 0), 1 + 3 * CLASSIC_PIP)
    assert math.isclose(hand_value(state, 1), -3 * CLASSIC_PIP)


def _minimax(state: State, seat: int) -> float:
    """Plain minimax over the sides, no pruning, no table: the reference for the solver."""
    if state.hand_over:
        return hand_value(state, seat)
    moves = state.legal_moves()
    if not moves:
        child = state.copy()
        child.pass_turn()
        return _minimax(child, seat)
    values = []
    for move in moves:
        child = state.copy()
        child.play(move)
        values.append(_minimax(child, seat))
    mine = state.rules.side_of(state.to_move) == state.rules.side_of(seat)
    return max(values) if mine else min(values)


def test_exact_solver_agrees_with_plain_minimax():
    """Alpha-beta with its transposition table gives minimax's exact value on random endgames
    of the pass-when-stuck games (2 sides)."""
    checked = 0
    for name, players in (("block", 2), ("kozel", 4), ("partnership", 4)):
        rules = make_rules(name, players)
        rng = random.Random(5)
        for _ in range(6):
            state = State(rules)
            start_next_hand(state, rng)
            while not state.hand_over and sum(state.hand_counts()) > 7:
                moves = state.legal_moves()
                state.play(rng.choice(moves)) if moves else state.pass_turn()
            if not state.hand_over:
                assert math.isclose(solve(state, 0), _minimax(state, 0))
                checked += 1
    assert checked >= 10


def _replays_legally(start: State, finished: State) -> None:
    """Every play of `finished` beyond `start`'s history was legal when made (R-MUST)."""
    state = start.copy()
    for action in finished.history[len(start.history):]:
        if Action.of(action).kind == PLAY:
            move = Action.of(action).move
            assert move in state.legal_moves()
            state.play(move)
        elif state.can_draw():
            assert not state.legal_moves()
            state.draw()
        else:
            assert not state.legal_moves()
            state.pass_turn()
    assert state.hands == finished.hands and state.hand_over


def test_playout_policy_plays_only_legal_moves_to_the_end():
    """The playout policy, with its blocking and follow-up terms and random moves, finishes a
    hand of every variant and player count with legal plays only."""
    rng = random.Random(3)
    for name, variant in VARIANTS.items():
        for players in variant.player_counts:
            for seed in range(4):
                state = State(make_rules(name, players))
                start_next_hand(state, rng)
                finished = play_out(state, seed, random_share=0.3, block=4.0, follow=2.0)
                _replays_legally(state, finished)


def test_playouts_replay_their_random_numbers():
    """Common random numbers: every playout of a deal from one seed makes the same random
    choices (the same hand, play for play), and another seed makes different ones."""
    rng = random.Random(4)
    state = State(make_rules("draw", 2))
    start_next_hand(state, rng)
    games = []
    for seed in (1, 2):
        for _ in range(2):
            games.append(play_out(state, seed, random_share=0.5, block=0.0, follow=0.0).history)
    assert games[0] == games[1] and games[2] == games[3] and games[0] != games[2]


def test_playout_policy_prefers_blocking_the_next_seat():
    """Block, ends 3|3 after seat 0 led 3-3 holding 5-5 and 0-0. Seat 1 may lay 3-5 (heavier,
    opens a 5 that seat 0 matches) or 2-3 (opens a 2: seat 0 holds nothing for 2|3). Plain
    heaviest-first lays 3-5; a blocking weight of 4 pips prefers 2-3."""
    state = position("block", ["3-3 5-5 0-0", "3-5 2-3 1-1"], moves="0:3-3")
    chosen = {}
    for block in (0.0, 4.0):
        finished = play_out(state, 0, random_share=0.0, block=block, follow=0.0)
        chosen[block] = str(move_value(Action.of(finished.history[1]).tile << 2))
    assert chosen == {0.0: "3-5@0", 4.0: "2-3@0"}


def test_playout_policy_blocks_on_four_open_ends():
    """Allfives (R-SPINNER), the spinner 6-6 open on all four sides: ends 4, 1, 6, 6. Seat 1
    may lay 6-3 on a short side (heavier, but seat 0 answers with 3-3 or 1-1) or 1-0 on the 1
    (ends 4, 0, 6, 6: seat 0 holds nothing for them). Neither makes a multiple of five. With a
    blocking weight of 10 pips the policy lays 1-0, which takes the fit of the three other ends."""
    state = position("allfives", ["6-6 6-1 3-3 1-1", "6-4 6-3 1-0"], boneyard="5-5 4-4",
                     moves="0:6-6 1:6-4@0 0:6-1@1")
    assert state.n_ends == 4
    chosen = {}
    for block in (0.0, 10.0):
        finished = play_out(state, 0, random_share=0.0, block=block, follow=0.0)
        chosen[block] = Action.of(finished.history[3]).tile
    assert chosen == {0.0: tile("6-3"), 10.0: tile("1-0")}


def test_insane_default_is_the_history_preset_move_for_move():
    """`insane` is `insane?preset=history` (issue 51), and every preset is its parameters:
    giving them explicitly replays the preset's game move for move (the samples by player
    count); model is lean with issue 39's learned model, lean the same search without it."""
    for variant in ("fives", "block", "kozel"):
        rules = make_rules(variant)
        t = PRESETS["lean"].tuning(variant)
        explicit = (f"insane?samples={PRESETS['lean'].samples[rules.players]}&floor={t.floor}"
                    f"&loss={t.loss}&against_cap={int(t.against_cap)}&drop={t.drop}"
                    f"&merge_mirrors={int(t.merge_mirrors)}&exact_tiles={t.exact_tiles}"
                    f"&keyed_stream={int(PRESETS['lean'].keyed_stream)}&preset=v0.2")
        games = [play_game(rules, [spec, "hard"] * (rules.players // 2), 5,
                           move_time_limit=None)["hands"]
                 for spec in ("insane", "insane?preset=history", "insane?preset=model",
                              f"{explicit}&model=1", "insane?preset=lean", f"{explicit}&model=0")]
        assert games[0] == games[1] and games[2] == games[3], variant
        assert games[4] == games[5], variant


V02_GAMES = Path(__file__).parent / "data" / "insane_v0.2_games.json"


def _hands_digest(record: dict) -> str:
    played = {"hands": record["hands"], "result": record["result"]}
    return hashlib.sha256(json.dumps(played, sort_keys=True).encode()).hexdigest()


def test_preset_v02_replays_the_games_of_commit_541f5f4():
    """`insane?preset=v0.2` is insane as it was before issue 25 (commit 541f5f4, 512 deals a
    decision with 2 players, 2,048 with 4, no early stop but for a move clear at 3 standard
    errors): it plays the very games that commit's `insane` played against hard, one per
    variant. tests/data/insane_v0.2_games.json was written by that commit's code and is never
    rewritten: bench/strength.py --versus 'insane?preset=v0.2' measures today's insane on it."""
    pinned = json.loads(V02_GAMES.read_text())
    for variant, digest in pinned["digests"].items():
        rules = make_rules(variant)
        seats = ["insane?preset=v0.2", "hard"] * (rules.players // 2)
        record = play_game(rules, seats, pinned["seed"], move_time_limit=None)
        assert _hands_digest(record) == digest, variant


LEAN_GAMES = Path(__file__).parent / "data" / "insane_lean_games.json"


def _replays_pinned_games(spec: str, path: Path) -> None:
    """`spec` at seats 0 and 2, hard at the others, plays each variant's games of the file's
    seeds as its digests say."""
    pinned = json.loads(path.read_text())
    for variant, digests in pinned["digests"].items():
        rules = make_rules(variant)
        seats = [spec, "hard"] * (rules.players // 2)
        played = [_hands_digest(play_game(rules, seats, seed, move_time_limit=None))
                  for seed in pinned["seeds"]]
        assert played == digests, variant


def test_preset_lean_replays_the_games_of_commit_60428d1():
    """`insane?preset=lean` is insane as issue 39 found it (commit 60428d1: deals weighted by the
    heavy-tile model, beta 0.4): it plays the very games that commit's `insane` played against
    hard, three per variant. tests/data/insane_lean_games.json was written by that code and is
    never rewritten: bench/strength.py --versus 'insane?preset=lean' measures insane on it."""
    _replays_pinned_games("insane?preset=lean", LEAN_GAMES)


MODEL_GAMES = Path(__file__).parent / "data" / "insane_model_games.json"


def test_preset_model_replays_the_games_of_commit_455ac6a():
    """`insane?preset=model` is insane as issue 51 found it (commit 455ac6a: lean whose deals are
    weighted by the 12-feature learned play model): it plays the very games that commit's
    `insane` played against hard, three per variant. tests/data/insane_model_games.json was
    written by that code and is never rewritten: bench/strength.py --versus 'insane?preset=model'
    measures insane on it."""
    _replays_pinned_games("insane?preset=model", MODEL_GAMES)


def test_unknown_preset_is_a_one_line_error():
    one_line_error(invoke("play", "--variant", "block", "-p", "insane?preset=v9", "-p", "easy"),
                   "insane has no preset 'v9': use one of v0.2, lean, model, history")


