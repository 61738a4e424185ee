"""Exact outcomes of a fa19 game between two given strategies (dice-count bonus on: its Feral Hogs).

The bonus depends on the mover's previous dice count, so a state is (player to
move, mover's score a, other's score b, mover's previous count pm, other's
previous count po). A player's previous count can only be 0 or a count that
player's strategy returns somewhere, which keeps the states few for the usual
strategies. For one (player, a, b, po), the previous counts pm that lead to the
same dice count and the same bonus share one computation.

A strategy is a ``(score, opponent_score)`` table, or a ``DiceCountOptimalStrategy``
which plays with the full state (its ``table`` attribute is the projection).
"""

from __future__ import annotations

import numpy as np

from grader.strategy.distributions import MAX_DICE
from grader.strategy.rules import DICE_COUNT_BONUS, DICE_COUNT_DISTANCE, Rules, roll_arrays
from grader.strategy.tables import Strategy, as_table

COUNTS = MAX_DICE + 1


def strategy_form(strategy: Strategy, goal: int) -> list[list[bytes]]:
    """``form[a][b][pm * 11 + po]``: the dice count in every full state."""
    full = getattr(strategy, "full_table", None)
    if full is None and isinstance(strategy, list) and strategy and strategy[0] \
            and isinstance(strategy[0][0], bytes):
        full = strategy  # already in this form
    if full is not None:
        if len(full) != goal or any(len(row) != goal for row in full):
            raise ValueError(f"the full-state strategy was solved for goal {len(full)}, not {goal}")
        return full
    table = as_table(strategy, goal)
    return [[bytes((n,)) * (COUNTS * COUNTS) for n in row] for row in table]


def expected_payoff(rules: Rules, form0, form1, payoff: tuple[float, float, float],
                    start: tuple[int, int] = (0, 0)) -> float:
    """Expected payoff, player 0 (``form0``) first from ``start`` with no previous
    rolls (counted as 0); see ``match.expected_payoff``.

    States are solved by decreasing score sum, each player's apart: a state's
    value is the dot product of a window of its ``after`` row (payoff once the
    mover, having rolled n against b whose previous count is po, ends the
    turn's points at x) with the distribution of n dice, and one score sum of
    one player is a single gather and ``einsum``.

    One function of ~95 lines on purpose: its blocks (marked by comments) build
    arrays that index one another (states → units → sources → afters), and cut
    apart each piece would take and return a dozen of them.
    """
    if rules.has_zero_point_turns:
        raise ValueError("the dice-count bonus engine needs every turn to score at least one point")
    goal = rules.goal
    lo, probs = roll_arrays(rules)
    width = probs.shape[2]
    flat_probs = probs.reshape(2 * COUNTS, width)
    top = goal + rules.max_points
    row = top + width                                   # the after rows' x axis
    swaps = np.array(rules.swaps, dtype=bool)
    zero = np.array(rules.zero_points, dtype=np.intp)
    blobs = [b"".join(b"".join(cells) for cells in form) for form in (form0, form1)]
    choices = [np.frombuffer(blob, dtype=np.uint8).reshape(goal, goal, COUNTS, COUNTS) for blob in blobs]
    # The counts each strategy uses: a byte search per count (a bincount widened every byte to 8 first).
    used = [np.array([n for n in range(COUNTS) if bytes((n,)) in blob], dtype=np.intp) for blob in blobs]
    # Previous counts a mover can have. Player 0 has no previous roll only at the
    # start (handled apart below); player 1 on its first turn (count 0); and the
    # opponent has always moved, except for player 0 at the start.
    mine = (used[0], np.union1d([0], used[1]))
    theirs = (used[1], used[0])
    slot_mine, slot_theirs, slot_used = (
        [_slots(labels) for labels in group] for group in (mine, theirs, used))
    # Score pairs by decreasing sum; a player's states are (pair, pm, po) in that order.
    pair_a, pair_b = (axis.ravel() for axis in np.indices((goal, goal)))
    order = np.argsort(-(pair_a + pair_b), kind="stable")
    pair_a, pair_b = pair_a[order], pair_b[order]
    pair_at = np.empty(goal * goal, dtype=np.intp)
    pair_at[order] = np.arange(goal * goal)
    pair_at = pair_at.reshape(goal, goal)
    bounds = np.searchsorted(-(pair_a + pair_b), np.arange(-(2 * goal - 2), 1)).tolist() + [goal * goal]
    per_pair = [len(mine[p]) * len(theirs[p]) for p in (0, 1)]
    filled_per_pair = [len(theirs[p]) * len(used[p]) for p in (0, 1)]
    # A state's value only depends on (score pair, po, n, lucky): states that share
    # them share one unit of work, numbered in score-pair order.
    units, unit_bounds, starts, rows = [], [], [], []
    for p in (0, 1):
        a, b = pair_a[:, None, None], pair_b[:, None, None]
        pm, po = mine[p][None, :, None], theirs[p][None, None, :]
        n = choices[p][a, b, pm, po].astype(np.intp)
        lucky = np.abs(n - pm) == DICE_COUNT_DISTANCE
        key = ((np.arange(goal * goal)[:, None, None] * len(theirs[p]) + slot_theirs[p][po]) * COUNTS
               + n) * 2 + lucky
        mark = np.zeros(goal * goal * len(theirs[p]) * COUNTS * 2, dtype=bool)
        mark[key] = True
        keys = np.flatnonzero(mark)
        counted = np.cumsum(mark, dtype=np.int32)   # 32 bits: half the memory a default count sweeps
        counted -= 1
        units.append(counted[key].ravel())          # state -> unit
        rest, lucky = np.divmod(keys, 2)
        rest, n = np.divmod(rest, COUNTS)
        pair, slot = np.divmod(rest, len(theirs[p]))
        a, b = pair_a[pair], pair_b[pair]
        points = np.where(n == 0, zero[b], lo[a & 1, n]) + DICE_COUNT_BONUS * lucky
        line = (b * len(theirs[p]) + slot) * len(used[p]) + slot_used[p][n]
        starts.append(line * row + a + points)
        rows.append((a & 1) * COUNTS + n)
        unit_bounds.append(np.searchsorted(pair, bounds).tolist())
    afters, windows, filled, sources = [], [], [], []
    for p in (0, 1):
        after = np.zeros((goal, len(theirs[p]), len(used[p]), row))
        after[..., goal:top] = np.where(swaps[:, None, None, goal:], payoff[1 - p], payoff[p])
        after = after.ravel()
        afters.append(after)
        windows.append(np.lib.stride_tricks.sliding_window_view(after, width))
        # after[b, po, n, x] for each score pair (x, b) is the other player's state
        # after the swap check, with previous counts (po, n).
        x, b = pair_a[:, None, None], pair_b[:, None, None]
        po, n = theirs[p][None, :, None], used[p][None, None, :]
        q = 1 - p
        pair = np.where(swaps[b, x], pair_at[x, b], pair_at[b, x])
        state = pair * per_pair[q] + slot_mine[q][po] * len(theirs[q]) + slot_theirs[q][n]
        sources.append(units[q][state.ravel()])
        filled.append((((b * len(theirs[p]) + slot_theirs[p][po]) * len(used[p]) + slot_used[p][n]) * row
                       + x).ravel())
    values = [np.zeros(len(starts[p])) for p in (0, 1)]
    for total in range(2 * goal - 2, sum(start) - 1, -1):
        step = 2 * goal - 2 - total
        for p in (0, 1):
            cut = slice(unit_bounds[p][step], unit_bounds[p][step + 1])
            values[p][cut] = np.einsum("sk,sk->s", windows[p][starts[p][cut]], flat_probs[rows[p][cut]])
        for p in (0, 1):
            cut = slice(bounds[step] * filled_per_pair[p], bounds[step + 1] * filled_per_pair[p])
            afters[p][filled[p][cut]] = values[1 - p][sources[p][cut]]

    def second(a, b, n):   # player 1 to move at (a, b), no previous roll, player 0 rolled n
        state = pair_at[a, b] * per_pair[1] + slot_mine[1][0] * len(theirs[1]) + slot_theirs[1][n]
        return values[1][units[1][state]]

    return _first_turn(rules, form0[start[0]][start[1]][0], start, second, payoff)


def _slots(labels) -> np.ndarray:
    """``slots[count]``: the place of a dice count among ``labels`` (0 where absent)."""
    slots = np.zeros(COUNTS, dtype=np.intp)
    slots[labels] = np.arange(len(labels))
    return slots


def _first_turn(rules: Rules, n: int, start: tuple[int, int], second, payoff) -> float:
    """Player 0's first turn from ``start``: previous counts 0 for both players."""
    goal, (a, b) = rules.goal, start
    bonus = DICE_COUNT_BONUS if abs(n) == DICE_COUNT_DISTANCE else 0
    if n == 0:
        outcomes = [(1.0, rules.zero_points[b])]
    else:
        lo, probs = rules.rolls[a & 1][n]
        outcomes = [(p, lo + i) for i, p in enumerate(probs)]
    total = 0.0
    for probability, points in outcomes:
        x = a + points + bonus
        if rules.swaps[b][x]:
            worth = payoff[1] if x >= goal else second(x, b, n)   # player 1: previous 0, opponent's n
        else:
            worth = payoff[0] if x >= goal else second(b, x, n)
        total += probability * worth
    return float(total)
