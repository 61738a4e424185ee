"""A question's ``alternatives`` (choices the rules leave open) and ``forbid`` (constructs its
function may not use), read from the spec like every other field: errors name file and line."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from grader.errors import SpecError
from grader.shipped.student import constructs
from grader.spec.yaml_lines import Key, Mapping, closest, mapping

CONSTRUCTS = constructs.CONSTRUCTS
"""Constructs a spec may forbid in a question's function (checked on the source with ``ast``)."""
ALTERNATIVE = {"choice": Key(str), "source": Key(str)}


@dataclass(frozen=True)
class Alternative:
    """A choice the rules leave open, as a small variant of the reference.

    ``source`` defines one or more functions that replace the reference's
    functions of the same names; a hidden case is kept only when the reference
    and every alternative show the same thing."""
    choice: str      # what a correct solution may do differently, in a sentence
    source: str
    line: int


def alternatives(item: Mapping, path: str) -> tuple[Alternative, ...]:
    """A question's ``alternatives``: each a ``choice`` sentence and the ``source`` of the replacement."""
    found = []
    for node in item.get("alternatives"):
        entry = mapping(node, path, ALTERNATIVE, "an alternative")
        source = str(entry.get("source"))
        try:
            tree = ast.parse(source)
        except SyntaxError as error:
            raise SpecError(path, entry["source"].line + (error.lineno or 1),
                            f"the alternative is not valid Python: {error.msg}",
                            "write one or more 'def' blocks replacing reference functions") from None
        if not tree.body or not all(isinstance(statement, ast.FunctionDef) for statement in tree.body):
            raise SpecError(path, entry["source"].line, "an alternative's source holds only 'def' blocks",
                            "define the replacing function(s), nothing else")
        found.append(Alternative(entry.text("choice"), source, node.line))
    return tuple(found)


def forbidden(item: Mapping, path: str) -> tuple[str, ...]:
    """A question's ``forbid``: constructs its function may not use."""
    found = []
    for node in item.get("forbid"):
        if node.value not in CONSTRUCTS:
            close = closest(str(node.value), CONSTRUCTS)
            raise SpecError(path, node.line, f"unknown construct '{node.value}' under 'forbid'",
                            f"did you mean '{close}'?" if close else f"one of: {', '.join(CONSTRUCTS)}")
        found.append(node.value)
    return tuple(found)
