"""The diagnosis of a failing commentary function (announce_highest): the first call whose printed line or
returned function differs, each of the rules' calls said with its numbers (``game_trace.said_diagnosis``,
which a student folder's pytest runs too, on the same explanations)."""

from __future__ import annotations

import inspect

from grader.diagnosis.model import Diagnosis
from grader.shipped.student.game_trace import said_diagnosis
from grader.spec import Question


def _start(hog, function: str, args: list, keywords: list) -> tuple[int, int, int]:
    """(who, the score before, the biggest gain so far) of a commentary function as it is made."""
    bound = inspect.signature(getattr(hog, function)).bind(*args, **dict(keywords))
    bound.apply_defaults()
    named = dict(bound.arguments)
    high = next(value for key, value in named.items() if "high" in key)
    score = next(value for key, value in named.items() if "score" in key)
    return named["who"], score, high


def explained_calls(question: Question, hog, want) -> list[str | None]:
    """Each event of the rules' record said with its numbers (None for a commentary function's making, and
    for a call whose printing the rule does not explain)."""
    chains, explained = {}, []
    for event in want:
        if event[0] == "made":
            chains[event[1]] = list(_start(hog, question.function, event[2], event[3]))
            explained.append(None)
            continue
        who, before, high = chains[event[1]]
        scores = event[2]
        score = scores[who]
        gain = score - before
        prints = gain > high
        if prints != bool(event[3]):
            explained.append(None)   # not what the rule says: nothing is claimed
        else:
            said = f"prints {event[3].rstrip()!r}" if prints else "prints nothing"
            explained.append(f"the commentary for Player {who} is called with {scores[0]} and {scores[1]}: Player "
                             f"{who}'s score goes from {before} to {score}, a gain of {gain}, "
                             f"{'more than' if prints else 'not more than'} the biggest gain so far ({high}), so it "
                             f"{said}")
        chains[event[1]] = [who, score, max(high, gain)]
    return explained


def diagnose(question: Question, hog, want, got) -> Diagnosis | None:
    if not isinstance(want, list):
        return None
    found = said_diagnosis(explained_calls(question, hog, want), want, got)
    return None if found is None else Diagnosis.of(found)
