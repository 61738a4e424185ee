"""A grader hands the engine a tabulated final_strategy; bad tables fail with a clear message."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from grader.strategy import StrategyTableError, always_roll_table, as_table, validate_table


def test_a_good_table_is_accepted_as_lists():
    table = tuple(tuple(range(11))[:5] for _ in range(5))
    assert validate_table(table, 5) == [[0, 1, 2, 3, 4]] * 5


@pytest.mark.parametrize("table, message", [
    ([[1] * 5] * 4, "must have 5 rows"),
    ([[1] * 5] * 4 + [[1] * 4], "row 4 must have 5 entries"),
    ([[1] * 5] * 4 + [[1, 2, 11, 1, 1]], r"table\[4\]\[2\] = 11"),
    ([[1] * 5] * 4 + [[1, 2, -1, 1, 1]], r"table\[4\]\[2\] = -1"),
    ([[1] * 5] * 4 + [[1, 2, 3.0, 1, 1]], r"table\[4\]\[2\] = 3.0"),
    ([[1] * 5] * 4 + [[True, 2, 3, 1, 1]], r"table\[4\]\[0\] = True"),
    ("abc", "list of 5 rows"),
    ([[1] * 5] * 4 + ["abcde"], "row 4 must be a list"),
])
def test_bad_tables_name_the_problem(table, message):
    with pytest.raises(StrategyTableError, match=message):
        validate_table(table, 5)


def test_functions_are_tabulated_and_checked():
    assert as_table(lambda score, opponent: (score + opponent) % 11, 3)[2][2] == 4
    with pytest.raises(StrategyTableError, match=r"strategy\(0, 0\) returned 12"):
        as_table(lambda score, opponent: 12, 3)


def test_always_roll_rejects_impossible_counts():
    assert always_roll_table(3, 2) == [[3, 3], [3, 3]]
    with pytest.raises(StrategyTableError):
        always_roll_table(11, 2)


@pytest.mark.slow
@given(st.lists(st.lists(st.integers(-3, 14), min_size=4, max_size=4), min_size=4, max_size=4))
def test_validation_accepts_exactly_the_tables_of_dice_counts(table):
    good = all(0 <= v <= 10 for row in table for v in row)
    if good:
        assert validate_table(table, 4) == table
    else:
        with pytest.raises(StrategyTableError):
            validate_table(table, 4)
