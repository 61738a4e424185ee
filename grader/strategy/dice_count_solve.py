"""The optimal strategy of fa19, whose dice-count bonus (its Feral Hogs) makes the state larger.

fa19 gives 3 extra points when a player's dice count is exactly 2 away from
that player's previous count (0 before the first turn), so a state is (mover's
score a, other's score b, mover's previous count pm, other's previous count
po): 100 x 100 x 11 x 11 at goal 100. Every turn scores at least one point, so
states are solved by decreasing score sum with no cycles.

For one (a, b, po) and a dice count n, ``E[n]`` is the mover's value without
the bonus; with the bonus the turn is the same but 3 points higher, which is
exactly ``E[n]`` of the state (a + 3, b, po), already solved. The previous
count pm then only decides which counts get the bonus.

A strategy of ``(score, opponent_score)`` cannot see the previous counts, so
``DiceCountOptimalStrategy`` offers two things:

* ``choose(score, opponent_score, previous_rolls, opponent_previous_rolls)``
  and ``full_table``: the true optimum over the full state;
* ``table`` and calling the object with ``(score, opponent_score)``: at each
  score pair, the count the full-state optimum rolls with the highest
  probability when both players play it from 0-0 (weights: the exact chance
  of reaching each (previous, opponent previous) at that score pair; pairs
  never reached use equal weights). This is a projection, not an optimum among
  such strategies; ``grader.strategy.analysis`` reports its exact win rates.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from grader.strategy.distributions import MAX_DICE
from grader.strategy.rules import DICE_COUNT_BONUS, DICE_COUNT_DISTANCE, Rules, roll_arrays

COUNTS = MAX_DICE + 1
BIAS = 1e-13  # a dice count must beat fewer dice by more than this per extra die


@dataclass(frozen=True)
class DiceCountOptimalStrategy:
    """fa19's optimal strategy; see the module docstring for ``table`` vs ``full_table``.

    ``full_table[score][opponent_score][previous * 11 + opponent_previous]`` is the
    optimal dice count (a ``bytes`` of 121 per score pair).
    """

    variant_id: str
    goal: int
    full_table: list[list[bytes]] = field(repr=False)
    table: list[list[int]] = field(repr=False)
    first_player_value: float
    solve_seconds: float
    projection_seconds: float

    def choose(self, score: int, opponent_score: int, previous_rolls: int,
               opponent_previous_rolls: int) -> int:
        return self.full_table[score][opponent_score][previous_rolls * COUNTS + opponent_previous_rolls]

    def __call__(self, score: int, opponent_score: int) -> int:
        return self.table[score][opponent_score]


def solve(rules: Rules) -> DiceCountOptimalStrategy:
    started = time.perf_counter()
    first_value, full_table = _solve_full(rules)
    solved = time.perf_counter()
    table = project(rules, full_table)
    return DiceCountOptimalStrategy(rules.variant_id, rules.goal, full_table, table, first_value,
                                solved - started, time.perf_counter() - solved)


def _solve_full(rules: Rules) -> tuple[float, list[list[bytes]]]:
    """The full-state optimum: (first player's value from 0-0, ``full_table``).

    Work goes by score sums, from the highest down. ``after[b, po, n, x]`` is
    the mover's value once the mover, who rolled ``n`` against ``b`` whose
    previous count is ``po``, ends the turn's points at ``x`` (swap check and
    the other player's turn included). The values without the bonus of all
    (a, b, po, n) of one sum are one gather of windows of ``after`` and one
    ``einsum`` with the distributions; ``plain`` keeps them for the state three
    points lower, where they are the values with the bonus.
    """
    goal = rules.goal
    lo, probs, width = _rolls(rules)
    top = goal + rules.max_points
    swaps = np.array(rules.swaps, dtype=bool)
    zero = np.array(rules.zero_points, dtype=np.intp)
    after = np.zeros((goal, COUNTS, COUNTS, top + width))
    after[..., goal:top] = np.where(swaps[:, None, None, goal:], 0.0, 1.0)
    windows = np.lib.stride_tricks.sliding_window_view(after, width, axis=3)
    bonus = _bonus_mask()                                    # [pm, n]
    penalty = -BIAS * np.arange(COUNTS)
    plain = np.zeros((goal + DICE_COUNT_BONUS, goal, COUNTS, COUNTS))   # [a, b, po, n]

    def plain_values(scores, opponents):
        values = np.einsum("lpnk,nk->lpn", windows[opponents, :, :, scores + lo], probs)
        values[:, :, 0] = after[opponents, :, 0, scores + zero[opponents]]
        return values

    high = np.repeat(np.arange(goal, goal + DICE_COUNT_BONUS), goal)
    opponents = np.tile(np.arange(goal), DICE_COUNT_BONUS)
    plain[high, opponents] = plain_values(high, opponents)
    value = np.zeros((goal, goal, COUNTS, COUNTS))           # [a, b, pm, po]
    choice = np.zeros((goal, goal, COUNTS, COUNTS), dtype=np.uint8)
    for total in range(2 * goal - 2, -1, -1):
        bs = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        scores = total - bs
        without = plain[scores, bs] = plain_values(scores, bs)
        exact = np.where(bonus[None, :, None, :], plain[scores + DICE_COUNT_BONUS, bs][:, None],
                         without[:, None])                   # [l, pm, po, n]
        picks = np.argmax(exact + penalty, axis=3)
        value[scores, bs] = np.take_along_axis(exact, picks[..., None], axis=3)[..., 0]
        choice[scores, bs] = picks
        # after[b, po, n, x] for x + b == total: the other player's state after the swap check.
        xs = scores
        swapped = swaps[bs, xs]
        after[bs, :, :, xs] = 1.0 - value[np.where(swapped, xs, bs), np.where(swapped, bs, xs)]
    full_table = [[choice[a, b].tobytes() for b in range(goal)] for a in range(goal)]
    return float(value[0, 0, 0, 0]), full_table


def _rolls(rules: Rules) -> tuple[int, np.ndarray, int]:
    """``(lo, probs, width)`` of ``match.roll_arrays``: fa19 has no parity bonus, so one
    table serves both parities, and every roll's lowest score is Pig Out's 1.
    ``probs[n, k]`` is the chance that ``n`` dice score ``lo + k``; row 0 (no dice,
    the zero-dice rule's points) is handled apart by the callers."""
    lows, probs = roll_arrays(rules)
    assert not rules.parity_bonus and set(lows[0, 1:].tolist()) == {1}, "fa19 rolls score 1 at least"
    return 1, probs[0], probs.shape[2]


def _bonus_mask() -> np.ndarray:
    """``mask[pm, n]``: rolling ``n`` after ``pm`` earns the Feral Hogs bonus."""
    counts = np.arange(COUNTS)
    return np.abs(counts[None, :] - counts[:, None]) == DICE_COUNT_DISTANCE


def project(rules: Rules, full_table: list[list[bytes]]) -> list[list[int]]:
    """The (score, opponent_score) table: the most probable full-state choice there
    under optimal self-play from 0-0 (equal weights where never reached)."""
    goal = rules.goal
    choice = _choices(full_table, goal)
    reach = _occupancy(rules, choice).reshape(goal * goal, COUNTS * COUNTS)
    choice = choice.reshape(goal * goal, COUNTS * COUNTS).astype(np.intp)
    cell = np.arange(goal * goal)[:, None] * COUNTS + choice
    votes = np.bincount(cell.ravel(), reach.ravel(), goal * goal * COUNTS).reshape(goal * goal, COUNTS)
    counts = np.bincount(cell.ravel(), minlength=goal * goal * COUNTS).reshape(goal * goal, COUNTS)
    reached = reach.sum(axis=1) > 0
    votes = np.where(reached[:, None], votes, counts)
    return np.argmax(votes, axis=1).reshape(goal, goal).tolist()


def _choices(full_table: list[list[bytes]], goal: int) -> np.ndarray:
    return np.frombuffer(b"".join(b"".join(row) for row in full_table), dtype=np.uint8) \
        .reshape(goal, goal, COUNTS, COUNTS)


def _occupancy(rules: Rules, choice: np.ndarray) -> np.ndarray:
    """``reach[a, b, pm, po]``: the probability of reaching that state (mover at a,
    other at b, previous counts pm and po) when both play ``choice`` from 0-0.

    Forward by increasing score sum. ``arrivals[b, po, n, x]`` is the probability
    that a turn rolled n dice against an opponent at b whose previous count is
    po, and ended the turn's points at x; one sum's states send their mass
    (grouped by po, n and whether the bonus applies) into it at once.
    """
    goal = rules.goal
    lo, probs, width = _rolls(rules)
    top = goal + rules.max_points
    swaps = np.array(rules.swaps, dtype=bool)
    zero = np.array(rules.zero_points, dtype=np.intp)
    bonus = _bonus_mask()
    arrivals = np.zeros((goal, COUNTS, COUNTS, top + width))
    windows = np.lib.stride_tricks.sliding_window_view(arrivals, width, axis=3, writeable=True)
    reach = np.zeros((goal, goal, COUNTS, COUNTS))
    reach[0, 0, 0, 0] = 1.0
    counts = np.arange(COUNTS)
    states = counts[None, :, None], counts[None, None, :]            # (pm, po) of [l, pm, po]
    for total in range(0, 2 * goal - 1):
        bs = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        scores = total - bs
        if total:
            # (a, b) to move: the last turn ended at a against b and swapped,
            # or ended at b against a and did not swap.
            swapped = np.where(swaps[bs, scores][:, None, None], arrivals[bs, :, :, scores], 0.0)
            kept = np.where(swaps[scores, bs][:, None, None], 0.0, arrivals[scores, :, :, bs])
            reach[scores, bs] = swapped + kept
        mass = reach[scores, bs]                                    # [l, pm, po]
        n = choice[scores, bs].astype(np.intp)                      # [l, pm, po]
        lucky = bonus[states[0], n]
        # grouped[l, po, n, lucky]: mass of the previous counts that lead to the same turn.
        key = ((np.arange(len(bs))[:, None, None] * COUNTS + states[1]) * COUNTS + n) * 2 + lucky
        grouped = np.bincount(key.ravel(), mass.ravel(), len(bs) * COUNTS * COUNTS * 2) \
            .reshape(len(bs), COUNTS, COUNTS, 2)
        for extra in (0, 1):
            # Only the turns some mass takes; one per (b, po, n), so the windows written never overlap.
            l, po, rolled = np.nonzero(grouped[..., extra])
            weight = grouped[l, po, rolled, extra]
            shift = scores[l] + DICE_COUNT_BONUS * extra
            passed = rolled == 0
            dice = ~passed
            windows[bs[l[dice]], po[dice], rolled[dice], shift[dice] + lo] += \
                weight[dice, None] * probs[rolled[dice]]
            arrivals[bs[l[passed]], po[passed], 0, shift[passed] + zero[bs[l[passed]]]] += weight[passed]
    return reach
