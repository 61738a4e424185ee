"""``tests/diagnoses.json`` of a student folder: what its own pytest needs to diagnose a failing public case.

For each step of a public case the diagnosis reads (``grader.diagnosis.traced_session``): the traced
session, the reference's record of it and the rules' explanation of each of its turns or calls. The
folder's pytest runs the session on the student's code and finds the first turn or call that differs
(``game_trace``, standard library only): the reference's code never enters the folder, and a locked case
(whose answers the student has yet to predict) carries nothing.
"""

from __future__ import annotations

import json

from grader import diagnosis, reference
from grader.diagnosis import calls, commentary, game, trace
from grader.spec import Variant

FILE = "tests/diagnoses.json"
FORMAT = 1


def _entry(variant: Variant, question, traced) -> dict | None:
    """The entry of one traced step: the steps before its call, the call (``game_trace.TRACER`` is typed
    between them), the reference's record and the rules' explanations."""
    want = trace.on_reference(variant, traced.session)
    hog = reference.load(variant.id)
    steps, call = traced.session[:-2], traced.session[-1]
    if question.role in trace.SAID_ROLES:   # the tracer first, then the whole session
        return {"kind": "said", "steps": traced.session[1:], "want": want,
                "explained": commentary.explained_calls(question, hog, want)}
    if question.role in diagnosis.GAME_ROLES:
        return {"kind": "game", "steps": steps, "call": call, "want": want,
                "goal": traced.written.get("goal", variant.goal),
                "explained": game.explained_turns(variant, hog, traced.written, want)}
    if not isinstance(want, list):
        return None
    return {"kind": "calls", "steps": steps, "call": call, "want": want, "function": question.function,
            "explained": calls.explained_calls(variant, question, hog, want)}


def data(variant: Variant, *, locked: bool = True) -> dict:
    """Case id and step source (``q05-1|play(...)``) → what diagnoses that step."""
    cases = {}
    for question in variant.questions:
        for case in question.cases:
            if case.hidden or (case.locked and locked):
                continue
            for index, step in enumerate(case.steps):
                key = f"{case.id.removeprefix(variant.id + '-')}|{step.source.strip()}"
                traced = diagnosis.traced_session(variant, question, case, index)
                if traced is not None and key not in cases:
                    entry = _entry(variant, question, traced)
                    if entry is not None:
                        cases[key] = entry
    return {"format": FORMAT, "cases": cases}


def text(variant: Variant, *, locked: bool = True) -> str:
    cases = data(variant, locked=locked)["cases"]
    lines = [f"{json.dumps(key)}: {json.dumps(entry, sort_keys=True)}" for key, entry in sorted(cases.items())]
    return '{"format": %d, "cases": {\n' % FORMAT + ",\n".join(lines) + "\n}}\n"
