"""The optimal strategy of a variant: the dice count that maximises the chance of winning.

The value of a state (mover's score a, other's score b) is the mover's chance
of winning when both players play optimally, with a game that never ends
counted as half a win for each player; the other player's value is one minus
it. States are solved by decreasing score sum (a turn adds points, a swap keeps
the sum). Ties between dice counts go to fewer dice: among the moves that
score, a count is chosen over a smaller one only if its value is higher by more
than ``BIAS`` per extra die (floating-point sums of equal values can differ in
the last bit); a zero-point pass is compared with a tolerance of ``TIE``.

Zero-point turns (nju21: rolling 0 dice against a score whose Picky Piggy digit
is 0) keep the sum, and a zero-dice turn is deterministic, so a state ``s``
either passes the turn to the other player in a state ``t`` of the same sum
(``t`` is ``s`` with the scores in the other order, or ``s`` itself when the
zero-point turn swaps) or leaves the sum. With ``R`` the best value among the
moves that leave the sum, the exact values are:

* ``t`` is ``s`` (pass back and forth in the same state): V = max(R, 1/2).
* ``t`` cannot pass, or only to itself: V(t) first, then V(s) = max(R_s, 1 - V(t)).
* ``s`` and ``t`` pass to each other: V(s) = max(R_s, 1 - max(R_t, 1/2)), and
  the same with ``s`` and ``t`` exchanged. A state whose R exceeds 1/2 leaves;
  a state whose R is at most 1/2 passes when passing is worth at least R, and
  if both pass the game never ends (value 1/2 each).

The derivation: by passing for ever a player is sure of at least 1/2 unless the
other leaves; so the other's pass is worth at most 1 - max(R_t, 1/2).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from grader.strategy.distributions import MAX_DICE
from grader.strategy import dice_count_solve
from grader.strategy.rules import Rules

TIE = 1e-12   # tolerance when a zero-point pass is compared with a move that scores
BIAS = 1e-13  # a dice count must beat fewer dice by more than this per extra die


@dataclass(frozen=True)
class OptimalStrategy:
    """The optimal strategy of a variant at a goal, usable wherever a strategy is accepted.

    ``table[score][opponent_score]`` is the dice count; ``values[score][opponent_score]``
    the mover's chance of winning under optimal play (never-ending games count
    half). Calling the object with ``(score, opponent_score)`` looks up the table.
    """

    variant_id: str
    goal: int
    table: list[list[int]] = field(repr=False)
    values: list[list[float]] = field(repr=False)
    solve_seconds: float

    def __call__(self, score: int, opponent_score: int) -> int:
        return self.table[score][opponent_score]

    @property
    def first_player_value(self) -> float:
        """The first player's chance of winning from 0-0 when both play optimally."""
        return self.values[0][0]


def solve(rules: Rules) -> OptimalStrategy:
    """Solve a variant exactly; fa19 (its dice-count bonus) goes to ``grader.strategy.dice_count_solve``."""
    if rules.dice_count_bonus:
        return dice_count_solve.solve(rules)
    started = time.perf_counter()
    value, choice = _solve_values(rules)
    table, values = choice.tolist(), value.tolist()
    return OptimalStrategy(rules.variant_id, rules.goal, table, values, time.perf_counter() - started)


def _solve_values(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Values and choices of every state: ``value[score, opponent_score]``.

    Work is organised by score sums, from the highest down: ``after[b, x]`` is
    the mover's value once the turn's points bring the mover to ``x`` against
    ``b`` (swap check and the other player's turn included). Every count that
    rolls dice scores at least one point, so the states of one sum read the
    windows ``after[b, a + 1:]`` only, and the values of all ten dice counts
    for the whole sum are one matrix product of those windows with the
    distributions.
    """
    goal = rules.goal
    zero = np.array(rules.zero_points, dtype=np.intp)
    swaps = np.array(rules.swaps, dtype=bool)
    top = goal + rules.max_points
    classes = 2 if rules.parity_bonus else 1
    # by_points[j, c * 10 + n - 1]: probability that n dice score 1 + j points for parity c.
    width = max(low + len(probs) - 1 for table in rules.rolls for low, probs in table[1:])
    by_points = np.zeros((width, classes * MAX_DICE))
    for c in range(classes):
        for n in range(1, MAX_DICE + 1):
            low, probs = rules.rolls[c][n]
            by_points[low - 1:low - 1 + len(probs), c * MAX_DICE + n - 1] = probs
    after = np.zeros((goal, top + width))
    after[:, goal:top] = np.where(swaps[:, goal:], 0.0, 1.0)
    windows = np.lib.stride_tricks.sliding_window_view(after, width, axis=1)
    penalty = -BIAS * np.arange(MAX_DICE + 1)
    value = np.zeros((goal, goal))
    choice = np.zeros((goal, goal), dtype=np.intp)
    layer_values = np.zeros(goal)
    layer_choices = np.zeros(goal, dtype=np.intp)
    scoreless = zero == 0
    for total in range(2 * goal - 2, -1, -1):
        bs = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        scores = total - bs
        exact = np.empty((len(bs), MAX_DICE + 1))
        exact[:, 0] = np.where(scoreless[bs], -1.0, after[bs, np.minimum(scores + zero[bs], top - 1)])
        rolled = windows[bs, scores + 1] @ by_points
        if classes == 2:
            rolled = rolled.reshape(len(bs), 2, MAX_DICE)[np.arange(len(bs)), scores & 1]
        exact[:, 1:] = rolled
        picks = np.argmax(exact + penalty, axis=1)
        best = exact[np.arange(len(bs)), picks]
        passing = scoreless[bs]
        if passing.any():
            layer_values[bs], layer_choices[bs] = best, picks
            _resolve_passes(scores[passing].tolist(), total, rules.zero_points, rules.swaps,
                            layer_values, layer_choices)
            best, picks = layer_values[bs], layer_choices[bs]
        value[scores, bs], choice[scores, bs] = best, picks
        after[bs, scores] = 1.0 - np.where(swaps[bs, scores], value[scores, bs], value[bs, scores])
    return value, choice


def _resolve_passes(passing, total, zero, swaps, values, choices) -> None:
    """Decide the states of one score sum that can roll 0 dice for 0 points.

    ``passing`` lists the movers' scores ``a`` of those states; ``values[b]`` and
    ``choices[b]`` (state ``(total - b, b)``) hold each one's best move that
    leaves the sum on entry.
    """
    exits = {a: values[total - a] for a in passing}
    done = set()

    def successor(a):
        b = total - a
        return a if swaps[b][a] else b

    def set_state(a, v, n):
        values[total - a] = v
        if n is not None:
            choices[total - a] = n
        done.add(a)

    def decide(a, pass_value):
        # Pass (0 dice) when it is worth at least the best move that leaves.
        if pass_value >= exits[a] - TIE:
            set_state(a, pass_value, 0)
        else:
            set_state(a, exits[a], None)

    def decide_looping(a):
        # Passing comes back to the same state with the other player to move.
        if exits[a] > 0.5 + TIE:
            set_state(a, exits[a], None)
        else:
            decide(a, 0.5)

    for a in passing:
        if a in done:
            continue
        t = successor(a)
        if t == a:
            decide_looping(a)
        elif t not in exits or successor(t) == t:
            if t in exits and t not in done:
                decide_looping(t)
            decide(a, 1.0 - values[total - t])
        else:
            # a and t pass to each other.
            r_a, r_t = exits[a], exits[t]
            a_leaves, t_leaves = r_a > 0.5 + TIE, r_t > 0.5 + TIE
            if a_leaves and t_leaves:
                set_state(a, r_a, None)
                set_state(t, r_t, None)
            elif a_leaves:
                set_state(a, r_a, None)
                decide(t, 1.0 - r_a)
            elif t_leaves:
                set_state(t, r_t, None)
                decide(a, 1.0 - r_t)
            else:
                set_state(a, 0.5, 0)
                set_state(t, 0.5, 0)
