"""The sandbox, as a user of the grader sees it: ordinary cases, and imports that fail.

Most tests run at every isolation level the machine offers: bubblewrap (a
private file-system view), files (Landlock, as in a container without
namespaces: HOG_SANDBOX=files) and process (limits only: HOG_SANDBOX=process).  Hostile submissions live in
tests/submissions/hostile/; small honest ones are written inline.
"""

from __future__ import annotations

import json
import os
import textwrap

import pytest

from grader import sandbox
from grader.sandbox import CaseRun, Limits, run_cases
from grader.sandbox import scratch as sandbox_scratch
from tests.sandbox.sandboxed import FAST, FILTERED, HONEST, Step, run, assert_honest_case_passes, LINKED


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


def test_support_files_in_a_folder_are_importable_readable_and_never_changed_by_the_submission(tmp_path, mode):
    """A course's tests/ package (a helper, a data file given as bytes) beside hog.py: importable from the
    case, readable from the working folder, and neither rewritten nor removed by the submission."""
    (tmp_path / "hog.py").write_text("x = 1\n")
    support = {"tests/__init__.py": "", "tests/helper.py": "def helps():\n    return 'course helper'\n",
               "tests/data/games.sol": b"1; 2\n"}
    tamper = ("import os\nrefused = []\nfor attempt in (lambda: open('tests/data/games.sol', 'w').write(''),\n"
              "        lambda: os.remove('tests/helper.py'), lambda: os.rename('tests', 'gone')):\n"
              "    try:\n        attempt()\n    except OSError:\n        refused.append(True)\n")
    report = run_cases(tmp_path / "hog.py", [[tamper, "refused", "from tests.helper import helps; print(helps())",
                                              "open('tests/data/games.sol').read()"]],
                       support_files=support, limits=FAST)
    assert [step.output for step in report.cases[0].steps] == [
        "", "[True, True, True]\n", "course helper\n", "'1; 2\\n'\n"]


def test_support_files_in_a_folder_reach_the_sandbox_inside_a_container_as_they_are(tmp_path, monkeypatch):
    """At the container level the request (JSON, as the container's kit reads it from its standard input)
    carries each support file, text or bytes, in its folder: the kit inside writes them as given."""
    from grader.sandbox import container, inside
    from grader.sandbox.engine import Engine

    class Session:   # the container's kit, here in this process: what it reads is the request as JSON
        def grade(self, request, on_result, deadline, seconds):
            return inside.grade(json.loads(json.dumps(request)), on_result)

    monkeypatch.setattr(container, "_session_for", lambda engine, image, limits: Session())
    (tmp_path / "hog.py").write_text("x = 1\n")
    support = {"tests/__init__.py": "", "tests/data.sol": b"\xff\x00 bytes", "dice.py": "ROLL = 4\n"}
    report = container.run_cases(tmp_path / "hog.py", [["print(open('tests/data.sol', 'rb').read())",
                                                        "import dice", "dice.ROLL"]], [], support, FAST, None, None,
                                 None, Engine("docker", "/bin/true"), "image", 10.0)
    assert [step.output for step in report.cases[0].steps] == ["b'\\xff\\x00 bytes'\n", "", "4\n"]


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

@pytest.mark.slow
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


