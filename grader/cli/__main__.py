"""``python -m grader.cli``: the ``hog`` command."""

from grader.cli import run

run()
