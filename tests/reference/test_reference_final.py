"""The reference final_strategy rolls exactly what the strategy engine finds optimal."""

import pytest

from grader import reference
from grader.publishing import build
from grader.spec import all_variants
from grader.reference import engine

VARIANTS = all_variants()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_the_committed_table_is_the_optimal_one(variant):
    table = engine.solve(variant.id, variant.goal).table
    expected = ["".join(f"{count:x}" for count in row) for row in table]
    assert build.final_rows(variant) == expected, \
        f"{build.final_table_path(variant)} is stale: run 'hog build --solve' and commit the result"


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_the_reference_final_strategy_reads_the_table(variant):
    strategy = reference.load(variant.id).final_strategy
    rows = build.final_rows(variant)
    assert all(strategy(s, o) == int(rows[s][o], 16) for s in range(variant.goal) for o in range(variant.goal))
    assert strategy(variant.goal + 20, 3) == variant.baseline
