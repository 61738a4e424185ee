"""Exact outcomes of a fa19 game between two given strategies (Feral Hogs on).

The bonus depends on the mover's previous dice count, so a state is (player to
move, mover's score a, other's score b, mover's previous count pm, other's
previous count po). A player's previous count can only be 0 or a count that
player's strategy returns somewhere, which keeps the states few for the usual
strategies. For one (player, a, b, po), the previous counts pm that lead to the
same dice count and the same bonus share one computation.

A strategy is a ``(score, opponent_score)`` table, or a ``FeralOptimalStrategy``
which plays with the full state (its ``table`` attribute is the projection).
"""

from __future__ import annotations

from operator import mul

from grader.strategy.distributions import MAX_DICE
from grader.strategy.rules import FERAL_BONUS, FERAL_DISTANCE, Rules
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
    rolls (counted as 0); see ``match.expected_payoff``."""
    if rules.has_zero_point_turns:
        raise ValueError("the Feral Hogs engine needs every turn to score at least one point")
    goal = rules.goal
    zero, swaps, rolls = rules.zero_points, rules.swaps, rules.rolls
    forms = (form0, form1)
    used = [sorted({n for row in form for cell in row for n in cell}) for form in forms]
    # Previous counts a mover can have. Player 0 has no previous roll only at the
    # start (handled apart below); player 1 on its first turn (count 0); and the
    # opponent has always moved, except for player 0 at the start.
    mine_for = (used[0], sorted({0, *used[1]}))
    theirs_for = (used[1], used[0])
    bonus = [[abs(n - pm) == FERAL_DISTANCE for pm in range(COUNTS)] for n in range(COUNTS)]
    # after[p][b][po, n][x]: payoff once player p, having rolled n against b
    # whose previous count is po, ends the turn's points at x.
    after = []
    for p in (0, 1):
        rows_p = []
        for b in range(goal):
            template = [payoff[1 - p] if swaps[b][x] else payoff[p] for x in range(goal + rules.max_points)]
            template += [0.0] * FERAL_BONUS
            rows_p.append({(po, n): template[:] for po in theirs_for[p] for n in used[p]})
        after.append(rows_p)
    value = [dict(), dict()]
    for total in range(2 * goal - 2, sum(start) - 1, -1):
        low, high = max(0, total - goal + 1), min(total, goal - 1)
        for p in (0, 1):
            form, mine, theirs, rows_p = forms[p], mine_for[p], theirs_for[p], after[p]
            for a in range(low, high + 1):
                b = total - a
                choices, rows_b, z = form[a][b], rows_p[b], zero[b]
                values = [0.0] * (COUNTS * COUNTS)
                for po in theirs:
                    done = {}
                    for pm in mine:
                        n = choices[pm * COUNTS + po]
                        lucky = bonus[n][pm]
                        key = n * 2 + lucky
                        v = done.get(key)
                        if v is None:
                            row = rows_b[po, n]
                            at = a + (FERAL_BONUS if lucky else 0)
                            if n == 0:
                                v = row[at + z]
                            else:
                                lo, probs = rolls[a & 1][n]
                                at += lo
                                v = sum(map(mul, probs, row[at:at + len(probs)]))
                            done[key] = v
                        values[pm * COUNTS + po] = v
                value[p][a, b] = values
        for b in range(low, high + 1):
            x = total - b
            swapped = swaps[b][x]
            for p in (0, 1):
                source = value[1 - p][(x, b) if swapped else (b, x)]
                for (po, n), row in after[p][b].items():
                    row[x] = source[po * COUNTS + n]
    return _first_turn(rules, form0[start[0]][start[1]][0], start, value[1], payoff)


def _first_turn(rules: Rules, n: int, start: tuple[int, int], second: dict, payoff) -> float:
    """Player 0's first turn from ``start``: previous counts 0 for both players."""
    goal, (a, b) = rules.goal, start
    bonus = FERAL_BONUS if abs(n) == FERAL_DISTANCE else 0
    if n == 0:
        outcomes = [(1.0, rules.zero_points[b])]
    else:
        lo, probs = rules.rolls[a & 1][n]
        outcomes = [(p, lo + i) for i, p in enumerate(probs)]
    total = 0.0
    for probability, points in outcomes:
        x = a + points + bonus
        if rules.swaps[b][x]:
            worth = payoff[1] if x >= goal else second[x, b][n]   # player 1: previous 0, opponent's n
        else:
            worth = payoff[0] if x >= goal else second[b, x][n]
        total += probability * worth
    return total
