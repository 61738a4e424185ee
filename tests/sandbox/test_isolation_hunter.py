"""A student who hunts for the kit, at each level and in a container without namespaces, and a root grader's
concurrent sandboxes, each with a uid of its own: the hunter scores nothing and reads nothing of the kit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from grader import project
from grader.grading import grade
from grader.sandbox import Limits, level, namespaces, run_cases
from grader.spec import load_variant
from tests import ROOT

from tests.sandbox.sandboxed import HOSTILE
from tests.sandbox.isolated import CONTAINED, FAST, HUNT, LEVELS, REACH_OUT, hunter, in_container, use_level
from tests.sandbox.isolated import no_level_settings  # noqa: F401 (an autouse fixture)


# ---------------------------------------------------------------------------
# A student who hunts for the kit
# ---------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", LEVELS)
def test_a_submission_that_hunts_for_the_kit_scores_nothing_and_reads_nothing(tmp_path, monkeypatch,
                                                                              filled_cache, name):
    use_level(monkeypatch, name)
    assert (filled_cache / "key").is_file()
    submission = hunter(tmp_path, filled_cache)
    report = run_cases(submission, [["loot()"], ["'play' in dir()"]], limits=HUNT, minimum=name)
    assert report.level == name
    step = report.cases[0].steps[0]
    assert step.output.startswith("([], ") and "True" not in step.output, (report.import_error, step)
    assert report.cases[1].steps[0].output == "False\n"
    result = grade.grade(submission, load_variant("sp19"), limits=HUNT, minimum=name)
    assert result.isolation_level == name and result.grader_error is None
    assert result.score == 0 and all(q.score == 0 for q in result.questions)


@pytest.mark.slow
def test_in_process_mode_the_same_hunter_is_what_the_levels_stop(tmp_path, monkeypatch, filled_cache):
    """The baseline: without file isolation the hunt succeeds, which is why grading asks for more."""
    monkeypatch.setenv("HOG_SANDBOX", "process")
    # Searching a busy machine's /proc and disk takes a while: this hunt gets time enough to finish.
    report = run_cases(hunter(tmp_path, filled_cache), [["loot()"]], limits=Limits(case_seconds=60.0))
    assert "hog.py" in report.cases[0].steps[0].output and "True" in report.cases[0].steps[0].output


# ---------------------------------------------------------------------------
# A container: no namespaces, no CAP_SYS_ADMIN
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_in_a_container_without_namespaces_the_files_level_holds(tmp_path, filled_cache):
    submission = hunter(tmp_path, filled_cache)
    (submission / "hog.py").write_text((submission / "hog.py").read_text() + REACH_OUT)
    done = in_container([sys.executable, "-c", CONTAINED, str(submission)], timeout=300)
    assert done.returncode == 0, done.stderr
    reached, outputs = json.loads(done.stdout.splitlines()[-1])
    assert reached == "files"
    stolen, has_play, reached_out = outputs
    assert stolen.startswith("([], ") and "True" not in stolen
    assert has_play == "False\n"
    assert "opened" not in reached_out and "memfd made" not in reached_out


@pytest.mark.slow
def test_in_a_container_bubblewrap_as_the_minimum_is_a_kit_fault(tmp_path, honest):
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        pytest.skip("needs root and setpriv to simulate a container")
    script = textwrap.dedent(f"""
        import sys
        from grader.sandbox import run_cases, SandboxUnavailable
        try:
            run_cases({str(honest)!r}, [["square(3)"]], minimum="bubblewrap")
        except SandboxUnavailable as error:
            print("unavailable:", error)
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HOG_SANDBOX", None)
    command = [setpriv, "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin", sys.executable,
               str(ROOT / "tests" / "tools" / "nouserns.py"), sys.executable, "-c", script]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.stdout.startswith("unavailable: isolation 'bubblewrap' is required, but only 'files' can be "
                                  "reached here: bubblewrap failed its start-up check"), done.stdout + done.stderr


# ---------------------------------------------------------------------------
# A root grader: a uid of its own per concurrent sandbox
# ---------------------------------------------------------------------------

CONCURRENT = """
import json, sys, threading
from grader.sandbox import run_cases
found = {}
def one(name):
    report = run_cases(sys.argv[1], [["__import__('os').getuid()"], ["parent_descriptors()"]])
    found[name] = [report.level] + [case.steps[0].output for case in report.cases]
threads = [threading.Thread(target=one, args=(name,)) for name in "ab"]
[thread.start() for thread in threads]
[thread.join() for thread in threads]
print(json.dumps(found))
"""


@pytest.mark.slow
def test_concurrent_sandboxes_of_a_root_grader_run_as_uids_of_their_own(tmp_path):
    """Needs a Python that other users can read (the system's, here), as a container's usually is."""
    system_python = Path("/usr/bin/python3.11")
    if os.geteuid() != 0 or not system_python.exists() or level.landlock_unavailable():
        pytest.skip("needs root, Landlock and a system Python 3.11 that other users can read")
    (tmp_path / "hog.py").write_text((HOSTILE / "reach_out.py").read_text())
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOG_SANDBOX": "files"}
    done = subprocess.run([str(system_python), "-c", CONCURRENT, str(tmp_path / "hog.py")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    uids = {int(found[name][1]) for name in "ab"}
    assert len(uids) == 2 and all(uid >= 1_900_000_000 for uid in uids)
    assert [found[name][0] for name in "ab"] == ["files", "files"]
    assert [found[name][2] for name in "ab"] == ["'PermissionError'\n"] * 2


@pytest.mark.slow
def test_a_bubblewrap_that_takes_eleven_seconds_to_start_still_grades_full(tmp_path, monkeypatch):
    if namespaces.unavailable():
        pytest.skip(namespaces.unavailable())
    slow_bwrap = tmp_path / "bwrap"
    slow_bwrap.write_text(f"#!/bin/sh\nsleep 11\nexec {namespaces.bwrap_path()} \"$@\"\n")
    slow_bwrap.chmod(0o755)
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: str(slow_bwrap))
    monkeypatch.setattr(namespaces, "_probed", {})
    result = grade.grade(project.SOLUTION / "sp19", load_variant("sp19"), limits=FAST, minimum="bubblewrap")
    assert result.isolation_level == "bubblewrap" and result.grader_error is None
    assert result.score == result.max_score


@pytest.mark.slow
def test_an_unknown_level_on_the_command_line_exits_2_with_one_line(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOG_SANDBOX": "bogus"}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(project.SOLUTION / "sp19"),
                           "--variant", "sp19"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 2
    assert done.stderr.strip() == ("Error: HOG_SANDBOX='bogus' is not an isolation level: use process, files, "
                                   "bubblewrap (from least to most isolated) or container (Docker or Podman)")
