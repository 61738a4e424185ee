"""The cases' compiled form: each step compiled here, as the harness would compile it, sent beside its text.

Compiling a case's lines costs the sandbox's interpreter about as much as the
reference's answers to them, and a batch grades the same cases for every
submission.  So the grader compiles each step once per process, the harness's
way (an expression when it is one, else statements; flags 0, not inheriting the
grader's), and sends a case's code as base64 of ``marshal`` beside its text; the
harness runs that code.  A step that does not compile here goes as text alone:
the harness compiles it and reports its error as always.  Only where the
sandbox's interpreter is this very one (``boot.compiled``): marshal's format
belongs to one Python version.  The expected answers are never part of it.
"""

from __future__ import annotations

import binascii
import functools
import json
import marshal

from grader.cases.calling import compiled   # the reference's compiled steps are the sandbox's too

# Distinct cases kept compiled in a process; cases' whole messages kept (a few variants' cases).
KEPT_CASES = 1 << 14
KEPT_LINES = 1 << 12
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


@functools.lru_cache(maxsize=KEPT_CASES)
def case_code(steps: tuple[str, ...]) -> str:
    """A case's steps compiled, as the harness reads them: base64 of marshal of one (code, expression)
    pair or None per step."""
    return binascii.b2a_base64(marshal.dumps([compiled(source) for source in steps]), newline=False).decode("ascii")


@functools.lru_cache(maxsize=KEPT_LINES)
def case_line(index: int, steps: tuple[str, ...], compiled: bool) -> bytes:
    """Case ``index``'s message to the harness, one JSON line: its steps, and their code when ``compiled``.
    Made once per process for each case of a batch, whose submissions are all sent the same lines."""
    message: dict = {"case": index, "steps": list(steps)}
    if compiled:
        message["code"] = case_code(steps)
    return _ENCODE(message).encode("ascii") + b"\n"


def warm(sessions) -> None:
    """Compile these cases now (a batch, before its workers fork, so that they share the work)."""
    for steps in sessions:
        case_code(tuple(steps))
