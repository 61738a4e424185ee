"""Every case passes on the reference solution and fails on the skeleton."""

import pytest

from grader import project
from grader.spec import all_variants
from tests.sessions import load_folder, run_case

VARIANTS = {variant.id: variant for variant in all_variants()}
CASES = [(variant.id, case) for variant in VARIANTS.values() for case in variant.cases]
POINTS = {(v.id, q.number): q.points for v in VARIANTS.values() for q in v.questions}


@pytest.fixture(scope="module")
def folders():
    loaded = {}

    def load(kind, variant_id):
        if (kind, variant_id) not in loaded:
            loaded[kind, variant_id] = load_folder(project.ROOT / kind / variant_id)
        return loaded[kind, variant_id]
    return load


@pytest.mark.parametrize("variant_id, case", CASES, ids=[case.id for _, case in CASES])
def test_case_passes_on_the_solution(variant_id, case, folders):
    report = run_case(VARIANTS[variant_id], case, folders("solution", variant_id))
    assert report == "", f"{case.where} ({case.origin}) fails on the solution:\n{report}"


@pytest.mark.parametrize("variant_id, case", [(v, c) for v, c in CASES if POINTS[v, c.question] > 0],
                         ids=[case.id for v, case in CASES if POINTS[v, case.question] > 0])
def test_case_fails_on_the_skeleton(variant_id, case, folders):
    report = run_case(VARIANTS[variant_id], case, folders("skeleton", variant_id))
    assert report != "", f"{case.where} ({case.origin}) passes on the skeleton: it cannot tell a " \
                         f"student who solved question {case.question} from one who did not"
