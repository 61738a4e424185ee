"""The files and the network a submission can reach in the sandbox, at each level: the kit's files unreadable,
no change to any file, no network; a level that cannot be reached falls back and says so."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import grader
from grader.sandbox import level, namespaces
from grader.sandbox import run as sandbox_run
from tests.sandbox.sandboxed import HOSTILE, FILTERED, bubblewrap_missing, Step, run, assert_honest_case_passes


# ---------------------------------------------------------------------------
# File system and network
# ---------------------------------------------------------------------------

def test_kit_files_are_unreadable_with_file_isolation(tmp_path, mode):
    if mode == "process":
        pytest.skip("the process level does not hide files (the README says so)")
    package = Path(grader.__file__).resolve().parent
    root = package.parent
    files = [package / "sandbox" / "run.py", package / "sandbox" / "harness.py", root / "pyproject.toml",
             root / "solution" / "sp19" / "hog.py", root / "specs" / "fa19.yaml", Path(__file__).resolve()]
    assert all(path.is_file() for path in files), "each of these is readable outside the sandbox"
    folders = [root, package, root / "solution", root / "specs", root.parent, Path("/work"),
               Path.home()]
    cases = [[f"read({str(path)!r})"] for path in files] + \
            [[f"listing({str(path)!r})"] for path in folders]
    report = run(tmp_path, cases, hostile="read_kit.py")
    # The interpreter is mounted at its own path, which may be under the home folder.
    python_home = Path(sys.base_prefix).resolve()
    mount_points = {f"'listed: {python_home.relative_to(folder).parts[0]}'\n"
                    for folder in folders if python_home.is_relative_to(folder) and python_home != folder}
    # A folder that is one of the sandbox's own mounts (e.g. /tmp when the kit lives in /tmp/...)
    # is the submission's empty tmpfs: an empty listing shows nothing of the kit either.
    empty = "'listed: '\n"
    for path, case in zip(files + folders, report.cases):
        assert case.steps[0].output in ("'FileNotFoundError'\n", "'PermissionError'\n", empty, *mount_points), \
            (path, case)


def test_no_file_can_be_watched_and_no_mount_listed(tmp_path, mode):
    """Landlock hides what the grader's files hold, not their names: inotify on the grader's cache told a
    submission at the files level each file made, read and removed there (a seed's hidden cases among
    them). Watching files, and listing the machine's mounts, are refused at every level."""
    report = run(tmp_path, [["watch_files()"], ["mounts()"], ["square(3)"]], hostile="reach_out.py")
    assert [case.steps[0].output for case in report.cases[:2]] == ["'Operation not permitted'\n"] * 2
    assert_honest_case_passes(report.cases[2])


def test_installed_packages_are_hidden_inside_bubblewrap(tmp_path, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    if bubblewrap_missing():
        pytest.skip("bubblewrap is not available here")
    site_packages = [path for path in namespaces.hidden_paths() if os.path.isdir(path)
                     and os.listdir(path)]
    report = run(tmp_path, [[f"listing({path!r})"] for path in site_packages], hostile="read_kit.py")
    for case in report.cases:
        assert case.steps[0].output in ("'listed: '\n", "'FileNotFoundError'\n"), case


def test_network_is_unreachable(tmp_path, mode):
    report = run(tmp_path, [["connect('127.0.0.1', 9)"], ["connect('1.1.1.1', 80)"], ["square(3)"]],
                 hostile="network.py")
    for case in report.cases[:2]:
        assert case.steps[0].error_type in ("PermissionError", "OSError", "ConnectionRefusedError",
                                            "TimeoutError")
        assert case.steps[0].output == ""
    assert_honest_case_passes(report.cases[2])


def test_bubblewrap_gives_the_submission_no_network_interfaces(tmp_path, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    if bubblewrap_missing():
        pytest.skip("bubblewrap is not available here")
    report = run(tmp_path, [["interfaces()"]], hostile="network.py")
    assert report.cases[0].steps == [Step("['lo']\n", None, None)]


def _outside(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A folder outside the sandbox, as a batch's output or the grader's cache: what is in it."""
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "victim.json").write_text('{"score": 0, "expected": "2\\n"}')
    (outside / "other.json").write_text('{"score": 3}')
    return outside, _snapshot(outside)


def _snapshot(folder: Path) -> dict[str, tuple]:
    return {str(path.relative_to(folder)): (path.is_dir() or path.read_bytes(), path.stat().st_mode,
                                            path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*"))}


def test_no_attempt_to_change_a_file_changes_anything(tmp_path, mode):
    outside, before = _outside(tmp_path)
    victim, new = outside / "victim.json", outside / "new"
    report = run(tmp_path, [[f"tamper_all({str(victim)!r}, {str(new)!r})"],
                            [f"forge_result({str(outside)!r})"], [f"poison_cache({str(outside)!r})"],
                            ["tamper_all('hog.py', 'new.py')"], ["tamper_all('/tmp/x', '/tmp/y')"],
                            ["square(3)"]], hostile="writes_files.py")
    refused = {kind: "PermissionError EPERM" for kind in
               ("overwrite", "append", "open read-write", "open truncating", "create", "creat", "openat2",
                "mkstemp", "rename", "replace", "unlink", "mkdir", "rmdir", "link", "symlink", "mkfifo",
                "truncate", "chmod", "chown", "utime", "setxattr", "bind")}
    refused["openat2"] = "OSError ENOSYS"  # so that Python and the C library fall back to openat
    for number in (0, 3, 4):
        assert report.cases[number].steps == [Step(repr(refused) + "\n", None, None)]
    forged, poisoned = report.cases[1].steps[0], report.cases[2].steps[0]
    assert forged.error.startswith(f"PermissionError: [Errno 1] Operation not permitted: '{outside}/tmp")
    if mode == "process":  # the folder can be read; bubblewrap does not even show it
        assert poisoned == Step(
            "", f"PermissionError: [Errno 1] Operation not permitted: '{outside / 'other.json'}'", "PermissionError")
    elif mode == "files":  # Landlock refuses even to list it
        assert poisoned.error_type == "PermissionError"
    else:
        assert poisoned.error_type == "FileNotFoundError"
    assert_honest_case_passes(report.cases[5])
    assert _snapshot(outside) == before
    assert sorted(path.name for path in (tmp_path / "submission").iterdir()) == ["hog.py"]


def test_writing_at_import_is_refused_and_told_as_an_import_error(tmp_path, mode):
    outside, before = _outside(tmp_path)
    source = (HOSTILE / "writes_files.py").read_text() + f"\nforge_result({str(outside)!r})\n"
    report = run(tmp_path, [["square(3)"]], source=source)
    assert report.import_error.startswith("PermissionError: [Errno 1] Operation not permitted: ")
    assert report.import_error.endswith(")") and "(hog.py, line " in report.import_error
    assert _snapshot(outside) == before


def test_where_no_filter_can_be_installed_the_report_says_files_were_open(tmp_path, monkeypatch):
    """What an unknown machine type gets in process mode: stated plainly, not hidden."""
    monkeypatch.setenv("HOG_SANDBOX", "process")
    monkeypatch.setattr(sandbox_run, "SECCOMP", False)
    outside, _ = _outside(tmp_path)
    report = run(tmp_path, [[f"forge_result({str(outside)!r})"]], hostile="writes_files.py")
    assert report.isolation == (
        "process limits only (file isolation off: HOG_SANDBOX=process is set; no system call filter either: "
        "the grader turned it off, so the submission could read and write the grader's files)")
    assert report.cases[0].steps == [Step("'forged other-student.json'\n", None, None)]


def test_missing_bubblewrap_falls_back_to_the_next_level_and_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: None)
    monkeypatch.setattr(level, "landlock_unavailable", lambda: "the kernel offers no Landlock")
    monkeypatch.setattr(level.tree, "unavailable", lambda python: "the grader does not run as root")
    report = run(tmp_path, [["square(3)"]])
    assert report.level == "process"
    assert report.isolation == ("process limits only (file isolation off: bubblewrap (bwrap) is not installed; "
                                "the kernel offers no Landlock, and the grader does not run as root" + FILTERED)
    assert_honest_case_passes(report.cases[0])


