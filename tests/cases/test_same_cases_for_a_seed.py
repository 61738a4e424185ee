"""A seed recorded in a result keeps reproducing its hidden cases: for several seeds and every variant,
each question's hidden cases (what each step types and what it must show) and what the rules left
undecided are those kept in tests/goldens/hidden-cases/ (refreshed with ``python -m pytest
--update-goldens`` only when a change of the cases is intended, which makes earlier seeds grade other cases)."""

import hashlib
import json

import pytest

from grader import cases
from grader.spec import load_variant

VARIANTS = ("fa18", "fa19", "nju21", "nju24", "sp19")
SEEDS = (0, 1, 4242, 20261126, 999999937)


def _digest(found) -> str:
    shown = [[case.id, case.origin, [[step.source, step.want] for step in case.steps]] for case in found]
    return hashlib.sha256(json.dumps(shown).encode("utf-8")).hexdigest()[:20]


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", VARIANTS)
def test_each_seed_draws_the_same_hidden_cases_as_before(golden, variant_id):
    variant = load_variant(variant_id)
    drawn = {}
    for seed in SEEDS:
        by_question = {question.number: cases.question_hidden_cases(variant, question.number, seed)
                       for question in variant.questions}
        whole = cases.hidden_cases(variant, seed)
        assert whole == tuple(case for found in by_question.values() for case in found)
        drawn[str(seed)] = {"questions": {number: [len(found), _digest(found)] for number, found in by_question.items()},
                            "undecided": cases.undecided(variant, seed)}
    golden(f"hidden-cases/{variant_id}.json", json.dumps(drawn, indent=1, sort_keys=True) + "\n")
