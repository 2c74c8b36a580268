"""Determinized search (R-LEVEL insane): every legal move is played out to the end of the hand
on the same sampled deals, and the move with the best average value is chosen.

A deal is a referee `State` at the view's position with the hidden hands filled in. From it a
move is valued by a fast playout (every seat, seeing the whole deal, dumps its heaviest
playable tile, favouring one that shuts out the next seat or keeps a follow-up, now and then a
random one, with the same random numbers for every move on a deal; `Policy`) or, once few
tiles remain, no boneyard is left and the game has two sides, by an exact alpha-beta solver
with a transposition table. Values are in the variant's own currency (`Judge`). Each deal may
be weighted by how likely the other seats' plays were on it (`belief.PlayModel`), and sampling
spends its deals on the moves still in contention: a move clearly beaten by the best is no longer
played out, and sampling stops once one move is left."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from itertools import cycle, product
from statistics import fmean

from .belief import PlayModel, belief_of
from .engine import State
from .rules import Rules
from .tiles import (
    ALL_TILES_MASK,
    IS_DOUBLE,
    N_TILES,
    NUMBER_MASK,
    OTHER_NUMBER,
    PIPS,
    TILE_B,
    mask_pips,
    other_number,
)
from .view import Move, PlayerView, move_int, move_value

#: Share of the target that winning (or losing) the match is worth on top of the hand's points.
MATCH_SHARE = 0.5
#: classic values a hand by its win share, plus this much per pip the others hold more than the
#: seat: the pips are what decides a blocked hand, and they sort the many playouts that a win
#: share alone scores alike.
CLASSIC_PIP = 0.01
#: Samples between two checks for a clear winner, and the paired z-score that stops the search.
BATCH = 8
CLEAR_Z = 3.0
#: Random numbers drawn per deal and replayed in every move's playout on it (common random
#: numbers: the moves' values on a deal then differ by the move, not by the playouts' luck).
STREAM = 64

_HEAVIEST = tuple(PIPS[m >> 2] * 8 + TILE_B[m >> 2] for m in range(28 * 4))


def _fitting(numbers: int) -> int:
    """The tiles showing any number of the bitmask `numbers`."""
    mask = 0
    for n in range(7):
        if numbers >> n & 1:
            mask |= NUMBER_MASK[n]
    return mask


_FITTING = tuple(_fitting(numbers) for numbers in range(128))
#: _OTHER_ENDS_4[((a * 7 + b) * 7 + c) * 7 + d][e]: with four open ends showing a, b, c, d, the
#: tiles fitting the ends other than end e.
_OTHER_ENDS_4 = tuple(
    tuple(_FITTING[sum({1 << ends[i] for i in range(4) if i != e})] for e in range(4))
    for ends in product(range(7), repeat=4)
)
#: _ADDED[tile][number]: what `tile` laid on an end showing `number` adds to the fives count.
_ADDED = tuple(tuple(other_number(t, n) * (2 if IS_DOUBLE[t] else 1) for n in range(7))
               for t in range(N_TILES))


class Judge:
    """The value of a finished hand for one seat, in the variant's currency: its side's points
    minus the others' (kozel: the records against, reversed), classic's win share, and a bonus
    or penalty of `MATCH_SHARE * target` when the hand decides the match (kozel: the goats)."""

    def __init__(self, rules: Rules, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self.side = rules.side_of(seat)
        self.scheme = rules.variant.scoring
        self.bonus = MATCH_SHARE * rules.target

    def __call__(self, state: State) -> float:
        result = state.hand_results[-1]
        if self.scheme == "classic":
            return self._classic(state, result.winners)
        points = result.points
        mine = points[self.side]
        others = (sum(points) - mine) / (len(points) - 1)
        value = others - mine if self.scheme == "kozel" else mine - others
        if state.match_over:
            value += self.bonus if self.seat in state.match_winners else -self.bonus
        return value

    def _classic(self, state: State, winners: tuple[int, ...]) -> float:
        share = 1 / len(winners) if self.seat in winners else 0.0
        pips = [mask_pips(hand) for hand in state.hands]
        mine = pips[self.seat]
        return share + CLASSIC_PIP * ((sum(pips) - mine) / (len(pips) - 1) - mine)


def position(view: PlayerView) -> tuple[State, list[int]]:
    """A referee State at the view's position: the line, the fives points, the scores and the
    seat to move as in the game; every hand holds placeholder tiles until `with_deal`. Also the
    tiles that fitted the open ends before each action of the history."""
    rules = view.rules
    played = [0] * rules.players
    draws = 0
    for event in view.history:
        if event.kind == "play":
            played[event.seat] |= 1 << event.tile.id
        draws += event.kind == "draw"
    # Unplayed tiles in every hand keep hands from emptying while the history is replayed.
    filler = ALL_TILES_MASK & ~sum(played)
    state = State(rules)
    state.carry = view.carry
    state.start_hand([p | filler for p in played], [0] * draws, view.leader)
    fits = []
    for event in view.history:
        fits.append(_FITTING[state.open_numbers()] if fits else ALL_TILES_MASK)
        if event.kind == "play":
            state.play(event.tile.id << 2 | event.end)
        elif event.kind == "draw":
            state.draw()
        else:
            state.pass_turn()
    state.scores = list(view.scores)
    return state, fits


def with_deal(template: State, hands: list[int], boneyard: list[int]) -> State:
    """`template` holding a full deal: every hand, and the boneyard in draw order. Filled in
    place, not copied: the search plays only on copies of a deal."""
    template.hands = hands
    template.boneyard = boneyard if template.draws else []
    template.drawn = 0
    return template


class Policy:
    """How every seat plays in a playout, seeing the whole sampled deal: the tile that scores
    most now in fives games, then the heaviest, plus `block` when the next seat then holds
    nothing for the ends and `follow` when the mover keeps a tile for them; a random legal
    move with probability `random_share`, decided by the random numbers of `new_stream`,
    which every playout replays from the start."""

    def __init__(self, random_share: float, block: float, follow: float) -> None:
        self.random_share = random_share
        self.block = block * 8  # in the units of _HEAVIEST: pips times 8
        self.follow = follow * 8
        self.stream: list[float] = []

    def new_stream(self, rng: random.Random) -> None:
        """Draw the random numbers that the following playouts replay (needed before any
        playout with a random share)."""
        self.stream = [rng.random() for _ in range(STREAM)] if self.random_share else []

    def play_out(self, state: State) -> State:
        """Play `state` to the end of the hand (mutating it) and return it."""
        chance, share = cycle(self.stream).__next__, self.random_share
        block, follow = self.block, self.follow
        fives = state.fives
        hands, ends, next_seat = state.hands, state.ends, state.next_seat

        def choose(moves: list[int]) -> int:
            if len(moves) == 1:
                return moves[0]
            if share and chance() < share:
                return moves[int(chance() * len(moves))]
            if not state.n_ends:  # a lead, when a playout starts a hand: the heaviest tile
                return max(moves, key=_HEAVIEST.__getitem__)
            seat = state.to_move
            hand, after = hands[seat], hands[next_seat[seat]]
            if state.n_ends == 2:
                others = NUMBER_MASK[ends[1]], NUMBER_MASK[ends[0]]
            else:
                others = _OTHER_ENDS_4[((ends[0] * 7 + ends[1]) * 7 + ends[2]) * 7 + ends[3]]
            # In fives games a move's key puts first the points it makes (R-FIVES-COUNT), from
            # the count before it; approximately in spinner games, where a short side opening
            # or the spinner's own count are not followed.
            if fives:
                counts = state.end_counts
                total = sum(counts[:state.n_ends])
            best, best_key = moves[0], -1.0
            for move in moves:
                tile, end = move >> 2, move & 3
                number = ends[end]
                fit = others[end] | NUMBER_MASK[OTHER_NUMBER[tile << 3 | number]]
                key = _HEAVIEST[move]
                if fives:
                    made = total - counts[end] + _ADDED[tile][number]
                    if made % 5 == 0:
                        key += made * 1024
                if not after & fit:
                    key += block
                if hand & ~(1 << tile) & fit:
                    key += follow
                if key > best_key:
                    best, best_key = move, key
            return best

        state.play_out(choose)
        return state


def solvable(state: State, max_tiles: int) -> bool:
    """Whether the exact solver applies: two sides, no spinner, nothing left to draw, and at
    most `max_tiles` tiles in hands."""
    return (state.rules.sides == 2 and not state.rules.variant.spinner
            and not state.can_draw() and sum(state.hand_counts()) <= max_tiles)


class Solver:
    """Exact minimax value of a fully known position for the judge's side (alpha-beta, fail-soft,
    with a transposition table of bounds keyed on the hands, ends, seat to move and passes, and
    in fives the end counts and points made)."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self.table: dict[tuple, tuple[float, float]] = {}
        self.fives = judge.scheme == "fives"
        rules = judge.rules
        self.maximizing = tuple(rules.side_of(seat) == judge.side for seat in range(rules.players))

    def value(self, state: State, alpha: float = -math.inf, beta: float = math.inf) -> float:
        if state.hand_over:
            return self.judge(state)
        key = (*state.hands, *state.ends[:2], state.to_move, state.passes)
        if self.fives:
            key += (*state.end_counts[:2], *state.hand_points)
        low, high = self.table.get(key, (-math.inf, math.inf))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        moves = state.legal_moves()
        if not moves:
            child = state.copy()
            child.pass_turn()
            best = self.value(child, alpha, beta)
        else:
            best = self._search(state, sorted(moves, key=_HEAVIEST.__getitem__, reverse=True),
                                alpha, beta)
        if best <= alpha:
            self.table[key] = (low, best)
        elif best >= beta:
            self.table[key] = (best, high)
        else:
            self.table[key] = (best, best)
        return best

    def _search(self, state: State, moves: list[int], alpha: float, beta: float) -> float:
        maximize = self.maximizing[state.to_move]
        best = -math.inf if maximize else math.inf
        for move in moves:
            child = state.copy()
            child.play(move)
            value = self.value(child, alpha, beta)
            if maximize:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best


class Search:
    """Evaluates moves on a stream of deals. `deals(rng)` returns the next full deal as a State
    at the position to decide (the seat to move being the judge's)."""

    def __init__(self, judge: Judge, *, samples: int, budget_ms: float = 0.0,
                 exact_tiles: int = 7, random_share: float = 0.1, block: float = 0.0,
                 follow: float = 0.0) -> None:
        """`exact_tiles`: solve exactly once at most this many tiles are in hands after the
        move; `budget_ms` (0: none) stops sampling at the first check past it; the rest
        shape the playouts (`Policy`)."""
        self.judge = judge
        self.samples = samples
        self.budget_ms = budget_ms
        self.exact_tiles = exact_tiles
        self.random_share = random_share
        self.block = block
        self.follow = follow

    def best(self, moves: list[int], deals: Callable[[random.Random], tuple[State, float]],
             rng: random.Random) -> int:
        values, weights = self.evaluate(moves, deals, rng)
        means = {i: weighted_mean(row, weights) for i, row in enumerate(values)
                 if len(row) == len(weights)}  # the moves still in contention
        return moves[max(means, key=lambda i: (means[i], _HEAVIEST[moves[i]]))]

    def evaluate(self, moves: list[int], deals: Callable[[random.Random], tuple[State, float]],
                 rng: random.Random) -> tuple[list[list[float]], list[float]]:
        """Per move, its value on each deal drawn while it was in contention (the same deals
        for every move: a move clearly beaten, see `contenders`, is no longer played out, and
        its row stops), and each deal's weight."""
        deadline = time.perf_counter() + self.budget_ms / 1000 if self.budget_ms else math.inf
        values: list[list[float]] = [[] for _ in moves]
        weights: list[float] = []
        active = list(range(len(moves)))
        solver = Solver(self.judge)  # its table holds whole deals, so every deal may share it
        policy = Policy(self.random_share, self.block, self.follow)
        for done in range(1, self.samples + 1):
            base, weight = deals(rng)
            weights.append(weight)
            exact = solvable(base, self.exact_tiles + 1)
            policy.new_stream(rng)
            for i in active:
                child = base.copy()
                child.play(moves[i])
                if exact:
                    values[i].append(solver.value(child))
                else:
                    values[i].append(self.judge(policy.play_out(child)))
            if done % BATCH == 0:
                active = contenders(values, weights, active)
                if len(active) == 1 or time.perf_counter() > deadline:
                    break
        return values, weights


def weighted_mean(values: list[float], weights: list[float]) -> float:
    total = sum(weights)
    if not total:
        return fmean(values)
    return sum(v * w for v, w in zip(values, weights, strict=True)) / total


def contenders(values: list[list[float]], weights: list[float], active: list[int]) -> list[int]:
    """The moves of `active` that the best of them (by weighted mean) does not beat on the same
    deals by more than CLEAR_Z standard errors of the paired difference (over the effective
    sample size): the search spends its deals on these only."""
    total = sum(weights)
    effective = total * total / sum(w * w for w in weights) if total else 0.0
    if effective < 2:
        return active
    best = max(active, key=lambda i: weighted_mean(values[i], weights))
    return [i for i in active
            if i == best or not _beats(values[best], values[i], weights, total, effective)]


def _beats(better: list[float], worse: list[float], weights: list[float], total: float,
           effective: float) -> bool:
    diffs = [a - b for a, b in zip(better, worse, strict=True)]
    mean = weighted_mean(diffs, weights)
    variance = sum(w * (d - mean) ** 2 for d, w in zip(diffs, weights, strict=True)) / total
    return mean > 0 and mean > CLEAR_Z * math.sqrt(variance / (effective - 1))


def choose(view: PlayerView, rng: random.Random, search: Search, beta: float) -> Move:
    """The move of the view's seat found by `search` on deals sampled from its belief, each
    weighted by how likely the other seats' plays were on it (`PlayModel`; beta 0: not)."""
    moves = [move_int(m) for m in view.legal_moves]
    belief = belief_of(view)
    template, fits = position(view)
    model = PlayModel(view, fits, beta) if beta else None
    mine = sum(1 << t.id for t in view.hand)

    def deals(rng: random.Random) -> tuple[State, float]:
        others, rest = belief.sample(rng)
        hands = [mine if seat == view.seat else sum(1 << t for t in others[seat])
                 for seat in range(view.players)]
        return with_deal(template, hands, rest), model.likelihood(hands) if model else 1.0

    return move_value(search.best(moves, deals, rng))
