"""Grade results as text (the ok client's style), Gradescope JSON, PrairieLearn JSON, or JUnit XML."""

from __future__ import annotations

import importlib
from typing import Callable


def _format(module: str) -> Callable[..., str]:
    """A format's ``render``, its module imported when a report is made in it (not on every start)."""
    def render(result, **options) -> str:
        return importlib.import_module(f"grader.report.{module}").render(result, **options)
    render.__name__ = f"{module}.render"
    return render


FORMATS = {"text": _format("text"), "json": _format("gradescope"), "junit": _format("junit"),
           "prairielearn": _format("prairielearn")}
