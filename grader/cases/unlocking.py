"""Unlocking, on the kit's side: what the student folder carries, and what a submission unlocked.

A question's locked cases and concept questions go into ``tests/qNN.md`` as one
HTML comment each, holding the calls in clear and only salted hashes of the
answers (``grader/shipped/student/unlock.py`` computes the same hashes when a
student types an answer, and keeps the answers typed in ``.hog_unlock.json``).
The grader knows the answers from the spec, so it checks a submitted progress
file by comparing answers, not hashes, and reports which questions were unlocked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from grader.shipped.student import unlock as shipped
from grader.spec import Case, Concept, Question, Variant

PROGRESS = shipped.PROGRESS


def case_payload(variant: Variant, case: Case) -> dict:
    """A locked case as the student folder holds it: calls in clear, answers hashed, and where it comes
    from in the handout's words (``rules, Pig Out, example 1``), never the seed file or the spec line."""
    steps = []
    for index, step in enumerate(case.steps):
        salts = [f"{case.id}/{index}/{line}" for line in range(len(step.want.splitlines()))]
        steps.append({"source": step.source.rstrip("\n"),
                      "lines": [shipped.digest(salt, shown) for salt, shown in zip(salts, step.want.splitlines())]})
    return {"id": case.id, "question": case.question, "label": case.label,
            "setup": variant.setup.rstrip("\n").splitlines(), "steps": steps}


def concept_id(variant: Variant, question: Question, index: int) -> str:
    return f"{variant.id}-{question.key}-c{index}"


def concept_payload(variant: Variant, question: Question, index: int, concept: Concept) -> dict:
    ident = concept_id(variant, question, index)
    return {"id": ident, "question": question.number, "prompt": concept.prompt, "choices": list(concept.choices),
            "answer": shipped.digest(ident, str(concept.answer))}


def _comment(kind: str, payload: dict) -> str:
    text = json.dumps(payload, ensure_ascii=False, sort_keys=True).replace("--", "-\\u002d")  # no '--' in a comment
    return f"<!-- {kind} {text} -->"


def locked_lines(variant: Variant, question: Question, case: Case) -> list[str]:
    """The Markdown lines of one locked case in tests/qNN.md."""
    short_id = case.id.removeprefix(f"{variant.id}-")
    return [
        f"<!-- case {short_id} | {case.label} -->",
        f"**Case {short_id}** ({case.label}): locked. Unlock it with `python3 unlock.py -q {question.number}`.",
        "",
        _comment("locked", case_payload(variant, case)),
        "",
    ]


def concept_lines(variant: Variant, question: Question) -> list[str]:
    """The concept questions of a question, asked by unlock.py before its locked cases."""
    lines = []
    for index, concept in enumerate(question.unlock.concepts, start=1):
        lines += [f"**Concept question {index}** (answered with `python3 unlock.py -q {question.number}`)", "",
                  _comment("concept", concept_payload(variant, question, index, concept)), ""]
    return lines


# ------------------------------------------------------------ grading side


@dataclass(frozen=True)
class UnlockStatus:
    question: Question
    unlocked: bool
    done: int        # cases and concept questions unlocked
    total: int

    @property
    def score(self) -> float:
        return self.question.unlock.points if self.unlocked else 0.0


def _expected(variant: Variant, question: Question) -> dict[str, list[str]]:
    """Each locked item's id → its right answers, one per prompt."""
    wanted = {concept_id(variant, question, index): [str(concept.answer)]
              for index, concept in enumerate(question.unlock.concepts, start=1)}
    for case in question.cases:
        if case.locked:
            wanted[case.id] = [line for step in case.steps for line in step.want.splitlines()]
    return wanted


def _right(typed, expected: list[str]) -> bool:
    return (isinstance(typed, list) and len(typed) == len(expected)
            and all(isinstance(a, str) and shipped.canonical(a) == shipped.canonical(b)
                    for a, b in zip(typed, expected)))


def status(submission: Path, variant: Variant, questions: list[Question] | None = None) -> list[UnlockStatus]:
    """Which questions the submission's progress file shows unlocked (its folder's .hog_unlock.json)."""
    folder = submission if submission.is_dir() else submission.parent
    progress = shipped.load_progress(folder)
    result = []
    for question in questions or variant.questions:
        if not question.locked:
            continue
        expected = _expected(variant, question)
        done = sum(_right(progress.get(ident), answers) for ident, answers in expected.items())
        result.append(UnlockStatus(question, done == len(expected), done, len(expected)))
    return result


def still_locked(folder: Path, variant: Variant) -> set[str]:
    """Ids of the locked cases a student's folder has not unlocked yet (a case runs once its answers are in)."""
    progress = shipped.load_progress(folder)
    return {case.id for question in variant.questions for case in question.cases
            if case.locked and not _right(progress.get(case.id), _expected(variant, question)[case.id])}


def items(variant: Variant, question: Question) -> list[dict]:
    """A question's locked items as unlock.py reads them from tests/qNN.md: concept questions first."""
    found = [{**concept_payload(variant, question, index, concept), "kind": "concept"}
             for index, concept in enumerate(question.unlock.concepts, start=1)]
    return found + [{**case_payload(variant, case), "kind": "case"} for case in question.cases if case.locked]


def session(folder: Path, variant: Variant, question: Question | None) -> int:
    """``hog test -u``: unlock.py's session in the terminal (the given question, or the next locked one).
    Returns 0 when done, 1 when the student stopped it (progress is saved)."""
    progress = shipped.load_progress(folder)
    if question is None:
        question = next((q for q in variant.questions
                         if not all(shipped.unlocked(item, progress) for item in items(variant, q))), None)
        if question is None:
            print("Every question is unlocked.")
            return 0
    if not question.locked:
        print(f"Question {question.number} has nothing to unlock.")
        return 0
    return shipped.session(question.number, items(variant, question), folder)
