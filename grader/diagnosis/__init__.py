"""Diagnoses: the first wrong step of a failing case and the handout's rules that decide it.

Computed in the grader from the spec and the reference: a failing case's call is observed by a session
(``trace.traced_session``) that the sandbox runs on the submission and ``trace.on_reference`` runs on the
reference; ``diagnose`` reads both records. The words are the spec's rules' (``grader.spec.explain``);
nothing of the reference's code is ever shown.
"""

from __future__ import annotations

from grader import reference
from grader.diagnosis import calls, commentary, game, trace
from grader.diagnosis.model import TURN_FIELDS, Diagnosis
from grader.diagnosis.trace import CALL_ROLES, GAME_ROLES, Traced, traced_session
from grader.spec import Question, Variant

__all__ = ["CALL_ROLES", "GAME_ROLES", "TURN_FIELDS", "Diagnosis", "Traced", "diagnose", "from_value",
           "traced_session"]


def diagnose(variant: Variant, question: Question, traced: Traced, got) -> Diagnosis | None:
    """The diagnosis of a failing case from its traced session and the value its last step had in the
    submission (``got``); None where the rules' record cannot be read or shows no difference."""
    want = trace.on_reference(variant, traced.session)
    hog = reference.load(variant.id)
    if question.role in GAME_ROLES:
        return game.diagnose(variant, hog, traced.written, want, got)
    if question.role in trace.SAID_ROLES:
        return commentary.diagnose(question, hog, want, got)
    return calls.diagnose(variant, question, hog, want, got)


def _leaves(value) -> list:
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value if type(value) in (int, bool, float) else repr(value)]


def from_value(variant: Variant, question: Question, traced: Traced, got) -> Diagnosis | None:
    """A failing call's diagnosis from the value its step showed, without running it again: where the step
    is a call of the question's function or a list of such calls, each value (in order) is one call's.
    None when that cannot be told (the trace in the sandbox tells it)."""
    if question.role not in CALL_ROLES:
        return None
    want = trace.on_reference(variant, traced.session)
    expression = traced.session[-1].split(", lambda: (", 1)[1][:-2]
    shown = trace.on_reference(variant, traced.session[:-2] + [expression])
    leaves = _leaves(got)
    if not isinstance(want, list) or _leaves(shown) != [call[2] for call in want] or len(leaves) != len(want) \
            or any(call[1] != "value" for call in want) or (len(want) > 1 and any(call[3] for call in want)):
        return None
    mine = [[call[0], "value", leaf, call[3], call[4]] for call, leaf in zip(want, leaves)]   # the rules' dice
    return calls.diagnose(variant, question, reference.load(variant.id), want, mine)


def not_finished(question: Question, why: str) -> Diagnosis:
    """A failing case whose traced call did not finish in the sandbox: what happened, no rule blamed."""
    return Diagnosis(f"{question.function} did not finish: {why}", (), decided=False)
