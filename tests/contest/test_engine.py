"""The batched round robin gives, for every pair at once, exactly what the strategy lab's
single-pair ``win_rate`` gives, in both seats."""

from __future__ import annotations

import numpy as np
import pytest

from grader.contest import engine
from grader.strategy.match import win_rate
from grader.engine import rules_for


def random_tables(seed: int, count: int, goal: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, 11, size=(count, goal, goal))
    tables[0] = 0                                             # only zero dice: loops where zero scores nothing
    tables[1] = rng.choice([0, 0, 0, 5], size=(goal, goal))    # mostly zero dice
    tables[2] = 4                                             # always_roll(4)
    return tables


def assert_matches_win_rate(rules, tables: np.ndarray, first: np.ndarray) -> None:
    for i in range(len(tables)):
        for j in range(len(tables)):
            rate = win_rate(rules, tables[i].tolist(), tables[j].tolist())
            assert first[i, j] == pytest.approx(rate.as_first, abs=1e-12), (i, j)
            assert 1.0 - first[j, i] == pytest.approx(rate.as_second, abs=1e-12), (i, j)


@pytest.mark.parametrize("variant, goal", [("sp19", 40), ("nju21", 40), ("fa18", 40), ("nju24", 40),
                                           pytest.param("sp19", 100, marks=pytest.mark.slow)])
def test_every_pair_equals_the_single_pair_win_rate(variant, goal):
    rules = rules_for(variant, goal)
    tables = random_tables(sum(map(ord, variant)), 5, goal)
    first = engine.first_mover_matrix(rules, tables, block=2)   # blocks against themselves and each other
    assert_matches_win_rate(rules, tables, first)


def test_worker_processes_give_the_same_matrix():
    rules = rules_for("nju21", 30)
    tables = random_tables(3, 6, 30)
    alone = engine.first_mover_matrix(rules, tables, block=2, jobs=1)
    shared = engine.first_mover_matrix(rules, tables, block=2, jobs=2)
    assert np.array_equal(alone, shared)


def test_feral_hogs_is_played_pair_by_pair_with_the_same_figures():
    rules = rules_for("fa19", 30)
    tables = random_tables(4, 3, 30)
    assert_matches_win_rate(rules, tables, engine.first_mover_matrix(rules, tables))


def test_win_rates_average_both_seats_and_sum_to_one_across_a_pair():
    first = np.array([[0.5, 0.7], [0.4, 0.5]])
    rates = engine.win_rates(first)
    assert rates[0, 1] == pytest.approx((0.7 + 1 - 0.4) / 2)
    assert rates[0, 1] + rates[1, 0] == pytest.approx(1.0)


def test_blocks_cover_every_pair_once():
    pairs = engine.blocks(7, 3)
    covered = np.zeros((7, 7), dtype=int)
    for rows, columns in pairs:
        if columns is None:
            covered[rows, rows] += 1
        else:
            covered[rows, columns] += 1
            covered[columns, rows] += 1
    assert (covered == 1).all()
