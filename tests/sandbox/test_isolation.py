"""Isolation levels as an operator and a hostile student meet them.

The levels: process < files < bubblewrap.  A minimum that cannot be reached is
a kit fault (never a score); an unknown level name is a usage error; a sandbox
that does not start is retried, then a kit fault; at the files and bubblewrap
levels a submission with no game code that hunts for the kit scores nothing
and reads nothing of the kit, its hidden cases or its key.  The container
(no namespaces, no CAP_SYS_ADMIN) is simulated with tests/tools/nouserns.py
under setpriv.
"""

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
from grader import cases as case_source
from grader.errors import GraderFault, UsageError
from grader.sandbox import Limits, SandboxUnavailable, StepKind, channel, level, namespaces, run_cases
from grader.sandbox import run as sandbox_run
from grader.sandbox.early import Early
from grader.sandbox.model import Tampered
from grader.spec import load_variant
from tests import ROOT, TESTS

HOSTILE = TESTS / "submissions" / "hostile"
FAST = Limits(case_seconds=2.0, total_seconds=60.0)
# The hunter walks the visible disk at import for up to 3 s of wall time; on a machine whose disk cache
# is cold (a fresh CI machine) much of that is waiting on reads, which FAST's one second of waiting
# would cut short: then the walk, not the sandbox, would be what kept it from the kit's files.
HUNT = Limits(case_seconds=6.0, total_seconds=60.0, wait_seconds=6.0)
LEVELS = ["bubblewrap", "files"]


@pytest.fixture
def honest(tmp_path) -> Path:
    path = tmp_path / "hog.py"
    path.write_text("def square(x):\n    return x * x\n")
    return path


@pytest.fixture(autouse=True)
def no_level_settings(monkeypatch):
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    monkeypatch.delenv("HOG_SANDBOX", raising=False)


def use_level(monkeypatch, name: str) -> None:
    if name == "bubblewrap" and namespaces.unavailable():
        pytest.skip(namespaces.unavailable())
    if name == "files" and level.landlock_unavailable():
        pytest.skip(level.landlock_unavailable())
    monkeypatch.setenv("HOG_SANDBOX", name)


# ---------------------------------------------------------------------------
# Choosing a level
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("variable", ["HOG_ISOLATION", "HOG_SANDBOX"])
def test_an_unknown_level_name_is_a_usage_error_naming_the_levels(honest, monkeypatch, variable):
    monkeypatch.setenv(variable, "bogus")
    with pytest.raises(UsageError, match=f"{variable}='bogus' is not an isolation level: use process, files, bubblewrap "
                       r"\(from least to most isolated\) or container \(Docker or Podman\)"):
        run_cases(honest, [["square(3)"]], limits=FAST)


def test_an_unknown_minimum_is_a_usage_error_even_through_grade_safely(honest, monkeypatch):
    monkeypatch.setenv("HOG_ISOLATION", "strict")
    with pytest.raises(UsageError):
        grade.grade_safely(honest, load_variant("sp19"), limits=FAST)


def test_a_minimum_that_cannot_be_reached_is_a_kit_fault_never_a_score(honest, monkeypatch):
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: None)
    monkeypatch.setattr(level, "landlock_unavailable", lambda: "the kernel offers no Landlock")
    monkeypatch.setattr(level.tree, "unavailable", lambda python: "the grader does not run as root")
    assert run_cases(honest, [["square(3)"]], limits=FAST).level == "process"  # no minimum: fine
    with pytest.raises(SandboxUnavailable) as raised:
        run_cases(honest, [["square(3)"]], limits=FAST, minimum="files")
    assert isinstance(raised.value, GraderFault)
    assert str(raised.value).startswith("isolation 'files' is required, but only 'process' can be reached here: "
                                        "bubblewrap (bwrap) is not installed; the kernel offers no Landlock")
    result, failed = grade.grade_safely(honest, load_variant("sp19"), limits=FAST, minimum="files")
    assert failed and result.grader_error.startswith("SandboxUnavailable: isolation 'files' is required")
    assert result.questions == []


def test_the_environment_gives_the_minimum_where_the_caller_names_none(honest, monkeypatch):
    monkeypatch.setenv("HOG_ISOLATION", "bubblewrap")
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: None)
    with pytest.raises(SandboxUnavailable, match="isolation 'bubblewrap' is required"):
        run_cases(honest, [["square(3)"]], limits=FAST)
    assert run_cases(honest, [["square(3)"]], limits=FAST, minimum="process").level in ("process", "files")


def test_a_level_named_in_HOG_SANDBOX_that_cannot_be_reached_is_a_kit_fault(honest, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "bwrap")
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: None)
    with pytest.raises(SandboxUnavailable, match="HOG_SANDBOX=bwrap asks for the bubblewrap level, but "
                                                 "bubblewrap \\(bwrap\\) is not installed"):
        run_cases(honest, [["square(3)"]], limits=FAST)


def test_a_level_asked_below_the_minimum_is_a_usage_error(honest, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    with pytest.raises(UsageError, match="HOG_SANDBOX=process is below the isolation required"):
        run_cases(honest, [["square(3)"]], limits=FAST, minimum="files")


# ---------------------------------------------------------------------------
# Start-up is the kit's business
# ---------------------------------------------------------------------------

def slow_interpreter(tmp_path: Path, seconds: float) -> str:
    script = tmp_path / "slow-python"
    script.write_text(f"#!/bin/sh\nsleep {seconds}\nexec {namespaces.interpreter()} \"$@\"\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.slow
def test_a_sandbox_that_does_not_start_is_retried_then_a_kit_fault(honest, tmp_path, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    slow = slow_interpreter(tmp_path, 5)
    monkeypatch.setattr(namespaces, "interpreter", lambda: slow)
    monkeypatch.setattr(sandbox_run, "STARTUP_SECONDS", 1.0)
    with pytest.raises(SandboxUnavailable, match=r"the sandbox \(process\) did not start, twice: "
                                                 r"it did not start within 1 s"):
        run_cases(honest, [["square(3)"]], limits=FAST)


@pytest.mark.slow
def test_a_slow_start_is_not_counted_against_the_submission(honest, tmp_path, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    slow = slow_interpreter(tmp_path, 3)
    monkeypatch.setattr(namespaces, "interpreter", lambda: slow)
    report = run_cases(honest, [["square(3)"], ["square(4)"]], limits=Limits(case_seconds=1.0, total_seconds=2.0))
    assert [case.steps[0].output for case in report.cases] == ["9\n", "16\n"]


# ---------------------------------------------------------------------------
# What the channel will not read
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_values_the_harness_never_sends_are_refused_before_they_cost_anything():
    colliding = ["d"] + [item for n in range(55_000) for item in (["i", hex(n * ((1 << 61) - 1))], 0)]
    for message in (colliding, ["l"] * 1 + [["l"]] * 120_000):
        with pytest.raises(Tampered):
            channel.rebuild(message)
    with pytest.raises(Tampered, match="not valid JSON"):
        channel.decode(b"[" * 200_000 + b"]" * 200_000)
    with pytest.raises(Tampered, match="larger than"):
        channel.decode(b" " * (channel.MAX_MESSAGE_BYTES + 1))


def test_long_texts_made_by_the_submission_are_cut_with_the_count(honest, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    report = run_cases(honest, [["raise ValueError('x' * 7000)"]], limits=FAST)
    error = report.cases[0].steps[0].error
    assert error.endswith("… (7,012 characters, cut)") and len(error) < 500
    assert report.cases[0].steps[0].kind is StepKind.ERROR


# ---------------------------------------------------------------------------
# A student who hunts for the kit
# ---------------------------------------------------------------------------

def hunter(tmp_path: Path, cache: Path) -> Path:
    """tests/submissions/hostile/steal_kit.py, told where the cache is."""
    folder = tmp_path / "hunter"
    folder.mkdir()
    source = (HOSTILE / "steal_kit.py").read_text().replace("CACHE = None", f"CACHE = {str(cache)!r}")
    (folder / "hog.py").write_text(source)
    return folder


@pytest.fixture
def filled_cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HOG_CACHE", str(folder))
    monkeypatch.setattr(project, "CACHE", folder)
    case_source.hidden_cases.cache_clear()
    case_source.grading_cases(load_variant("sp19"))
    yield folder / "hidden"
    case_source.hidden_cases.cache_clear()


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

CONTAINED = """
import json, sys
from grader.sandbox import run_cases, Limits
report = run_cases(sys.argv[1], [["loot()"], ["'play' in dir()"], ["reach_out()"]], minimum="files",
                   limits=Limits(case_seconds=2.0))
print(json.dumps([report.level, [case.steps[-1].output or case.steps[-1].error for case in report.cases]]))
"""
REACH_OUT = """

def reach_out():
    import os
    tried = []
    for path in ("/dev/tty", f"/proc/{os.getppid()}/fd", f"/proc/{os.getppid()}/cmdline", "/proc/self/fd"):
        try:
            os.listdir(path) if path.endswith("fd") else open(path, "rb").read(1)
            tried.append(path + " opened")
        except OSError as error:
            tried.append(type(error).__name__)
    try:
        os.memfd_create("x")
        tried.append("memfd made")
    except OSError as error:
        tried.append(type(error).__name__)
    return tried
"""


def in_container(command: list[str], *, env: dict | None = None, timeout: float = 600,
                 **options) -> subprocess.CompletedProcess:
    """``command`` as in a container that refuses namespaces (tests/tools/nouserns.py, without
    CAP_SYS_ADMIN); skipped where that cannot be simulated. ``env``: the whole environment (default:
    this one with the checkout on PYTHONPATH and no HOG_SANDBOX)."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0 or level.landlock_unavailable():
        pytest.skip("needs root, setpriv and Landlock to simulate a container")
    if env is None:
        env = {key: value for key, value in os.environ.items() if key != "HOG_SANDBOX"}
        env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([setpriv, "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin", sys.executable,
                           str(ROOT / "tests" / "tools" / "nouserns.py"), *command],
                          capture_output=True, text=True, env=env, timeout=timeout, **options)


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
