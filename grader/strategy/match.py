"""Exact outcome probabilities of a game between two given strategies.

States are (player to move, mover's score, other's score) with both scores
below the goal. A turn adds at least one point unless it rolls 0 dice against
a score whose zero-dice rule gives 0 (nju21), and a swap keeps the sum of the
scores, so the states are solved by decreasing score sum. Within one sum only
zero-point turns connect states, and a zero-dice turn is deterministic: a
state that rolls 0 for 0 points simply takes the value of the state it leads
to, and a loop of such states never ends.

fa19's dice-count bonus (its Feral Hogs) needs the previous dice counts in the
state; ``grader.strategy.dice_count_match`` handles that rule and is used automatically.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from grader.strategy import dice_count_match
from grader.strategy.rules import COUNTS, Rules, roll_arrays
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


def expected_payoff(rules: Rules, table0: Table, table1: Table,
                    payoff: tuple[float, float, float], start: tuple[int, int] = (0, 0)) -> float:
    """Expected payoff of the game with player 0 (``table0``) moving first.

    ``payoff`` is what a game is worth when player 0 wins, when player 1 wins,
    and when it never ends; ``start`` the scores (player 0, player 1) it starts
    from. Tables must be validated already.
    """
    if not all(0 <= score < rules.goal for score in start):
        raise ValueError(f"starting scores must be below the goal {rules.goal}, got {start}")
    if rules.dice_count_bonus:
        return dice_count_match.expected_payoff(rules, dice_count_match.strategy_form(table0, rules.goal),
                                                dice_count_match.strategy_form(table1, rules.goal), payoff, start)
    return float(payoff_values(rules, table0, table1, [payoff])[0, start[0], start[1], 0])


def payoff_values(rules: Rules, table0: Table, table1: Table, payoffs) -> np.ndarray:
    """``values[p, a, b, i]``: expected ``payoffs[i]`` with player ``p`` to move, the
    mover at ``a`` and the other player at ``b`` (player 0 plays ``table0``).

    One pass over the score sums, from the highest down. ``after[p, b, x, i]`` is
    the payoff once player ``p``, against ``b``, ends the turn's points at ``x``
    (swap check and the other player's turn included); a state's value is the
    dot product of a window of its ``after`` row with its dice distribution,
    and a whole score sum is one gather and one ``einsum``.
    """
    goal = rules.goal
    payoffs = np.asarray(payoffs, dtype=float).reshape(-1, 3)
    lo, probs = roll_arrays(rules)
    width = probs.shape[2]
    top = goal + rules.max_points
    row = top + width                                              # after's x axis
    swaps = np.array(rules.swaps, dtype=bool)                      # [b, x], x < top
    zero = np.array(rules.zero_points, dtype=np.intp)
    choice = np.array([table0, table1], dtype=np.intp)             # [p, a, b]
    after = np.zeros((2, goal, row, len(payoffs)))
    for p in (0, 1):
        after[p, :, goal:top] = np.where(swaps[:, goal:, None], payoffs[:, 1 - p], payoffs[:, p])
    after = after.reshape(2 * goal * row, len(payoffs))
    windows = np.lib.stride_tricks.sliding_window_view(after, width, axis=0)  # [(p, b, x), i, k]
    # Every state, ordered by decreasing score sum; ``position[p, a, b]`` is its place.
    player, mover, other = (axis.ravel() for axis in np.indices((2, goal, goal)))
    sums = mover + other
    order = np.argsort(-sums, kind="stable")
    player, mover, other, sums = player[order], mover[order], other[order], sums[order]
    position = np.empty(2 * goal * goal, dtype=np.intp)
    position[order] = np.arange(len(order))
    position = position.reshape(2, goal, goal)
    n = choice[player, mover, other]
    parity = mover & 1
    start = (player * goal + other) * row + mover + np.where(n == 0, zero[other], lo[parity, n])
    rows = parity * COUNTS + n
    flat_probs = probs.reshape(2 * COUNTS, width)
    # The entries of ``after`` one score sum fills: (p, b, x) for each state (q, x, b)
    # of that sum, from the other player's state after the swap check.
    swapped = swaps[other, mover]
    filled = (player * goal + other) * row + mover
    source = np.where(swapped, position[1 - player, mover, other], position[1 - player, other, mover])
    bounds = np.searchsorted(-sums, np.arange(-(2 * goal - 2), 1), side="left").tolist() + [len(sums)]
    passes_at = {}
    for index in np.flatnonzero((n == 0) & (zero[other] == 0)).tolist():
        passes_at.setdefault(int(sums[index]), []).append(
            (int(player[index]), int(mover[index]), int(other[index])))
    values = np.zeros((len(order), len(payoffs)))
    never = payoffs[:, 2]
    for total in range(2 * goal - 2, -1, -1):
        first, last = bounds[2 * goal - 2 - total], bounds[2 * goal - 1 - total]
        values[first:last] = np.einsum("sik,sk->si", windows[start[first:last]],
                                       flat_probs[rows[first:last]])
        for state in passes_at.get(total, ()):
            _follow_zero_point_turns(state, choice, zero, swaps, values, position, never)
        after[filled[first:last]] = values[source[first:last]]
    return values[position]


def _follow_zero_point_turns(state, choice, zero, swaps, values, position, never) -> None:
    """Give a state that rolls 0 dice for 0 points the value of where that leads."""
    chain = []
    p, a, b = state
    while True:
        chain.append((p, a, b))
        # The mover keeps a and the opponent b; a swap trades them, then the other moves.
        p, a, b = (1 - p, a, b) if swaps[b, a] else (1 - p, b, a)
        if choice[p, a, b] != 0 or zero[b] != 0:
            result = values[position[p, a, b]].copy()
            break
        if (p, a, b) in chain:
            result = never
            break
    for p, a, b in chain:
        values[position[p, a, b]] = result


def exact_match(rules: Rules, first: Strategy, second: Strategy,
                score0: int = 0, score1: int = 0) -> MatchResult:
    """Exact probabilities that ``first`` (moving first) wins, that ``second`` wins,
    and that the game never ends under ``rules``; ``score0``/``score1`` are the
    starting scores, as in the reference ``play``."""
    table0, table1 = _strategy_tables(rules, first, second)
    start = (score0, score1)
    if not all(0 <= score < rules.goal for score in start):
        raise ValueError(f"starting scores must be below the goal {rules.goal}, got {start}")
    if rules.dice_count_bonus:
        first_wins = expected_payoff(rules, table0, table1, FIRST_WINS, start)
        never = 0.0
    elif can_loop(rules, table0, table1):
        values = payoff_values(rules, table0, table1, [FIRST_WINS, NEVER_ENDS])[0, score0, score1]
        first_wins, never = float(values[0]), float(values[1])
    else:
        first_wins = float(payoff_values(rules, table0, table1, [FIRST_WINS])[0, score0, score1, 0])
        never = 0.0
    return MatchResult(rules.variant_id, rules.goal, first_wins, 1.0 - first_wins - never, never)


def can_loop(rules: Rules, table0, table1) -> bool:
    """Whether a game can go on for ever: both players roll 0 dice somewhere that scores 0.

    A loop needs a zero-point turn by each player (a swap or not, the same
    state comes back only after the other player has also scored nothing).
    """
    if not rules.has_zero_point_turns or rules.dice_count_bonus:
        return False
    scoreless = [b for b, points in enumerate(rules.zero_points) if points == 0]
    return all(any(table[a][b] == 0 for a in range(rules.goal) for b in scoreless)
               for table in (table0, table1))


def _strategy_tables(rules: Rules, first, second):
    if rules.dice_count_bonus:
        return (dice_count_match.strategy_form(first, rules.goal),
                dice_count_match.strategy_form(second, rules.goal))
    return as_table(first, rules.goal), as_table(second, rules.goal)


def win_rate(rules: Rules, strategy: Strategy, baseline: Strategy | None = None) -> WinRate:
    """Exact win rate of ``strategy`` against ``baseline`` going first and going second
    (the variant's baseline ``always_roll(rules.baseline)`` when ``baseline`` is None)."""
    if baseline is None:
        baseline = always_roll_table(rules.baseline, rules.goal)
    mine, theirs = _strategy_tables(rules, strategy, baseline)
    half = (1.0, 0.0, 0.5)
    if rules.dice_count_bonus:
        as_first = expected_payoff(rules, mine, theirs, half)
        as_second = 1.0 - expected_payoff(rules, theirs, mine, half)
    else:
        # One pass gives both: with ``theirs`` to move first from 0-0 (player 1 at 0-0).
        values = payoff_values(rules, mine, theirs, [half])
        as_first, as_second = float(values[0, 0, 0, 0]), float(values[1, 0, 0, 0])
    return WinRate(rules.variant_id, rules.goal, as_first, as_second)
