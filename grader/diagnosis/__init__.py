"""Diagnoses: the first wrong step of a failing case and the handout's rules that decide it.

Computed in the grader from the spec and the reference: a failing case's call is observed by a session
(``trace.traced_session``) that the sandbox runs on the submission and ``trace.on_reference`` runs on the
reference; ``diagnose`` reads both records. The words are the spec's rules' (``grader.spec.explain``);
nothing of the reference's code is ever shown.
"""

from __future__ import annotations

from grader import reference
from grader.diagnosis import calls, game, trace
from grader.diagnosis.model import TURN_FIELDS, Diagnosis
from grader.diagnosis.trace import CALL_ROLES, GAME_ROLES, Traced, traced_session
from grader.spec import Question, Variant

__all__ = ["CALL_ROLES", "GAME_ROLES", "TURN_FIELDS", "Diagnosis", "Traced", "diagnose", "traced_session"]


def diagnose(variant: Variant, question: Question, traced: Traced, got) -> Diagnosis | None:
    """The diagnosis of a failing case from its traced session and the value its last step had in the
    submission (``got``); None where the rules' record cannot be read or shows no difference."""
    want = trace.on_reference(variant, traced.session)
    hog = reference.load(variant.id)
    if question.role in GAME_ROLES:
        return game.diagnose(variant, hog, traced.written, want, got)
    return calls.diagnose(variant, question, hog, want, got)


def not_finished(question: Question, why: str) -> Diagnosis:
    """A failing case whose traced call did not finish in the sandbox: what happened, no rule blamed."""
    return Diagnosis(f"{question.function} did not finish: {why}", (), decided=False)
