"""What the sandbox's tests share: ``mode``, each isolation level the machine offers in turn."""

from __future__ import annotations

import pytest

from grader.sandbox import level, namespaces


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
