"""Properties over random games of every variant and every allowed player count: tiles are
conserved (R-SET, R-DEAL), every action is legal (R-MUST, R-LINE), records replay to the same
game (docs/GAME-RECORD.md), games are reproducible (R-RNG), and views leak nothing and miss nothing
(R-VIEW)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domsim.engine import DRAW, PLAY, State, start_next_hand
from domsim.engine.state import Action
from domsim.game import play_game
from domsim.record import game_record, hand_record, replay_steps, result_dict, verify
from domsim.rules import OPTION_SPECS, VARIANTS, Rules, make_rules
from domsim.tiles import N_TILES, TILE_A, TILE_B, TILES, tiles_of
from domsim.view import Event, ViewBuilder, move_int, move_value

SETUPS = [(name, players) for name, v in VARIANTS.items() for players in v.player_counts]
#: Record fields that measure the run (wall-clock times), not the game; R-RNG cannot fix them.
MEASURED = ("timing",)
MAX_HANDS = 1000  # a guard against a match that never ends; no real match comes close

PROPERTY = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def rules_for(draw, name: str, players: int) -> Rules:
    """The variant with options drawn from those it allows (R-DETAIL); a low target now and then
    makes matches end mid-hand (R-TARGET)."""
    variant = VARIANTS[name]
    options: dict[str, object] = {}
    for key in variant.options:
        _, choices, lowest = OPTION_SPECS[key]
        if key == "target":
            pick = st.sampled_from([variant.target, 10, 50])
        elif choices:
            pick = st.sampled_from(choices)
        else:
            pick = st.sampled_from([lowest, 25])
        options[key] = draw(pick)
    return make_rules(name, players, options)


every_setup = pytest.mark.parametrize("name, players", SETUPS,
                                      ids=[f"{n}-{p}p" for n, p in SETUPS])


# -- invariants checked at every step ----------------------------------------------------------
def assert_conserved(state: State) -> None:
    """R-SET/R-DEAL: hands + line + undrawn boneyard hold each of the 28 tiles exactly once, and
    the tiles drawn are the boneyard's first ones, in order."""
    line = [Action.of(a).tile for a in state.history if Action.of(a).kind == PLAY]
    places = [t for hand in state.hands for t in tiles_of(hand)]
    places += line + state.boneyard[state.drawn:]
    assert sorted(places) == list(range(N_TILES))
    assert len(line) == state.line_count
    drawn = [Action.of(a).tile for a in state.history if Action.of(a).kind == DRAW]
    assert drawn == state.boneyard[:state.drawn]


def brute_force_moves(state: State) -> set[int]:
    """R-LINE, R-LEAD: every (tile, end) the seat to move may play, found tile by tile."""
    hand = tiles_of(state.hands[state.to_move])
    if state.line_count == 0:
        return {t << 2 for t in hand if state.lead_tile < 0 or t == state.lead_tile}
    return {t << 2 | e for t in hand for e in range(state.n_ends)
            if state.ends[e] in (TILE_A[t], TILE_B[t])}


def open_numbers(state: State) -> tuple[int, ...]:
    return tuple(sorted({state.ends[e] for e in range(state.n_ends)}))


# -- R-VIEW ------------------------------------------------------------------------------------
def reshuffled(state: State, seat: int, rng: random.Random) -> State:
    """The same public situation with every tile `seat` cannot see dealt anew: the other hands
    (sizes kept), the undrawn boneyard, and the tiles the others drew and still hold; a
    validated position (`State.from_position`), R-MUST aside: the others' new tiles need not
    be ones they could have held when they drew or passed."""
    others = [s for s in range(state.n) if s != seat]
    unseen = [t for s in others for t in tiles_of(state.hands[s])] + state.boneyard[state.drawn:]
    rng.shuffle(unseen)
    rest = iter(unseen)
    hands = state.hands
    for s in others:
        hands[s] = sum(1 << next(rest) for _ in range(state.hands[s].bit_count()))
    actions = [Action.of(a) for a in state.history]
    played = {a.tile for a in actions if a.kind == PLAY}
    hidden = [a.kind == DRAW and a.seat != seat and a.tile not in played for a in actions]
    held = list(zip(actions, hidden, strict=True))
    kept = {s: iter(rng.sample(list(tiles_of(hands[s])), sum(h and a.seat == s for a, h in held)))
            for s in others}
    actions = [a._replace(tile=next(kept[a.seat])) if h else a for a, h in held]
    drawn = [a.tile for a in actions if a.kind == DRAW]
    return State.from_position(
        state.rules, hands=hands, boneyard=drawn + list(rest),
        leader=state.leader, lead_tile=state.lead_tile, history=[a.bits for a in actions],
        scores=[s - p for s, p in zip(state.scores, state.hand_points, strict=True)],
        carry=state.carry, hand_number=state.hand_number, check_must=False)


def assert_view_hides_the_unseen(state: State, moves: list[int], rng: random.Random) -> None:
    """R-VIEW: a view depends on nothing the seat cannot see."""
    view = ViewBuilder().view(state, moves)
    for _ in range(2):
        world = reshuffled(state, state.to_move, rng)
        assert sorted(world.legal_moves()) == sorted(moves)
        assert ViewBuilder().view(world, moves) == view


def assert_view_is_complete(state: State, moves: list[int], events: list[Event],
                            match_views: ViewBuilder) -> None:
    """R-VIEW: own tiles, the line, every play/draw/pass, the counts, scores and target; the
    match's builder (which keeps events between calls) agrees with a fresh one."""
    view = ViewBuilder().view(state, moves)
    assert match_views.view(state, moves) == view
    rules = state.rules
    seat = state.to_move
    assert view.seat == seat and view.players == rules.players and view.variant == rules.name
    assert sorted(view.hand) == [TILES[t] for t in tiles_of(state.hands[seat])]
    width = 4 if rules.variant.spinner else 2
    assert view.ends == tuple(state.ends[e] if e < state.n_ends else None for e in range(width))
    assert list(view.history) == events
    assert len(view.line) == state.line_count
    plays = [sum(e.seat == s and e.kind == "play" for e in events) for s in range(state.n)]
    draws = [sum(e.seat == s and e.kind == "draw" for e in events) for s in range(state.n)]
    assert list(view.hand_counts) == [rules.hand_size - p + d for p, d in zip(plays, draws,
                                                                             strict=True)]
    assert view.boneyard_count == len(state.boneyard) - sum(draws)
    assert view.can_draw == (rules.variant.draws and view.boneyard_count > 0)
    assert {move_int(m) for m in view.legal_moves} == set(moves) == brute_force_moves(state)
    assert len(view.legal_moves) == len(moves)
    assert view.scores == tuple(state.scores) and len(view.scores) == rules.sides
    assert view.target == rules.target and view.carry == state.carry
    assert view.leader == state.leader and view.hand_number == state.hand_number


# -- the raw State loop ------------------------------------------------------------------------
def play_raw_hand(state: State, rng: random.Random, match_views: ViewBuilder) -> None:
    """Play the current hand with uniformly random legal plays, checking every step."""
    events: list[Event] = []
    while not state.hand_over:
        assert_conserved(state)
        seat = state.to_move
        moves = state.legal_moves()
        assert set(moves) == brute_force_moves(state) and len(set(moves)) == len(moves)
        if moves:
            assert_view_is_complete(state, moves, events, match_views)
            assert_view_hides_the_unseen(state, moves, rng)
            move = rng.choice(moves)
            state.play(move)
            tile = move_value(move).tile
            events.append(Event(seat, "play", tile, move & 3, ()))
            continue
        before = open_numbers(state)
        if state.can_draw():
            assert state.rules.variant.draws
            state.draw()
            events.append(Event(seat, "draw", None, None, before))
            assert state.to_move == seat  # R-MUST: a drawer draws until it can play
        else:
            state.pass_turn()
            events.append(Event(seat, "pass", None, None, before))
    assert_conserved(state)


@every_setup
@PROPERTY
@given(data=st.data(), seed=seeds)
def test_raw_state_loop_keeps_every_invariant(name, players, data, seed):
    """R-SET, R-MUST, R-VIEW over the engine driven directly, then recorded and replayed."""
    rules = data.draw(rules_for(name, players))
    rng = random.Random(seed)
    state = State(rules)
    match_views = ViewBuilder()
    hands = []
    while not state.match_over:
        assert len(hands) < MAX_HANDS
        start_next_hand(state, rng)
        deal = (state.hands[:], state.boneyard[:], state.leader)
        play_raw_hand(state, rng, match_views)
        hands.append(hand_record(*deal, state.history, state.hand_results[-1]))
    record = game_record(rules, ["raw"] * players, seed, hands, state)
    recomputed, problems = verify(record, 0)
    assert problems == []
    assert recomputed == record


# -- play_game and its records -----------------------------------------------------------------
@every_setup
@PROPERTY
@given(data=st.data(), seed=seeds)
def test_play_game_records_replay_to_the_same_game(name, players, data, seed):
    """GAME-RECORD: replay re-applies every action legally, keeps the tiles conserved, and
    recomputes identical results."""
    rules = data.draw(rules_for(name, players))
    record = play_game(rules, ["easy"] * players, seed)
    recomputed, problems = verify(record, 0)
    assert problems == []
    assert recomputed == record

    results = []
    for kind, h, _, state, payload in replay_steps(record, 0):
        if kind == "result":
            results.append(result_dict(payload))
        else:
            assert_conserved(state)
            assert state.hand_number == h
    assert results == [hand["result"] for hand in record["hands"]]
    assert (record["result"]["complete"] is True) == bool(record["result"]["winners"])
    for hand in record["hands"]:
        for action in hand["actions"]:
            if "draw" in action:
                assert set(action) == {"seat", "draw"}


@every_setup
@PROPERTY
@given(data=st.data(), seed=seeds)
def test_same_seed_variant_options_and_strategies_give_the_same_record(name, players, data, seed):
    """R-RNG: the same seed, variant, options and strategies replay the same game; the global
    random generator plays no part."""
    rules = data.draw(rules_for(name, players))
    saved = random.getstate()
    try:
        random.seed(1)
        first = play_game(rules, ["easy"] * players, seed)
        random.seed(2)
        again = play_game(make_rules(name, players, rules.options()), ["easy"] * players, seed)
    finally:
        random.setstate(saved)
    for record in (first, again):
        for key in MEASURED:
            record.pop(key, None)
    assert again == first


def test_draw_events_never_carry_the_tile():
    """R-VIEW: every player sees a draw (who, how many), never which tile."""
    rules = make_rules("draw", 4)
    for seed in range(50):
        rng = random.Random(seed)
        state = State(rules)
        start_next_hand(state, rng)
        while not state.hand_over:
            if not state.step_forced():
                state.play(rng.choice(state.legal_moves()))
        if any(Action.of(a).kind == DRAW for a in state.history):
            break
    draws = [a for a in state.history if Action.of(a).kind == DRAW]
    assert draws
    history = ViewBuilder().view(state, []).history
    drawn = [e for e in history if e.kind == "draw"]
    assert [e.seat for e in drawn] == [Action.of(a).seat for a in draws]
    assert all(e.tile is None and e.end is None and e.open_numbers for e in drawn)
