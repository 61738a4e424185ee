"""Options and fixtures for the whole suite: golden files and the ``slow`` marker.

``python -m pytest --update-goldens`` rewrites every golden file in
``tests/goldens/`` from what the code makes now; review the diff and commit it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

GOLDENS = Path(__file__).parent / "goldens"


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
