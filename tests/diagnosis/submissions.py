"""A submission run here, in the test's process, for the diagnosis's own tests: the reference with one
piece of its text replaced (a mutant), and the traced session's value as the sandbox would return it."""

from __future__ import annotations

import contextlib
import io

from grader import reference
from grader.cases.calling import compiled
from grader.reference import hog_source
from grader.spec import load_variant


def mutant(variant_id: str, old: str, new: str) -> dict:
    """The names a session of the mutant starts with (dice.py's and its hog's)."""
    source = hog_source.solution_source(load_variant(variant_id))
    assert old in source, f"{old!r} is not in {variant_id}'s reference"
    module = reference._module(f"mutant_{variant_id}", source.replace(old, new, 1), "<mutant>",
                               {"dice": reference.dice()})
    names = {name: value for name, value in vars(reference.dice()).items() if not name.startswith("_")}
    names.update({name: value for name, value in vars(module).items() if not name.startswith("_")})
    return names


def value_of(names: dict, session: list[str]):
    """The value of the session's last step on the mutant, or None when a step raised."""
    namespace, value = dict(names), None
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            for source in session:
                code, expression = compiled(source)
                value = eval(code, namespace) if expression else exec(code, namespace)
        except Exception:
            return None
    return value
