"""Exact win rates of every pair of many strategies at once (a round robin, both seats).

The same dynamic programming as ``grader.strategy.match.payoff_values``, but
over all ordered pairs of strategies together. ``V[s, i, j]`` is the share of
wins (a never-ending game counting half) of strategy ``i``, to move at state
``s = (a, b)`` (its score ``a``, the opponent's ``b``) against strategy ``j``.
``U[i, s, j] = 1 - V[s, j, i]`` is the same game seen by the player waiting
while ``j`` moves. States are solved by decreasing score sum, as the single-pair
engine does. A state's value is a weighted sum of ``U`` rows: the states its
turn can lead to, weighted by the chances of the turn's points. For one score
sum, every (state, strategy to move) row of every dice count is one row of a
sparse matrix, and the whole sum is one sparse-by-dense product against ``U``
that gives the value against every opponent at once: no Python loop per state
or per pair, only per score sum.

Strategies are split in blocks; a pair of blocks (I, J) needs only its own
``V`` and ``U`` (those of I against J and of J against I), which bounds the
memory at ``2 * (goal² + 1) * block² * 8`` bytes (400 MB for blocks of 50); pairs
of blocks are shared by worker processes.

fa19's Feral Hogs depends on the previous dice counts, which this engine does
not model: ``first_mover_matrix`` plays its blocks with ``grader.contest.dice_count``
(imported only then: it compiles its loop with Numba), the same blocks, shared the same way.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
from typing import Callable, Iterable, Iterator

import numpy as np
from scipy import sparse

from grader.strategy.distributions import MAX_DICE
from grader.strategy.match import roll_arrays
from grader.strategy.rules import Rules

COUNTS = MAX_DICE + 1
BLOCK = 50
NEVER_ENDS_SHARE = 0.5   # a game that never ends counts as half a win, as in ``win_rate``


class _Layout:
    """Per-variant index tables: which state a turn leads to, what a finished game is worth,
    and for each dice count (and parity) the outcomes that have a chance."""

    def __init__(self, rules: Rules):
        goal = self.goal = rules.goal
        lo, probs = roll_arrays(rules)
        width = probs.shape[2]
        top = goal + rules.max_points
        span = top + width
        self.states = goal * goal + 1        # the last one is "the game is over": all zeros
        swaps = np.zeros((goal, span), dtype=bool)
        swaps[:, :top] = np.array(rules.swaps, dtype=bool)
        b, x = np.indices((goal, span))
        inside = x < goal
        swapped_state = np.minimum(x, goal - 1) * goal + b
        plain_state = b * goal + np.minimum(x, goal - 1)
        # source[b, x]: the state the opponent (at b) moves in once the mover's turn ends at x.
        self.source = np.where(inside, np.where(swaps, swapped_state, plain_state), goal * goal)
        finished = np.where(inside | (x >= top), 0.0, (~swaps).astype(float))
        self.zero = np.array(rules.zero_points, dtype=np.intp)
        self.parity = rules.parity_bonus
        # A key is parity * 11 + dice count; a turn's points are offset[key, b] + k, k with a chance.
        weights = probs.reshape(2 * COUNTS, width)
        self.offset = np.where(np.arange(2 * COUNTS)[:, None] % COUNTS == 0, self.zero[None, :],
                               lo.reshape(-1)[:, None])
        nonzero = [np.flatnonzero(row) for row in weights]
        self.count = np.array([len(k) for k in nonzero], dtype=np.intp)
        self.first = np.concatenate(([0], np.cumsum(self.count)[:-1]))
        self.k = np.concatenate(nonzero)
        self.weight = np.concatenate([row[k] for row, k in zip(weights, nonzero)])
        # won[key, a, b]: the chance the mover at a (against b) wins on this turn.
        a_axis, b_axis = np.indices((goal, goal))
        self.won = np.empty((2 * COUNTS, goal, goal))
        for key, row in enumerate(weights):
            ends = (a_axis + self.offset[key, b_axis])[..., None] + np.arange(width)
            self.won[key] = finished[b_axis[..., None], ends] @ row
        self.layers = []
        for total in range(2 * goal - 2, -1, -1):   # from the highest score sum down
            a = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
            self.layers.append((a, total - a))


def _solve_layer(layout: _Layout, a: np.ndarray, b: np.ndarray, choices: np.ndarray,
                 other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values ([l, i, j]) of one score sum (states ``(a[l], b[l])``) for the movers of
    ``choices`` ([i, a, b]), from their ``U`` ([i, s, j]); and which (state, mover)
    entries roll 0 dice for 0 points.

    Row (l, i) of the result is a weighted sum of rows of ``U[i]``: the states the
    turn can lead to, weighted by the chances of its points. All rows of the layer
    are one sparse matrix, so the layer is one sparse-by-dense product.
    """
    movers, states, opponents = other.shape
    n = choices[:, a, b].T                                         # [l, i]
    key = (n + COUNTS * (a & 1)[:, None] if layout.parity else n).ravel()   # rows in (l, i) order
    rows = len(key)
    row_a, row_b = np.repeat(a, movers), np.repeat(b, movers)
    count = layout.count[key]
    pointers = np.concatenate(([0], np.cumsum(count)))
    entry = np.arange(pointers[-1]) + np.repeat(layout.first[key] - pointers[:-1], count)
    ends = np.repeat(row_a + layout.offset[key, row_b], count) + layout.k[entry]
    column = np.repeat(np.tile(np.arange(movers) * states, len(a)), count) \
        + layout.source[np.repeat(row_b, count), ends]
    turn = sparse.csr_matrix((layout.weight[entry], column, pointers), shape=(rows, movers * states))
    values = turn @ other.reshape(movers * states, opponents)
    values += layout.won[key, row_a, row_b][:, None]
    chained = (n == 0) & (layout.zero[b] == 0)[:, None]
    return values.reshape(len(a), movers, opponents), chained


def _follow_chains(layout: _Layout, a: np.ndarray, b: np.ndarray, sides, chains) -> None:
    """A state where the mover rolls 0 dice for 0 points takes the value of where that leads
    (the other player's turn at the same score sum); a loop of such states never ends."""
    goal = layout.goal
    place = {int(state): l for l, state in enumerate(a * goal + b)}
    # The state the opponent moves in after a zero-point turn at (a, b): swapped or not.
    after = np.array([place[int(layout.source[y, x])] for x, y in zip(a, b)], dtype=np.intp)
    fixed = []
    for side in (0, 1):
        l, i = np.nonzero(chains[side])
        if not len(l):
            continue
        columns = sides[side].shape[2]
        j = np.tile(np.arange(columns), len(l))
        l, i = np.repeat(l, columns), np.repeat(i, columns)
        value = np.full(len(l), NEVER_ENDS_SHARE)
        done = np.zeros(len(l), dtype=bool)
        flip, where, mover, opponent, at = False, side, i, j, l
        for _ in range(4):   # a chain visits at most 4 states: 2 players × 2 orders of the scores
            flip, where, at = not flip, 1 - where, after[at]
            mover, opponent = opponent, mover
            ends = ~done & ~chains[where][at, mover]
            reached = sides[where][at, mover, opponent]
            value[ends] = (1.0 - reached[ends]) if flip else reached[ends]
            done |= ends
        fixed.append((side, l, i, j, value))
    for side, l, i, j, value in fixed:
        sides[side][l, i, j] = value


def _waiting(values: np.ndarray) -> np.ndarray:
    """``U[j, l, i] = 1 - V[l, i, j]``: the layer seen by the players who wait."""
    layer, movers, opponents = values.shape
    flipped = np.ascontiguousarray(values.reshape(layer * movers, opponents).T)
    return 1.0 - flipped.reshape(opponents, layer, movers)


_WORKSPACES: dict[int, np.ndarray] = {}


def _workspace(slot: int, shape: tuple[int, int, int]) -> np.ndarray:
    """A ``U`` array, reused from one pair of blocks to the next: touching hundreds of megabytes of
    fresh memory costs more than the products. Every state is written before it is read, except
    the last ("the game is over"), which is zeroed here."""
    size = shape[0] * shape[1] * shape[2]
    if _WORKSPACES.get(slot) is None or _WORKSPACES[slot].size < size:
        _WORKSPACES[slot] = None
        _WORKSPACES[slot] = np.empty(size)
    array = _WORKSPACES[slot][:size].reshape(shape)
    array[:, -1] = 0.0
    return array


def block_pair(layout: _Layout, rows: np.ndarray, columns: np.ndarray | None = None):
    """``(first[i, j], first[j, i])``: strategy ``rows[i]``, moving first from 0-0, against
    ``columns[j]`` (a never-ending game counting half), and columns against rows moving first.
    ``columns=None`` plays the rows against themselves."""
    same = columns is None
    columns = rows if same else columns
    u_rows = _workspace(0, (len(rows), layout.states, len(columns)))
    u_columns = u_rows if same else _workspace(1, (len(columns), layout.states, len(rows)))
    for a, b in layout.layers:
        v_rows, chain_rows = _solve_layer(layout, a, b, rows, u_rows)
        if same:
            sides, chains = [v_rows, v_rows], [chain_rows, chain_rows]
        else:
            v_columns, chain_columns = _solve_layer(layout, a, b, columns, u_columns)
            sides, chains = [v_rows, v_columns], [chain_rows, chain_columns]
        if chains[0].any() or chains[1].any():
            _follow_chains(layout, a, b, sides, chains)
        # The states of one score sum are evenly spaced: a * goal + b = a * (goal - 1) + sum.
        at = slice(a[0] * layout.goal + b[0], a[-1] * layout.goal + b[-1] + 1, layout.goal - 1)
        u_rows[:, at] = _waiting(sides[1])
        if not same:
            u_columns[:, at] = _waiting(sides[0])
    return sides[0][0], sides[1][0]   # the last layer is the state 0-0 alone


def blocks(count: int, block: int) -> list[tuple[slice, slice | None]]:
    """The pairs of blocks of a round robin of ``count`` strategies, blocks of equal size
    at most ``block``; ``(rows, None)`` is a block against itself."""
    parts = -(-count // block) if count else 0
    size = -(-count // parts) if parts else 0
    cuts = [slice(start, min(start + size, count)) for start in range(0, count, size or 1)]
    return [(cuts[x], None if y == x else cuts[y]) for x in range(len(cuts)) for y in range(x, len(cuts))]


_JOB: dict = {}   # what forked workers share: the layout and the choices


def _play(pair: tuple[slice, slice | None]):
    rows, columns = pair
    choices, layout = _JOB["choices"], _JOB["layout"]
    player = block_pair if isinstance(layout, _Layout) else type(layout).block_pair
    return pair, player(layout, choices[rows], None if columns is None else choices[columns])


def layout_for(rules: Rules):
    """The index tables of ``rules`` for the engine that plays them: fa19's dice-count bonus needs
    the previous dice counts (``grader.contest.dice_count``, imported here for start-up time)."""
    if rules.dice_count_bonus:
        from grader.contest import dice_count
        return dice_count.Layout(rules)
    return _Layout(rules)


def play_block(pair: tuple[slice, slice | None], rules: Rules, choices: np.ndarray):
    """One pair of blocks, on a cluster's worker: ``(pair, block_pair(...))``."""
    _JOB.update(layout=_layout_of(rules), choices=choices)
    try:
        return _play(pair)
    finally:
        _JOB.clear()


@functools.lru_cache(maxsize=4)
def _layout_of(rules: Rules):
    return layout_for(rules)


def matchups(pair: tuple[slice, slice | None]) -> int:
    """How many matchups (two strategies, both seats) a pair of blocks settles."""
    rows, columns = pair
    size = rows.stop - rows.start
    return size * (size - 1) // 2 if columns is None else size * (columns.stop - columns.start)


def _told(played: Iterable, advance: Callable[[int], None]) -> Iterator:
    """Each pair of blocks as it is played, ``advance`` given its matchups."""
    for result in played:
        advance(matchups(result[0]))
        yield result


def first_mover_matrix(rules: Rules, choices: np.ndarray, *, block: int = BLOCK, jobs: int = 1,
                       cluster=None, advance: Callable[[int], None] = lambda count: None) -> np.ndarray:
    """``first[i, j]``: the exact share of wins of strategy ``i`` moving first from 0-0
    against strategy ``j`` (a never-ending game counts half), for every ordered pair.

    ``choices[i, a, b]`` is strategy ``i``'s dice count at score ``a`` against ``b``;
    ``jobs`` worker processes share the pairs of blocks, or ``cluster``'s workers
    (a ``grader.classroom.cluster.Cluster``) do. ``advance(count)`` is told the matchups of each pair
    of blocks played (``count * (count - 1) / 2`` in all).
    """
    choices = np.asarray(choices, dtype=np.intp)
    count = choices.shape[0]
    _JOB.update(layout=layout_for(rules), choices=choices)
    first = np.zeros((count, count))
    if cluster is not None:   # about six pairs of blocks per worker, or one slow block sets the pace
        parts = math.ceil(math.sqrt(12 * cluster.workers))
        block = max(1, min(block, -(-count // parts)))
    pairs = sorted(blocks(count, block), key=lambda pair: pair[1] is None)   # the bigger pairs first
    try:
        if cluster is not None:
            played = list(_told(cluster.map(play_block, pairs, rules, choices), advance))
        elif jobs > 1 and len(pairs) > 1:
            context = multiprocessing.get_context("fork")
            with context.Pool(min(jobs, len(pairs))) as pool:
                played = list(_told(pool.imap_unordered(_play, pairs), advance))
        else:
            played = list(_told(map(_play, pairs), advance))
    finally:
        _JOB.clear()
        _WORKSPACES.clear()
    for (rows, columns), (ahead, behind) in played:
        if columns is None:
            first[rows, rows] = ahead
        else:
            first[rows, columns], first[columns, rows] = ahead, behind
    return first


def win_rates(first: np.ndarray) -> np.ndarray:
    """``rate[i, j]``: strategy ``i``'s exact win rate against ``j``, averaged over both seats."""
    return (first + 1.0 - first.T) / 2
