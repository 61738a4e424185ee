"""Strategies as tables: ``table[score][opponent_score]`` is a dice count 0..10.

The engine accepts a strategy in any of three forms and turns it into a table:
a table (``list[list[int]]``, as the grader tabulates a student's
``final_strategy``), an object with a ``table`` attribute (the optimal
strategies of this package), or a function ``(score, opponent_score) -> int``.
"""

from __future__ import annotations

from typing import Callable, Sequence, Union

from grader.strategy.distributions import MAX_DICE

Table = list[list[int]]
Strategy = Union[Callable[[int, int], int], Sequence[Sequence[int]]]


class StrategyTableError(ValueError):
    """A strategy table has the wrong shape or a dice count outside 0..10."""


def _is_dice_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_DICE


def validate_table(table, goal: int) -> Table:
    """Check that ``table`` has ``goal`` rows of ``goal`` ints from 0 to 10; return it as lists."""
    if isinstance(table, (str, bytes)) or not isinstance(table, Sequence):
        raise StrategyTableError(f"a strategy table must be a list of {goal} rows, "
                                 f"got {type(table).__name__}")
    if len(table) != goal:
        raise StrategyTableError(f"a strategy table must have {goal} rows (one per score "
                                 f"0..{goal - 1}), got {len(table)}")
    rows = []
    for score, row in enumerate(table):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise StrategyTableError(f"row {score} must be a list of {goal} dice counts, "
                                     f"got {type(row).__name__}")
        if len(row) != goal:
            raise StrategyTableError(f"row {score} must have {goal} entries (one per opponent "
                                     f"score 0..{goal - 1}), got {len(row)}")
        if set(map(type, row)) == {int} and 0 <= min(row) and max(row) <= MAX_DICE:
            rows.append(list(row))
            continue
        for opponent_score, value in enumerate(row):
            if not _is_dice_count(value):
                raise StrategyTableError(
                    f"table[{score}][{opponent_score}] = {value!r}: a dice count must be "
                    f"an int from 0 to {MAX_DICE}")
        rows.append(list(row))
    return rows


def tabulate(strategy: Callable[[int, int], int], goal: int) -> Table:
    """Call ``strategy(score, opponent_score)`` for every score pair below ``goal``."""
    table = []
    for score in range(goal):
        row = []
        for opponent_score in range(goal):
            value = strategy(score, opponent_score)
            if not _is_dice_count(value):
                raise StrategyTableError(
                    f"strategy({score}, {opponent_score}) returned {value!r}: a dice count "
                    f"must be an int from 0 to {MAX_DICE}")
            row.append(value)
        table.append(row)
    return table


def as_table(strategy: Strategy, goal: int) -> Table:
    """The table of a strategy given as a table, a tabulated strategy object or a function."""
    table = getattr(strategy, "table", None)
    if table is not None and not callable(table):
        return validate_table(table, goal)
    if callable(strategy):
        return tabulate(strategy, goal)
    return validate_table(strategy, goal)


def always_roll_table(num_rolls: int, goal: int) -> Table:
    """The table of ``always_roll(num_rolls)``."""
    if not _is_dice_count(num_rolls):
        raise StrategyTableError(f"always_roll needs a dice count from 0 to {MAX_DICE}, "
                                 f"got {num_rolls!r}")
    return [[num_rolls] * goal for _ in range(goal)]
