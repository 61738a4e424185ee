"""Grade results as text (the ok client's style), Gradescope JSON, or JUnit XML."""

from grader.report import gradescope, junit, text

FORMATS = {"text": text.render, "json": gradescope.render, "junit": junit.render}
