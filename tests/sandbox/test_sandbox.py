"""The sandbox, as a user of the grader sees it.

Most tests run at every isolation level the machine offers: bubblewrap (a
private file-system view), files (Landlock, as in a container without
namespaces: HOG_SANDBOX=files) and process (limits only: HOG_SANDBOX=process).  Hostile submissions live in
tests/submissions/hostile/; small honest ones are written inline.
"""

from __future__ import annotations

import ast
import marshal
import builtins
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

import grader
from grader import sandbox
from grader.sandbox import (CaseRun, Limits, SandboxReport, StepKind, StepResult, boot, channel, child, level,
                            namespaces, run_cases)
from grader.sandbox import run as sandbox_run
from grader.sandbox import scratch as sandbox_scratch
from tests import TESTS

HOSTILE = TESTS / "submissions" / "hostile"
FAST = Limits(case_seconds=1.0, total_seconds=60.0, wall_seconds=6.0)
FILTERED = "; the system call filter refused every change to files, but the submission could read the grader's files)"
NOT_PLAIN = "which is not a plain value (int, float, bool, str, None, list, tuple, dict)"
HONEST = """
    def square(x):
        return x * x

    def chatty(x):
        print("rolling", x)
        return x + 1
"""


def bubblewrap_missing() -> str | None:
    return namespaces.unavailable()


def Step(output: str, error: str | None = None, error_type: str | None = None,
         kind: StepKind | None = None) -> StepResult:
    """A step result as expected; the kind, unless given, follows from the kind of message expected."""
    if kind is None and error is not None:
        kinds = [("Timeout: ", StepKind.TIMEOUT), ("the submission ended the process", StepKind.CRASH),
                 ("the submission's process was killed", StepKind.CRASH),
                 ("the submission did not import: the submission", StepKind.CRASH),
                 ("the submission did not import: Timeout", StepKind.TIMEOUT),
                 (sandbox.TAMPERED, StepKind.TAMPERED)]
        kind = next((found for start, found in kinds if error.startswith(start)), StepKind.ERROR)
    return StepResult(output, error, error_type, kind or StepKind.OK)


def submit(tmp_path: Path, source: str | None = None, hostile: str | None = None) -> Path:
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    if hostile is not None:
        source = (HOSTILE / hostile).read_text()
    (folder / "hog.py").write_text(textwrap.dedent(source))
    return folder


def run(tmp_path, cases, source=HONEST, hostile=None, limits=FAST, **options) -> SandboxReport:
    return run_cases(submit(tmp_path, source, hostile), cases, limits=limits, **options)


def errors(report: SandboxReport) -> list[str | None]:
    return [case.steps[-1].error if case.steps else None for case in report.cases]


def assert_honest_case_passes(case: CaseRun, output: str = "9\n") -> None:
    assert case.steps == [Step(output, None, None)]


# ---------------------------------------------------------------------------
# Ordinary cases
# ---------------------------------------------------------------------------

def test_expressions_statements_definitions_and_printed_output(tmp_path, mode):
    report = run(tmp_path, [
        ["square(3)", "x = 4", "square(x)", "chatty(1)", "print('hi')", "None"],
        ["def twice(f):\n    return lambda y: f(f(y))\n", "twice(square)(3)", "twice",
         "(1, [2.5, 'a'], {'k': (True, None)}, -7, 2 ** 100)"],
        [],
    ])
    assert report.import_error is None
    assert report.level == {"bwrap": "bubblewrap", "files": "files", "process": "process"}[mode]
    assert report.isolation == {
        "bwrap": "bubblewrap", "files": report.isolation if report.isolation.startswith("files (layers: Landlock, ") else "",
        "process": "process limits only (file isolation off: HOG_SANDBOX=process is set" + FILTERED}[mode]
    first, second, empty = report.cases
    assert [step.output for step in first.steps] == ["9\n", "", "16\n", "rolling 1\n2\n", "hi\n", ""]
    assert all(step.error is None for step in first.steps + second.steps)
    assert [step.output for step in second.steps] == [
        "", "81\n", "<function twice>\n",
        "(1, [2.5, 'a'], {'k': (True, None)}, -7, 1267650600228229401496703205376)\n"]
    assert empty == CaseRun([], empty.seconds)
    assert all(case.seconds >= 0 for case in report.cases)


def test_each_case_gets_a_fresh_namespace(tmp_path, mode):
    report = run(tmp_path, [["y = 5", "y", "__name__"], ["y"]])
    assert [step.output for step in report.cases[0].steps] == ["", "5\n", "'__main__'\n"]
    assert report.cases[1].steps[-1].error == "NameError: name 'y' is not defined"


def test_exception_stops_the_case_and_keeps_earlier_output(tmp_path, mode):
    source = HONEST + """
    def fails(x):
        print("before")
        assert x > 0, "x must be positive"
        return x
    """
    report = run(tmp_path, [["square(2)", "fails(-1)", "square(3)"], ["1 / 0"], ["square(3)"]],
                 source=source)
    failing = report.cases[0]
    assert len(failing.steps) == 2  # the third step never ran
    assert failing.steps[1] == Step("before\n", "AssertionError: x must be positive",
                                          "AssertionError")
    assert report.cases[1].steps == [Step("", "ZeroDivisionError: division by zero",
                                                "ZeroDivisionError")]
    assert_honest_case_passes(report.cases[2])


def test_import_output_is_reported(tmp_path, mode):
    report = run(tmp_path, [["square(3)"]], source="print('loading hog')\n" + textwrap.dedent(HONEST))
    assert report.stdout_during_import == "loading hog\n"
    assert_honest_case_passes(report.cases[0])


def test_setup_error_fails_the_case_with_that_error(tmp_path, mode):
    report = run(tmp_path, [["square(3)"], ["square(4)"]],
                 setup=("from hog import *\n", "from hog import missing_function\n"))
    for case in report.cases:
        assert len(case.steps) == 1
        assert case.steps[0].error.startswith(
            "the setup step `from hog import missing_function` failed: ImportError: cannot import name")
        assert case.steps[0].error_type == "ImportError"


def test_names_that_shadow_builtins_are_removed_unless_allowed(tmp_path, mode):
    cases = [["sum([1, 2])", "len('abc')", "print('ok')", "max(1, 2)", "square(3)"]]
    report = run(tmp_path, cases, hostile="shadows_builtins.py")
    assert [step.output for step in report.cases[0].steps] == ["3\n", "3\n", "ok\n", "2\n", "9\n"]
    allowed = run(tmp_path, cases, hostile="shadows_builtins.py", names=["sum", "square"])
    assert [step.output for step in allowed.cases[0].steps] == [
        "'student sum'\n", "3\n", "ok\n", "2\n", "9\n"]


def test_support_files_replace_student_copies_and_other_files_come_along(tmp_path, mode):
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "hog.py").write_text("from dice import roll\nfrom helper import helps\n")
    (folder / "dice.py").write_text("def roll():\n    return 'student dice'\n")
    (folder / "helper.py").write_text("def helps():\n    return 'student helper'\n")
    (folder / "notes.txt").write_text("not copied")
    report = run_cases(folder, [["roll()", "helps()", "import os; found = sorted(os.listdir('.'))",
                                 "found"]],
                       support_files={"dice.py": "def roll():\n    return 'kit dice'\n"}, limits=FAST)
    assert [step.output for step in report.cases[0].steps] == [
        "'kit dice'\n", "'student helper'\n", "", "['dice.py', 'helper.py', 'hog.py']\n"]


def test_bad_arguments_are_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no hog.py in the submission folder"):
        run_cases(tmp_path, [["1"]])
    with pytest.raises(FileNotFoundError, match="does not exist"):
        run_cases(tmp_path / "nowhere.py", [["1"]])
    (tmp_path / "real.py").write_text("x = 1\n")
    with pytest.raises(TypeError, match="list of steps"):
        run_cases(tmp_path / "real.py", ["square(3)"])
    with pytest.raises(ValueError, match="case_seconds"):
        run_cases(tmp_path / "real.py", [["1"]], limits=Limits(case_seconds=0))
    with pytest.raises(ValueError, match="plain file name"):
        run_cases(tmp_path / "real.py", [["1"]], support_files={"../dice.py": ""})


LINKED = ("hog.py is a symbolic link; the grader only takes the file itself "
          "(submit a copy of the file, not a link to it)")


def test_a_linked_hog_py_is_the_submissions_fault_and_nothing_runs(tmp_path):
    (tmp_path / "real.py").write_text("def square(x):\n    return x * x\n")
    folder = tmp_path / "sym"
    folder.mkdir()
    (folder / "hog.py").symlink_to(tmp_path / "real.py")
    for submission in (folder, folder / "hog.py"):
        report = run_cases(submission, [["square(3)"], ["square(4)"]], limits=FAST)
        assert report.import_error == LINKED
        assert report.isolation == sandbox.NOT_RUN
        assert [case.steps for case in report.cases] == [
            [Step("", f"the submission did not import: {LINKED}", None)]] * 2


def test_an_unreadable_hog_py_is_the_submissions_fault(tmp_path, monkeypatch):
    (tmp_path / "hog.py").write_text("x = 1\n")
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        if str(path).endswith("hog.py"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(sandbox_scratch.os, "open", refusing_open)
    report = run_cases(tmp_path, [["x"]], limits=FAST)
    assert report.import_error == "cannot read hog.py: Permission denied"
    assert report.cases[0].steps[0].error == "the submission did not import: cannot read hog.py: Permission denied"


# ---------------------------------------------------------------------------
# Imports that fail
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("hostile, error, error_type", [
    ("import_syntax_error.py", "SyntaxError: invalid syntax (hog.py, line 5)", "SyntaxError"),
    ("import_raises.py", "ZeroDivisionError: division by zero (hog.py, line 5)", "ZeroDivisionError"),
    ("import_exits.py", "SystemExit: 3 (the submission tried to end the process at hog.py, line 4)",
     "SystemExit"),
    ("import_os_exit.py", "the submission ended the process while importing (exit code 5)", None),
    ("import_loops.py", "Timeout: importing the submission used more than 1 s of CPU time", None),
])
def test_import_failure_fails_every_case(tmp_path, mode, hostile, error, error_type):
    report = run(tmp_path, [["square(3)"], ["square(4)"]], hostile=hostile)
    assert report.import_error == error
    for case in report.cases:
        assert case.steps == [Step("", f"the submission did not import: {error}", error_type)]


# ---------------------------------------------------------------------------
# Cases that do not finish, or end the process
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_loops_sleeps_and_ignored_signals_time_out_and_the_batch_goes_on(tmp_path, mode):
    report = run(tmp_path, [["square(2)", "forever()"], ["square(3)"], ["nap()"], ["square(3)"],
                            ["stubborn()"], ["square(3)"]], hostile="loops.py")
    # A busy loop is stopped by its CPU time, whatever the load; a sleep after a second of waiting.
    busy, sleeping, stubborn = report.cases[0:6:2]
    assert busy.steps[-1] == Step("", "Timeout: the case used more than 1 s of CPU time")
    assert busy.seconds > 0.9
    for timed_out in (sleeping, stubborn):
        assert timed_out.steps[-1] == Step("", "Timeout: the case waited more than 1 s without computing "
                                               "(asleep or blocked)")
        assert 0.9 < timed_out.seconds < 5
    assert report.cases[0].steps[0] == Step("4\n", None, None)  # ran before the loop
    for honest in report.cases[1:6:2]:
        assert_honest_case_passes(honest)


def test_a_case_blocked_on_a_pipe_a_lock_or_select_is_out_of_time_after_a_second_of_waiting(tmp_path, mode):
    started = time.monotonic()
    report = run(tmp_path, [["wait_on_pipe()"], ["wait_on_lock()"], ["wait_in_select()"], ["square(3)"]],
                 hostile="loops.py")
    assert errors(report)[:3] == ["Timeout: the case waited more than 1 s without computing (asleep or blocked)"] * 3
    assert_honest_case_passes(report.cases[3])
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("call, error, error_type", [
    ("call_sys_exit()", "SystemExit: 3 (the submission tried to end the process)", "SystemExit"),
    ("raise_system_exit()", "SystemExit: 4 (the submission tried to end the process)", "SystemExit"),
    ("interrupt()", "KeyboardInterrupt", "KeyboardInterrupt"),
    ("call_os_exit()", "the submission ended the process (exit code 3)", None),
    ("crash()", "the submission's process was killed by SIGSEGV", None),
    ("kill_self()", "the submission's process was killed by SIGKILL", None),
])
def test_ending_the_process_fails_only_that_case(tmp_path, mode, call, error, error_type):
    report = run(tmp_path, [["square(3)"], [call, "square(3)"], ["square(3)"]], hostile="exits.py")
    assert_honest_case_passes(report.cases[0])
    assert report.cases[1].steps == [Step("", error, error_type)]
    assert_honest_case_passes(report.cases[2])


@pytest.mark.slow
def test_a_case_starved_of_the_cpu_by_a_busy_machine_is_not_waiting(tmp_path, monkeypatch):
    """A busy process of high priority shares one core with the sandbox (and the grader), so the
    case's 0.03 s of computing take seconds of wall-clock time in which its CPU time hardly moves,
    runnable all along: that is not waiting, though it lasts far longer than the 0.2 s allowed."""
    if os.geteuid() != 0 or not os.path.exists("/proc/self/autogroup"):
        pytest.skip("needs root and scheduler autogroups to starve a process on purpose")
    monkeypatch.setenv("HOG_SANDBOX", "process")
    core = {min(os.sched_getaffinity(0))}
    kept = os.sched_getaffinity(0)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    try:
        os.sched_setaffinity(busy.pid, core)
        Path(f"/proc/{busy.pid}/autogroup").write_text("-20")
        os.sched_setaffinity(0, core)
        report = run_cases(submit(tmp_path, hostile="loops.py"), [["spin(0.03)"]],
                           limits=Limits(case_seconds=3.0, total_seconds=60.0, wait_seconds=0.2))
    finally:
        os.sched_setaffinity(0, kept)
        busy.kill()
        busy.wait()
    assert report.cases[0].steps == [Step("'done'\n")]
    assert report.cases[0].seconds > 1.0      # starved far longer than it may wait


SHARES = Limits(case_seconds=1.0, total_seconds=1.6, wall_seconds=6.0)   # two questions: 0.8 s each
A_THEN_B = [["spin(0.5)"], ["spin(0.5)"], ["spin(0.5)"], ["square(3)"], ["spin(0.3)"]]   # questions a, a, a, b, b


def assert_a_ran_out_of_its_share_and_b_ran(report: SandboxReport) -> None:
    """A_THEN_B under SHARES: a's second case runs past a's 0.8 s, a's third is skipped, b runs in full."""
    assert report.cases[0].steps == [Step("'done'\n")]
    assert errors(report)[1:3] == [
        "Timeout: the case used up what was left of its question's share of the time (0.8 s of the "
        "submission's own time)", sandbox.SKIPPED_AFTER_TIMEOUT]
    assert_honest_case_passes(report.cases[3])
    assert report.cases[4].steps == [Step("'done'\n")]


def test_a_question_that_uses_up_its_share_of_the_time_skips_only_its_own_cases(tmp_path, mode):
    """Two groups share 1.6 s of the submission's own time: 0.8 s each. Question a's cases each compute
    for 0.5 s, under the case limit; the second one runs past a's share, a's third is skipped, and
    question b still runs in full."""
    report = run_cases(submit(tmp_path, hostile="loops.py"), A_THEN_B, groups=["a", "a", "a", "b", "b"],
                       limits=SHARES)
    assert_a_ran_out_of_its_share_and_b_ran(report)


# ---------------------------------------------------------------------------
# Resources
# ---------------------------------------------------------------------------

def test_processes_threads_and_programs_cannot_be_started(tmp_path, mode):
    report = run(tmp_path, [["fork_bomb()"], ["spawn_sleeper()"], ["start_thread()"],
                            ["replace_process()"], ["square(3)"]], hostile="fork_bomb.py")
    assert errors(report)[:4] == ["PermissionError: [Errno 1] Operation not permitted",
                                  "PermissionError: [Errno 1] Operation not permitted",
                                  "RuntimeError: can't start new thread",
                                  "PermissionError: [Errno 1] Operation not permitted"]
    assert_honest_case_passes(report.cases[4])


def test_no_terminal_no_memfd_and_only_the_two_channels(tmp_path, mode):
    report = run(tmp_path, [["terminal()"], ["memory_file()"], ["descriptors()"], ["parent_command_line()"],
                            ["parent_descriptors()"], ["square(3)"]], hostile="reach_out.py")
    terminal, memfd, held, command_line, descriptors, honest = [case.steps[0].output for case in report.cases]
    assert terminal in ("'OSError'\n", "'PermissionError'\n")   # no controlling terminal (ENXIO), or Landlock
    assert memfd == "'PermissionError'\n"
    assert held.count(",") == 1  # the control pipe and the result pipe (and nothing the grader holds)
    if mode == "files":  # /proc is not readable at all
        assert command_line == descriptors == "'PermissionError'\n"
    assert_honest_case_passes(report.cases[5])


def test_a_flood_on_the_result_channel_is_cut_off_as_tampering(tmp_path, mode):
    report = run(tmp_path, [["flood()"], ["square(3)"]], hostile="reach_out.py")
    flooded = report.cases[0].steps[-1]
    assert flooded.kind is StepKind.TAMPERED and flooded.error == (
        "the result channel was tampered with: a message larger than 16 MiB")
    assert_honest_case_passes(report.cases[1])


def test_memory_hog_fails_cleanly(tmp_path, mode):
    # A smaller limit than the default 1 GiB keeps the test quick: filling memory takes time.
    limits = Limits(case_seconds=5.0, memory_bytes=256 << 20)
    report = run(tmp_path, [["allocate_4gb()"], ["grow_forever()"], ["square(3)"]],
                 hostile="memory_hog.py", limits=limits)
    assert report.cases[0].steps == [Step("", "MemoryError", "MemoryError")]
    assert report.cases[1].steps == [Step("", "MemoryError", "MemoryError")]
    assert_honest_case_passes(report.cases[2])


def test_no_file_can_be_written_so_none_grows_huge(tmp_path, mode):
    report = run(tmp_path, [["write_huge_temp_file()"], ["write_beside_submission()"],
                            ["fill_shared_memory()"], ["square(3)"]], hostile="huge_file.py")
    temp, beside, shared, honest = report.cases
    # tempfile tries /tmp, /var/tmp, /usr/tmp and the current folder, and may write in none.
    assert temp.steps[0].error.startswith("FileNotFoundError: [Errno 2] No usable temporary directory found in ")
    assert beside.steps == [Step(
        "", "PermissionError: [Errno 1] Operation not permitted: 'notes.txt'", "PermissionError")]
    assert shared.steps == [Step("'PermissionError after 0 files: Operation not permitted'\n", None, None)]
    assert not (tmp_path / "submission" / "notes.txt").exists()
    assert_honest_case_passes(honest)


def test_without_the_filter_the_size_limit_still_stops_a_huge_file(tmp_path, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    if bubblewrap_missing():
        pytest.skip("bubblewrap is not available here")
    monkeypatch.setattr(sandbox_run, "SECCOMP", False)
    report = run(tmp_path, [["write_huge_temp_file()"], ["write_beside_submission()"]], hostile="huge_file.py")
    assert report.isolation == "bubblewrap (no system call filter: the grader turned it off)"
    assert report.cases[0].steps == [Step("", "OSError: [Errno 27] File too large", "OSError")]
    # The submission's folder is read-only inside bubblewrap.
    assert report.cases[1].steps == [Step(
        "", "OSError: [Errno 30] Read-only file system: 'notes.txt'", "OSError")]


def test_signals_tracing_and_limits_stay_inside(tmp_path, mode):
    report = run(tmp_path, [["signal_parent()"], ["signal_everyone()"], ["raise_memory_limit()"],
                            ["survive_grader()"], ["square(3)"]], hostile="escape.py")
    assert errors(report)[:2] == ["PermissionError: [Errno 1] Operation not permitted"] * 2
    assert report.cases[2].steps[0].error_type == "ValueError"  # not allowed to raise a limit
    assert report.cases[3].steps[0].error_type == "PermissionError"
    assert_honest_case_passes(report.cases[4])


# ---------------------------------------------------------------------------
# Lies and forgeries
# ---------------------------------------------------------------------------

def test_values_that_lie_are_not_plain(tmp_path, mode):
    report = run(tmp_path, [["roll()"], ["word()"], ["pair()"], ["nested()"], ["explode_on_repr()"],
                            ["roll() == 6", "square(3)"]], hostile="lying_values.py")
    assert errors(report)[:5] == [
        f"returned a value of type hog.Sneaky, {NOT_PLAIN}",
        f"returned a value of type hog.SneakyText, {NOT_PLAIN}",
        f"returned a value of type hog.SneakyTuple, {NOT_PLAIN}",
        f"returned a value containing an object of type hog.Sneaky, {NOT_PLAIN}",
        f"returned a value of type hog.Loud, {NOT_PLAIN}",
    ]
    # A comparison made inside the case still returns a real bool the grader can trust.
    assert report.cases[5].steps == [Step("True\n", None, None), Step("9\n", None, None)]


def test_an_impostor_in_a_table_of_numbers_is_refused_without_running_its_code(tmp_path, mode):
    report = run(tmp_path, [["table()"], ["posed()"]], hostile="lying_values.py")
    assert errors(report)[0] == f"returned a value containing an object of type hog.Impostor, {NOT_PLAIN}"
    assert report.cases[1].steps == [Step("False\n", None, None)]


def test_tables_of_numbers_come_back_exactly(tmp_path, mode):
    report = run(tmp_path, [["[3, -7, 2**53 - 1, -(2**53 - 1)]", "(1, 2, 2**53)", "[True, 1]", "[0]",
                             "list(range(-5000, 5000))", "[[1, 2], (3, -4)]", "[s > 2 for s in range(5)]"]])
    assert [step.output for step in report.cases[0].steps] == [
        "[3, -7, 9007199254740991, -9007199254740991]\n", "(1, 2, 9007199254740992)\n", "[True, 1]\n", "[0]\n",
        f"{list(range(-5000, 5000))}\n", "[[1, 2], (3, -4)]\n", "[False, False, False, True, True]\n"]
    assert report.cases[0].steps[4].value == list(range(-5000, 5000))


def test_builtins_json_and_doctest_patched_at_import_change_nothing(tmp_path, mode):
    report = run(tmp_path, [["roll()"], ["repr(roll())", "len([1, 2])", "type(1) is int"],
                            ["shout('hi')"], ["print('plain')", "square(4)"], ["1 / 0"]],
                 hostile="monkeypatch.py")
    assert report.import_error is None
    assert [[step.output for step in case.steps] for case in report.cases[:4]] == [
        ["5\n"], ["'5'\n", "2\n", "True\n"], ["HI\n"], ["plain\n", "16\n"]]
    assert errors(report) == [None, None, None, None, "ZeroDivisionError: division by zero"]


def test_forged_results_fail_the_forging_case_and_later_cases_stay_truthful(tmp_path, mode):
    report = run(tmp_path, [["square(3)"], ["answer(1)"], ["square(3)"], ["answer_ahead(3)"],
                            ["wrong()"], ["garbage()"], ["square(3)"], ["wrong()"]],
                 hostile="forge_results.py")
    assert_honest_case_passes(report.cases[0])
    for forged in (1, 3, 5):
        case = report.cases[forged]
        assert len(case.steps) == 1 and case.steps[0].error.startswith(
            "the result channel was tampered with"), case
        assert "42" not in case.steps[0].output
    assert_honest_case_passes(report.cases[2])
    assert report.cases[4].steps == [Step("-1\n", None, None)]  # no forged 42 leaked here
    assert_honest_case_passes(report.cases[6])
    assert report.cases[7].steps == [Step("-1\n", None, None)]


def test_forged_import_and_results_at_import_time_fail_everything(tmp_path, mode):
    report = run(tmp_path, [["square(3)"], ["square(3)"]], hostile="forge_at_import.py")
    assert report.import_error == "the result channel was tampered with while the submission was importing"
    assert all(case.steps[0].error.startswith("the submission did not import") for case in report.cases)


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


# ---------------------------------------------------------------------------
# Cleaning up
# ---------------------------------------------------------------------------

def _leftovers(folders: list[str]) -> list[str]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            state = Path(f"/proc/{entry}/stat").read_bytes().rpartition(b")")[2].split()[0]
            if state in (b"Z", b"X"):
                continue
            command = Path(f"/proc/{entry}/cmdline").read_bytes().decode("utf-8", "replace")
            try:
                where = os.readlink(f"/proc/{entry}/cwd")
            except OSError:
                where = ""
        except OSError:
            continue
        if any(folder in command or where.startswith(folder) for folder in folders):
            found.append(f"{entry}: {command[:100]}")
    return found


def test_no_process_or_scratch_folder_is_left_behind(tmp_path, mode, monkeypatch):
    made: list[str] = []
    real_mkdtemp = tempfile.mkdtemp

    def recording_mkdtemp(*args, **kwargs):
        made.append(real_mkdtemp(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", recording_mkdtemp)
    report = run(tmp_path, [["forever()"], ["square(3)"]], hostile="loops.py")
    assert report.cases[0].steps[-1].error == "Timeout: the case used more than 1 s of CPU time"
    assert_honest_case_passes(report.cases[1])
    forks = run(tmp_path, [["spawn_sleeper()"], ["fork_bomb()"]], hostile="fork_bomb.py")
    assert all(error.startswith("PermissionError") for error in errors(forks))
    assert made and not any(os.path.exists(folder) for folder in made)
    assert _leftovers(made) == []


# ---------------------------------------------------------------------------
# Protocol details
# ---------------------------------------------------------------------------

def test_rebuilt_values_reject_malformed_data():
    assert channel.rebuild(["t", ["i", "-0x2a"], ["f", "inf"], "s", None, True]) == \
        (-42, float("inf"), "s", None, True)
    assert repr(channel.rebuild(["d", ["t", ["i", "0x1"]], ["fn", "strategy"]])) == \
        "{(1,): <function strategy>}"
    assert channel.rebuild(["l", 3, -7, True, None, "s"]) == [3, -7, True, None, "s"]
    for bad in (["i", "42"], ["f", "1+1"], ["d", ["l"], None], ["x"], 1 << 60, ["l", 1 << 60], ["d", ["i", "0x1"]],
                ["l", ["i"]], {"i": 1}, ["l"] + [None] * 200_000):
        with pytest.raises(sandbox.model.Tampered):
            channel.rebuild(bad)


def test_harness_uses_only_builtins_captured_before_the_import():
    """Code in main() that runs after the submission is imported never looks up a builtin by name.

    Top-level statements of main() before the import run first and may use
    builtins (that is where they are captured); function bodies and every
    statement from the import on must use the captured names.
    """
    tree = ast.parse(boot.HARNESS.read_text())
    main = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main")
    bound = {arg.arg for arg in main.args.args}
    for node in ast.walk(main):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
            if isinstance(node, ast.FunctionDef):
                bound.update(arg.arg for arg in node.args.args)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    importing = next(index for index, statement in enumerate(main.body)
                     if any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                            and node.func.id == "_import" for node in ast.walk(statement)))
    checked = [statement for index, statement in enumerate(main.body)
               if index >= importing or isinstance(statement, (ast.FunctionDef, ast.ClassDef))]
    assert len(checked) > 10
    problems = [f"line {node.lineno}: {node.id}"
                for statement in checked for node in ast.walk(statement)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                and node.id not in bound and hasattr(builtins, node.id)]
    assert problems == []


def test_after_a_timeout_the_rest_of_its_group_is_not_run(tmp_path):
    hog = tmp_path / "hog.py"
    hog.write_text("def spin():\n    while True:\n        pass\n\ndef two():\n    return 2\n")
    cases = [["spin()"], ["spin()"], ["two()"], ["spin()"], ["two()"]]
    report = run_cases(hog, cases, limits=Limits(case_seconds=1.0), groups=["a", "a", "b", "a", "c"])
    errors = [case.steps[0].error for case in report.cases]
    assert report.cases[0].steps[0].kind is StepKind.TIMEOUT
    assert [report.cases[i].steps[0].kind for i in (1, 3)] == [StepKind.SKIPPED] * 2
    assert errors[1] == errors[3] == sandbox.SKIPPED_AFTER_TIMEOUT
    assert [report.cases[i].steps[0].output for i in (2, 4)] == ["2\n", "2\n"]


def test_a_result_already_written_is_read_before_a_time_limit_is_declared(tmp_path):
    """The sandbox runs ahead of the grader: when the grader looks at the CPU time, the end of the
    case may already be waiting, and the time spent since belongs to the next case."""
    script = "import os, sys\nos.write(int(sys.argv[2]), b'[\"end\", 0]\\n')\nwhile True:\n    pass\n"
    spinning = child.Child([sys.executable, "-c", script], dict(os.environ), str(tmp_path), False)
    try:
        time.sleep(0.5)   # the message is in the pipe; the process has used CPU time since
        waiting = spinning.next(time.monotonic() + 10, cpu_limit=0.0)
        assert waiting.kind == "message" and waiting.message == ["end", 0]
        assert spinning.next(time.monotonic() + 10, cpu_limit=0.0).kind == "timeout"
        late = spinning.next(time.monotonic() - 1)   # past the wall-clock deadline, nothing waiting
        assert late.kind == "timeout" and late.detail == "wall"
    finally:
        spinning.kill()


def test_the_harness_is_compiled_once_kept_signed_and_sent_down_the_control_pipe(tmp_path, monkeypatch):
    monkeypatch.setattr(grader.project, "CACHE", tmp_path)
    monkeypatch.setattr(boot, "_made", {})
    arguments, preamble = boot.start(namespaces.interpreter())
    assert arguments == ["-c", boot.BOOT]
    size, code = int.from_bytes(preamble[:8], "big"), preamble[8:]
    assert size == len(code) and marshal.loads(code).co_filename == "<harness>"
    stored, = (tmp_path / "harness").glob("harness-*.marshal")
    assert stored.read_bytes().split(b"\n", 1)[1] == code
    stored.write_bytes(stored.read_bytes()[:-1] + b"\0")           # changed on disk: noticed, compiled again
    monkeypatch.setattr(boot, "_made", {})
    assert boot.start(namespaces.interpreter())[1] == preamble
    # Another interpreter (another Python version, maybe) gets the text, which it compiles itself.
    assert boot.start("/usr/bin/true") == (["-c", boot.harness_text()], b"")
    (tmp_path / "text").mkdir()
    monkeypatch.setattr(boot, "compiled", lambda python: None)
    assert_honest_case_passes(run(tmp_path / "text", [["square(3)"]]).cases[0])
