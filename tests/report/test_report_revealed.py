"""A hidden case that failed: the results a student reads say only that one failed; the instructor's record
keeps the question's output as it would read were the case public (the session, expected, got), which the
course server shows once its assignment's hidden cases are shown (``hidden_cases``)."""

import json
from dataclasses import replace

from grader.grading.grade import CaseVerdict, GradeResult, QuestionResult
from grader.report import FORMATS, instructor
from grader.spec import load_variant


def hidden_failed() -> GradeResult:
    """An sp19 result whose first question failed a hidden case (built by hand from a public one: no sandbox)."""
    variant = load_variant("sp19")
    question = variant.questions[0]
    public = question.cases[0]
    case = replace(public, id=f"sp19-q{question.number}-hidden-4", hidden=True, origin="generated")
    verdict = CaseVerdict(case, False, step=len(case.steps) - 1, got="-1\n")
    questions = [QuestionResult(question, 0.0, [verdict])] + [QuestionResult(q, q.points, [])
                                                            for q in variant.questions[1:]]
    return GradeResult(variant, "hog.py", questions, isolation="files", seconds=1.0, seed=7)


def test_the_results_say_a_hidden_case_failed_and_the_instructor_record_keeps_it_as_a_public_one_reads():
    result = hidden_failed()
    case = result.questions[0].verdicts[0].case
    call = case.steps[-1].source.splitlines()[0]
    student = json.loads(FORMATS["json"](result))["tests"][0]["output"]
    assert "a hidden case failed" in student and call not in student and "-1" not in student
    kept = instructor.record(result)["questions"]
    shown = kept[0]["revealed"]
    assert shown.startswith("0/1 cases passed\n\n")
    assert f">>> {call}" in shown and "# Error: expected" in shown and "# but got\n#     -1" in shown
    assert "hidden case 4" in shown and all(each["revealed"] is None for each in kept[1:])


def test_a_question_whose_first_failure_is_public_keeps_nothing_more():
    result = hidden_failed()
    first = result.questions[0]
    public = CaseVerdict(first.question.cases[0], False, got="-1\n")
    result.questions[0] = QuestionResult(first.question, 0.0, [public, *first.verdicts])
    assert instructor.record(result)["questions"][0]["revealed"] is None
