"""Exact outcome probabilities of a game between two given strategies.

States are (player to move, mover's score, other's score) with both scores
below the goal. A turn adds at least one point unless it rolls 0 dice against
a score whose zero-dice rule gives 0 (nju21), and a swap keeps the sum of the
scores, so the states are solved by decreasing score sum. Within one sum only
zero-point turns connect states, and a zero-dice turn is deterministic: a
state that rolls 0 for 0 points simply takes the value of the state it leads
to, and a loop of such states never ends.

fa19's Feral Hogs needs the previous dice counts in the state;
``grader.strategy.feral_match`` handles that rule and is used automatically.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from operator import mul

from grader.strategy.rules import Rules, rules_for
from grader.strategy.tables import Strategy, Table, always_roll_table, as_table

# Payoffs (first player wins, second player wins, the game never ends).
FIRST_WINS = (1.0, 0.0, 0.0)
SECOND_WINS = (0.0, 1.0, 0.0)
NEVER_ENDS = (0.0, 0.0, 1.0)


@dataclass(frozen=True)
class MatchResult:
    """Exact probabilities of a game where ``first`` moves first from 0-0."""

    variant_id: str
    goal: int
    first_wins: float
    second_wins: float
    never_ending: float

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class WinRate:
    """A strategy's exact win rate against a baseline, going first and going second.

    A game that never ends counts as half a win (possible only in nju21, and
    only if both strategies keep rolling 0 dice for 0 points).
    """

    variant_id: str
    goal: int
    as_first: float
    as_second: float

    @property
    def average(self) -> float:
        return (self.as_first + self.as_second) / 2

    def to_dict(self) -> dict:
        return {**asdict(self), "average": self.average}


def _rules(variant: str | Rules, goal: int) -> Rules:
    return variant if isinstance(variant, Rules) else rules_for(variant, goal)


def expected_payoff(rules: Rules, table0: Table, table1: Table,
                    payoff: tuple[float, float, float], start: tuple[int, int] = (0, 0)) -> float:
    """Expected payoff of the game with player 0 (``table0``) moving first.

    ``payoff`` is what a game is worth when player 0 wins, when player 1 wins,
    and when it never ends; ``start`` the scores (player 0, player 1) it starts
    from. Tables must be validated already.
    """
    if not all(0 <= score < rules.goal for score in start):
        raise ValueError(f"starting scores must be below the goal {rules.goal}, got {start}")
    if rules.feral_hogs:
        from grader.strategy import feral_match
        return feral_match.expected_payoff(rules, feral_match.strategy_form(table0, rules.goal),
                                           feral_match.strategy_form(table1, rules.goal), payoff, start)
    goal = rules.goal
    top = goal + rules.max_points
    zero, swaps, rolls = rules.zero_points, rules.swaps, rules.rolls
    tables = (table0, table1)
    # after[p][b][x]: payoff once player p, opponent at b, ends the turn's points at x.
    after = [[[payoff[1 - p] if swaps[b][x] else payoff[p] for x in range(top)]
              for b in range(goal)] for p in (0, 1)]
    value = [[0.0] * (goal * goal) for _ in (0, 1)]
    for total in range(2 * goal - 2, -1, -1):
        low, high = max(0, total - goal + 1), min(total, goal - 1)
        passing = []
        for p in (0, 1):
            table, values, rows = tables[p], value[p], after[p]
            for a in range(low, high + 1):
                b = total - a
                n = table[a][b]
                row = rows[b]
                if n:
                    lo, probs = rolls[a & 1][n]
                    at = a + lo
                    values[a * goal + b] = sum(map(mul, probs, row[at:at + len(probs)]))
                elif zero[b]:
                    values[a * goal + b] = row[a + zero[b]]
                else:
                    passing.append((p, a, b))
        for state in passing:
            _follow_zero_point_turns(state, tables, zero, swaps, value, goal, payoff[2])
        for b in range(low, high + 1):
            x = total - b
            swapped = swaps[b][x]
            for p in (0, 1):
                other = value[1 - p]
                after[p][b][x] = other[x * goal + b] if swapped else other[b * goal + x]
    return value[0][start[0] * goal + start[1]]


def _follow_zero_point_turns(state, tables, zero, swaps, value, goal, never) -> None:
    """Give a state that rolls 0 dice for 0 points the value of where that leads."""
    chain = []
    p, a, b = state
    while True:
        chain.append((p, a, b))
        # The mover keeps a and the opponent b; a swap trades them, then the other moves.
        p, a, b = (1 - p, a, b) if swaps[b][a] else (1 - p, b, a)
        if tables[p][a][b] != 0 or zero[b] != 0:
            result = value[p][a * goal + b]
            break
        if (p, a, b) in chain:
            result = never
            break
    for p, a, b in chain:
        value[p][a * goal + b] = result


def exact_match(variant: str | Rules, first: Strategy, second: Strategy,
                goal: int = 100, score0: int = 0, score1: int = 0) -> MatchResult:
    """Exact probabilities that ``first`` (moving first) wins, that ``second`` wins,
    and that the game never ends. ``variant`` is a variant id or tabulated ``Rules``;
    ``score0``/``score1`` are the starting scores, as in the reference ``play``."""
    rules = _rules(variant, goal)
    table0, table1 = _strategy_tables(rules, first, second)
    start = (score0, score1)
    first_wins = expected_payoff(rules, table0, table1, FIRST_WINS, start)
    never = (expected_payoff(rules, table0, table1, NEVER_ENDS, start)
             if can_loop(rules, table0, table1) else 0.0)
    return MatchResult(rules.variant_id, rules.goal, first_wins, 1.0 - first_wins - never, never)


def can_loop(rules: Rules, table0, table1) -> bool:
    """Whether a game can go on for ever: both players roll 0 dice somewhere that scores 0.

    A loop needs a zero-point turn by each player (a swap or not, the same
    state comes back only after the other player has also scored nothing).
    """
    if not rules.has_zero_point_turns or rules.feral_hogs:
        return False
    scoreless = [b for b, points in enumerate(rules.zero_points) if points == 0]
    return all(any(table[a][b] == 0 for a in range(rules.goal) for b in scoreless)
               for table in (table0, table1))


def _strategy_tables(rules: Rules, first, second):
    if rules.feral_hogs:
        from grader.strategy import feral_match
        return feral_match.strategy_form(first, rules.goal), feral_match.strategy_form(second, rules.goal)
    return as_table(first, rules.goal), as_table(second, rules.goal)


def win_rate(variant: str | Rules, strategy: Strategy, baseline: Strategy | None = None,
             goal: int = 100) -> WinRate:
    """Exact win rate of ``strategy`` against ``baseline`` going first and going second
    (the variant's baseline ``always_roll`` when ``baseline`` is None)."""
    from grader.strategy.rules import baseline_rolls
    rules = _rules(variant, goal)
    if baseline is None:
        baseline = always_roll_table(baseline_rolls(rules.variant_id), rules.goal)
    mine, theirs = _strategy_tables(rules, strategy, baseline)
    half = (1.0, 0.0, 0.5)
    as_first = expected_payoff(rules, mine, theirs, half)
    as_second = 1.0 - expected_payoff(rules, theirs, mine, half)
    return WinRate(rules.variant_id, rules.goal, as_first, as_second)
