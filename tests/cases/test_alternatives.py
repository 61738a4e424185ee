"""A hidden case only tests what the rules fix: where the rules leave a choice, the spec lists the
other choices as allowed alternatives, and no case (public or hidden) tells them apart."""

import doctest

import pytest

from grader import cases, spec
from grader.spec import SpecError

VARIANTS = ("sp19", "nju24", "nju21", "fa19", "fa18")
_CHECKER = doctest.OutputChecker()


def _shows(api: cases.Api, case) -> bool:
    shown = cases.run_reference(api, [step.source for step in case.steps])
    return all(_CHECKER.check_output(step.want, got, doctest.DONT_ACCEPT_TRUE_FOR_1)
               for step, got in zip(case.steps, shown))


def _with_alternatives(variant_id):
    variant = spec.load_variant(variant_id)
    return variant, [(question, alternative) for question in variant.questions
                     for alternative in question.alternatives]


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_an_allowed_alternative_passes_every_public_and_hidden_case(variant_id):
    variant, alternatives = _with_alternatives(variant_id)
    assert alternatives, "every variant names at least the order of max_scoring_num_rolls' trials"
    hidden = cases.hidden_cases(variant)
    for question, alternative in alternatives:
        api = cases.Api(variant, alternative.source)
        graded = [case for case in question.cases + hidden if case.question == question.number]
        failing = [case.id for case in graded if not _shows(api, case)]
        assert failing == [], f"{variant_id} q{question.number}: {alternative.choice}"


def test_the_order_of_max_scoring_trials_is_not_graded_in_fa19():
    """The issue's case: cycling dice, 29 samples: 1 up to 10 gives 4, 10 down to 1 gives 3."""
    variant, alternatives = _with_alternatives("fa19")
    question, alternative = next(pair for pair in alternatives if pair[0].role == "max_scoring_num_rolls")
    call = "max_scoring_num_rolls(make_test_dice(3, 6, 1, 2, 2, 6), 29)\n"
    assert cases.run_reference(cases.Api(variant), [call]) == ["4\n"]
    assert cases.run_reference(cases.Api(variant, alternative.source), [call]) == ["3\n"]
    drawn = [case for case in cases.hidden_cases(variant)
             if case.question == question.number and case.origin == cases.GENERATED]
    assert len(drawn) == 10  # candidates the two orders disagree on are replaced by new draws


def test_undecided_score_pairs_are_left_out_of_a_strategy_table_not_the_whole_table():
    variant = spec.load_variant("nju21")
    tables = [case for case in cases.hidden_cases(variant) if case.question == "11" and case.origin == cases.GENERATED]
    assert len(tables) == 4
    assert any("not in {" in case.steps[0].source for case in tables)
    left_out = cases.undecided(variant)["11"]
    assert left_out["pairs_left_out"] > 0 and left_out["dropped"] == 0


def test_fa18_reads_equal_score_swaps_as_the_course_does():
    """'does not trigger a non-beneficial swap': rolling 0 against 1 from 0 swaps 1 and 1, so roll NUM_ROLLS."""
    variant = spec.load_variant("fa18")
    assert cases.run_reference(cases.Api(variant), ["swap_strategy(0, 1, margin=1)\n"]) == ["4\n"]


GOOD = """\
id: demo
title: Demo rules
course: A course
seed: 000_ceee3136f82db69d.txt
phases:
  - number: 1
    title: Simulator
rules:
  - name: Free Bacon
    summary: Rolling zero dice scores something.
questions:
  - number: "02"
    role: zero_dice
    function: free_bacon
    title: Free Bacon
    phase: 1
    points: 1
    alternatives:
      - choice: Anything.
        source: |
          def free_bacon(score):
              return 1 +
    cases:
      - origin: added
        session: |
          >>> free_bacon(10)
          1
"""


def test_an_alternative_that_is_not_python_is_a_located_spec_error():
    with pytest.raises(SpecError) as error:
        spec.parse(GOOD, "specs/demo.yaml")
    assert str(error.value).startswith("specs/demo.yaml:22: the alternative is not valid Python")


def test_an_unknown_forbidden_construct_names_the_known_ones():
    text = GOOD.replace("return 1 +", "return 1").replace("    alternatives:\n", "    forbid: [for loop]\n    alternatives:\n")
    with pytest.raises(SpecError) as error:
        spec.parse(text, "specs/demo.yaml")
    assert "unknown construct 'for loop' under 'forbid' (did you mean 'for loops'?)" in str(error.value)
