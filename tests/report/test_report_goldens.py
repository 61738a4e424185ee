"""The three report formats read exactly as their golden files (refresh: pytest --update-goldens).

The result is built here, by hand, so no sandbox runs: a passed question, a public
case that failed, a hidden case that failed, and a final strategy scored by its
win rate.
"""

import textwrap

import pytest

from grader import spec
from grader.grading.grade import CaseVerdict, GradeResult, QuestionResult
from grader.report import FORMATS

SPEC = textwrap.dedent("""\
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
      - number: "01"
        role: roll_dice
        function: roll_dice
        title: Rolling dice
        phase: 1
        points: 2
        cases:
          - origin: added
            session: |
              >>> roll_dice(2, make_test_dice(4, 5))
              9
      - number: "02"
        role: zero_dice
        function: free_bacon
        title: Free Bacon
        phase: 1
        points: 1
        cases:
          - origin: "000_ceee3136f82db69d.txt: Free Bacon, example 1"
            session: |
              >>> free_bacon(10)
              1
              >>> free_bacon(35)
              6
      - number: "03"
        role: play
        function: play
        title: Playing the game
        phase: 1
        points: 3
        cases:
          - origin: added
            hidden: true
            session: |
              >>> play(always_roll(5), always_roll(5), dice=make_test_dice(3), goal=20)
              (20, 15)
      - number: "04"
        role: final_strategy
        function: final_strategy
        title: Final strategy
        phase: 1
        points: 3
        thresholds:
          - win_rate: 0.55
            points: 1
          - win_rate: 0.6
            points: 3
        cases:
          - origin: added
            session: |
              >>> final_strategy(0, 0) in range(11)
              True
    """)


def fixed_result() -> GradeResult:
    variant = spec.parse(SPEC, "specs/demo.yaml")
    q1, q2, q3, q4 = variant.questions
    return GradeResult(variant, "submissions/alice/hog.py", [
        QuestionResult(q1, 2.0, [CaseVerdict(q1.cases[0], True)]),
        QuestionResult(q2, 0.0, [CaseVerdict(q2.cases[0], False, step=1, got="5\n")]),
        QuestionResult(q3, 0.0, [CaseVerdict(q3.cases[0], False, got="(15, 20)\n")]),
        QuestionResult(q4, 1.0, [CaseVerdict(q4.cases[0], True)],
                       "exact average win rate against always_roll(4): 0.571234 (0.6 earns 3 of 3 points)"),
    ], isolation="bubblewrap (file system, network), limits, system call filter", seconds=1.25)


@pytest.mark.parametrize("fmt, name", [("text", "report.txt"), ("json", "report.json"), ("junit", "report.xml")])
def test_each_report_format_reads_as_its_golden_file(fmt, name, golden):
    golden(name, FORMATS[fmt](fixed_result()))


def test_a_grader_fault_reads_as_its_golden_file(golden):
    result = fixed_result()
    result.grader_error = "the reference solution of demo could not be loaded"
    golden("report-grader-failed.txt", FORMATS["text"](result))
