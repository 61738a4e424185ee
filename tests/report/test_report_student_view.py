"""What a student reads of a failed case names the handout's rules, never the kit's files; the
instructor's text report keeps the seed file and the spec's line."""

import json

from grader.grading.grade import CaseVerdict, GradeResult, QuestionResult
from grader.report import FORMATS
from grader.spec import load_variant


def feral_hogs_failed() -> tuple[GradeResult, object]:
    """An fa19 result whose play question failed Feral Hogs, example 1 (built by hand: no sandbox)."""
    variant = load_variant("fa19")
    case = next(case for case in variant.cases if case.rule == "Feral Hogs" and case.example == 1)
    questions = [QuestionResult(q, 0.0, [CaseVerdict(case, False, step=len(case.steps) - 1, got="[]\n")])
                 if q.number == case.question else QuestionResult(q, q.points, []) for q in variant.questions]
    return GradeResult(variant, "submissions/alice/hog.py", questions, isolation="files", seconds=1.0), case


def test_the_gradescope_results_a_student_reads_name_the_rule_and_no_file():
    result, case = feral_hogs_failed()
    output = next(test["output"] for test in json.loads(FORMATS["json"](result))["tests"]
                  if test["status"] == "failed")
    assert "\n(rules, Feral Hogs, example 1)\n" in output
    assert case.path not in output and ".yaml" not in output and ".txt" not in output


def test_hog_test_names_the_rule_and_no_file():
    result, case = feral_hogs_failed()
    text = FORMATS["text"](result, student=True)
    assert "\n(rules, Feral Hogs, example 1)\n" in text
    assert case.path not in text and ".yaml" not in text and ".txt" not in text


def test_the_instructors_text_report_keeps_the_seed_file_and_the_spec_line():
    result, case = feral_hogs_failed()
    assert case.origin == "003_aa1da60b508e5a76.txt: Feral Hogs, example 1"
    for fmt in ("text", "junit"):
        assert f"(003_aa1da60b508e5a76.txt: Feral Hogs, example 1; {case.path}:{case.line})" in FORMATS[fmt](result)
