"""The spec's unlocking fields: ``locked: true`` on a public case, and a question's ``unlock:``
mapping (concept questions with numbered choices, and the points unlocking earns, none by default).

A locked case's answers must be ones a student can type at the unlock prompt and the kit can hash:
values written as Python shows them, or printed lines; never an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from grader.errors import SpecError
from grader.shipped.student.unlock import canonical
from grader.spec.yaml_lines import Key, Mapping, Node, mapping

UNLOCK = {"concepts": Key(list, []), "points": Key(float, 0.0)}
CONCEPT = {"prompt": Key(str), "choices": Key(list), "answer": Key(int)}


@dataclass(frozen=True)
class Concept:
    """A question about the rules a student answers while unlocking: numbered choices, one right."""
    prompt: str
    choices: tuple[str, ...]
    answer: int             # the right choice, counted from 1
    line: int


@dataclass(frozen=True)
class Unlock:
    """What a question asks before its locked cases run, and the points unlocking earns."""
    concepts: tuple[Concept, ...] = ()
    points: float = 0.0
    line: int = 0


def locked(case_item: Mapping, steps: Sequence, path: str) -> bool:
    """A case's ``locked: true``: public, and every answer one a student can type and the kit can hash."""
    if not case_item.get("locked"):
        return False
    line = case_item.line_of("locked")
    if case_item.get("hidden"):
        raise SpecError(path, line, "a hidden case cannot be locked", "students never see hidden cases; "
                        "remove 'locked' or 'hidden'")
    if not any(step.want for step in steps):
        raise SpecError(path, line, "a locked case has nothing to predict", "lock a case whose session shows "
                        "an answer, or remove 'locked'")
    for step in steps:
        if step.want.startswith("Traceback") or "<BLANKLINE>" in step.want:
            raise SpecError(path, line, f"the answer of '{step.source.strip()}' cannot be typed at the unlock "
                            "prompt", "lock only cases whose answers are values or printed lines")
        for shown in step.want.splitlines():
            if canonical(shown)[1] != shown.rstrip():
                raise SpecError(path, line, f"'{shown}' is not written the way Python shows it "
                                f"(it shows {canonical(shown)[1]})", "write the answer as the call shows it")
    return True


def unlock(node: Node | None, cases: Sequence, number: str, path: str) -> Unlock:
    """A question's ``unlock:`` mapping: concept questions and points (none by default)."""
    if node is None:
        return Unlock()
    item = mapping(node, path, UNLOCK, "'unlock'")
    concepts = tuple(_concept(entry, path) for entry in item.get("concepts"))
    points = float(item.get("points"))
    if points < 0:
        raise SpecError(path, item["points"].line, "unlock points cannot be negative")
    if not concepts and not any(case.locked for case in cases):
        raise SpecError(path, node.line, f"question {number} has 'unlock' but nothing to unlock",
                        "add 'concepts' or mark a public case 'locked: true'")
    return Unlock(concepts, points, node.line)


def _concept(node: Node, path: str) -> Concept:
    item = mapping(node, path, CONCEPT, "a concept question")
    choices = []
    for choice in item.get("choices"):
        if type(choice.value) not in (str, int, float) or type(choice.value) is bool:
            raise SpecError(path, choice.line, "each choice is a line of text")
        choices.append(str(choice.value).strip())
    if len(choices) < 2:
        raise SpecError(path, item["choices"].line, "a concept question needs at least two choices",
                        "list the right answer and at least one wrong one")
    answer = item.get("answer")
    if not 1 <= answer <= len(choices):
        raise SpecError(path, item["answer"].line, f"answer {answer} is not one of the choices",
                        f"give the number of the right choice, 1 to {len(choices)}")
    return Concept(item.text("prompt"), tuple(choices), answer, node.line)
