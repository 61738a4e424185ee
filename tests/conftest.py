"""Options and fixtures for the whole suite: golden files, recorded progress, the
``wheelhouse``, and the place (course folder or checkout) each test leaves as it found it.

``python -m pytest --update-goldens`` rewrites every golden file in
``tests/goldens/`` from what the code makes now; review the diff and commit it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from grader import project
from grader.report.progress import Progress

GOLDENS = Path(__file__).parent / "goldens"

pytest_plugins = ["tests.wheelhouse"]   # the ``wheelhouse`` fixture: the kit's requirements, for setup.sh


@pytest.fixture(autouse=True)
def place_kept():
    """The place a test chose (``hog --course``, a ``main([...])`` run inside a temporary course) is
    forgotten after it: the next test finds its own from the working directory."""
    chosen = dict(project._chosen)
    yield
    project._chosen.clear()
    project._chosen.update(chosen)


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite tests/goldens/ from the current output instead of comparing with it")


@pytest.fixture
def golden(request):
    """``golden(name, text)``: ``text`` must equal ``tests/goldens/<name>`` (or rewrites it with --update-goldens)."""
    update = request.config.getoption("--update-goldens")

    def check(name: str, text: str) -> None:
        path = GOLDENS / name
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        assert path.exists(), f"{path} is missing: run 'python -m pytest --update-goldens' and commit it"
        assert text == path.read_text(encoding="utf-8"), \
            f"the output differs from {path} (if the change is intended: python -m pytest --update-goldens)"

    return check


class RecordedProgress(Progress):
    """What a verb's work told its progress: each task as (description, total, the counts advanced)."""

    def __init__(self):
        super().__init__()
        self.tasks: list[tuple[str, int | None, list[int]]] = []

    @contextlib.contextmanager
    def task(self, description: str, total: int | None = None):
        counts: list[int] = []
        self.tasks.append((description, total, counts))
        yield lambda count=1: counts.append(count)

    def done(self) -> list[tuple[str, int | None, int]]:
        """Each task's description, total and the steps done in all."""
        return [(description, total, sum(counts)) for description, total, counts in self.tasks]


@pytest.fixture
def recorded_progress() -> RecordedProgress:
    return RecordedProgress()
