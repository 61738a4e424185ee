"""The batched round robin gives, for every pair at once, exactly what the strategy lab's
single-pair ``win_rate`` gives, in both seats."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from grader.contest import engine
from grader.contest.entrants import Entrant
from grader.contest.tournament import play
from grader.strategy.match import win_rate
from grader.reference.engine import rules_for
from grader.spec import load_variant


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


FA19_GOAL = 16


@pytest.mark.slow   # compiles the fa19 loop and plays 15 drawn blocks: about 4 s
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), counts=st.lists(st.integers(0, 10), min_size=1, max_size=11, unique=True),
       block=st.integers(1, 4))
def test_feral_hogs_blocks_give_the_single_pair_win_rate(seed, counts, block):
    """fa19's state holds the previous dice counts: tables that use few counts or every one,
    counts two apart (the bonus) or not, blocks of any size."""
    rules = rules_for("fa19", FA19_GOAL)
    rng = np.random.default_rng(seed)
    tables = rng.choice(counts, size=(4, FA19_GOAL, FA19_GOAL))
    tables[0] = rng.integers(0, 11, size=(FA19_GOAL, FA19_GOAL))
    assert_matches_win_rate(rules, tables, engine.first_mover_matrix(rules, tables, block=block))


@pytest.mark.slow
def test_feral_hogs_on_the_full_game_gives_the_single_pair_win_rate():
    rules = rules_for("fa19", 100)
    tables = random_tables(4, 3, 100)
    tables[1] = np.where(np.add.outer(np.arange(100), -np.arange(100)) < 0, 6, 4)   # 4 ahead, 6 behind: the bonus
    first = engine.first_mover_matrix(rules, tables, block=2, jobs=2)
    assert_matches_win_rate(rules, tables, first)


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_pair_of_blocks_played_advances_the_progress_by_its_matchups(jobs):
    rules = rules_for("sp19", 30)
    told = []
    engine.first_mover_matrix(rules, random_tables(5, 5, 30), block=2, jobs=jobs, advance=told.append)
    assert sorted(told) == [0, 1, 1, 2, 2, 4] and sum(told) == 5 * 4 // 2   # blocks of 2, 2 and 1


def test_a_contest_shows_the_matchups_played_of_all(recorded_progress):
    tables = random_tables(7, 4, 100)
    entrants = [Entrant(f"s{n}", f"s{n}", tables[n].tolist()) for n in range(4)] + [Entrant("out", "x", None, "no")]
    play(load_variant("sp19"), entrants, progress=recorded_progress)
    assert recorded_progress.done() == [("playing matchups", 6, 6)]


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


@pytest.mark.slow   # compiles the loop afresh (a few seconds)
def test_the_compiled_fa19_loop_is_cached_in_the_kits_cache_never_inside_the_package(tmp_path):
    """An instructor's fa19 contest leaves nothing inside the installed kit (its folder may be read-only,
    or shared by other courses): Numba's compiled loop goes to HOG_CACHE/numba."""
    import os
    import subprocess
    import sys

    from grader import project

    def compiled() -> set:
        return {path for path in project.PACKAGE.rglob("*") if path.suffix in (".nbi", ".nbc")}

    before = compiled()
    script = ("import numpy as np\nfrom grader.contest import engine\nfrom grader.reference.engine import rules_for\n"
              "tables = np.random.default_rng(1).integers(0, 11, (3, 100, 100))\n"
              "print(engine.first_mover_matrix(rules_for('fa19', 100), tables)[0, 1])\n")
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    run = subprocess.run([sys.executable, "-c", script], env={**env, "HOG_CACHE": str(tmp_path / "cache")},
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert 0 < float(run.stdout) < 1
    assert compiled() == before
    assert list((tmp_path / "cache" / "numba").rglob("*.nbi"))
