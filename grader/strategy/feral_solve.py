"""The optimal strategy of fa19, whose Feral Hogs rule makes the state larger.

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
``FeralOptimalStrategy`` offers two things:

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
from array import array
from dataclasses import dataclass, field
from itertools import repeat
from operator import add, mul

from grader.strategy.distributions import MAX_DICE
from grader.strategy.rules import FERAL_BONUS, FERAL_DISTANCE, Rules

COUNTS = MAX_DICE + 1
BIAS = 1e-13  # a dice count must beat fewer dice by more than this per extra die


@dataclass(frozen=True)
class FeralOptimalStrategy:
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


def _bonus_counts(previous: int) -> tuple[int, ...]:
    return tuple(n for n in (previous - FERAL_DISTANCE, previous + FERAL_DISTANCE) if 0 <= n <= MAX_DICE)


def _split(lo: int, probs: tuple[float, ...]) -> tuple[float, int, tuple[float, ...], int]:
    """(probability of 1 point, first other points, their probabilities, how many)."""
    assert lo == 1, "fa19 has no parity bonus: a roll's lowest score is Pig Out's 1"
    start = next(i for i in range(1, len(probs)) if probs[i])
    return probs[0], lo + start, probs[start:], len(probs) - start


def solve(rules: Rules) -> FeralOptimalStrategy:
    started = time.perf_counter()
    first_value, full_table = _solve_full(rules)
    solved = time.perf_counter()
    table = project(rules, full_table)
    return FeralOptimalStrategy(rules.variant_id, rules.goal, full_table, table, first_value,
                                solved - started, time.perf_counter() - solved)


def _solve_full(rules: Rules) -> tuple[float, list[list[bytes]]]:
    goal = rules.goal
    span = goal + rules.max_points
    zero, swaps = rules.zero_points, rules.swaps
    rolls = [[(n, *_split(*rules.rolls[parity][n])) for n in range(1, COUNTS)] for parity in (0, 1)]
    bonus_for = [_bonus_counts(pm) for pm in range(COUNTS)]
    # after[b][po][n][x]: the mover's value when the mover, who rolled n, ends the
    # turn's points at x against b, whose previous count is po.
    after = []
    for b in range(goal):
        template = array("d", [0.0] * goal + [0.0 if swaps[b][x] else 1.0 for x in range(goal, span)])
        after.append([[array("d", template) for _ in range(COUNTS)] for _ in range(COUNTS)])
    plain = {}   # (a, b) -> [po] -> [n] -> value of rolling n without the bonus

    def plain_values(a, b):
        # Per po, per n: Pig Out (1 point) apart, then the outcomes without a 1.
        parts, at_zero, one = rolls[a & 1], a + zero[b], a + 1
        return [[rows[0][at_zero]] + [pig * rows[n][one] + sum(map(mul, probs, rows[n][a + lo:a + lo + length]))
                                      for n, pig, lo, probs, length in parts]
                for rows in after[b]]

    for a in range(goal, goal + FERAL_BONUS):
        for b in range(goal):
            plain[a, b] = plain_values(a, b)
    penalty = [-n * BIAS for n in range(COUNTS)]
    counts = range(COUNTS)
    full_table = [[b""] * goal for _ in range(goal)]
    value = {}
    for total in range(2 * goal - 2, -1, -1):
        low, high = max(0, total - goal + 1), min(total, goal - 1)
        for a in range(low, high + 1):
            b = total - a
            without = plain_values(a, b)
            plain[a, b] = without
            boosted = plain[a + FERAL_BONUS, b]
            # Columns: [n] -> values over po, with the bias towards fewer dice.
            exact = list(zip(*without))
            exact_lifted = list(zip(*boosted))
            scored = [list(map(add, column, repeat(pen))) for column, pen in zip(exact, penalty)]
            lifted = [list(map(add, column, repeat(pen))) for column, pen in zip(exact_lifted, penalty)]
            values, choices = [], bytearray()
            for pm in counts:  # index pm * 11 + po
                options, options_exact = scored[:], exact[:]
                for m in bonus_for[pm]:
                    options[m], options_exact[m] = lifted[m], exact_lifted[m]
                picks = [option.index(max(option)) for option in zip(*options)]
                choices += bytes(picks)
                values += [options_exact[n][po] for po, n in enumerate(picks)]
            value[a, b] = values
            full_table[a][b] = bytes(choices)
        for b in range(low, high + 1):
            x = total - b
            source = value[x, b] if swaps[b][x] else value[b, x]
            rows_b = after[b]
            for po in range(COUNTS):
                rows, base = rows_b[po], po * COUNTS
                for n in range(COUNTS):
                    rows[n][x] = 1.0 - source[base + n]
        for a in range(max(0, total + FERAL_BONUS - goal + 1), min(total + FERAL_BONUS, goal + FERAL_BONUS - 1) + 1):
            plain.pop((a, total + FERAL_BONUS - a), None)
        if total + 1 <= 2 * goal - 2:
            for a in range(max(0, total + 1 - goal + 1), min(total + 1, goal - 1) + 1):
                if (a, total + 1 - a) != (0, 0):
                    value.pop((a, total + 1 - a), None)
    return value[0, 0][0], full_table


def project(rules: Rules, full_table: list[list[bytes]]) -> list[list[int]]:
    """The (score, opponent_score) table: the most probable full-state choice there
    under optimal self-play from 0-0 (equal weights where never reached)."""
    goal = rules.goal
    reach = _occupancy(rules, full_table)
    table = []
    for a in range(goal):
        row = []
        for b in range(goal):
            choices = full_table[a][b]
            weights = reach.get((a, b))
            votes = [0.0] * COUNTS
            if weights:
                for index, weight in weights.items():
                    votes[choices[index]] += weight
            else:
                for n in choices:
                    votes[n] += 1.0
            row.append(votes.index(max(votes)))
        table.append(row)
    return table


def _occupancy(rules: Rules, full_table) -> dict[tuple[int, int], dict[int, float]]:
    """Probability of reaching each (a, b, pm, po) when both play ``full_table`` from 0-0.

    Result: (a, b) -> {pm * 11 + po: probability}. Forward by increasing score sum;
    the mass a state sends is spread over the mover's score after the turn
    with slice arithmetic, then split by the swap check.
    """
    goal = rules.goal
    span = goal + rules.max_points
    zero, swaps = rules.zero_points, rules.swaps
    rolls = rules.rolls
    bonus_for = [_bonus_counts(pm) for pm in range(COUNTS)]
    # arrivals[b][po, n][x]: probability that a turn rolled n dice against an
    # opponent at b whose previous count is po, and ended the turn's points at x.
    arrivals: list[dict[tuple[int, int], list[float]]] = [{} for _ in range(goal)]
    reach: dict[tuple[int, int], dict[int, float]] = {(0, 0): {0: 1.0}}
    for total in range(0, 2 * goal - 1):
        low, high = max(0, total - goal + 1), min(total, goal - 1)
        for a in range(low, high + 1):
            b = total - a
            if total:
                # (a, b) to move: the last turn ended at a against b and swapped,
                # or ended at b against a and did not swap.
                mass: dict[int, float] = {}
                if swaps[b][a]:
                    for (po, n), row in arrivals[b].items():
                        if row[a]:
                            mass[po * COUNTS + n] = mass.get(po * COUNTS + n, 0.0) + row[a]
                if not swaps[a][b]:
                    for (po, n), row in arrivals[a].items():
                        if row[b]:
                            mass[po * COUNTS + n] = mass.get(po * COUNTS + n, 0.0) + row[b]
                if not mass:
                    continue
                reach[a, b] = mass
            choices, sent = full_table[a][b], arrivals[b]
            # Previous counts that lead to the same turn travel together.
            groups: dict[tuple[int, int, int], float] = {}
            for index, weight in reach[a, b].items():
                pm, po = divmod(index, COUNTS)
                n = choices[index]
                key = (po, n, FERAL_BONUS if n in bonus_for[pm] else 0)
                groups[key] = groups.get(key, 0.0) + weight
            for (po, n, bonus), weight in groups.items():
                row = sent.get((po, n))
                if row is None:
                    row = sent[po, n] = [0.0] * span
                if n == 0:
                    row[a + zero[b] + bonus] += weight
                else:
                    lo, probs = rolls[a & 1][n]
                    start = a + lo + bonus
                    end = start + len(probs)
                    row[start:end] = map(add, row[start:end], map(mul, probs, repeat(weight)))
    return reach
