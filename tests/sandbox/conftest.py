"""What the sandbox's tests share: ``mode``, each isolation level the machine offers in turn; ``honest``, a
submission that only squares; ``filled_cache``, a grader's cache that holds sp19's hidden cases and its key;
``made``, the folders the test made with ``tempfile.mkdtemp`` (the sandboxes' scratch folders among them)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from grader import cases as case_source
from grader import project
from grader.sandbox import level, namespaces
from grader.spec import load_variant


@pytest.fixture(params=["bwrap", "files", "process"])
def mode(request, monkeypatch):
    """bubblewrap (a private file-system view), files (Landlock, as in a container without namespaces:
    HOG_SANDBOX=files) and process (limits only: HOG_SANDBOX=process); a level missing here is skipped."""
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    if request.param == "bwrap":
        monkeypatch.delenv("HOG_SANDBOX", raising=False)
        if namespaces.unavailable():
            pytest.skip(namespaces.unavailable())
    else:
        monkeypatch.setenv("HOG_SANDBOX", request.param)
        if request.param == "files" and level.landlock_unavailable():
            pytest.skip(level.landlock_unavailable())
    return request.param


@pytest.fixture
def honest(tmp_path) -> Path:
    path = tmp_path / "hog.py"
    path.write_text("def square(x):\n    return x * x\n")
    return path


@pytest.fixture
def filled_cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HOG_CACHE", str(folder))
    monkeypatch.setattr(project, "CACHE", folder)
    case_source.hidden_cases.cache_clear()
    case_source.grading_cases(load_variant("sp19"))
    yield folder / "hidden"
    case_source.hidden_cases.cache_clear()


@pytest.fixture
def made(monkeypatch) -> list[str]:
    """Every folder ``tempfile.mkdtemp`` makes while the test runs, in order."""
    folders: list[str] = []
    real_mkdtemp = tempfile.mkdtemp

    def recording_mkdtemp(*args, **kwargs):
        folders.append(real_mkdtemp(*args, **kwargs))
        return folders[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", recording_mkdtemp)
    return folders
