"""Exact win rates of every pair of many strategies at once (a round robin, both seats).

The same dynamic programming as ``grader.strategy.match.payoff_values``, but
over all ordered pairs of strategies together. ``V[s, i, j]`` is the share of
wins (a never-ending game counting half) of strategy ``i``, to move at state
``s = (a, b)`` (its score ``a``, the opponent's ``b``) against strategy ``j``.
``U[s, i, j] = 1 - V[s, j, i]`` is the same game seen by the player waiting
while ``j`` moves. States are solved by decreasing score sum; within one sum,
the states and strategies that roll the same number of dice (and, where the
dice depend on it, the same score parity) are one gather from ``U`` and one
``einsum`` with that dice distribution, for all opponents at once.

Strategies are split in blocks; a pair of blocks (I, J) needs only its own
``V`` and ``U`` (those of I against J and of J against I), which bounds the
memory at ``2 * (goal² + 1) * block² * 8`` bytes.

fa19's Feral Hogs depends on the previous dice counts, which this engine does
not model: ``round_robin`` falls back to one exact ``win_rate`` per pair there.
"""

from __future__ import annotations

import numpy as np

from grader.strategy.distributions import MAX_DICE
from grader.strategy.match import roll_arrays, win_rate
from grader.strategy.rules import Rules

COUNTS = MAX_DICE + 1
BLOCK = 40
NEVER_ENDS_SHARE = 0.5   # a game that never ends counts as half a win, as in ``win_rate``


class _Layout:
    """Per-variant index tables: which states a turn leads to, and what a finished game is worth."""

    def __init__(self, rules: Rules):
        goal = self.goal = rules.goal
        lo, probs = roll_arrays(rules)
        self.lo, self.probs = lo, probs
        width = probs.shape[2]
        top = goal + rules.max_points
        span = top + width
        self.zero_row = goal * goal
        swaps = np.zeros((goal, span), dtype=bool)
        swaps[:, :top] = np.array(rules.swaps, dtype=bool)
        b, x = np.indices((goal, span))
        inside = x < goal
        swapped_state = np.minimum(x, goal - 1) * goal + b
        plain_state = b * goal + np.minimum(x, goal - 1)
        self.source = np.where(inside, np.where(swaps, swapped_state, plain_state), self.zero_row)
        self.finished = np.where(inside | (x >= top), 0.0, (~swaps).astype(float))
        self.zero = np.array(rules.zero_points, dtype=np.intp)
        self.parity = rules.parity_bonus
        self.layers = [[(a, total - a) for a in range(max(0, total - goal + 1), min(total, goal - 1) + 1)]
                       for total in range(2 * goal - 1)]

    def window(self, parity: int, n: int) -> np.ndarray:
        """The nonzero-width distribution of ``n`` dice (n ≥ 1) for a mover of that parity."""
        row = self.probs[parity, n]
        return row[:np.flatnonzero(row)[-1] + 1]


def _solve_layer(layout: _Layout, layer, choices: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values of one score sum for the movers of ``choices`` ([i, a, b]) against ``other``'s
    ``U`` ([s, i, j]); and which (state, mover) entries roll 0 dice for 0 points."""
    a = np.array([state[0] for state in layer], dtype=np.intp)
    b = np.array([state[1] for state in layer], dtype=np.intp)
    movers = choices.shape[0]
    n = choices[:, a, b].T                                         # [l, i]
    parity = (a & 1)[:, None] * np.ones_like(n) if layout.parity else np.zeros_like(n)
    values = np.empty((len(layer), movers, other.shape[2]))
    chained = (n == 0) & (layout.zero[b] == 0)[:, None]
    group = parity * COUNTS + n
    for key in np.unique(group).tolist():
        rows, mover = np.nonzero(group == key)
        par, count = divmod(key, COUNTS)
        if count == 0:
            weights = np.ones(1)
            start = a[rows] + layout.zero[b[rows]]
        else:
            weights = layout.window(par, count)
            start = a[rows] + layout.lo[par, count]
        xs = start[:, None] + np.arange(len(weights))               # [r, k]
        opponent = b[rows][:, None]
        gathered = other[layout.source[opponent, xs], mover[:, None], :]    # [r, k, j]
        finished = layout.finished[opponent, xs] @ weights
        values[rows, mover] = np.einsum("rkj,k->rj", gathered, weights) + finished[:, None]
    return values, chained


def _follow_chains(layout: _Layout, layer, sides, chains) -> None:
    """A state where the mover rolls 0 dice for 0 points takes the value of where that leads
    (the other player's turn at the same score sum); a loop of such states never ends."""
    goal = layout.goal
    index = {state: l for l, state in enumerate(layer)}
    # The state the opponent moves in after a zero-point turn at (a, b): swapped or not.
    after = np.array([index[(a, b)] if layout.source[b, a] == a * goal + b else index[(b, a)]
                      for a, b in layer], dtype=np.intp)
    fixed = []
    for side in (0, 1):
        l, i = np.nonzero(chains[side])
        if not len(l):
            continue
        columns = sides[side].shape[2]
        l = np.repeat(l, columns)
        i = np.repeat(i, columns)
        j = np.tile(np.arange(columns), len(l) // columns)
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


def _block_pair(layout: _Layout, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``first[i, j]``: strategy ``rows[i]``, moving first from 0-0, against ``columns[j]``
    (the share of wins, a never-ending game counting half); and the same for columns against rows."""
    goal = layout.goal
    same = rows is columns
    states = goal * goal + 1
    u_rows = np.zeros((states, len(rows), len(columns)))          # rows to move next... seen by rows
    u_columns = u_rows if same else np.zeros((states, len(columns), len(rows)))
    for layer in reversed(layout.layers):
        at = np.array([a * goal + b for a, b in layer], dtype=np.intp)
        v_rows, chain_rows = _solve_layer(layout, layer, rows, u_rows)
        if same:
            sides, chains = [v_rows, v_rows], [chain_rows, chain_rows]
        else:
            v_columns, chain_columns = _solve_layer(layout, layer, columns, u_columns)
            sides, chains = [v_rows, v_columns], [chain_rows, chain_columns]
        if layout.zero.min() == 0 and (chains[0].any() or chains[1].any()):
            _follow_chains(layout, layer, sides, chains)
        # u_rows[s, i, j] is what i gets when j is to move at s: 1 - V[s, j, i].
        u_rows[at] = 1.0 - sides[1].transpose(0, 2, 1)
        if not same:
            u_columns[at] = 1.0 - sides[0].transpose(0, 2, 1)
    start = layout.layers[0].index((0, 0))
    return sides[0][start], sides[1][start]


def first_mover_matrix(rules: Rules, choices: np.ndarray, *, block: int = BLOCK) -> np.ndarray:
    """``first[i, j]``: the exact share of wins of strategy ``i`` moving first from 0-0
    against strategy ``j`` (a never-ending game counts half), for every ordered pair.

    ``choices[i, a, b]`` is strategy ``i``'s dice count at score ``a`` against ``b``.
    """
    choices = np.asarray(choices, dtype=np.intp)
    count = choices.shape[0]
    if rules.feral_hogs:
        return _pair_by_pair(rules, choices)
    layout = _Layout(rules)
    first = np.zeros((count, count))
    starts = list(range(0, count, block))
    for x, top in enumerate(starts):
        for left in starts[x:]:
            rows = slice(top, top + block)
            columns = slice(left, left + block)
            if top == left:
                mine = choices[rows]
                first[rows, columns], _ = _block_pair(layout, mine, mine)
            else:
                first[rows, columns], first[columns, rows] = _block_pair(layout, choices[rows], choices[columns])
    return first


def _pair_by_pair(rules: Rules, choices: np.ndarray) -> np.ndarray:
    """One exact ``win_rate`` per unordered pair (fa19: the state holds previous dice counts)."""
    count = choices.shape[0]
    first = np.zeros((count, count))
    tables = [choice.tolist() for choice in choices]
    for i in range(count):
        for j in range(i, count):
            rate = win_rate(rules, tables[i], tables[j])
            first[i, j] = rate.as_first
            first[j, i] = 1.0 - rate.as_second
    return first


def win_rates(first: np.ndarray) -> np.ndarray:
    """``rate[i, j]``: strategy ``i``'s exact win rate against ``j``, averaged over both seats."""
    return (first + 1.0 - first.T) / 2
