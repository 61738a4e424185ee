"""An assignment's total, and its maximum, as one function each: what the gradebook, its CSV and the LTI
passback carry. The total is the autograder's score after its late penalty, plus the points staff gave by
hand (the rubric's items and the adjustment: no penalty on them), plus the bonus points of checkpoints and
early submissions; the maximum is the autograder's, plus the rubric's positive points and the bonus's."""

from __future__ import annotations


def total(autograder_after_penalty: float | None, rubric_points: float = 0.0,
          bonus_points: float = 0.0) -> float | None:
    """The total (never below 0), or None while the autograder's part has no score."""
    if autograder_after_penalty is None:
        return None
    return max(0.0, autograder_after_penalty + rubric_points + bonus_points)


def total_max(autograder_max: float | None, rubric_positive: float = 0.0, bonus_max: float = 0.0) -> float | None:
    """The most the total can be, or None while the autograder's maximum is not known."""
    if autograder_max is None:
        return None
    return autograder_max + rubric_positive + bonus_max
