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
from itertools import repeat
from operator import add, mul

from grader.strategy.distributions import MAX_DICE, SIDES, die_points, pig_out_counts
from grader.strategy.rules import Rules, rules_for

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


def solve(variant: str | Rules, goal: int = 100) -> OptimalStrategy:
    """Solve a variant exactly; fa19 (Feral Hogs) goes to ``grader.strategy.feral_solve``."""
    rules = variant if isinstance(variant, Rules) else rules_for(variant, goal)
    if rules.feral_hogs:
        from grader.strategy import feral_solve
        return feral_solve.solve(rules)
    started = time.perf_counter()
    value, choice = _solve_values(rules)
    seconds = time.perf_counter() - started
    g = rules.goal
    return OptimalStrategy(
        rules.variant_id, g,
        [choice[a * g:(a + 1) * g] for a in range(g)],
        [value[a * g:(a + 1) * g] for a in range(g)],
        seconds)


def _solve_values(rules: Rules) -> tuple[list[float], list[int]]:
    """Values and choices of every state, flat: index ``score * goal + opponent_score``.

    Work is organised by diagonals: ``after[s][b]`` is the mover's value once the
    turn's points bring the mover to ``x = s - b`` with the opponent at ``b``
    (swap check and the other player's turn included), so a whole score sum is
    one list and the arithmetic runs in ``map`` over lists. Rolling ``n`` dice
    without a 1 is ``n`` steps of "add one die showing 2..6": ``clean[c][m][s][b]``
    sums ``after`` over the 5**m such outcomes of ``m`` dice from ``x``.
    """
    goal = rules.goal
    span = goal + rules.max_points            # the mover's score after a turn is below span
    last = goal - 1 + span - 1                # highest diagonal with a value
    diagonals = last + 1 + 2 * SIDES          # room to read a few diagonals past the last
    zero, swaps = rules.zero_points, rules.swaps
    classes = (0, 1) if rules.parity_bonus else (None,)
    after = [[0.0] * goal for _ in range(diagonals)]
    for s in range(goal, last + 1):
        for b in range(max(0, s - span + 1), min(goal - 1, s - goal) + 1):
            after[s][b] = 0.0 if swaps[b][s - b] else 1.0
    clean, pig = {}, {}
    for c in classes:
        clean[c] = [after] + [[[0.0] * goal for _ in range(diagonals)] for _ in range(MAX_DICE)]
        pig[c] = [None] + [[(points, count / SIDES ** n) for points, count in
                            sorted(pig_out_counts(n, c).items())] for n in range(1, MAX_DICE + 1)]
    steps = {c: die_points(c) for c in classes}
    scale = [None] + [1.0 / SIDES ** n for n in range(1, MAX_DICE + 1)]
    value_d = [[0.0] * goal for _ in range(2 * goal - 1)]
    choice_d = [[0] * goal for _ in range(2 * goal - 1)]
    for s in range(last, -1, -1):
        lo, hi = max(0, s - span + 1), min(goal - 1, s)
        for c in classes:
            levels, step = clean[c], steps[c]
            for m in range(1, MAX_DICE + 1):
                below = levels[m - 1]
                total = below[s + step[0]][lo:hi + 1]
                for points in step[1:]:
                    total = map(add, total, below[s + points][lo:hi + 1])
                levels[m][s][lo:hi + 1] = total
        if s > 2 * goal - 2:
            continue
        real_lo, real_hi = max(0, s - goal + 1), min(s, goal - 1)
        values, choices = value_d[s], choice_d[s]
        passing = []
        for c in classes:
            first = real_lo if c is None or (s - real_lo) % 2 == c else real_lo + 1
            stride = 1 if c is None else 2
            cut = slice(first, real_hi + 1, stride)
            opponents = range(first, real_hi + 1, stride)
            exact = [[after[s + zero[b]][b] if zero[b] else -1.0 for b in opponents]]
            for n in range(1, MAX_DICE + 1):
                total = map(mul, clean[c][n][s][cut], repeat(scale[n]))
                for points, probability in pig[c][n]:
                    total = map(add, total, map(mul, after[s + points][cut], repeat(probability)))
                exact.append(list(total))
            # A dice count must beat fewer dice by more than BIAS per extra die.
            biased = [exact[0]] + [list(map(add, exact[n], repeat(-n * BIAS)))
                                   for n in range(1, MAX_DICE + 1)]
            for i, (b, option) in enumerate(zip(opponents, zip(*biased))):
                n = option.index(max(option))
                values[b] = exact[n][i]
                choices[b] = n
                if not zero[b]:
                    passing.append(s - b)
        if passing:
            _resolve_passes(passing, s, zero, swaps, values, choices)
        row = after[s]
        for b in range(real_lo, real_hi + 1):
            row[b] = 1.0 - (values[b] if swaps[b][s - b] else values[s - b])
    value = [0.0] * (goal * goal)
    choice = [0] * (goal * goal)
    for a in range(goal):
        for b in range(goal):
            value[a * goal + b] = value_d[a + b][b]
            choice[a * goal + b] = choice_d[a + b][b]
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
