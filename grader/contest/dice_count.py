"""Exact round robin under fa19's dice-count bonus (its Feral Hogs), every pair of a block at once.

The bonus depends on each player's previous dice count, so ``grader.contest.engine``'s
state (the two scores) is not enough. Here a state of a game between strategies ``i``
and ``j`` is the mover's score ``a``, the other's ``b``, whether the mover's count at
``(a, b)`` is ``DICE_COUNT_DISTANCE`` away from its previous one (``lucky``: the bonus
applies) and the other player's previous count ``po``. That is 2 × 11 states per score
pair instead of the 11 × 11 of (previous count, previous count): the mover's previous
count matters only through ``lucky``.

``W[m, a, b, po, lucky]`` (stored as ``values[m, po, a * goal + b, lucky]``) is the chance that player ``m`` of the pair, to move at that
state, wins. Rolling ``n = table_m[a, b]`` dice and ending the turn's points at ``x``
leads to the other player moving at ``t = (b, x)`` (or ``(x, b)`` after a swap) with
previous count ``po`` and the mover's previous count ``n``. The other player is lucky
there when its own count at ``t`` is 2 away from ``po``, so

    W[m, a, b, po, lucky] = Σ p(x) (1 - W[o, t, n, 0]) + Σ_{table_o[t] = po ± 2} p(x) (W[o, t, n, 0] - W[o, t, n, 1])

The first sum does not depend on ``po``; the second is gathered once per outcome into
``gain[table_o[t]]`` and read for each ``po`` as ``gain[po - 2] + gain[po + 2]``: one
pass over a turn's outcomes per score pair and mover serves both values of ``lucky`` (the
bonus moves the same chances 3 points up) and all 11 of ``po``. Every fa19 turn scores
at least one point, so states are solved by decreasing score sum. Both players of a pair
are solved together, so one pass gives both seats: the first mover starts at 0-0 with
both previous counts 0, as ``grader.strategy.dice_count_match`` counts them.

The loop is compiled with Numba (``block_first``, cached on disk after the first use): one
compiled call plays every pair of a block of rows against a block of columns. Numba is
imported only when a fa19 contest is played, and keeps its compiled loop in the kit's cache
(``HOG_CACHE/numba``), never beside this file inside the installed package.
"""

from __future__ import annotations

import numba
import numpy as np

from grader import project
from grader.strategy.distributions import MAX_DICE
from grader.strategy.rules import DICE_COUNT_BONUS, DICE_COUNT_DISTANCE, Rules, roll_arrays

COUNTS = MAX_DICE + 1

if not numba.config.CACHE_DIR:   # NUMBA_CACHE_DIR, if the user set it; else the kit's cache, not the package
    numba.config.CACHE_DIR = str(project.CACHE / "numba")


# What Numba may assume of the floating point: no NaN, infinity or signed zero ever arises here. Unlike
# reassociation or fused multiply-adds, these leave every result the same bit for bit on every CPU, so a
# cluster of unlike machines gives the local run's matrix. The states a turn leads to (``target``) and the
# tables' dice counts are unsigned: Numba indexes with an unsigned value without first testing it for a
# negative index (those tests took about 30% of the loop's time in benchmarks/contest.py's replay).
FAST = {"nnan", "ninf", "nsz"}
BONUS = np.uint64(DICE_COUNT_BONUS)

# A turn that ends the game leads to one of two states past the score pairs, whose values are fixed:
# the other player's chance of winning is 0 there (the mover won) or 1 (the other won after a swap).
ENDINGS = 2


class Layout:
    """The turn outcomes of every (parity, dice count) as flat arrays the compiled loop reads,
    the swap table, and the score pairs by decreasing sum."""

    def __init__(self, rules: Rules):
        if rules.has_zero_point_turns:
            raise ValueError("the dice-count bonus engine needs every turn to score at least one point")
        goal = self.goal = rules.goal
        lo, probs = roll_arrays(rules)
        # The outcomes with a chance of each (parity * 11 + n), as runs of consecutive points:
        # run_points[r] the first one's points (n = 0: offset 0, its points are zero[b]),
        # chances[run_entries[r]:][:run_lengths[r]] their chances.
        chances, run_points, run_entries, run_lengths, run_starts = [], [], [], [], [0]
        entry = 0
        for parity in (0, 1):
            for n in range(COUNTS):
                k = np.flatnonzero(probs[parity, n])
                cuts = np.flatnonzero(np.diff(k) != 1) + 1
                for run in np.split(k, cuts):   # DICE_COUNT_BONUS zeros before and after each run
                    run_points.append(lo[parity, n] + run[0])
                    run_entries.append(entry + DICE_COUNT_BONUS)
                    run_lengths.append(len(run))
                    chances.append(np.pad(probs[parity, n, run], DICE_COUNT_BONUS))
                    entry += len(run) + 2 * DICE_COUNT_BONUS
                run_starts.append(len(run_points))
        self.chances = np.concatenate(chances)
        self.run_points, self.run_entries, self.run_lengths, self.run_starts = (
            np.array(column, dtype=np.int64) for column in (run_points, run_entries, run_lengths, run_starts))
        self.zero = np.array(rules.zero_points, dtype=np.int64)
        swaps = np.array(rules.swaps, dtype=np.bool_)             # [b, x], x < goal + max_points
        # target[b, x]: the state (a * goal + b) the other player moves in once the mover, against
        # b, ends the turn's points at x (after the swap check); once x reaches the goal, the ending
        # goal * goal (the mover won) or goal * goal + 1 (a swap made the other player win).
        b, x = np.indices(swaps.shape)
        inside = np.where(swaps, np.minimum(x, goal - 1) * goal + b, b * goal + np.minimum(x, goal - 1))
        self.target = np.where(x < goal, inside, goal * goal + swaps).astype(np.uint32)
        self.parity = bool(rules.parity_bonus)
        a, b = np.indices((goal, goal))
        order = np.argsort(-(a + b).ravel(), kind="stable")
        self.order_a = a.ravel()[order].astype(np.int64)
        self.order_b = b.ravel()[order].astype(np.int64)

    def block_pair(self, rows: np.ndarray, columns: np.ndarray | None = None):
        """As ``grader.contest.engine.block_pair``: ``(first[i, j], first[j, i])`` for rows against
        columns (``None``: the rows against themselves)."""
        same = columns is None
        rows = _flat(rows)
        columns = rows if same else _flat(columns)
        ahead, behind = block_first(rows, columns, same, self.order_a, self.order_b, self.run_points,
                                    self.run_entries, self.run_lengths, self.run_starts, self.chances, self.zero,
                                    self.target, self.parity, self.goal)
        return ahead, behind.T


@numba.njit(cache=True, nogil=True, fastmath=FAST)
def play_pair(first, second, values, order_a, order_b, run_points, run_entries, run_lengths, run_starts, chances,
              zero, target, parity, goal):
    """Solve one game (flat tables ``first`` and ``second``, indexed by ``a * goal + b``) into
    ``values[m, po, a * goal + b, lucky]``; return both seats' win chances."""
    gain = np.zeros(COUNTS)
    lucky_gain = np.zeros(COUNTS)
    tables = (first, second)
    lucky_possible = np.zeros((2, COUNTS), dtype=np.bool_)
    for m in range(2):   # a mover is lucky only if its previous count (0 at the start) is 2 away
        used = np.zeros(COUNTS + 2 * DICE_COUNT_DISTANCE, dtype=np.bool_)
        used[DICE_COUNT_DISTANCE] = True
        for state in range(goal * goal):   # the two endings' padding left out
            used[tables[m][state] + DICE_COUNT_DISTANCE] = True
        for n in range(COUNTS):
            lucky_possible[m, n] = used[n] or used[n + 2 * DICE_COUNT_DISTANCE]
    for index in range(order_a.shape[0]):
        a = order_a[index]
        b = order_b[index]
        here = a * goal + b
        for m in range(2):
            theirs = tables[1 - m]
            n = tables[m][here]
            key = n + (COUNTS * (a & 1) if parity else 0)
            both = lucky_possible[m, n]
            plain_sum = 0.0
            lucky_sum = 0.0
            gain[:] = 0.0
            lucky_gain[:] = 0.0
            after = values[1 - m, n]   # the other player's values once the mover has rolled n: [t, lucky]
            leads = target[b]
            # One pass over the ends of the turn with and without the bonus: a run of outcomes
            # ends at x0, x0 + 1, ...; with the bonus the same chances move DICE_COUNT_BONUS up.
            # Positions are unsigned; ``chances`` holds DICE_COUNT_BONUS zeros around each run, so
            # entry + i - BONUS stays inside the run's padding and past its end the chances are 0.
            for run in range(run_starts[key], run_starts[key + 1]):
                entry = np.uint64(run_entries[run])
                x0 = np.uint64(a + (zero[b] if n == 0 else run_points[run]))
                for i in range(np.uint64(run_lengths[run] + (DICE_COUNT_BONUS if both else 0))):
                    plain_chance = chances[entry + i]
                    lucky_chance = chances[entry + i - BONUS] if both else 0.0
                    t = leads[x0 + i]
                    plain = after[t, 0]
                    diff = plain - after[t, 1]
                    q = theirs[t]
                    plain_sum += plain_chance * (1.0 - plain)
                    lucky_sum += lucky_chance * (1.0 - plain)
                    gain[q] += plain_chance * diff
                    lucky_gain[q] += lucky_chance * diff
            for po in range(COUNTS):
                value = plain_sum
                lucky_value = lucky_sum
                if po >= DICE_COUNT_DISTANCE:
                    value += gain[po - DICE_COUNT_DISTANCE]
                    lucky_value += lucky_gain[po - DICE_COUNT_DISTANCE]
                if po + DICE_COUNT_DISTANCE < COUNTS:
                    value += gain[po + DICE_COUNT_DISTANCE]
                    lucky_value += lucky_gain[po + DICE_COUNT_DISTANCE]
                values[m, po, here, 0] = value
                values[m, po, here, 1] = lucky_value   # meaningless where the mover cannot be lucky: never read
    lucky0 = 1 if abs(first[0]) == DICE_COUNT_DISTANCE else 0
    lucky1 = 1 if abs(second[0]) == DICE_COUNT_DISTANCE else 0
    return values[0, 0, 0, lucky0], values[1, 0, 0, lucky1]


@numba.njit(cache=True, nogil=True, fastmath=FAST)
def block_first(rows, columns, same, order_a, order_b, run_points, run_entries, run_lengths, run_starts, chances,
                zero, target, parity, goal):
    """``(ahead[i, j], behind[i, j])``: rows[i] first against columns[j], columns[j] first against rows[i]."""
    ahead = np.zeros((rows.shape[0], columns.shape[0]))
    behind = np.zeros((rows.shape[0], columns.shape[0]))
    values = np.zeros((2, COUNTS, goal * goal + ENDINGS, 2))
    values[:, :, goal * goal + 1, :] = 1.0   # the other player won
    for i in range(rows.shape[0]):
        for j in range(i if same else 0, columns.shape[0]):
            one, two = play_pair(rows[i], columns[j], values, order_a, order_b, run_points, run_entries,
                                 run_lengths, run_starts, chances, zero, target, parity, goal)
            ahead[i, j] = one
            behind[i, j] = two
            if same:
                ahead[j, i] = two
                behind[j, i] = one
    return ahead, behind


def _flat(tables: np.ndarray) -> np.ndarray:
    """Each table as one row indexed by ``a * goal + b``, with a count of 0 for the two endings."""
    flat = np.asarray(tables, dtype=np.uint8).reshape(len(tables), -1)
    return np.ascontiguousarray(np.pad(flat, ((0, 0), (0, ENDINGS))))
