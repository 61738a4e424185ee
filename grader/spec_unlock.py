"""The spec's unlocking fields: ``locked: true`` on a public case, and a question's ``unlock:``
mapping (concept questions with numbered choices, and the points unlocking earns, none by default).

A locked case's answers must be ones a student can type at the unlock prompt and the kit can hash:
values written as Python shows them, or printed lines; never an error.
"""

from __future__ import annotations

from grader.sources.student.unlock import canonical
from grader.spec import Case, Concept, SpecError, Step, Unlock, _get, _mapping, _Node, _text


def locked(case_item: dict[str, _Node], steps: tuple[Step, ...], path: str) -> bool:
    """A case's ``locked: true``: public, and every answer one a student can type and the kit can hash."""
    if not _get(case_item, "locked", False):
        return False
    line = case_item["locked"].line
    if _get(case_item, "hidden", False):
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


def unlock(node: _Node | None, cases: list[Case], number: str, path: str) -> Unlock:
    """A question's ``unlock:`` mapping: concept questions and points (none by default)."""
    if node is None:
        return Unlock()
    item = _mapping(node, path, {"concepts": (list, False), "points": (float, False)}, "'unlock'")
    concepts = tuple(_concept(entry, path) for entry in _get(item, "concepts", []))
    points = float(_get(item, "points", 0))
    if points < 0:
        raise SpecError(path, item["points"].line, "unlock points cannot be negative")
    if not concepts and not any(case.locked for case in cases):
        raise SpecError(path, node.line, f"question {number} has 'unlock' but nothing to unlock",
                        "add 'concepts' or mark a public case 'locked: true'")
    return Unlock(concepts, points, node.line)


def _concept(node: _Node, path: str) -> Concept:
    item = _mapping(node, path, {"prompt": (str, True), "choices": (list, True), "answer": (int, True)},
                    "a concept question")
    choices = []
    for choice in _get(item, "choices"):
        if type(choice.value) not in (str, int, float) or type(choice.value) is bool:
            raise SpecError(path, choice.line, "each choice is a line of text")
        choices.append(str(choice.value).strip())
    if len(choices) < 2:
        raise SpecError(path, item["choices"].line, "a concept question needs at least two choices",
                        "list the right answer and at least one wrong one")
    answer = _get(item, "answer")
    if not 1 <= answer <= len(choices):
        raise SpecError(path, item["answer"].line, f"answer {answer} is not one of the choices",
                        f"give the number of the right choice, 1 to {len(choices)}")
    return Concept(_text(item, "prompt"), tuple(choices), answer, node.line)
