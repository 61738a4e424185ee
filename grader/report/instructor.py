"""What the instructor may know of one graded submission and a student may not.

``grade-batch`` writes this beside each result, in ``OUTDIR/instructor/<name>.json``
(never inside the Gradescope results, which a student can see): which cases failed,
hidden ones by their id, what each returned, the isolation, and the tabulated
``final_strategy`` with its exact win rate. The class report and the contest read it. Where a question's
first failing case is hidden, ``revealed`` (else null) is the question's output as a student would read it were that case
public: the course server shows it once no student can submit any more (``hidden_cases = "after_due"``).
"""

from __future__ import annotations

from grader.grading.grade import GradeResult, QuestionResult
from grader.report.failure import RERUN, revealed
from grader.report.gradescope import counted

FOLDER = "instructor"
FORMAT = 1
DIGITS = "0123456789a"   # a tabulated strategy's row as text: one character per dice count 0..10
MAX_SHOWN = 200      # characters kept of what a case returned: the values are the student's text


def capped(text: str, limit: int = MAX_SHOWN) -> str:
    text = text.rstrip("\n")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def encode_table(table: list[list[int]] | None) -> list[str] | None:
    """A table as one string per score: small to store, quick to read back."""
    return None if table is None else ["".join(map(DIGITS.__getitem__, row)) for row in table]


def decode_table(rows) -> list[list[int]]:
    """The table of ``encode_table``; ValueError for anything else."""
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ValueError("a stored table is a list of strings")
    return [[DIGITS.index(character) for character in row] for row in rows]


def revealed_output(result: GradeResult, question: QuestionResult) -> str:
    """The question's output (as in results.json) with its first failing hidden case shown as a public one."""
    shown = revealed(question, result.variant.setup, RERUN.format(number=question.question.number))
    if not shown:
        return ""
    return counted(question) + "\n\n" + shown


def record(result: GradeResult) -> dict:
    """The instructor-only facts of one graded submission, as plain JSON data."""
    questions = []
    final = None
    for question in result.questions:
        failed = [{"case": verdict.case.id, "hidden": verdict.case.hidden, "step": verdict.step,
                   "got": capped(verdict.got)} for verdict in question.verdicts if not verdict.passed]
        questions.append({"number": question.question.label, **({"name": question.question.name}
                                                                 if question.question.name else {}),
                          "role": question.question.role,
                          "score": question.score, "max_score": question.max_score, "failed": failed,
                          "revealed": revealed_output(result, question) or None})
        if question.question.role == "final_strategy":
            final = {"table": encode_table(question.table), "win_rate": question.win_rate,
                     "message": capped(question.message, 1000)}
    return {"format": FORMAT, "variant": result.variant.id, "isolation": result.isolation,
            "seconds": round(result.seconds, 3), "import_error": result.import_error,
            "grader_error": result.grader_error, "questions": questions, "final_strategy": final}
