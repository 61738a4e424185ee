"""A sandbox started before the cases are known (``hog grade``'s start): taken when it reached bubblewrap,
given way to the usual choice where bwrap cannot start, and leaving nothing behind when not taken."""

from __future__ import annotations


import pytest

from grader import project
from grader.sandbox import SandboxUnavailable, level, namespaces, run_cases
from grader.sandbox import run as sandbox_run
from grader.sandbox.early import Early

from tests.sandbox.isolated import FAST, use_level
from tests.sandbox.isolated import no_level_settings  # noqa: F401 (an autouse fixture)


# ---------------------------------------------------------------------------
# A sandbox started before the cases are known
# ---------------------------------------------------------------------------

def test_a_sandbox_started_early_runs_the_cases_at_bubblewrap_without_a_second_start(honest, monkeypatch):
    use_level(monkeypatch, "bubblewrap")
    monkeypatch.delenv("HOG_SANDBOX")
    started = []
    monkeypatch.setattr(sandbox_run, "spawn", lambda *args: started.append(args))
    with Early(honest, {}) as early:
        folder = early.folder
        report = run_cases(honest, [["square(3)"], ["square(4)"]], limits=FAST, early=early)
    assert [case.steps[0].output for case in report.cases] == ["9\n", "16\n"]
    assert report.level == "bubblewrap" and started == [] and not folder.exists()


def test_where_bwrap_cannot_start_the_early_sandbox_gives_way_to_the_usual_choice(honest, tmp_path, monkeypatch):
    if level.landlock_unavailable():
        pytest.skip(level.landlock_unavailable())
    failing = tmp_path / "bwrap"
    failing.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    failing.chmod(0o755)
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: str(failing))
    monkeypatch.setattr(namespaces, "_probed", {})
    with Early(honest, {}) as early:
        assert early.child is not None
        report = run_cases(honest, [["square(3)"]], limits=FAST, early=early, minimum="files")
        with pytest.raises(SandboxUnavailable, match="bubblewrap failed its start-up check"):
            run_cases(honest, [["square(3)"]], limits=FAST, early=Early(honest, {}), minimum="bubblewrap")
    assert report.cases[0].steps[0].output == "9\n" and report.level == "files"


def test_an_early_sandbox_not_taken_leaves_nothing_behind(honest, tmp_path, monkeypatch):
    if namespaces.bwrap_path() is None:
        pytest.skip("bubblewrap (bwrap) is not installed")
    other = tmp_path / "other.py"
    other.write_text("def square(x):\n    return -1\n")
    with Early(honest, {}) as early:
        child, folder = early.child, early.folder
        report = run_cases(other, [["square(3)"]], limits=FAST, early=early)   # another submission
        assert report.cases[0].steps[0].output == "-1\n"
        assert child.closed and not folder.exists()
    with Early(honest, {}) as unused:
        child, folder = unused.child, unused.folder
    assert child.closed and child.process.poll() is not None and not folder.exists()
    monkeypatch.setenv("HOG_SANDBOX", "files")
    assert Early(honest, {}).child is None      # a level named on purpose: nothing is started early


def test_whether_bwrap_takes_size_is_asked_once_per_binary_not_in_every_grade(tmp_path, monkeypatch):
    """``hog grade`` starts a new process each time: whether its bwrap limits /tmp's size (``--size``) comes from
    the grader's private cache, asked of the binary again only when the binary changes."""
    monkeypatch.setattr(project, "CACHE", tmp_path / "cache")
    bwrap = tmp_path / "bwrap"
    bwrap.write_text("#!/bin/sh\necho '    --size BYTES   Set size of next tmpfs'\n")
    bwrap.chmod(0o755)
    asked = []
    real = namespaces._asked_size
    monkeypatch.setattr(namespaces, "_asked_size", lambda path: asked.append(path) or real(path))
    monkeypatch.setattr(namespaces, "_size_cache", {})
    assert namespaces._has_size(str(bwrap)) is True
    monkeypatch.setattr(namespaces, "_size_cache", {})   # as in the next process
    assert namespaces._has_size(str(bwrap)) is True
    assert asked == [str(bwrap)]
    bwrap.write_text("#!/bin/sh\necho 'an older bubblewrap'\n")   # another binary at the same path
    monkeypatch.setattr(namespaces, "_size_cache", {})
    assert namespaces._has_size(str(bwrap)) is False
    assert asked == [str(bwrap)] * 2
