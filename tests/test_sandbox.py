"""The sandbox, as a user of the grader sees it.

Most tests run twice: with bubblewrap (file and network isolation) and with
HOG_SANDBOX=process (process limits only).  Hostile submissions live in
tests/submissions/hostile/; small honest ones are written inline.
"""

from __future__ import annotations

import ast
import builtins
import os
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

import grader
from grader import sandbox
from grader.sandbox import CaseRun, Limits, SandboxReport, StepResult, run_cases

HOSTILE = Path(__file__).parent / "submissions" / "hostile"
FAST = Limits(case_seconds=1.0, total_seconds=30.0)
NOT_PLAIN = "which is not a plain value (int, float, bool, str, None, list, tuple, dict)"
HONEST = """
    def square(x):
        return x * x

    def chatty(x):
        print("rolling", x)
        return x + 1
"""


@pytest.fixture(params=["bwrap", "process"])
def mode(request, monkeypatch):
    if request.param == "process":
        monkeypatch.setenv("HOG_SANDBOX", "process")
    else:
        monkeypatch.delenv("HOG_SANDBOX", raising=False)
        bwrap, isolation = sandbox._isolation()
        if bwrap is None:
            pytest.skip(isolation)
    return request.param


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
    assert case.steps == [StepResult(output, None, None)]


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
    assert report.isolation == ("bubblewrap" if mode == "bwrap" else
                                "process limits only (file isolation off: HOG_SANDBOX=process is set)")
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
    assert failing.steps[1] == StepResult("before\n", "AssertionError: x must be positive",
                                          "AssertionError")
    assert report.cases[1].steps == [StepResult("", "ZeroDivisionError: division by zero",
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
    (tmp_path / "hog.py").symlink_to(tmp_path / "real.py")
    with pytest.raises(ValueError, match="symbolic link"):
        run_cases(tmp_path, [["1"]])
    with pytest.raises(TypeError, match="list of steps"):
        run_cases(tmp_path / "real.py", ["square(3)"])
    with pytest.raises(ValueError, match="case_seconds"):
        run_cases(tmp_path / "real.py", [["1"]], limits=Limits(case_seconds=0))
    with pytest.raises(ValueError, match="plain file name"):
        run_cases(tmp_path / "real.py", [["1"]], support_files={"../dice.py": ""})


# ---------------------------------------------------------------------------
# Imports that fail
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("hostile, error, error_type", [
    ("import_syntax_error.py", "SyntaxError: invalid syntax (hog.py, line 5)", "SyntaxError"),
    ("import_raises.py", "ZeroDivisionError: division by zero (hog.py, line 5)", "ZeroDivisionError"),
    ("import_exits.py", "SystemExit: 3 (the submission tried to end the process at hog.py, line 4)",
     "SystemExit"),
    ("import_os_exit.py", "the submission ended the process while importing (exit code 5)", None),
    ("import_loops.py", "Timeout: importing the submission took longer than 1 s", None),
])
def test_import_failure_fails_every_case(tmp_path, mode, hostile, error, error_type):
    report = run(tmp_path, [["square(3)"], ["square(4)"]], hostile=hostile)
    assert report.import_error == error
    for case in report.cases:
        assert case.steps == [StepResult("", f"the submission did not import: {error}", error_type)]


# ---------------------------------------------------------------------------
# Cases that do not finish, or end the process
# ---------------------------------------------------------------------------

def test_loops_sleeps_and_ignored_signals_time_out_and_the_batch_goes_on(tmp_path, mode):
    report = run(tmp_path, [["square(2)", "forever()"], ["square(3)"], ["nap()"], ["square(3)"],
                            ["stubborn()"], ["square(3)"]], hostile="loops.py")
    for timed_out in report.cases[0:6:2]:
        assert timed_out.steps[-1] == StepResult("", "Timeout: the case ran longer than 1 s", None)
        assert 0.9 < timed_out.seconds < 3
    assert report.cases[0].steps[0] == StepResult("4\n", None, None)  # ran before the loop
    for honest in report.cases[1:6:2]:
        assert_honest_case_passes(honest)


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
    assert report.cases[1].steps == [StepResult("", error, error_type)]
    assert_honest_case_passes(report.cases[2])


def test_total_time_limit_fails_the_remaining_cases(tmp_path, mode):
    limits = Limits(case_seconds=1.0, total_seconds=1.5)
    report = run(tmp_path, [["forever()"], ["forever()"], ["square(3)"]], hostile="loops.py",
                 limits=limits)
    assert errors(report) == ["Timeout: the case ran longer than 1 s",
                              "Timeout: the whole batch ran longer than 1.5 s",
                              "not run: the whole batch ran longer than 1.5 s"]


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


def test_memory_hog_fails_cleanly(tmp_path, mode):
    # A smaller limit than the default 1 GiB keeps the test quick: filling memory takes time.
    limits = Limits(case_seconds=5.0, memory_bytes=256 << 20)
    report = run(tmp_path, [["allocate_4gb()"], ["grow_forever()"], ["square(3)"]],
                 hostile="memory_hog.py", limits=limits)
    assert report.cases[0].steps == [StepResult("", "MemoryError", "MemoryError")]
    assert report.cases[1].steps == [StepResult("", "MemoryError", "MemoryError")]
    assert_honest_case_passes(report.cases[2])


def test_huge_file_is_stopped_at_the_size_limit(tmp_path, mode):
    report = run(tmp_path, [["write_huge_temp_file()"], ["write_beside_submission()"], ["square(3)"]],
                 hostile="huge_file.py")
    assert report.cases[0].steps == [StepResult("", "OSError: [Errno 27] File too large", "OSError")]
    if mode == "bwrap":  # the submission's folder is read-only inside bubblewrap
        assert report.cases[1].steps == [StepResult(
            "", "OSError: [Errno 30] Read-only file system: 'notes.txt'", "OSError")]
        shared = run(tmp_path, [["fill_shared_memory()"]], hostile="huge_file.py")
        assert shared.cases[0].steps == [StepResult(
            "'OSError after 64 files: No space left on device'\n", None, None)]
    assert_honest_case_passes(report.cases[2])


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
    assert report.cases[5].steps == [StepResult("True\n", None, None), StepResult("9\n", None, None)]


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
    assert report.cases[4].steps == [StepResult("-1\n", None, None)]  # no forged 42 leaked here
    assert_honest_case_passes(report.cases[6])
    assert report.cases[7].steps == [StepResult("-1\n", None, None)]


def test_forged_import_and_results_at_import_time_fail_everything(tmp_path, mode):
    report = run(tmp_path, [["square(3)"], ["square(3)"]], hostile="forge_at_import.py")
    assert report.import_error == "the result channel was tampered with while the submission was importing"
    assert all(case.steps[0].error.startswith("the submission did not import") for case in report.cases)


# ---------------------------------------------------------------------------
# File system and network
# ---------------------------------------------------------------------------

def test_kit_files_are_unreadable_inside_bubblewrap(tmp_path, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    if sandbox._isolation()[0] is None:
        pytest.skip("bubblewrap is not available here")
    package = Path(grader.__file__).resolve().parent
    root = package.parent
    files = [package / "sandbox.py", package / "harness.py", root / "pyproject.toml",
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
    if sandbox._isolation()[0] is None:
        pytest.skip("bubblewrap is not available here")
    site_packages = [path for path in sandbox._hidden_paths() if os.path.isdir(path)
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
    if sandbox._isolation()[0] is None:
        pytest.skip("bubblewrap is not available here")
    report = run(tmp_path, [["interfaces()"]], hostile="network.py")
    assert report.cases[0].steps == [StepResult("['lo']\n", None, None)]


def test_missing_bubblewrap_falls_back_and_says_why(tmp_path, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    monkeypatch.setattr(sandbox, "_bwrap_path", lambda: None)
    report = run(tmp_path, [["square(3)"]])
    assert report.isolation == ("process limits only (file isolation off: "
                                "bubblewrap (bwrap) is not installed)")
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
    report = run(tmp_path, [["stubborn()"], ["square(3)"]], hostile="loops.py")
    assert report.cases[0].steps[-1].error == "Timeout: the case ran longer than 1 s"
    assert_honest_case_passes(report.cases[1])
    forks = run(tmp_path, [["spawn_sleeper()"], ["fork_bomb()"]], hostile="fork_bomb.py")
    assert all(error.startswith("PermissionError") for error in errors(forks))
    assert made and not any(os.path.exists(folder) for folder in made)
    assert _leftovers(made) == []


# ---------------------------------------------------------------------------
# Protocol details
# ---------------------------------------------------------------------------

def test_rebuilt_values_reject_malformed_data():
    assert sandbox._rebuild(["t", ["i", "-0x2a"], ["f", "inf"], "s", None, True]) == \
        (-42, float("inf"), "s", None, True)
    assert repr(sandbox._rebuild(["d", ["t", ["i", "0x1"]], ["fn", "strategy"]])) == \
        "{(1,): <function strategy>}"
    assert sandbox._rebuild(["l", 3, -7, True, None, "s"]) == [3, -7, True, None, "s"]
    for bad in (["i", "42"], ["f", "1+1"], ["d", ["l"], None], ["x"], 1 << 60, ["l", 1 << 60], ["d", ["i", "0x1"]],
                ["l", ["i"]], {"i": 1}, ["l"] + [None] * 200_000):
        with pytest.raises(sandbox._Tampered):
            sandbox._rebuild(bad)


def test_harness_uses_only_builtins_captured_before_the_import():
    """Code in main() that runs after the submission is imported never looks up a builtin by name.

    Top-level statements of main() before the import run first and may use
    builtins (that is where they are captured); function bodies and every
    statement from the import on must use the captured names.
    """
    tree = ast.parse(sandbox.HARNESS.read_text())
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
    started = time.monotonic()
    report = run_cases(hog, cases, limits=Limits(case_seconds=1.0), groups=["a", "a", "b", "a", "c"])
    assert time.monotonic() - started < 4
    errors = [case.steps[0].error for case in report.cases]
    assert errors[0].startswith("Timeout")
    assert errors[1] == errors[3] == sandbox.SKIPPED_AFTER_TIMEOUT
    assert [report.cases[i].steps[0].output for i in (2, 4)] == ["2\n", "2\n"]
