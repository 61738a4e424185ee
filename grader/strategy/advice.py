"""Where a strategy table gains the most by rolling another number of dice: the states its own games reach,
weighted by how often they reach them, and the exact gain in win rate of changing that one choice.

A first-order estimate ranks every (state, dice count) pair: how often the strategy's games (going first
and going second, half each) reach the state with the strategy to move, times how much more often it
wins from there by rolling the other count once. The best few are then rated exactly, each table with
its one choice changed, by the engine's own win rate (``grader.strategy.match``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grader.strategy import match
from grader.strategy.rules import COUNTS, Rules, roll_arrays
from grader.strategy.tables import Table, always_roll_table

RATED = 6   # candidates rated exactly


@dataclass(frozen=True)
class Change:
    score: int            # the strategy's score
    opponent_score: int
    rolls: int            # what the strategy rolls there
    better: int           # the count that gains the most
    gain: float           # the exact gain in average win rate against the baseline


def _one_step(rules: Rules, values: np.ndarray) -> np.ndarray:
    """``q[a, b, n]``: the chance the strategy (player 0) wins when it moves at (a, b), rolls ``n`` once and
    then follows its table (``values`` as ``match.payoff_values`` gives them)."""
    goal = rules.goal
    lo, probs = roll_arrays(rules)
    top = goal + rules.max_points + probs.shape[2]
    swaps = np.zeros((goal, top), dtype=bool)
    swaps[:, :len(rules.swaps[0])] = np.array(rules.swaps, dtype=bool)
    mine_after = np.zeros((goal, top))   # [b, x]: the strategy ends its turn's points at x against b
    for b in range(goal):
        for x in range(top):
            if x >= goal:
                mine_after[b, x] = 0.0 if swaps[b, x] else 1.0
            elif swaps[b, x]:
                mine_after[b, x] = values[1, x, b]   # the scores trade: the opponent (at x) moves against b
            else:
                mine_after[b, x] = values[1, b, x]
    q = np.zeros((goal, goal, COUNTS))
    zero = np.array(rules.zero_points)
    for a in range(goal):
        parity = a & 1
        for n in range(COUNTS):
            if n == 0:
                q[a, :, 0] = mine_after[np.arange(goal), a + zero]
                continue
            width = probs.shape[2]
            window = mine_after[:, a + lo[parity, n]:a + lo[parity, n] + width]
            q[a, :, n] = window @ probs[parity, n]
    return q


def _reach(rules: Rules, tables: np.ndarray) -> np.ndarray:
    """``reach[p, a, b]``: the expected number of times a game (half going first, half going second) is at
    the state with player ``p`` (0: the strategy) to move at ``a`` against ``b``. A turn that scores nothing
    (rolling zero dice for 0 points) is counted once: its state comes back, the sum of the scores does not
    grow, and such loops are left out of the estimate (the exact rating that follows counts them)."""
    goal = rules.goal
    lo, probs = roll_arrays(rules)
    width = probs.shape[2]
    top = goal + rules.max_points + width
    swaps = np.zeros((goal, top), dtype=bool)
    swaps[:, :len(rules.swaps[0])] = np.array(rules.swaps, dtype=bool)
    zero = np.array(rules.zero_points, dtype=np.intp)
    reach = np.zeros((2, goal, goal))
    reach[0, 0, 0] = reach[1, 0, 0] = 0.5
    player, mover, other = (axis.ravel() for axis in np.indices((2, goal, goal)))
    by_sum = np.argsort(mover + other, kind="stable")
    sums = (mover + other)[by_sum]
    bounds = np.searchsorted(sums, np.arange(2 * goal))
    offsets = np.arange(width)
    for total in range(2 * goal - 1):
        chosen = by_sum[bounds[total]:bounds[total + 1]]
        p, a, b = player[chosen], mover[chosen], other[chosen]
        mass = reach[p, a, b]
        keep = mass > 0
        if not keep.any():
            continue
        p, a, b, mass = p[keep], a[keep], b[keep], mass[keep]
        n = tables[p, a, b]
        first = a + np.where(n == 0, zero[b], lo[a & 1, n])
        x = first[:, None] + offsets[None, :]
        chance = probs[a & 1, n] * mass[:, None]
        live = (chance > 0) & (x < goal) & (x > a[:, None])
        rows, columns = np.nonzero(live)
        xs, bs, ps = x[rows, columns], b[rows], p[rows]
        swapped = swaps[bs, xs]
        np.add.at(reach, (1 - ps, np.where(swapped, xs, bs), np.where(swapped, bs, xs)), chance[rows, columns])
    return reach


def best_changes(rules: Rules, table: Table, count: int = 3) -> list[Change]:
    """The ``count`` single changes of ``table`` that gain the most exact average win rate, best first (only
    gains above zero)."""
    goal = rules.goal
    ranking = rules if not rules.dice_count_bonus else Rules(**{**rules.__dict__, "dice_count_bonus": False})
    baseline = always_roll_table(rules.baseline, goal)
    mine = np.array(table, dtype=np.intp)
    values = match.payoff_values(ranking, table, baseline, [(1.0, 0.0, 0.5)])[..., 0]
    q = _one_step(ranking, values)
    reach = _reach(ranking, np.array([mine, np.array(baseline, dtype=np.intp)]))
    chosen = np.take_along_axis(q, mine[..., None], axis=2)[..., 0]
    estimate = reach[0][..., None] * (q - chosen[..., None])
    flat = np.argsort(-estimate, axis=None)[:RATED * COUNTS]
    before = match.win_rate(rules, table).average
    changes, seen = [], set()
    for index in flat.tolist():
        if len(seen) == RATED:
            break
        a, b, n = np.unravel_index(index, estimate.shape)
        if estimate[a, b, n] <= 0:
            break
        if (a, b) in seen:
            continue
        seen.add((a, b))
        changed = [list(row) for row in table]
        changed[a][b] = int(n)
        gain = match.win_rate(rules, changed).average - before
        if gain > 0:
            changes.append(Change(int(a), int(b), int(table[a][b]), int(n), gain))
    return sorted(changes, key=lambda change: -change.gain)[:count]
