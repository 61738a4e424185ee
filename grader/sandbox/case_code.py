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

``hog grade`` is a process per submission: there, ``keep`` reads the compiled form
of cases graded before (a variant's public cases, the hidden cases every seed
shares, a seed given again) back from the grader's signed cache, rather than
compiling them again (12-17 ms of the grader's CPU for a variant's 380-480 cases).
"""

from __future__ import annotations

import binascii
import functools
import hashlib
import json
import marshal
import sys
from typing import Sequence

from grader.cases.calling import compiled   # the reference's compiled steps are the sandbox's too
from grader.project import signed_cache
from grader.sandbox import boot, namespaces

# Distinct cases kept compiled in a process; cases' whole messages kept (a few variants' cases).
KEPT_CASES = 1 << 14
KEPT_LINES = 1 << 12
KEPT_FILES = 32   # files of compiled cases the signed cache keeps (the newest): 20-300 KB each
_known: dict[tuple[str, ...], str] = {}   # compiled forms read back from the signed cache (``keep``)
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def travels_compiled() -> bool:
    """Whether the cases go to the sandbox compiled: where its interpreter is this very one."""
    return boot.same_interpreter(namespaces.interpreter())


@functools.lru_cache(maxsize=KEPT_CASES)
def case_code(steps: tuple[str, ...]) -> str:
    """A case's steps compiled, as the harness reads them: base64 of marshal of one (code, expression)
    pair or None per step."""
    known = _known.get(steps)
    if known is not None:
        return known
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


def keep(sessions: Sequence[Sequence[str]]) -> None:
    """The compiled form of ``sessions`` (cases a grade sends together) read back from the grader's signed cache,
    where a process compiled exactly these before; else compiled now and kept there for the next. Nothing where
    the sandbox's interpreter is not this one (it compiles the cases itself) or these are known already."""
    wanted = [tuple(steps) for steps in sessions]
    if not wanted or all(steps in _known for steps in wanted) or not travels_compiled():
        return
    key = hashlib.sha256(_ENCODE([sys.version, wanted]).encode("utf-8")).hexdigest()[:32]
    codes = signed_cache.kept("compiled", f"cases-{key}.json", key, "compiled cases",
                              lambda: [case_code(steps) for steps in wanted], load=_codes(len(wanted)),
                              dump=lambda made: _ENCODE(made).encode("ascii"), keep=("cases-*.json", KEPT_FILES))
    if len(_known) + len(wanted) > KEPT_CASES:
        _known.clear()
    _known.update(zip(wanted, codes))


def _codes(count: int):
    """A ``load`` for ``keep``: ``count`` compiled cases, each its base64 text."""
    def load(payload: bytes) -> list[str] | None:
        codes = signed_cache.json_of(list)(payload)
        if codes is None or len(codes) != count or not all(type(code) is str for code in codes):
            return None
        return codes
    return load
